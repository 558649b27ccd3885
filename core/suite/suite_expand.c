/* SPDX-License-Identifier: Apache-2.0 */
/* Expansion of a checked draft job into its job entry and cases. */
#include "suite/suite_draft.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "plugin/core_key.h"
#include "suite/suite_file.h"
#include "suite/suite_value.h"

/* Most cases a suite may expand into: a runaway matrix is a typo. */
#define SUITE_MAX_CASES 100000

/* The value key takes in the case at (an index per setting), or NULL. */
static const char *case_value(const struct draft *d, const size_t *at,
			      const char *key)
{
	for (size_t i = 0; i < d->n; i++)
		if (!d->set[i].ignored && strcmp(d->set[i].key, key) == 0)
			return d->set[i].items.items[at[i]];
	return NULL;
}

/* Index in d->backends of the backend of the case at point at. */
static size_t case_backend(const struct draft *d, const size_t *at)
{
	const char *backend = case_value(d, at, "backend");
	size_t b = 0;

	while (backend && strcmp(d->backends.items[b], backend) != 0)
		b++;
	return b;
}

/* Nonzero when st reaches a case with target table t (NULL: not loaded). */
static int setting_applies(const struct setting *st, const struct hb_target *t)
{
	return !st->ignored &&
	       (core_key(st->key) || !t || plugin_option_find(t, st->key) ||
		(t->flags & HB_TARGET_EXTRA_KEYS));
}

/*
 * Nonzero when point at repeats an earlier case: a list of a key that the
 * case's backend does not take (another backend of the job does) would
 * only make copies, so it is walked at its first item alone.
 */
static int point_repeats(const struct draft *d, const size_t *at)
{
	const struct hb_target *t = d->tdescs[case_backend(d, at)];

	for (size_t i = 0; i < d->n; i++)
		if (!d->set[i].ignored && at[i] &&
		    !setting_applies(&d->set[i], t))
			return 1;
	return 0;
}

/* Append ", part" (or " [part" first) to the title being built. */
static void title_part(FILE *m, int *parts, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void title_part(FILE *m, int *parts, const char *fmt, ...)
{
	va_list ap;

	fputs((*parts)++ ? ", " : " [", m);
	va_start(ap, fmt);
	vfprintf(m, fmt, ap);
	va_end(ap);
}

/*
 * "LABEL [64KB, 4 parallels, key=value]": the size when it varies, the
 * parallel when above 1, then every other key that varies, in file order;
 * only keys that reach the case's table t.
 */
static char *case_title(const struct draft *d, const size_t *at,
			const struct hb_target *t, unsigned parallel)
{
	char *title = NULL, text[64];
	size_t len = 0;
	int parts = 0;
	FILE *m = open_memstream(&title, &len);

	if (!m)
		return NULL;
	fputs(d->label, m);
	for (size_t i = 0; i < d->n; i++) {
		const struct setting *st = &d->set[i];
		uint64_t size;

		if (!setting_applies(st, t) || st->items.n < 2 ||
		    strcmp(st->key, "size") != 0)
			continue;
		if (parse_size(st->items.items[at[i]], &size, NULL, 0) == 0) {
			parse_format_size(size, text, sizeof(text));
			title_part(m, &parts, "%sB", text);
		} else {
			title_part(m, &parts, "size=%s",
				   st->items.items[at[i]]);
		}
	}
	if (parallel > 1)
		title_part(m, &parts, "%u parallels", parallel);
	for (size_t i = 0; i < d->n; i++) {
		const struct setting *st = &d->set[i];

		/* every report names the backend beside the title */
		if (!setting_applies(st, t) || st->items.n < 2 ||
		    strcmp(st->key, "size") == 0 ||
		    strcmp(st->key, "parallel") == 0 ||
		    strcmp(st->key, "backend") == 0)
			continue;
		title_part(
			m, &parts, "%s=%s", st->key,
			suite_value_shown(t, st->key, st->items.items[at[i]]));
	}
	if (parts)
		fputc(']', m);
	if (fclose(m)) {
		free(title);
		return NULL;
	}
	return title;
}

/* Why a case whose backend is not loaded cannot run, naming the refusals. */
static char *case_reason(const struct registry *reg, const char *backend,
			 const char *target)
{
	char *reason = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&reason, &len);

	if (!m)
		return NULL;
	if (strcmp(backend, "none") == 0)
		fprintf(m, "no loaded plugin offers %s (refused plugins: ",
			target);
	else
		fprintf(m,
			"no loaded backend \"%s\" offers %s (refused "
			"plugins: ",
			backend, target);
	for (size_t i = 0; i < reg->nrefused; i++)
		fprintf(m, "%s%s: %s", i ? "; " : "", reg->refused[i].path,
			reg->refused[i].reason);
	fputc(')', m);
	if (fclose(m)) {
		free(reason);
		return NULL;
	}
	return reason;
}

/* Fill c's params: every option of its table, defaults filled. */
static int case_params(const struct draft *d, const size_t *at,
		       struct bench_case *c)
{
	const struct hb_target *t = c->tdesc;
	const char *v;

