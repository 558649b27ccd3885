/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Cycles per byte: from each worker's hardware cycle counter
 * (perf_event_open, PERF_COUNT_HW_CPU_CYCLES, the worker's own thread)
 * where the kernel allows it, else from a measured clock: the case's CPU
 * time times the frequency of a loop of dependent adds (one cycle each),
 * as libgcrypt's bench-slope measures the CPU. HOSTBENCH_NO_PERF=1 forces
 * the measured clock.
 */
#ifndef HB_CORE_RUN_CYCLES_H
#define HB_CORE_RUN_CYCLES_H

#include <stdint.h>

#include "result/result.h"

/* One thread's cycle counter. */
struct cycles_counter {
	int fd;		/* perf event, -1 when not counting */
	int opened;	/* the counter was opened (kept after close) */
	uint64_t start; /* reading at cycles_begin() */
	uint64_t last;	/* cycles between the last begin and end */
};

/*
 * Open the counter of the calling thread: user and kernel cycles, user
 * only when perf_event_paranoid refuses the kernel's. c->fd is -1 when the
 * kernel, the hardware (most virtual machines) or HOSTBENCH_NO_PERF says no.
 */
void cycles_open(struct cycles_counter *c);

/* Read the counter where a timed stretch starts. */
void cycles_begin(struct cycles_counter *c);

/* Read it where the stretch ends: c->last is the cycles in between. */
void cycles_end(struct cycles_counter *c);

/* Close the counter (c->opened stays). */
void cycles_close(struct cycles_counter *c);

/*
 * Cycles per CPU second of the calling thread, from the best of a few
 * timings of a chain of dependent adds (a few milliseconds in all).
 */
double cycles_hz(void);

/* Nonzero when every kept sample of r has its counted cycles. */
int cycles_counted(const struct result *r);

/*
 * Set r->cycles_per_byte and r->cycles_method from r's kept samples: their
 * counted cycles over their bytes when counted (every worker had a
 * counter) and every sample has its count, else their CPU seconds times
 * cycles_hz() over their bytes. Nothing for a result without bytes or of an
 * operations target.
 */
void cycles_finish(struct result *r, int counted);

#endif
