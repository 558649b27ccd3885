/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one sanitizer for text that comes from outside hostbench: a peer's
 * refusal, a command's stderr, a plugin's notes, warnings and catalog, a
 * journal or report file read back. Such text is shown on terminals and
 * in reports; it must not move the cursor, retitle the terminal or forge
 * a report line.
 */
#ifndef HB_CORE_BASE_SANITIZE_H
#define HB_CORE_BASE_SANITIZE_H

#include <stddef.h>

#include <jansson.h>

/*
 * Make s safe to show, in place (its length never changes): line ends and
 * tabs become blanks; every other control byte (C0, DEL), every byte of a
 * C1 control (U+0080..U+009F), of a bidirectional control (U+061C, U+200E,
 * U+200F, U+202A..U+202E, U+2066..U+2069) or of a line or paragraph
 * separator (U+2028, U+2029), and every byte that is not part of valid
 * UTF-8 becomes '?'. NULL is allowed. Returns the number of bytes replaced.
 */
size_t sanitize_text(char *s);

/* Nonzero when sanitize_text() would leave s as it is. NULL is clean. */
int sanitize_is_clean(const char *s);

/*
 * The length of s cut to at most max bytes, never inside a UTF-8
 * sequence: the cut moves back to the start of the sequence it would
 * split. strlen(s) when s is that short already.
 */
size_t sanitize_cut_len(const char *s, size_t max);

/*
 * A copy of s cut to at most max bytes (sanitize_cut_len()) and
 * sanitized: text from elsewhere, bounded and safe to show. NULL when out
 * of memory; the caller frees it.
 */
char *sanitize_copy(const char *s, size_t max);

/*
 * Nonzero when sanitize_copy(s, max) would be s as it is: clean (valid
 * UTF-8 too) and at most max bytes, so s may be used without a copy.
 */
int sanitize_fits(const char *s, size_t max);

/*
 * sanitize_text() for every string of a JSON document: values and object
 * keys, at any depth. Returns 0, or -ENOMEM (v is then partly sanitized:
 * free it).
 */
int sanitize_json(json_t *v);

/* The most bytes a string under key may keep (sanitize_json_bounded()). */
struct sanitize_bound {
	const char *key;
	size_t max;
};

/*
 * How long the strings of a document from elsewhere may be: a string
 * under one of keys (its value, or in an array that is) at most that
 * key's max, every other string and every key at most max. keys ends
 * with a NULL key.
 */
struct sanitize_limits {
	const struct sanitize_bound *keys;
	size_t max;
};

/*
 * sanitize_json(), each string then cut to its bound in lim (at a UTF-8
 * character's start, sanitize_cut_len()), so one huge string from
 * elsewhere costs no more than a short one. *changed (may be NULL) counts
 * the strings and keys replaced or cut: 0 when v reads as it was written.
 * Returns 0, or -ENOMEM (v is then partly done: free it).
 */
int sanitize_json_bounded(json_t *v, const struct sanitize_limits *lim,
			  size_t *changed);

#endif
