/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reports: the table of writers, one per format, and what every format
 * says the same way: which section a result belongs to, which results read
 * as a table, how a figure and its annotations are worded, and the lines
 * that describe the host.
 */
#include "report/report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "base/units.h"
#include "suite/suite_value.h"

/* The display unit when a case names none: the suites' default. */
#define DEFAULT_UNIT "Gbps"

/* One format: its name on the command line and its writer. */
struct report_writer {
	const char *name;
	int (*write)(const struct report *r, FILE *out, char *err,
		     size_t errlen);
};

/* Every format, indexed by enum report_format. */
static const struct report_writer writers[] = {
	[REPORT_TEXT] = { .name = "text", .write = report_text },
	[REPORT_JSON] = { .name = "json", .write = report_json },
	[REPORT_CSV] = { .name = "csv", .write = report_csv },
	[REPORT_MD] = { .name = "md", .write = report_md },
	[REPORT_HTML] = { .name = "html", .write = report_html },
};

#define NWRITERS (sizeof(writers) / sizeof(writers[0]))

int report_format_parse(const char *name, enum report_format *out)
{
	for (size_t i = 0; i < NWRITERS; i++) {
		if (name && writers[i].name &&
		    strcmp(name, writers[i].name) == 0) {
			*out = (enum report_format)i;
			return 0;
		}
	}
	return -EINVAL;
}

int report_write(enum report_format f, const struct report *r, FILE *out,
		 char *err, size_t errlen)
{
	if ((size_t)f >= NWRITERS || !writers[f].write)
		return hb_errorf(err, errlen, -EINVAL,
				 "unknown report format %d", (int)f);
	return writers[f].write(r, out, err, errlen);
}

int report_io_error(FILE *out, char *err, size_t errlen)
{
	if (fflush(out) == 0 && !ferror(out))
		return 0;
	return hb_errorf(err, errlen, -EIO, "writing the report: %s",
			 strerror(errno ? errno : EIO));
}

