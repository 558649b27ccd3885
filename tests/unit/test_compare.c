/* SPDX-License-Identifier: Apache-2.0 */
/*
 * compare: the Mann-Whitney U test against values counted by brute force
 * (every split of the pooled samples), the verdict rules, and the matching
 * of two reports read back from JSON files.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "compare/compare.h"
#include "compare/merge.h"

static int mann_whitney_separated_samples_exact(void)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	double u, p;

	compare_mann_whitney(a, 5, b, 5, &u, &p);
	CHECK_NEAR(u, 0, 0);
	CHECK_NEAR(p, 2.0 / 252, 1e-12); /* the two extreme splits of 252 */
	return 0;
}

static int mann_whitney_interleaved_samples_exact(void)
{
	const double a[] = { 1, 3, 5, 7, 9 }, b[] = { 2, 4, 6, 8, 10 };
	const double c[] = { 10, 11, 12, 13, 14, 15 };
	const double d[] = { 1, 2, 3, 14.5, 16, 17, 18 };
	double u, p;

	compare_mann_whitney(a, 5, b, 5, &u, &p);
	CHECK_NEAR(u, 10, 0);
	CHECK_NEAR(p, 0.6904761904761905, 1e-12);
	compare_mann_whitney(c, 6, d, 7, &u, &p);
	CHECK_NEAR(u, 19, 0);
	CHECK_NEAR(p, 0.8356643356643356, 1e-12);
	return 0;
}

static int mann_whitney_ties_use_normal_approximation(void)
{
	const double a[] = { 1, 2, 2, 3, 3, 3, 4, 5 };
	const double b[] = { 3, 4, 4, 5, 5, 6, 6, 7 };
	double u, p;

	compare_mann_whitney(a, 8, b, 8, &u, &p);
	CHECK_NEAR(u, 7.5, 0);
	CHECK_NEAR(p, 0.010515245935858918, 1e-9);
	return 0;
}

static int mann_whitney_empty_side_is_not_significant(void)
{
	const double a[] = { 1, 2 };
	double u, p;

	compare_mann_whitney(a, 2, NULL, 0, &u, &p);
	CHECK_NEAR(p, 1, 0);
	return 0;
}

static int three_samples_a_side_cannot_be_significant(void)
{
	CHECK_NEAR(compare_min_p(3, 3), 0.1, 1e-12);
	CHECK(compare_min_p(3, 3) >= COMPARE_ALPHA);
	CHECK(compare_min_p(4, 4) < COMPARE_ALPHA);
	CHECK(compare_min_p(3, 5) < COMPARE_ALPHA);
	CHECK(compare_min_p(2, 7) >= COMPARE_ALPHA);
	return 0;
}

static int verdict_needs_threshold_and_test(void)
{
	/* beyond the threshold, and real */
	CHECK_INT(compare_verdict(-0.5, 0.05, 1, 0.008, 0.01, 0.01),
		  CMP_REGRESSED);
	CHECK_INT(compare_verdict(0.2, 0.05, 1, 0.01, 0.01, 0.01),
		  CMP_IMPROVED);
	/* beyond the threshold, but the test cannot tell it from noise */
	CHECK_INT(compare_verdict(-0.5, 0.05, 1, 0.2, 0.01, 0.01), CMP_SAME);
	/* real but small: within the threshold */
	CHECK_INT(compare_verdict(-0.04, 0.05, 1, 0.001, 0.001, 0.001),
		  CMP_SAME);
	return 0;
}

static int verdict_with_few_samples_uses_cv(void)
{
	CHECK_INT(compare_verdict(-0.5, 0.05, 0, 1, 0.02, 0.03), CMP_REGRESSED);
	/* a 10% move with a 5% CV is within three CVs: noise */
	CHECK_INT(compare_verdict(-0.1, 0.05, 0, 1, 0.05, 0.01), CMP_SAME);
	return 0;
}

