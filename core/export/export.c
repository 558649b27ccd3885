/* SPDX-License-Identifier: Apache-2.0 */
/* The export formats by name, and the dispatch to their writers. */
#include "export/export.h"

#include <errno.h>
#include <string.h>

#include "base/util.h"

/* A format's name and its writer, as report.c's table of writers. */
struct export_writer {
	const char *name;
	enum export_format format;
	int (*write)(const struct export_set *set, FILE *out, char *err,
		     size_t errlen);
};

static const struct export_writer writers[] = {
	{ .name = "openmetrics",
	  .format = EXPORT_OPENMETRICS,
	  .write = export_openmetrics },
	{ .name = "bmf", .format = EXPORT_BMF, .write = export_bmf },
};

#define NWRITERS (sizeof(writers) / sizeof(writers[0]))

int export_format_parse(const char *text, enum export_format *f)
{
	for (size_t i = 0; i < NWRITERS; i++)
		if (strcmp(writers[i].name, text) == 0) {
			*f = writers[i].format;
			return 0;
		}
	return -EINVAL;
}

int export_write(const struct export_set *set, enum export_format f, FILE *out,
		 char *err, size_t errlen)
{
	for (size_t i = 0; i < NWRITERS; i++)
		if (writers[i].format == f)
			return writers[i].write(set, out, err, errlen);
	return hb_errorf(err, errlen, -EINVAL, "no such export format");
}
