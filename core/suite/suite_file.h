/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One suite file read into its sections and "key = value" lines, each with
 * its line number, before anything is validated. inih does the key/value
 * splitting; our own line reader counts lines, refuses over-long lines and
 * binary data, and reads section headers itself so that a repeated
 * [section] starts a new section (as in fio) and long names stay whole.
 */
#ifndef HB_CORE_SUITE_SUITE_FILE_H
#define HB_CORE_SUITE_SUITE_FILE_H

#include <stddef.h>

/* Longest line a suite file may have, not counting the line end. */
#define SUITEFILE_MAX_LINE 200

/* One "key = value" line. */
struct sf_entry {
	char *key;
	char *value;
	unsigned line;
};

/* One [section]: its name (blanks trimmed), header line and entries. */
struct sf_section {
	char *name;
	unsigned line;
	struct sf_entry *entries;
	size_t n;
	size_t cap;
};

/* A whole file's sections in file order; a repeated name is a new one. */
struct suite_file {
	struct sf_section *sections;
	size_t n;
	size_t cap;
};

/*
 * Read text (len bytes, no NUL needed) named name (for messages) into an
 * empty f. A key given twice in one section, a key before any section,
 * a line over SUITEFILE_MAX_LINE characters, a malformed line and binary
 * data are errors. Returns 0, or -EINVAL / -ENOMEM with a one-line
 * "NAME:LINE: what was wrong" in err; f is then empty.
 */
int suite_file_read(struct suite_file *f, const char *name, const char *text,
		    size_t len, char *err, size_t errlen);

/* Free everything suite_file_read() made; f is left empty. */
void suite_file_free(struct suite_file *f);

/* Nonzero when key is a key name: letters, digits, '_' and '-'. */
int suite_file_key_name(const char *key);

#endif
