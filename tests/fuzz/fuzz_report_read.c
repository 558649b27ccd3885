/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the report reader behind compare and merge: any text read as a
 * hostbench JSON report, then compared with itself and merged, in every
 * format. Must never crash or leak.
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "compare/compare.h"
#include "compare/merge.h"

/* Every format of the comparison and the merge, written to memory. */
static void write_all(const struct comparison *cmp, const struct merge *m)
{
	static const enum report_format formats[] = { REPORT_TEXT, REPORT_JSON,
						      REPORT_CSV, REPORT_MD,
						      REPORT_HTML };
	char err[256], *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	if (!out)
		return;
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		compare_write(cmp, formats[i], out, err, sizeof(err));
		merge_write(m, formats[i], out, err, sizeof(err));
	}
	fclose(out);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct doc_report doc;
	struct comparison cmp;
	struct merge m;
	char err[256];

	if (report_read_text(&doc, "fuzz.json", (const char *)data, size, err,
			     sizeof(err)))
		return 0;
	if (compare_build(&cmp, &doc, &doc, 0.05, err, sizeof(err)) == 0) {
		if (merge_build(&m, &doc, 1, err, sizeof(err)) == 0) {
			write_all(&cmp, &m);
			merge_free(&m);
		}
		compare_free(&cmp);
	}
	report_read_free(&doc);
	return 0;
}
