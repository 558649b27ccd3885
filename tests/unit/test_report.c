/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The four report formats over one hand-built report: a memcpy line, a job
 * with two backends (one failed), a composite, a skipped case, a job that
 * varies only in size and one that varies only in dir.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include <jansson.h>

#include "check.h"
#include "report/report.h"

static const struct hb_option crypto_opts[] = {
	{ .name = "size", .type = HB_OPT_SIZE },
	{ .name = NULL },
};

static const struct hb_option io_opts[] = {
	{ .name = "dir", .type = HB_OPT_STRING },
	{ .name = "bs", .type = HB_OPT_SIZE },
	{ .name = "direct", .type = HB_OPT_BOOL },
	{ .name = "files", .type = HB_OPT_INT },
	{ .name = "interval", .type = HB_OPT_DURATION },
	{ .name = NULL },
};

static const struct hb_target t_memcpy = { .group = "mem",
					   .name = "memcpy",
					   .work = HB_WORK_BYTES };
static const struct hb_target t_gcm = { .group = "crypto",
					.name = "aes-256-gcm",
					.work = HB_WORK_BYTES,
					.options = crypto_opts };
static const struct hb_target t_fwrite = { .group = "io",
					   .name = "fwrite",
					   .work = HB_WORK_BYTES,
					   .options = io_opts };

enum { J_MEMCPY, J_GCM, J_HMAC, J_XXH3, J_SPEED, J_SPEED2, J_FWRITE, NJOBS };

/* Everything a report points at, owned by the test. */
struct fixture {
	struct job jobs[NJOBS];
	struct bench_case cases[13];
	struct result results[13];
	struct suite suite;
	struct hb_plugin desc;
	struct plugin plugin;
	struct registry reg;
	struct netif netif;
	struct fsinfo fs;
	struct sysinfo si;
	struct report rep;
};

/* A case of job j. */
static struct bench_case *add_case(struct fixture *f, size_t j,
				   const char *title, const char *target,
				   const char *backend,
				   const struct hb_target *t, const char *unit)
{
	struct bench_case *c = &f->cases[f->suite.ncases];

	c->job = j;
	c->title = (char *)title;
	c->target = (char *)target;
	c->backend = (char *)backend;
	c->tdesc = t;
	c->unit = (char *)unit;
	c->parallel = 1;
	c->duration = 1;
	c->repetitions = 3;
	c->warmup = 1;
	f->results[f->suite.ncases].c = c;
	f->suite.ncases++;
	return c;
}

/* Three samples of r at bytes_per_s, exactly (no noise). */
static void measure(struct result *r, double bytes_per_s)
{
	r->samples = calloc(3, sizeof(*r->samples));
	r->nsamples = 3;
	for (size_t i = 0; i < 3; i++)
		r->samples[i] = (struct sample){ .seconds = 1,
						 .bytes = bytes_per_s,
						 .ops = bytes_per_s / 1024,
						 .cpu_seconds = 1 };
	result_finish_cpus(r, 2);
}

/* Fail or skip r with reason. */
static void give_up(struct result *r, enum result_status s, const char *why)
{
	r->status = s;
	r->reason = strdup(why);
}

static void build_jobs(struct fixture *f)
{
	static const char *const labels[NJOBS] = {
		"memcpy", "AES256/GCM", "AES256/CBC/HMAC[MD5]", "XXH3", "speed",
		"speed",  "fwrite"
	};
	static const char *const groups[NJOBS] = { "mem",  "crypto", "crypto",
						   "hash", "crypto", "crypto",
						   "io" };

	for (size_t j = 0; j < NJOBS; j++) {
		f->jobs[j].label = (char *)labels[j];
		f->jobs[j].group = (char *)groups[j];
	}
	f->suite.jobs = f->jobs;
	f->suite.njobs = NJOBS;
}

