/* SPDX-License-Identifier: Apache-2.0 */
/* The refusal of a hostbench started with rights its caller lacks. */
#include "proc/setid.h"

#include <errno.h>
#include <sys/auxv.h>

#include <hostbench/plugin.h>

int setid_check(char *why, size_t len)
{
	if (!getauxval(AT_SECURE))
		return 0;
	return hb_errorf(why, len, -EPERM,
			 "refusing to run set-user-ID, set-group-ID or with "
			 "file capabilities (it would lend its rights to any "
			 "user): install it without them (chmod ug-s, setcap "
			 "-r) and run it as the user whose rights it needs");
}
