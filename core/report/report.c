/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reports: the name of each format and the dispatch to its writer through
 * a table; report_write()'s table holds the writers of the run's report,
 * one file each.
 */
#include "report/report.h"

#include <errno.h>
#include <string.h>

#include "report/report_csv.h"
#include "report/report_html.h"
#include "report/report_json.h"
#include "report/report_md.h"
#include "report/report_text.h"

/* Each format's name on the command line, indexed by enum report_format. */
static const char *const format_names[REPORT_NFORMATS] = {
	[REPORT_TEXT] = "text", [REPORT_JSON] = "json", [REPORT_CSV] = "csv",
	[REPORT_MD] = "md",	[REPORT_HTML] = "html",
};

/* The writer of the run's report in each format. */
static const struct report_writer writers[REPORT_NFORMATS] = {
	[REPORT_TEXT] = { .write = report_text },
	[REPORT_JSON] = { .write = report_json },
	[REPORT_CSV] = { .write = report_csv },
	[REPORT_MD] = { .write = report_md },
	[REPORT_HTML] = { .write = report_html },
};

int report_format_parse(const char *name, enum report_format *out)
{
	for (size_t i = 0; i < REPORT_NFORMATS; i++) {
		if (name && format_names[i] &&
		    strcmp(name, format_names[i]) == 0) {
			*out = (enum report_format)i;
			return 0;
		}
	}
	return -EINVAL;
}

int report_dispatch(const struct report_writer *table, enum report_format f,
		    const void *doc, FILE *out, char *err, size_t errlen)
{
	if ((size_t)f >= REPORT_NFORMATS || !table[f].write)
		return hb_errorf(err, errlen, -EINVAL,
				 "unknown report format %d", (int)f);
	return table[f].write(doc, out, err, errlen);
}

int report_write(enum report_format f, const struct report *r, FILE *out,
		 char *err, size_t errlen)
{
	return report_dispatch(writers, f, r, out, err, errlen);
}
