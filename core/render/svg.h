/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hostbench's small SVG chart writer: line charts (throughput against
 * block size or parallelism), bar charts (compare) and latency ladders
 * (the percentiles of one unit of work) as inline SVG for the HTML
 * reports. No scripts, no fonts, no external resources. Elements
 * carry classes and data- attributes so tests can find the series.
 */
#ifndef HB_CORE_RENDER_SVG_H
#define HB_CORE_RENDER_SVG_H

#include <stddef.h>
#include <stdio.h>

/* How x values are labelled on a line chart's axis. */
enum svg_xformat {
	SVG_X_PLAIN, /* 1, 4, 16 */
	SVG_X_BYTES, /* 64K, 2M, 1G: powers of 1024 */
};

/* One line of a chart: n points (x ascending), drawn solid or dashed. */
struct svg_series {
	const char *name;
	const double *x, *y;
	size_t n;
	int dashed;   /* a reference line (ideal scaling), not a measurement */
	size_t color; /* palette index; a reference shares its series' */
	const double *lo, *hi; /* each point's 95% interval (error bars);
				  NULL: none */
};

/*
 * A line chart: x on a log2 axis (block sizes and worker counts double),
 * y linear from 0, a legend on the right.
 */
struct svg_line_chart {
	const char *title, *xlabel, *ylabel;
	const char *kind; /* data-kind of the <svg>: "size", "parallel" */
	enum svg_xformat xformat;
	const struct svg_series *series;
	size_t nseries;
};

/* One bar of a bar chart. */
struct svg_bar {
	const char *label;
	double value;	     /* percent */
	const char *verdict; /* class of the bar: "improved", "regressed",
				"outlier", ... */
};

/*
 * A horizontal bar chart of percentages around 0, with the band
 * [-band, +band] shaded (the noise threshold).
 */
struct svg_bar_chart {
	const char *title;
	const char *caption; /* under the axis; NULL: compare's */
	double band;	     /* percent */
	const struct svg_bar *bars;
	size_t nbars;
};

/* One bar of a value chart: a figure and its 95% interval. */
struct svg_value_bar {
	const char *label;
	double value, lo, hi; /* lo, hi: the interval (0, 0: none) */
};

/*
 * A horizontal bar chart of figures from 0 (the lines of a report
 * section), each with its interval as an error bar, the axis in SI
 * (xlabel: the unit).
 */
struct svg_value_chart {
	const char *title, *xlabel;
	const struct svg_value_bar *bars;
	size_t nbars;
};

/* The percentiles a latency row draws, in this order. */
enum {
	SVG_P50,
	SVG_P90,
	SVG_P99,
	SVG_P999,
	SVG_PMAX,
	SVG_NPCT,
};

/* One row of a latency chart: a case and its unit latencies. */
struct svg_latency_row {
	const char *name;    /* which case: "openssl, queue_depth 16" */
	double ns[SVG_NPCT]; /* p50, p90, p99, p99.9, max in nanoseconds */
};

/*
 * A latency chart: a row per case, its percentiles drawn as a ladder on
 * one log-scale time axis (decades), labelled by format ("2.08ms").
 */
struct svg_latency_chart {
	const char *title;
	const struct svg_latency_row *rows;
	size_t nrows;
	void (*format)(double ns, char *buf, size_t len);
};

/* Write a line chart. Returns 0, or -EINVAL when it has no point. */
int svg_line_chart(FILE *out, const struct svg_line_chart *c);

/* Write a value chart. Returns 0, or -EINVAL when it has no bar. */
int svg_value_chart(FILE *out, const struct svg_value_chart *c);

/* Write a bar chart. Returns 0, or -EINVAL when it has no bar. */
int svg_bar_chart(FILE *out, const struct svg_bar_chart *c);

/*
 * Write a latency chart. Returns 0, or -EINVAL when it has no row or no
 * format.
 */
int svg_latency_chart(FILE *out, const struct svg_latency_chart *c);

/*
 * Nice axis ticks from 0 up to at least max: steps of 1, 2 or 5 times a
 * power of ten, at most maxticks + 1 of them (0 included). Writes them to
 * out and returns how many; 2 ticks (0 and 1) when max is not positive.
 */
size_t svg_ticks(double max, size_t maxticks, double *out, size_t outlen);

/* s with &, <, >, " and ' escaped for XML and HTML text and attributes. */
void svg_escape(FILE *out, const char *s);

/*
 * v as an axis label in SI prefixes, three significant digits at most:
 * "0", "750", "1.5k", "2M", "12.5G" (never "2e+06").
 */
void svg_format_si(double v, char *buf, size_t len);

/* v as an axis label: "64K", "2M" for SVG_X_BYTES, else "%g". */
void svg_format_x(double v, enum svg_xformat f, char *buf, size_t len);

#endif
