/* SPDX-License-Identifier: Apache-2.0 */
/* A stored run's report, read back as a saved report is (stored.h). */
#include "app/stored.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sanitize.h"
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

/*
 * err for run uuid when its stored text is another tool's run (store
 * import --from): what it is and where its figures are; 0 when it is no
 * such run.
 */
static int imported(const char *uuid, const char *text, size_t len, char *err,
		    size_t errlen)
{
	json_t *root = json_loadb(text, len, 0, NULL);
	const json_t *tool = json_object_get(root, "tool");
	const char *name = json_string_value(json_object_get(tool, "name"));
	const char *version =
		json_string_value(json_object_get(tool, "version"));
	const char *file = json_string_value(
		json_object_get(json_object_get(root, "imported"), "file"));
	int rc = 0;

	if (name && file)
		rc = hb_errorf(err, errlen, -EINVAL,
			       "%s: a run imported from %.200s (%.32s%s%.32s): "
			       "its figures are the tool's, shown by "
			       "`hostbench history`, not a report hostbench "
			       "renders",
			       uuid, file, name, version ? " " : "",
			       version ? version : "");
	sanitize_text(err); /* a store is shared: anyone may have written it */
	json_decref(root);
	return rc;
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
	if (rc == -EINVAL && text)
		imported(uuid, text, len, err, errlen);
	free(text);
	return rc;
}
