/*
 * A stand-in for the core's host API, so the crypto plugins' setup, run
 * and teardown can be driven directly: a case is a target plus key=value
 * parameters; notes are kept for the test to read.
 */
#ifndef HB_TEST_FAKE_HOST_H
#define HB_TEST_FAKE_HOST_H

#include <stddef.h>

#include <hostbench/plugin.h>

/* One case: its target, its parameters and the notes setup left. */
struct fake_case {
	struct hb_case c;
	const char *keys[16];
	const char *values[16];
	size_t n;
	char note_keys[8][32];
	char note_values[8][128];
	size_t nnotes;
};

/*
 * Prepare fc for target t of a plugin: every option at its default, then
 * the overrides, "key=value" texts ending with NULL.
 */
void fake_case_init(struct fake_case *fc, const struct hb_target *t,
		    const char *const *overrides);

/* The note setup left under key, or NULL. */
const char *fake_note(const struct fake_case *fc, const char *key);

/* The target called "group/name" in a plugin's table, or NULL. */
const struct hb_target *fake_target(const struct hb_plugin *p,
				    const char *fullname);

#endif
