/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the charts of svg.c, svg_latency.c and history/chart.c share: the
 * frame of a chart, its colours and its text.
 */
#ifndef HB_CORE_RENDER_SVG_DRAW_H
#define HB_CORE_RENDER_SVG_DRAW_H

#include <stddef.h>
#include <stdio.h>

/* The drawing area inside a chart of W x H. */
#define W      640
#define H      340
#define LEFT   72
#define RIGHT  170 /* legend */
#define TOP    34
#define BOTTOM 46

/* The colour of series i: distinguishable ones (Okabe-Ito), cycled. */
const char *svg_color(size_t i);

/* An axis label or title: text at (x, y), anchored, escaped. */
void svg_text_at(FILE *out, double x, double y, const char *anchor,
		 const char *cls, const char *s);

/* The opening tag, background and title of a chart h high. */
void svg_chart_begin(FILE *out, const char *cls, const char *kind, int h,
		     const char *title);

#endif