static void build_cases(struct fixture *f)
{
	static const char *const sizes[] = { "16", "64", "1024" };
	struct bench_case *c;
	struct result *r = f->results;

	add_case(f, J_MEMCPY, "memcpy", "mem/memcpy", "mem", &t_memcpy, "Gbps");
	measure(r++, 1e9);
	add_case(f, J_GCM, "AES256/GCM", "crypto/aes-256-gcm", "openssl",
		 &t_gcm, "Gbps");
	measure(r++, 1.27e9);
	add_case(f, J_GCM, "AES256/GCM", "crypto/aes-256-gcm", "gcrypt", &t_gcm,
		 "Gbps");
	give_up(r++, RESULT_FAILED, "setup failed: \"bad key\", giving up");
	add_case(f, J_HMAC, "AES256/CBC/HMAC[MD5]",
		 "crypto/aes-256-cbc-hmac-md5", "openssl", NULL, "Gbps");
	measure(r, 5.58e9 / 8);
	r->parts = calloc(2, sizeof(*r->parts));
	r->nparts = 2;
	r->parts[0].part = "crypto/aes-256-cbc";
	measure(&r->parts[0], 5.58e9 / 8);
	r->parts[1].part = "mac/hmac-md5";
	measure(&r->parts[1], 5.99e9 / 8);
	r++;
	add_case(f, J_XXH3, "XXH3", "hash/xxh3", "xxhash", NULL, "Gbps");
	give_up(r++, RESULT_SKIPPED, "not built here");
	for (size_t i = 0; i < 3; i++) {
		c = add_case(f, J_SPEED, "speed", "crypto/aes-256-gcm",
			     "openssl", &t_gcm, "kB/s");
		kvlist_set(&c->params, "size", sizes[i]);
		measure(r++, 1234560.0 * (double)(i + 1));
	}
	/* the same sizes through another backend: the same table */
	for (size_t i = 0; i < 3; i++) {
		c = add_case(f, J_SPEED2, "speed", "crypto/aes-256-gcm",
			     "gcrypt", &t_gcm, "kB/s");
		kvlist_set(&c->params, "size", sizes[i]);
		measure(r++, 1000000.0 * (double)(i + 1));
	}
	for (size_t i = 0; i < 2; i++) {
		c = add_case(f, J_FWRITE, i ? "fwrite [/b]" : "fwrite [/a]",
			     "io/fwrite", "io", &t_fwrite, "MB/s");
		kvlist_set(&c->params, "dir", i ? "/b" : "/a");
		kvlist_set(&c->params, "bs", "4K");
		kvlist_set(&c->params, "direct", "yes");
		kvlist_set(&c->params, "files", "250");
		kvlist_set(&c->params, "interval", "500ms");
		measure(r++, i ? 90e6 : 100e6);
	}
	kvlist_set(&f->results[f->suite.ncases - 2].info, "text",
		   "free space 35.33GiB at /a");
}

static void build_host(struct fixture *f)
{
	f->desc = (struct hb_plugin){ .name = "openssl" };
	f->plugin.desc = &f->desc;
	kvlist_set(&f->plugin.libraries, "OpenSSL", "3.0.19 27 Jan 2026");
	f->reg = (struct registry){ .plugins = &f->plugin, .n = 1 };
	f->netif = (struct netif){ .name = "eth0",
				   .driver = "virtio_net",
				   .speed_mbps = 10000,
				   .mac = "52:54:00:12:34:56",
				   .state = "up" };
	f->fs = (struct fsinfo){ .dir = "/tmp",
				 .fstype = "ext4",
				 .device = "/dev/vda1",
				 .free_bytes = 80ull << 30,
				 .total_bytes = 251ull << 30 };
	f->si = (struct sysinfo){ .arch = "x86_64",
				  .cpu_model = "Test CPU",
				  .physical_cores = 1,
				  .logical_cpus = 2,
				  .ram_kb = 24567890,
				  .kernel = "Linux 6.1.0-test #1 SMP",
				  .os = "Debian GNU/Linux 12 (bookworm)",
				  .hostname = "testhost",
				  .netifs = &f->netif,
				  .nnetifs = 1,
				  .fs = &f->fs,
				  .nfs = 1,
				  .version = "0.1.0",
				  .build_type = "Release" };
	strlist_push(&f->si.cpu_flags, "aes");
	strlist_push(&f->si.cpu_flags, "avx2");
}

static struct fixture *fixture_new(void)
{
	struct fixture *f = calloc(1, sizeof(*f));

	build_jobs(f);
	build_cases(f);
	build_host(f);
	f->suite.cases = f->cases;
	f->rep = (struct report){ .sys = &f->si,
				  .reg = &f->reg,
				  .suite = &f->suite,
				  .results = f->results,
				  .nresults = f->suite.ncases };
	return f;
}

static void fixture_free(struct fixture *f)
{
	for (size_t i = 0; i < f->suite.ncases; i++) {
		result_free(&f->results[i]);
		kvlist_free(&f->cases[i].params);
	}
	kvlist_free(&f->plugin.libraries);
	strlist_free(&f->si.cpu_flags);
	free(f);
}

/* The report in format f as a string (caller frees), or NULL. */
static char *render(const struct fixture *fx, enum report_format f)
{
	char *text = NULL, err[256];
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int rc;

	if (!out)
		return NULL;
	rc = report_write(f, &fx->rep, out, err, sizeof(err));
	fclose(out);
	if (rc) {
		fprintf(stderr, "report_write: %s\n", err);
		free(text);
		return NULL;
	}
	return text;
}

/* The JSON report parsed back, or NULL. */
static json_t *render_json(const struct fixture *fx)
{
	char *text = render(fx, REPORT_JSON);
	json_error_t error;
	json_t *doc = text ? json_loads(text, 0, &error) : NULL;

	if (text && !doc)
		fprintf(stderr, "json: %s at line %d\n", error.text,
			error.line);
	free(text);
	return doc;
}

