/* SPDX-License-Identifier: Apache-2.0 */
/* A stored run's report, read back as a saved report is (stored.h). */
#include "app/stored.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"

int stored_is_run(const char *arg)
{
	size_t i;

	for (i = 0; arg[i]; i++) {
		int dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? arg[i] != '-' : !isxdigit((unsigned char)arg[i]))
			return 0;
	}
	return i == 36 && access(arg, F_OK) != 0;
}

int stored_read(struct doc_report *doc, const char *url, const char *uuid,
		char *err, size_t errlen)
{
	struct store *st;
	char *text = NULL;
	size_t len = 0;
	int rc = store_open(&st, url, NULL, err, errlen);

	if (rc)
		return rc;
	rc = store_report(st, uuid, &text, &len, err, errlen);
	store_close(st);
	if (!rc)
		rc = report_read_text(doc, uuid, text, len, err, errlen);
	free(text);
	return rc;
}
