/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An arena for jansson's allocations while a command reads large
 * documents and frees them all at its end (compare, merge and report of
 * reports with tens of thousands of results): nodes are cut from large
 * blocks, one at a time in order, freeing a node is nothing, and the
 * blocks go back at once. malloc would track and free each of millions of
 * small nodes (and consolidate its free lists over and over on the way).
 * jansson takes one pair of allocation functions for the whole process,
 * so the arena is the process's while it is in use: one thread, one
 * arena at a time, and every value made in it freed (or no longer used)
 * before jsonarena_end().
 */
#ifndef HB_CORE_BASE_JSONARENA_H
#define HB_CORE_BASE_JSONARENA_H

#include <jansson.h>

/* From now on jansson allocates from the arena. */
void jsonarena_begin(void);

/*
 * Back to malloc and free while what the arena holds stays readable: a
 * document read in the arena is read into one made outside it (an
 * importer's run). Nothing of the arena may be freed (json_decref) or
 * taken (json_incref, json_object_update) meanwhile: jsonarena_end()
 * gives it all back.
 */
void jsonarena_pause(void);

/* Back to malloc and free; the arena's blocks are given back. */
void jsonarena_end(void);

/*
 * Free text that jansson allocated (json_dumps()), with its free
 * function of the moment: free() is wrong for text cut from the arena.
 */
void jsonarena_free_text(char *text);

/*
 * json_decref(j), or nothing while the arena is in use: a document read
 * in it goes with the arena, and walking its nodes to free each would
 * cost as much as reading them. Only for a value made in the arena.
 */
void jsonarena_decref(json_t *j);

#endif
