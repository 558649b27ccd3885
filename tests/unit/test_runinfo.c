/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The run's identity: RFC 3339 times, version 4 UUIDs, command lines with
 * their secrets masked, and the "run" object written and read back.
 */
#include <stdlib.h>
#include <string.h>

#include "base/argmask.h"
#include "base/timetext.h"
#include "base/uuid.h"
#include "check.h"
#include "result/runinfo.h"

static int time_is_utc_with_milliseconds(void)
{
	struct timespec ts = { .tv_sec = 1796191471, .tv_nsec = 123999999 };
	char buf[TIMETEXT_LEN];

	CHECK_INT(timetext_rfc3339(&ts, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "2026-12-02T06:04:31.123Z");
	return 0;
}

static int time_of_the_epoch_has_zero_milliseconds(void)
{
	struct timespec ts = { 0 };
	char buf[TIMETEXT_LEN];

	CHECK_INT(timetext_rfc3339(&ts, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "1970-01-01T00:00:00.000Z");
	return 0;
}

static int uuid_sets_version_4_and_the_rfc_variant(void)
{
	unsigned char ones[16];
	char text[UUID_TEXT];

	memset(ones, 0xff, sizeof(ones));
	uuid_v4_text(ones, text);
	CHECK_STR(text, "ffffffff-ffff-4fff-bfff-ffffffffffff");
	return 0;
}

/* Nonzero when text has the 8-4-4-4-12 shape of a v4 UUID. */
static int v4_shaped(const char *text)
{
	if (strlen(text) != 36 || text[14] != '4' || !strchr("89ab", text[19]))
		return 0;
	for (int i = 0; i < 36; i++) {
		int dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? text[i] != '-'
			 : !strchr("0123456789abcdef", text[i]))
			return 0;
	}
	return 1;
}

static int uuid_from_getrandom_is_v4_shaped_and_new_each_time(void)
{
	char a[UUID_TEXT], b[UUID_TEXT];

	CHECK_INT(uuid_v4(a), 0);
	CHECK_INT(uuid_v4(b), 0);
	CHECK(v4_shaped(a));
	CHECK(v4_shaped(b));
	CHECK(strcmp(a, b) != 0);
	return 0;
}

static int uuid_is_text_takes_uuids_only(void)
{
	CHECK(uuid_is_text("0b6c2f0e-5a1c-4c5e-9d53-2f1f7f0c9a11"));
	CHECK(uuid_is_text("0B6C2F0E-5A1C-4C5E-9D53-2F1F7F0C9A11"));
	CHECK(!uuid_is_text("'; DELETE FROM run; --"));
	CHECK(!uuid_is_text("0b6c2f0e-5a1c-4c5e-9d53-2f1f7f0c9a1"));
	CHECK(!uuid_is_text("0b6c2f0e-5a1c-4c5e-9d53-2f1f7f0c9a11x"));
	CHECK(!uuid_is_text("0b6c2f0e5a1c-4c5e-9d53-2f1f7f0c9a11-"));
	CHECK(!uuid_is_text("0b6c2f0g-5a1c-4c5e-9d53-2f1f7f0c9a11"));
	CHECK(!uuid_is_text(""));
	CHECK(!uuid_is_text(NULL));
	return 0;
}

/* argmask_secret_fn: "pin" is a plugin's secret option. */
static int pin_is_secret(const char *key, void *ctx)
{
	(void)ctx;
	return strcmp(key, "pin") == 0;
}

/* argv masked, joined with spaces into buf. */
static const char *masked(int argc, char *const *argv, char *buf, size_t len)
{
	struct strlist out = { 0 };

	buf[0] = '\0';
	if (argmask(argc, argv, pin_is_secret, NULL, &out))
		return NULL;
	for (size_t i = 0; i < out.n; i++) {
		strncat(buf, i ? " " : "", len - strlen(buf) - 1);
		strncat(buf, out.items[i], len - strlen(buf) - 1);
	}
	strlist_free(&out);
	return buf;
}

static int mask_hides_set_values_of_secret_keys(void)
{
	char *argv[] = {
		"hostbench", "run", "lab.ini",	  "--set",
		"token=abc", "-s",  "x.pin=1234", "--set=x.token=def"
	};
	char buf[512];

	CHECK_STR(
		masked(8, argv, buf, sizeof(buf)),
		"hostbench run lab.ini --set token=(secret) -s x.pin=(secret) "
		"--set=x.token=(secret)");
	return 0;
}

static int mask_keeps_set_values_of_other_keys(void)
{
	char *argv[] = { "hostbench", "run", "--set", "size=1M", "pin=9" };
	char buf[512];

	/* a bare word is no --set: only a URL's password is masked there */
	CHECK_STR(masked(5, argv, buf, sizeof(buf)),
		  "hostbench run --set size=1M pin=9");
	return 0;
}

static int mask_hides_the_token_of_serve(void)
{
	char *argv[] = { "hostbench", "serve", "--token", "abc",
			 "--token=def" };
	char buf[512];

	CHECK_STR(masked(5, argv, buf, sizeof(buf)),
		  "hostbench serve --token (secret) --token=(secret)");
	return 0;
}

static int mask_hides_the_password_of_a_url(void)
{
	char *argv[] = { "hostbench", "--store",
			 "postgresql://lab:hunter2@db:5432/hb",
			 "--store=postgresql://lab@db/hb" };
	char buf[512];

	CHECK_STR(masked(4, argv, buf, sizeof(buf)),
		  "hostbench --store postgresql://lab:(secret)@db:5432/hb "
		  "--store=postgresql://lab@db/hb");
	return 0;
}

static int mask_hides_every_password_of_a_libpq_url(void)
{
	char *argv[] = { "hostbench", "--store=postgresql://lab:pa?ss#w@db/hb"
				      "?pass%77ord=x&sslpassword=y&port=5432" };
	char buf[512];

	CHECK_STR(masked(2, argv, buf, sizeof(buf)),
		  "hostbench --store=postgresql://lab:(secret)@db/hb"
		  "?pass%77ord=(secret)&sslpassword=(secret)&port=5432");
	return 0;
}

static int run_object_reads_back_what_was_written(void)
{
	struct runinfo ri = { 0 }, back = { 0 };
	struct strlist cmd = { 0 };
	const char *suite = HB_TEST_SOURCE_DIR "/unit/test_runinfo.c";
	char err[256];
	int bad = 0;
	json_t *o;

	CHECK_INT(strlist_push(&cmd, "hostbench"), 0);
	CHECK_INT(runinfo_begin(&ri, &cmd, err, sizeof(err)), 0);
	CHECK_INT(runinfo_suites(&ri, &suite, 1), 0);
	runinfo_end(&ri);
	o = runinfo_json(&ri, &bad);
	CHECK(o && !bad);
	CHECK_INT(runinfo_from_json(&back, o), 0);
	CHECK_STR(back.uuid, ri.uuid);
	CHECK_STR(back.started, ri.started);
	CHECK_STR(back.ended, ri.ended);
	CHECK_STR(back.command_line.items[0], "hostbench");
	CHECK_INT(strlen(back.suites[0].sha256), 64);
	CHECK_STR(back.suites[0].sha256, ri.suites[0].sha256);
	CHECK(json_is_null(json_object_get(o, "fleet")));
	json_decref(o);
	runinfo_free(&ri);
	runinfo_free(&back);
	strlist_free(&cmd);
	return 0;
}

static int no_run_object_is_an_unknown_run(void)
{
	struct runinfo ri = { 0 };
	int bad = 0;

	CHECK_INT(runinfo_from_json(&ri, NULL), 0);
	CHECK_INT(ri.known, 0);
	CHECK(runinfo_json(&ri, &bad) == NULL);
	return 0;
}

/* The label of a report read from elsewhere, n bytes of what fill holds. */
static size_t imported_label_length(const char *fill, size_t n, char *first)
{
	struct runinfo ri = { 0 };
	char *text = calloc(n + 1, 1);
	size_t len = 0;
	json_t *o;

	for (size_t i = 0; text && i < n; i++)
		text[i] = fill[i % strlen(fill)];
	o = json_pack("{s:s}", "label", text ? text : "");
	if (o && runinfo_from_json(&ri, o) == 0 && ri.label) {
		len = strlen(ri.label);
		*first = ri.label[0];
	}
	json_decref(o);
	runinfo_free(&ri);
	free(text);
	return len;
}

static int imported_label_is_cut_to_the_longest_label(void)
{
	char first = 0;

	CHECK_INT(imported_label_length("x", 100000, &first),
		  RUNINFO_LABEL_MAX);
	CHECK_INT(first, 'x');
	CHECK_INT(imported_label_length("x", RUNINFO_LABEL_MAX, &first),
		  RUNINFO_LABEL_MAX);
	/* "a" and a two-byte letter, over again: byte 128 is mid-letter */
	CHECK_INT(imported_label_length("a\xc3\xa9", 999, &first),
		  RUNINFO_LABEL_MAX - 1);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"time_is_utc_with_milliseconds", time_is_utc_with_milliseconds},
	{"time_of_the_epoch_has_zero_milliseconds", time_of_the_epoch_has_zero_milliseconds},
	{"uuid_sets_version_4_and_the_rfc_variant", uuid_sets_version_4_and_the_rfc_variant},
	{"uuid_from_getrandom_is_v4_shaped_and_new_each_time", uuid_from_getrandom_is_v4_shaped_and_new_each_time},
	{"uuid_is_text_takes_uuids_only", uuid_is_text_takes_uuids_only},
	{"mask_hides_set_values_of_secret_keys", mask_hides_set_values_of_secret_keys},
	{"mask_keeps_set_values_of_other_keys", mask_keeps_set_values_of_other_keys},
	{"mask_hides_the_token_of_serve", mask_hides_the_token_of_serve},
	{"mask_hides_the_password_of_a_url", mask_hides_the_password_of_a_url},
	{"mask_hides_every_password_of_a_libpq_url", mask_hides_every_password_of_a_libpq_url},
	{"run_object_reads_back_what_was_written", run_object_reads_back_what_was_written},
	{"no_run_object_is_an_unknown_run", no_run_object_is_an_unknown_run},
	{"imported_label_is_cut_to_the_longest_label", imported_label_is_cut_to_the_longest_label},
};
/* clang-format on */

TEST_MAIN(tests)
