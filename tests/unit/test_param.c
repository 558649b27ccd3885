/*
 * Reports read back for compare and merge: parameters matched by value
 * (a report that went through jq has 10.0 as 10), and a fleet report
 * refused unless --rank picks one host's report from it.
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
#include "compare/param.h"
#include "compare/report_read.h"

/* A report of one memcpy case whose size is written as size. */
static char *one_case_report(const char *size, char *buf, size_t len)
{
	snprintf(buf, len,
		 "{\"schema_version\": 1, \"hostbench\": {}, \"results\": "
		 "[{\"job\": \"copy\", \"target\": \"mem/memcpy\", "
		 "\"backend\": \"mem\", \"params\": {\"size\": %s}, "
		 "\"status\": \"ok\", \"sample_details\": [{\"seconds\": 1, "
		 "\"bytes\": 5}]}]}",
		 size);
	return buf;
}

static int param_equal_takes_numbers_by_value(void)
{
	json_t *ten = json_integer(10), *ten_real = json_real(10.0);
	json_t *half = json_real(10.5), *text = json_string("10");

	CHECK_INT(param_equal(ten, ten_real), 1);
	CHECK_INT(param_equal(half, half), 1);
	CHECK_INT(param_equal(ten, half), 0);
	CHECK_INT(param_equal(ten, text), 0); /* "10" is another value */
	CHECK_INT(param_equal(NULL, NULL), 1);
	CHECK_INT(param_equal(ten, NULL), 0);
	json_decref(ten);
	json_decref(ten_real);
	json_decref(half);
	json_decref(text);
	return 0;
}

static int compare_matches_a_number_jq_rewrote(void)
{
	char a[512], b[512], err[256];
	struct doc_report x, y;
	struct comparison cmp;
	struct merge m;

	one_case_report("10.0", a, sizeof(a));
	one_case_report("10", b, sizeof(b));
	CHECK_INT(
		report_read_text(&x, "a.json", a, strlen(a), err, sizeof(err)),
		0);
	CHECK_INT(
		report_read_text(&y, "b.json", b, strlen(b), err, sizeof(err)),
		0);
	CHECK_INT(compare_build(&cmp, &x, &y, 0.05, err, sizeof(err)), 0);
	CHECK_INT(cmp.nrows, 1);
	CHECK(cmp.rows[0].base && cmp.rows[0].new);
	compare_free(&cmp);
	CHECK_INT(merge_build(&m, (struct doc_report[]){ x, y }, 2, err,
			      sizeof(err)),
		  0);
	CHECK_INT(m.nrows, 1); /* one case, two reports */
	merge_free(&m);
	report_read_free(&x);
	report_read_free(&y);
	return 0;
}

/* A fleet report of two hosts whose sizes differ, into a temporary file. */
static int fleet_file(char *path)
{
	char one[512], two[512];
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f)
		return -1;
	fprintf(f,
		"{\"schema_version\": 1, \"hostbench\": {}, \"results\": [], "
		"\"fleet\": {\"ranks\": 2, \"hosts\": [{\"rank\": 0, "
		"\"report\": %s}, {\"rank\": 1, \"report\": %s}]}}",
		one_case_report("1", one, sizeof(one)),
		one_case_report("2", two, sizeof(two)));
	return fclose(f);
}

static int report_read_refuses_a_fleet_report_naming_rank(void)
{
	char path[] = "/tmp/hb-fleet-XXXXXX", err[256];
	struct doc_report doc;

	CHECK_INT(fleet_file(path), 0);
	CHECK_INT(report_read(&doc, path, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "a fleet report of 2 hosts: give --rank N");
	CHECK_INT(report_read_rank(&doc, path, 2, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "--rank 2: the fleet report has no such rank");
	unlink(path);
	return 0;
}

static int report_read_rank_takes_that_hosts_report(void)
{
	char path[] = "/tmp/hb-fleet-XXXXXX", err[256];
	struct doc_report doc;

	CHECK_INT(fleet_file(path), 0);
	CHECK_INT(report_read_rank(&doc, path, 1, err, sizeof(err)), 0);
	CHECK_INT(doc.nresults, 1);
	CHECK_INT(json_integer_value(
			  json_object_get(doc.results[0].params, "size")),
		  2);
	report_read_free(&doc);
	unlink(path);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"param_equal_takes_numbers_by_value", param_equal_takes_numbers_by_value},
	{"compare_matches_a_number_jq_rewrote", compare_matches_a_number_jq_rewrote},
	{"report_read_refuses_a_fleet_report_naming_rank", report_read_refuses_a_fleet_report_naming_rank},
	{"report_read_rank_takes_that_hosts_report", report_read_rank_takes_that_hosts_report},
};
/* clang-format on */

TEST_MAIN(tests)