static int format_names_parse(void)
{
	enum report_format f;

	CHECK_INT(report_format_parse("json", &f), 0);
	CHECK_INT(f, REPORT_JSON);
	CHECK_INT(report_format_parse("md", &f), 0);
	CHECK_INT(f, REPORT_MD);
	CHECK(report_format_parse("xml", &f) < 0);
	return 0;
}

static int text_has_reference_rules(void)
{
	struct fixture *f = fixture_new();
	char *text = render(f, REPORT_TEXT);

	CHECK(text);
	CHECK(strncmp(text,
		      "-- [Application] -----------------------------------"
		      "------------------------\n"
		      "hostbench 0.1.0 (Release build) / Linux\n"
		      "-- [Linked Libraries] ------------------------------"
		      "------------------------\n"
		      "OpenSSL 3.0.19 27 Jan 2026\n",
		      strlen("-- [Application] ") + 60 + 40 + 76 + 28) == 0);
	/* read at 80 columns: a longer fact goes on, 4 blanks in */
	CHECK_CONTAINS(text, "\nAES : x86_64 AES-NI ON, VAES OFF, PCLMULQDQ "
			     "OFF, VPCLMULQDQ OFF, SHA-NI OFF,\n"
			     "    AVX2 ON, AVX-512 OFF\n");
	CHECK_CONTAINS(text, "\nCPU : Test CPU, physical 1 / logical 2\n");
	CHECK_CONTAINS(text, "\neth0 (virtio_net) 52:54:00:12:34:56 up, "
			     "speed 10000Mb/s\n");
	CHECK_CONTAINS(
		text,
		"\n/tmp : ext4 on /dev/vda1, free 80.00GiB of 251.00GiB\n");
	CHECK_CONTAINS(text, "\n-- [Base Performance] ---------------------"
			     "---------------------------------\n");
	CHECK(strlen(text) > 77);
	CHECK_STR(text + strlen(text) - 77,
		  "-------------------------------------------------------"
		  "---------------------\n");
	free(text);
	fixture_free(f);
	return 0;
}

static int text_line_shows_figure_in_unit(void)
{
	struct fixture *f = fixture_new();
	char *text = render(f, REPORT_TEXT);

	CHECK_CONTAINS(
		text, "\nmemcpy (mem) : 8.00Gbps ±0.0% (8.00Gbps per CPU-s)\n");
	free(text);
	fixture_free(f);
	return 0;
}

static int text_names_backend_and_aligns_colons(void)
{
	struct fixture *f = fixture_new();
	char *text = render(f, REPORT_TEXT);

	CHECK_CONTAINS(text, "\nAES256/GCM (openssl)           : 10.16Gbps "
			     "±0.0% (10.16Gbps per CPU-s)\n");
	CHECK_CONTAINS(text, "\nAES256/GCM (gcrypt)            : failed "
			     "(setup failed: \"bad key\", giving up)\n");
	CHECK_CONTAINS(text, "\nXXH3 (xxhash) : skipped (not built here)\n");
	free(text);
	fixture_free(f);
	return 0;
}

static int text_names_slower_half_of_composite(void)
{
	struct fixture *f = fixture_new();
	char *text = render(f, REPORT_TEXT);

	/* the note is a footnote under the section: the line stays short */
	CHECK_CONTAINS(text, "\nAES256/CBC/HMAC[MD5] (openssl) : 5.58Gbps "
			     "±0.0% (5.58Gbps per CPU-s) [1]\n");
	CHECK_CONTAINS(text, "\n  [1] bound by aes-256-cbc; hmac-md5 alone "
			     "5.99Gbps\n");
	free(text);
	fixture_free(f);
	return 0;
}

static int text_size_job_is_a_table(void)
{
	struct fixture *f = fixture_new();
	char *text = render(f, REPORT_TEXT);

	CHECK_CONTAINS(text, "\nsize             16 bytes  64 bytes  1024 "
			     "bytes   CI95\n");
	CHECK_CONTAINS(text, "\nspeed (openssl)  1234.56k  2469.12k    "
			     "3703.68k  ±0.0%\n"
			     "  per CPU-s      1234.56k  2469.12k    3703.68k\n"
			     "speed (gcrypt)   1000.00k  2000.00k    "
			     "3000.00k  ±0.0%\n");
	CHECK(!strstr(text, "speed : "));
	free(text);
	fixture_free(f);
	return 0;
}

