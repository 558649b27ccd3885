/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The static site of a history: the directory made or checked, then the
 * index and a page per host, each written to a temporary file in the
 * directory and renamed over its name.
 */
#include "history/dashboard.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fspath.h"
#include "history/history_write.h"
#include "history/view.h"
#include <hostbench/plugin.h>
#include "report/html.h"

/* Runs listed per host on the index, newest first. */
#define DASHBOARD_RUNS 10

/* A page being written: where it goes and its temporary file. */
struct dashboard_page {
	struct fspath at;
	char *tmp;
	FILE *out;
};

void dashboard_page_name(const char *id, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "host-");

	for (const unsigned char *p = (const unsigned char *)id;
	     *p && used < len; p++) {
		int safe = (*p >= 'a' && *p <= 'z') ||
			   (*p >= 'A' && *p <= 'Z') ||
			   (*p >= '0' && *p <= '9') || *p == '-';

		used += (size_t)snprintf(buf + used, len - used,
					 safe ? "%c" : "_%02x", *p);
	}
	if (used < len)
		snprintf(buf + used, len - used, ".html");
}

/*
 * Walk dir into at and judge it: a directory of the user's own that no
 * one else may write to, or one that may be made. Returns 0 or a negative errno with err filled.
 */
static int site_judge(struct fspath *at, const char *dir, char *err,
		      size_t errlen)
{
	char why[256];
	int rc = fspath_walk(at, dir, FSPATH_FOLLOW, why, sizeof(why));

	if (!rc)
		rc = fspath_check_owner(at, geteuid(), why, sizeof(why));
	if (rc)
		return hb_errorf(err, errlen, rc, "dashboard %s: %s", dir, why);
	if (at->st.st_mode && !S_ISDIR(at->st.st_mode))
		return hb_errorf(err, errlen, -ENOTDIR,
				 "dashboard %s: exists and is not a directory",
				 dir);
	if (at->st.st_mode && fspath_shared(&at->st))
		return hb_errorf(err, errlen, -EPERM,
				 "dashboard %s: other users may write to it "
				 "(mode %04o, group %u), and replace its pages "
				 "(give a directory of your own)",
				 dir, (unsigned)(at->st.st_mode & 07777),
				 (unsigned)at->st.st_gid);
	return 0;
}

int dashboard_check(const char *dir, char *err, size_t errlen)
{
	struct fspath at;
	int rc = site_judge(&at, dir, err, errlen);

	fspath_free(&at);
	return rc;
}

/* Make dir, or check that what is there is a directory. */
static int site_dir(const char *dir, char *err, size_t errlen)
{
	struct fspath at;
	int rc = site_judge(&at, dir, err, errlen);

	if (!rc && !at.st.st_mode && mkdirat(at.dirfd, at.name, 0755) != 0) {
		int e = errno;

		rc = hb_errorf(err, errlen, -e, "dashboard: mkdir %s: %s", dir,
			       strerror(e));
	}
	fspath_free(&at);
	return rc;
}

/* Open a temporary file for page name in dir. */
static int page_open(struct dashboard_page *pg, const char *dir,
		     const char *name, char *err, size_t errlen)
{
	char path[4096], why[256];
	int fd, rc;

	*pg = (struct dashboard_page){ .tmp = NULL };
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	rc = fspath_walk(&pg->at, path, 0, why, sizeof(why));
	if (rc)
		return hb_errorf(err, errlen, rc, "dashboard %s: %s", path,
				 why);
	fd = fspath_temporary(&pg->at, 0644, &pg->tmp);
	if (fd < 0) {
		rc = hb_errorf(err, errlen, fd, "dashboard %s: %s", path,
			       strerror(-fd));
		goto out_free;
	}
	pg->out = fdopen(fd, "w");
	if (pg->out)
		return 0;
	rc = -errno;
	rc = hb_errorf(err, errlen, rc, "dashboard %s: %s", path,
		       strerror(-rc));
	close(fd);
	unlinkat(pg->at.dirfd, pg->tmp, 0);
out_free:
	free(pg->tmp);
	fspath_free(&pg->at);
	return rc;
}

/*
 * Close a page and, when rc is 0 and it was written whole, rename it over
 * its name; else remove the temporary file. Returns rc, or the failure.
 */
