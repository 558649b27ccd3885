/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The text report's public-key lines, as `openssl speed` prints them: a
 * sign target and the verify target of the same key (kind, size or curve,
 * padding, backend, parallel) share one line, "rsa 2048 bits  0.000580s
 * 0.000017s  1724.1  58823.5", with seconds per operation and operations
 * per second; a derivation has a line of its own under "op op/s". The
 * label ends with the backend, "x4" for 4 workers and "depth 16" for 16
 * operations in flight per worker.
 */
#include "report/report_pk.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/figure.h"
#include "report/layout.h"
#include "render/table.h"

/* One line: the sign (or derive) result and the verify result. */
struct pk_row {
	char label[REPORT_LINE];
	const struct result *first; /* sign or derive; NULL when absent */
	const struct result *verify;
	int derive;
};

/* The curves as openssl speed names them, with their bits. */
static const struct {
	const char *curve, *name;
	unsigned bits;
} pk_curves[] = {
	{ "p256", "nistp256", 256 }, { "p384", "nistp384", 384 },
	{ "p521", "nistp521", 521 }, { "x25519", "X25519", 253 },
	{ "x448", "X448", 448 },     { "ed25519", "Ed25519", 253 },
	{ "ed448", "Ed448", 456 },
};

int report_pk_section(const struct report *r, const struct report_section *s)
{
	for (size_t i = 0; i < s->nitems; i++)
		for (size_t j = s->items[i].first; j < s->items[i].last; j++) {
			const struct bench_case *c = r->results[j].c;

			if (!c || !c->tdesc || !c->tdesc->group ||
			    !c->tdesc->name ||
			    strcmp(c->tdesc->group, "pk") != 0)
				return 0;
		}
	return s->nitems > 0;
}

/* A parameter of c as text ("" when absent). */
static const char *param(const struct bench_case *c, const char *key, char *buf,
			 size_t len)
{
	return report_case_value(c, key, buf, len);
}

/* "rsa 2048 bits", "256 bits ecdsa (nistp256)", with the backend. */
static void row_label(const struct result *res, const char *kind, char *buf,
		      size_t len)
{
	const struct bench_case *c = res->c;
	char b1[32], b2[32], b3[32];
	const char *curve = param(c, "curve", b1, sizeof(b1));
	size_t n;

	if (strcmp(kind, "rsa") == 0) {
		n = (size_t)snprintf(
			buf, len, "rsa %s bits%s",
			param(c, "bits", b2, sizeof(b2)),
			strcmp(param(c, "padding", b3, sizeof(b3)), "pss") == 0
				? " pss"
				: "");
	} else {
		const char *name = curve;
		unsigned bits = 0;

		for (size_t i = 0; i < sizeof(pk_curves) / sizeof(pk_curves[0]);
		     i++)
			if (strcmp(pk_curves[i].curve, curve) == 0) {
				name = pk_curves[i].name;
				bits = pk_curves[i].bits;
			}
		n = (size_t)snprintf(
			buf, len, "%u bits %s (%s)", bits,
			strcmp(kind, "eddsa") == 0 ? "EdDSA" : kind, name);
	}
	if (n >= len)
		return;
	n += (size_t)snprintf(buf + n, len - n, " %s",
			      c->backend ? c->backend : "");
	if (n < len && c->parallel > 1)
		n += (size_t)snprintf(buf + n, len - n, " x%u", c->parallel);
	if (n < len && c->queue_depth > 1)
		snprintf(buf + n, len - n, " depth %u", c->queue_depth);
}

/* The row res belongs on (a new one at rows[*n]), or NULL when full. */
static struct pk_row *row_of(struct pk_row *rows, size_t *n, size_t max,
			     const struct result *res)
{
	const char *name = res->c->tdesc->name;
	const char *dash = strchr(name, '-');
	char kind[16], label[REPORT_LINE];
	size_t k = dash ? (size_t)(dash - name) : strlen(name);

	snprintf(kind, sizeof(kind), "%.*s", (int)k, name);
	row_label(res, kind, label, sizeof(label));
	for (size_t i = 0; i < *n; i++)
		if (strcmp(rows[i].label, label) == 0)
			return &rows[i];
	if (*n == max)
		return NULL;
	memset(&rows[*n], 0, sizeof(rows[*n]));
	snprintf(rows[*n].label, sizeof(rows[*n].label), "%s", label);
	rows[*n].derive = !dash;
	return &rows[(*n)++];
}