static int text_dir_table_has_percent_difference(void)
{
	struct fixture *f = fixture_new();
	char *text = render(f, REPORT_TEXT);

	/* each side keeps its own interval beside its figure: no CI95 */
	CHECK_CONTAINS(text, "\ndir                        /a               /b"
			     "  % Difference\n");
	CHECK_CONTAINS(text,
		       "\nfwrite (io)  100.00MB/s ±0.0%  90.00MB/s "
		       "±0.0%       -10.00%\n"
		       "  per CPU-s        100.00MB/s        90.00MB/s\n");
	CHECK_CONTAINS(text,
		       "\n* fwrite (io), /a: free space 35.33GiB at /a\n");
	free(text);
	fixture_free(f);
	return 0;
}

static int text_aligns_utf8_labels_by_characters(void)
{
	struct fixture *f = fixture_new();
	char *text;

	/* "暗号" is six bytes and two characters */
	f->cases[1].title = "暗号/GCM";
	f->cases[2].title = "暗号/GCM";
	text = render(f, REPORT_TEXT);
	CHECK_CONTAINS(text, "\n暗号/GCM (openssl)               : 10.16Gbps "
			     "±0.0%");
	CHECK_CONTAINS(text, "\nAES256/CBC/HMAC[MD5] (openssl) : 5.58Gbps");
	free(text);
	fixture_free(f);
	return 0;
}

static int json_has_schema_and_every_result(void)
{
	struct fixture *f = fixture_new();
	json_t *doc = render_json(f);

	CHECK(doc);
	CHECK_INT(json_integer_value(json_object_get(doc, "schema_version")),
		  1);
	CHECK_STR(json_string_value(json_object_get(
			  json_object_get(doc, "hostbench"), "version")),
		  "0.1.0");
	CHECK_STR(json_string_value(json_object_get(
			  json_object_get(doc, "system"), "hostname")),
		  "testhost");
	CHECK_STR(json_string_value(json_object_get(
			  json_object_get(json_object_get(doc, "libraries"),
					  "openssl"),
			  "OpenSSL")),
		  "3.0.19 27 Jan 2026");
	CHECK_INT(json_array_size(json_object_get(doc, "results")),
		  f->suite.ncases);
	json_decref(doc);
	fixture_free(f);
	return 0;
}

static int json_params_are_typed(void)
{
	struct fixture *f = fixture_new();
	json_t *doc = render_json(f);
	json_t *res = json_array_get(json_object_get(doc, "results"), 11);
	json_t *params = json_object_get(res, "params");

	CHECK_STR(json_string_value(json_object_get(res, "title")),
		  "fwrite [/a]");
	CHECK_STR(json_string_value(json_object_get(params, "dir")), "/a");
	CHECK(json_is_integer(json_object_get(params, "bs")));
	CHECK_INT(json_integer_value(json_object_get(params, "bs")), 4096);
	CHECK(json_is_true(json_object_get(params, "direct")));
	CHECK_INT(json_integer_value(json_object_get(params, "files")), 250);
	CHECK_NEAR(json_real_value(json_object_get(params, "interval")), 0.5,
		   1e-12);
	CHECK_INT(json_integer_value(json_object_get(params, "parallel")), 1);
	CHECK_STR(json_string_value(json_object_get(
			  json_object_get(res, "info"), "text")),
		  "free space 35.33GiB at /a");
	json_decref(doc);
	fixture_free(f);
	return 0;
}

static int json_ok_result_has_ordered_stats(void)
{
	struct fixture *f = fixture_new();
	json_t *doc = render_json(f);
	json_t *res = json_array_get(json_object_get(doc, "results"), 0);
	json_t *stats = json_object_get(res, "stats");
	double median = json_real_value(json_object_get(stats, "median"));

	CHECK_STR(json_string_value(json_object_get(res, "status")), "ok");
	CHECK(json_is_null(json_object_get(res, "reason")));
	CHECK_NEAR(median, 1e9, 1e-3);
	CHECK(json_real_value(json_object_get(stats, "min")) <= median);
	CHECK(json_real_value(json_object_get(stats, "max")) >= median);
	CHECK_INT(json_array_size(json_object_get(res, "samples")), 3);
	CHECK_NEAR(json_real_value(
			   json_array_get(json_object_get(res, "samples"), 0)),
		   1e9, 1e-3);
	CHECK_INT(json_array_size(json_object_get(res, "sample_details")), 3);
	CHECK(json_is_false(
		json_object_get(json_object_get(res, "flags"), "noisy")));
	CHECK_STR(json_string_value(json_object_get(res, "section")),
		  "Base Performance");
	json_decref(doc);
	fixture_free(f);
	return 0;
}

