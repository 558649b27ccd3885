/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Suites: reading, validation against option tables, expansion into cases,
 * --set overrides and the messages a user reads. The registry is built by
 * hand from static plugin tables; nothing is loaded from disk.
 */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "suite/suite.h"

static const struct hb_option size_only[] = {
	{ .name = "size", .type = HB_OPT_SIZE, .def = "1M", .help = "buffer" },
	{ 0 },
};

static const struct hb_option gcm_options[] = {
	{ .name = "size", .type = HB_OPT_SIZE, .def = "1M", .help = "buffer" },
	{ .name = "provider", .type = HB_OPT_STRING, .def = "default" },
	{ 0 },
};

static const struct hb_option mem_options[] = {
	{ .name = "size",
	  .type = HB_OPT_SIZE,
	  .def = "256M",
	  .min = 1,
	  .max = INT64_C(1) << 40 },
	{ 0 },
};

static const char *const modes[] = { "sync", "async", NULL };

static const struct hb_option io_options[] = {
	{ .name = "dir",
	  .type = HB_OPT_STRING,
	  .def = NULL,
	  .help = "directory to write in" },
	{ .name = "direct", .type = HB_OPT_BOOL, .def = "no" },
	{ .name = "mode",
	  .type = HB_OPT_ENUM,
	  .def = "sync",
	  .choices = modes },
	{ .name = "sizes", .type = HB_OPT_SIZE_LIST, .def = "4K, 64K" },
	{ .name = "runtime",
	  .type = HB_OPT_DURATION,
	  .def = "1s",
	  .min = 100,
	  .max = 60000 },
	{ .name = "depth",
	  .type = HB_OPT_INT,
	  .def = "1",
	  .min = 1,
	  .max = 64 },
	{ 0 },
};

static const struct hb_option cmd_options[] = {
	{ .name = "command", .type = HB_OPT_STRING, .def = "true" },
	{ 0 },
};

static const struct hb_target openssl_targets[] = {
	{ .group = "crypto", .name = "aes-256-gcm", .options = gcm_options },
	{ .group = "crypto", .name = "aes-256-ctr", .options = size_only },
	{ 0 },
};

static const struct hb_target gcrypt_targets[] = {
	{ .group = "crypto", .name = "aes-256-gcm", .options = size_only },
	{ .group = "crypto", .name = "aes-256-ctr", .options = size_only },
	{ 0 },
};

static const struct hb_target mem_targets[] = {
	{ .group = "mem", .name = "memcpy", .options = mem_options },
	{ .group = "mem", .name = "memset", .options = mem_options },
	{ 0 },
};

static const struct hb_target io_targets[] = {
	{ .group = "io", .name = "fwrite", .options = io_options },
	{ 0 },
};

static const struct hb_target cmd_targets[] = {
	{ .group = "transfer",
	  .name = "command",
	  .options = cmd_options,
	  .flags = HB_TARGET_EXTRA_KEYS },
	{ 0 },
};

static const struct hb_plugin openssl = { .name = "openssl",
					  .targets = openssl_targets };
static const struct hb_plugin gcrypt = { .name = "gcrypt",
					 .targets = gcrypt_targets };
static const struct hb_plugin mem = { .name = "mem", .targets = mem_targets };
static const struct hb_plugin io = { .name = "io", .targets = io_targets };
static const struct hb_plugin cmd = { .name = "cmd", .targets = cmd_targets };

static struct plugin plugins[] = {
	{ .path = "openssl.so", .desc = &openssl },
	{ .path = "gcrypt.so", .desc = &gcrypt },
	{ .path = "mem.so", .desc = &mem },
	{ .path = "io.so", .desc = &io },
	{ .path = "cmd.so", .desc = &cmd },
};

static const struct registry reg = { .plugins = plugins, .n = 5 };

static struct refusal refusals[] = {
	{ .path = "/p/bad.so", .reason = "built for ABI 2.0, this is 1.0" },
};

/* The same plugins, plus one refused plugin file. */
static const struct registry reg_refused = {
	.plugins = plugins, .n = 5, .refused = refusals, .nrefused = 1
};

static char err[1024];

/* Load text as "t.ini" with the given --set texts (NULL-terminated). */
static int load_with(struct suite *s, const char *text,
		     const struct registry *r, const char *const *sets)
{
	struct strlist overrides = { 0 };
	int rc;

	err[0] = '\0';
	for (size_t i = 0; sets && sets[i]; i++)
		strlist_push(&overrides, sets[i]);
	rc = suite_load_buffer(s, "t.ini", text, strlen(text), &overrides, r,
			       err, sizeof(err));
	strlist_free(&overrides);
	return rc;
}

static int load(struct suite *s, const char *text)
{
	return load_with(s, text, &reg, NULL);
}

/* Load text that must fail; returns the message. */
static const char *load_error(const char *text)
{
	struct suite s;

	if (load(&s, text) == 0) {
		suite_free(&s);
		return "(loaded without error)";
	}
	return err;
}

static const char *set_error(const char *text, const char *set)
{
	const char *sets[] = { set, NULL };
	struct suite s;

	if (load_with(&s, text, &reg, sets) == 0) {
		suite_free(&s);
		return "(loaded without error)";
	}
	return err;
}

static const char memcpy_job[] = "[memcpy]\ntarget = mem/memcpy\n";

static int suite_reads_job_with_defaults(void)
{
	struct suite s;

	CHECK_INT(load(&s, memcpy_job), 0);
	CHECK_INT(s.njobs, 1);
	CHECK_INT(s.ncases, 1);
	CHECK_STR(s.jobs[0].label, "memcpy");
	CHECK_STR(s.jobs[0].file, "t.ini");
	CHECK_INT(s.jobs[0].line, 1);
	CHECK_STR(s.jobs[0].group, "mem");
	CHECK(s.jobs[0].section == NULL);
	CHECK_STR(s.cases[0].title, "memcpy");
	CHECK_STR(s.cases[0].target, "mem/memcpy");
	CHECK_STR(s.cases[0].backend, "mem");
	CHECK(s.cases[0].plugin == &plugins[2]);
	CHECK(s.cases[0].tdesc == &mem_targets[0]);
	CHECK(s.cases[0].reason == NULL);
	CHECK_INT(s.cases[0].parallel, 1);
	CHECK_NEAR(s.cases[0].duration, 1.0, 1e-12);
	CHECK_INT(s.cases[0].repetitions, 5);
	CHECK_INT(s.cases[0].warmup, 1);
	CHECK_NEAR(s.cases[0].timeout, 0, 1e-12);
	CHECK(s.cases[0].memory_limit == 0);
	CHECK_NEAR(s.cases[0].cpu_limit, 0, 1e-12);
	CHECK_STR(s.cases[0].unit, "Gbps");
	CHECK_STR(kvlist_get(&s.cases[0].params, "size"), "256M");
	CHECK_INT(s.cases[0].params.n, 1);
	suite_free(&s);
	return 0;
}

