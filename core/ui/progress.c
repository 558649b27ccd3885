/* SPDX-License-Identifier: Apache-2.0 */
/* The progress line of a run, on a terminal only. */
#include "ui/progress.h"

#include <math.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "suite/suite_time.h"

/* How often the line is rewritten while a case runs. */
#define PROGRESS_TICK_S 1

double progress_planned(const struct bench_case *c)
{
	const char *const *part = c->tdesc ? c->tdesc->parts : NULL;
	struct bench_case half = *c;
	double plan = suite_case_plan(c);

	/* a composite then measures each half as a case of its own */
	suite_part_sampling(&half);
	while (part && *part++)
		plan += suite_case_plan(&half);
	return plan;
}

double progress_left(double elapsed, double planned_done, double planned)
{
	double left = planned - planned_done;

	if (left <= 0)
		return 0;
	if (planned_done > 0 && elapsed > 0)
		left *= elapsed / planned_done;
	return left;
}

double progress_ticked(double left, double since, double floor)
{
	return fmax(left - fmax(since, 0), fmax(floor, 0));
}

/* "M:SS left", or "H:MM:SS left" from an hour, into buf. */
static void time_left(char *buf, size_t len, double left)
{
	unsigned long s = (unsigned long)lround(fmax(left, 0));

	if (s >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu left", s / 3600,
			 s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%lu:%02lu left", s / 60, s % 60);
}

/* "[i+1/n] TITLE (BACKEND)" into buf. */
static void case_head(char *buf, size_t len, size_t i, size_t n,
		      const struct bench_case *c)
{
	snprintf(buf, len, "[%zu/%zu] %s (%s)", i + 1, n, c->title, c->backend);
}

/* "[i+1-end/n] JOB: K cases in turns" into buf. */
static void turns_head(char *buf, size_t len, size_t i, size_t end, size_t n,
		       const char *job)
{
	snprintf(buf, len, "[%zu-%zu/%zu] %s: %zu cases in turns", i + 1, end,
		 n, job, end - i);
}

/* "HEAD  M:SS left" into buf. */
static void with_time(char *buf, size_t len, const char *head, double left)
{
	char t[48];

	time_left(t, sizeof(t), left);
	snprintf(buf, len, "%s  %s", head, t);
}

void progress_line(char *buf, size_t len, size_t i, size_t n,
		   const struct bench_case *c, double left)
{
	char head[480];

	case_head(head, sizeof(head), i, n, c);
	with_time(buf, len, head, left);
}

void progress_turns_line(char *buf, size_t len, size_t i, size_t end, size_t n,
			 const char *job, double left)
{
	char head[480];

	turns_head(head, sizeof(head), i, end, n, job);
	with_time(buf, len, head, left);
}

/* Write p's head and left in place of the line shown before; p locked. */
static void show(struct progress *p, double left)
{
	char line[sizeof(p->head) + 64];

	with_time(line, sizeof(line), p->head, left);
	/* back to the start of the line, the line, then clear the rest of
	 * the one before */
	fprintf(p->out, "\r%s\033[K", line);
	fflush(p->out);
	p->shown = 1;
}

/* The ticker: once a second, the line shown with the time left now. */
static void *tick(void *arg)
{
	struct progress *p = arg;
	struct timespec at;

	pthread_mutex_lock(&p->lock);
	while (!p->stopping) {
		clock_gettime(CLOCK_MONOTONIC, &at);
		at.tv_sec += PROGRESS_TICK_S;
		pthread_cond_timedwait(&p->wake, &p->lock, &at);
		if (!p->stopping && p->head[0])
			show(p, progress_ticked(p->left, hb_now() - p->since,
						p->floor));
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Start the ticker, deaf to signals: they are the main thread's. */
static void start_ticker(struct progress *p)
{
	pthread_condattr_t attr;
	sigset_t all, old;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&p->wake, &attr);
	pthread_condattr_destroy(&attr);
	pthread_mutex_init(&p->lock, NULL);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	p->ticking = pthread_create(&p->ticker, NULL, tick, p) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/*
 * Show head at time now, the plan of what it starts (seconds) counted as
 * started: left is the time left now, floor what follows it will take.
 */
static void start(struct progress *p, const char *head, double plan, double now)
{
	double pace = 1, left;

	if (p->planned_done > 0 && now > p->start)
		pace = (now - p->start) / p->planned_done;
	left = progress_left(now - p->start, p->planned_done, p->planned);
	if (p->ticking)
		pthread_mutex_lock(&p->lock);
	p->planned_done += plan;
	if (p->out) {
		snprintf(p->head, sizeof(p->head), "%s", head);
		p->since = now;
		p->left = left;
		p->floor = fmax(p->planned - p->planned_done, 0) * pace;
		show(p, left);
	}
	if (p->ticking)
		pthread_mutex_unlock(&p->lock);
}

void progress_plan(FILE *out, const struct suite *s)
{
	double planned = 0;
	char t[48];

	for (size_t i = 0; i < s->ncases; i++)
		planned += progress_planned(&s->cases[i]);
	time_left(t, sizeof(t), planned);
	/* "M:SS left" read as the whole run's: "about M:SS" */
	t[strcspn(t, " ")] = '\0';
	fprintf(out,
		"hostbench: benchmarking the following %zu case%s "
		"(about %s):\n",
		s->ncases, s->ncases == 1 ? "" : "s", t);
	for (size_t i = 0; i < s->ncases; i++)
		fprintf(out, "  %s (%s)\n", s->cases[i].title,
			s->cases[i].backend);
	fflush(out);
}

void progress_begin(struct progress *p, const struct suite *s, FILE *out,
		    int is_tty, double now)
{
	*p = (struct progress){ .out = is_tty ? out : NULL, .start = now };
	for (size_t i = 0; i < s->ncases; i++)
		p->planned += progress_planned(&s->cases[i]);
	if (p->out)
		start_ticker(p);
}

void progress_case(struct progress *p, size_t i, size_t n,
		   const struct bench_case *c, double now)
{
	char head[480] = "";

	if (p->out)
		case_head(head, sizeof(head), i, n, c);
	start(p, head, progress_planned(c), now);
}

void progress_turns(struct progress *p, const struct suite *s, size_t i,
		    size_t end, double now)
{
	char head[480] = "";
	double plan = 0;

	if (p->out)
		turns_head(head, sizeof(head), i, end, s->ncases,
			   s->jobs[s->cases[i].job].label);
	for (size_t k = i; k < end; k++)
		plan += progress_planned(&s->cases[k]);
	start(p, head, plan, now);
}

void progress_skip(struct progress *p, const struct bench_case *c)
{
	if (p->ticking)
		pthread_mutex_lock(&p->lock);
	p->planned -= progress_planned(c);
	if (p->ticking)
		pthread_mutex_unlock(&p->lock);
}

void progress_end(struct progress *p)
{
	if (p->ticking) {
		pthread_mutex_lock(&p->lock);
		p->stopping = 1;
		pthread_cond_signal(&p->wake);
		pthread_mutex_unlock(&p->lock);
		pthread_join(p->ticker, NULL);
		pthread_cond_destroy(&p->wake);
		pthread_mutex_destroy(&p->lock);
		p->ticking = 0;
	}
	if (p->out && p->shown) {
		fputs("\r\033[K", p->out);
		fflush(p->out);
	}
	p->shown = 0;
	p->head[0] = '\0';
}
