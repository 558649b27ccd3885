/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The change-point detector as a filter, for bench/changepoint_eval.py:
 * each line of stdin is one series (numbers separated by blanks), each
 * line of stdout its changes: a step as its index ("57"), a drift as
 * "d12-80" (first point, one past the last).
 * Usage: changepoint_cli [pelt|binseg] [PENALTY] [MIN_CHANGE] [ALPHA]
 * (0 or nothing: the detector's defaults).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history/changepoint.h"

/* Read the numbers of line into *x (grown as needed); their count. */
static size_t parse(char *line, double **x, size_t *cap)
{
	size_t n = 0;
	char *end;

	for (char *p = line;; p = end) {
		double v = strtod(p, &end);

		if (end == p)
			return n;
		if (n == *cap) {
			*cap = *cap ? 2 * *cap : 1024;
			*x = realloc(*x, *cap * sizeof(**x));
			if (!*x)
				exit(1);
		}
		(*x)[n++] = v;
	}
}

static void print(const struct changepoint *cps, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		if (cps[i].kind == CHANGEPOINT_DRIFT)
			printf("%sd%zu-%zu", i ? " " : "", cps[i].index,
			       cps[i].end);
		else
			printf("%s%zu", i ? " " : "", cps[i].index);
	}
	printf("\n");
}

int main(int argc, char **argv)
{
	struct changepoint_opts o = { 0 };
	struct changepoint *cps = NULL;
	double *x = NULL;
	size_t cap = 0, ncap = 0, len = 0;
	char *line = NULL;

	if (argc > 1 && !strcmp(argv[1], "binseg"))
		o.method = CHANGEPOINT_BINSEG;
	o.penalty = argc > 2 ? atof(argv[2]) : 0;
	o.min_change = argc > 3 ? atof(argv[3]) : 0;
	o.alpha = argc > 4 ? atof(argv[4]) : 0;
	while (getline(&line, &len, stdin) > 0) {
		size_t n = parse(line, &x, &cap), k;

		if (n > ncap) {
			ncap = n;
			cps = realloc(cps, ncap * sizeof(*cps));
			if (!cps)
				return 1;
		}
		if (changepoint_find(x, NULL, n, &o, cps, &k))
			return 1;
		print(cps, k);
		fflush(stdout);
	}
	free(line);
	free(cps);
	free(x);
	return 0;
}