static int suite_reads_core_keys(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[m]\ntarget = mem/memcpy\nparallel = 8\n"
			   "duration = 500ms\nrepetitions = 3\nwarmup = 0\n"
			   "unit = GB/s\ntimeout = 1m\nsection = Memory\n"),
		  0);
	CHECK_INT(s.cases[0].parallel, 8);
	CHECK_NEAR(s.cases[0].duration, 0.5, 1e-12);
	CHECK_INT(s.cases[0].repetitions, 3);
	CHECK_INT(s.cases[0].warmup, 0);
	CHECK_NEAR(s.cases[0].timeout, 60, 1e-12);
	CHECK_STR(s.cases[0].unit, "GB/s");
	CHECK_STR(s.jobs[0].section, "Memory");
	/* Core keys have their own fields, never params. */
	CHECK(kvlist_get(&s.cases[0].params, "parallel") == NULL);
	suite_free(&s);
	return 0;
}

static int suite_reads_process_limits(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[m]\ntarget = mem/memcpy\nmemory_limit = 2G\n"
			   "cpu_limit = 90s\n[n]\ntarget = mem/memset\n"
			   "memory_limit = 0\ncpu_limit = 0\n"),
		  0);
	CHECK(s.cases[0].memory_limit == UINT64_C(2147483648));
	CHECK_NEAR(s.cases[0].cpu_limit, 90, 1e-12);
	CHECK(s.cases[1].memory_limit == 0);
	CHECK_NEAR(s.cases[1].cpu_limit, 0, 1e-12);
	suite_free(&s);
	CHECK_STR(load_error("[m]\ntarget = mem/memcpy\nmemory_limit = 2Q\n"),
		  "t.ini:3: [m] memory_limit: \"2Q\" is not a size (try 16M: "
		  "bytes, or K, M, G, T, P, E as 1G, 1GB, 1GiB or 1 GB: "
		  "powers of 1024)");
	return 0;
}

static int suite_reads_isolate_flag(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[m]\ntarget = mem/memcpy\n"
			   "[n]\ntarget = mem/memcpy\nisolate = no\n"),
		  0);
	CHECK_INT(s.cases[0].isolate, 1);
	CHECK_INT(s.cases[1].isolate, 0);
	suite_free(&s);
	CHECK_CONTAINS(load_error("[m]\ntarget = mem/memcpy\nisolate = some\n"),
		       "t.ini:3: [m] isolate: \"some\" is not a boolean");
	return 0;
}

static int suite_reads_fleet_key(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[m]\ntarget = mem/memcpy\n"
			   "[n]\ntarget = mem/memcpy\nfleet = sequential\n"),
		  0);
	CHECK_INT(s.cases[0].fleet_sequential, 0);
	CHECK_INT(s.cases[1].fleet_sequential, 1);
	suite_free(&s);
	CHECK_CONTAINS(load_error("[m]\ntarget = mem/memcpy\nfleet = all\n"),
		       "t.ini:3: [m] fleet: \"all\"");
	CHECK_CONTAINS(load_error("[m]\ntarget = mem/memcpy\n"
				  "fleet = together, sequential\n"),
		       "t.ini:3: [m] fleet:");
	return 0;
}

static int suite_global_gives_defaults(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[global]\nduration = 2s\nrepetitions = 3\n"
			   "[a]\ntarget = mem/memcpy\n"
			   "[b]\ntarget = mem/memset\nrepetitions = 7\n"),
		  0);
	CHECK_INT(s.ncases, 2);
	CHECK_NEAR(s.cases[0].duration, 2, 1e-12);
	CHECK_INT(s.cases[0].repetitions, 3);
	CHECK_NEAR(s.cases[1].duration, 2, 1e-12);
	CHECK_INT(s.cases[1].repetitions, 7);
	suite_free(&s);
	return 0;
}

static int suite_global_applies_to_jobs_after_it(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[a]\ntarget = mem/memcpy\n"
			   "[global]\nwarmup = 3\n"
			   "[b]\ntarget = mem/memset\n"),
		  0);
	CHECK_INT(s.cases[0].warmup, 1);
	CHECK_INT(s.cases[1].warmup, 3);
	suite_free(&s);
	return 0;
}

static int suite_later_global_replaces_earlier(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[global]\nwarmup = 2\n[global]\nwarmup = 3\n"
			   "[m]\ntarget = mem/memcpy\n"),
		  0);
	CHECK_INT(s.cases[0].warmup, 3);
	suite_free(&s);
	return 0;
}

static int suite_global_key_skips_targets_without_it(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[global]\nsize = 64K\n"
			   "[m]\ntarget = mem/memcpy\n"
			   "[w]\ntarget = io/fwrite\ndir = /tmp\n"),
		  0);
	CHECK_STR(kvlist_get(&s.cases[0].params, "size"), "64K");
	CHECK(kvlist_get(&s.cases[1].params, "size") == NULL);
	suite_free(&s);
	return 0;
}

static int suite_expands_lists_in_file_order(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[AES256/CTR]\ntarget = crypto/aes-256-ctr\n"
			   "size = 64K, 2M\nparallel = 1, 4\n"),
		  0);
	CHECK_INT(s.ncases, 4);
	CHECK_STR(s.cases[0].title, "AES256/CTR [64KB]");
	CHECK_STR(s.cases[1].title, "AES256/CTR [64KB, 4 parallels]");
	CHECK_STR(s.cases[2].title, "AES256/CTR [2MB]");
	CHECK_STR(s.cases[3].title, "AES256/CTR [2MB, 4 parallels]");
	CHECK_STR(kvlist_get(&s.cases[3].params, "size"), "2M");
	CHECK_INT(s.cases[3].parallel, 4);
	suite_free(&s);
	return 0;
}

static int suite_first_written_key_is_outermost(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[c]\ntarget = crypto/aes-256-ctr\n"
			   "parallel = 1, 4\nsize = 64K, 2M\n"),
		  0);
	CHECK_INT(s.ncases, 4);
	CHECK_INT(s.cases[0].parallel, 1);
	CHECK_STR(kvlist_get(&s.cases[0].params, "size"), "64K");
	CHECK_INT(s.cases[1].parallel, 1);
	CHECK_STR(kvlist_get(&s.cases[1].params, "size"), "2M");
	CHECK_INT(s.cases[2].parallel, 4);
	suite_free(&s);
	return 0;
}

