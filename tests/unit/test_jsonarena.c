/* SPDX-License-Identifier: Apache-2.0 */
/* jansson's allocations cut from an arena while a command reads reports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "check.h"
#include "base/jsonarena.h"

/* A document of n results, as a report's "results" holds them. */
static char *results_text(int n)
{
	json_t *doc = json_array();
	char *text;

	for (int i = 0; i < n; i++)
		json_array_append_new(doc, json_pack("{s:s, s:i, s:[f,f]}",
						     "job", "memcpy", "size", i,
						     "samples", 1.5, 2.5));
	text = json_dumps(doc, JSON_COMPACT);
	json_decref(doc);
	return text;
}

static int document_reads_the_same_in_the_arena(void)
{
	char *text = results_text(2000), *again, *copy;
	json_t *doc;
	int same;

	jsonarena_begin();
	doc = json_loads(text, 0, NULL);
	CHECK(doc != NULL);
	again = json_dumps(doc, JSON_COMPACT);
	CHECK(again != NULL);
	copy = strdup(again);
	jsonarena_free_text(again);
	jsonarena_decref(doc);
	jsonarena_end();
	same = copy && strcmp(copy, text) == 0;
	free(copy);
	free(text);
	CHECK(same);
	return 0;
}

static int malloc_again_after_the_arena(void)
{
	json_t *o;
	char *text;
	int same;

	jsonarena_begin();
	jsonarena_end();
	o = json_pack("{s:s}", "a", "b");
	CHECK(o != NULL);
	text = json_dumps(o, JSON_COMPACT);
	same = text && strcmp(text, "{\"a\":\"b\"}") == 0;
	jsonarena_free_text(text); /* free() now */
	jsonarena_decref(o);	   /* json_decref() now */
	CHECK(same);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"document_reads_the_same_in_the_arena", document_reads_the_same_in_the_arena},
	{"malloc_again_after_the_arena", malloc_again_after_the_arena},
};
/* clang-format on */

TEST_MAIN(tests)
