/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `hostbench list` as text: a row per target, a column per backend, with
 * the usable, default and skipped marks, aligned whatever the names. The
 * registry is built by hand; nothing is loaded from disk.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/catalog.h"
#include "check.h"

static const struct hb_target short_targets[] = {
	{ .group = "crypto", .name = "aes-256-gcm" },
	{ 0 },
};

static const struct hb_target long_targets[] = {
	{ .group = "crypto", .name = "aes-256-gcm" },
	{ .group = "crypto",
	  .name = "a-target-name-much-longer-than-any-column-width-so-far" },
	{ 0 },
};

static const struct hb_plugin openssl = { .name = "openssl",
					  .targets = short_targets };
static const struct hb_plugin vendor = {
	.name = "a-vendor-backend-with-a-long-name", .targets = long_targets
};

static struct plugin plugins[] = {
	{ .path = "v.so", .desc = &vendor },
	{ .path = "o.so", .desc = &openssl },
};

/* The text of list for plugins[0..n), the vendor's first target unusable. */
static char *list_text(char *buf, size_t len)
{
	struct registry reg = { .plugins = plugins, .n = 2 };
	FILE *f = fmemopen(buf, len, "w");
	char err[256];

	kvlist_set(&plugins[0].unusable, "crypto/aes-256-gcm", "no device");
	if (catalog_list(&reg, REPORT_TEXT, f, err, sizeof(err)))
		buf[0] = '\0';
	fclose(f);
	kvlist_free(&plugins[0].unusable);
	return buf;
}

/*
 * Where the last cell ends in the line of text that starts with row (the
 * column a cell ends at, as the text is right-aligned), or -1.
 */
static long cell_end(const char *text, const char *row, const char *cell)
{
	const char *line = strstr(text, row), *at, *last = NULL;
	size_t len = line ? strcspn(line, "\n") : 0;

	/* the last one: a cell comes after its row's label */
	for (at = line; at && (at = strstr(at, cell)) && at < line + len; at++)
		last = at;
	return last ? (long)(last - line) + (long)strlen(cell) : -1;
}

static int list_has_one_row_per_target_and_a_column_per_backend(void)
{
	const char *vendor_name = "a-vendor-backend-with-a-long-name";
	char buf[8192];
	const char *text = list_text(buf, sizeof(buf));
	long vendor_col = cell_end(text, "target ", vendor_name);
	long openssl_col = cell_end(text, "target ", "openssl");

	CHECK(vendor_col > 0 && openssl_col > vendor_col);
	CHECK_INT(cell_end(text, "crypto/aes-256-gcm ", "no [1]"), vendor_col);
	CHECK_INT(cell_end(text, "crypto/aes-256-gcm ", "yes*"), openssl_col);
	CHECK_INT(cell_end(text, "crypto/a-target", "yes*"), vendor_col);
	CHECK_INT(cell_end(text, "crypto/a-target", "-"), openssl_col);
	CHECK_CONTAINS(text, "[1] crypto/aes-256-gcm on "
			     "a-vendor-backend-with-a-long-name: no device");
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"list_has_one_row_per_target_and_a_column_per_backend", list_has_one_row_per_target_and_a_column_per_backend},
};
/* clang-format on */

TEST_MAIN(tests)
