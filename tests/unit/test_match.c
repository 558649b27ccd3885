/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Matching the results of saved reports: parameters by value, compare --by
 * within one report (a backend's own option set aside), and merge rows.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "compare/compare.h"
#include "compare/match.h"
#include "compare/merge.h"

/* One result of a report: job j, mem/x on backend with params. */
#define RESULT(backend, params, bytes)                                         \
	"{\"job\": \"j\", \"title\": \"j\", \"target\": \"mem/x\", "           \
	"\"backend\": \"" backend "\", \"params\": " params ", \"unit\": "     \
	"\"GB/s\", \"status\": \"ok\", \"stats\": {\"median\": " bytes         \
	"}, \"sample_details\": [{\"seconds\": "                               \
	"1, \"bytes\": " bytes "}, {\"seconds\": 1, \"bytes\": " bytes "}]}"

/* A report of the results given. */
#define REPORT(results)                                                        \
	"{\"schema_version\": 1, \"hostbench\": {}, \"results\": [" results "]}"

/* Read text into doc; nonzero when it is not a report. */
static int read_text(struct doc_report *doc, const char *text)
{
	char err[256];

	return report_read_text(doc, "r.json", text, strlen(text), err,
				sizeof(err));
}

static int match_param_equal_takes_numbers_by_value(void)
{
	json_t *i = json_integer(1048576), *r = json_real(1048576.0);
	json_t *s = json_string("1048576");

	CHECK(match_param_equal(i, r));
	CHECK(!match_param_equal(i, s));
	CHECK(!match_param_equal(i, NULL));
	json_decref(i);
	json_decref(r);
	json_decref(s);
	return 0;
}

static int compare_by_backend_sets_a_backend_option_aside(void)
{
	struct doc_report doc;
	struct comparison cmp;
	char err[256];

	CHECK_INT(
		read_text(&doc,
			  REPORT(RESULT("openssl",
					"{\"size\": 65536, \"provider\": "
					"\"default\", \"parallel\": 1}",
					"4e9") "," RESULT("gcrypt",
							  "{\"size\": 65536.0, "
							  "\"parallel\": 1}",
							  "2e9"))),
		0);
	CHECK_INT(compare_build_by(&cmp, &doc, &doc,
				   &(struct compare_by){ "backend", "openssl",
							 "gcrypt" },
				   &(struct compare_rule){ .threshold = 0.05 },
				   err, sizeof(err)),
		  0);
	CHECK_INT(cmp.nrows, 1);
	CHECK_STR(cmp.rows[0].new->backend, "gcrypt");
	CHECK_NEAR(cmp.rows[0].diff, -0.5, 1e-9);
	CHECK_STR(cmp.new_label, "r.json [backend=gcrypt]");
	compare_free(&cmp);
	report_read_free(&doc);
	return 0;
}

static int compare_by_size_reads_the_size_as_typed(void)
{
	struct doc_report doc;
	struct comparison cmp;
	char err[256];

	CHECK_INT(
		read_text(&doc,
			  REPORT(RESULT("m", "{\"size\": 65536}",
					"4e9") "," RESULT("m",
							  "{\"size\": 1048576}",
							  "8e9"))),
		0);
	CHECK_INT(compare_build_by(&cmp, &doc, &doc,
				   &(struct compare_by){ "size", "64K", "1M" },
				   &(struct compare_rule){ .threshold = 0.05 },
				   err, sizeof(err)),
		  0);
	CHECK_INT(cmp.nmatched, 1);
	CHECK_NEAR(cmp.rows[0].diff, 1, 1e-9);
	compare_free(&cmp);
	report_read_free(&doc);
	return 0;
}

static int compare_by_names_the_key_when_nothing_matches(void)
{
	struct doc_report doc;
	struct comparison cmp;
	char err[256];

	/* both sizes are there, but under different backends */
	CHECK_INT(
		read_text(
			&doc,
			REPORT(RESULT("m", "{\"size\": 1}", "4e9") ", " RESULT(
				"n", "{\"size\": 2}", "4e9"))),
		0);
	CHECK_INT(compare_build_by(&cmp, &doc, &doc,
				   &(struct compare_by){ "size", "1", "2" },
				   &(struct compare_rule){ .threshold = 0.05 },
				   err, sizeof(err)),
		  -EINVAL);
	CHECK_CONTAINS(err, "no case in common (same job, target and "
			    "parameters but size)");
	report_read_free(&doc);
	return 0;
}

/* A value no case has is a typo to point at, with the values there are. */
static int compare_by_lists_the_values_a_report_has(void)
{
	struct doc_report doc;
	struct comparison cmp;
	char err[256];

	CHECK_INT(
		read_text(&doc,
			  REPORT(RESULT(
				  "m", "{\"size\": 65536}",
				  "4e9") ", " RESULT("m", "{\"size\": 1048576}",
						     "4e9"))),
		0);
	CHECK_INT(compare_build_by(&cmp, &doc, &doc,
				   &(struct compare_by){ "size", "64K", "3M" },
				   &(struct compare_rule){ .threshold = 0.05 },
				   err, sizeof(err)),
		  -EINVAL);
	CHECK_CONTAINS(err, "has no case with size 3M (its values: 64K, 1M)");
	CHECK_INT(compare_build_by(&cmp, &doc, &doc,
				   &(struct compare_by){ "sise", "64K", "1M" },
				   &(struct compare_rule){ .threshold = 0.05 },
				   err, sizeof(err)),
		  -EINVAL);
	CHECK_CONTAINS(err, "has the key sise (its keys: backend, size)");
	report_read_free(&doc);
	return 0;
}

static int merge_puts_equal_numbers_on_one_row(void)
{
	struct doc_report docs[2];
	struct merge m;
	char err[256];

	CHECK_INT(read_text(&docs[0],
			    REPORT(RESULT("m", "{\"size\": 16}", "4e9"))),
		  0);
	CHECK_INT(read_text(&docs[1],
			    REPORT(RESULT("m", "{\"size\": 16.0}", "4e9"))),
		  0);
	CHECK_INT(merge_build(&m, docs, 2, err, sizeof(err)), 0);
	CHECK_INT(m.nrows, 1);
	merge_free(&m);
	report_read_free(&docs[0]);
	report_read_free(&docs[1]);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"match_param_equal_takes_numbers_by_value", match_param_equal_takes_numbers_by_value},
	{"compare_by_backend_sets_a_backend_option_aside", compare_by_backend_sets_a_backend_option_aside},
	{"compare_by_size_reads_the_size_as_typed", compare_by_size_reads_the_size_as_typed},
	{"compare_by_names_the_key_when_nothing_matches", compare_by_names_the_key_when_nothing_matches},
	{"compare_by_lists_the_values_a_report_has", compare_by_lists_the_values_a_report_has},
	{"merge_puts_equal_numbers_on_one_row", merge_puts_equal_numbers_on_one_row},
};
/* clang-format on */

TEST_MAIN(tests)
