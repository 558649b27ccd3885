/* SPDX-License-Identifier: Apache-2.0 */
/*
 * iperf3 -J (docs/interop.md): the rates sent and received (end.sum_sent,
 * end.sum_received; UDP's end.sum), the per-interval rates as the samples
 * of the side that wrote the file, retransmits, CPU use of both ends,
 * UDP's jitter and loss. An "error" (iperf3 may write the key twice: the
 * last is read) or a trailing "iperf3: error - ..." line makes every
 * figure failed with the tool's words, never a zero.
 */
#define _GNU_SOURCE /* memmem */
#include "import/import_formats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"

static int iperf3_sniff(const char *text, size_t len)
{
	return import_has(text, len, "\"start\"") &&
	       import_has(text, len, "\"end\"") &&
	       (import_has(text, len, "\"intervals\"") ||
		import_has(text, len, "\"system_info\""));
}

/* What one file's run is made of. */
struct iperf3_file {
	const json_t *root, *start, *end;
	struct import_run run;
	struct import_case c;
	char job[300], title[360], target[32];
	char reason[1024]; /* the tool's error, "" for none */
	int reverse, client;
};

/* o's string at key, "" for none. */
static const char *text(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/*
 * The error iperf3 wrote after its JSON ("iperf3: error - the server is
 * busy ..."), appended to f->reason; text from after on.
 */
static void trailing_error(struct iperf3_file *f, const char *s,
			   const char *end)
{
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		const char *e = memmem(s, n, "iperf3: error - ", 16);
		int len = e ? (int)(n - (size_t)(e + 16 - s)) : 0;

		/* said once, when the JSON's "error" says it already */
		if (e &&
		    !memmem(f->reason, strlen(f->reason), e + 16, (size_t)len))
			util_appendf(f->reason, sizeof(f->reason), "%s%.*s",
				     f->reason[0] ? "; " : "", len, e + 16);
		s += n + 1;
	}
}

/*
 * uname's words in system_info ("Linux vm 6.1.0 #1 SMP ... x86_64"): the
 * host (the second) into host, the kernel as hostbench words it (sysname,
 * release, version: all but the host and the machine) into kernel.
 */
static void system_info(const char *info, char *host, size_t hlen, char *kernel,
			size_t klen)
{
	const char *sp = strchr(info, ' '), *rest, *last;

	host[0] = kernel[0] = '\0';
	if (!sp)
		return;
	rest = sp + 1 + strcspn(sp + 1, " ");
	snprintf(host, hlen, "%.*s", (int)(rest - sp - 1), sp + 1);
	last = strrchr(rest, ' ');
	if (*rest && last > rest)
		snprintf(kernel, klen, "%.*s%.*s", (int)(sp - info), info,
			 (int)(last - rest), rest);
}

/* The run of the file: its host, version, times and kernel. */
static int run_new(struct iperf3_file *f, const struct import_in *in,
		   struct import_out *out)
{
	const char *version = text(f->start, "version");
	char host[256], kernel[512], when[TIMETEXT_LEN], ended[TIMETEXT_LEN];
	const json_t *ts = json_object_get(f->start, "timestamp");
	double t0 = import_num(ts, "timesecs");
	double secs = import_num(json_object_get(f->end, "sum_sent"), "end");
	int rc;

	if (strncmp(version, "iperf ", 6) == 0)
		version += 6;
	system_info(text(f->start, "system_info"), host, sizeof(host), kernel,
		    sizeof(kernel));
	rc = import_run_new(&f->run, in, out, "iperf3", version, host);
	if (rc)
		return rc;
	if (kernel[0])
		import_run_fact(&f->run, "kernel", kernel);
	if (!isfinite(secs))
		secs = import_num(json_object_get(f->start, "test_start"),
				  "duration");
	if (import_time_of(t0, when, sizeof(when)))
		return 0; /* none: the file's time */
	if (!isfinite(secs) || import_time_of(t0 + secs, ended, sizeof(ended)))
		secs = NAN;
	import_run_times(&f->run, when, isfinite(secs) ? ended : NULL, secs);
	return 0;
}

/* A parameter of test_start into params, when the file has it. */
static void param(json_t *params, const json_t *ts, const char *key,
		  const char *as)
{
	const json_t *v = json_object_get(ts, key);

	if (json_is_integer(v) || json_is_string(v))
		json_object_set(params, as, (json_t *)v);
}

/* The case: protocol, the other end, and what iperf3 was asked to do. */
static int case_new(struct iperf3_file *f, json_t **params)
{
	const json_t *ts = json_object_get(f->start, "test_start");
	const json_t *to = json_object_get(f->start, "connecting_to");
	const char *peer = text(to, "host"), *proto = text(ts, "protocol");
	char lower[16];
	size_t i;

	f->client = json_is_object(to);
	if (!f->client) /* the server's side of the test */
		peer = text(json_object_get(f->start, "accepted_connection"),
			    "host");
	f->reverse = import_num(ts, "reverse") > 0;
	for (i = 0; proto[i] && i + 1 < sizeof(lower); i++)
		lower[i] = (char)(proto[i] | 0x20);
	lower[i] = '\0';
	snprintf(f->job, sizeof(f->job), "%s %.255s", i ? lower : "tcp", peer);
	snprintf(f->title, sizeof(f->title), "%s%s%s", f->job,
		 f->reverse ? " reverse" : "", f->client ? "" : " (server)");
	snprintf(f->target, sizeof(f->target), "iperf3/%s", i ? lower : "tcp");
	*params = json_pack("{s:s}", "peer", peer);
	if (!*params)
		return -ENOMEM;
	param(*params, ts, "num_streams", "streams");
	param(*params, ts, "blksize", "blksize");
	param(*params, ts, "duration", "duration");
	param(*params, ts, "reverse", "reverse");
	param(*params, ts, "bidir", "bidir");
	param(*params, ts, "target_bitrate", "bitrate");
	param(*params, ts, "tos", "tos");
	if (!f->client)
		json_object_set_new(*params, "side", json_string("server"));
	f->c = (struct import_case){ .job = f->job,
				     .title = f->title,
				     .target = f->target,
				     .backend = "iperf3",
				     .params = *params };
	return 0;
}

