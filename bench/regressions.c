/* SPDX-License-Identifier: Apache-2.0 */
/* Quality and speed of history_regressions() on synthetic series. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "history/regress.h"

#define POINTS 200
#define SLACK  3 /* a change found this many points off still counts */

static uint64_t rng = 0x2545f4914f6cdd1d;

static double uniform(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return ((double)((z ^ (z >> 31)) >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	double u = uniform(), v = uniform();

	return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* A series of POINTS around 1e9 with cv noise, scaled by 1 + step from at. */
static json_t *series(size_t k, size_t at, double step, double cv)
{
	json_t *points = json_array();
	char id[32];

	for (size_t i = 0; i < POINTS; i++) {
		double m = 1e9 * (i >= at ? 1 + step : 1) * (1 + cv * normal());
		double h = m * cv * (0.5 + uniform());
		char run[32];

		snprintf(run, sizeof(run), "r-%zu-%zu", k, i);
		json_array_append_new(
			points,
			json_pack("{s:s, s:s, s:f, s:f, s:f, s:[]}", "run", run,
				  "context", "c-1", "median", m, "ci_low",
				  m - h, "ci_high", m + h, "flags"));
	}
	snprintf(id, sizeof(id), "s-%zu", k);
	return json_pack("{s:s, s:s, s:o}", "id", id, "better", "higher",
			 "points", points);
}

/* Build trials series with a step at a random place, or none (step 0). */
static json_t *doc(size_t trials, double step, double cv, size_t *at)
{
	json_t *all = json_array();

	for (size_t k = 0; k < trials; k++) {
		double s = uniform() < 0.5 ? -step : step;

		at[k] = step ? 20 + (size_t)(uniform() * (POINTS - 40))
			     : POINTS;
		json_array_append_new(all, series(k, at[k], s, cv));
	}
	return json_pack("{s:i, s:o}", "history_version", 1, "series", all);
}

static double cpu_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Count true and false detections of one cell. */
static void score(json_t *d, const size_t *at, size_t trials, size_t *tp,
		  size_t *fp)
{
	*tp = *fp = 0;
	for (size_t k = 0; k < trials; k++) {
		json_t *ch = json_object_get(
			json_array_get(json_object_get(d, "series"), k),
			"changes");
		int hit = 0;

		for (size_t i = 0; i < json_array_size(ch); i++) {
			json_t *c = json_array_get(ch, i);
			const char *kind =
				json_string_value(json_object_get(c, "kind"));
			size_t idx = (size_t)json_integer_value(
				json_object_get(c, "index"));

			if (kind && !strcmp(kind, "drift"))
				continue; /* a slope, not a step */
			if (!hit && idx + SLACK >= at[k] &&
			    idx <= at[k] + SLACK)
				hit = 1, (*tp)++;
			else
				(*fp)++;
		}
	}
}

static void quality(const struct regress_opts *o, size_t trials)
{
	static const double steps[] = { 0.05, 0.10, 0.20 };
	static const double cvs[] = { 0.01, 0.02, 0.05 };
	size_t *at = calloc(trials, sizeof(*at)), tp, fp;
	char err[256];

	printf("| step | CV | precision | recall |\n|---|---|---|---|\n");
	for (size_t s = 0; s < 3; s++)
		for (size_t c = 0; c < 3; c++) {
			json_t *d = doc(trials, steps[s], cvs[c], at);

			history_regressions(d, o, err, sizeof(err));
			score(d, at, trials, &tp, &fp);
			printf("| %.0f%% | %.0f%% | %.3f | %.3f |\n",
			       steps[s] * 100, cvs[c] * 100,
			       tp + fp ? (double)tp / (double)(tp + fp) : 1,
			       (double)tp / (double)trials);
			json_decref(d);
		}
	printf("\n| CV | false alarms per 1,000 points (no step) |\n"
	       "|---|---|\n");
	for (size_t c = 0; c < 3; c++) {
		json_t *d = doc(trials, 0, cvs[c], at);

		history_regressions(d, o, err, sizeof(err));
		score(d, at, trials, &tp, &fp);
		printf("| %.0f%% | %.3f |\n", cvs[c] * 100,
		       1000.0 * (double)fp / (double)(trials * POINTS));
		json_decref(d);
	}
	free(at);
}

static void speed(const struct regress_opts *o)
{
	size_t *at = calloc(1000, sizeof(*at));
	json_t *d = doc(1000, 0.10, 0.02, at);
	char err[256];
	double t0 = cpu_seconds();
	int rc = history_regressions(d, o, err, sizeof(err));

	printf("\nspeed: 1,000 series x %d points: %.3f s CPU (rc %d)\n",
	       POINTS, cpu_seconds() - t0, rc);
	json_decref(d);
	free(at);
}

int main(int argc, char **argv)
{
	struct regress_opts o = { 0 };
	size_t trials = argc > 1 ? (size_t)atol(argv[1]) : 500;

	if (argc > 2)
		o.alpha = atof(argv[2]);
	if (argc > 3)
		o.min_change = atof(argv[3]);
	printf("trials per cell: %zu, alpha %g, min_change %g (0: default)\n\n",
	       trials, o.alpha, o.min_change);
	quality(&o, trials);
	speed(&o);
	return 0;
}
