/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the value parsers: sizes, durations, integers, booleans, lists and
 * parse_format_size round trips. Any crash, leak or sanitizer report is a bug;
 * so is a size that parses but does not survive parse_format_size.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[256], buf[64];
	struct strlist items = { 0 };
	uint64_t bytes, again;
	double seconds;
	int64_t i;
	int b;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (parse_size(text, &bytes, err, sizeof(err)) == 0) {
		parse_format_size(bytes, buf, sizeof(buf));
		if (parse_size(buf, &again, err, sizeof(err)) || again != bytes)
			abort();
	}
	parse_duration(text, &seconds, err, sizeof(err));
	parse_int(text, &i, err, sizeof(err));
	parse_bool(text, &b, err, sizeof(err));
	parse_list(text, &items, err, sizeof(err));
	strlist_free(&items);
	if (size < 64)
		parse_edit_distance(text, "size");
	free(text);
	return 0;
}