static int flagged_verdict_needs_the_cpu_figure(void)
{
	int cpu;

	/* a starved CPU-bound pair is judged per CPU-second, either way */
	CHECK_INT(
		compare_flagged_verdict(CMP_REGRESSED, CMP_SAME, 1, 1, 1, &cpu),
		CMP_SAME);
	CHECK_INT(cpu, 1);
	CHECK_INT(
		compare_flagged_verdict(CMP_SAME, CMP_REGRESSED, 1, 1, 1, &cpu),
		CMP_REGRESSED);
	/* a move the CPU figure does not hold is inconclusive */
	CHECK_INT(
		compare_flagged_verdict(CMP_REGRESSED, CMP_SAME, 1, 0, 1, &cpu),
		CMP_INCONCLUSIVE);
	CHECK_INT(compare_flagged_verdict(CMP_REGRESSED, CMP_IMPROVED, 1, 0, 0,
					  &cpu),
		  CMP_INCONCLUSIVE);
	CHECK_INT(compare_flagged_verdict(CMP_REGRESSED, CMP_REGRESSED, 0, 1, 1,
					  &cpu),
		  CMP_INCONCLUSIVE);
	/* one it holds stands, judged per CPU-second */
	CHECK_INT(compare_flagged_verdict(CMP_IMPROVED, CMP_IMPROVED, 1, 0, 0,
					  &cpu),
		  CMP_IMPROVED);
	CHECK_INT(cpu, 1);
	/* no move claimed: nothing to doubt */
	CHECK_INT(
		compare_flagged_verdict(CMP_SAME, CMP_REGRESSED, 1, 0, 0, &cpu),
		CMP_SAME);
	CHECK_INT(cpu, 0);
	return 0;
}

static int intervals_apart_needs_a_gap(void)
{
	const struct stats base = { .median = 100,
				    .ci95_low = 98,
				    .ci95_high = 102 };
	const struct stats up = { .median = 110,
				  .ci95_low = 105,
				  .ci95_high = 115 };
	const struct stats down = { .median = 90,
				    .ci95_low = 85,
				    .ci95_high = 96 };
	const struct stats near = { .median = 103,
				    .ci95_low = 101,
				    .ci95_high = 104 };

	CHECK_NEAR(compare_intervals_apart(&base, &up), 0.03, 1e-12);
	CHECK_NEAR(compare_intervals_apart(&base, &down), -0.02, 1e-12);
	CHECK_NEAR(compare_intervals_apart(&base, &near), 0, 0);
	return 0;
}

/* A report of one memcpy job at size bytes with samples scaled by k. */
static char *write_report(const char *dir, const char *name, int version,
			  const char *size, double k)
{
	char *path;
	FILE *f;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return NULL;
	f = fopen(path, "w");
	fprintf(f,
		"{\"schema_version\": %d, \"hostbench\": {\"version\": "
		"\"0.1.0\"}, \"system\": {\"kernel\": \"Linux %s\", "
		"\"hostname\": \"h\"}, \"libraries\": {\"openssl\": "
		"{\"OpenSSL\": \"3.0.%d\"}}, \"results\": [{\"job\": \"copy\", "
		"\"title\": \"copy\", \"target\": \"mem/memcpy\", \"backend\": "
		"\"mem\", \"params\": {\"size\": %s, \"parallel\": 1}, "
		"\"unit\": \"GB/s\", \"status\": \"ok\", \"stats\": "
		"{\"median\": %g, \"cv\": 0.01}, \"sample_details\": [",
		version, k == 1 ? "6.1" : "6.5", k == 1 ? 11 : 19, size,
		3e9 * k);
	for (int i = 0; i < 5; i++)
		fprintf(f,
			"%s{\"seconds\": 1, \"bytes\": %g, \"ops\": 1, "
			"\"cpu_seconds\": 1}",
			i ? ", " : "", (3e9 + 1e7 * i) * k);
	fputs("]}]}\n", f);
	fclose(f);
	return path;
}