/* Append printf output to buf (len bytes, NUL-terminated), truncating. */
static void appendf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void appendf(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strnlen(buf, len);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/* Append one annotation, with "; " between annotations. */
static void add_note(char *buf, size_t len, const char *note)
{
	appendf(buf, len, "%s%s", buf[0] ? "; " : "", note);
}

/* The job of a result, or NULL when the report has no suite for it. */
static const struct job *job_of(const struct report *r,
				const struct result *res)
{
	if (!r->suite || !res->c || res->c->job >= r->suite->njobs)
		return NULL;
	return &r->suite->jobs[res->c->job];
}

/* Nonzero when a and b come from the same job. */
static int same_job(const struct result *a, const struct result *b)
{
	return a->c && b->c && a->c->job == b->c->job;
}

/* The end of the run of results of the job results[i] belongs to. */
static size_t report_job_end(const struct report *r, size_t i)
{
	size_t j = i + 1;

	while (j < r->nresults && same_job(&r->results[i], &r->results[j]))
		j++;
	return j;
}

const char *report_unit(const struct result *res)
{
	return res->c && res->c->unit ? res->c->unit : DEFAULT_UNIT;
}

const char *report_section_of(const struct report *r, const struct result *res)
{
	static const struct {
		const char *group, *title;
	} sections[] = {
		{ "crypto", "Secure Communication Performance" },
		{ "mac", "Secure Communication Performance" },
		{ "hash", "File Integrity Validation Performance" },
		{ "mem", "Base Performance" },
		{ "io", "Base Performance" },
		{ "transfer", "Network Transfer Performance" },
		{ "pk", "Public Key Performance" },
	};
	const struct job *job = job_of(r, res);
	const char *group = NULL;

	if (job && job->section)
		return job->section;
	if (job && job->group)
		group = job->group;
	else if (res->c && res->c->tdesc)
		group = res->c->tdesc->group;
	if (!group)
		return "Other";
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (strcmp(group, sections[i].group) == 0)
			return sections[i].title;
	return group;
}

const char *report_case_value(const struct bench_case *c, const char *key,
			      char *buf, size_t len)
{
	const char *v;

	if (strcmp(key, "backend") == 0)
		return c->backend ? c->backend : "";
	if (strcmp(key, "parallel") == 0) {
		snprintf(buf, len, "%u", c->parallel);
		return buf;
	}
	if (strcmp(key, "queue_depth") == 0 && report_shows_depth(c)) {
		snprintf(buf, len, "%u", c->queue_depth);
		return buf;
	}
	v = kvlist_get(&c->params, key);
	return v ? suite_value_shown(c->tdesc, key, v) : "";
}

int report_shows_depth(const struct bench_case *c)
{
	return c->queue_depth > 1 || c->depth_given ||
	       (c->tdesc && (c->tdesc->flags & HB_TARGET_OFFLOAD));
}

/* Whether case c has key at all (a backend's own option may be absent). */
static int case_has(const struct bench_case *c, const char *key)
{
	return strcmp(key, "backend") == 0 || strcmp(key, "parallel") == 0 ||
	       (strcmp(key, "queue_depth") == 0 && report_shows_depth(c)) ||
	       kvlist_get(&c->params, key) != NULL;
}

/* Nonzero when key has more than one value over results[a..b). */
static int report_key_varies(const struct report *r, size_t a, size_t b,
			     const char *key)
{
	char b1[32], b2[32];
	const char *first = NULL;

	/* only cases that have the key count: openssl's provider is not a
	 * column of a job that also runs gcrypt */
	for (size_t i = a; i < b; i++) {
		const struct bench_case *c = r->results[i].c;

		if (!case_has(c, key))
			continue;
		if (!first)
			first = report_case_value(c, key, b1, sizeof(b1));
		else if (strcmp(first,
				report_case_value(c, key, b2, sizeof(b2))) != 0)
			return 1;
	}
	return 0;
}

/* The position of key in the job's varying keys (file order), else n. */
static size_t varying_rank(const struct report *r, size_t a, const char *key)
{
	const struct job *job = job_of(r, &r->results[a]);

	for (size_t i = 0; job && i < job->varying.n; i++)
		if (strcmp(job->varying.items[i], key) == 0)
			return i;
	return job ? job->varying.n : 0;
}

/* The core keys a job can vary besides its parameters. */
static const char *const core_dims[] = { "parallel", "queue_depth" };
#define NCORE_DIMS (sizeof(core_dims) / sizeof(core_dims[0]))

/* Nonzero when key is one of core_dims. */
static int is_core_dim(const char *key)
{
	for (size_t i = 0; i < NCORE_DIMS; i++)
		if (strcmp(key, core_dims[i]) == 0)
			return 1;
	return 0;
}

/*
 * How results[a..b) (one job) read: as a table when the only parameter
 * other than backend whose value changes is not parallel or queue_depth
 * (*key set), as a grid when exactly two change and the backend does not
 * (*rows_key and *key set, the one written first in the suite down the
 * rows), else as lines (both NULL).
 */
static void item_keys(const struct report *r, size_t a, size_t b,
		      const char **key, const char **rows_key)
{
	const struct bench_case *c = r->results[a].c;
	const char *found[2] = { NULL, NULL };
	size_t nvarying = 0;

	*key = *rows_key = NULL;
	if (!c || b - a < 2)
		return;
	for (size_t k = 0; k < NCORE_DIMS + c->params.n; k++) {
		const char *name =
			k < NCORE_DIMS ? core_dims[k]
				       : c->params.items[k - NCORE_DIMS].key;

		if (!report_key_varies(r, a, b, name))
			continue;
		if (nvarying < 2)
			found[nvarying] = name;
		nvarying++;
	}
	if (nvarying == 1 && !is_core_dim(found[0])) {
		*key = found[0];
	} else if (nvarying == 2 && !report_key_varies(r, a, b, "backend")) {
		int swap = varying_rank(r, a, found[1]) <
			   varying_rank(r, a, found[0]);

		*rows_key = found[swap];
		*key = found[!swap];
	}
}

/* The distinct values of key over results[a..b), in order. */
static int distinct_values(const struct report *r, size_t a, size_t b,
			   const char *key, struct strlist *out)
{
	char buf[32];

	for (size_t i = a; i < b; i++) {
		const char *v = report_case_value(r->results[i].c, key, buf,
						  sizeof(buf));
		size_t k = 0;

		while (k < out->n && strcmp(out->items[k], v) != 0)
			k++;
		if (k == out->n && strlist_push(out, v))
			return -ENOMEM;
	}
	return 0;
}

/* Nonzero when two lists hold the same strings in the same order. */
static int same_list(const struct strlist *a, const struct strlist *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->items[i], b->items[i]) != 0)
			return 0;
	return 1;
}

/*
 * Nonzero when the table job results[a..b) with column key can extend the
 * table item prev: it follows prev directly, with the same columns.
 */
static int extends_table(const struct report *r, const struct report_item *prev,
			 size_t a, size_t b, const char *key)
{
	struct strlist mine = { 0 }, theirs = { 0 };
	int same;

	if (!prev->key || prev->rows_key || prev->last != a ||
	    strcmp(prev->key, key) != 0)
		return 0;
	same = !distinct_values(r, a, b, key, &mine) &&
	       !distinct_values(r, prev->first, report_job_end(r, prev->first),
				key, &theirs) &&
	       same_list(&mine, &theirs);
	strlist_free(&mine);
	strlist_free(&theirs);
	return same;
}