static int json_failed_result_has_null_stats(void)
{
	struct fixture *f = fixture_new();
	json_t *doc = render_json(f);
	json_t *failed = json_array_get(json_object_get(doc, "results"), 2);
	json_t *skipped = json_array_get(json_object_get(doc, "results"), 4);

	CHECK_STR(json_string_value(json_object_get(failed, "status")),
		  "failed");
	CHECK_STR(json_string_value(json_object_get(failed, "reason")),
		  "setup failed: \"bad key\", giving up");
	CHECK(json_is_null(json_object_get(failed, "stats")));
	CHECK(json_is_null(json_object_get(failed, "ops_stats")));
	CHECK_INT(json_array_size(json_object_get(failed, "samples")), 0);
	CHECK_STR(json_string_value(json_object_get(skipped, "status")),
		  "skipped");
	json_decref(doc);
	fixture_free(f);
	return 0;
}

static int json_composite_lists_parts(void)
{
	struct fixture *f = fixture_new();
	json_t *doc = render_json(f);
	json_t *res = json_array_get(json_object_get(doc, "results"), 3);
	json_t *parts = json_object_get(res, "parts");

	CHECK_INT(json_array_size(parts), 2);
	CHECK_STR(json_string_value(
			  json_object_get(json_array_get(parts, 1), "target")),
		  "mac/hmac-md5");
	CHECK_NEAR(json_real_value(json_object_get(
			   json_object_get(json_array_get(parts, 1), "stats"),
			   "median")),
		   5.99e9 / 8, 1e-3);
	json_decref(doc);
	fixture_free(f);
	return 0;
}

static int json_survives_text_that_is_not_utf8(void)
{
	struct fixture *f = fixture_new();
	json_t *doc, *res;

	/* a Latin-1 directory and label; valid UTF-8 is kept as it is */
	kvlist_set(&f->cases[11].params, "dir", "/data/caf\xe9");
	f->jobs[J_FWRITE].label = "fwrite \xe9t\xe9";
	f->si.hostname = "h\xc3\xa9te";
	doc = render_json(f);
	CHECK(doc);
	res = json_array_get(json_object_get(doc, "results"), 11);
	CHECK_STR(json_string_value(json_object_get(
			  json_object_get(res, "params"), "dir")),
		  "/data/caf?");
	CHECK_STR(json_string_value(json_object_get(res, "job")), "fwrite ?t?");
	CHECK_STR(json_string_value(json_object_get(
			  json_object_get(doc, "system"), "hostname")),
		  "h\xc3\xa9te");
	json_decref(doc);
	fixture_free(f);
	return 0;
}

static int csv_header_is_the_contract(void)
{
	static const char header[] =
		"job,title,target,backend,params,parallel,status,reason,unit,"
		"median,median_bps,min_bps,max_bps,mean_bps,stddev_bps,cv,"
		"p25_bps,p75_bps,samples,noisy,starved,warnings,queue_depth,"
		"bytes_per_cpu_second,cpu_seconds_per_gb,offload,"
		"latency_p50_ns,latency_p90_ns,latency_p99_ns,latency_p999_ns,"
		"latency_max_ns,ci95_low_bps,ci95_high_bps,ci95,imprecise,"
		"warmup_samples,cpus,cycles_per_byte,cycles_method\r\n";
	struct fixture *f = fixture_new();
	char *text = render(f, REPORT_CSV);
	size_t lines = 0;

	CHECK(strncmp(text, header, strlen(header)) == 0);
	for (const char *p = text; (p = strstr(p, "\r\n")) != NULL; p += 2)
		lines++;
	CHECK_INT(lines, 1 + f->suite.ncases);
	CHECK_CONTAINS(text, "\r\nmemcpy,memcpy,mem/memcpy,mem,,1,ok,,Gbps,8,"
			     "1000000000,");
	free(text);
	fixture_free(f);
	return 0;
}

static int csv_quotes_commas_and_quotes(void)
{
	struct fixture *f = fixture_new();
	char *text = render(f, REPORT_CSV);

	CHECK_CONTAINS(text, ",failed,\"setup failed: \"\"bad key\"\", giving "
			     "up\",Gbps,,,,,,,,,,0,false,false,,1,,,false,,,,,"
			     ",,,,false,0,,,\r\n");
	CHECK_CONTAINS(text, ",dir=/a;bs=4K;direct=yes;files=250;"
			     "interval=500ms,1,ok,");
	free(text);
	fixture_free(f);
	return 0;
}

