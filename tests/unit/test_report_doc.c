/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Saved reports laid out again (`hostbench report`): a report written
 * before results kept their "case" object still renders, from its other
 * fields.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compare/report_doc.h"
#include "report/report.h"

/* One result of job "copy" at size bytes, without a "case" object. */
#define OLD_RESULT(size)                                                       \
	"{\"job\": \"copy\", \"title\": \"copy [" size "]\", \"target\": "     \
	"\"mem/memcpy\", \"backend\": \"mem\", \"section\": \"Base "           \
	"Performance\", \"params\": {\"size\": " size ", \"parallel\": 1}, "   \
	"\"unit\": \"GB/s\", \"duration\": 0.5, \"repetitions\": 2, "          \
	"\"warmup\": 0, \"status\": \"ok\", \"stats\": {\"median\": 2e9}, "    \
	"\"sample_details\": [{\"seconds\": 1, \"bytes\": 2e9}, "              \
	"{\"seconds\": 1, \"bytes\": 2e9}]}"

static int report_doc_lays_out_a_report_without_case_objects(void)
{
	const char *text = "{\"schema_version\": 1, \"hostbench\": {}, "
			   "\"results\": [" OLD_RESULT("65536") "," OLD_RESULT(
				   "1048576") "]}";
	struct doc_report doc;
	struct report_doc rd;
	char err[256], *out = NULL;
	size_t len = 0;
	FILE *f;

	CHECK_INT(report_read_text(&doc, "old.json", text, strlen(text), err,
				   sizeof(err)),
		  0);
	CHECK_INT(report_doc_build(&rd, &doc, 1, err, sizeof(err)), 0);
	CHECK_INT(rd.suite.njobs, 1);
	f = open_memstream(&out, &len);
	CHECK_INT(report_write(REPORT_TEXT, &rd.r, f, err, sizeof(err)), 0);
	fclose(f);
	/* one job whose size varies: a table, a column per size */
	CHECK_CONTAINS(out, "-- [Base Performance] ---");
	CHECK_CONTAINS(out, "size           65536   1048576   CI95\n");
	/* no CPU time in the samples: no row per CPU-second */
	CHECK_CONTAINS(out, "copy (mem)  2.00GB/s  2.00GB/s  ±0.0%\n-----");
	free(out);
	report_doc_free(&rd);
	report_read_free(&doc);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"report_doc_lays_out_a_report_without_case_objects", report_doc_lays_out_a_report_without_case_objects},
};
/* clang-format on */

TEST_MAIN(tests)
