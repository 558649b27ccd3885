/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A test's way to the dashboard without a store: read a history document
 * from a JSON file and write its site (or one view of it) with the shipped
 * code, as `hostbench dashboard` and `hostbench history` do.
 *
 * Usage: dashboard_fixture HISTORY.json DIR
 *        dashboard_fixture HISTORY.json --format FORMAT
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "history/dashboard.h"
#include "history/history_write.h"
#include "report/report.h"

/* Write doc as the view named fmt to stdout. */
static int view(const json_t *doc, const char *name, char *err, size_t len)
{
	enum report_format fmt;

	if (report_format_parse(name, &fmt)) {
		snprintf(err, len, "unknown format %s", name);
		return -1;
	}
	return history_write(doc, fmt, stdout, err, len);
}

int main(int argc, char **argv)
{
	char err[512] = "";
	json_error_t e;
	json_t *doc;
	int rc;

	if (argc != 3 && !(argc == 4 && strcmp(argv[2], "--format") == 0)) {
		fprintf(stderr,
			"usage: %s HISTORY.json DIR | --format FORMAT\n",
			argv[0]);
		return 2;
	}
	doc = json_load_file(argv[1], 0, &e);
	if (!doc) {
		fprintf(stderr, "%s:%d: %s\n", argv[1], e.line, e.text);
		return 1;
	}
	rc = argc == 4 ? view(doc, argv[3], err, sizeof(err))
		       : dashboard_write(doc, argv[2], err, sizeof(err));
	if (rc)
		fprintf(stderr, "dashboard_fixture: %s\n", err);
	json_decref(doc);
	return rc ? 1 : 0;
}