/* The per-interval rates (bytes/s) of the intervals not omitted. */
static double *interval_rates(const json_t *root, size_t *n)
{
	const json_t *a = json_object_get(root, "intervals"), *i;
	double *v = malloc((json_array_size(a) + 1) * sizeof(*v));
	size_t k;

	*n = 0;
	json_array_foreach(a, k, i) {
		const json_t *sum = json_object_get(i, "sum");

		if (v && !json_is_true(json_object_get(sum, "omitted")) &&
		    isfinite(import_num(sum, "bits_per_second")))
			v[(*n)++] = import_num(sum, "bits_per_second") / 8;
	}
	return v;
}

static const struct import_figure sent = { "sent", "Gbps", 0 };
static const struct import_figure received = { "received", "Gbps", 0 };

/* The figures of a run that ended well. */
static int figures(struct iperf3_file *f)
{
	const json_t *s = json_object_get(f->end, "sum_sent");
	const json_t *r = json_object_get(f->end, "sum_received");
	const json_t *sum = json_object_get(f->end, "sum"); /* UDP's */
	const json_t *cpu = json_object_get(f->end, "cpu_utilization_percent");
	const struct import_figure retr = { "retransmits", "count", 1 };
	const struct import_figure host = { "cpu_host", "%", 1 };
	const struct import_figure remote = { "cpu_remote", "%", 1 };
	const struct import_figure jitter = { "jitter", "ns", 1 };
	const struct import_figure lost = { "lost", "%", 1 };
	size_t n;
	double *v = interval_rates(f->root, &n);
	int mine_sent = f->client != f->reverse; /* this side sent */

	if (!v)
		return -ENOMEM;
	s = json_is_object(s) ? s : sum;
	import_figure(&f->run, &f->c, &sent,
		      import_num(s, "bits_per_second") / 8, v,
		      mine_sent ? n : 0);
	import_figure(&f->run, &f->c, &received,
		      import_num(r, "bits_per_second") / 8, v,
		      mine_sent ? 0 : n);
	free(v);
	import_figure(&f->run, &f->c, &retr, import_num(s, "retransmits"), NULL,
		      0);
	import_figure(&f->run, &f->c, &host, import_num(cpu, "host_total"),
		      NULL, 0);
	import_figure(&f->run, &f->c, &remote, import_num(cpu, "remote_total"),
		      NULL, 0);
	import_figure(&f->run, &f->c, &jitter,
		      import_num(sum, "jitter_ms") * 1e6, NULL, 0);
	import_figure(&f->run, &f->c, &lost, import_num(sum, "lost_percent"),
		      NULL, 0);
	return 0;
}

/* The file, its start and end checked; its error read. */
static int file_check(struct iperf3_file *f, const struct import_in *in,
		      size_t after, char *err, size_t errlen)
{
	const char *e = json_string_value(json_object_get(f->root, "error"));

	f->start = json_object_get(f->root, "start");
	f->end = json_object_get(f->root, "end");
	if (e)
		snprintf(f->reason, sizeof(f->reason), "%s", e);
	trailing_error(f, in->text + after, in->text + in->len);
	sanitize_text(f->reason);
	if (!json_is_object(f->start))
		return hb_errorf(err, errlen, -EINVAL, "no \"start\" object");
	if (!f->reason[0] &&
	    !json_is_object(json_object_get(f->end, "sum_sent")) &&
	    !json_is_object(json_object_get(f->end, "sum")))
		return hb_errorf(err, errlen, -EINVAL,
				 "end: no \"sum_sent\" nor \"sum\", and no "
				 "\"error\" (a run cut short?)");
	return 0;
}

static int iperf3_read(const struct import_in *in, struct import_out *out,
		       char *err, size_t errlen)
{
	struct iperf3_file *f = calloc(1, sizeof(*f));
	json_t *root = NULL, *params = NULL;
	size_t after = 0;
	int rc = f ? import_json(in->text, in->len, NULL, &root, &after, err,
				 errlen)
		   : -ENOMEM;

	if (!rc) {
		f->root = root;
		rc = file_check(f, in, after, err, errlen);
	}
	if (!rc)
		rc = run_new(f, in, out);
	if (!rc)
		rc = case_new(f, &params);
	if (!rc && f->reason[0]) {
		import_failed(&f->run, &f->c, &sent, f->reason);
		import_failed(&f->run, &f->c, &received, f->reason);
		import_note(out, in, "iperf3 failed: %.200s", f->reason);
	} else if (!rc) {
		rc = figures(f);
	}
	if (!rc && f->run.bad)
		rc = -ENOMEM;
	if (rc == -ENOMEM)
		hb_error_fill(err, errlen, "out of memory");
	json_decref(params);
	json_decref(root);
	free(f);
	return rc;
}

const struct import_format import_iperf3 = {
	.name = "iperf3",
	.summary = "iperf3 -J (--json)",
	.sniff = iperf3_sniff,
	.read = iperf3_read,
};
