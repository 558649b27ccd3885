/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Other tools' results into the store (docs/interop.md, "Import"):
 * `hostbench store import --from FORMAT FILE...`. One importer per format
 * (import_formats.h), one dispatch table here; each file becomes a run of
 * each host it names, stored as hostbench's own reports are (store_put),
 * named by a uuid of its content, so a second import adds nothing.
 */
#ifndef HB_CORE_IMPORT_IMPORT_H
#define HB_CORE_IMPORT_IMPORT_H

#include <stddef.h>

#include "base/util.h"
#include "import/import_doc.h"
#include "store/store.h"

/* What the command line says of the files to import. */
struct import_opts {
	const char *from; /* a format, "auto"; NULL: hostbench's own */
	const char *host; /* --host: the host of a file that names none */
	const char *tool_version; /* --tool-version: for a file saying none */
};

/* Nonzero when name is a format --from takes ("auto", "hostbench" too). */
int import_format_known(const char *name);

/* The formats --from takes, as a message lists them. */
const char *import_format_names(void);

/*
 * The format of text (len bytes) as --from auto recognises it: the first
 * whose sniff says so, in the table's order (hostbench's own first);
 * NULL when none does.
 */
const char *import_sniff(const char *text, size_t len);

/*
 * Read in's text as format (an importer's name: not "auto" nor
 * "hostbench") into out, storing nothing: its runs (out->runs, made here:
 * the caller json_decref()s it and strlist_free()s out->notes, whatever
 * is returned), each sanitized and bounded as a report read back is. For
 * tests and fuzzing; import_file() stores what it reads. Returns 0,
 * -EINVAL (no such reader, or the text refused, err saying why) or
 * -ENOMEM.
 */
int import_read(const char *format, const struct import_in *in,
		struct import_out *out, char *err, size_t errlen);

/*
 * Import the file at path into st as o says: every run it makes stored
 * in one transaction each (store_put), counted in t (zeroed by the
 * caller: added, and those stored already); notes gets the lines to show
 * on stderr (the format --from auto chose, a host or version assumed, a
 * line left out). Returns 0; -EINVAL for a file refused (not a regular
 * file, not of the format, a line or key it cannot read: err names the
 * file, the format and why, and nothing of it is stored); another
 * negative code (the store failed).
 */
int import_file(struct store *st, const char *path, const struct import_opts *o,
		struct store_tally *t, struct strlist *notes, char *err,
		size_t errlen);

#endif
