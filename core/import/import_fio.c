/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fio's --output-format=json and json+ (docs/interop.md): per job and
 * direction its bandwidth, IOPS, runtime, mean latency and completion
 * latency percentiles (ns); fio 2.x's microsecond "clat" and "lat" and
 * 3.0's "bw" in KiB/s read too. A job fio ended with an error is a
 * failed case.
 */
#include "import/import_formats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonarena.h"
#include "base/jsonw.h"

/* The percentiles read, as fio keys them, and the figure each is. */
static const struct {
	const char *key, *suffix;
} percentiles[] = {
	{ "50.000000", "p50" },	   { "90.000000", "p90" },
	{ "99.000000", "p99" },	   { "99.900000", "p99.9" },
	{ "99.990000", "p99.99" },
};

/*
 * What fio writes that no figure is read from, left unparsed: in json+
 * the latency histograms ("bins") are most of the file.
 */
static const char *const unread[] = {
	"bins",	      "iodepth_level", "iodepth_submit", "iodepth_complete",
	"latency_ns", "latency_us",    "latency_ms",	 "slat_ns",
	"slat",	      "disk_util",     "sync",		 NULL,
};

static int fio_sniff(const char *text, size_t len)
{
	return import_has(text, len, "\"fio version\"");
}

/* One job's case in one direction, and the run it goes to. */
struct fio_job {
	struct import_run *run;
	struct import_case c;
	char job[256], title[300], target[32];
};

/* A figure of the job: name, unit, direction. */
static void figure(struct fio_job *j, const char *name, const char *unit,
		   int lower, double v)
{
	const struct import_figure f = { name, unit, lower };

	if (isfinite(v))
		import_figure(j->run, &j->c, &f, v, NULL, 0);
}

/*
 * The latency of kind ("clat", "lat") of direction d in ns: its mean
 * (lat's alone: what the application waited, clat's is most of it) and
 * its percentiles (clat's; lat's where fio wrote them, lat_percentiles);
 * fio before 3.0 wrote them in microseconds under "clat" and "lat". None
 * when nothing was measured (N of 0).
 */
static void latency(struct fio_job *j, const json_t *d, const char *kind)
{
	char key[16], name[32];
	const json_t *l, *pct;
	double scale = 1;

	snprintf(key, sizeof(key), "%s_ns", kind);
	l = json_object_get(d, key);
	if (!json_is_object(l)) {
		l = json_object_get(d, kind);
		scale = 1e3;
	}
	if (!json_is_object(l) || import_num(l, "N") == 0)
		return;
	if (strcmp(kind, "lat") == 0)
		figure(j, "lat_mean", "ns", 1, import_num(l, "mean") * scale);
	pct = json_object_get(l, "percentile");
	for (size_t i = 0; i < sizeof(percentiles) / sizeof(*percentiles);
	     i++) {
		snprintf(name, sizeof(name), "%s_%s", kind,
			 percentiles[i].suffix);
		figure(j, name, "ns", 1,
		       import_num(pct, percentiles[i].key) * scale);
	}
}

/* Did the job do work in direction d? */
static int worked(const json_t *d)
{
	return json_is_object(d) && (import_num(d, "io_bytes") > 0 ||
				     import_num(d, "io_kbytes") > 0 ||
				     import_num(d, "total_ios") > 0);
}

/* The figures of the job in direction d (fio's "read", "write", "trim"). */
static void direction(struct fio_job *j, const json_t *d)
{
	double bw = import_num(d, "bw_bytes");

	if (!isfinite(bw))
		bw = import_num(d, "bw") * 1024; /* KiB/s before bw_bytes */
	figure(j, "bw", "MiB/s", 0, bw);
	figure(j, "iops", "ops/s", 0, import_num(d, "iops"));
	figure(j, "runtime", "s", 1, import_num(d, "runtime") / 1e3);
	latency(j, d, "clat");
	latency(j, d, "lat");
}

/*
 * The directions of fio's rw value ("randread", "rw:8"): 1 read, 2 write,
 * 4 trim; fio's default (none) reads.
 */
static unsigned rw_dirs(const char *rw)
{
	static const struct {
		const char *rw;
		unsigned dirs;
	} table[] = {
		{ "read", 1 },	    { "randread", 1 },	    { "write", 2 },
		{ "randwrite", 2 }, { "trim", 4 },	    { "randtrim", 4 },
		{ "rw", 3 },	    { "readwrite", 3 },	    { "randrw", 3 },
		{ "trimwrite", 6 }, { "randtrimwrite", 6 },
	};

	if (!rw)
		return 1;
	for (size_t i = 0; i < sizeof(table) / sizeof(*table); i++) {
		size_t n = strlen(table[i].rw);

		if (strncmp(rw, table[i].rw, n) == 0 &&
		    (rw[n] == '\0' || rw[n] == ':'))
			return table[i].dirs;
	}
	return 7;
}

