/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading another tool's JSON as the tools write it (docs/interop.md):
 * text around the document (warnings before it, an error line after),
 * bare NaN and Infinity, keys given twice, and subtrees an importer does
 * not read left unparsed (a fio file of 10,000 jobs is mostly latency
 * buckets).
 */
#ifndef HB_CORE_IMPORT_IMPORT_JSON_H
#define HB_CORE_IMPORT_IMPORT_JSON_H

#include <stddef.h>

#include <jansson.h>

/*
 * Parse the JSON object of text (len bytes; name nothing: messages say
 * the line). Text before it (lines not starting with '{') and after it
 * is tolerated: *after is the offset where the object ends, len when the
 * object was read in a copy (skip, NaNs). skip (NULL, or NULL-terminated)
 * names keys whose object or array values are not read: each is null in
 * the document. A bare NaN, Infinity or -Infinity outside a string
 * (Google Benchmark writes them) reads as null; a key given twice keeps
 * its last value. On error -EINVAL with "line N: what" in err (N a line
 * of text), -ENOMEM; *root is then NULL.
 */
int import_json(const char *text, size_t len, const char *const *skip,
		json_t **root, size_t *after, char *err, size_t errlen);

/* One element of a JSON array in a text: its offset, length and line. */
struct import_span {
	size_t at, len;
	int line; /* the text's lines before it */
};

/*
 * The elements of the array that is the value of key in the object of
 * text (at its top level), into *spans (malloc'd, *n of them), so a long
 * array is parsed an element at a time (import_json_span()): 10,000 fio
 * jobs never are one document. *spans NULL and *n 0 when the object has
 * no such array. Returns 0, -EINVAL (an array that does not end) or
 * -ENOMEM, with err filled.
 */
int import_json_array(const char *text, size_t len, const char *key,
		      struct import_span **spans, size_t *n, char *err,
		      size_t errlen);

/*
 * The element s of text parsed as import_json() parses a document (skip
 * as there); a message names the text's line. 0, -EINVAL or -ENOMEM.
 */
int import_json_span(const char *text, const struct import_span *s,
		     const char *const *skip, json_t **root, char *err,
		     size_t errlen);

/* o[key] as a number (an integer or a real), NAN when it is none. */
double import_num(const json_t *o, const char *key);

/* Nonzero when text (len bytes) holds needle. */
int import_has(const char *text, size_t len, const char *needle);

#endif