/* The section titled title, appended when new; NULL when out of memory. */
static struct report_section *section_for(struct report_layout *lay,
					  const char *title)
{
	struct report_section *grown;

	for (size_t i = 0; i < lay->nsections; i++)
		if (strcmp(lay->sections[i].title, title) == 0)
			return &lay->sections[i];
	grown = realloc(lay->sections,
			(lay->nsections + 1) * sizeof(*lay->sections));
	if (!grown)
		return NULL;
	lay->sections = grown;
	grown = &lay->sections[lay->nsections++];
	memset(grown, 0, sizeof(*grown));
	grown->title = title;
	return grown;
}

/* Append an item to a section. */
static int add_item(struct report_section *s, size_t first, size_t last,
		    const char *key, const char *rows_key)
{
	struct report_item *grown;

	grown = realloc(s->items, (s->nitems + 1) * sizeof(*s->items));
	if (!grown)
		return -ENOMEM;
	s->items = grown;
	s->items[s->nitems++] =
		(struct report_item){ first, last, key, rows_key };
	return 0;
}

/* Lay out one job's results[a..b) into its section. */
static int layout_job(const struct report *r, struct report_layout *lay,
		      size_t a, size_t b)
{
	struct report_section *s =
		section_for(lay, report_section_of(r, &r->results[a]));
	const char *key, *rows_key;
	int err = 0;

	if (!s)
		return -ENOMEM;
	item_keys(r, a, b, &key, &rows_key);
	if (rows_key)
		return add_item(s, a, b, key, rows_key);
	if (key && s->nitems &&
	    extends_table(r, &s->items[s->nitems - 1], a, b, key)) {
		s->items[s->nitems - 1].last = b;
		return 0;
	}
	if (key)
		return add_item(s, a, b, key, NULL);
	for (size_t i = a; i < b && !err; i++)
		err = add_item(s, i, i + 1, NULL, NULL);
	return err;
}

int report_layout_build(const struct report *r, struct report_layout *lay)
{
	memset(lay, 0, sizeof(*lay));
	for (size_t i = 0; i < r->nresults;) {
		size_t end = report_job_end(r, i);

		if (layout_job(r, lay, i, end)) {
			report_layout_free(lay);
			return -ENOMEM;
		}
		i = end;
	}
	return 0;
}

void report_layout_free(struct report_layout *lay)
{
	for (size_t i = 0; i < lay->nsections; i++)
		free(lay->sections[i].items);
	free(lay->sections);
	memset(lay, 0, sizeof(*lay));
}

double report_value(const struct result *res, const char *unit)
{
	return unit_scale(unit, res->rate.median, res->ops_rate.median);
}

void report_format_value(double v, const char *unit, char *buf, size_t len)
{
	if (strcmp(unit, "kB/s") == 0)
		snprintf(buf, len, "%.2fk", v);
	else if (strcmp(unit, "ops/s") == 0)
		snprintf(buf, len, "%.1f ops/s", v);
	else
		snprintf(buf, len, "%.2f%s", v, unit);
}

void report_figure(const struct result *res, char *buf, size_t len)
{
	const char *unit = report_unit(res);

	if (res->status == RESULT_FAILED)
		snprintf(buf, len, "failed");
	else if (res->status == RESULT_SKIPPED)
		snprintf(buf, len, "skipped");
	else
		report_format_value(report_value(res, unit), unit, buf, len);
}

void report_spread(const struct result *res, char *buf, size_t len)
{
	if (res->status != RESULT_OK)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "±%.1f%%",
			 stats_ci_relative(result_headline(res)) * 100);
}

/* Number of distinct backends among the results of res's job. */
static size_t job_backends(const struct report *r, const struct result *res)
{
	struct strlist seen = { 0 };
	size_t n;

	for (size_t i = 0; i < r->nresults; i++) {
		const struct result *o = &r->results[i];
		size_t k = 0;

		if (!same_job(o, res) || !o->c->backend)
			continue;
		while (k < seen.n && strcmp(seen.items[k], o->c->backend) != 0)
			k++;
		if (k == seen.n && strlist_push(&seen, o->c->backend))
			break;
	}
	n = seen.n;
	strlist_free(&seen);
	return n;
}

void report_label(const struct report *r, const struct result *res, char *buf,
		  size_t len)
{
	const char *title = res->c && res->c->title ? res->c->title : res->part;

	snprintf(buf, len, "%s", title ? title : "");
	if (res->c && res->c->backend &&
	    (res->c->backend_chosen || job_backends(r, res) > 1))
		appendf(buf, len, " (%s)", res->c->backend);
}