/*
 * The job's options: the global ones, then its own over them, copied
 * (the job's document is the arena's, jobs_read()).
 */
static json_t *options_of(const json_t *global, const json_t *job)
{
	json_t *o =
		json_is_object(global) ? json_deep_copy(global) : json_object();
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)json_object_get(job, "job options"), key,
			    v) {
		if (o && json_object_set_new(o, key, json_deep_copy(v))) {
			json_decref(o);
			o = NULL;
		}
	}
	if (o)
		json_object_del(o, "name");
	return o;
}

/* What the jobs of one file share. */
struct fio_file {
	const struct import_in *in;
	struct import_out *out;
	const json_t *global;
	const char *version;
	json_t *seen;	/* job names so far, for clones_before() */
	double longest; /* the longest job's seconds */
	struct fio_host {
		char name[256]; /* "": the file names none */
		struct import_run run;
	} hosts[16];
	size_t nhosts;
};

/* The run of host (a client's, in fio's client/server output). */
static int run_of(struct fio_file *f, const char *host, struct import_run **run,
		  char *err, size_t errlen)
{
	struct fio_host *h;
	int rc;

	for (size_t i = 0; i < f->nhosts; i++)
		if (strcmp(f->hosts[i].name, host ? host : "") == 0) {
			*run = &f->hosts[i].run;
			return 0;
		}
	if (f->nhosts == sizeof(f->hosts) / sizeof(*f->hosts))
		return hb_errorf(err, errlen, -EINVAL,
				 "more than %zu hosts in one file", f->nhosts);
	h = &f->hosts[f->nhosts++];
	snprintf(h->name, sizeof(h->name), "%s", host ? host : "");
	rc = import_run_new(&h->run, f->in, f->out, "fio", f->version, host);
	*run = &h->run;
	return rc ? hb_errorf(err, errlen, rc, "out of memory") : 0;
}

/*
 * How many jobs of host before this one had its name (fio's numjobs
 * clones share it), counted in seen.
 */
static size_t clones_before(json_t *seen, const char *host, const char *name)
{
	char key[600];
	json_int_t n;

	snprintf(key, sizeof(key), "%.80s\n%.500s", host ? host : "", name);
	n = json_integer_value(json_object_get(seen, key));
	json_object_set_new(seen, key, json_integer(n + 1));
	return (size_t)n;
}

/* The case of job j (named name) in direction dir. */
static void job_case(struct fio_job *j, const char *name, size_t clone,
		     const char *dir, const json_t *params)
{
	if (clone)
		snprintf(j->job, sizeof(j->job), "%.200s #%zu", name,
			 clone + 1);
	else
		snprintf(j->job, sizeof(j->job), "%.200s", name);
	snprintf(j->title, sizeof(j->title), "%s %s", j->job, dir);
	snprintf(j->target, sizeof(j->target), "fio/%s", dir);
	j->c = (struct import_case){ .job = j->job,
				     .title = j->title,
				     .target = j->target,
				     .backend = "fio",
				     .params = params };
}

static const char *const dirs[] = { "read", "write", "trim" };

/* Job jobs[k] that fio ended with an error: each direction failed. */
static void job_failed(struct fio_job *j, const char *name, size_t clone,
		       const json_t *params, double error)
{
	const struct import_figure bw = { "bw", "MiB/s", 0 };
	unsigned want =
		rw_dirs(json_string_value(json_object_get(params, "rw")));
	char reason[128];

	snprintf(reason, sizeof(reason), "fio: error %.0f (%s)", error,
		 error > 0 && error < 4096 ? strerror((int)error) : "?");
	for (size_t d = 0; d < 3; d++) {
		if (!(want & (1u << d)))
			continue;
		job_case(j, name, clone, dirs[d], params);
		import_failed(j->run, &j->c, &bw, reason);
	}
}

/* Direction d of jobs[k]: refused without a bandwidth or IOPS. */
static int direction_check(size_t k, const char *dir, const json_t *d,
			   char *err, size_t errlen)
{
	if (!isfinite(import_num(d, "bw_bytes")) &&
	    !isfinite(import_num(d, "bw")))
		return hb_errorf(err, errlen, -EINVAL,
				 "jobs[%zu].%s: no \"bw_bytes\" nor \"bw\"", k,
				 dir);
	if (!isfinite(import_num(d, "iops")))
		return hb_errorf(err, errlen, -EINVAL,
				 "jobs[%zu].%s: no \"iops\"", k, dir);
	return 0;
}

/* The directions job did, each a case; refused when one lacks a figure. */
static int job_directions(struct fio_file *f, struct fio_job *j,
			  const json_t *job, size_t k, size_t clone,
			  const json_t *params, char *err, size_t errlen)
{
	const char *name = json_string_value(json_object_get(job, "jobname"));
	size_t did = 0;
	int rc = 0;

	for (size_t d = 0; !rc && d < 3; d++) {
		const json_t *dj = json_object_get(job, dirs[d]);

		if (!worked(dj))
			continue;
		rc = direction_check(k, dirs[d], dj, err, errlen);
		if (rc)
			break;
		job_case(j, name, clone, dirs[d], params);
		direction(j, dj);
		did++;
	}
	if (!rc && !did)
		import_note(f->out, f->in, "job %.200s did no I/O: left out",
			    name);
	return rc;
}