static int page_close(struct dashboard_page *pg, int rc, char *err,
		      size_t errlen)
{
	int werr = ferror(pg->out) || fflush(pg->out) || fsync(fileno(pg->out));

	if (!rc && werr)
		rc = hb_errorf(err, errlen, -EIO,
			       "dashboard: writing %s/%s: %s", pg->at.dir,
			       pg->at.name, strerror(errno));
	if (fclose(pg->out) && !rc)
		rc = hb_errorf(err, errlen, -EIO, "dashboard: closing %s/%s",
			       pg->at.dir, pg->at.name);
	if (!rc && renameat(pg->at.dirfd, pg->tmp, pg->at.dirfd, pg->at.name)) {
		rc = -errno;
		rc = hb_errorf(err, errlen, rc,
			       "dashboard: rename to %s/%s: %s", pg->at.dir,
			       pg->at.name, strerror(-rc));
	}
	if (rc)
		unlinkat(pg->at.dirfd, pg->tmp, 0);
	free(pg->tmp);
	fspath_free(&pg->at);
	return rc;
}

/* Nonzero when series s belongs to host id. */
static int of_host(const json_t *s, const char *id)
{
	const char *host = view_str(s, "host");

	return host && strcmp(host, id) == 0;
}

/* Order of runs: newest first by their RFC 3339 time. */
static int newest_first(const void *a, const void *b)
{
	const char *x = view_str(*(json_t *const *)a, "time");
	const char *y = view_str(*(json_t *const *)b, "time");

	return strcmp(y ? y : "", x ? x : "");
}

/* The runs of host id in doc: run uuid -> {time, results}. */
static json_t *host_runs(const json_t *doc, const char *id)
{
	json_t *runs = json_object(), *s, *p;
	size_t i, k;

	json_array_foreach(json_object_get(doc, "series"), i, s) {
		if (!runs || !of_host(s, id))
			continue;
		json_array_foreach(json_object_get(s, "points"), k, p) {
			const char *run = view_str(p, "run");
			json_t *r = run ? json_object_get(runs, run) : NULL;

			if (run && !r)
				json_object_set_new(
					runs, run,
					json_pack("{s:s?,s:s,s:i}", "time",
						  view_str(p, "time"), "run",
						  run, "results", 0));
			r = run ? json_object_get(runs, run) : NULL;
			json_object_set_new(
				r, "results",
				json_integer(json_integer_value(json_object_get(
						     r, "results")) +
					     1));
		}
	}
	return runs;
}

/* The table of a host's newest runs on the index. */
static int index_runs(FILE *out, const json_t *doc, const char *id)
{
	json_t *runs = host_runs(doc, id), *r;
	json_t **order;
	const char *key;
	size_t n = 0;

	order = runs ? calloc(json_object_size(runs) + 1, sizeof(json_t *))
		     : NULL;
	if (!order) {
		json_decref(runs);
		return -ENOMEM;
	}
	json_object_foreach(runs, key, r)
		order[n++] = r;
	qsort(order, n, sizeof(json_t *), newest_first);
	fputs("<table class=\"runs\">\n<thead><tr><th>Time</th><th>Run</th>"
	      "<th>Results</th></tr></thead>\n<tbody>\n",
	      out);
	for (size_t i = 0; i < n && i < DASHBOARD_RUNS; i++) {
		fputs("<tr><th>", out);
		html_text(out, view_str(order[i], "time"));
		fputs("</th><td class=\"text\">", out);
		html_text(out, view_str(order[i], "run"));
		fprintf(out, "</td><td>%lld</td></tr>\n",
			(long long)json_integer_value(
				json_object_get(order[i], "results")));
	}
	fputs("</tbody>\n</table>\n", out);
	free(order);
	json_decref(runs);
	return 0;
}

/* A host's facts as table rows (the index and its page show them). */
static void host_facts(FILE *out, const json_t *h)
{
	fputs("<table class=\"host\">\n<tbody>\n<tr><th>Id</th>"
	      "<td class=\"text\">",
	      out);
	html_text(out, view_str(h, "id"));
	fputs("</td></tr>\n<tr><th>CPU</th><td class=\"text\">", out);
	html_text(out, view_str(h, "cpu_model"));
	fprintf(out,
		"</td></tr>\n<tr><th>Logical CPUs</th><td>%.0f</td></tr>\n"
		"<tr><th>Memory</th><td>%.1f GiB</td></tr>\n"
		"<tr><th>Runs</th><td>%.0f</td></tr>\n"
		"<tr><th>Last run</th><td class=\"text\">",
		view_num(h, "logical_cpus"),
		view_num(h, "ram_kb") / (1024.0 * 1024.0), view_num(h, "runs"));
	html_text(out, view_str(h, "last_time"));
	fputs(" ", out);
	html_text(out, view_str(h, "last_run"));
	fputs("</td></tr>\n</tbody>\n</table>\n", out);
}

