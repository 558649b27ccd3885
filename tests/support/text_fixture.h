/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the tests of a writer share: its output caught in a string, and
 * how often a piece occurs in it.
 */
#ifndef HB_TEST_TEXT_FIXTURE_H
#define HB_TEST_TEXT_FIXTURE_H

#include <stddef.h>
#include <stdio.h>

/* A writer: writes arg to out, returns 0 or a negative code. */
typedef int (*text_writer)(FILE *out, const void *arg);

/*
 * What write(out, arg) writes, as a string (the caller's to free; NULL
 * when no memory stream could be made); *rc what write returned.
 */
char *text_written(text_writer write, const void *arg, int *rc);

/* Occurrences of needle in s. */
size_t text_count(const char *s, const char *needle);

#endif
