/* SPDX-License-Identifier: Apache-2.0 */
/* compare --by KEY=BASE,NEW taken apart. */
#include "compare/compare_by.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hostbench/plugin.h>

int compare_by_parse(const char *text, struct compare_by_arg *out, char *err,
		     size_t errlen)
{
	const char *eq = strchr(text, '=');
	const char *comma = eq ? strchr(eq + 1, ',') : NULL;
	char *copy;

	if (!eq || eq == text || !comma || comma == eq + 1 || !comma[1] ||
	    strchr(comma + 1, ','))
		return hb_errorf(err, errlen, -EINVAL,
				 "--by %s: expected KEY=A,B (backend=openssl,"
				 "gcrypt)",
				 text);
	if (!out)
		return 0;
	copy = strdup(text);
	if (!copy)
		return hb_errorf(err, errlen, -ENOMEM, "%s", strerror(ENOMEM));
	/* the '=' and the ',' become the ends of KEY and BASE */
	copy[eq - text] = '\0';
	copy[comma - text] = '\0';
	out->text = copy;
	out->by = (struct compare_by){ .key = copy,
				       .base = copy + (eq - text) + 1,
				       .new = copy + (comma - text) + 1 };
	return 0;
}

void compare_by_free(struct compare_by_arg *arg)
{
	free(arg->text);
	memset(arg, 0, sizeof(*arg));
}