	for (const struct hb_option *o = t ? t->options : NULL; o && o->name;
	     o++) {
		v = case_value(d, at, o->name);
		if (kvlist_set(&c->params, o->name, v ? v : o->def))
			return -ENOMEM;
	}
	/* Keys outside the table: extra keys, or a target not loaded. */
	if (t && !(t->flags & HB_TARGET_EXTRA_KEYS))
		return 0;
	for (size_t i = 0; i < d->n; i++) {
		const struct setting *st = &d->set[i];

		if (st->ignored || core_key(st->key) ||
		    plugin_option_find(t, st->key))
			continue;
		if (kvlist_set(&c->params, st->key, st->items.items[at[i]]))
			return -ENOMEM;
	}
	return 0;
}

/* A core key's number in the case, or def when the job does not set it. */
static double case_number(const struct draft *d, const size_t *at,
			  const char *key, double def)
{
	const char *v = case_value(d, at, key);
	int64_t num;
	double secs;

	if (!v)
		return def;
	if (strcmp(key, "duration") == 0 || strcmp(key, "fleet_timeout") == 0 ||
	    strcmp(key, "max_time") == 0 || core_key_zero_is_none(key))
		return strcmp(v, "0") == 0 || parse_duration(v, &secs, NULL, 0)
			       ? 0
			       : secs;
	return parse_int(v, &num, NULL, 0) ? def : (double)num;
}

/*
 * How c samples: a fixed count of repetitions (the default), or until the
 * median is known to precision, with 200 ms samples and a warm-up that
 * ends when two samples agree unless the job says otherwise.
 */
static void case_sampling(const struct draft *d, const size_t *at,
			  struct bench_case *c)
{
	const char *precision = case_value(d, at, "precision");
	const char *warmup = case_value(d, at, "warmup");
	const char *order = case_value(d, at, "order");

	if (precision)
		suite_value_percent(precision, &c->precision, NULL, 0);
	c->duration =
		case_number(d, at, "duration",
			    c->precision > 0 ? SUITE_PRECISE_DURATION : 1);
	c->repetitions = (unsigned)case_number(d, at, "repetitions", 5);
	c->min_repetitions = (unsigned)case_number(d, at, "min_repetitions", 5);
	c->max_time = case_number(d, at, "max_time", SUITE_MAX_TIME);
	c->warmup_auto =
		warmup ? strcmp(warmup, "auto") == 0 : c->precision > 0;
	c->warmup =
		c->warmup_auto ? 0 : (unsigned)case_number(d, at, "warmup", 1);
	c->interleaved = order && strcmp(order, "interleaved") == 0;
}

void suite_case_free(struct bench_case *c)
{
	free(c->title);
	free(c->target);
	free(c->backend);
	free(c->reason);
	free(c->unit);
	free(c->cpus);
	kvlist_free(&c->params);
}

/*
 * The backend that verifies a case of target t (HB_TARGET_VERIFIED): the
 * reference, openssl, when it offers it, usable, with its transform.
 */
static const struct plugin *case_reference(const struct registry *reg,
					   const char *target,
					   const struct hb_target *t)
{
	const struct plugin *p;

	if (!t || !(t->flags & HB_TARGET_VERIFIED))
		return NULL;
	p = registry_find(reg, target, "openssl", NULL);
	return p && p->has_transform && !registry_unusable(p, target) ? p
								      : NULL;
}

