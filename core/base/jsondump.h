/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A large JSON document as text, byte for byte what jansson's
 * json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER) writes, a few
 * times faster: a real's 17 significant digits (exact, so a reader gets
 * the same double back) are computed with integer arithmetic instead of
 * glibc's arbitrary-precision printf, which stays the fallback outside
 * that arithmetic's range.
 */
#ifndef HB_CORE_BASE_JSONDUMP_H
#define HB_CORE_BASE_JSONDUMP_H

#include <jansson.h>
#include <stddef.h>

/* j as indented text (free() it); NULL when out of memory or not JSON. */
char *jsondump_text(const json_t *j);

/*
 * v as snprintf(buf, len, "%.17g", v) writes it; its length, or -1 when
 * len is too short (32 is enough).
 */
int jsondump_g17(double v, char *buf, size_t len);

#endif