/* jobs[k] of the file (job) into its host's run. */
static int job_read(struct fio_file *f, const json_t *job, size_t k, char *err,
		    size_t errlen)
{
	const char *name = json_string_value(json_object_get(job, "jobname"));
	const char *host = json_string_value(json_object_get(job, "hostname"));
	struct fio_job j = { 0 };
	json_t *params;
	size_t clone;
	int rc;

	if (!json_is_object(job) || !name)
		return hb_errorf(err, errlen, -EINVAL,
				 "jobs[%zu]: no \"jobname\"", k);
	if (strcmp(name, "All clients") == 0)
		return 0; /* client/server's sum of the hosts */
	rc = run_of(f, host, &j.run, err, errlen);
	if (rc)
		return rc;
	params = options_of(f->global, job);
	if (!params)
		return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	clone = clones_before(f->seen, host, name);
	if (import_num(job, "elapsed") > f->longest)
		f->longest = import_num(job, "elapsed");
	if (import_num(job, "error") > 0)
		job_failed(&j, name, clone, params, import_num(job, "error"));
	else
		rc = job_directions(f, &j, job, k, clone, params, err, errlen);
	json_decref(params);
	if (!rc && j.run->bad)
		rc = hb_errorf(err, errlen, -ENOMEM, "out of memory");
	return rc;
}

/* The runs' times: fio's timestamp is its end, less the longest job. */
static void file_times(struct fio_file *f, const json_t *root)
{
	double end = import_num(root, "timestamp_ms") / 1e3;
	char started[TIMETEXT_LEN], ended[TIMETEXT_LEN];

	if (!isfinite(end))
		end = import_num(root, "timestamp");
	if (import_time_of(end, ended, sizeof(ended)) ||
	    import_time_of(end - f->longest, started, sizeof(started)))
		return;
	for (size_t i = 0; i < f->nhosts; i++)
		import_run_times(&f->hosts[i].run, started, ended, f->longest);
}

/* What of fio's document is read whole: all but its jobs, one at a time. */
static const char *const top_unread[] = { "jobs", "client_stats", "disk_util",
					  NULL };

/*
 * Each job of the file, parsed and read one at a time (a file of 10,000
 * jobs is never one document): "jobs", or fio --client's "client_stats".
 */
static int jobs_read(struct fio_file *f, const json_t *root, char *err,
		     size_t errlen)
{
	const char *key = json_object_get(root, "jobs") ? "jobs"
			  : json_object_get(root, "client_stats")
				  ? "client_stats"
				  : NULL;
	struct import_span *spans = NULL;
	size_t n = 0;
	int rc = key ? import_json_array(f->in->text, f->in->len, key, &spans,
					 &n, err, errlen)
		     : hb_errorf(err, errlen, -EINVAL, "no \"jobs\" array");

	/* each job parsed in the arena, read into the run, given back */
	for (size_t k = 0; !rc && k < n; k++) {
		json_t *job;

		jsonarena_begin();
		rc = import_json_span(f->in->text, &spans[k], unread, &job, err,
				      errlen);
		jsonarena_pause();
		if (!rc)
			rc = job_read(f, job, k, err, errlen);
		jsonarena_end();
	}
	free(spans);
	if (!rc && !f->nhosts)
		rc = hb_errorf(err, errlen, -EINVAL, "no job in \"%s\"", key);
	return rc;
}

static int fio_read(const struct import_in *in, struct import_out *out,
		    char *err, size_t errlen)
{
	struct fio_file f = { .in = in, .out = out, .seen = json_object() };
	const char *version;
	json_t *root = NULL;
	size_t after; /* fio's warnings may follow: read no further */
	int rc = f.seen ? import_json(in->text, in->len, top_unread, &root,
				      &after, err, errlen)
			: hb_errorf(err, errlen, -ENOMEM, "out of memory");

	version = json_string_value(json_object_get(root, "fio version"));
	if (!rc && !version)
		rc = hb_errorf(err, errlen, -EINVAL, "no \"fio version\"");
	if (!rc) {
		f.version = strncmp(version, "fio-", 4) == 0 ? version + 4
							     : version;
		f.global = json_object_get(root, "global options");
		rc = jobs_read(&f, root, err, errlen);
	}
	if (!rc)
		file_times(&f, root);
	json_decref(f.seen);
	json_decref(root);
	return rc;
}

const struct import_format import_fio = {
	.name = "fio",
	.summary = "fio --output-format=json or json+",
	.sniff = fio_sniff,
	.read = fio_read,
};