static int suite_global_keys_come_before_job_keys(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[global]\nparallel = 1, 2\n"
			   "[c]\ntarget = crypto/aes-256-ctr\nsize = 1K, 2K\n"),
		  0);
	CHECK_INT(s.ncases, 4);
	CHECK_INT(s.cases[1].parallel, 1);
	CHECK_STR(kvlist_get(&s.cases[1].params, "size"), "2K");
	CHECK_INT(s.cases[2].parallel, 2);
	suite_free(&s);
	return 0;
}

static int suite_records_varying_keys(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[c]\ntarget = crypto/aes-256-ctr\nsize = 1K, 2K\n"
			   "duration = 1s\nparallel = 1, 2\n"),
		  0);
	CHECK_INT(s.jobs[0].varying.n, 2);
	CHECK_STR(s.jobs[0].varying.items[0], "size");
	CHECK_STR(s.jobs[0].varying.items[1], "parallel");
	suite_free(&s);
	return 0;
}

static int suite_title_shows_parallel_above_one(void)
{
	struct suite s;

	CHECK_INT(
		load(&s, "[memcpy]\ntarget = mem/memcpy\nparallel = 1, 4, 8\n"),
		0);
	CHECK_INT(s.ncases, 3);
	CHECK_STR(s.cases[0].title, "memcpy");
	CHECK_STR(s.cases[1].title, "memcpy [4 parallels]");
	CHECK_STR(s.cases[2].title, "memcpy [8 parallels]");
	suite_free(&s);
	CHECK_INT(load(&s, "[memcpy]\ntarget = mem/memcpy\nparallel = 4\n"), 0);
	CHECK_STR(s.cases[0].title, "memcpy [4 parallels]");
	suite_free(&s);
	return 0;
}

static int suite_title_names_other_varying_keys(void)
{
	struct suite s;

	/* the backend is not in the title: every report shows it beside */
	CHECK_INT(load(&s, "[AES256/GCM]\ntarget = crypto/aes-256-gcm\n"
			   "backend = openssl, gcrypt\nsize = 2M, 16M\n"
			   "provider = default, fips\n"),
		  0);
	CHECK_INT(s.ncases, 6);
	CHECK_STR(s.cases[0].title, "AES256/GCM [2MB, provider=default]");
	CHECK_STR(s.cases[5].title, "AES256/GCM [16MB]");
	CHECK_STR(s.cases[5].backend, "gcrypt");
	CHECK(s.cases[5].plugin == &plugins[1]);
	suite_free(&s);
	return 0;
}

static int suite_title_leaves_out_the_backend(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[AES256/GCM]\ntarget = crypto/aes-256-gcm\n"
			   "backend = openssl, gcrypt\nsize = 2M, 16M\n"),
		  0);
	CHECK_INT(s.ncases, 4);
	CHECK_STR(s.cases[0].title, "AES256/GCM [2MB]");
	CHECK_STR(s.cases[3].title, "AES256/GCM [16MB]");
	CHECK_STR(s.cases[3].backend, "gcrypt");
	CHECK(s.cases[3].plugin == &plugins[1]);
	suite_free(&s);
	return 0;
}

static int suite_params_follow_each_backend_table(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[g]\ntarget = crypto/aes-256-gcm\n"
			   "backend = openssl, gcrypt\nprovider = fips\n"),
		  0);
	CHECK_STR(kvlist_get(&s.cases[0].params, "provider"), "fips");
	CHECK_STR(kvlist_get(&s.cases[0].params, "size"), "1M");
	CHECK(kvlist_get(&s.cases[1].params, "provider") == NULL);
	suite_free(&s);
	return 0;
}

static int suite_list_of_one_backends_key_makes_no_copies(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[g]\ntarget = crypto/aes-256-gcm\n"
			   "backend = openssl, gcrypt\nprovider = a, b\n"),
		  0);
	CHECK_INT(s.ncases, 3);
	CHECK_STR(s.cases[0].title, "g [provider=a]");
	CHECK_STR(s.cases[0].backend, "openssl");
	CHECK_STR(s.cases[1].title, "g [provider=b]");
	CHECK_STR(s.cases[2].title, "g");
	CHECK_STR(s.cases[2].backend, "gcrypt");
	suite_free(&s);
	return 0;
}

static int suite_plugins_pin_picks_the_default_backend(void)
{
	struct suite s;

	/* openssl is first in load order; the pin makes gcrypt the default */
	CHECK_INT(load(&s, "[global]\nplugins = gcrypt, mem\n"
			   "[c]\ntarget = crypto/aes-256-ctr\n"
			   "[m]\ntarget = mem/memcpy\n"),
		  0);
	CHECK_INT(s.ncases, 2);
	CHECK_STR(s.cases[0].backend, "gcrypt");
	CHECK_STR(s.cases[1].backend, "mem");
	suite_free(&s);
	return 0;
}

static int suite_plugins_pin_refuses_other_backends(void)
{
	CHECK_STR(load_error("[global]\nplugins = gcrypt, mem\n"
			     "[c]\ntarget = crypto/aes-256-ctr\n"
			     "backend = openssl\n"),
		  "t.ini:2: [c] plugins: backend \"openssl\" is not one "
		  "this suite accepts (plugins = gcrypt, mem)");
	return 0;
}

static int suite_section_name_may_hold_brackets(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[AES256/CBC/HMAC[MD5]] ; as the reference\n"
			   "target = mem/memcpy\n"),
		  0);
	CHECK_STR(s.jobs[0].label, "AES256/CBC/HMAC[MD5]");
	suite_free(&s);
	CHECK_CONTAINS(load_error("[a] b\ntarget = mem/memcpy\n"),
		       "t.ini:1: text after the section header");
	return 0;
}

static int suite_repeated_section_is_new_job(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[AES256/CTR]\ntarget = crypto/aes-256-ctr\n"
			   "parallel = 4\n"
			   "[AES256/CTR]\ntarget = crypto/aes-256-ctr\n"
			   "parallel = 8\n"),
		  0);
	CHECK_INT(s.njobs, 2);
	CHECK_INT(s.ncases, 2);
	CHECK_INT(s.jobs[1].line, 4);
	CHECK_INT(s.cases[1].job, 1);
	CHECK_STR(s.cases[1].title, "AES256/CTR [8 parallels]");
	suite_free(&s);
	return 0;
}

static int suite_size_list_option_is_not_expanded(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[w]\ntarget = io/fwrite\ndir = /tmp\n"
			   "sizes = 4K, 64K, 1M\n"),
		  0);
	CHECK_INT(s.ncases, 1);
	CHECK_STR(kvlist_get(&s.cases[0].params, "sizes"), "4K, 64K, 1M");
	CHECK_INT(s.jobs[0].varying.n, 0);
	suite_free(&s);
	return 0;
}

