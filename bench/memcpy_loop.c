/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The plain reference for mem/memcpy: one thread copying one buffer into
 * another in a loop for SECONDS, printing bytes per second. No framework.
 * Usage: memcpy_loop SIZE_BYTES SECONDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	size_t size = argc > 1 ? strtoull(argv[1], NULL, 10) : 256u << 20;
	double seconds = argc > 2 ? atof(argv[2]) : 5, t0, t;
	unsigned long long passes = 0;
	char *src, *dst;

	if (posix_memalign((void **)&src, 4096, size) ||
	    posix_memalign((void **)&dst, 4096, size))
		return 1;
	memset(src, 0x5a, size);
	memset(dst, 0x5a, size);
	t0 = now();
	do {
		memcpy(dst, src, size);
		__asm__ volatile("" : : "r"(dst) : "memory");
		passes++;
		t = now();
	} while (t - t0 < seconds);
	printf("%.0f\n", (double)passes * (double)size / (t - t0));
	free(src);
	free(dst);
	return 0;
}
