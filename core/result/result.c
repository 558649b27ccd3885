/* SPDX-License-Identifier: Apache-2.0 */
/* A result's derived figures: rates, CPU share, and the flags they raise. */
#include "result/result.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sanitize.h"

#define NOISY_PREFIX	 "noisy: "
#define IMPRECISE_PREFIX "imprecise: "
#define STARVED_PREFIX	 "starved: "
#define OFFLOAD_PREFIX	 "offload: "

int result_is_flag_warning(const char *w)
{
	return strncmp(w, NOISY_PREFIX, strlen(NOISY_PREFIX)) == 0 ||
	       strncmp(w, IMPRECISE_PREFIX, strlen(IMPRECISE_PREFIX)) == 0 ||
	       strncmp(w, STARVED_PREFIX, strlen(STARVED_PREFIX)) == 0 ||
	       strncmp(w, OFFLOAD_PREFIX, strlen(OFFLOAD_PREFIX)) == 0;
}

/* Nonzero when the target counts operations, not bytes. */
static int counts_ops(const struct result *r)
{
	return r->c && r->c->tdesc && r->c->tdesc->work == HB_WORK_OPS;
}

const struct stats *result_headline(const struct result *r)
{
	return counts_ops(r) ? &r->ops_rate : &r->rate;
}

const struct stats *result_cpu_headline(const struct result *r)
{
	return counts_ops(r) ? &r->cpu_ops_rate : &r->cpu_rate;
}

const struct stats *result_figure_stats(const struct result *r,
					enum result_figure figure)
{
	return figure == RESULT_FIGURE_CPU ? result_cpu_headline(r)
					   : result_headline(r);
}

/* Nonzero when target's group ("group/...") is one of groups[0..n). */
static int group_in(const char *target, const char *const *groups, size_t n)
{
	size_t len;

	if (!target)
		return 0;
	len = strcspn(target, "/");
	for (size_t i = 0; i < n; i++)
		if (strlen(groups[i]) == len &&
		    strncmp(target, groups[i], len) == 0)
			return 1;
	return 0;
}

int result_cpu_bound(const char *target)
{
	static const char *const groups[] = { "crypto", "hash", "mac", "pk",
					      "mem" };

	return group_in(target, groups, sizeof(groups) / sizeof(groups[0]));
}

/* Nonzero when the target's group is one whose workers wait by nature. */
static int waits_by_nature(const struct result *r)
{
	static const char *const groups[] = { "io", "transfer" };

	return group_in(r->c ? r->c->target : NULL, groups,
			sizeof(groups) / sizeof(groups[0]));
}

/* Drop the flag warnings an earlier result_finish() added. */
static void drop_flag_warnings(struct strlist *l)
{
	size_t kept = 0;

	for (size_t i = 0; i < l->n; i++) {
		if (result_is_flag_warning(l->items[i]))
			free(l->items[i]);
		else
			l->items[kept++] = l->items[i];
	}
	l->n = kept;
}

double result_sample_seconds(const struct sample *s)
{
	return s->tool_seconds > 0 ? s->tool_seconds : s->seconds;
}

/* Which time a rate is over: the figure's, the CPU's, the whole wall's. */
enum rate_time { RATE_FIGURE, RATE_CPU, RATE_WALL };

/* Work of s (ops or bytes) over the time per_cpu names; 0 without. */
static double rate_of(const struct sample *s, int ops, enum rate_time per_cpu)
{
	double work = ops ? s->ops : s->bytes;
	double t = per_cpu == RATE_CPU	  ? s->cpu_seconds
		   : per_cpu == RATE_WALL ? s->seconds
					  : result_sample_seconds(s);

	return t > 0 ? work / t : 0;
}

int result_tool_timed(const struct result *r)
{
	for (size_t i = 0; i < r->nsamples; i++)
		if (!(r->samples[i].tool_seconds > 0))
			return 0;
	return r->nsamples > 0;
}

double result_sample_rate(const struct result *r, const struct sample *s)
{
	return rate_of(s, counts_ops(r), RATE_FIGURE);
}

double result_sample_cpu_rate(const struct result *r, const struct sample *s)
{
	return rate_of(s, counts_ops(r), RATE_CPU);
}

/*
 * Per-sample rates of r: bytes or ops per second of wall or CPU time. A
 * sample without that time makes the whole figure unknown (zeros).
 */
static int sample_rates(const struct result *r, int ops, enum rate_time per_cpu,
			struct stats *out)
{
	double *v;
	int err;

	memset(out, 0, sizeof(*out));
	if (r->nsamples == 0)
		return 0;
	v = malloc(r->nsamples * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < r->nsamples; i++) {
		v[i] = rate_of(&r->samples[i], ops, per_cpu);
		if (!(v[i] > 0) && per_cpu == RATE_CPU) {
			free(v);
			return 0;
		}
	}
	err = stats_compute(v, r->nsamples, out);
	free(v);
	return err;
}

double result_command_rate(const struct result *r, int ops)
{
	struct stats st;

	return sample_rates(r, ops, RATE_WALL, &st) == 0 ? st.median : 0;
}

int result_cpu_rates(struct result *r)
{
	int err = sample_rates(r, 0, RATE_CPU, &r->cpu_rate);

	return err ? err : sample_rates(r, 1, RATE_CPU, &r->cpu_ops_rate);
}

/* rate, ops_rate, cpu_rate and cpu_ops_rate of r from its samples. */
static int all_rates(struct result *r)
{
	int err = sample_rates(r, 0, RATE_FIGURE, &r->rate);

	err = err ? err : sample_rates(r, 1, RATE_FIGURE, &r->ops_rate);
	return err ? err : result_cpu_rates(r);
}

