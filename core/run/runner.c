/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The measurement loop. Per case: one plugin state per worker, one thread
 * per worker released together by a barrier, a calibrated number of
 * iterations per sample, and a sample time from the earliest worker start
 * to the latest worker end on CLOCK_MONOTONIC.
 */
#include "run/runner.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "run/async.h"
#include "run/sampling.h"
#include "run/buffers.h"
#include "run/cycles.h"
#include "run/hostapi.h"
#include "run/turns.h"
#include "run/pin.h"
#include "run/spot.h"
#include "run/verify.h"
#include "suite/suite_time.h"

/* One worker thread and the plugin state it drives. */
struct worker {
	pthread_t thread;
	struct crew *crew;
	struct hb_case hc;
	void *state;
	struct timespec start;
	struct timespec end;
	struct hb_done done;
	struct async_slots async; /* asynchronous targets only */
	struct spot spot;	  /* the core's buffers (verified targets) */
	struct cycles_counter cyc;
	int cpu; /* where the last sample ended */
	int rc;
	char err[256];
};

/* The workers of one case and what they share. */
struct crew {
	const struct hb_plugin *plugin;
	const struct hb_target *target;
	pthread_mutex_t lock; /* with armed: every thread has started */
	pthread_cond_t armed_cv;
	int armed;		/* 1: use the barriers; -1: leave at once */
	pthread_barrier_t go;	/* main + workers: a sample starts */
	pthread_barrier_t done; /* main + workers: a sample ended */
	uint64_t iterations;	/* of the next sample, per worker */
	int async;		/* units through submit and poll */
	int record;		/* the sample is kept: count latencies */
	int quit;		/* workers leave at the next start */
	int spotting;		/* the next start verifies, untimed */
	int buffered;		/* the workers write the core's buffers */
	uint64_t spot_ns;	/* time the spot checks took, in all */
	const struct verify_ref *ref; /* what spot checks compare with */
	struct worker *w;
	unsigned n;
	const struct pin_plan *pin; /* the cpus key */
	double *tool; /* per worker, tool_time() (HB_TARGET_TOOL_TIMED) */
};

static double ts_seconds(const struct timespec *t)
{
	return (double)t->tv_sec + (double)t->tv_nsec * 1e-9;
}

/*
 * CPU seconds of this process and of every child it reaped: a target that
 * runs a command (scp, a compressor) spends its CPU in the command, which
 * its run() waits for, so the command's CPU is the sample's too. What a
 * child has not been reaped for, and a server at the other end, is not.
 */
static double cpu_now(void)
{
	struct timespec t;
	struct rusage ru;
	double children = 0;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	if (getrusage(RUSAGE_CHILDREN, &ru) == 0)
		children = (double)ru.ru_utime.tv_sec +
			   (double)ru.ru_utime.tv_usec * 1e-6 +
			   (double)ru.ru_stime.tv_sec +
			   (double)ru.ru_stime.tv_usec * 1e-6;
	return ts_seconds(&t) + children;
}

/*
 * Wait until every worker thread has started (1) or one could not (-1):
 * the barriers count all of them, so none may wait there before.
 */
static int crew_wait_armed(struct crew *crew)
{
	int armed;

	pthread_mutex_lock(&crew->lock);
	while (!crew->armed)
		pthread_cond_wait(&crew->armed_cv, &crew->lock);
	armed = crew->armed;
	pthread_mutex_unlock(&crew->lock);
	return armed;
}

/* Tell the waiting worker threads whether the crew is whole. */
static void crew_arm(struct crew *crew, int armed)
{
	pthread_mutex_lock(&crew->lock);
	crew->armed = armed;
	pthread_cond_broadcast(&crew->armed_cv);
	pthread_mutex_unlock(&crew->lock);
}

