/* SPDX-License-Identifier: Apache-2.0 */
/* One-line error messages for the transfer plugin and hostbench-serve. */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <openssl/err.h>

void err_ssl(char *err, size_t len)
{
	unsigned long e, last = 0;
	char reason[256] = "unknown error";
	size_t used;

	/* The newest error is the most specific one in OpenSSL's queue. */
	while ((e = ERR_get_error()) != 0)
		last = e;
	if (last)
		ERR_error_string_n(last, reason, sizeof(reason));
	if (!err || !len)
		return;
	used = strlen(err);
	if (used + 1 < len)
		snprintf(err + used, len - used, ": %s", reason);
}