/* "0.000580s  1724.1" columns of res, or its status. */
static void figures(const struct result *res, char *secs, char *rate,
		    size_t len)
{
	double v;

	if (!res) {
		snprintf(secs, len, "-");
		snprintf(rate, len, "-");
		return;
	}
	if (res->status != RESULT_OK) {
		snprintf(secs, len, "%s",
			 res->status == RESULT_FAILED ? "failed" : "skipped");
		snprintf(rate, len, "-");
		return;
	}
	v = report_value(res, "ops/s");
	snprintf(secs, len, "%.6fs", v > 0 ? 1.0 / v : 0.0);
	snprintf(rate, len, "%.1f", v);
}

/* The annotations of res, "sign: ..." when a row has two results. */
static void row_notes(const struct pk_row *row, char *buf, size_t len)
{
	char a[REPORT_LINE] = "", b[REPORT_LINE] = "";

	if (row->first)
		report_annotations(row->first, a, sizeof(a));
	if (row->verify)
		report_annotations(row->verify, b, sizeof(b));
	buf[0] = '\0';
	if (row->derive || !b[0] || !a[0])
		report_appendf(buf, len, "%s%s", a, b);
	else
		report_appendf(buf, len, "sign: %s; verify: %s", a, b);
}

/* The widest interval of the row's figures ("±0.4%"), "" when none. */
static void row_ci(const struct pk_row *row, char *buf, size_t len)
{
	const struct result *of[] = { row->first, row->verify }, *widest = NULL;

	for (size_t i = 0; i < 2; i++)
		if (of[i] && of[i]->status == RESULT_OK &&
		    (!widest ||
		     stats_ci_relative(result_headline(of[i])) >
			     stats_ci_relative(result_headline(widest))))
			widest = of[i];
	if (widest)
		report_spread(widest, buf, len);
	else
		snprintf(buf, len, "%s", "");
}

static void write_row(const struct pk_row *row, size_t width, FILE *out)
{
	char s1[32], r1[32], s2[32], r2[32], ci[32], notes[2 * REPORT_LINE];

	figures(row->first, s1, r1, sizeof(s1));
	table_put_left(out, row->label, width);
	row_notes(row, notes, sizeof(notes));
	row_ci(row, ci, sizeof(ci));
	if (row->derive) {
		fprintf(out, " %10s %10s", s1, r1);
	} else {
		figures(row->verify, s2, r2, sizeof(s2));
		fprintf(out, " %10s %10s %10s %10s", s1, s2, r1, r2);
	}
	/* printf pads bytes, and "±" is two bytes for one column: 8 for 7 */
	fprintf(out, " %8s", ci);
	if (notes[0])
		fprintf(out, " (%s)", notes);
	fputc('\n', out);
}

/* The header of a run of rows of one shape. */
static void write_header(int derive, size_t width, FILE *out)
{
	table_put_left(out, "", width);
	if (derive)
		fprintf(out, " %10s %10s %7s\n", "op", "op/s", "CI95");
	else
		fprintf(out, " %10s %10s %10s %10s %7s\n", "sign", "verify",
			"sign/s", "verify/s", "CI95");
}

/* Sort the section's results into rows; returns how many, or -1. */
static long collect(const struct report *r, const struct report_section *s,
		    struct pk_row *rows, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nitems; i++)
		for (size_t j = s->items[i].first; j < s->items[i].last; j++) {
			const struct result *res = &r->results[j];
			struct pk_row *row = row_of(rows, &n, max, res);

			if (!row)
				return -1;
			if (strstr(res->c->tdesc->name, "-verify"))
				row->verify = res;
			else
				row->first = res;
		}
	return (long)n;
}

int report_pk_text(const struct report *r, const struct report_section *s,
		   FILE *out)
{
	size_t max = 0, width = 0;
	struct pk_row *rows;
	long n;

	for (size_t i = 0; i < s->nitems; i++)
		max += s->items[i].last - s->items[i].first;
	rows = calloc(max ? max : 1, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	n = collect(r, s, rows, max);
	for (long i = 0; i < n; i++)
		if (table_width(rows[i].label) > width)
			width = table_width(rows[i].label);
	for (long i = 0; i < n; i++) {
		if (i == 0 || rows[i].derive != rows[i - 1].derive)
			write_header(rows[i].derive, width, out);
		write_row(&rows[i], width, out);
	}
	free(rows);
	return 0;
}