/* A worker: wait for the start, run the plugin, report, repeat. */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct crew *crew = w->crew;

	if (crew_wait_armed(crew) < 0)
		return NULL;
	cycles_open(&w->cyc);
	for (;;) {
		pthread_barrier_wait(&crew->go);
		if (crew->quit)
			break;
		if (crew->spotting) {
			w->rc = spot_check(&w->spot, w->done.ops,
					   crew->async ? &w->async : NULL,
					   w->err, sizeof(w->err));
			pthread_barrier_wait(&crew->done);
			continue;
		}
		memset(&w->done, 0, sizeof(w->done));
		if (crew->tool)
			crew->tool[w - crew->w] = 0;
		cycles_begin(&w->cyc);
		clock_gettime(CLOCK_MONOTONIC, &w->start);
		if (crew->async)
			w->rc = async_run(&w->async, crew->plugin, w->state,
					  crew->iterations, crew->record,
					  &w->done, w->err, sizeof(w->err));
		else
			w->rc = crew->plugin->run(w->state, crew->iterations,
						  &w->done, w->err,
						  sizeof(w->err));
		clock_gettime(CLOCK_MONOTONIC, &w->end);
		cycles_end(&w->cyc);
		w->spot.units += w->done.ops;
		w->cpu = pin_cpu_now();
		w->err[sizeof(w->err) - 1] = '\0'; /* the plugin may not have */
		pthread_barrier_wait(&crew->done);
	}
	cycles_close(&w->cyc);
	return NULL;
}

/* Set the result's status and reason (first one wins). */
static int result_set(struct result *r, enum result_status st, const char *fmt,
		      ...) __attribute__((format(printf, 3, 4)));

static int result_set(struct result *r, enum result_status st, const char *fmt,
		      ...)
{
	char line[512];
	va_list ap;

	if (r->status != RESULT_OK)
		return 0;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	r->status = st;
	r->reason = strdup(line);
	return r->reason ? 0 : -ENOMEM;
}

/* Call setup for every worker; on failure tear down what was made. */
static int crew_setup(struct crew *crew, struct host_ctx *ctx, struct result *r)
{
	const struct bench_case *bc = ctx->bc;

	for (unsigned i = 0; i < crew->n; i++) {
		struct worker *w = &crew->w[i];
		int rc;

		w->crew = crew;
		w->hc = (struct hb_case){ .host = &host_api,
					  .target = bc->tdesc,
					  .worker = i,
					  .workers = crew->n,
					  .core = ctx };
		w->err[0] = '\0';
		/* on the worker's CPU: setup's buffers first-touched there */
		rc = pin_self(crew->pin, i, w->err, sizeof(w->err));
		if (rc == 0 && crew->buffered) {
			rc = spot_open(&w->spot, bc, i, crew->async, crew->ref);
			w->hc.buffers = &w->spot.buf.hb;
			if (rc)
				snprintf(w->err, sizeof(w->err),
					 "the core's buffers: out of memory");
		}
		if (rc == 0)
			rc = crew->plugin->setup(&w->hc, &w->state, w->err,
						 sizeof(w->err));
		w->err[sizeof(w->err) - 1] = '\0'; /* the plugin may not have */
		if (rc == HB_OK)
			continue;
		for (unsigned j = 0; j < i; j++)
			crew->plugin->teardown(crew->w[j].state);
		if (rc == HB_SKIP)
			return result_set(r, RESULT_SKIPPED, "%s", w->err);
		return result_set(r, RESULT_FAILED, "setup: %s",
				  w->err[0] ? w->err : "failed");
	}
	return 0;
}

/*
 * Start every worker thread; they wait until all have started. Returns 0,
 * or the error of the thread that could not start, with *started threads
 * running (told to leave).
 */
static int crew_start(struct crew *crew, unsigned *started)
{
	for (*started = 0; *started < crew->n; (*started)++) {
		struct worker *w = &crew->w[*started];
		pthread_attr_t attr;
		int rc = pthread_attr_init(&attr);

		if (!rc)
			rc = pin_attr(crew->pin, *started, &attr);
		if (!rc)
			rc = pthread_create(&w->thread, &attr, worker_main, w);
		pthread_attr_destroy(&attr);
		if (rc) {
			crew_arm(crew, -1);
			return rc;
		}
	}
	crew_arm(crew, 1);
	return 0;
}

/* Release and join the threads that started. */
static void crew_stop(struct crew *crew, unsigned started)
{
	crew->quit = 1;
	if (started == crew->n)
		pthread_barrier_wait(&crew->go);
	for (unsigned i = 0; i < started; i++)
		pthread_join(crew->w[i].thread, NULL);
}

