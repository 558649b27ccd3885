/* SPDX-License-Identifier: Apache-2.0 */
/* The dashboard's index and case pages: health first, then the figures. */
#include "history/dashboard_pages.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "history/history_write.h"
#include "history/view.h"
#include "render/html.h"

/* Runs listed per host on the index, newest first. */
#define DASHBOARD_RUNS 5

void dashboard_page_name(const char *id, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "host-");

	for (const unsigned char *p = (const unsigned char *)id;
	     *p && used < len; p++) {
		int safe = (*p >= 'a' && *p <= 'z') ||
			   (*p >= 'A' && *p <= 'Z') ||
			   (*p >= '0' && *p <= '9') || *p == '-';

		used += (size_t)snprintf(buf + used, len - used,
					 safe ? "%c" : "_%02x", *p);
	}
	if (used < len)
		snprintf(buf + used, len - used, ".html");
}

int dashboard_open_change(const json_t *c)
{
	const char *kind = view_str(c, "kind"), *state = view_str(c, "state");

	return kind && strcmp(kind, "regression") == 0 &&
	       (!state || strcmp(state, "new") == 0);
}

/* The open regressions of series s. */
static size_t open_changes(const json_t *s)
{
	const json_t *c;
	size_t i, n = 0;

	json_array_foreach(json_object_get(s, "changes"), i, c) {
		n += dashboard_open_change(c) != 0;
	}
	return n;
}

/* Nonzero when series s belongs to host id. */
static int of_host(const json_t *s, const char *id)
{
	const char *host = view_str(s, "host");

	return host && id && strcmp(host, id) == 0;
}

