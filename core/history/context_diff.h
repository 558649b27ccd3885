/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What changed between two contexts of a host, in words: the facts that
 * differ ("OpenSSL 3.0.17 -> 3.0.19", "kernel 6.1 -> 6.18", "OpenSSL
 * CPU: AES-NI on -> off (OPENSSL_ia32cap)"), never the bare context ids.
 * Pure functions of the facts the store keeps with a context (kernel,
 * os, libraries, cpu_flags, governor, hostbench).
 */
#ifndef HB_CORE_HISTORY_CONTEXT_DIFF_H
#define HB_CORE_HISTORY_CONTEXT_DIFF_H

#include <stddef.h>

#include <jansson.h>

/*
 * The facts that differ from before to after, one string each, in a fixed
 * order (kernel, OS, hostbench, governor, CPU flags, then each library by
 * plugin and name; a library two plugins report alike is said once). A
 * version is cut after its first differing component ("6.1.0-18" against
 * "6.18.44": "6.1 -> 6.18"); a "... CPU" library fact ("AES-NI on, ...;
 * OPENSSL_ia32cap=...") lists the features that changed and names its
 * tail when that changed too. A missing fact reads "(none)". Returns a new
 * array (empty when nothing differs), NULL when out of memory.
 */
json_t *context_diff(const json_t *before, const json_t *after);

/*
 * context_diff() joined with "; " into buf (cut to len); "" when nothing
 * differs. Returns 0 or -ENOMEM.
 */
int context_diff_text(const json_t *before, const json_t *after, char *buf,
		      size_t len);

/*
 * Give every context of every series of doc after its first a "changed"
 * array: context_diff() of the context before it. Returns 0 or -ENOMEM.
 */
int context_diff_doc(json_t *doc);

#endif
