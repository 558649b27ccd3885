/* SPDX-License-Identifier: Apache-2.0 */
/* What every writer does alike with its line buffers and its stream. */
#include "report/writer.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

void report_appendf(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strnlen(buf, len);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
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
