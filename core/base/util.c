/* SPDX-License-Identifier: Apache-2.0 */
/* Growable lists and error formatting shared by the core. */
#include "base/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int array_grow(void **items, size_t n, size_t *cap, size_t elem)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	p = realloc(*items, ncap * elem);
	if (!p)
		return -ENOMEM;
	*items = p;
	*cap = ncap;
	return 0;
}

int strlist_push(struct strlist *l, const char *s)
{
	char *copy = strdup(s);

	if (!copy ||
	    array_grow((void **)&l->items, l->n, &l->cap, sizeof(char *))) {
		free(copy);
		return -ENOMEM;
	}
	l->items[l->n++] = copy;
	return 0;
}

int strlist_has(const struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->items[i], s) == 0)
			return 1;
	return 0;
}

void strlist_free(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

/* The pair with key, or NULL. */
static struct kv *kvlist_find(const struct kvlist *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->items[i].key, key) == 0)
			return &l->items[i];
	return NULL;
}

int kvlist_set(struct kvlist *l, const char *key, const char *value)
{
	struct kv *found = kvlist_find(l, key);
	char *v = strdup(value);
	char *k;

	if (!v)
		return -ENOMEM;
	if (found) {
		free(found->value);
		found->value = v;
		return 0;
	}
	k = strdup(key);
	if (!k ||
	    array_grow((void **)&l->items, l->n, &l->cap, sizeof(struct kv))) {
		free(k);
		free(v);
		return -ENOMEM;
	}
	l->items[l->n].key = k;
	l->items[l->n].value = v;
	l->n++;
	return 0;
}

const char *kvlist_get(const struct kvlist *l, const char *key)
{
	struct kv *found = kvlist_find(l, key);

	return found ? found->value : NULL;
}

int kvlist_copy(struct kvlist *dst, const struct kvlist *src)
{
	for (size_t i = 0; i < src->n; i++)
		if (kvlist_set(dst, src->items[i].key, src->items[i].value))
			return -ENOMEM;
	return 0;
}

void kvlist_free(struct kvlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->items[i].key);
		free(l->items[i].value);
	}
	free(l->items);
	memset(l, 0, sizeof(*l));
}

char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

void util_vappendf(char *buf, size_t len, const char *fmt, va_list ap)
{
	size_t used = strnlen(buf, len);

	if (used + 1 < len)
		vsnprintf(buf + used, len - used, fmt, ap);
}

void util_appendf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	util_vappendf(buf, len, fmt, ap);
	va_end(ap);
}
