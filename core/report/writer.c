/* SPDX-License-Identifier: Apache-2.0 */
/* What every writer does alike with its line buffers and its stream. */
#include "report/writer.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

void report_appendf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	util_vappendf(buf, len, fmt, ap);
	va_end(ap);
}

int report_io_error(FILE *out, char *err, size_t errlen)
{
	if (fflush(out) == 0 && !ferror(out))
		return 0;
	return hb_errorf(err, errlen, -EIO, "writing the report: %s",
			 strerror(errno ? errno : EIO));
}

int report_write_end(const char *what, int rc, FILE *out, char *err,
		     size_t errlen)
{
	if (rc)
		return hb_errorf(err, errlen, rc, "%s: %s", what,
				 strerror(-rc));
	return report_io_error(out, err, errlen);
}
