/* SPDX-License-Identifier: Apache-2.0 */
/* The dispatch of a file to its importer, and its runs into the store. */
#include "import/import.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "base/digest.h"
#include "base/sanitize.h"
#include "compare/report_read.h"
#include "import/import_formats.h"
#include "store/store_put.h"

static int hostbench_sniff(const char *text, size_t len)
{
	return import_has(text, len, "\"schema_version\"") ||
	       (import_has(text, len, "\"key\"") &&
		import_has(text, len, "\"case\"")); /* a journal */
}

/* hostbench's own reports and journals: the store reads them itself. */
static const struct import_format hostbench = {
	.name = "hostbench",
	.summary = "hostbench's own JSON reports and journals (the default)",
	.sniff = hostbench_sniff,
};

/* Every format, in the order --from auto tries them. */
static const struct import_format *const formats[] = {
	&hostbench,
	&import_fio,
	&import_iperf3,
	&import_gbench,
	&import_hyperfine,
	&import_pyperf,
	&import_openssl_speed,
	NULL,
};

/* The format named name, NULL for none. */
static const struct import_format *format_named(const char *name)
{
	for (size_t i = 0; name && formats[i]; i++)
		if (strcmp(formats[i]->name, name) == 0)
			return formats[i];
	return NULL;
}

int import_format_known(const char *name)
{
	return strcmp(name, "auto") == 0 || format_named(name) != NULL;
}

const char *import_format_names(void)
{
	return "auto, hostbench, fio, iperf3, openssl-speed, gbench, "
	       "hyperfine, pyperf";
}

const char *import_sniff(const char *text, size_t len)
{
	for (size_t i = 0; formats[i]; i++)
		if (formats[i]->sniff(text, len))
			return formats[i]->name;
	return NULL;
}

/* The format of in's text for o; NULL with err filled when none. */
static const struct import_format *format_of(const struct import_opts *o,
					     const struct import_in *in,
					     struct strlist *notes, char *err,
					     size_t errlen)
{
	const char *name = o->from;
	char line[1024];

	if (in->len >= 2 && (unsigned char)in->text[0] == 0x1f &&
	    (unsigned char)in->text[1] == 0x8b) {
		hb_error_fill(err, errlen,
			      "%s: gzip-compressed (pyperf's .json.gz?): "
			      "decompress it first",
			      in->path);
		return NULL;
	}
	if (strcmp(name, "auto") == 0) {
		name = import_sniff(in->text, in->len);
		if (!name) {
			hb_error_fill(err, errlen,
				      "%s: recognised as none of the formats "
				      "(%s): give --from FORMAT",
				      in->path, import_format_names());
			return NULL;
		}
		snprintf(line, sizeof(line), "%s: read as %s", in->path, name);
		sanitize_text(line);
		strlist_push(notes, line);
	}
	return format_named(name);
}

/*
 * The uuid of run: the SHA-256 of the file (hex) with its format, host
 * and tool version, so the same file imported again is the same run, and
 * the same file of another host (--host) another.
 */
static void run_uuid(const json_t *run, const char *format, const char *hex,
		     char out[37])
{
	const char *host = json_string_value(
		json_object_get(json_object_get(run, "system"), "hostname"));
	const char *version = json_string_value(
		json_object_get(json_object_get(run, "tool"), "version"));
	char key[1024];

	snprintf(key, sizeof(key), "hostbench import\n%s\n%s\n%s\n%s", format,
		 host ? host : "", version ? version : "", hex);
	store_uuid_of(key, strlen(key), out);
}

/* Every run of runs into st, each named by its content. */
static int runs_store(struct store *st, json_t *runs, const char *format,
		      const char *text, size_t len, struct store_tally *t,
		      char *err, size_t errlen)
{
	uint8_t d[32];
	char hex[65], uuid[37];
	json_t *run;
	size_t i;
	int rc = 0;

	digest_sha256(text, len, d);
	for (i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	json_array_foreach(runs, i, run) {
		const char *when = json_string_value(json_object_get(
			json_object_get(run, "run"), "started"));

		run_uuid(run, format, hex, uuid);
		json_object_set_new(json_object_get(run, "imported"), "sha256",
				    json_string(hex));
		json_object_set_new(json_object_get(run, "run"), "uuid",
				    json_string(uuid));
		rc = store_put_as(st, run, NULL, uuid, when, t, err, errlen);
		if (rc)
			break;
	}
	return rc;
}

/* The host hostbench runs on (uname's node name). */
static void this_host(char *buf, size_t len)
{
	struct utsname u;

	snprintf(buf, len, "%s", uname(&u) == 0 ? u.nodename : "localhost");
}

int import_read(const char *format, const struct import_in *in,
		struct import_out *out, char *err, size_t errlen)
{
	const struct import_format *f = format_named(format);
	json_t *run;
	size_t i;
	int rc;

	*out = (struct import_out){ .runs = json_array() };
	if (!out->runs)
		return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	if (!f || !f->read)
		return hb_errorf(err, errlen, -EINVAL,
				 "%s: no reader of that format", format);
	rc = f->read(in, out, err, errlen);
	/* text from elsewhere: sanitized and bounded as a report's */
	json_array_foreach(out->runs, i, run) {
		if (!rc && report_read_clean(run, NULL))
			rc = hb_errorf(err, errlen, -ENOMEM, "out of memory");
	}
	return rc;
}

/* in's file through format f into st. */
static int import_with(struct store *st, const struct import_format *f,
		       const struct import_in *in, struct store_tally *t,
		       struct strlist *notes, char *err, size_t errlen)
{
	struct import_out out;
	char why[1024];
	int rc = import_read(f->name, in, &out, why, sizeof(why));

	if (!rc)
		rc = runs_store(st, out.runs, f->name, in->text, in->len, t,
				why, sizeof(why));
	if (rc)
		hb_error_fill(err, errlen, "%s: %s: %s", in->path, f->name,
			      why);
	for (size_t i = 0; !rc && i < out.notes.n; i++)
		strlist_push(notes, out.notes.items[i]);
	strlist_free(&out.notes);
	json_decref(out.runs);
	return rc;
}

/*
 * rc of reading a file: one that cannot be read (missing, a directory,
 * not allowed) is the command line's fault, as a file not of the format
 * is, not the store's.
 */
static int file_rc(int rc)
{
	return rc == -ENOENT || rc == -EACCES || rc == -EISDIR ||
			       rc == -ENOTDIR || rc == -ELOOP
		       ? -EINVAL
		       : rc;
}

int import_file(struct store *st, const char *path, const struct import_opts *o,
		struct store_tally *t, struct strlist *notes, char *err,
		size_t errlen)
{
	struct import_in in = { .path = path,
				.host = o->host,
				.tool_version = o->tool_version };
	const struct import_format *f;
	char *text = NULL, host[256];
	time_t mtime;
	int rc;

	if (!o->from || strcmp(o->from, "hostbench") == 0)
		return file_rc(import_hostbench(st, path, t, err, errlen));
	rc = report_read_file(path, &text, &in.len, &mtime, err, errlen);
	if (rc)
		return file_rc(rc);
	in.text = text;
	f = format_of(o, &in, notes, err, errlen);
	rc = f ? 0 : -EINVAL;
	if (f && !f->read) {
		free(text);
		return file_rc(import_hostbench(st, path, t, err, errlen));
	}
	this_host(host, sizeof(host));
	in.this_host = host;
	import_time_of((double)mtime, in.mtime, sizeof(in.mtime));
	if (!rc)
		rc = import_with(st, f, &in, t, notes, err, errlen);
	free(text);
	sanitize_text(err);
	return rc;
}