/*
 * The time the tool reports for a sample (plugin.h, tool_time): each
 * worker's, no more than its own run() call took, the longest of them; 0
 * when any worker's tool told none.
 */
static double crew_tool_seconds(const struct crew *crew)
{
	double most = 0;

	for (unsigned i = 0; crew->tool && i < crew->n; i++) {
		const struct worker *w = &crew->w[i];
		double t = fmin(crew->tool[i],
				ts_seconds(&w->end) - ts_seconds(&w->start));

		if (!(t > 0))
			return 0;
		most = fmax(most, t);
	}
	return most;
}

/*
 * One sample of iterations per worker. Returns 0 and fills s, or the
 * first worker's error code with its message in err.
 */
static int crew_sample(struct crew *crew, uint64_t iterations, struct sample *s,
		       char *err, size_t errlen)
{
	double cpu0, cpu1, start = INFINITY, end = 0;
	char what[200];

	crew->iterations = iterations;
	cpu0 = cpu_now();
	pthread_barrier_wait(&crew->go);
	pthread_barrier_wait(&crew->done);
	cpu1 = cpu_now();
	memset(s, 0, sizeof(*s));
	for (unsigned i = 0; i < crew->n; i++) {
		struct worker *w = &crew->w[i];

		if (w->rc)
			return hb_errorf(err, errlen, w->rc, "worker %u: %s", i,
					 w->err[0] ? w->err : "run failed");
		if (sampling_done_invalid(&w->done, crew->target, iterations,
					  what, sizeof(what)))
			return hb_errorf(err, errlen, HB_EFAIL, "worker %u: %s",
					 i, what);
		start = fmin(start, ts_seconds(&w->start));
		end = fmax(end, ts_seconds(&w->end));
		s->bytes += (double)w->done.bytes;
		s->ops += (double)w->done.ops;
		s->cycles += (double)w->cyc.last;
	}
	s->seconds = end - start;
	s->start = start;
	s->cpu_seconds = cpu1 - cpu0;
	s->tool_seconds = crew_tool_seconds(crew);
	return 0;
}

/*
 * After a kept sample, untimed: each worker verifies a few of the units
 * that sample left in the core's buffers, drawn now (run/spot.h).
 */
static int crew_spot(struct crew *crew, char *err, size_t errlen)
{
	struct timespec t0, t1;

	if (!crew->ref)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	crew->spotting = 1;
	pthread_barrier_wait(&crew->go);
	pthread_barrier_wait(&crew->done);
	crew->spotting = 0;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	crew->spot_ns += (uint64_t)((ts_seconds(&t1) - ts_seconds(&t0)) * 1e9);
	for (unsigned i = 0; i < crew->n; i++)
		if (crew->w[i].rc)
			return hb_errorf(err, errlen,
					 crew->w[i].rc == -1 ? HB_EVERIFY
							     : crew->w[i].rc,
					 "worker %u: %s", i, crew->w[i].err);
	return 0;
}

/* Most iterations one sample asks of a worker (2^62). */
#define CALIBRATE_MAX 4611686018427387904.0

/* The clock's resolution in seconds. */
static double clock_tick(void)
{
	struct timespec t;

	if (clock_getres(CLOCK_MONOTONIC, &t))
		return 1e-6;
	return ts_seconds(&t);
}

/*
 * Find the iterations per worker that make a sample last about duration
 * and never less than a thousand clock ticks: grow from one until a sample
 * takes a tenth of the target, then scale.
 */
static int crew_calibrate(struct crew *crew, double duration,
			  uint64_t *iterations, char *err, size_t errlen)
{
	double target = fmax(duration, 1000 * clock_tick()), want;
	uint64_t n = 1;
	struct sample s;
	int rc;

	for (;;) {
		rc = crew_sample(crew, n, &s, err, errlen);
		if (rc)
			return rc;
		if (s.seconds >= target / 10)
			break;
		if (n >= (UINT64_C(1) << 40))
			return hb_errorf(err, errlen, HB_EFAIL,
					 "%llu units took %.3g s: run() does "
					 "no measurable work",
					 (unsigned long long)n, s.seconds);
		if (s.seconds <= 0)
			n *= 10;
		else
			n = (uint64_t)ceil(
				(double)n *
				fmin(10, fmax(2, target / 5 / s.seconds)));
	}
	want = round((double)n * target / fmax(s.seconds, 1e-9));
	/* a run() that takes no time would ask for more than uint64_t holds */
	*iterations = want >= CALIBRATE_MAX ? (uint64_t)CALIBRATE_MAX
		      : want < 1	    ? 1
					    : (uint64_t)want;
	return 0;
}

