/* SPDX-License-Identifier: Apache-2.0 */
/* jansson's allocations cut from large blocks, given back at once. */
#include "base/jsonarena.h"

#include <stddef.h>
#include <stdlib.h>

#include <jansson.h>

/* Each block's size; a larger allocation gets a block of its own. */
#define ARENA_BLOCK ((size_t)4 << 20)

/* A block: the ones before it, then its bytes, cut in order. */
struct block {
	struct block *prev;
	size_t size; /* bytes of data */
	size_t used; /* bytes cut so far */
	max_align_t data[];
};

/*
 * The newest block, NULL when none, and whether jansson allocates here:
 * jansson's functions take no context.
 */
static struct block *top;
static int active;
/*
 * One block kept from the last arena for the next: an importer reads
 * each of 10,000 small documents in an arena of its own, and a new 4 MiB
 * block each time would be a new mapping each time.
 */
static struct block *spare;

/* A new block of at least n bytes on top, or NULL. */
static struct block *grow(size_t n)
{
	size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
	struct block *b = spare && spare->size >= size ? spare : NULL;

	if (b)
		spare = NULL;
	else
		b = malloc(sizeof(*b) + size);
	if (!b)
		return NULL;
	b->prev = top;
	b->size = size;
	b->used = 0;
	top = b;
	return b;
}

/* n bytes, aligned for any type, or NULL. */
static void *arena_alloc(size_t n)
{
	const size_t align = sizeof(max_align_t);
	struct block *b = top;
	void *p;

	n = (n + align - 1) / align * align;
	if (n < align)
		n = align;
	if (!b || b->size - b->used < n) {
		b = grow(n);
		if (!b)
			return NULL;
	}
	p = (char *)b->data + b->used;
	b->used += n;
	return p;
}

/* Freeing a node gives nothing back: jsonarena_end() gives all back. */
static void arena_free(void *p)
{
	(void)p;
}

void jsonarena_begin(void)
{
	json_set_alloc_funcs(arena_alloc, arena_free);
	active = 1;
}

void jsonarena_pause(void)
{
	json_set_alloc_funcs(malloc, free);
	active = 0;
}

void jsonarena_end(void)
{
	json_set_alloc_funcs(malloc, free);
	active = 0;
	while (top) {
		struct block *prev = top->prev;

		if (!spare && top->size == ARENA_BLOCK)
			spare = top;
		else
			free(top);
		top = prev;
	}
}

void jsonarena_free_text(char *text)
{
	json_free_t jfree;

	json_get_alloc_funcs(NULL, &jfree);
	jfree(text);
}

void jsonarena_decref(json_t *j)
{
	if (!active)
		json_decref(j);
}
