/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the importers of other tools' results: the first byte picks the
 * format (fio, iperf3, openssl-speed, gbench, hyperfine, pyperf), the
 * rest is the file. Must never crash or leak; a file is a run or refused.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const formats[] = { "fio",		"iperf3",
					       "openssl-speed", "gbench",
					       "hyperfine",	"pyperf" };
	struct import_in in = { .path = "fuzz",
				.this_host = "fuzz-host",
				.mtime = "2026-01-01T00:00:00.000Z" };
	struct import_out out;
	char err[1024], *text;

	if (!size)
		return 0;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	in.text = text;
	in.len = size - 1;
	import_read(formats[data[0] % (sizeof(formats) / sizeof(*formats))],
		    &in, &out, err, sizeof(err));
	json_decref(out.runs);
	strlist_free(&out.notes);
	free(text);
	return 0;
}