/*
 * Read reports a into base and b into new, and compare them at 5% into
 * cmp. Returns 0 or 1 (test failure).
 */
static int compare_paths(const char *a, const char *b, struct doc_report *base,
			 struct doc_report *new, struct comparison *cmp)
{
	char err[256];

	CHECK_INT(report_read(base, a, err, sizeof(err)), 0);
	CHECK_INT(report_read(new, b, err, sizeof(err)), 0);
	CHECK_INT(compare_build(cmp, base, new, 0.05, err, sizeof(err)), 0);
	return 0;
}

/* Free what compare_paths() made. */
static void compare_paths_free(struct doc_report *base, struct doc_report *new,
			       struct comparison *cmp)
{
	compare_free(cmp);
	report_read_free(base);
	report_read_free(new);
}

static int compare_flags_halved_report_and_context(void)
{
	char dir[] = "/tmp/hb-compare-XXXXXX";
	struct doc_report base, half;
	struct comparison cmp;
	char *a, *b;
	int differs = 0;

	CHECK(mkdtemp(dir));
	a = write_report(dir, "a.json", 1, "1048576", 1);
	b = write_report(dir, "b.json", 1, "1048576", 0.5);
	CHECK(compare_paths(a, b, &base, &half, &cmp) == 0);
	CHECK_INT(cmp.nrows, 1);
	CHECK_INT(cmp.rows[0].verdict, CMP_REGRESSED);
	CHECK_NEAR(cmp.rows[0].diff, -0.5, 1e-9);
	CHECK_NEAR(cmp.rows[0].p, 2.0 / 252, 1e-12);
	for (size_t i = 0; i < cmp.nfacts; i++)
		differs += cmp.facts[i].differs;
	CHECK_INT(differs, 2); /* the kernel and OpenSSL */
	compare_paths_free(&base, &half, &cmp);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
	rmdir(dir);
	return 0;
}

/*
 * Medians 6% apart, a U test that calls it real, but intervals (3.00..3.04
 * and 3.18..3.22 GB/s) only 4.6% apart: within a 5% threshold, no change.
 */
static int compare_needs_intervals_apart_by_threshold(void)
{
	char dir[] = "/tmp/hb-compare-XXXXXX", err[256];
	struct doc_report base, up;
	struct comparison cmp;
	char *a, *b;

	CHECK(mkdtemp(dir));
	a = write_report(dir, "a.json", 1, "1048576", 1);
	b = write_report(dir, "b.json", 1, "1048576", 1.06);
	CHECK_INT(report_read(&base, a, err, sizeof(err)), 0);
	CHECK_INT(report_read(&up, b, err, sizeof(err)), 0);
	/* the report has no interval: it is computed from the samples */
	CHECK_NEAR(base.results[0].res.rate.ci95_low, 3e9, 1);
	CHECK_NEAR(base.results[0].res.rate.ci95_high, 3.04e9, 1);
	CHECK_INT(compare_build(&cmp, &base, &up, 0.05, err, sizeof(err)), 0);
	CHECK_NEAR(cmp.rows[0].diff, 0.06, 1e-9);
	CHECK(cmp.rows[0].p < COMPARE_ALPHA);
	CHECK_INT(cmp.rows[0].verdict, CMP_SAME);
	compare_free(&cmp);
	CHECK_INT(compare_build(&cmp, &base, &up, 0.04, err, sizeof(err)), 0);
	CHECK_INT(cmp.rows[0].verdict, CMP_IMPROVED);
	compare_free(&cmp);
	report_read_free(&base);
	report_read_free(&up);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
	rmdir(dir);
	return 0;
}

/* Spreads of the samples of a noisy, imprecise memcpy [4 parallels]. */
static const double spread[] = { 0.78, 0.84, 0.90, 0.94, 0.97, 1.00,
				 1.00, 1.03, 1.06, 1.10, 1.16, 1.22 };

