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

void progress_line(char *buf, size_t len, size_t i, size_t n,
		   const struct bench_case *c, double left)
{
	unsigned long s = (unsigned long)lround(fmax(left, 0));

	if (s >= 3600)
		snprintf(buf, len, "[%zu/%zu] %s (%s)  %lu:%02lu:%02lu left",
			 i + 1, n, c->title, c->backend, s / 3600, s / 60 % 60,
			 s % 60);
	else
		snprintf(buf, len, "[%zu/%zu] %s (%s)  %lu:%02lu left", i + 1,
			 n, c->title, c->backend, s / 60, s % 60);
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
		progress_line(line, sizeof(line), i, n, c,
			      progress_left(now - p->start, p->planned_done,
					    p->planned));
		/* back to the start of the line, the line, then clear the
		 * rest of the one before */
		fprintf(p->out, "\r%s\033[K", line);
		fflush(p->out);
		p->shown = 1;
	}
	p->planned_done += progress_planned(c);
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
