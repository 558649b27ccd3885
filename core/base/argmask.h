/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A command line as a report may show it: the value of every secret option
 * replaced by "(secret)". Pure (no I/O), so it is unit tested.
 */
#ifndef HB_CORE_BASE_ARGMASK_H
#define HB_CORE_BASE_ARGMASK_H

#include "base/util.h"

/* What stands for a secret value ("(secret)", as suites show them). */
#define ARGMASK_SECRET "(secret)"

/*
 * Nonzero when an option called key (the KEY of "--set [SECTION.]KEY=V",
 * without its section) holds a secret. ctx is argmask()'s.
 */
typedef int (*argmask_secret_fn)(const char *key, void *ctx);

/*
 * argv[0..argc) into out (appended), masked: the value of "--set" ("-s")
 * when is_secret says its key is one (names ending in "token", "password"
 * or "secret" always are); the value of "--token" and "--password";
 * every password of a libpq URL as libpq reads it (base/pgurl.h:
 * "postgresql://user:PASSWORD@host/db?password=PASSWORD"); and the
 * password of any other URL with one ("scheme://user:PASSWORD@host").
 * A masked value reads "(secret)" with its key kept ("token=(secret)").
 * is_secret may be NULL. Returns 0 or -ENOMEM.
 */
int argmask(int argc, char *const *argv, argmask_secret_fn is_secret, void *ctx,
	    struct strlist *out);

/*
 * The words of cmd as one shell line into buf (len bytes, cut short when
 * it does not fit): each word quoted when a shell would not read it back
 * as that one word.
 */
void argmask_text(const struct strlist *cmd, char *buf, size_t len);

#endif