static int suite_fills_option_defaults(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[w]\ntarget = io/fwrite\ndir = /tmp\n"), 0);
	CHECK_STR(kvlist_get(&s.cases[0].params, "dir"), "/tmp");
	CHECK_STR(kvlist_get(&s.cases[0].params, "direct"), "no");
	CHECK_STR(kvlist_get(&s.cases[0].params, "mode"), "sync");
	CHECK_STR(kvlist_get(&s.cases[0].params, "sizes"), "4K, 64K");
	CHECK_STR(kvlist_get(&s.cases[0].params, "runtime"), "1s");
	CHECK_STR(kvlist_get(&s.cases[0].params, "depth"), "1");
	suite_free(&s);
	return 0;
}

static int suite_accepts_values_of_every_type(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[w]\ntarget = io/fwrite\ndir = /tmp\n"
			   "direct = yes\nmode = async\nruntime = 2s\n"
			   "depth = 64\n"),
		  0);
	CHECK_STR(kvlist_get(&s.cases[0].params, "direct"), "yes");
	CHECK_STR(kvlist_get(&s.cases[0].params, "depth"), "64");
	suite_free(&s);
	return 0;
}

static int suite_extra_keys_target_takes_unknown_keys(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[scp]\ntarget = transfer/command\n"
			   "command = scp x y\ncipher = aes128-ctr\n"),
		  0);
	CHECK_STR(kvlist_get(&s.cases[0].params, "cipher"), "aes128-ctr");
	CHECK_STR(kvlist_get(&s.cases[0].params, "command"), "scp x y");
	suite_free(&s);
	return 0;
}

static int suite_quoted_item_keeps_commas(void)
{
	struct suite s;

	CHECK_INT(load(&s, "[g]\ntarget = crypto/aes-256-gcm\n"
			   "provider = \"provider=default,fips=no\", legacy\n"),
		  0);
	CHECK_INT(s.ncases, 2);
	CHECK_STR(kvlist_get(&s.cases[0].params, "provider"),
		  "provider=default,fips=no");
	CHECK_STR(kvlist_get(&s.cases[1].params, "provider"), "legacy");
	suite_free(&s);
	return 0;
}

static int suite_strips_comments(void)
{
	struct suite s;

	CHECK_INT(load(&s, "; a suite\n# also a comment\n"
			   "[m]   ; the job\ntarget = mem/memcpy ; inline\n"
			   "size = 64K ; inline\n"),
		  0);
	CHECK_STR(kvlist_get(&s.cases[0].params, "size"), "64K");
	suite_free(&s);
	return 0;
}

static int suite_reads_bom_and_crlf(void)
{
	struct suite s;

	CHECK_INT(load(&s, "\xef\xbb\xbf[m]\r\ntarget = mem/memcpy\r\n"
			   "size = 64K\r\n"),
		  0);
	CHECK_STR(s.jobs[0].label, "m");
	CHECK_STR(kvlist_get(&s.cases[0].params, "size"), "64K");
	suite_free(&s);
	return 0;
}

static int suite_keeps_long_section_names_whole(void)
{
	static const char label[] =
		"a label much longer than fifty characters, as some have";
	char text[256];
	struct suite s;

	snprintf(text, sizeof(text), "[%s]\ntarget = mem/memcpy\n", label);
	CHECK_INT(load(&s, text), 0);
	CHECK_STR(s.jobs[0].label, label);
	suite_free(&s);
	return 0;
}

static int suite_accepts_line_of_200_chars(void)
{
	char text[512], value[256];
	struct suite s;

	/* "command = " is 10 characters: the line is exactly 200. */
	memset(value, 'x', 190);
	value[190] = '\0';
	snprintf(text, sizeof(text),
		 "[c]\ntarget = transfer/command\ncommand = %s\n", value);
	CHECK_INT(load(&s, text), 0);
	CHECK_STR(kvlist_get(&s.cases[0].params, "command"), value);
	suite_free(&s);
	return 0;
}

static int suite_rejects_line_over_200_chars(void)
{
	char text[512], value[256];

	memset(value, 'x', 191);
	value[191] = '\0';
	snprintf(text, sizeof(text),
		 "[c]\ntarget = transfer/command\ncommand = %s\n", value);
	CHECK_STR(load_error(text),
		  "t.ini:3: line too long (max 200 characters)");
	return 0;
}

static int suite_rejects_line_of_200_chars_without_blanks(void)
{
	char text[512], value[256];

	/* inih keeps 199 characters; only blanks around '=' can be spared. */
	memset(value, 'x', 192);
	value[192] = '\0';
	snprintf(text, sizeof(text),
		 "[c]\ntarget = transfer/command\ncommand=%s\n", value);
	CHECK_STR(load_error(text), "t.ini:3: line too long (max 199 "
				    "characters without blanks around '=')");
	return 0;
}

static int suite_rejects_bad_size_naming_file_line_section_key(void)
{
	CHECK_STR(load_error("[global]\nduration = 1s\n\n[AES256/GCM]\n"
			     "target = crypto/aes-256-gcm\nsize = 16Q\n"),
		  "t.ini:6: [AES256/GCM] size: \"16Q\" is not a size (try 16M: "
		  "bytes, or K, M, G, T, P, E as 1G, 1GB, 1GiB or 1 GB: "
		  "powers of 1024)");
	return 0;
}

static int suite_rejects_bad_item_in_list(void)
{
	CHECK_STR(load_error("[m]\ntarget = mem/memcpy\nsize = 64K, 1X, 2M\n"),
		  "t.ini:3: [m] size: \"1X\" is not a size (try 16M: "
		  "bytes, or K, M, G, T, P, E as 1G, 1GB, 1GiB or 1 GB: "
		  "powers of 1024)");
	CHECK_STR(load_error("[m]\ntarget = mem/memcpy\nsize = 64K,,2M\n"),
		  "t.ini:3: [m] size: \"64K,,2M\" has an empty list item");
	return 0;
}

static int suite_rejects_negative_size(void)
{
	CHECK_CONTAINS(load_error("[m]\ntarget = mem/memcpy\nsize = -1\n"),
		       "t.ini:3: [m] size: \"-1\" is not a size");
	return 0;
}

static int suite_rejects_overflowing_size(void)
{
	CHECK_STR(load_error("[m]\ntarget = mem/memcpy\n"
			     "size = 99999999999999999999\n"),
		  "t.ini:3: [m] size: \"99999999999999999999\" is too large "
		  "for a size");
	return 0;
}

static int suite_rejects_size_out_of_option_bounds(void)
{
	CHECK_STR(load_error("[m]\ntarget = mem/memcpy\nsize = 2T\n"),
		  "t.ini:3: [m] size: \"2T\" is out of range (1..1T)");
	CHECK_STR(load_error("[m]\ntarget = mem/memcpy\nsize = 0\n"),
		  "t.ini:3: [m] size: \"0\" is out of range (1..1T)");
	return 0;
}

