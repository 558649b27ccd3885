/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Small helpers shared by every core file: growable string lists, key/value
 * lists, growable arrays. Error messages go into caller-owned buffers with
 * hb_errorf() from the plugin header, the one copy core and plugins share.
 */
#ifndef HB_CORE_BASE_UTIL_H
#define HB_CORE_BASE_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <hostbench/plugin.h>

/* A growable list of owned strings. */
struct strlist {
	char **items;
	size_t n;
	size_t cap;
};

/* One owned key/value pair of text. */
struct kv {
	char *key;
	char *value;
};

/* A growable list of owned key/value pairs, in insertion order. */
struct kvlist {
	struct kv *items;
	size_t n;
	size_t cap;
};

/* Append a copy of s. Returns 0 or -ENOMEM. */
int strlist_push(struct strlist *l, const char *s);
/* Nonzero when l holds s. */
int strlist_has(const struct strlist *l, const char *s);
/* Free every string and the array; leaves l empty and reusable. */
void strlist_free(struct strlist *l);

/* Set key to value, replacing an existing key. Returns 0 or -ENOMEM. */
int kvlist_set(struct kvlist *l, const char *key, const char *value);
/* The value of key, or NULL. */
const char *kvlist_get(const struct kvlist *l, const char *key);
/* Deep copy src into an empty dst. Returns 0 or -ENOMEM. */
int kvlist_copy(struct kvlist *dst, const struct kvlist *src);
/* Free every pair and the array. */
void kvlist_free(struct kvlist *l);

/*
 * Make room for one more element of elem bytes in *items, which holds n of
 * *cap (doubling). Returns 0 or -ENOMEM (then *items is unchanged).
 */
int array_grow(void **items, size_t n, size_t *cap, size_t elem);

/* strdup that returns NULL for NULL. */
char *xstrdup(const char *s);

/*
 * Append vprintf output to buf (len bytes, NUL-terminated), cut short
 * when it does not fit.
 */
void util_vappendf(char *buf, size_t len, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* util_vappendf() with the arguments given. */
void util_appendf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