/*
 * A report of one case at dir/name: result, its fields up to its samples,
 * then n samples of bytes x spread[i] each, in seconds[i % 2] of wall time
 * and cpu seconds of CPU time each.
 */
static char *write_samples(const char *dir, const char *name,
			   const char *result, size_t n, double bytes,
			   const double seconds[2], double cpu)
{
	char *path;
	FILE *f;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return NULL;
	f = fopen(path, "w");
	fprintf(f,
		"{\"schema_version\": 1, \"hostbench\": {}, \"results\": "
		"[{%s, \"sample_details\": [",
		result);
	for (size_t i = 0; i < n; i++)
		fprintf(f,
			"%s{\"seconds\": %g, \"bytes\": %g, \"ops\": 1, "
			"\"cpu_seconds\": %g}",
			i ? ", " : "", seconds[i % 2], bytes * spread[i], cpu);
	fputs("]}]}\n", f);
	fclose(f);
	return path;
}

/*
 * A report of memcpy [4 parallels] with n samples of median gbps, spread
 * as spread[], flagged noisy and imprecise, on two CPUs' time each.
 */
static char *write_noisy_report(const char *dir, const char *name, size_t n,
				double gbps)
{
	static const double tenth[2] = { 0.1, 0.1 };

	return write_samples(dir, name,
			     "\"job\": \"memcpy\", \"target\": "
			     "\"mem/memcpy\", \"backend\": \"mem\", "
			     "\"params\": {\"parallel\": 4}, \"unit\": "
			     "\"Gbps\", \"status\": \"ok\", \"flags\": "
			     "{\"noisy\": true, \"imprecise\": true}",
			     n, gbps * 1e9 / 8 * 0.1, tenth, 0.2);
}

/* Base a against c is a regression; then a, b, c and dir are removed. */
static int regressed_then_removed(char *dir, char *a, char *b, char *c)
{
	struct doc_report base, new;
	struct comparison cmp;

	CHECK(compare_paths(a, c, &base, &new, &cmp) == 0);
	CHECK_INT(cmp.rows[0].verdict, CMP_REGRESSED);
	compare_paths_free(&base, &new, &cmp);
	for (char **p = (char *[]){ a, b, c, NULL }; *p; p++) {
		unlink(*p);
		free(*p);
	}
	rmdir(dir);
	return 0;
}

/*
 * Two runs of the same build on a quiet 2-CPU host: memcpy [4 parallels]
 * at 133 and 93 Gbps, CV 13% a side, both noisy and imprecise. The U test
 * and the intervals (13% apart) call it a change, wall and per CPU-second
 * alike; within three CVs of either side it is inconclusive.
 */
static int noisy_imprecise_pair_within_its_floor_is_inconclusive(void)
{
	char dir[] = "/tmp/hb-compare-XXXXXX";
	struct doc_report base, new;
	struct comparison cmp;
	char *a, *b, *c;

	CHECK(mkdtemp(dir));
	a = write_noisy_report(dir, "a.json", 12, 133.44);
	b = write_noisy_report(dir, "b.json", 11, 92.92);
	c = write_noisy_report(dir, "c.json", 11, 133.44 / 4);
	CHECK(compare_paths(a, b, &base, &new, &cmp) == 0);
	CHECK(cmp.rows[0].p < COMPARE_ALPHA);
	CHECK(compare_intervals_apart(&base.results[0].res.rate,
				      &new.results[0].res.rate) < -0.05);
	CHECK(cmp.rows[0].diff < -0.25);
	CHECK_INT(cmp.rows[0].verdict, CMP_INCONCLUSIVE);
	CHECK_INT(cmp.nregressed, 0);
	compare_paths_free(&base, &new, &cmp);
	/* at a quarter of the rate it is a regression all the same */
	return regressed_then_removed(dir, a, b, c);
}