static int suite_rejects_parallel_out_of_range(void)
{
	CHECK_STR(load_error("[m]\ntarget = mem/memcpy\nparallel = 0\n"),
		  "t.ini:3: [m] parallel: \"0\" is out of range (1..1024)");
	CHECK_STR(
		load_error("[m]\ntarget = mem/memcpy\nparallel = 1, 100000\n"),
		"t.ini:3: [m] parallel: \"100000\" is out of range (1..1024)");
	CHECK_STR(load_error("[m]\ntarget = mem/memcpy\nparallel = four\n"),
		  "t.ini:3: [m] parallel: \"four\" is not an integer");
	return 0;
}

static int suite_rejects_bad_duration(void)
{
	CHECK_STR(load_error("[m]\ntarget = mem/memcpy\nduration = 0\n"),
		  "t.ini:3: [m] duration: \"0\" is not a duration above zero");
	CHECK_STR(load_error("[m]\ntarget = mem/memcpy\nduration = -1s\n"),
		  "t.ini:3: [m] duration: \"-1s\" is not a duration (try "
		  "500ms, 2s or 1m)");
	CHECK_STR(load_error("[m]\ntarget = mem/memcpy\nduration = 2h\n"),
		  "t.ini:3: [m] duration: \"2h\" is out of range (at most 1h)");
	return 0;
}

static int suite_rejects_zero_repetitions(void)
{
	CHECK_STR(load_error("[m]\ntarget = mem/memcpy\nrepetitions = 0\n"),
		  "t.ini:3: [m] repetitions: \"0\" is out of range (1..10000)");
	return 0;
}

static int suite_rejects_unknown_unit(void)
{
	CHECK_CONTAINS(load_error("[m]\ntarget = mem/memcpy\nunit = gbit\n"),
		       "t.ini:3: [m] unit: \"gbit\" is not a unit (one of: "
		       "Gbps,");
	return 0;
}

static int suite_rejects_enum_outside_choices(void)
{
	CHECK_STR(load_error("[w]\ntarget = io/fwrite\ndir = /tmp\n"
			     "mode = fast\n"),
		  "t.ini:4: [w] mode: \"fast\" is not one of: sync, async");
	return 0;
}

static int suite_rejects_option_out_of_bounds(void)
{
	CHECK_STR(load_error("[w]\ntarget = io/fwrite\ndir = /tmp\n"
			     "depth = 100\n"),
		  "t.ini:4: [w] depth: \"100\" is out of range (1..64)");
	CHECK_STR(load_error("[w]\ntarget = io/fwrite\ndir = /tmp\n"
			     "runtime = 2m\n"),
		  "t.ini:4: [w] runtime: \"2m\" is out of range (100ms..1m)");
	CHECK_STR(
		load_error("[w]\ntarget = io/fwrite\ndir = /tmp\n"
			   "direct = maybe\n"),
		"t.ini:4: [w] direct: \"maybe\" is not a boolean (true/false, "
		"yes/no, on/off, 1/0)");
	return 0;
}

static int suite_unknown_key_suggests_nearest(void)
{
	CHECK_STR(load_error("[m]\ntarget = mem/memcpy\nsise = 1M\n"),
		  "t.ini:3: [m] sise: unknown key for mem/memcpy with the "
		  "default backend mem (did you mean \"size\"?)");
	CHECK_CONTAINS(load_error("[m]\ntarget = mem/memcpy\nparalel = 2\n"),
		       "(did you mean \"parallel\"?)");
	return 0;
}

static int suite_unknown_key_without_close_match(void)
{
	CHECK_STR(load_error("[m]\ntarget = mem/memcpy\nblocksz = 1M\n"),
		  "t.ini:3: [m] blocksz: unknown key for mem/memcpy with the "
		  "default backend mem (`hostbench describe` lists its "
		  "keys)");
	return 0;
}

static int suite_unknown_key_names_the_backends_that_take_it(void)
{
	CHECK_STR(load_error("[g]\ntarget = crypto/aes-256-gcm\n"
			     "backend = gcrypt\nprovider = fips\n"),
		  "t.ini:4: [g] provider: unknown key for crypto/aes-256-gcm "
		  "with backend gcrypt; backends that take it: openssl "
		  "(backend = openssl)");
	return 0;
}

/* The plugins of reg in another load order, and a vendor's before them. */
static const struct hb_plugin vendor = { .name = "aaa-accel",
					 .targets = gcrypt_targets };
static struct plugin reordered[] = {
	{ .path = "a.so", .desc = &vendor },
	{ .path = "crypto_gcrypt.so", .desc = &gcrypt },
	{ .path = "crypto_openssl.so", .desc = &openssl },
	{ .path = "mem.so", .desc = &mem },
};
static const struct registry reg_reordered = { .plugins = reordered, .n = 4 };

static int suite_default_backend_ignores_load_order(void)
{
	struct suite s;

	CHECK_INT(load_with(&s, "[g]\ntarget = crypto/aes-256-gcm\n",
			    &reg_reordered, NULL),
		  0);
	CHECK_STR(s.cases[0].backend, "openssl");
	CHECK_INT(s.cases[0].backend_chosen, 1);
	suite_free(&s);
	return 0;
}

static int suite_backend_star_runs_every_backend_in_preference_order(void)
{
	struct suite s;

	CHECK_INT(load_with(&s,
			    "[g]\ntarget = crypto/aes-256-gcm\nbackend = *\n",
			    &reg_reordered, NULL),
		  0);
	CHECK_INT(s.ncases, 3);
	CHECK_STR(s.cases[0].backend, "openssl");
	CHECK_STR(s.cases[1].backend, "gcrypt");
	CHECK_STR(s.cases[2].backend, "aaa-accel");
	CHECK_INT(s.cases[0].backend_chosen, 0);
	suite_free(&s);
	return 0;
}

static int suite_unknown_target_suggests_nearest(void)
{
	CHECK_STR(load_error("[g]\ntarget = crypto/aes-256-gmc\n"),
		  "t.ini:2: [g] target: no loaded plugin offers "
		  "\"crypto/aes-256-gmc\" (did you mean "
		  "\"crypto/aes-256-gcm\"?)");
	CHECK_CONTAINS(load_error("[m]\ntarget = memcpy\n"),
		       "(did you mean \"mem/memcpy\"?)");
	CHECK_CONTAINS(load_error("[m]\ntarget = nothing/like/it\n"),
		       "(`hostbench list` shows the targets)");
	return 0;
}

