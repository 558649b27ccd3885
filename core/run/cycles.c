/* SPDX-License-Identifier: Apache-2.0 */
/* Cycles per byte, counted by perf or from a measured clock. */
#include "run/cycles.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Dependent adds per iteration of the calibration loop. */
#define CHAIN_ADDS 8
/* Timings of the loop; the fastest counts (the others met preemption). */
#define CHAIN_TRIES 5
/* CPU seconds one timing lasts at least. */
#define CHAIN_SECONDS 0.002

/* Nonzero when the environment asks for the measured clock. */
static int perf_refused(void)
{
	const char *v = getenv("HOSTBENCH_NO_PERF");

	return v && *v && strcmp(v, "0") != 0;
}

/* perf_event_open of the calling thread's cycles. */
static int open_cycles(int exclude_kernel)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.exclude_kernel = exclude_kernel ? 1 : 0;
	a.exclude_hv = 1;
	/* with the times, a counter the kernel multiplexes can be scaled */
	a.read_format =
		PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

void cycles_open(struct cycles_counter *c)
{
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	if (perf_refused())
		return;
	c->fd = open_cycles(0);
	if (c->fd < 0 && (errno == EACCES || errno == EPERM))
		c->fd = open_cycles(1); /* perf_event_paranoid 2: user only */
	c->opened = c->fd >= 0;
}

/*
 * The counter's value, scaled to the time it was enabled when the kernel
 * shared the hardware counter with other events; 0 when it cannot be read.
 */
static uint64_t read_counter(int fd)
{
	uint64_t v[3] = { 0 }; /* value, time enabled, time running */

	if (fd < 0 || read(fd, v, sizeof(v)) != (ssize_t)sizeof(v))
		return 0;
	if (v[2] == 0 || v[2] >= v[1])
		return v[0];
	return (uint64_t)((double)v[0] * (double)v[1] / (double)v[2]);
}

void cycles_begin(struct cycles_counter *c)
{
	c->start = read_counter(c->fd);
}

void cycles_end(struct cycles_counter *c)
{
	uint64_t now = read_counter(c->fd);

	c->last = now > c->start ? now - c->start : 0;
}

void cycles_close(struct cycles_counter *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* The calling thread's CPU time in seconds. */
static double thread_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One add that waits for the one before: the empty asm keeps the sum in a
   register, so the compiler can neither fold nor reorder the adds. */
#define CHAIN_ADD(x)                                                           \
	do {                                                                   \
		(x) += 1;                                                      \
		__asm__ volatile("" : "+r"(x));                                \
	} while (0)

/*
 * n iterations of CHAIN_ADDS (8) dependent adds written out, each costing
 * one cycle of latency; the loop's own counter runs beside them.
 */
static __attribute__((noinline)) uint64_t add_chain(uint64_t n)
{
	uint64_t x = 0;

	for (uint64_t i = 0; i < n; i++) {
		CHAIN_ADD(x);
		CHAIN_ADD(x);
		CHAIN_ADD(x);
		CHAIN_ADD(x);
		CHAIN_ADD(x);
		CHAIN_ADD(x);
		CHAIN_ADD(x);
		CHAIN_ADD(x);
	}
	return x;
}

double cycles_hz(void)
{
	uint64_t n = 1 << 14;
	double best = 0;

	for (int tries = 0; tries < CHAIN_TRIES;) {
		double t0 = thread_seconds(), secs;

		add_chain(n);
		secs = thread_seconds() - t0;
		if (secs < CHAIN_SECONDS && n < (UINT64_C(1) << 40)) {
			n *= 2;
			continue;
		}
		if ((double)(n * CHAIN_ADDS) / secs > best)
			best = (double)(n * CHAIN_ADDS) / secs;
		tries++;
	}
	return best;
}

int cycles_counted(const struct result *r)
{
	for (size_t i = 0; i < r->nsamples; i++)
		if (r->samples[i].cycles <= 0)
			return 0;
	return r->nsamples > 0;
}

void cycles_finish(struct result *r, int counted)
{
	const struct bench_case *c = r->c;
	double bytes = 0, cycles = 0, cpu = 0;

	if (!c || !c->tdesc || c->tdesc->work == HB_WORK_OPS)
		return;
	for (size_t i = 0; i < r->nsamples; i++) {
		bytes += r->samples[i].bytes;
		cycles += r->samples[i].cycles;
		cpu += r->samples[i].cpu_seconds;
	}
	if (!cycles_counted(r))
		counted = 0; /* a sum over some samples is no count */
	if (bytes <= 0)
		return;
	if (!counted)
		cycles = cpu * cycles_hz();
	if (cycles <= 0)
		return;
	r->cycles_per_byte = cycles / bytes;
	strcpy(r->cycles_method, counted ? "perf" : "calibrated");
}