static int md_has_case_table_and_difference(void)
{
	struct fixture *f = fixture_new();
	char *text = render(f, REPORT_MD);

	CHECK_CONTAINS(text, "# hostbench report\n");
	CHECK_CONTAINS(text, "- **Libraries**: OpenSSL 3.0.19 27 Jan 2026\n");
	CHECK_CONTAINS(text,
		       "\n## Base Performance\n\n"
		       "| Case | Backend | Median | CI95 | Per CPU-s | Unit "
		       "| CV | Notes |\n"
		       "|---|---|--:|--:|--:|---|--:|---|\n"
		       "| memcpy | mem | 8.00 | ±0.0% | 8.00 | Gbps | 0.0% "
		       "|  |\n");
	CHECK_CONTAINS(text, "| dir | /a | /b | % Difference |\n"
			     "|---|--:|--:|--:|\n"
			     "| fwrite (io) | 100.00MB/s ±0.0% | 90.00MB/s "
			     "±0.0% | -10.00% |\n"
			     "|   per CPU-s | 100.00MB/s | 90.00MB/s |  |\n");
	CHECK_CONTAINS(text,
		       "| AES256/CBC/HMAC[MD5] | openssl | 5.58 | ±0.0% | 5.58 "
		       "| Gbps | 0.0% | bound by aes-256-cbc; hmac-md5 alone "
		       "5.99Gbps |\n");
	free(text);
	fixture_free(f);
	return 0;
}

static int sysinfo_alone_reports_without_sections(void)
{
	struct fixture *f = fixture_new();
	char *text;

	f->rep.suite = NULL;
	f->rep.results = NULL;
	f->rep.nresults = 0;
	text = render(f, REPORT_TEXT);
	CHECK_CONTAINS(text, "Host : testhost\n");
	CHECK(!strstr(text, "Performance]"));
	free(text);
	fixture_free(f);
	return 0;
}

static int text_shows_flags_briefly(void)
{
	struct fixture *f = fixture_new();
	struct result *r = &f->results[0];
	char *text;

	/* 1.0, 1.2 and 0.8 GB/s: CV 20%; half the CPU time it could use */
	r->samples[1].bytes = 1.2e9;
	r->samples[2].bytes = 0.8e9;
	for (size_t i = 0; i < 3; i++)
		r->samples[i].cpu_seconds = 0.5;
	result_finish_cpus(r, 2);
	text = render(f, REPORT_TEXT);
	/* the flags are a footnote; per CPU-second the rate is twice */
	CHECK_CONTAINS(text, "\nmemcpy (mem) : 8.00Gbps ±20.0% (16.00Gbps per "
			     "CPU-s) [1]\n");
	CHECK_CONTAINS(text, "\n  [1] noisy: CV 20.0%; starved: CPU 50%\n");
	free(text);
	fixture_free(f);
	return 0;
}

static int text_ops_and_kilobyte_units(void)
{
	struct fixture *f = fixture_new();
	char *text;

	f->cases[0].unit = "ops/s";
	f->cases[1].unit = "kB/s";
	text = render(f, REPORT_TEXT);
	CHECK_CONTAINS(text, "\nmemcpy (mem) : 976562.5 ops/s ±0.0% (976562.5 "
			     "ops/s per CPU-s)\n");
	CHECK_CONTAINS(text, "\nAES256/GCM (openssl)           : 1270000.00k "
			     "±0.0% (1270000.00k per CPU-s)\n");
	free(text);
	fixture_free(f);
	return 0;
}

static int text_job_section_overrides_group(void)
{
	struct fixture *f = fixture_new();
	char *text;

	f->jobs[J_XXH3].section = "Integrity (Extended)";
	text = render(f, REPORT_TEXT);
	CHECK_CONTAINS(text, "\n-- [Integrity (Extended)] ---");
	CHECK(!strstr(text, "File Integrity Validation Performance"));
	free(text);
	fixture_free(f);
	return 0;
}

static int parallel_only_job_stays_lines(void)
{
	struct fixture *f = fixture_new();
	char *text;

	/* the speed job at one size and 1, 2, 4 workers */
	for (size_t i = 5; i < 8; i++) {
		kvlist_set(&f->cases[i].params, "size", "16");
		f->cases[i].parallel = 1u << (i - 5);
	}
	f->cases[6].title = "speed [2 parallels]";
	f->cases[7].title = "speed [4 parallels]";
	text = render(f, REPORT_TEXT);
	CHECK_CONTAINS(text, "\nspeed [4 parallels] (openssl)  : 3703.68k "
			     "±0.0% (3703.68k per CPU-s)\n");
	CHECK(!strstr(text, "speed (openssl)  1234.56k"));
	free(text);
	fixture_free(f);
	return 0;
}

static int two_varying_keys_make_a_grid(void)
{
	struct fixture *f = fixture_new();
	char *text;

	f->cases[7].parallel = 4;
	f->cases[7].title = "speed [1024, 4 parallels]";
	text = render(f, REPORT_TEXT);
	/* no varying order known: parallel down the rows, size across */
	CHECK_CONTAINS(text,
		       "\nspeed         size 16   size 64  size 1024   CI95\n");
	CHECK_CONTAINS(text,
		       "\n4 parallels         -         -   3703.68k  ±0.0%\n");
	free(text);
	fixture_free(f);
	return 0;
}