static int suite_unknown_backend_lists_offering_backends(void)
{
	CHECK_STR(load_error("[g]\ntarget = crypto/aes-256-gcm\n"
			     "backend = openssl, nss\n"),
		  "t.ini:3: [g] backend: \"nss\" does not offer "
		  "crypto/aes-256-gcm (backends that do: openssl, gcrypt)");
	return 0;
}

static int suite_unknown_backend_suggests_the_nearest(void)
{
	CHECK_STR(load_error("[g]\ntarget = crypto/aes-256-gcm\n"
			     "backend = gcrpyt\n"),
		  "t.ini:3: [g] backend: \"gcrpyt\" does not offer "
		  "crypto/aes-256-gcm (did you mean \"gcrypt\"?) (backends "
		  "that do: openssl, gcrypt)");
	return 0;
}

static int suite_rejects_job_without_target(void)
{
	CHECK_STR(load_error("[global]\nsize = 1M\n\n[m]\nsize = 2M\n"),
		  "t.ini:4: [m] target: missing (every job needs target = "
		  "GROUP/NAME)");
	return 0;
}

static int suite_rejects_target_list(void)
{
	CHECK_CONTAINS(load_error("[m]\ntarget = mem/memcpy, mem/memset\n"),
		       "t.ini:2: [m] target: \"mem/memcpy, mem/memset\": one "
		       "target per job");
	return 0;
}

static int suite_rejects_missing_required_option(void)
{
	CHECK_STR(load_error("[w]\ntarget = io/fwrite\n"),
		  "t.ini:1: [w] dir: missing (io/fwrite from io needs it: "
		  "directory to write in)");
	return 0;
}

static int suite_rejects_key_given_twice(void)
{
	CHECK_STR(load_error("[m]\ntarget = mem/memcpy\nsize = 1M\n"
			     "size = 2M\n"),
		  "t.ini:4: [m] size: given twice in this section (first on "
		  "line 3)");
	return 0;
}

static int suite_rejects_key_outside_section(void)
{
	CHECK_STR(load_error("size = 1M\n[m]\ntarget = mem/memcpy\n"),
		  "t.ini:1: size: key outside a section (put it under "
		  "[global] or a [job])");
	return 0;
}

static int suite_rejects_malformed_line(void)
{
	CHECK_STR(load_error("[m]\ntarget = mem/memcpy\njust some words\n"),
		  "t.ini:3: expected \"KEY = VALUE\", \"[SECTION]\" or a "
		  "comment");
	CHECK_STR(load_error("[m\ntarget = mem/memcpy\n"),
		  "t.ini:1: section header without ']'");
	CHECK_STR(load_error("[]\ntarget = mem/memcpy\n"),
		  "t.ini:1: empty section name");
	CHECK_STR(load_error("[m] x\ntarget = mem/memcpy\n"),
		  "t.ini:1: text after the section header");
	return 0;
}

static int suite_rejects_non_ini_text(void)
{
	CHECK_STR(load_error("{\"schema_version\": 1,\n \"results\": []}\n"),
		  "t.ini:1: expected \"KEY = VALUE\", \"[SECTION]\" or a "
		  "comment");
	return 0;
}

static int suite_rejects_binary_data(void)
{
	static const char elf[] = "\x7f"
				  "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\n[m]\n";
	struct suite s;

	CHECK_INT(suite_load_buffer(&s, "t.ini", elf, sizeof(elf) - 1, NULL,
				    &reg, err, sizeof(err)),
		  -EINVAL);
	CHECK_STR(err, "t.ini:1: not an INI file (binary data)");
	return 0;
}

static int suite_rejects_empty_suite(void)
{
	CHECK_STR(load_error(""),
		  "t.ini: no jobs (a job is a [section] with a target)");
	CHECK_STR(load_error("; nothing\n\n"),
		  "t.ini: no jobs (a job is a [section] with a target)");
	CHECK_STR(load_error("[global]\nduration = 1s\n"),
		  "t.ini: no jobs (a job is a [section] with a target)");
	return 0;
}

static int suite_rejects_unused_global_key(void)
{
	CHECK_STR(load_error("[global]\nsise = 1M\n[m]\ntarget = mem/memcpy\n"),
		  "t.ini:2: [global] sise: no job after it takes this key "
		  "(did you mean \"size\"?)");
	return 0;
}

static int suite_rejects_too_many_cases(void)
{
	CHECK_CONTAINS(
		load_error("[m]\ntarget = mem/memcpy\n"
			   "parallel = 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,"
			   "17,18,19,20,21,22,23,24,25,26,27,28,29,30\n"
			   "repetitions = 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,"
			   "16,17,18,19,20,21,22,23,24,25,26,27,28,29,30\n"
			   "warmup = 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,"
			   "17,18,19,20,21,22,23,24,25,26,27,28,29,30\n"
			   "size = 1K,2K,4K,8K\n"),
		"t.ini:1: [m] the lists expand into too many cases");
	return 0;
}

static int suite_rejects_missing_file(void)
{
	const char *files[] = { "/nonexistent/lab.ini" };
	struct suite s;

	CHECK_INT(suite_load(&s, files, 1, NULL, &reg, err, sizeof(err)),
		  -EINVAL);
	CHECK_STR(err, "/nonexistent/lab.ini: cannot open: No such file or "
		       "directory");
	CHECK_INT(s.ncases, 0);
	return 0;
}

static int suite_rejects_directory(void)
{
	const char *files[] = { HB_TEST_SOURCE_DIR };
	struct suite s;

	CHECK_INT(suite_load(&s, files, 1, NULL, &reg, err, sizeof(err)),
		  -EINVAL);
	CHECK_CONTAINS(err, "cannot read: Is a directory");
	return 0;
}

static int suite_loads_files_in_order_with_own_globals(void)
{
	const char *files[] = { HB_TEST_SOURCE_DIR "/fixtures/suites/first.ini",
				HB_TEST_SOURCE_DIR
				"/fixtures/suites/second.ini" };
	struct suite s;

	CHECK_INT(suite_load(&s, files, 2, NULL, &reg, err, sizeof(err)), 0);
	CHECK_INT(s.njobs, 2);
	CHECK_STR(s.cases[0].title, "memcpy");
	CHECK_NEAR(s.cases[0].duration, 2, 1e-12);
	CHECK_STR(s.cases[1].title, "memset");
	CHECK_NEAR(s.cases[1].duration, 1, 1e-12);
	CHECK_CONTAINS(s.jobs[1].file, "second.ini");
	CHECK_INT(s.jobs[1].line, 2);
	suite_free(&s);
	return 0;
}