void dashboard_case_name(const json_t *s, char *buf, size_t len)
{
	char label[VIEW_LINE];
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

	view_label(s, label, sizeof(label));
	for (const unsigned char *p = (const unsigned char *)label; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	snprintf(buf, len, "case-%016llx.html", (unsigned long long)h);
}

/* A link to page with text, escaped. */
static void link_to(FILE *out, const char *page, const char *anchor,
		    const char *cls, const char *text)
{
	fprintf(out, "<a class=\"%s\" href=\"", cls);
	html_text(out, page);
	if (anchor) {
		fputs("#", out);
		html_text(out, anchor);
	}
	fputs("\">", out);
	html_text(out, text);
	fputs("</a>", out);
}

/* A link to the host page of id named by the host's name. */
static void host_link(FILE *out, const json_t *doc, const char *id,
		      const char *anchor)
{
	char page[3 * DASHBOARD_ID_MAX + 16];

	dashboard_page_name(id, page, sizeof(page));
	link_to(out, page, anchor, "host-page", view_host_name(doc, id));
}

/* The last point of s, NULL without points. */
static const json_t *last_point(const json_t *s)
{
	const json_t *points = json_object_get(s, "points");
	size_t n = json_array_size(points);

	return n ? json_array_get(points, n - 1) : NULL;
}

/* A cell with figure key of point p of series s. */
static void figure_cell(FILE *out, const json_t *s, const json_t *p,
			const char *key)
{
	char fig[64];

	view_figure(s, view_num(p, key), fig, sizeof(fig));
	fputs("<td>", out);
	html_text(out, fig);
	fputs("</td>", out);
}

/* A cell with the newest verdict of s, classed by it. */
static void verdict_cell(FILE *out, const json_t *s)
{
	const char *v = view_str(json_object_get(s, "newest"), "verdict");

	fprintf(out, "<td class=\"text verdict\" data-verdict=\"");
	html_text(out, v ? v : "none");
	fprintf(out, "\">");
	html_text(out, v ? v : "-");
	fputs("</td>", out);
}

/* Per host: runs, last run, series, open regressions (a link to them). */
static void hosts_table(FILE *out, const json_t *doc)
{
	const json_t *h, *series = json_object_get(doc, "series"), *s;
	size_t i, k;

	fputs("<table class=\"hosts\">\n<thead><tr><th>Host</th><th>Runs</th>"
	      "<th>Last run</th><th>Series</th><th>Open regressions</th>"
	      "</tr></thead>\n<tbody>\n",
	      out);
	json_array_foreach(json_object_get(doc, "hosts"), i, h) {
		const char *id = view_str(h, "id");
		size_t nseries = 0, open = 0;

		if (!id)
			continue;
		json_array_foreach(series, k, s) {
			if (of_host(s, id)) {
				nseries++;
				open += open_changes(s);
			}
		}
		fputs("<tr><th>", out);
		host_link(out, doc, id, NULL);
		fprintf(out, "</th><td>%.0f</td><td>", view_num(h, "runs"));
		html_text(out, view_str(h, "last_time"));
		fprintf(out,
			"</td><td>%zu</td><td class=\"open\" "
			"data-open=\"%zu\">%zu</td></tr>\n",
			nseries, open, open);
	}
	fputs("</tbody>\n</table>\n", out);
}

/* One row of the open regressions: where, what, since when. */
static void open_row(FILE *out, const json_t *doc, const json_t *s,
		     const json_t *c)
{
	char label[VIEW_LINE], anchor[VIEW_LINE], change[32];
	char page[3 * DASHBOARD_ID_MAX + 16];

	view_label(s, label, sizeof(label));
	snprintf(anchor, sizeof(anchor), "series-%s", view_str(s, "id"));
	snprintf(change, sizeof(change), "%+.1f%%",
		 view_num(c, "change") * 100);
	fputs("<tr class=\"open-regression\"><th>", out);
	host_link(out, doc, view_str(s, "host"), NULL);
	fputs("</th><td class=\"text\">", out);
	dashboard_page_name(view_str(s, "host"), page, sizeof(page));
	link_to(out, page, anchor, "series-link", label);
	fputs("</td><td>", out);
	html_text(out, change);
	fputs("</td><td>", out);
	html_text(out, view_str(c, "time"));
	fputs("</td><td class=\"text\">", out);
	html_text(out, view_str(c, "id"));
	fputs("</td></tr>\n", out);
}

/* Every open regression of every host, or a line saying there is none. */
static void open_table(FILE *out, const json_t *doc)
{
	const json_t *s, *c;
	size_t i, k, n = 0;

	html_section(out, "Open regressions");
	json_array_foreach(json_object_get(doc, "series"), i, s) {
		json_array_foreach(json_object_get(s, "changes"), k, c) {
			if (!dashboard_open_change(c))
				continue;
			if (!n++)
				fputs("<table class=\"open-regressions\">\n"
				      "<thead><tr><th>Host</th><th>Case</th>"
				      "<th>Change</th><th>Since</th><th>Id</th>"
				      "</tr></thead>\n<tbody>\n",
				      out);
			open_row(out, doc, s, c);
		}
	}
	if (n)
		fputs("</tbody>\n</table>\n", out);
	else
		fputs("<p class=\"notes none-open\">No open regression.</p>\n",
		      out);
	html_section_end(out);
}

/* A row of a host's series: the case (its page), latest, verdict, open. */
static void series_row(FILE *out, const json_t *s)
{
	const json_t *p = last_point(s);
	char label[VIEW_LINE], page[DASHBOARD_CASE_NAME];

	view_label(s, label, sizeof(label));
	dashboard_case_name(s, page, sizeof(page));
	fputs("<tr class=\"series\" data-series=\"", out);
	html_text(out, view_str(s, "id"));
	fputs("\"><th>", out);
	link_to(out, page, NULL, "case-page", label);
	fputs("</th>", out);
	figure_cell(out, s, p, "median");
	figure_cell(out, s, p, "cpu_median");
	verdict_cell(out, s);
	fprintf(out, "<td>%zu</td><td class=\"text\">", open_changes(s));
	html_text(out, p ? view_str(p, "label") : NULL);
	fputs("</td></tr>\n", out);
}

/* A host's series on the index: latest figures and verdicts. */
static void host_series(FILE *out, const json_t *doc, const char *id)
{
	const json_t *s;
	size_t i;

	fputs("<table class=\"series\">\n<thead><tr><th>Case</th>"
	      "<th>Latest</th><th>Per CPU-s</th><th>Verdict</th><th>Open</th>"
	      "<th>Label</th></tr></thead>\n<tbody>\n",
	      out);
	json_array_foreach(json_object_get(doc, "series"), i, s)
		if (of_host(s, id))
			series_row(out, s);
	fputs("</tbody>\n</table>\n", out);
}

/* Whether run is among the n runs of seen already. */
static int seen_run(const char **seen, size_t n, const char *run)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(seen[i], run) == 0)
			return 1;
	return 0;
}