/*
 * Sizes across, queue depths down: no case is dropped from the grid, and
 * the text's CI95 column holds the widest interval of each row (the 16
 * bytes case of depth 1 drew 1, 1.2 and 0.8 times its median).
 */
static int queue_depth_and_size_make_a_grid(void)
{
	struct fixture *f = fixture_new();
	struct result *noisy = &f->results[5];
	char *text;

	for (size_t i = 5; i < 8; i++) {
		f->cases[i].depth_given = 1;
		f->cases[i].queue_depth = 1;
	}
	f->cases[7].queue_depth = 16;
	noisy->samples[1].bytes *= 1.2;
	noisy->samples[2].bytes *= 0.8;
	result_finish_cpus(noisy, 2);
	text = render(f, REPORT_TEXT);
	CHECK_CONTAINS(text, "\nspeed            size 16   size 64  size 1024"
			     "    CI95\n");
	CHECK_CONTAINS(text, "\nqueue_depth 1   1234.56k  2469.12k          -"
			     "  ±20.0%\n");
	CHECK_CONTAINS(text, "\nqueue_depth 16         -         -   3703.68k"
			     "   ±0.0%\n");
	free(text);
	text = render(f, REPORT_MD);
	CHECK_CONTAINS(text, "| queue_depth 16 | - | - | 3703.68k ±0.0% |\n");
	free(text);
	fixture_free(f);
	return 0;
}

static int grid_rows_follow_suite_order(void)
{
	struct fixture *f = fixture_new();
	struct strlist *varying = &f->jobs[J_SPEED].varying;
	char *text;

	f->cases[7].parallel = 4;
	CHECK(!strlist_push(varying, "size") &&
	      !strlist_push(varying, "parallel"));
	text = render(f, REPORT_MD);
	strlist_free(varying);
	CHECK_CONTAINS(text, "| speed | 1 parallel | 4 parallels |\n");
	CHECK_CONTAINS(text, "| size 1024 | - | 3703.68k ±0.0% |\n");
	free(text);
	fixture_free(f);
	return 0;
}

/* Pinned workers on CPUs 1 and 3, counted at 2.5 cycles per byte. */
static void pin_memcpy(struct fixture *f)
{
	struct result *r = &f->results[0];

	f->cases[0].cpus = "1,3";
	r->cpus = calloc(2, sizeof(*r->cpus));
	r->cpus[0] = 1;
	r->cpus[1] = 3;
	r->ncpus = 2;
	r->cycles_per_byte = 2.5;
	strcpy(r->cycles_method, "perf");
}

static int text_pinned_case_notes_its_cpus(void)
{
	struct fixture *f = fixture_new();
	char *text;

	pin_memcpy(f);
	text = render(f, REPORT_TEXT);
	CHECK_CONTAINS(text, "\nmemcpy (mem) : 8.00Gbps ±0.0% (8.00Gbps per "
			     "CPU-s) [1]\n");
	CHECK_CONTAINS(text, "\n  [1] cpus 1,3\n");
	free(text);
	fixture_free(f);
	return 0;
}

static int text_table_row_shows_cycles_per_byte(void)
{
	static const double cpb[] = { 9.5, 3.25, 1.5 };
	struct fixture *f = fixture_new();
	char *text;

	for (size_t i = 0; i < 3; i++) {
		f->results[5 + i].cycles_per_byte = cpb[i];
		strcpy(f->results[5 + i].cycles_method, "calibrated");
	}
	text = render(f, REPORT_TEXT);
	CHECK_CONTAINS(text, "\n* speed (openssl): cycles/byte (calibrated) "
			     "16 bytes 9.5, 64 bytes 3.25, 1024 bytes 1.5\n");
	/* a row without the figure gets no note */
	CHECK(!strstr(text, "speed (gcrypt): cycles/byte"));
	free(text);
	fixture_free(f);
	return 0;
}

static int csv_has_cpus_and_cycles(void)
{
	struct fixture *f = fixture_new();
	char *text;

	pin_memcpy(f);
	text = render(f, REPORT_CSV);
	CHECK_CONTAINS(text, ",1;3,2.5,perf\r\n");
	free(text);
	fixture_free(f);
	return 0;
}

static int json_has_cpus_and_cycles(void)
{
	struct fixture *f = fixture_new();
	json_t *doc, *res, *failed;

	pin_memcpy(f);
	doc = render_json(f);
	CHECK(doc);
	res = json_array_get(json_object_get(doc, "results"), 0);
	failed = json_array_get(json_object_get(doc, "results"), 2);
	CHECK_INT(json_integer_value(
			  json_array_get(json_object_get(res, "cpus"), 1)),
		  3);
	CHECK_NEAR(json_number_value(json_object_get(res, "cycles_per_byte")),
		   2.5, 1e-12);
	CHECK_STR(json_string_value(json_object_get(res, "cycles_method")),
		  "perf");
	CHECK_STR(json_string_value(json_object_get(
			  json_object_get(res, "params"), "cpus")),
		  "1,3");
	CHECK(json_is_null(json_object_get(failed, "cycles_per_byte")));
	CHECK_INT(json_array_size(json_object_get(failed, "cpus")), 0);
	json_decref(doc);
	fixture_free(f);
	return 0;
}