/*
 * A starved side: a few ms of CPU a sample, the same work per CPU-second
 * every sample, wall times scattered by the neighbours (CV about 30%).
 */
static char *write_starved_report(const char *dir, const char *name,
				  double bytes)
{
	static const double scattered[2] = { 0.021, 0.039 };

	return write_samples(dir, name,
			     "\"job\": \"gcm\", \"target\": "
			     "\"crypto/aes-256-gcm\", \"backend\": "
			     "\"openssl\", \"params\": {}, \"unit\": "
			     "\"Gbps\", \"status\": \"ok\", \"flags\": "
			     "{\"noisy\": true, \"starved\": true}",
			     8, bytes, scattered, 0.005);
}

/*
 * The same suite quiet and then starved by a CPU hog on the 2-CPU VM:
 * AES-256-GCM lost half its rate per CPU-second, steady sample to sample,
 * while its wall figures scattered. Judged per CPU-second, the wall
 * figures' scatter is the noise floor: inconclusive. At a tenth of the
 * rate (AES-NI off) it is a regression all the same.
 */
static int starved_pair_with_scattered_wall_figures_is_inconclusive(void)
{
	char dir[] = "/tmp/hb-compare-XXXXXX";
	struct doc_report base, new;
	struct comparison cmp;
	char *a, *b, *c;

	CHECK(mkdtemp(dir));
	a = write_starved_report(dir, "a.json", 4e6);
	b = write_starved_report(dir, "b.json", 2e6);
	c = write_starved_report(dir, "c.json", 4e5);
	CHECK(compare_paths(a, b, &base, &new, &cmp) == 0);
	CHECK_INT(cmp.rows[0].judged, RESULT_FIGURE_CPU);
	CHECK_NEAR(cmp.rows[0].diff, -0.5, 0.05);
	CHECK_INT(cmp.rows[0].verdict, CMP_INCONCLUSIVE);
	compare_paths_free(&base, &new, &cmp);
	return regressed_then_removed(dir, a, b, c);
}

static int noise_floor_is_three_cvs_or_the_starved_floor(void)
{
	CHECK_NEAR(compare_noise_floor(0.02, 0.1, 0), 0.3, 1e-12);
	CHECK_NEAR(compare_noise_floor(0.02, 0.01, 0), 0.06, 1e-12);
	/* a starved side's few ms of CPU a sample */
	CHECK_NEAR(compare_noise_floor(0.02, 0.01, 1), COMPARE_STARVED_FLOOR,
		   1e-12);
	CHECK_NEAR(compare_noise_floor(0.2, 0.01, 1), 0.6, 1e-12);
	/* four times slower is a change, whatever the neighbours did */
	CHECK_NEAR(compare_noise_floor(0.5, 0.01, 0), COMPARE_FLOOR_MOST,
		   1e-12);
	return 0;
}