/* Build the case of job index job at the matrix point at. */
static int case_build(const struct registry *reg, const struct draft *d,
		      const size_t *at, size_t job, struct bench_case *c)
{
	size_t b = case_backend(d, at);
	const char *backend = d->backends.items[b];
	const char *unit = case_value(d, at, "unit");

	memset(c, 0, sizeof(*c));
	c->job = job;
	c->plugin = d->plugins[b];
	c->tdesc = d->tdescs[b];
	c->reference = case_reference(reg, d->target, c->tdesc);
	c->parallel = (unsigned)case_number(d, at, "parallel", 1);
	c->queue_depth =
		core_key_for("queue_depth", c->tdesc)
			? (unsigned)case_number(d, at, "queue_depth", 1)
			: 1;
	c->depth_given = core_key_for("queue_depth", c->tdesc) &&
			 case_value(d, at, "queue_depth") != NULL;
	case_sampling(d, at, c);
	c->timeout = case_number(d, at, "timeout", 0);
	c->cpu_limit = case_number(d, at, "cpu_limit", 0);
	c->fleet_timeout =
		case_number(d, at, "fleet_timeout", SUITE_FLEET_TIMEOUT);
	c->isolate = 1;
	if (case_value(d, at, "isolate"))
		parse_bool(case_value(d, at, "isolate"), &c->isolate, NULL, 0);
	c->store = 1;
	if (case_value(d, at, "store"))
		parse_bool(case_value(d, at, "store"), &c->store, NULL, 0);
	if (case_value(d, at, "fleet"))
		c->fleet_sequential =
			strcmp(case_value(d, at, "fleet"), "sequential") == 0;
	if (case_value(d, at, "memory_limit"))
		parse_size(case_value(d, at, "memory_limit"), &c->memory_limit,
			   NULL, 0);
	if (case_value(d, at, "file_size_limit"))
		parse_size(case_value(d, at, "file_size_limit"),
			   &c->file_size_limit, NULL, 0);
	if (case_value(d, at, "temp_space_limit"))
		parse_size(case_value(d, at, "temp_space_limit"),
			   &c->temp_space_limit, NULL, 0);
	c->process_limit = (uint64_t)case_number(d, at, "process_limit", 0);
	c->open_files_limit =
		(uint64_t)case_number(d, at, "open_files_limit", 0);
	c->target = strdup(d->target);
	c->backend = strdup(backend);
	c->backend_chosen = !suite_draft_get(d, "backend");
	if (c->tdesc && c->tdesc->work == HB_WORK_OPS)
		unit = "ops/s"; /* no byte unit can show an operation count */
	c->unit = strdup(unit ? unit : "Gbps");
	c->cpus = xstrdup(case_value(d, at, "cpus"));
	c->title = case_title(d, at, c->tdesc, c->parallel);
	if (!c->plugin)
		c->reason = case_reason(reg, backend, d->target);
	if (!c->target || !c->backend || !c->unit || !c->title ||
	    (case_value(d, at, "cpus") && !c->cpus) ||
	    (!c->plugin && !c->reason) || case_params(d, at, c)) {
		suite_case_free(c);
		return -ENOMEM;
	}
	return 0;
}

/*
 * The job entry for d: label, group, report section, varying keys and
 * where each key was set.
 */
static int job_build(const struct draft *d, struct job *j)
{
	const struct setting *sec = suite_draft_get(d, "section");
	const struct setting *note = suite_draft_get(d, "note");
	const char *slash = strchr(d->target, '/');

	memset(j, 0, sizeof(*j));
	j->label = strdup(d->label);
	j->file = strdup(d->file);
	j->line = d->line;
	if (d->tdescs[0])
		j->group = strdup(d->tdescs[0]->group);
	else
		j->group =
			slash ? strndup(d->target, (size_t)(slash - d->target))
			      : strdup(d->target);
	if (sec && !sec->ignored)
		j->section = strdup(sec->value);
	if (note && !note->ignored && !(j->note = strdup(note->value)))
		return -ENOMEM;
	if (d->unoffered)
		j->unoffered = strdup(d->target);
	if (!j->label || !j->file || !j->group || (sec && !j->section) ||
	    (d->unoffered && !j->unoffered))
		return -ENOMEM;
	for (size_t i = 0; i < d->n; i++) {
		const struct setting *st = &d->set[i];

		if (st->ignored)
			continue;
		if (st->items.n > 1 && strlist_push(&j->varying, st->key))
			return -ENOMEM;
		if (st->origin && kvlist_set(&j->origins, st->key, st->origin))
			return -ENOMEM;
	}
	return 0;
}

/* Expand d into job s->njobs and its cases, first key outermost. */
int suite_draft_expand(const struct draft *d, const struct registry *reg,
		       struct suite *s, struct suite_room *room, char *err,
		       size_t errlen)
{
	size_t count = 1, *at;
	int rc;

	if (d->unoffered)
		count = 0; /* its job only: the ranks that offer it run it */
	for (size_t i = 0; i < d->n && count; i++)
		if (!d->set[i].ignored)
			count = count > SUITE_MAX_CASES
					? count
					: count * d->set[i].items.n;
	if (count > SUITE_MAX_CASES - s->ncases)
		return hb_errorf(err, errlen, -EINVAL,
				 "%s:%u: [%s] the lists expand into too many "
				 "cases (max %d in a suite)",
				 d->file, d->line, d->label, SUITE_MAX_CASES);
	if (array_grow((void **)&s->jobs, s->njobs, &room->jobs,
		       sizeof(*s->jobs)))
		goto nomem;
	rc = job_build(d, &s->jobs[s->njobs]);
	s->njobs++;
	at = calloc(d->n + 1, sizeof(*at));
	if (rc || !at) {
		free(at);
		goto nomem;
	}
	for (size_t n = 0; n < count && !rc; n++) {
		size_t i = d->n;

		if (!point_repeats(d, at)) {
			rc = array_grow((void **)&s->cases, s->ncases,
					&room->cases, sizeof(*s->cases));
			if (!rc)
				rc = case_build(reg, d, at, s->njobs - 1,
						&s->cases[s->ncases]);
			if (!rc)
				s->ncases++;
		}
		/* Next point: the last key turns fastest. */
		while (i-- > 0) {
			if (d->set[i].ignored)
				continue;
			if (++at[i] < d->set[i].items.n)
				break;
			at[i] = 0;
		}
	}
	free(at);
	if (!rc)
		return 0;
nomem:
	return hb_errorf(err, errlen, -ENOMEM, "out of memory");
}
