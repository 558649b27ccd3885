/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Saved reports and journals into the store: read as `hostbench report`
 * reads them (checked and sanitized), named by their run uuid or, for a
 * report older than the "run" object, by the SHA-256 of the file, so a
 * second import of a file adds nothing.
 */
#include "store/store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/sanitize.h"
#include "base/util.h"
#include "compare/report_read.h"
#include "store/store_put.h"

/* The whole file at path into *text (*len bytes) and its time into when. */
static int slurp(const char *path, char **text, size_t *len, char *when,
		 size_t whenlen, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	struct stat sb;
	struct tm tm;
	int rc = 0;

	if (!f)
		return hb_errorf(err, errlen, -errno, "%s: %s", path,
				 strerror(errno));
	if (fstat(fileno(f), &sb) || fseek(f, 0, SEEK_END) ||
	    (*len = (size_t)ftell(f), fseek(f, 0, SEEK_SET)) ||
	    !(*text = malloc(*len + 1)) || fread(*text, 1, *len, f) != *len)
		rc = hb_errorf(err, errlen, -EIO, "%s: cannot read it", path);
	fclose(f);
	if (rc)
		return rc;
	(*text)[*len] = '\0';
	gmtime_r(&sb.st_mtime, &tm);
	strftime(when, whenlen, "%Y-%m-%dT%H:%M:%S.000Z", &tm);
	return 0;
}

/* A fleet report (every rank's report in fleet.hosts), sanitized. */
static json_t *fleet_root(const char *text, size_t len)
{
	json_t *root = json_loadb(text, len, 0, NULL);

	if (json_is_array(
		    json_object_get(json_object_get(root, "fleet"), "hosts")) &&
	    sanitize_json(root) == 0)
		return root;
	json_decref(root);
	return NULL;
}

int store_import(struct store *st, const char *path, int *added, char *err,
		 size_t errlen)
{
	struct doc_report doc = { 0 };
	char when[40], uuid[37], *text = NULL;
	size_t len = 0;
	json_t *fleet;
	int rc = slurp(path, &text, &len, when, sizeof(when), err, errlen);

	*added = 0;
	if (rc)
		return rc;
	store_uuid_of(text, len, uuid);
	fleet = fleet_root(text, len);
	if (fleet) {
		rc = store_put_as(st, fleet, uuid, when, added, err, errlen);
		json_decref(fleet);
	} else {
		rc = report_read_text(&doc, path, text, len, err, errlen);
		if (!rc)
			rc = store_put_as(st, doc.root, uuid, when, added, err,
					  errlen);
		report_read_free(&doc);
	}
	free(text);
	return rc;
}