/* The latencies every worker counted, as the result's summary. */
static int crew_latency(struct crew *crew, struct result *r)
{
	struct latency_hist *all = calloc(1, sizeof(*all));

	if (!all)
		return -ENOMEM;
	for (unsigned i = 0; i < crew->n; i++)
		latency_merge(all, crew->w[i].async.hist);
	r->latency = latency_summary(all);
	free(all);
	return 0;
}

/*
 * Whether case bc runs through the plugin's submit and poll, each unit
 * timed, rather than run(). A target on the host CPU that also has run()
 * takes run() unless the suite asks for a queue depth (even 1): one unit
 * at a time and untimed, as `openssl speed` without -async_jobs measures,
 * since two clock reads per unit cost a small message a tenth of its
 * rate. A device target, or one without run(), always takes the slots.
 */
static int crew_uses_slots(const struct bench_case *bc,
			   const struct hb_plugin *p)
{
	unsigned flags = bc->tdesc->flags;

	if (!(flags & HB_TARGET_ASYNC) || p->abi_minor < 2 || !p->submit ||
	    !p->poll)
		return 0;
	return bc->depth_given || bc->queue_depth > 1 ||
	       (flags & HB_TARGET_OFFLOAD) || !p->run;
}

/* Room for each worker's units in flight (asynchronous targets). */
static int crew_async_init(struct crew *crew, unsigned depth)
{
	for (unsigned i = 0; crew->async && i < crew->n; i++)
		if (async_init(&crew->w[i].async, depth))
			return -ENOMEM;
	return 0;
}

/* How close two warm-up samples must be without a precision (1%). */
#define WARMUP_AGREE 0.01

/*
 * Drop warm-up samples: bc->warmup of them, or with warmup = auto until two
 * in a row agree within the precision (at most SUITE_AUTO_WARMUP_MAX or
 * SUITE_AUTO_WARMUP_SECONDS). r->warmup_samples says how many were dropped.
 */
static int crew_warm_up(struct crew *crew, const struct bench_case *bc,
			uint64_t iterations, const volatile sig_atomic_t *stop,
			struct result *r, char *err, size_t errlen)
{
	double tol = bc->precision > 0 ? bc->precision : WARMUP_AGREE;
	double t0 = hb_now(), last = 0, rate;
	struct sample s;
	int rc;

	crew->record = 0;
	for (unsigned i = 0;; i++) {
		if (*stop || (bc->warmup_auto ? i >= SUITE_AUTO_WARMUP_MAX
					      : i >= bc->warmup))
			return 0;
		rc = crew_sample(crew, iterations, &s, err, errlen);
		if (rc)
			return rc;
		r->warmup_samples++;
		rate = result_sample_rate(r, &s);
		if (bc->warmup_auto &&
		    (sampling_agree(rate, last, tol) ||
		     hb_now() - t0 >= SUITE_AUTO_WARMUP_SECONDS))
			return 0;
		last = rate;
	}
}

/*
 * Calibrate, warm up, keep samples until there are enough. With turns,
 * calibration and warm-up are the first turn and each sample one more;
 * after each the core hears whether this case has samples enough.
 */
static int crew_measure(struct crew *crew, const struct bench_case *bc,
			struct turns *t, const volatile sig_atomic_t *stop,
			struct result *r)
{
	double started;
	char err[300];
	uint64_t iterations = 1;
	size_t cap = 0;
	int rc;