/* The newest runs of a host, with their labels, newest first. */
static void host_runs(FILE *out, const json_t *doc, const char *id)
{
	const char *seen[DASHBOARD_RUNS];
	const json_t *s, *p;
	size_t n = 0, i;

	fputs("<table class=\"runs\">\n<thead><tr><th>Time</th><th>Run</th>"
	      "<th>Label</th></tr></thead>\n<tbody>\n",
	      out);
	json_array_foreach(json_object_get(doc, "series"), i, s) {
		const json_t *points = json_object_get(s, "points");

		for (size_t k = json_array_size(points); k-- > 0;) {
			const char *run;

			p = json_array_get(points, k);
			run = view_str(p, "run");
			if (!of_host(s, id) || !run || n == DASHBOARD_RUNS ||
			    seen_run(seen, n, run))
				continue;
			seen[n++] = run;
			fputs("<tr><th>", out);
			html_text(out, view_str(p, "time"));
			fputs("</th><td class=\"text\">", out);
			html_text(out, run);
			fputs("</td><td class=\"text\">", out);
			html_text(out, view_str(p, "label"));
			fputs("</td></tr>\n", out);
		}
	}
	fputs("</tbody>\n</table>\n", out);
}

int dashboard_index(FILE *out, const json_t *doc)
{
	const json_t *h;
	size_t i;

	html_begin(out, "hostbench dashboard");
	fputs("<p class=\"notes\">Store: ", out);
	html_text(out, view_str(doc, "store"));
	fputs("</p>\n", out);
	hosts_table(out, doc);
	open_table(out, doc);
	json_array_foreach(json_object_get(doc, "hosts"), i, h) {
		const char *id = view_str(h, "id");

		if (!id)
			continue;
		html_section(out, view_host_name(doc, id));
		fputs("<p>", out);
		host_link(out, doc, id, NULL);
		fputs(": trends, change points and context changes</p>\n", out);
		host_series(out, doc, id);
		host_runs(out, doc, id);
		html_section_end(out);
	}
	html_end(out);
	return 0;
}

/* The facts of the newest context of s, NULL without any. */
static const json_t *newest_facts(const json_t *s)
{
	const json_t *ctx = json_object_get(s, "contexts");
	size_t n = json_array_size(ctx);

	return n ? json_object_get(json_array_get(ctx, n - 1), "facts") : NULL;
}

/* The context facts of s as "key value" lines, marked where unlike first. */
static void facts_cell(FILE *out, const json_t *facts, const json_t *first)
{
	const char *key;
	const json_t *v;

	fputs("<td class=\"text facts\">", out);
	json_object_foreach((json_t *)facts, key, v) {
		const json_t *w = json_object_get(first, key);
		int unlike = !w || !json_equal(v, w);

		fprintf(out, "<span class=\"%s\">",
			unlike ? "fact differs" : "fact");
		html_text(out, key);
		fputs(" ", out);
		/* an imported run's tool: its name and version */
		if (json_is_string(json_object_get(v, "name"))) {
			html_text(out, view_str(v, "name"));
			fputs(" ", out);
			v = json_object_get(v, "version");
		}
		html_text(out, json_is_string(v) ? json_string_value(v) : "?");
		fputs("</span><br>", out);
	}
	fputs("</td>", out);
}

/* Nonzero when series a and b are the same case (one page). */
static int same_case(const json_t *a, const json_t *b)
{
	char x[DASHBOARD_CASE_NAME], y[DASHBOARD_CASE_NAME];

	dashboard_case_name(a, x, sizeof(x));
	dashboard_case_name(b, y, sizeof(y));
	return strcmp(x, y) == 0;
}

int dashboard_case(FILE *out, const json_t *doc, const json_t *s)
{
	const json_t *series = json_object_get(doc, "series"), *t;
	const json_t *first = newest_facts(s);
	char label[VIEW_LINE], title[VIEW_LINE + 32];
	size_t i;
	int rc = 0;

	view_label(s, label, sizeof(label));
	snprintf(title, sizeof(title), "hostbench dashboard: %s", label);
	html_begin(out, title);
	fputs("<p><a class=\"index\" href=\"index.html\">All hosts</a></p>\n"
	      "<table class=\"case-hosts\">\n<thead><tr><th>Host</th>"
	      "<th>Latest</th><th>Per CPU-s</th><th>Verdict</th>"
	      "<th>Context (unlike the first host's marked)</th></tr></thead>\n"
	      "<tbody>\n",
	      out);
	json_array_foreach(series, i, t) {
		if (!same_case(s, t))
			continue;
		fputs("<tr><th>", out);
		host_link(out, doc, view_str(t, "host"), NULL);
		fputs("</th>", out);
		figure_cell(out, t, last_point(t), "median");
		figure_cell(out, t, last_point(t), "cpu_median");
		verdict_cell(out, t);
		facts_cell(out, newest_facts(t), first);
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
	json_array_foreach(series, i, t)
		if (!rc && same_case(s, t))
			rc = history_write_html_series(out, doc, t, 0);
	html_end(out);
	return rc;
}
