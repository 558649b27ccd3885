/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CPU lists as the kernel and taskset write them ("0-3,8,10-11"): parsed
 * into CPU numbers in the order written, and written back. Pure.
 */
#ifndef HB_CORE_HOST_CPULIST_H
#define HB_CORE_HOST_CPULIST_H

#include <stddef.h>

/* Largest CPU number a list may name (the kernel's NR_CPUS is 8192). */
#define CPULIST_MAX_CPU 8191

/* A growable list of CPU numbers, in the order given. */
struct cpulist {
	int *cpus;
	size_t n;
	size_t cap;
};

/*
 * Parse a CPU list as the kernel and taskset write it ("0-3,8,10-11"),
 * appending each CPU in the order written, into l. Pure. Returns 0, or
 * -EINVAL with "what is wrong" in err, or -ENOMEM.
 */
int cpulist_parse(const char *text, struct cpulist *l, char *err,
		  size_t errlen);

/* Append cpu to l. Returns 0 or -ENOMEM. */
int cpulist_push(struct cpulist *l, int cpu);

/* Nonzero when l holds cpu. */
int cpulist_has(const struct cpulist *l, int cpu);

/*
 * Write l as the kernel's list text ("0-3,8"; ranges for ascending runs)
 * into buf, "" for an empty list; cut short with "..." when buf is full.
 */
void cpulist_format(const struct cpulist *l, char *buf, size_t len);

/*
 * The CPU number at *p ("12" of "12-15"), advancing *p past it; -1 when
 * *p holds no number or one above CPULIST_MAX_CPU.
 */
long cpulist_number(const char **p);

/* Free l's array and zero it. */
void cpulist_free(struct cpulist *l);

#endif
