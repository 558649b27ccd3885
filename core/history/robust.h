/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The noise of a series seen past its outliers: a running median, the
 * points clipped around it, and the noise's scale and lag-1
 * autocorrelation read from what is left. Pure functions, no I/O.
 */
#ifndef HB_CORE_HISTORY_ROBUST_H
#define HB_CORE_HISTORY_ROBUST_H

#include <stddef.h>

/* Half-width of the running median: 7 points, so 3 wild ones are outvoted. */
#define ROBUST_HALF 6
/* A point further than this many noise scales from the running median is
 * clipped to that distance. */
#define ROBUST_CLIP 3.0
/* The lag-1 autocorrelation read is capped here (a random walk's would make
 * every step look like noise). */
#define ROBUST_PHI_MAX 0.8

/* The noise of a series. */
struct robust_noise {
	double center; /* median of the series */
	double sigma;  /* scale of one point's noise (MAD of the residuals) */
	double phi;    /* lag-1 autocorrelation of the residuals, 0..PHI_MAX */
	double lr;     /* long-run scale: sigma * sqrt((1 + phi) / (1 - phi)) */
};

/* Median of v[0..n) (n > 0); v is sorted in place. */
double robust_median(double *v, size_t n);

/*
 * Write x[0..n) into out with every point clipped to ROBUST_CLIP noise
 * scales around its running median, and its noise into nz; scratch holds
 * 2 n values. A series with no spread gets a scale of a millionth of its
 * median (or 1e-12), so a step in it is still seen. Returns 0, or -EINVAL
 * for n == 0.
 */
int robust_clip(const double *x, size_t n, double *out, double *scratch,
		struct robust_noise *nz);

#endif