int result_precise(const struct result *r, double precision)
{
	struct stats st;

	if (r->nsamples == 0 ||
	    sample_rates(r, counts_ops(r), RATE_FIGURE, &st) != 0)
		return 0;
	return stats_ci_relative(&st) <= precision;
}

/* The distinct CPUs of r's pinned workers, 0 when they were not pinned. */
static unsigned pinned_cpus(const struct result *r)
{
	unsigned n = 0;

	if (!r->c || !r->c->cpus)
		return 0;
	for (unsigned i = 0; i < r->ncpus; i++) {
		unsigned j = 0;

		while (j < i && r->cpus[j] != r->cpus[i])
			j++;
		n += j == i;
	}
	return n;
}

/* sum(cpu) / (sum(wall) * min(parallel, online CPUs, pinned CPUs)). */
static double cpu_ratio(const struct result *r, unsigned online_cpus)
{
	unsigned parallel = r->c && r->c->parallel ? r->c->parallel : 1;
	unsigned usable =
		online_cpus && online_cpus < parallel ? online_cpus : parallel;
	unsigned pinned = pinned_cpus(r);
	double cpu = 0, wall = 0;

	if (pinned && pinned < usable)
		usable = pinned;
	for (size_t i = 0; i < r->nsamples; i++) {
		cpu += r->samples[i].cpu_seconds;
		wall += r->samples[i].seconds;
	}
	return wall > 0 ? cpu / (wall * usable) : 0;
}

/*
 * Host CPU per byte moved over the kept samples: what an offload saves,
 * beside the wall rate. 0 when nothing was measured.
 */
static void cpu_per_byte(struct result *r)
{
	double cpu = 0, bytes = 0;

	for (size_t i = 0; i < r->nsamples; i++) {
		cpu += r->samples[i].cpu_seconds;
		bytes += r->samples[i].bytes;
	}
	r->bytes_per_cpu_second = cpu > 0 ? bytes / cpu : 0;
	r->cpu_seconds_per_gb = bytes > 0 ? cpu / (bytes / 1e9) : 0;
}

/* Raise the noisy and starved (or offload) flags with their warnings. */
static int raise_flags(struct result *r)
{
	const struct stats *head = result_headline(r);
	char line[160];

	r->noisy = r->nsamples > 1 && head->cv > RESULT_NOISY_CV;
	r->imprecise = r->precision > 0 && r->nsamples > 0 &&
		       stats_ci_relative(head) > r->precision;
	r->starved = r->nsamples > 0 && !waits_by_nature(r) && !r->offload &&
		     r->cpu_ratio < RESULT_STARVED_CPU;
	if (r->offload && r->nsamples > 0) {
		/* idle host CPU is the point of an accelerator */
		snprintf(line, sizeof(line), OFFLOAD_PREFIX "host CPU %.0f%%",
			 r->cpu_ratio * 100);
		if (strlist_push(&r->warnings, line))
			return -ENOMEM;
	}
	if (r->imprecise) {
		snprintf(line, sizeof(line),
			 IMPRECISE_PREFIX "the median is known to ±%.1f%% "
					  "after %zu samples (asked ±%.2g%%)",
			 stats_ci_relative(head) * 100, r->nsamples,
			 r->precision * 100);
		if (strlist_push(&r->warnings, line))
			return -ENOMEM;
	}
	if (r->noisy) {
		snprintf(line, sizeof(line),
			 NOISY_PREFIX "CV %.1f%% over %zu samples "
				      "(threshold %.0f%%)",
			 head->cv * 100, r->nsamples, RESULT_NOISY_CV * 100);
		if (strlist_push(&r->warnings, line))
			return -ENOMEM;
	}
	if (r->starved) {
		snprintf(line, sizeof(line),
			 STARVED_PREFIX "workers got %.0f%% of the CPU time "
					"they needed (contended host?)",
			 r->cpu_ratio * 100);
		if (strlist_push(&r->warnings, line))
			return -ENOMEM;
	}
	return 0;
}

int result_rates(struct result *r)
{
	int err = all_rates(r);

	for (size_t i = 0; i < r->nparts && !err; i++)
		err = result_rates(&r->parts[i]);
	return err;
}

int result_finish_cpus(struct result *r, unsigned online_cpus)
{
	int err;

	drop_flag_warnings(&r->warnings);
	r->noisy = 0;
	r->imprecise = 0;
	if (r->c)
		r->precision = r->c->precision;
	r->starved = 0;
	err = all_rates(r);
	if (err)
		return err;
	r->cpu_ratio = cpu_ratio(r, online_cpus);
	cpu_per_byte(r);
	if (r->c && r->c->tdesc)
		r->offload = (r->c->tdesc->flags & HB_TARGET_OFFLOAD) != 0;
	if (r->status == RESULT_OK) {
		err = raise_flags(r);
		if (err)
			return err;
	}
	return 0;
}

int result_finish(struct result *r)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	return result_finish_cpus(r, online > 0 ? (unsigned)online : 1);
}

void result_sanitize(struct result *r)
{
	sanitize_text(r->reason);
	for (size_t i = 0; i < r->warnings.n; i++)
		sanitize_text(r->warnings.items[i]);
	for (size_t i = 0; i < r->info.n; i++) {
		sanitize_text(r->info.items[i].key);
		sanitize_text(r->info.items[i].value);
	}
	for (size_t i = 0; i < r->nparts; i++)
		result_sanitize(&r->parts[i]);
}

void result_free(struct result *r)
{
	for (size_t i = 0; i < r->nparts; i++)
		result_free(&r->parts[i]);
	free(r->parts);
	free(r->reason);
	free(r->samples);
	free(r->cpus);
	strlist_free(&r->warnings);
	kvlist_free(&r->info);
	memset(r, 0, sizeof(*r));
}
