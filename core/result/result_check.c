/* SPDX-License-Identifier: Apache-2.0 */
/* Refusing figures no measurement can have. */
#include "result/result_check.h"

#include <errno.h>
#include <math.h>

/* Nonzero when v is a finite number, and above 0 when positive is set. */
static int plausible(double v, int positive)
{
	return isfinite(v) && (positive ? v > 0 : v >= 0);
}

/* Fill err about value v of what and return -EINVAL. */
static int impossible(const char *what, double v, int positive, char *err,
		      size_t errlen)
{
	return hb_errorf(err, errlen, -EINVAL, "%s is %g (want a %s number)",
			 what, v,
			 positive ? "positive" : "finite, non-negative");
}

/* One sample of a measurement. */
static int sample_check(const struct sample *s, size_t i, char *err,
			size_t errlen)
{
	const struct {
		const char *name;
		double v;
		int positive;
	} f[] = {
		{ "seconds", s->seconds, 1 },
		{ "bytes", s->bytes, 0 },
		{ "ops", s->ops, 0 },
		{ "cpu_seconds", s->cpu_seconds, 0 },
		{ "tool_seconds", s->tool_seconds, 0 },
	};
	char what[64];

	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		if (plausible(f[k].v, f[k].positive))
			continue;
		snprintf(what, sizeof(what), "sample %zu: %s", i + 1,
			 f[k].name);
		return impossible(what, f[k].v, f[k].positive, err, errlen);
	}
	if (s->bytes + s->ops <= 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "sample %zu: no bytes and no operations",
				 i + 1);
	if (s->tool_seconds > s->seconds)
		return hb_errorf(err, errlen, -EINVAL,
				 "sample %zu: tool_seconds %g is more than the "
				 "sample's %g s",
				 i + 1, s->tool_seconds, s->seconds);
	if (s->bytes / result_sample_seconds(s) > RESULT_MAX_BYTE_RATE ||
	    s->ops / result_sample_seconds(s) > RESULT_MAX_OP_RATE)
		return hb_errorf(err, errlen, -EINVAL,
				 "sample %zu: %g bytes and %g operations in "
				 "%g s is beyond any host",
				 i + 1, s->bytes, s->ops,
				 result_sample_seconds(s));
	return 0;
}

/* Every field of one set of statistics (name: "stats", "ops_stats"). */
static int stats_check(const struct stats *s, const char *name, char *err,
		       size_t errlen)
{
	const struct {
		const char *name;
		double v;
	} f[] = {
		{ "median", s->median }, { "min", s->min },
		{ "max", s->max },	 { "mean", s->mean },
		{ "stddev", s->stddev }, { "cv", s->cv },
		{ "p25", s->p25 },	 { "p75", s->p75 },
	};
	char what[64];

	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		if (plausible(f[k].v, 0))
			continue;
		snprintf(what, sizeof(what), "%s.%s", name, f[k].name);
		return impossible(what, f[k].v, 0, err, errlen);
	}
	return 0;
}

int result_check(const struct result *r, char *err, size_t errlen)
{
	int rc = 0;

	if (r->status != RESULT_OK)
		return 0;
	if (!r->nsamples)
		return hb_errorf(err, errlen, -EINVAL, "ok without samples");
	for (size_t i = 0; i < r->nsamples && !rc; i++)
		rc = sample_check(&r->samples[i], i, err, errlen);
	if (!rc)
		rc = stats_check(&r->rate, "stats", err, errlen);
	if (!rc)
		rc = stats_check(&r->ops_rate, "ops_stats", err, errlen);
	if (!rc && !plausible(r->cpu_ratio, 0))
		rc = impossible("cpu_ratio", r->cpu_ratio, 0, err, errlen);
	for (size_t i = 0; i < r->nparts && !rc; i++)
		rc = result_check(&r->parts[i], err, errlen);
	return rc;
}