/* Two nodes of two CPUs, an L1 data cache and a shared L3. */
static void two_nodes(struct topology *t)
{
	t->nodes = calloc(2, sizeof(*t->nodes));
	t->nnodes = 2;
	for (int n = 0; n < 2; n++) {
		t->nodes[n].id = n;
		t->nodes[n].mem_kb = 1024ull * 1024 * (unsigned)(n + 1);
		cpulist_push(&t->nodes[n].cpus, 2 * n);
		cpulist_push(&t->nodes[n].cpus, 2 * n + 1);
	}
	t->caches = calloc(2, sizeof(*t->caches));
	t->ncaches = 2;
	t->caches[0] = (struct topology_cache){
		.level = 1, .type = "Data", .size = 32768, .shared = "0"
	};
	t->caches[1] = (struct topology_cache){ .level = 3,
						.type = "Unified",
						.size = 32ull << 20,
						.shared = "0-3" };
}

static int system_shows_numa_nodes_and_caches(void)
{
	struct fixture *f = fixture_new();
	json_t *doc, *sys;
	char *text;

	two_nodes(&f->si.topo);
	text = render(f, REPORT_TEXT);
	CHECK_CONTAINS(text, "\nNUMA : node 0: CPUs 0-1, 1024 MiB; "
			     "node 1: CPUs 2-3, 2048 MiB\n");
	CHECK_CONTAINS(text, "\nCache : L1d 32K, L3 32M (CPUs 0-3)\n");
	free(text);
	doc = render_json(f);
	CHECK(doc);
	sys = json_object_get(doc, "system");
	CHECK_STR(json_string_value(json_object_get(
			  json_array_get(json_object_get(sys, "numa_nodes"), 1),
			  "cpus")),
		  "2-3");
	CHECK_INT(json_integer_value(json_object_get(sys, "last_level_cache")),
		  32ll << 20);
	json_decref(doc);
	topology_free(&f->si.topo);
	fixture_free(f);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"text_pinned_case_notes_its_cpus", text_pinned_case_notes_its_cpus},
	{"text_table_row_shows_cycles_per_byte", text_table_row_shows_cycles_per_byte},
	{"csv_has_cpus_and_cycles", csv_has_cpus_and_cycles},
	{"json_has_cpus_and_cycles", json_has_cpus_and_cycles},
	{"system_shows_numa_nodes_and_caches", system_shows_numa_nodes_and_caches},
	{"format_names_parse", format_names_parse},
	{"text_has_reference_rules", text_has_reference_rules},
	{"text_line_shows_figure_in_unit", text_line_shows_figure_in_unit},
	{"text_names_backend_and_aligns_colons", text_names_backend_and_aligns_colons},
	{"text_names_slower_half_of_composite", text_names_slower_half_of_composite},
	{"text_size_job_is_a_table", text_size_job_is_a_table},
	{"text_dir_table_has_percent_difference", text_dir_table_has_percent_difference},
	{"text_shows_flags_briefly", text_shows_flags_briefly},
	{"text_ops_and_kilobyte_units", text_ops_and_kilobyte_units},
	{"text_job_section_overrides_group", text_job_section_overrides_group},
	{"parallel_only_job_stays_lines", parallel_only_job_stays_lines},
	{"two_varying_keys_make_a_grid", two_varying_keys_make_a_grid},
	{"grid_rows_follow_suite_order", grid_rows_follow_suite_order},
	{"queue_depth_and_size_make_a_grid", queue_depth_and_size_make_a_grid},
	{"text_aligns_utf8_labels_by_characters", text_aligns_utf8_labels_by_characters},
	{"json_has_schema_and_every_result", json_has_schema_and_every_result},
	{"json_params_are_typed", json_params_are_typed},
	{"json_ok_result_has_ordered_stats", json_ok_result_has_ordered_stats},
	{"json_failed_result_has_null_stats", json_failed_result_has_null_stats},
	{"json_composite_lists_parts", json_composite_lists_parts},
	{"json_survives_text_that_is_not_utf8", json_survives_text_that_is_not_utf8},
	{"csv_header_is_the_contract", csv_header_is_the_contract},
	{"csv_quotes_commas_and_quotes", csv_quotes_commas_and_quotes},
	{"md_has_case_table_and_difference", md_has_case_table_and_difference},
	{"sysinfo_alone_reports_without_sections", sysinfo_alone_reports_without_sections},
};
/* clang-format on */

TEST_MAIN(tests)