static int suite_set_overrides_section_key(void)
{
	const char *sets[] = { "AES256/GCM.size=2M", NULL };
	struct suite s;

	CHECK_INT(load_with(&s,
			    "[AES256/GCM]\ntarget = crypto/aes-256-gcm\n"
			    "size = 1M\n[AES256/CTR]\n"
			    "target = crypto/aes-256-ctr\nsize = 1M\n",
			    &reg, sets),
		  0);
	CHECK_STR(kvlist_get(&s.cases[0].params, "size"), "2M");
	CHECK_STR(kvlist_get(&s.cases[1].params, "size"), "1M");
	suite_free(&s);
	return 0;
}

static int suite_set_splits_section_at_last_dot(void)
{
	const char *sets[] = { "v1.2/AES.size=4K", NULL };
	struct suite s;

	CHECK_INT(load_with(&s, "[v1.2/AES]\ntarget = crypto/aes-256-ctr\n",
			    &reg, sets),
		  0);
	CHECK_STR(kvlist_get(&s.cases[0].params, "size"), "4K");
	suite_free(&s);
	return 0;
}

static int suite_set_key_applies_to_jobs_that_take_it(void)
{
	const char *sets[] = { "size=64K", "duration=3s", NULL };
	struct suite s;

	CHECK_INT(load_with(&s,
			    "[m]\ntarget = mem/memcpy\n"
			    "[w]\ntarget = io/fwrite\ndir = /tmp\n",
			    &reg, sets),
		  0);
	CHECK_STR(kvlist_get(&s.cases[0].params, "size"), "64K");
	CHECK(kvlist_get(&s.cases[1].params, "size") == NULL);
	CHECK_NEAR(s.cases[0].duration, 3, 1e-12);
	CHECK_NEAR(s.cases[1].duration, 3, 1e-12);
	suite_free(&s);
	return 0;
}

static int suite_set_keeps_file_order(void)
{
	const char *sets[] = { "parallel=1,2", "size=4K,8K", NULL };
	struct suite s;

	CHECK_INT(load_with(&s,
			    "[c]\ntarget = crypto/aes-256-ctr\n"
			    "size = 64K\nparallel = 4\n",
			    &reg, sets),
		  0);
	CHECK_INT(s.ncases, 4);
	CHECK_STR(s.cases[0].title, "c [4KB]");
	CHECK_STR(s.cases[1].title, "c [4KB, 2 parallels]");
	CHECK_STR(s.cases[2].title, "c [8KB]");
	suite_free(&s);
	return 0;
}

static int suite_set_value_blanks_do_not_count(void)
{
	const char *sets[] = { "unit= GB/s ", "memcpy.section = Memory", NULL };
	struct suite s;

	CHECK_STR(load_with(&s, memcpy_job, &reg, sets) ? err : "", "");
	CHECK_STR(s.cases[0].unit, "GB/s");
	CHECK_STR(s.jobs[0].section, "Memory");
	suite_free(&s);
	return 0;
}

static int suite_set_can_change_target(void)
{
	const char *sets[] = { "memcpy.target=mem/memset", NULL };
	struct suite s;

	CHECK_STR(load_with(&s, memcpy_job, &reg, sets) ? err : "", "");
	CHECK_STR(s.cases[0].target, "mem/memset");
	suite_free(&s);
	return 0;
}

static int suite_set_unknown_section_is_error(void)
{
	CHECK_STR(set_error(memcpy_job, "memcyp.size=1M"),
		  "--set memcyp.size=1M: no job [memcyp] in the suite (did "
		  "you mean \"memcpy\"?)");
	return 0;
}

static int suite_set_key_no_job_takes_is_error(void)
{
	CHECK_STR(set_error(memcpy_job, "sise=1M"),
		  "--set sise=1M: no job takes the key \"sise\" (did you mean "
		  "\"size\"?)");
	CHECK_STR(set_error(memcpy_job, "memcpy.sise=1M"),
		  "--set memcpy.sise=1M: [memcpy] sise: unknown key (did you "
		  "mean \"size\"?)");
	return 0;
}

static int suite_set_bad_value_names_set(void)
{
	CHECK_STR(set_error(memcpy_job, "size=16Q"),
		  "--set size=16Q: [memcpy] size: \"16Q\" is not a size (try "
		  "16M: bytes, or K, M, G, T, P, E as 1G, 1GB, 1GiB or 1 GB: "
		  "powers of 1024)");
	return 0;
}

static int suite_set_without_equals_is_error(void)
{
	CHECK_STR(set_error(memcpy_job, "size"),
		  "--set size: expected KEY=VALUE or SECTION.KEY=VALUE");
	CHECK_STR(set_error(memcpy_job, "=1M"),
		  "--set =1M: expected KEY=VALUE or SECTION.KEY=VALUE");
	return 0;
}

static int suite_refused_plugin_makes_failing_case(void)
{
	struct suite s;

	CHECK_INT(load_with(&s,
			    "[g]\ntarget = crypto/aes-256-gcm\n"
			    "backend = qat, openssl\nsize = 1M\n"
			    "[m]\ntarget = mem/memcpy\n",
			    &reg_refused, NULL),
		  0);
	CHECK_INT(s.ncases, 3);
	CHECK(s.cases[0].plugin == NULL);
	CHECK(s.cases[0].tdesc == NULL);
	CHECK_STR(s.cases[0].backend, "qat");
	CHECK_STR(s.cases[0].reason,
		  "no loaded backend \"qat\" offers crypto/aes-256-gcm "
		  "(refused plugins: /p/bad.so: built for ABI 2.0, this is "
		  "1.0)");
	CHECK_STR(kvlist_get(&s.cases[0].params, "size"), "1M");
	CHECK(s.cases[1].plugin == &plugins[0]);
	CHECK(s.cases[2].reason == NULL);
	suite_free(&s);
	return 0;
}

static int suite_refused_plugin_unknown_target_still_loads(void)
{
	struct suite s;

	CHECK_INT(load_with(&s, "[q]\ntarget = accel/qat-gcm\nqueues = 4\n",
			    &reg_refused, NULL),
		  0);
	CHECK_INT(s.ncases, 1);
	CHECK(s.cases[0].plugin == NULL);
	CHECK_STR(s.jobs[0].group, "accel");
	CHECK_STR(kvlist_get(&s.cases[0].params, "queues"), "4");
	CHECK_CONTAINS(s.cases[0].reason,
		       "no loaded plugin offers accel/qat-gcm (refused "
		       "plugins: /p/bad.so:");
	suite_free(&s);
	return 0;
}

