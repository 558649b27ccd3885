/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Display units. Figures are stored in bytes/s and ops/s; a unit only
 * scales them for display: Gbps = 1e9 bit/s, GB/s = 1e9 B/s,
 * GiB/s = 2^30 B/s, MB/s = 1e6 B/s, MiB/s = 2^20 B/s, kB/s = 1e3 B/s,
 * ops/s = operations per second.
 */
#ifndef HB_CORE_BASE_UNITS_H
#define HB_CORE_BASE_UNITS_H

/*
 * What a report says of its units, on one line: sizes are powers of 1024,
 * rates powers of 1000 but for the MiB/s and GiB/s a suite may ask for.
 */
#define UNITS_LEGEND                                                           \
	"sizes binary (1K = 1024 B); rates decimal (1 MB/s = 10^6 B/s; "       \
	"MiB/s, GiB/s: 2^20, 2^30 B/s)"

/* Nonzero when unit is one of the names above (exact spelling). */
int unit_valid(const char *unit);

/* Comma-separated list of the valid unit names, for error messages. */
const char *unit_names(void);

/* A rate in unit: bytes_per_s scaled, or ops_per_s for "ops/s". */
double unit_scale(const char *unit, double bytes_per_s, double ops_per_s);

#endif