/* The index: every host, its facts, its newest runs, a link to its page. */
static int index_page(FILE *out, const json_t *doc)
{
	const json_t *hosts = json_object_get(doc, "hosts");
	char page[3 * DASHBOARD_ID_MAX + 16];
	int rc = 0;

	html_begin(out, "hostbench dashboard");
	fputs("<p class=\"notes\">Store: ", out);
	html_text(out, view_str(doc, "store"));
	fputs("</p>\n", out);
	for (size_t i = 0; i < json_array_size(hosts) && !rc; i++) {
		const json_t *h = json_array_get(hosts, i);
		const char *id = view_str(h, "id");

		if (!id)
			continue;
		dashboard_page_name(id, page, sizeof(page));
		html_section(out, view_host_name(doc, id));
		fputs("<p><a class=\"host-page\" href=\"", out);
		html_text(out, page);
		fputs("\">Trends and change points of ", out);
		html_text(out, view_host_name(doc, id));
		fputs("</a></p>\n", out);
		host_facts(out, h);
		rc = index_runs(out, doc, id);
		html_section_end(out);
	}
	html_end(out);
	return rc;
}

/* A host's page: its facts, then each of its series with its chart. */
static int host_page(FILE *out, const json_t *doc, const json_t *h)
{
	const json_t *series = json_object_get(doc, "series");
	const char *id = view_str(h, "id");
	char title[VIEW_LINE];
	int rc = 0;

	snprintf(title, sizeof(title), "hostbench dashboard: %s",
		 view_host_name(doc, id));
	html_begin(out, title);
	fputs("<p><a class=\"index\" href=\"index.html\">All hosts</a></p>\n",
	      out);
	host_facts(out, h);
	for (size_t i = 0; i < json_array_size(series) && !rc; i++)
		if (of_host(json_array_get(series, i), id))
			rc = history_write_html_series(
				out, doc, json_array_get(series, i), 0);
	html_end(out);
	return rc;
}

/* Write page name: host h's, or the index for NULL. 0 or a negative code. */
static int page_write(const char *dir, const char *name, const json_t *doc,
		      const json_t *h, char *err, size_t errlen)
{
	struct dashboard_page pg;
	int rc = page_open(&pg, dir, name, err, errlen);

	if (rc)
		return rc;
	rc = h ? host_page(pg.out, doc, h) : index_page(pg.out, doc);
	if (rc)
		rc = hb_errorf(err, errlen, rc, "dashboard %s/%s: %s", dir,
			       name, strerror(-rc));
	return page_close(&pg, rc, err, errlen);
}

/* Refuse a host id no page can be named for before writing anything. */
static int check_ids(const json_t *doc, char *err, size_t errlen)
{
	const json_t *h;
	size_t i;

	json_array_foreach(json_object_get(doc, "hosts"), i, h) {
		const char *id = view_str(h, "id");

		if (id && strlen(id) > DASHBOARD_ID_MAX)
			return hb_errorf(err, errlen, -EINVAL,
					 "dashboard: host id \"%.16s...\" is "
					 "longer than %d bytes",
					 id, DASHBOARD_ID_MAX);
	}
	return 0;
}

int dashboard_write(const json_t *doc, const char *dir, char *err,
		    size_t errlen)
{
	char page[3 * DASHBOARD_ID_MAX + 16];
	const json_t *h;
	size_t i;
	int rc = check_ids(doc, err, errlen);

	rc = rc ? rc : site_dir(dir, err, errlen);
	json_array_foreach(json_object_get(doc, "hosts"), i, h) {
		if (rc || !view_str(h, "id"))
			continue;
		dashboard_page_name(view_str(h, "id"), page, sizeof(page));
		rc = page_write(dir, page, doc, h, err, errlen);
	}
	return rc ? rc : page_write(dir, "index.html", doc, NULL, err, errlen);
}
