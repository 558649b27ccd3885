/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hostbench's own saved reports and journals into the store: read as
 * `hostbench report` reads them (checked and sanitized), named by their
 * run uuid or, for a report older than the "run" object, by the SHA-256
 * of the file, so a second import of a file adds nothing.
 */
#include "import/import_formats.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "compare/journal_doc.h"
#include "compare/report_read.h"
#include "store/store_put.h"

/* The whole file at path into *text (*len bytes) and its time into when. */
static int slurp(const char *path, char **text, size_t *len, char *when,
		 size_t whenlen, char *err, size_t errlen)
{
	time_t mtime;
	struct tm tm;
	int rc = report_read_file(path, text, len, &mtime, err, errlen);

	if (rc)
		return rc;
	gmtime_r(&mtime, &tm);
	strftime(when, whenlen, "%Y-%m-%dT%H:%M:%S.000Z", &tm);
	return 0;
}

/*
 * A fleet report (every rank's report in fleet.hosts) parsed from root,
 * sanitized and bounded as every report read; NULL for another document
 * (root is kept).
 */
static json_t *fleet_root(json_t *root)
{
	if (!json_is_array(
		    json_object_get(json_object_get(root, "fleet"), "hosts")))
		return NULL;
	if (report_read_clean(root, NULL) == 0)
		return root;
	return NULL;
}

/* Is c a blank JSON allows between tokens? */
static int json_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * text without the blanks between its tokens, malloc'd, when reading it
 * changes nothing: printable ASCII without a '\\' (no escape, nothing
 * the sanitizer would replace); NULL otherwise (the parsed document is
 * then written out again).
 */
static char *compact_text(const char *text, size_t len)
{
	char *out = malloc(len + 1), *o = out;
	int quoted = 0;

	for (size_t i = 0; out && i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '\\' || c > 0x7e ||
		    (c < 0x20 && (quoted || !json_blank(c)))) {
			free(out);
			return NULL;
		}
		quoted ^= c == '"';
		if (quoted || !json_blank(c))
			*o++ = (char)c;
	}
	if (out)
		*o = '\0';
	return out;
}

/* A report of path refused by the store: its message names the file. */
static int refused(const char *path, int rc, char *err, size_t errlen)
{
	char why[1024];

	if (rc != -EINVAL)
		return rc;
	snprintf(why, sizeof(why), "%s", err);
	return hb_errorf(err, errlen, rc, "%s: %s", path, why);
}

/* One host's report (or a journal) of path, parsed or not (root NULL). */
static int import_report(struct store *st, const char *path, json_t *root,
			 const char *text, size_t len, const char *uuid,
			 const char *when, struct store_tally *t, char *err,
			 size_t errlen)
{
	struct doc_report doc = { 0 };
	char *compact = NULL;
	int rc;

	if (root) {
		compact = compact_text(text, len);
		rc = report_read_root(&doc, path, root, err, errlen);
	} else {
		rc = report_read_text(&doc, path, text, len, err, errlen);
	}
	/* a string cut on reading: the text is not what is stored */
	if (!rc && doc.changed) {
		free(compact);
		compact = NULL;
	}
	if (!rc)
		rc = refused(path,
			     store_put_as(st, doc.root, compact, uuid, when, t,
					  err, errlen),
			     err, errlen);
	report_read_free(&doc);
	free(compact);
	return rc;
}

int import_hostbench(struct store *st, const char *path, struct store_tally *t,
		     char *err, size_t errlen)
{
	char when[40], uuid[37], *text = NULL;
	size_t len = 0;
	json_t *root;
	int rc = slurp(path, &text, &len, when, sizeof(when), err, errlen);

	if (rc)
		return rc;
	/* parsed once: the text of 100 results is most of an import's time */
	root = json_loadb(text, len, JSON_DECODE_ANY, NULL);
	if (journal_doc_is_line(root)) { /* a journal of one line */
		json_decref(root);
		root = NULL;
	}
	if (!json_string_value(
		    json_object_get(json_object_get(root, "run"), "uuid")))
		store_uuid_of(text, len, uuid); /* an older report */
	else
		uuid[0] = '\0'; /* its own */
	if (fleet_root(root)) {
		rc = store_put_as(st, root, NULL, uuid, when, t, err, errlen);
		rc = refused(path, rc, err, errlen);
		json_decref(root);
	} else {
		rc = import_report(st, path, root, text, len, uuid, when, t,
				   err, errlen);
	}
	free(text);
	return rc;
}