	if (t) {
		turns_say(t, TURN_READY);
		if (!turns_wait(t))
			return result_set(r, RESULT_SKIPPED, "interrupted");
	}
	rc = crew_calibrate(crew, bc->duration, &iterations, err, sizeof(err));
	if (!rc)
		rc = crew_warm_up(crew, bc, iterations, stop, r, err,
				  sizeof(err));
	if (t)
		turns_say(t, TURN_MORE);
	/* max_time counts the kept samples: warm-up has its own cap */
	started = hb_now();
	if (t)
		t->waited = 0;
	crew->record = 1;
	while (!rc && sampling_next(bc, r, started, t)) {
		if (*stop)
			return result_set(r, RESULT_SKIPPED, "interrupted");
		if (sampling_grow(r, &cap))
			return -ENOMEM;
		rc = crew_sample(crew, iterations, &r->samples[r->nsamples],
				 err, sizeof(err));
		if (!rc) {
			r->nsamples++;
			rc = crew_spot(crew, err, sizeof(err));
		}
		if (t)
			turns_say(t, sampling_enough(bc, r, started, t)
					     ? TURN_ENOUGH
					     : TURN_MORE);
	}
	if (rc)
		return result_set(r, RESULT_FAILED, "run: %s", err);
	return crew->async ? crew_latency(crew, r) : 0;
}

/* Where the workers ran, into r. */
static int crew_record(struct crew *crew, struct result *r)
{
	free(r->cpus);
	r->cpus = calloc(crew->n, sizeof(*r->cpus));
	if (!r->cpus)
		return -ENOMEM;
	r->ncpus = crew->n;
	for (unsigned i = 0; i < crew->n; i++)
		r->cpus[i] = crew->w[i].cpu;
	return pin_record(r);
}

/* Nonzero when every worker counted its cycles. */
static int crew_counted(const struct crew *crew)
{
	for (unsigned i = 0; i < crew->n; i++)
		if (!crew->w[i].cyc.opened)
			return 0;
	return 1;
}

/* The workers' CPUs from the cpus key: a CPU not allowed here skips. */
static int crew_plan(struct pin_plan *pin, const struct bench_case *bc,
		     struct result *r)
{
	char why[300];
	int rc = pin_plan(pin, bc, why, sizeof(why));

	if (rc == 1)
		return result_set(r, RESULT_SKIPPED, "cpus: %s", why);
	if (rc == -EINVAL)
		return result_set(r, RESULT_FAILED, "cpus: %s", why);
	return rc;
}

/* Set up, measure and tear down one case whose plugin is loaded. */
static int run_loaded(const struct bench_case *bc, struct turns *t,
		      const volatile sig_atomic_t *stop, struct result *r)
{
	struct host_ctx ctx = { .bc = bc, .r = r };
	struct crew crew = { .plugin = bc->plugin->desc,
			     .target = bc->tdesc,
			     .lock = PTHREAD_MUTEX_INITIALIZER,
			     .armed_cv = PTHREAD_COND_INITIALIZER,
			     .n = bc->parallel };
	struct pin_plan pin = { 0 };
	struct verify_ref ref = { 0 };
	uint64_t checked = 0;
	unsigned started = 0;
	int rc;

	crew.w = calloc(crew.n, sizeof(*crew.w));
	if (bc->tdesc->flags & HB_TARGET_TOOL_TIMED)
		ctx.tool_seconds = crew.tool = calloc(crew.n, sizeof(double));
	if (!crew.w ||
	    ((bc->tdesc->flags & HB_TARGET_TOOL_TIMED) && !crew.tool)) {
		rc = -ENOMEM;
		goto out_free_tool;
	}
	crew.async = crew_uses_slots(bc, crew.plugin);
	rc = crew_async_init(&crew, bc->queue_depth ? bc->queue_depth : 1);
	crew.buffered = buffers_wanted(crew.plugin, bc->tdesc);
	if (!rc)
		rc = spot_reference(bc, crew.buffered, &ref, &crew.ref, r);
	if (!rc)
		rc = crew_plan(&pin, bc, r);
	if (rc || r->status != RESULT_OK)
		goto out_free_workers;
	crew.pin = &pin;
	rc = crew_setup(&crew, &ctx, r);
	pin_restore(&pin);
	if (rc || r->status != RESULT_OK)
		goto out_free_workers;
	pthread_barrier_init(&crew.go, NULL, crew.n + 1);
	pthread_barrier_init(&crew.done, NULL, crew.n + 1);
	rc = crew_start(&crew, &started);
	if (rc)
		rc = result_set(r, RESULT_FAILED,
				"cannot start worker thread %u of %u: %s",
				started + 1, crew.n, strerror(rc));
	else
		rc = crew_measure(&crew, bc, t, stop, r);
	crew_stop(&crew, started);
	if (!rc && r->status == RESULT_OK)
		rc = crew_record(&crew, r);
	for (unsigned i = 0; i < crew.n; i++)
		checked += crew.w[i].spot.checked;
	if (!rc && crew.ref)
		rc = spot_note(r, crew.ref, checked, crew.spot_ns);
	pthread_barrier_destroy(&crew.go);
	pthread_barrier_destroy(&crew.done);
	for (unsigned i = 0; i < crew.n; i++)
		crew.plugin->teardown(crew.w[i].state);
	/* after teardown: a calibrated clock holds none of the case's files */
	if (!rc && r->status == RESULT_OK)
		cycles_finish(r, crew_counted(&crew));
out_free_workers:
	for (unsigned i = 0; i < crew.n; i++) {
		async_free(&crew.w[i].async);
		spot_close(&crew.w[i].spot);
	}
	verify_ref_close(&ref);
	pin_free(&pin);
out_free_tool:
	free(crew.tool);
	free(crew.w);
	return rc;
}

