/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The history document of the view tests (tests/integration/history/
 * history.json): two hosts with hostile names, a series with a regression
 * and a context change, an ops series with an acknowledged improvement.
 */
#ifndef HB_TEST_HISTORY_FIXTURE_H
#define HB_TEST_HISTORY_FIXTURE_H

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

/* The fixture document (the caller's to json_decref), NULL if unreadable. */
static inline json_t *history_fixture(void)
{
	json_error_t e;
	json_t *doc = json_load_file(
		HB_TEST_SOURCE_DIR "/integration/history/history.json", 0, &e);

	if (!doc)
		fprintf(stderr, "history.json:%d: %s\n", e.line, e.text);
	return doc;
}

/* The series of the fixture with id "s-N". */
static inline const json_t *history_fixture_series(const json_t *doc, size_t n)
{
	return json_array_get(json_object_get(doc, "series"), n - 1);
}

#endif
