/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The static site of a history: the directory made or checked, then a
 * page per host, a page per case and the index (dashboard_pages.c), each
 * written to a temporary file in the
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
#include "history/dashboard_pages.h"
#include "history/history_write.h"
#include "history/view.h"
#include <hostbench/plugin.h>
#include "render/html.h"

/* A page being written: where it goes and its temporary file. */
struct dashboard_page {
	struct fspath at;
	char *tmp;
	FILE *out;
};

/*
 * Walk dir into at and judge it: a directory of the user's own that no
 * one else may write to, or one that may be made. Returns 0 or a negative
 * errno with err filled.
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

/* What a page shows: the index, a host (h) or a case (a series of it). */
enum page_kind { PAGE_INDEX, PAGE_HOST, PAGE_CASE };

/* Write page name of kind about o. 0 or a negative code with err. */
static int page_write(const char *dir, const char *name, const json_t *doc,
		      enum page_kind kind, const json_t *o, char *err,
		      size_t errlen)
{
	struct dashboard_page pg;
	int rc = page_open(&pg, dir, name, err, errlen);

	if (rc)
		return rc;
	rc = kind == PAGE_HOST	 ? host_page(pg.out, doc, o)
	     : kind == PAGE_CASE ? dashboard_case(pg.out, doc, o)
				 : dashboard_index(pg.out, doc);
	if (rc)
		rc = hb_errorf(err, errlen, rc, "dashboard %s/%s: %s", dir,
			       name, strerror(-rc));
	return page_close(&pg, rc, err, errlen);
}

/* Nonzero when series i of doc is the first of its case (its page's). */
static int first_of_case(const json_t *series, size_t i)
{
	char name[DASHBOARD_CASE_NAME], other[DASHBOARD_CASE_NAME];

	dashboard_case_name(json_array_get(series, i), name, sizeof(name));
	for (size_t k = 0; k < i; k++) {
		dashboard_case_name(json_array_get(series, k), other,
				    sizeof(other));
		if (strcmp(name, other) == 0)
			return 0;
	}
	return 1;
}

/* A page per case, the same case of every host on it. */
static int case_pages(const char *dir, const json_t *doc, char *err,
		      size_t errlen)
{
	const json_t *series = json_object_get(doc, "series");
	char name[DASHBOARD_CASE_NAME];
	int rc = 0;

	for (size_t i = 0; i < json_array_size(series) && !rc; i++) {
		if (!first_of_case(series, i))
			continue;
		dashboard_case_name(json_array_get(series, i), name,
				    sizeof(name));
		rc = page_write(dir, name, doc, PAGE_CASE,
				json_array_get(series, i), err, errlen);
	}
	return rc;
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
		rc = page_write(dir, page, doc, PAGE_HOST, h, err, errlen);
	}
	rc = rc ? rc : case_pages(dir, doc, err, errlen);
	return rc ? rc
		  : page_write(dir, "index.html", doc, PAGE_INDEX, NULL, err,
			       errlen);
}