/* The case measuring part (a target name) of composite bc. */
static int part_case(const struct bench_case *bc, const char *part,
		     struct bench_case *out)
{
	const struct hb_target *t = NULL;
	char full[256];

	for (t = bc->plugin->desc->targets; t->name; t++) {
		plugin_target_name(t, full, sizeof(full));
		if (strcmp(full, part) == 0)
			break;
	}
	*out = *bc;
	suite_part_sampling(out);
	memset(&out->params, 0, sizeof(out->params));
	out->title = (char *)part;
	out->target = (char *)part;
	out->tdesc = t->name ? t : NULL;
	for (const struct hb_option *o = t->options; t->name && o && o->name;
	     o++) {
		const char *v = kvlist_get(&bc->params, o->name);

		if (!v)
			v = o->def;
		if (v && kvlist_set(&out->params, o->name, v))
			return -ENOMEM;
	}
	return 0;
}

/* Measure each part of a composite target into r->parts. */
static int run_parts(const struct bench_case *bc,
		     const volatile sig_atomic_t *stop, struct result *r)
{
	const char *const *parts = bc->tdesc->parts;
	size_t n = 0;
	int rc = 0;

	while (parts[n])
		n++;
	if (n == 0)
		return 0;
	r->parts = calloc(n, sizeof(*r->parts));
	if (!r->parts)
		return -ENOMEM;
	for (size_t i = 0; i < n && !rc; i++) {
		struct bench_case pc;
		struct result *pr = &r->parts[r->nparts++];

		rc = part_case(bc, parts[i], &pc);
		pr->c = &pc;
		pr->part = parts[i];
		if (!rc && !pc.tdesc)
			rc = result_set(pr, RESULT_FAILED,
					"part %s is not offered by %s",
					parts[i], bc->backend);
		else if (!rc)
			rc = run_loaded(&pc, NULL, stop, pr);
		if (!rc)
			rc = result_finish(pr);
		pr->c = NULL; /* pc ends here */
		kvlist_free(&pc.params);
	}
	return rc;
}

int runner_run_case(const struct bench_case *bc,
		    const volatile sig_atomic_t *stop, struct result *r)
{
	return runner_run_turns(bc, NULL, stop, r);
}

int runner_run_turns(const struct bench_case *bc, struct turns *t,
		     const volatile sig_atomic_t *stop, struct result *r)
{
	int rc;

	r->c = bc;
	r->status = RESULT_OK;
	if (!bc->plugin)
		rc = result_set(r, RESULT_FAILED, "%s",
				bc->reason ? bc->reason : "backend not loaded");
	else if (registry_unusable(bc->plugin, bc->target))
		rc = result_set(r, RESULT_SKIPPED, "%s",
				registry_unusable(bc->plugin, bc->target));
	else if (*stop)
		rc = result_set(r, RESULT_SKIPPED, "interrupted");
	else
		rc = run_loaded(bc, t, stop, r);
	if (!rc && r->status == RESULT_OK && bc->tdesc->parts)
		rc = run_parts(bc, stop, r);
	if (!rc)
		rc = result_finish(r);
	return rc;
}
