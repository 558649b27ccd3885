/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Pure parsers for suite values: sizes, durations, integers, booleans and
 * comma lists. No I/O and no global state, so they are unit tested and
 * fuzzed directly. Each returns 0, or -EINVAL / -ERANGE with a short reason
 * ("not a size (try 16M)") in the caller's buffer.
 */
#ifndef HB_CORE_BASE_PARSE_H
#define HB_CORE_BASE_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

/*
 * "4096", "64K", "1M", "2G", "1T"; KiB/MiB/GiB and KB/MB/GB read the same
 * (powers of 1024); case-insensitive suffix, optional "B", blanks allowed
 * between number and suffix ("1 GB"). Rejects signs,
 * empty text, fractions, unknown suffixes and values that overflow uint64_t.
 */
int parse_size(const char *text, uint64_t *out, char *err, size_t errlen);

/*
 * "500ms", "2s", "1.5s", "1m", "500 ms", bare number = seconds. Must be
 * > 0.
 */
int parse_duration(const char *text, double *out, char *err, size_t errlen);

/* Signed decimal integer that fits int64_t, surrounding blanks allowed. */
int parse_int(const char *text, int64_t *out, char *err, size_t errlen);

/* true/false, yes/no, on/off, 1/0, case-insensitive. */
int parse_bool(const char *text, int *out, char *err, size_t errlen);

/*
 * Split "a, b ,c" on commas into trimmed items. Empty items ("a,,b", "a,")
 * are an error. A text without commas gives one item.
 */
int parse_list(const char *text, struct strlist *out, char *err, size_t errlen);

/* Format bytes as the shortest exact size text: 1048576 -> "1M", 1000 ->
 * "1000". */
void parse_format_size(uint64_t bytes, char *buf, size_t len);

/*
 * Nonzero when word alone is the unit of a size or a duration ("GB",
 * "KiB", "ms"): the second half of a value a shell split in two.
 */
int parse_is_unit(const char *word);

/* Edit distance between two short strings, for "did you mean" hints. */
size_t parse_edit_distance(const char *a, const char *b);

#endif
