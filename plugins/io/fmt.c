/* SPDX-License-Identifier: Apache-2.0 */
/* Sizes as the classic host benchmark prints them, and numeric notes. */
#include <inttypes.h>

#include "io.h"

void io_fmt_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB",
					     "PiB" };
	double v = (double)bytes;
	size_t u = 0;

	if (bytes < 1024) {
		snprintf(buf, len, "%" PRIu64 "B", bytes);
		return;
	}
	v /= 1024;
	while (v >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%.2f%s", v, units[u]);
}

void io_note_u64(const struct io_state *s, const char *key, uint64_t value)
{
	char text[32];

	snprintf(text, sizeof(text), "%" PRIu64, value);
	s->c->host->note(s->c, key, text);
}
