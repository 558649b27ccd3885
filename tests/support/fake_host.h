/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A stand-in for the core's host API, so a plugin test can drive setup,
 * run and teardown without the core library: a case is a target plus
 * "key=value" parameters, read by the rules of core/base/parse.h (the core
 * key queue_depth reads 1 unless set); the notes and
 * warnings a plugin leaves are kept for the test to check, log() lines go
 * to stderr.
 */
#ifndef HB_TEST_FAKE_HOST_H
#define HB_TEST_FAKE_HOST_H

#include <stddef.h>

#include <hostbench/plugin.h>

#define FH_MAX	    32	/* parameters, notes and warnings, each */
#define FH_KEY_MAX  64	/* bytes of a key, with its NUL */
#define FH_TEXT_MAX 512 /* bytes of a value or warning, with its NUL */

/* Keys and their values, in the order each key was first set. */
struct fh_pairs {
	size_t n;
	char key[FH_MAX][FH_KEY_MAX];
	char value[FH_MAX][FH_TEXT_MAX];
};

/*
 * What the core keeps for one case. c is worker 0 of 1, ready to hand to
 * setup(); fh_worker() makes the others. Every worker's hb_case points
 * back here (c.core), so the struct must not move once initialized.
 */
struct fh_case {
	struct hb_case c;
	struct fh_pairs params; /* only those set: defaults stay in the table */
	struct fh_pairs notes;	/* note(): last value wins */
	char warnings[FH_MAX][FH_TEXT_MAX];
	size_t nwarnings;
};

/*
 * Prepare fc for target t: no notes, no warnings, every option at its
 * default, then params ("key=value" texts ending with NULL; params may be
 * NULL). A text that cannot be set is named on stderr and skipped.
 */
void fh_case_init(struct fh_case *fc, const struct hb_target *t,
		  const char *const *params);

/*
 * Set one parameter from "key=value"; a key set twice keeps the last
 * value. Any key is taken, declared or not. Returns 0, or -1 when there
 * is no '=', the key or value is too long, or the table is full.
 */
int fh_set(struct fh_case *fc, const char *kv);

/*
 * The text of parameter name: the value set, else the option's default,
 * else NULL (undeclared, or declared without a default and not set).
 */
const char *fh_param(const struct fh_case *fc, const char *name);

/* The hb_case of worker `worker` of `workers` for fc's case. */
struct hb_case fh_worker(struct fh_case *fc, unsigned worker, unsigned workers);

/* The note the plugin left under key, or NULL. */
const char *fh_note(const struct fh_case *fc, const char *key);

/* The target called "group/name" in a plugin's table, or NULL. */
const struct hb_target *fh_target(const struct hb_plugin *p,
				  const char *fullname);

#endif