/* One line per test: CTest registers each line by its name. */
/* clang-format off */
static const struct test tests[] = {
	{"suite_reads_job_with_defaults", suite_reads_job_with_defaults},
	{"suite_reads_core_keys", suite_reads_core_keys},
	{"suite_reads_process_limits", suite_reads_process_limits},
	{"suite_reads_isolate_flag", suite_reads_isolate_flag},
	{"suite_reads_fleet_key", suite_reads_fleet_key},
	{"suite_global_gives_defaults", suite_global_gives_defaults},
	{"suite_global_applies_to_jobs_after_it", suite_global_applies_to_jobs_after_it},
	{"suite_later_global_replaces_earlier", suite_later_global_replaces_earlier},
	{"suite_global_key_skips_targets_without_it", suite_global_key_skips_targets_without_it},
	{"suite_expands_lists_in_file_order", suite_expands_lists_in_file_order},
	{"suite_first_written_key_is_outermost", suite_first_written_key_is_outermost},
	{"suite_global_keys_come_before_job_keys", suite_global_keys_come_before_job_keys},
	{"suite_records_varying_keys", suite_records_varying_keys},
	{"suite_title_shows_parallel_above_one", suite_title_shows_parallel_above_one},
	{"suite_title_names_other_varying_keys", suite_title_names_other_varying_keys},
	{"suite_title_leaves_out_the_backend", suite_title_leaves_out_the_backend},
	{"suite_params_follow_each_backend_table", suite_params_follow_each_backend_table},
	{"suite_list_of_one_backends_key_makes_no_copies", suite_list_of_one_backends_key_makes_no_copies},
	{"suite_plugins_pin_picks_the_default_backend", suite_plugins_pin_picks_the_default_backend},
	{"suite_unknown_key_names_the_backends_that_take_it", suite_unknown_key_names_the_backends_that_take_it},
	{"suite_default_backend_ignores_load_order", suite_default_backend_ignores_load_order},
	{"suite_backend_star_runs_every_backend_in_preference_order", suite_backend_star_runs_every_backend_in_preference_order},
	{"suite_plugins_pin_refuses_other_backends", suite_plugins_pin_refuses_other_backends},
	{"suite_section_name_may_hold_brackets", suite_section_name_may_hold_brackets},
	{"suite_repeated_section_is_new_job", suite_repeated_section_is_new_job},
	{"suite_size_list_option_is_not_expanded", suite_size_list_option_is_not_expanded},
	{"suite_fills_option_defaults", suite_fills_option_defaults},
	{"suite_accepts_values_of_every_type", suite_accepts_values_of_every_type},
	{"suite_extra_keys_target_takes_unknown_keys", suite_extra_keys_target_takes_unknown_keys},
	{"suite_quoted_item_keeps_commas", suite_quoted_item_keeps_commas},
	{"suite_strips_comments", suite_strips_comments},
	{"suite_reads_bom_and_crlf", suite_reads_bom_and_crlf},
	{"suite_keeps_long_section_names_whole", suite_keeps_long_section_names_whole},
	{"suite_accepts_line_of_200_chars", suite_accepts_line_of_200_chars},
	{"suite_rejects_line_over_200_chars", suite_rejects_line_over_200_chars},
	{"suite_rejects_line_of_200_chars_without_blanks", suite_rejects_line_of_200_chars_without_blanks},
	{"suite_rejects_bad_size_naming_file_line_section_key", suite_rejects_bad_size_naming_file_line_section_key},
	{"suite_rejects_bad_item_in_list", suite_rejects_bad_item_in_list},
	{"suite_rejects_negative_size", suite_rejects_negative_size},
	{"suite_rejects_overflowing_size", suite_rejects_overflowing_size},
	{"suite_rejects_size_out_of_option_bounds", suite_rejects_size_out_of_option_bounds},
	{"suite_rejects_parallel_out_of_range", suite_rejects_parallel_out_of_range},
	{"suite_rejects_bad_duration", suite_rejects_bad_duration},
	{"suite_rejects_zero_repetitions", suite_rejects_zero_repetitions},
	{"suite_rejects_unknown_unit", suite_rejects_unknown_unit},
	{"suite_rejects_enum_outside_choices", suite_rejects_enum_outside_choices},
	{"suite_rejects_option_out_of_bounds", suite_rejects_option_out_of_bounds},
	{"suite_unknown_key_suggests_nearest", suite_unknown_key_suggests_nearest},
	{"suite_unknown_key_without_close_match", suite_unknown_key_without_close_match},
	{"suite_unknown_target_suggests_nearest", suite_unknown_target_suggests_nearest},
	{"suite_unknown_backend_lists_offering_backends", suite_unknown_backend_lists_offering_backends},
	{"suite_unknown_backend_suggests_the_nearest", suite_unknown_backend_suggests_the_nearest},
	{"suite_rejects_job_without_target", suite_rejects_job_without_target},
	{"suite_rejects_target_list", suite_rejects_target_list},
	{"suite_rejects_missing_required_option", suite_rejects_missing_required_option},
	{"suite_rejects_key_given_twice", suite_rejects_key_given_twice},
	{"suite_rejects_key_outside_section", suite_rejects_key_outside_section},
	{"suite_rejects_malformed_line", suite_rejects_malformed_line},
	{"suite_rejects_non_ini_text", suite_rejects_non_ini_text},
	{"suite_rejects_binary_data", suite_rejects_binary_data},
	{"suite_rejects_empty_suite", suite_rejects_empty_suite},
	{"suite_rejects_unused_global_key", suite_rejects_unused_global_key},
	{"suite_rejects_too_many_cases", suite_rejects_too_many_cases},
	{"suite_rejects_missing_file", suite_rejects_missing_file},
	{"suite_rejects_directory", suite_rejects_directory},
	{"suite_loads_files_in_order_with_own_globals", suite_loads_files_in_order_with_own_globals},
	{"suite_set_overrides_section_key", suite_set_overrides_section_key},
	{"suite_set_splits_section_at_last_dot", suite_set_splits_section_at_last_dot},
	{"suite_set_key_applies_to_jobs_that_take_it", suite_set_key_applies_to_jobs_that_take_it},
	{"suite_set_keeps_file_order", suite_set_keeps_file_order},
	{"suite_set_value_blanks_do_not_count", suite_set_value_blanks_do_not_count},
	{"suite_set_can_change_target", suite_set_can_change_target},
	{"suite_set_unknown_section_is_error", suite_set_unknown_section_is_error},
	{"suite_set_key_no_job_takes_is_error", suite_set_key_no_job_takes_is_error},
	{"suite_set_bad_value_names_set", suite_set_bad_value_names_set},
	{"suite_set_without_equals_is_error", suite_set_without_equals_is_error},
	{"suite_refused_plugin_makes_failing_case", suite_refused_plugin_makes_failing_case},
	{"suite_refused_plugin_unknown_target_still_loads", suite_refused_plugin_unknown_target_still_loads},
};
/* clang-format on */

TEST_MAIN(tests)
