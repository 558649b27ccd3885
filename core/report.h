/*
 * Reports: one file per format, all reading the same struct report.
 * Everything goes to the given stream; diagnostics go to stderr only.
 */
#ifndef HB_CORE_REPORT_H
#define HB_CORE_REPORT_H

#include <stdio.h>

#include "registry.h"
#include "result.h"
#include "suite.h"
#include "sysinfo.h"

enum report_format {
	REPORT_TEXT,
	REPORT_JSON,
	REPORT_CSV,
	REPORT_MD,
};

struct report {
	const struct sysinfo *sys;
	const struct registry *reg;
	const struct suite *suite;
	const struct result *results; /* suite->ncases of them, same order */
	size_t nresults;
};

/* "text", "json", "csv", "md" -> format. Returns 0 or -EINVAL. */
int report_format_parse(const char *name, enum report_format *out);

/* Write r in format to out. Returns 0 or a negative code with err filled. */
int report_write(enum report_format f, const struct report *r, FILE *out,
		 char *err, size_t errlen);

int report_text(const struct report *r, FILE *out, char *err, size_t errlen);
int report_json(const struct report *r, FILE *out, char *err, size_t errlen);
int report_csv(const struct report *r, FILE *out, char *err, size_t errlen);
int report_md(const struct report *r, FILE *out, char *err, size_t errlen);

#endif
