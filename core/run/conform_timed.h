/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The timed rows of `hostbench check`: a target's own timed path, run()
 * and submit/poll, driven on the crypto SDK's data conventions for a few
 * messages, each message's output and tag read back through the output
 * slot (ABI 1.3) and compared with what the reference's transform slot
 * makes of the same input, key and IV. A timed path that does no work,
 * the wrong work, or work on other data fails here even when its
 * transform slot is right.
 */
#ifndef HB_CORE_RUN_CONFORM_TIMED_H
#define HB_CORE_RUN_CONFORM_TIMED_H

#include <stddef.h>
#include <stdint.h>

#include <hostbench/plugin.h>

#include "plugin/loader.h"
#include "suite/suite.h"

/* The verdict of one row. */
enum conform_verdict {
	CONFORM_OK,
	CONFORM_FAILED,
	CONFORM_SKIPPED,      /* the path does not apply (no submit/poll) */
	CONFORM_UNVERIFIABLE, /* the plugin cannot show what it produced */
};

/* Which timed path a row drives. */
enum conform_path {
	CONFORM_PATH_RUN,    /* run(): 1, then 6, then 1 message a call */
	CONFORM_PATH_SUBMIT, /* submit/poll at queue depth 1, then 16 */
};

/* One plugin as a timed row drives it: its slots and its case. */
struct conform_backend {
	const struct hb_plugin *p;
	output_fn output;	/* NULL: not verifiable */
	transform_fn transform; /* the reference's */
	struct bench_case *bc;	/* the target, its option defaults */
	const struct hb_case *hc;
};

/*
 * Drive path of sub's target (sub->bc, with size 4096, mode message and
 * direction encrypt set where declared) with two workers, and compare
 * every message the row reads back with ref's transform of the same
 * input (the worker's data, or the message it took in place), key and IV
 * (hb_crypto_message_inputs). detail says what was verified, or which
 * worker, message, byte or tag differed and where to look, or why the
 * row is skipped or not verifiable. sub->bc's parameters are changed.
 */
enum conform_verdict conform_timed(const struct conform_backend *sub,
				   const struct conform_backend *ref,
				   enum conform_path path, char *detail,
				   size_t len);

/*
 * "at byte 12 of 4096 (0x3c, the reference's 0x91)" into out for the first
 * byte where got and want (n bytes each) differ; returns 0, out untouched,
 * when they are equal.
 */
int conform_difference(const uint8_t *got, const uint8_t *want, size_t n,
		       char *out, size_t len);

/* Up to 8 bytes of a tag in hex, "..." after them when longer. */
void conform_hex8(const uint8_t *p, size_t n, char out[24]);

/* What t's tag is: "tag", "MAC", "MAC (over the ciphertext)", "digest". */
const char *conform_tag_kind(const struct hb_target *t);

#endif
