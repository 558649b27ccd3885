/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Another tool's JSON as the tools write it (import/import_json.h): text
 * around the object, bare NaN, keys twice, subtrees left unparsed, a
 * long array an element at a time, and every error at the file's line.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "import/import_json.h"

/* import_json() of text; *root the caller's. */
static int parsed(const char *text, const char *const *skip, json_t **root,
		  size_t *after, char *err, size_t errlen)
{
	return import_json(text, strlen(text), skip, root, after, err, errlen);
}

static int text_around_the_object_is_tolerated(void)
{
	const char *text = "fio: a warning first\n"
			   "{\"a\": 1}\n"
			   "iperf3: error - after it\n";
	json_t *root;
	size_t after;
	char err[256];

	CHECK_INT(parsed(text, NULL, &root, &after, err, sizeof(err)), 0);
	CHECK_NEAR(import_num(root, "a"), 1, 0);
	CHECK_STR(text + after, "\niperf3: error - after it\n");
	json_decref(root);
	return 0;
}

static int an_error_names_the_files_line(void)
{
	const char *text = "warning\nwarning\n{\n  \"a\": 1,,\n}\n";
	json_t *root;
	size_t after;
	char err[256];

	CHECK_INT(parsed(text, NULL, &root, &after, err, sizeof(err)), -EINVAL);
	CHECK(!root);
	CHECK_CONTAINS(err, "line 4:");
	CHECK_INT(parsed("no object here\n", NULL, &root, &after, err,
			 sizeof(err)),
		  -EINVAL);
	CHECK_CONTAINS(err, "no JSON object");
	return 0;
}

static int bare_nan_and_infinity_read_as_null(void)
{
	const char *text = "{\"x\": NaN, \"y\": -Infinity, \"z\": Infinity, "
			   "\"s\": \"NaN stays\", \"n\": 2, \"i\": -inf}";
	json_t *root;
	size_t after;
	char err[256];

	CHECK_INT(parsed(text, NULL, &root, &after, err, sizeof(err)), 0);
	CHECK(json_is_null(json_object_get(root, "x")));
	CHECK(json_is_null(json_object_get(root, "y")));
	CHECK(json_is_null(json_object_get(root, "z")));
	CHECK(json_is_null(json_object_get(root, "i")));
	CHECK_STR(json_string_value(json_object_get(root, "s")), "NaN stays");
	CHECK_NEAR(import_num(root, "n"), 2, 0);
	CHECK(isnan(import_num(root, "x")));
	json_decref(root);
	return 0;
}

static int a_key_twice_keeps_its_last_value(void)
{
	json_t *root;
	size_t after;
	char err[256];

	CHECK_INT(parsed("{\"error\": \"first\", \"error\": \"last\"}", NULL,
			 &root, &after, err, sizeof(err)),
		  0);
	CHECK_STR(json_string_value(json_object_get(root, "error")), "last");
	json_decref(root);
	return 0;
}

static int skipped_subtrees_are_null_and_lines_stay(void)
{
	static const char *const skip[] = { "bins", NULL };
	const char *text = "{\"bins\": {\"1\": 2,\n \"3\": 4},\n"
			   " \"keep\": {\"bins\": [1, 2, 3]},\n"
			   " \"name\": \"bins\", \"short\": {\"bins\": []},\n"
			   " \"bad\": ,}";
	json_t *root;
	size_t after;
	char err[256];

	CHECK_INT(parsed(text, skip, &root, &after, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "line 5:"); /* the skipped newline kept */
	CHECK_INT(parsed("{\"bins\": {\"1\": 2,\n \"3\": 4},\n \"keep\": "
			 "{\"bins\": [1, 2, 3]}, \"name\": \"bins\", "
			 "\"short\": {\"bins\": []}}",
			 skip, &root, &after, err, sizeof(err)),
		  0);
	CHECK(json_is_null(json_object_get(root, "bins")));
	CHECK(json_is_null(
		json_object_get(json_object_get(root, "keep"), "bins")));
	CHECK_STR(json_string_value(json_object_get(root, "name")), "bins");
	CHECK(json_is_array(
		json_object_get(json_object_get(root, "short"), "bins")));
	json_decref(root);
	return 0;
}

static int array_elements_are_spans_with_their_lines(void)
{
	const char *text = "warning\n{\"v\": \"x\", \"o\": {\"jobs\": [9]},\n"
			   " \"jobs\": [\n  {\"a\": 1},\n  {\"a\": [2, ]}\n ]}";
	struct import_span *spans;
	size_t n;
	json_t *job;
	char err[256];

	CHECK_INT(import_json_array(text, strlen(text), "jobs", &spans, &n, err,
				    sizeof(err)),
		  0);
	CHECK_INT(n, 2); /* the top object's, not o's */
	CHECK_INT(spans[0].line, 3);
	CHECK_INT(
		import_json_span(text, &spans[0], NULL, &job, err, sizeof(err)),
		0);
	CHECK_NEAR(import_num(job, "a"), 1, 0);
	json_decref(job);
	CHECK_INT(
		import_json_span(text, &spans[1], NULL, &job, err, sizeof(err)),
		-EINVAL);
	CHECK_CONTAINS(err, "line 5:");
	free(spans);
	CHECK_INT(import_json_array(text, strlen(text), "none", &spans, &n, err,
				    sizeof(err)),
		  0);
	CHECK_INT(n, 0);
	CHECK(!spans);
	CHECK_INT(import_json_array("{\"jobs\": [{\"a\": 1}", 17, "jobs",
				    &spans, &n, err, sizeof(err)),
		  -EINVAL);
	free(spans);
	return 0;
}

static const struct test tests[] = {
	{ "text_around_the_object_is_tolerated",
	  text_around_the_object_is_tolerated },
	{ "an_error_names_the_files_line", an_error_names_the_files_line },
	{ "bare_nan_and_infinity_read_as_null",
	  bare_nan_and_infinity_read_as_null },
	{ "a_key_twice_keeps_its_last_value",
	  a_key_twice_keeps_its_last_value },
	{ "skipped_subtrees_are_null_and_lines_stay",
	  skipped_subtrees_are_null_and_lines_stay },
	{ "array_elements_are_spans_with_their_lines",
	  array_elements_are_spans_with_their_lines },
};

TEST_MAIN(tests)
