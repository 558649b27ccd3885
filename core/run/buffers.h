/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The buffers the core owns for a HB_TARGET_VERIFIED target (ABI 1.4,
 * struct hb_buffers): one worker's input, filled as the crypto SDK says,
 * and the outputs and tags its units write, which the core reads itself
 * (run/verify.h) after a unit is handed back.
 */
#ifndef HB_CORE_RUN_BUFFERS_H
#define HB_CORE_RUN_BUFFERS_H

#include <stddef.h>
#include <stdint.h>

#include <hostbench/plugin.h>

#include "suite/suite.h"

/* Most bytes of outputs a run() ring holds per worker (4 MiB). */
#define BUFFERS_RING_BYTES ((size_t)4 << 20)

/* One worker's buffers, and the struct the plugin is handed. */
struct buffers {
	struct hb_buffers hb;
	uint8_t *in;
	uint8_t **out, **tag;
};

/*
 * Whether target t of p writes the core's buffers: a HB_TARGET_VERIFIED
 * target with a size option, of a plugin built for ABI 1.4 or later.
 */
int buffers_wanted(const struct hb_plugin *p, const struct hb_target *t);

/*
 * Units of out a worker of bc gets: queue depth units through submit
 * (async), else a ring of up to 4 and BUFFERS_RING_BYTES for run(), 1
 * for a stream (mode = stream: one endless message, one buffer).
 */
unsigned buffers_units(const struct bench_case *bc, int async);

/*
 * Buffers of len bytes for n units of worker, its input filled with
 * HB_CRYPTO_SEED_DATA(worker), outputs and tags poisoned (touched). 0 or
 * -ENOMEM (b then holds nothing).
 */
int buffers_make(struct buffers *b, size_t len, unsigned n, unsigned worker);

void buffers_free(struct buffers *b);

/* Fill unit i's output and tag with the poison check looks for. */
void buffers_poison(struct buffers *b, unsigned i);

/* Whether out (len bytes) still holds the poison: nothing wrote it. */
int buffers_poisoned(const uint8_t *out, size_t len);

#endif
