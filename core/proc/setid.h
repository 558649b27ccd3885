/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hostbench never runs with rights its caller does not have. A
 * set-user-ID, set-group-ID or file-capability hostbench would hand them
 * to any user: its helper mode loads whatever plugin file the caller
 * passes on descriptor 3, and --output, --journal and the plugin
 * directories would act with the owner's rights. So such a start (the
 * kernel's AT_SECURE) is refused, in the core and in helper mode alike,
 * before anything else is read.
 */
#ifndef HB_CORE_PROC_SETID_H
#define HB_CORE_PROC_SETID_H

#include <stddef.h>

/*
 * 0 when hostbench runs with its caller's own rights; -EPERM when it was
 * started set-user-ID, set-group-ID or with file capabilities
 * (getauxval(AT_SECURE)), with the one-line reason in why.
 */
int setid_check(char *why, size_t len);

#endif