/* The name of a composite's part. */
static const char *part_name(const struct result *p)
{
	if (p->part)
		return p->part;
	return p->c && p->c->target ? p->c->target : "part";
}

/* "SLOW slower than FAST[fig]" for a composite, and its failed parts. */
static void composite_note(const struct result *res, char *buf, size_t len)
{
	const char *unit = report_unit(res);
	const struct result *slow = NULL;
	char note[REPORT_LINE] = "", fig[64];
	size_t nok = 0;

	for (size_t i = 0; i < res->nparts; i++) {
		const struct result *p = &res->parts[i];

		if (p->status != RESULT_OK) {
			snprintf(note, sizeof(note), "part %s %s: %s",
				 part_name(p),
				 p->status == RESULT_FAILED ? "failed"
							    : "skipped",
				 p->reason ? p->reason : "no reason given");
			add_note(buf, len, note);
			continue;
		}
		nok++;
		if (!slow || report_value(p, unit) < report_value(slow, unit))
			slow = p;
	}
	if (nok < 2)
		return;
	snprintf(note, sizeof(note), "%s slower than", part_name(slow));
	for (size_t i = 0, n = 0; i < res->nparts; i++) {
		const struct result *p = &res->parts[i];

		if (p == slow || p->status != RESULT_OK)
			continue;
		report_format_value(report_value(p, unit), unit, fig,
				    sizeof(fig));
		appendf(note, sizeof(note), "%s %s[%s]", n++ ? "," : "",
			part_name(p), fig);
	}
	add_note(buf, len, note);
}

