/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every run verifies itself: one worker's spot checks. A worker of a
 * verified target (run/buffers.h) writes the core's buffers; after each
 * kept sample, outside its time, the core draws some of the units that
 * sample left in them at random (so no plugin can know which) and
 * compares each with the reference's transform (run/verify.h). A
 * mismatch fails the case with the first differing byte, whatever the
 * figure.
 */
#ifndef HB_CORE_RUN_SPOT_H
#define HB_CORE_RUN_SPOT_H

#include <stddef.h>
#include <stdint.h>

#include "run/async.h"
#include "run/buffers.h"
#include "result/result.h"
#include "run/verify.h"
#include "suite/suite.h"

/* One worker's buffers and spot checks. */
struct spot {
	struct buffers buf;
	struct verify_case vc;
	uint8_t *want;	  /* the reference's output, len bytes */
	uint64_t units;	  /* run(): units done over the case */
	uint64_t checked; /* units verified */
	uint64_t rng;	  /* xorshift state */
};

/*
 * The buffers of worker of bc, whose units go through submit (async) or
 * run(): 0 or -ENOMEM. ref may be NULL (no checks, buffers only).
 */
int spot_open(struct spot *s, const struct bench_case *bc, unsigned worker,
	      int async, const struct verify_ref *ref);

/*
 * After a sample in which the worker did done units (through a, or run()
 * when a is NULL): verify one of those it left in the core's buffers,
 * drawn now (a reference's transform costs about a millisecond, so one a
 * sample keeps the checks under 1% of a case's time). 0, or -1 with
 * "message N: ..." in why, or -ENOMEM.
 */
int spot_check(struct spot *s, uint64_t done, const struct async_slots *a,
	       char *why, size_t len);

void spot_close(struct spot *s);

/*
 * What verifies the workers of case bc (buffered: they write the core's
 * buffers): *out = ref, opened on bc->reference, or NULL; a crypto case
 * that cannot be verified says why in a warning of r. 0 or -ENOMEM.
 */
int spot_reference(const struct bench_case *bc, int buffered,
		   struct verify_ref *ref, const struct verify_ref **out,
		   struct result *r);

/* What the spot checks verified (checked units, ns), as r's note. */
int spot_note(struct result *r, const struct verify_ref *ref, uint64_t checked,
	      uint64_t ns);

#endif
