/* The one clock helper of the core: CLOCK_MONOTONIC in seconds. */
#ifndef HB_CORE_BASE_CLOCK_H
#define HB_CORE_BASE_CLOCK_H

#include <time.h>

/* Seconds on CLOCK_MONOTONIC: only differences mean anything. */
static inline double clock_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#endif
