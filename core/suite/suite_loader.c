/* SPDX-License-Identifier: Apache-2.0 */
/* The loader's messages: every error of a suite being read says where. */
#include "suite/suite_loader.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

/*
 * Fill err with "ORIGIN: [LABEL] KEY: message" (label and key optional)
 * and return -ENOMEM when code is, else -EINVAL: a parser's -ERANGE is
 * still a bad suite.
 */
int suite_loader_fail(struct loader *ld, int code, const char *origin,
		      const char *label, const char *key, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return hb_errorf(ld->err, ld->errlen, code == -ENOMEM ? code : -EINVAL,
			 "%s: %s%s%s%s%s%s", origin, label ? "[" : "",
			 label ? label : "", label ? "] " : "", key ? key : "",
			 key ? ": " : "", msg);
}

int suite_loader_nomem(struct loader *ld)
{
	return hb_errorf(ld->err, ld->errlen, -ENOMEM, "out of memory");
}