static int compare_matches_params_by_type(void)
{
	char dir[] = "/tmp/hb-compare-XXXXXX", err[256];
	struct doc_report x, y;
	struct comparison cmp;
	char *a, *b;

	CHECK(mkdtemp(dir));
	a = write_report(dir, "a.json", 1, "1048576", 1);
	b = write_report(dir, "b.json", 1, "\"1048576\"", 1);
	CHECK_INT(report_read(&x, a, err, sizeof(err)), 0);
	CHECK_INT(report_read(&y, b, err, sizeof(err)), 0);
	/* 1048576 and "1048576" are different parameters */
	CHECK_INT(compare_build(&cmp, &x, &y, 0.05, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "no case in common");
	report_read_free(&x);
	report_read_free(&y);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
	rmdir(dir);
	return 0;
}

static int report_read_refuses_newer_schema(void)
{
	char dir[] = "/tmp/hb-compare-XXXXXX", err[256];
	struct doc_report doc;
	char *a;

	CHECK(mkdtemp(dir));
	a = write_report(dir, "a.json", 2, "1", 1);
	CHECK_INT(report_read(&doc, a, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "schema_version 2");
	unlink(a);
	free(a);
	rmdir(dir);
	return 0;
}

static int report_read_refuses_other_json(void)
{
	char path[] = "/tmp/hb-compare-XXXXXX", err[256];
	struct doc_report doc;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	CHECK(write(fd, "{\"results\": []}", 15) == 15);
	close(fd);
	CHECK_INT(report_read(&doc, path, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "not a hostbench JSON report");
	unlink(path);
	return 0;
}

/* The writer's output of f for a comparison and a merge of one report. */
static int writes_every_format(const char *text, enum report_format f)
{
	struct doc_report doc;
	struct comparison cmp;
	struct merge m;
	char err[256], *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);
	int rc;

	rc = report_read_text(&doc, "t.json", text, strlen(text), err,
			      sizeof(err));
	if (rc)
		return rc;
	rc = compare_build(&cmp, &doc, &doc, 0.05, err, sizeof(err));
	if (!rc)
		rc = compare_write(&cmp, f, fp, err, sizeof(err));
	compare_free(&cmp);
	if (!rc)
		rc = merge_build(&m, &doc, 1, err, sizeof(err));
	if (!rc)
		rc = merge_write(&m, f, fp, err, sizeof(err));
	merge_free(&m);
	fclose(fp);
	free(out);
	report_read_free(&doc);
	return rc;
}

static int report_without_params_or_libraries_is_written(void)
{
	/* the fields a hand-made or older report may lack */
	const char *text =
		"{\"schema_version\": 1, \"hostbench\": {}, \"results\": "
		"[{\"job\": \"j\", \"status\": \"ok\", \"sample_details\": "
		"[{\"seconds\": 1, \"bytes\": 5}]}]}";
	enum report_format f[] = { REPORT_TEXT, REPORT_JSON, REPORT_CSV,
				   REPORT_MD, REPORT_HTML };

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		CHECK_INT(writes_every_format(text, f[i]), 0);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"intervals_apart_needs_a_gap", intervals_apart_needs_a_gap},
	{"noise_floor_is_three_cvs_or_the_starved_floor", noise_floor_is_three_cvs_or_the_starved_floor},
	{"noisy_imprecise_pair_within_its_floor_is_inconclusive", noisy_imprecise_pair_within_its_floor_is_inconclusive},
	{"starved_pair_with_scattered_wall_figures_is_inconclusive", starved_pair_with_scattered_wall_figures_is_inconclusive},
	{"flagged_verdict_needs_the_cpu_figure", flagged_verdict_needs_the_cpu_figure},
	{"compare_needs_intervals_apart_by_threshold", compare_needs_intervals_apart_by_threshold},
	{"mann_whitney_separated_samples_exact", mann_whitney_separated_samples_exact},
	{"mann_whitney_interleaved_samples_exact", mann_whitney_interleaved_samples_exact},
	{"mann_whitney_ties_use_normal_approximation", mann_whitney_ties_use_normal_approximation},
	{"mann_whitney_empty_side_is_not_significant", mann_whitney_empty_side_is_not_significant},
	{"three_samples_a_side_cannot_be_significant", three_samples_a_side_cannot_be_significant},
	{"verdict_needs_threshold_and_test", verdict_needs_threshold_and_test},
	{"verdict_with_few_samples_uses_cv", verdict_with_few_samples_uses_cv},
	{"compare_flags_halved_report_and_context", compare_flags_halved_report_and_context},
	{"compare_matches_params_by_type", compare_matches_params_by_type},
	{"report_read_refuses_newer_schema", report_read_refuses_newer_schema},
	{"report_read_refuses_other_json", report_read_refuses_other_json},
	{"report_without_params_or_libraries_is_written", report_without_params_or_libraries_is_written},
};
/* clang-format on */

TEST_MAIN(tests)
