/* SPDX-License-Identifier: Apache-2.0 */
/* Matching the results of saved reports: by case, by value. */
#include "compare/match.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonarena.h"
#include "base/parse.h"

int match_param_equal(const json_t *a, const json_t *b)
{
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	if (!a || !b)
		return a == b;
	return json_equal(a, b);
}

/* Nonzero when every parameter of a has its equal in b, but for by. */
static int params_in(const struct doc_result *a, const struct doc_result *b,
		     const char *by, int same_backend)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)a->params, key, v) {
		const json_t *w = json_object_get(b->params, key);

		if (by && strcmp(key, by) == 0)
			continue;
		if (!w && !same_backend)
			continue; /* a backend's own option */
		if (!match_param_equal(v, w))
			return 0;
	}
	return 1;
}

int match_case(const struct doc_result *a, const struct doc_result *b,
	       const char *by)
{
	int same_backend = strcmp(a->backend, b->backend) == 0;

	if (strcmp(a->job, b->job) != 0 || strcmp(a->target, b->target) != 0)
		return 0;
	if (!same_backend && !(by && strcmp(by, "backend") == 0))
		return 0;
	return params_in(a, b, by, same_backend) &&
	       params_in(b, a, by, same_backend);
}

/* Nonzero when the number v is what text says: a size, else a number. */
static int number_is(const json_t *v, const char *text)
{
	char why[128], *end;
	uint64_t size;
	double d;

	if (!parse_size(text, &size, why, sizeof(why)))
		return json_number_value(v) == (double)size;
	d = strtod(text, &end);
	return end != text && !*end && json_number_value(v) == d;
}

int match_value_is(const struct doc_result *d, const char *key,
		   const char *text)
{
	const json_t *v;
	char why[128];
	int b;

	if (strcmp(key, "backend") == 0)
		return strcmp(d->backend, text) == 0;
	v = json_object_get(d->params, key);
	if (json_is_string(v))
		return strcmp(json_string_value(v), text) == 0;
	if (json_is_number(v))
		return number_is(v, text);
	if (json_is_boolean(v))
		return !parse_bool(text, &b, why, sizeof(why)) &&
		       b == json_is_true(v);
	return 0;
}

int match_value_text(const struct doc_result *d, const char *key, char *buf,
		     size_t len)
{
	const json_t *v;
	double x;

	if (strcmp(key, "backend") == 0) {
		snprintf(buf, len, "%s", d->backend);
		return 0;
	}
	v = json_object_get(d->params, key);
	x = json_number_value(v);
	if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
	else if (json_is_number(v) && x >= 0 && x < 0x1p63 && x == floor(x))
		parse_format_size((uint64_t)x, buf, len);
	else if (json_is_number(v))
		snprintf(buf, len, "%g", x);
	else
		return -ENOENT;
	return 0;
}

/* strcmp() for qsort() over an array of strings. */
static int by_text(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* One parameter value, as match_param_equal() sees it, onto f. */
static int param_put(FILE *f, const json_t *v)
{
	char *text;

	if (json_is_number(v))
		return fprintf(f, "%.17g", json_number_value(v)) < 0;
	text = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	if (!text)
		return -1;
	fputs(text, f);
	jsonarena_free_text(text);
	return 0;
}

/* The parameters of r but by, in the order of their names, onto f. */
static int params_put(FILE *f, const struct doc_result *r, const char *by)
{
	size_t n = json_object_size(r->params), k = 0;
	const char **keys = calloc(n ? n : 1, sizeof(*keys));
	const char *key;
	json_t *v;
	int err = 0;

	if (!keys)
		return -1;
	json_object_foreach((json_t *)r->params, key, v)
		if (!by || strcmp(key, by) != 0)
			keys[k++] = key;
	qsort(keys, k, sizeof(*keys), by_text);
	for (size_t i = 0; i < k && !err; i++) {
		fprintf(f, "\x1f%s=", keys[i]);
		err = param_put(f, json_object_get(r->params, keys[i]));
	}
	free(keys);
	return err;
}

/*
 * r's key in a new string, or NULL. With by "backend" the backends may
 * differ and so may the parameters only one of them has: job and target
 * alone. Each key is written on the index's one memory stream, from its
 * start: a stream of its own for each would cost more than the key.
 */
static char *index_key(const struct match_index *ix, const struct doc_result *r)
{
	int loose = ix->by && strcmp(ix->by, "backend") == 0;
	FILE *f = ix->keys;
	long end;

	if (fseek(f, 0, SEEK_SET) ||
	    fprintf(f, "%s\x1f%s\x1f%s", r->job, r->target,
		    loose ? "" : r->backend) < 0 ||
	    (!loose && params_put(f, r, ix->by)) || fflush(f))
		return NULL;
	end = ftell(f);
	return end < 0 ? NULL : strndup(ix->text, (size_t)end);
}

int match_index_init(struct match_index *ix, const char *by)
{
	*ix = (struct match_index){ .by = by };
	ix->keys = open_memstream(&ix->text, &ix->len);
	ix->buckets = ix->keys ? json_object() : NULL;
	if (ix->buckets)
		return 0;
	match_index_free(ix);
	return -ENOMEM;
}

int match_index_add(struct match_index *ix, const struct doc_result *r,
		    size_t value)
{
	char *key = index_key(ix, r);
	json_t *bucket = key ? json_object_get(ix->buckets, key) : NULL;
	int err = -ENOMEM;

	if (!key)
		return -ENOMEM;
	if (!bucket) {
		bucket = json_array();
		if (json_object_set_new_nocheck(ix->buckets, key, bucket))
			bucket = NULL;
	}
	if (bucket &&
	    !json_array_append_new(bucket, json_integer((json_int_t)value)))
		err = 0;
	free(key);
	return err;
}

int match_index_get(const struct match_index *ix, const struct doc_result *r,
		    const json_t **values)
{
	char *key = index_key(ix, r);

	if (!key)
		return -ENOMEM;
	*values = json_object_get(ix->buckets, key);
	free(key);
	return 0;
}

void match_index_free(struct match_index *ix)
{
	jsonarena_decref(ix->buckets);
	ix->buckets = NULL;
	if (ix->keys)
		fclose(ix->keys);
	free(ix->text);
	ix->keys = NULL;
	ix->text = NULL;
}
