/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pairs of a case with several receivers: what each receiver
 * acknowledged, and why a receiver that failed was given up. One tally
 * per case, shared by its workers: a receiver that fails (its host died,
 * the network dropped) fails only its pair, the case goes on with the
 * others, and the result says which pair failed and why, and what each
 * pair that stayed took in.
 */
#ifndef HB_TRANSFER_PAIRS_H
#define HB_TRANSFER_PAIRS_H

#include <stddef.h>
#include <stdint.h>

#include <hostbench/plugin.h>

struct pairs;

/*
 * The tally of case c with n receivers: worker 0 makes it, the case's
 * other workers (set up right after it, serially) share it. NULL when
 * out of memory. Every pairs_join() is matched by one pairs_leave().
 */
struct pairs *pairs_join(const struct hb_case *c, size_t n);

/* Receiver k acknowledged bytes more (any worker's thread). */
void pairs_add(struct pairs *p, size_t k, uint64_t bytes);

/* Receiver k failed, for why (the first reason of any worker is kept). */
void pairs_fail(struct pairs *p, size_t k, const char *why);

/* Nonzero when receiver k failed, for any worker. */
int pairs_failed(struct pairs *p, size_t k);

/*
 * One worker leaves; the last (in teardown, serially) tells the result,
 * when a receiver failed, how every pair went (info "pair ADDR": "ok: N
 * bytes acknowledged (P% of the case's)" or "failed: REASON") and warns
 * of each failed pair; then frees the tally. addr[k] names receiver k.
 */
void pairs_leave(struct pairs *p, const struct hb_case *c,
		 const char *const *addr);

#endif