void report_nanoseconds(double ns, char *buf, size_t len)
{
	if (ns >= 1e9)
		snprintf(buf, len, "%.3gs", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, len, "%.3gms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(buf, len, "%.3gus", ns / 1e3);
	else
		snprintf(buf, len, "%.0fns", ns);
}

/*
 * For a device's work or units in flight: the host CPU it cost ("offload:
 * host CPU 3%, 0.012 CPU-s/GB") and the latency of a unit ("latency p50
 * 2.08ms p90 ... max ..."). Never a per-CPU-second rate as a wall rate.
 */
static void offload_note(const struct result *res, char *buf, size_t len)
{
	const struct latency *l = &res->latency;
	char note[200], p[5][24];

	if (res->offload) {
		snprintf(note, sizeof(note),
			 "offload: host CPU %.0f%%, %.3g CPU-s/GB",
			 res->cpu_ratio * 100, res->cpu_seconds_per_gb);
		add_note(buf, len, note);
	}
	if (!l->count)
		return;
	report_nanoseconds(l->p50, p[0], sizeof(p[0]));
	report_nanoseconds(l->p90, p[1], sizeof(p[1]));
	report_nanoseconds(l->p99, p[2], sizeof(p[2]));
	report_nanoseconds(l->p999, p[3], sizeof(p[3]));
	report_nanoseconds(l->max, p[4], sizeof(p[4]));
	snprintf(note, sizeof(note),
		 "latency p50 %s p90 %s p99 %s p99.9 %s max %s", p[0], p[1],
		 p[2], p[3], p[4]);
	add_note(buf, len, note);
}

/* Pinned workers: "cpus 0,0" (the CPU each worker ran on). */
static void cpus_note(const struct result *res, char *buf, size_t len)
{
	char note[128] = "cpus";

	if (!res->c || !res->c->cpus || !res->ncpus)
		return;
	for (unsigned i = 0; i < res->ncpus; i++)
		appendf(note, sizeof(note), "%s%d", i ? "," : " ",
			res->cpus[i]);
	add_note(buf, len, note);
}

void report_annotations(const struct result *res, char *buf, size_t len)
{
	const char *text = kvlist_get(&res->info, "text");
	char note[128];

	buf[0] = '\0';
	if (res->status != RESULT_OK)
		add_note(buf, len,
			 res->reason ? res->reason : "no reason given");
	if (text)
		add_note(buf, len, text);
	if (res->status == RESULT_OK && res->nparts)
		composite_note(res, buf, len);
	if (res->imprecise) {
		snprintf(note, sizeof(note), "imprecise: asked ±%.2g%%",
			 res->precision * 100);
		add_note(buf, len, note);
	}
	if (res->noisy) {
		snprintf(note, sizeof(note), "noisy: CV %.1f%%",
			 result_headline(res)->cv * 100);
		add_note(buf, len, note);
	}
	if (res->starved) {
		snprintf(note, sizeof(note), "starved: CPU %.0f%%",
			 res->cpu_ratio * 100);
		add_note(buf, len, note);
	}
	if (res->status == RESULT_OK && (res->offload || res->latency.count))
		offload_note(res, buf, len);
	if (res->status == RESULT_OK)
		cpus_note(res, buf, len);
	for (size_t i = 0; i < res->warnings.n; i++)
		if (!result_is_flag_warning(res->warnings.items[i]))
			add_note(buf, len, res->warnings.items[i]);
}

/* The header text of a table column for value v of parameter key. */
static void column_header(const struct bench_case *c, const char *key,
			  const char *v, char *buf, size_t len)
{
	const struct hb_option *o = c->tdesc ? c->tdesc->options : NULL;

	for (; o && o->name; o++)
		if (strcmp(o->name, key) == 0)
			break;
	/* "16 bytes" as openssl speed prints its block sizes */
	if (o && o->name && o->type == HB_OPT_SIZE && v[0] &&
	    strspn(v, "0123456789") == strlen(v))
		snprintf(buf, len, "%s bytes", v);
	else
		snprintf(buf, len, "%s", v);
}

/* A figure cell: the figure, and its median's interval in spread. */
static int figure_cell(struct table *t, size_t row, size_t col,
		       const struct result *res)
{
	char text[64];
	int err;

	report_figure(res, text, sizeof(text));
	err = table_set(t, row, col, text);
	if (err || res->status != RESULT_OK)
		return err;
	report_spread(res, text, sizeof(text));
	return table_set_spread(t, row, col, text);
}

/* One row of a table per (job, backend) of the item, in order. */
struct item_row {
	size_t first, last; /* the job's results */
	const char *backend;
	int show_backend; /* rows differ in backend: say which */
};

/* The rows of item it into rows (sized it->last - it->first). */
static size_t item_rows(const struct report *r, const struct report_item *it,
			struct item_row *rows)
{
	size_t n = 0;

	for (size_t a = it->first; a < it->last;) {
		size_t b = report_job_end(r, a);

		for (size_t i = a; i < b; i++) {
			const char *be = r->results[i].c->backend;
			size_t k = 0;

			be = be ? be : "";
			while (k < n && (rows[k].first != a ||
					 strcmp(rows[k].backend, be) != 0))
				k++;
			if (k == n)
				rows[n++] = (struct item_row){ a, b, be, 0 };
		}
		a = b;
	}
	return n;
}

/* The result of row at column value v, or NULL. */
static const struct result *row_result(const struct report *r,
				       const struct item_row *row,
				       const char *key, const char *v)
{
	char buf[32];

	for (size_t i = row->first; i < row->last; i++) {
		const struct bench_case *c = r->results[i].c;

		if (strcmp(c->backend ? c->backend : "", row->backend) == 0 &&
		    strcmp(report_case_value(c, key, buf, sizeof(buf)), v) == 0)
			return &r->results[i];
	}
	return NULL;
}

/* The header row: key, one column per value, then the % columns. */
static int header_fill(const struct report *r, const struct report_item *it,
		       const struct strlist *values, size_t ndiff,
		       struct table *t)
{
	char text[REPORT_LINE];
	int err = table_set(t, 0, 0, it->key);

	for (size_t v = 0; v < values->n && !err; v++) {
		column_header(r->results[it->first].c, it->key,
			      values->items[v], text, sizeof(text));
		err = table_set(t, 0, 1 + v, text);
	}
	for (size_t d = 0; d < ndiff && !err; d++) {
		if (ndiff == 1)
			snprintf(text, sizeof(text), "%% Difference");
		else
			snprintf(text, sizeof(text), "%% %s",
				 values->items[d + 1]);
		err = table_set(t, 0, 1 + values->n + d, text);
	}
	return err;
}

/* The row label: the job's label and the backend. */
static void row_label(const struct report *r, const struct item_row *row,
		      char *buf, size_t len)
{
	const struct result *res = &r->results[row->first];
	const struct job *job = job_of(r, res);
	const char *label = job && job->label ? job->label : res->c->title;

	snprintf(buf, len, "%s", label ? label : "");
	if (row->show_backend)
		appendf(buf, len, " (%s)", row->backend);
}

/*
 * Name the backends in the row labels when the rows differ in them, and
 * the backend hostbench chose for a job that names none.
 */
static void show_backends(const struct report *r, struct item_row *rows,
			  size_t n)
{
	int differ = 0;

	for (size_t i = 1; i < n; i++)
		differ |= strcmp(rows[i].backend, rows[0].backend) != 0;
	for (size_t i = 0; i < n; i++)
		rows[i].show_backend =
			differ || r->results[rows[i].first].c->backend_chosen;
}

/* res against base in percent, "12.34", or "-" when one has no figure. */
static void diff_text(const struct result *base, const struct result *res,
		      char *buf, size_t len)
{
	double b = base && base->status == RESULT_OK
			   ? report_value(base, report_unit(base))
			   : 0;

	if (res->status == RESULT_OK && b > 0)
		snprintf(buf, len, "%.2f",
			 (report_value(res, report_unit(res)) / b - 1) * 100);
	else
		snprintf(buf, len, "-");
}

/*
 * A row's cycles per byte as one note, a figure per column, as
 * bench-slope shows them beside the rate: "aes-256-gcm: cycles/byte
 * (perf) 16 bytes 9.71, 64 bytes 3.02". Only when every case of the row
 * has the figure.
 */
static int row_cycles(const struct report *r, const struct report_item *it,
		      const struct strlist *values, const struct item_row *row,
		      size_t ri, struct table *t)
{
	char text[REPORT_LINE] = "";
	const char *method = "";

	for (size_t v = 0; v < values->n; v++) {
		const struct result *res =
			row_result(r, row, it->key, values->items[v]);

		if (!res || res->status != RESULT_OK ||
		    !(res->cycles_per_byte > 0))
			return 0;
		method = res->cycles_method;
	}
	appendf(text, sizeof(text), "%s: cycles/byte (%s)",
		t->cells[ri * t->cols], method);
	for (size_t v = 0; v < values->n; v++)
		appendf(text, sizeof(text), "%s %s %.3g", v ? "," : "",
			t->cells[1 + v],
			row_result(r, row, it->key, values->items[v])
				->cycles_per_byte);
	return values->n ? strlist_push(&t->notes, text) : 0;
}

/* Fill one row of a table: label, figures, differences, notes. */
static int row_fill(const struct report *r, const struct report_item *it,
		    const struct strlist *values, size_t ndiff,
		    const struct item_row *row, size_t ri, struct table *t)
{
	char text[REPORT_LINE], notes[REPORT_LINE];
	const struct result *base = NULL;
	int err;

	row_label(r, row, text, sizeof(text));
	err = table_set(t, ri, 0, text);
	for (size_t v = 0; v < values->n && !err; v++) {
		const struct result *res =
			row_result(r, row, it->key, values->items[v]);

		if (v == 0)
			base = res;
		if (!res) {
			err = table_set(t, ri, 1 + v, "-");
			continue;
		}
		err = figure_cell(t, ri, 1 + v, res);
		report_annotations(res, notes, sizeof(notes));
		if (!err && notes[0]) {
			/* the cell's row and column say which case it is */
			text[0] = '\0';
			appendf(text, sizeof(text), "%s, %s: %s",
				t->cells[ri * t->cols], t->cells[1 + v], notes);
			err = strlist_push(&t->notes, text);
		}
		if (err || v == 0 || v > ndiff)
			continue;
		diff_text(base, res, text, sizeof(text));
		err = table_set(t, ri, values->n + v, text);
	}
	return err ? err : row_cycles(r, it, values, row, ri, t);
}

/* A grid's heading for value v of key: "4 parallels", "size 64K". */
static void grid_label(const char *key, const char *v, char *buf, size_t len)
{
	if (strcmp(key, "parallel") == 0)
		snprintf(buf, len, "%s parallel%s", v,
			 strcmp(v, "1") == 0 ? "" : "s");
	else
		snprintf(buf, len, "%s %s", key, v);
}

/* The result of results[a..b) with rows_key rv and key cv, or NULL. */
static const struct result *grid_result(const struct report *r,
					const struct report_item *it,
					const char *rv, const char *cv)
{
	char b1[32], b2[32];

	for (size_t i = it->first; i < it->last; i++) {
		const struct bench_case *c = r->results[i].c;

		if (strcmp(report_case_value(c, it->rows_key, b1, sizeof(b1)),
			   rv) == 0 &&
		    strcmp(report_case_value(c, it->key, b2, sizeof(b2)), cv) ==
			    0)
			return &r->results[i];
	}
	return NULL;
}

/* One grid cell: the figure, and its annotations among the notes. */
static int grid_cell(const struct report *r, const struct report_item *it,
		     const char *rv, const char *cv, size_t row, size_t col,
		     struct table *t)
{
	const struct result *res = grid_result(r, it, rv, cv);
	char text[REPORT_LINE], notes[REPORT_LINE];
	int err;

	if (!res)
		return table_set(t, row, col, "-");
	err = figure_cell(t, row, col, res);
	report_annotations(res, notes, sizeof(notes));
	if (err || !notes[0])
		return err;
	text[0] = '\0';
	appendf(text, sizeof(text), "%s, %s: %s", t->cells[row * t->cols],
		t->cells[col], notes);
	return strlist_push(&t->notes, text);
}

/* A grid item: a row per value of rows_key, a column per value of key. */
static int grid_build(const struct report *r, const struct report_item *it,
		      struct table *t)
{
	struct strlist rv = { 0 }, cv = { 0 };
	char text[REPORT_LINE];
	int err = distinct_values(r, it->first, it->last, it->rows_key, &rv);

	if (!err)
		err = distinct_values(r, it->first, it->last, it->key, &cv);
	if (!err)
		err = table_init(t, 1 + rv.n, 1 + cv.n);
	if (!err) {
		const struct job *job = job_of(r, &r->results[it->first]);

		err = table_set(t, 0, 0, job ? job->label : "");
	}
	for (size_t c = 0; c < cv.n && !err; c++) {
		grid_label(it->key, cv.items[c], text, sizeof(text));
		err = table_set(t, 0, 1 + c, text);
	}
	for (size_t i = 0; i < rv.n && !err; i++) {
		grid_label(it->rows_key, rv.items[i], text, sizeof(text));
		err = table_set(t, 1 + i, 0, text);
		for (size_t c = 0; c < cv.n && !err; c++)
			err = grid_cell(r, it, rv.items[i], cv.items[c], 1 + i,
					1 + c, t);
	}
	if (err)
		table_free(t);
	strlist_free(&rv);
	strlist_free(&cv);
	return err;
}

int report_table_build(const struct report *r, const struct report_item *it,
		       struct table *t)
{
	struct strlist values = { 0 };
	struct item_row *rows;
	size_t nrows, ndiff;
	int err;

	memset(t, 0, sizeof(*t));
	if (it->rows_key)
		return grid_build(r, it, t);
	rows = calloc(it->last - it->first, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	nrows = item_rows(r, it, rows);
	show_backends(r, rows, nrows);
	err = distinct_values(r, it->first, report_job_end(r, it->first),
			      it->key, &values);
	if (err)
		goto free_rows;
	ndiff = strcmp(it->key, "dir") == 0 && values.n > 1 ? values.n - 1 : 0;
	err = table_init(t, 1 + nrows, 1 + values.n + ndiff);
	err = err ? err : header_fill(r, it, &values, ndiff, t);
	for (size_t i = 0; i < nrows && !err; i++)
		err = row_fill(r, it, &values, ndiff, &rows[i], 1 + i, t);
	if (err)
		table_free(t);
	strlist_free(&values);
free_rows:
	free(rows);
	return err;
}

const char *report_build_warning(const struct sysinfo *si)
{
	const char *build =
		si && si->build_type ? si->build_type : HB_BUILD_TYPE;

	if (si && si->sanitized)
		return "a sanitizer build: figures are far below a release "
		       "build's";
	if (strcmp(build, "Debug") == 0)
		return "a Debug build: figures are below a release build's";
	return NULL;
}

void report_app_line(const struct report *r, char *buf, size_t len)
{
	const struct sysinfo *si = r->sys;
	const char *version = si && si->version ? si->version : HB_VERSION;
	const char *build =
		si && si->build_type ? si->build_type : HB_BUILD_TYPE;
	const char *warning = report_build_warning(si);
	size_t os_len = si && si->kernel ? strcspn(si->kernel, " ") : 0;

	snprintf(buf, len, "hostbench %s (%s build%s) / %.*s%s%s", version,
		 build[0] ? build : "unknown",
		 si && si->sanitized ? ", sanitized" : "",
		 os_len ? (int)os_len : 5, os_len ? si->kernel : "Linux",
		 warning ? " - WARNING: " : "", warning ? warning : "");
}

int report_libraries(const struct report *r, struct strlist *out)
{
	char line[REPORT_LINE];

	for (size_t p = 0; r->reg && p < r->reg->n; p++) {
		const struct kvlist *libs = &r->reg->plugins[p].libraries;

		for (size_t i = 0; i < libs->n; i++) {
			const char *name = libs->items[i].key;
			const char *version = libs->items[i].value;
			size_t k = 0;

			/* a version that starts with the name needs it once */
			if (strncmp(version, name, strlen(name)) == 0)
				snprintf(line, sizeof(line), "%s", version);
			else
				snprintf(line, sizeof(line), "%s %s", name,
					 version);
			while (k < out->n && strcmp(out->items[k], line) != 0)
				k++;
			if (k == out->n && strlist_push(out, line))
				return -ENOMEM;
		}
	}
	return 0;
}

/* Nonzero when si lists flag as present. */
static int has_flag(const struct sysinfo *si, const char *flag)
{
	for (size_t i = 0; i < si->cpu_flags.n; i++)
		if (strcmp(si->cpu_flags.items[i], flag) == 0)
			return 1;
	return 0;
}

/* "x86_64 AES-NI ON, VAES ON, ..." for the architecture's feature list. */
static void features_line(const struct sysinfo *si, char *buf, size_t len)
{
	const struct cpu_feature *f = sysinfo_cpu_features(si->arch);
	const char *arch = si->arch && si->arch[0] ? si->arch : "unknown";

	snprintf(buf, len, "%s", arch);
	if (!f->flag)
		appendf(buf, len, " (no crypto features known)");
	for (size_t i = 0; f[i].flag; i++)
		appendf(buf, len, "%s %s %s", i ? "," : "", f[i].label,
			has_flag(si, f[i].flag) ? "ON" : "OFF");
}

/* s, or "unknown" when empty. */
static const char *known(const char *s)
{
	return s && s[0] ? s : "unknown";
}

/* "node 0: CPUs 0-3, 16384 MiB; node 1: ..." */
static void numa_line(const struct topology *t, char *buf, size_t len)
{
	char cpus[256];

	buf[0] = '\0';
	for (size_t i = 0; i < t->nnodes; i++) {
		cpulist_format(&t->nodes[i].cpus, cpus, sizeof(cpus));
		appendf(buf, len, "%snode %d: CPUs %s, %llu MiB", i ? "; " : "",
			t->nodes[i].id, cpus[0] ? cpus : "none",
			t->nodes[i].mem_kb / 1024);
	}
}

/* "L1d 32K, L1i 32K, L2 512K, L3 32M (CPUs 0-7)": CPU 0's caches. */
static void cache_line(const struct topology *t, char *buf, size_t len)
{
	unsigned last = topology_last_level(t);
	char size[32];

	buf[0] = '\0';
	for (size_t i = 0; i < t->ncaches; i++) {
		const struct topology_cache *c = &t->caches[i];

		parse_format_size(c->size, size, sizeof(size));
		appendf(buf, len, "%sL%u%s %s", i ? ", " : "", c->level,
			strcmp(c->type, "Data") == 0	      ? "d"
			: strcmp(c->type, "Instruction") == 0 ? "i"
							      : "",
			size);
		if (c->level == last && c->shared[0])
			appendf(buf, len, " (CPUs %s)", c->shared);
	}
}

int report_system_facts(const struct report *r, struct kvlist *out)
{
	const struct sysinfo *si = r->sys;
	char line[REPORT_LINE];
	int err;

	if (!si)
		return 0;
	snprintf(line, sizeof(line), "%s, physical %u / logical %u",
		 known(si->cpu_model), si->physical_cores, si->logical_cpus);
	err = kvlist_set(out, "CPU", line);
	features_line(si, line, sizeof(line));
	err = err ? err : kvlist_set(out, "AES", line);
	snprintf(line, sizeof(line), "%llu kB", si->ram_kb);
	err = err ? err : kvlist_set(out, "RAM", line);
	numa_line(&si->topo, line, sizeof(line));
	if (si->topo.nnodes)
		err = err ? err : kvlist_set(out, "NUMA", line);
	cache_line(&si->topo, line, sizeof(line));
	if (si->topo.ncaches)
		err = err ? err : kvlist_set(out, "Cache", line);
	err = err ? err : kvlist_set(out, "Kernel", known(si->kernel));
	err = err ? err : kvlist_set(out, "OS", known(si->os));
	err = err ? err : kvlist_set(out, "Host", known(si->hostname));
	return err;
}

void report_netif_line(const struct netif *nif, char *buf, size_t len)
{
	snprintf(buf, len, "%s", known(nif->name));
	if (nif->driver && nif->driver[0])
		appendf(buf, len, " (%s)", nif->driver);
	if (nif->mac && nif->mac[0])
		appendf(buf, len, " %s", nif->mac);
	appendf(buf, len, " %s, speed ", known(nif->state));
	if (nif->speed_mbps >= 0)
		appendf(buf, len, "%ldMb/s", nif->speed_mbps);
	else
		appendf(buf, len, "unknown");
}

/* bytes as "80.12GiB" (MiB below a GiB, TiB from a TiB). */
static void human_bytes(unsigned long long bytes, char *buf, size_t len)
{
	static const char *const names[] = { "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes / (1024.0 * 1024.0);
	size_t i = 0;

	while (v >= 1024 && i + 1 < sizeof(names) / sizeof(names[0])) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%.2f%s", v, names[i]);
}

void report_fs_line(const struct fsinfo *fs, char *buf, size_t len)
{
	char free_text[32], total_text[32];

	snprintf(buf, len, "%s : ", known(fs->dir));
	if (!fs->fstype || !fs->fstype[0]) {
		appendf(buf, len, "unknown filesystem");
		return;
	}
	appendf(buf, len, "%s on %s", fs->fstype, known(fs->device));
	if (!fs->total_bytes)
		return;
	human_bytes(fs->free_bytes, free_text, sizeof(free_text));
	human_bytes(fs->total_bytes, total_text, sizeof(total_text));
	appendf(buf, len, ", free %s of %s", free_text, total_text);
}
