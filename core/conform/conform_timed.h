/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The timed rows of `hostbench check`: a target's own timed path, run()
 * and submit/poll (encrypting, then decrypting) and run() in stream mode,
 * driven on the crypto SDK's data conventions for a few messages, each
 * unit's output and tag read by the core from the buffers it gave the
 * plugin (ABI 1.4, struct hb_buffers) and compared with what the
 * reference's transform slot makes of the same input, key and IV (a
 * decrypt's with the worker's data as filled). A timed path that does no
 * work, the wrong work, or work on other data fails here even when its
 * transform slot is right; so does one that leaves the core's buffer
 * unwritten (its output came from elsewhere) or writes a unit's buffers
 * after poll handed it back.
 */
#ifndef HB_CORE_CONFORM_CONFORM_TIMED_H
#define HB_CORE_CONFORM_CONFORM_TIMED_H

#include <stddef.h>
#include <stdint.h>

#include <hostbench/plugin.h>

#include "run/verify.h"
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
	CONFORM_PATH_STREAM, /* run() in stream mode: 3 buffers, 1 a call */
};

/* The subject as a timed row drives it: its table and its case. */
struct conform_backend {
	const struct hb_plugin *p;
	struct bench_case *bc; /* the target, its option defaults */
	const struct hb_case *hc;
};

/*
 * Drive path of sub's target (sub->bc, with size 4096, mode and direction
 * set where declared) with two workers, and compare every unit with ref's
 * transform of the same input, key and IV (hb_crypto_message_inputs).
 * detail says what was verified, or which worker, message, byte or tag
 * differed and where to look, or why the row is skipped or not
 * verifiable (what to add). sub->bc's parameters are changed.
 */
enum conform_verdict conform_timed(const struct conform_backend *sub,
				   const struct verify_ref *ref,
				   enum conform_path path, char *detail,
				   size_t len);

#endif
