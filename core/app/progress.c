/* SPDX-License-Identifier: Apache-2.0 */
/* The progress line of a run, on a terminal only. */
#include "app/progress.h"

#include <math.h>

double progress_planned(const struct bench_case *c)
{
	return (c->warmup + c->repetitions + 1.0) * c->duration;
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

void progress_line(char *buf, size_t len, size_t i, size_t n,
		   const struct bench_case *c, double left)
{
	char t[32];

	time_left(t, sizeof(t), left);
	snprintf(buf, len, "[%zu/%zu] %s (%s)  %s", i + 1, n, c->title,
		 c->backend, t);
}

void progress_turns_line(char *buf, size_t len, size_t i, size_t end, size_t n,
			 const char *job, double left)
{
	char t[32];

	time_left(t, sizeof(t), left);
	snprintf(buf, len, "[%zu-%zu/%zu] %s: %zu cases in turns  %s", i + 1,
		 end, n, job, end - i, t);
}

/* Write line in place of the one shown before, when someone watches. */
static void show(struct progress *p, const char *line)
{
	/* back to the start of the line, the line, then clear the rest of
	 * the one before */
	fprintf(p->out, "\r%s\033[K", line);
	fflush(p->out);
	p->shown = 1;
}

/* Seconds left at time now. */
static double left_now(const struct progress *p, double now)
{
	return progress_left(now - p->start, p->planned_done, p->planned);
}

void progress_begin(struct progress *p, const struct suite *s, FILE *out,
		    int is_tty, double now)
{
	*p = (struct progress){ .out = is_tty ? out : NULL, .start = now };
	for (size_t i = 0; i < s->ncases; i++)
		p->planned += progress_planned(&s->cases[i]);
}

void progress_case(struct progress *p, size_t i, size_t n,
		   const struct bench_case *c, double now)
{
	char line[512];

	if (p->out) {
		progress_line(line, sizeof(line), i, n, c, left_now(p, now));
		show(p, line);
	}
	p->planned_done += progress_planned(c);
}

void progress_turns(struct progress *p, const struct suite *s, size_t i,
		    size_t end, double now)
{
	char line[512];

	if (p->out) {
		progress_turns_line(line, sizeof(line), i, end, s->ncases,
				    s->jobs[s->cases[i].job].label,
				    left_now(p, now));
		show(p, line);
	}
	for (size_t k = i; k < end; k++)
		p->planned_done += progress_planned(&s->cases[k]);
}

void progress_skip(struct progress *p, const struct bench_case *c)
{
	p->planned -= progress_planned(c);
}

void progress_end(struct progress *p)
{
	if (p->out && p->shown) {
		fputs("\r\033[K", p->out);
		fflush(p->out);
	}
	p->shown = 0;
}
