/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The trend chart of a series and the dashboard site: a point per run,
 * change and context markers, SI labels; pages named from host ids,
 * written whole into a directory made for them.
 */
#include "history_fixture.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "history/chart.h"
#include "history/dashboard.h"
#include "text_fixture.h"

static int write_chart(FILE *out, const void *series)
{
	return chart_write(out, series, "title");
}

/* The chart of series n of the fixture, as a string; *rc its code. */
static char *chart_of(const json_t *doc, size_t n, int *rc)
{
	return text_written(write_chart, history_fixture_series(doc, n), rc);
}

/* The whole of file dir/name as a string (the caller's), NULL if none. */
static char *slurp(const char *dir, const char *name)
{
	char path[512], *text = NULL;
	size_t len = 0;
	FILE *in, *out;
	int c;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	in = fopen(path, "r");
	if (!in)
		return NULL;
	out = open_memstream(&text, &len);
	while ((c = fgetc(in)) != EOF)
		fputc(c, out);
	fclose(out);
	fclose(in);
	return text;
}

/* A new empty directory for a site's parent. */
static char *scratch(void)
{
	static char dir[64];

	snprintf(dir, sizeof(dir), "/tmp/hb-dashboard-XXXXXX");
	return mkdtemp(dir);
}

/* Remove a flat directory tree (the site and its parent). */
static void remove_tree(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

static int chart_has_a_point_per_run(void)
{
	json_t *doc = history_fixture();
	int rc;
	char *svg = chart_of(doc, 1, &rc);

	CHECK_INT(rc, 0);
	/* a flagged point is a hollow diamond, never a white dot */
	CHECK_INT(text_count(svg, "<circle class=\"point\""), 7);
	CHECK_INT(text_count(svg, "<path class=\"point flagged\""), 1);
	CHECK(!strstr(svg, "fill=\"#fff\">"));
	CHECK_CONTAINS(svg, "<g class=\"legend\">");
	CHECK_CONTAINS(svg, "<polygon class=\"ci-band\"");
	CHECK_CONTAINS(svg, "<polyline class=\"median\"");
	CHECK_CONTAINS(svg, "width=\"640\"");
	free(svg);
	json_decref(doc);
	return 0;
}

static int chart_marks_change_points_by_kind_and_state(void)
{
	json_t *doc = history_fixture();
	int rc;
	char *reg = chart_of(doc, 1, &rc), *imp;

	CHECK_INT(rc, 0);
	CHECK_CONTAINS(reg,
		       "<line class=\"change regression\" data-id=\"ch-1\" "
		       "data-state=\"new\"");
	CHECK_CONTAINS(reg, "stroke=\"#d55e00\"");
	CHECK_CONTAINS(reg, ">-11.1% new</text>");
	imp = chart_of(doc, 2, &rc);
	CHECK_CONTAINS(imp,
		       "<line class=\"change improvement\" data-id=\"ch-2\" "
		       "data-state=\"acknowledged\"");
	free(imp);
	free(reg);
	json_decref(doc);
	return 0;
}

static int chart_marks_context_changes(void)
{
	json_t *doc = history_fixture();
	int rc;
	char *svg = chart_of(doc, 1, &rc);

	CHECK_INT(rc, 0);
	CHECK_INT(text_count(svg, "class=\"context-change\""), 1);
	CHECK_CONTAINS(svg, "class=\"context-change\" data-id=\"c-2\"");
	/* what changed, not the bare id */
	CHECK_CONTAINS(svg, ">kernel 6.1 -&gt; 6.2</text>");
	free(svg);
	json_decref(doc);
	return 0;
}

static int chart_labels_its_axis_with_si_prefixes(void)
{
	json_t *doc = history_fixture();
	int rc;
	char *svg = chart_of(doc, 2, &rc);

	CHECK_INT(rc, 0);
	CHECK(!strstr(svg, "e+"));
	CHECK_CONTAINS(svg, "class=\"tick\">2M</text>");
	CHECK_CONTAINS(svg, ">ops/s</text>");
	free(svg);
	json_decref(doc);
	return 0;
}

static int si_labels_never_use_an_exponent(void)
{
	char buf[32];

	chart_si(2e6, buf, sizeof(buf));
	CHECK_STR(buf, "2M");
	chart_si(1500, buf, sizeof(buf));
	CHECK_STR(buf, "1.5k");
	chart_si(3.6e12, buf, sizeof(buf));
	CHECK_STR(buf, "3.6T");
	chart_si(0.25, buf, sizeof(buf));
	CHECK_STR(buf, "0.25");
	chart_si(0, buf, sizeof(buf));
	CHECK_STR(buf, "0");
	return 0;
}

static int chart_of_no_point_is_refused(void)
{
	json_t *s = json_pack("{s:[]}", "points");
	FILE *f = fopen("/dev/null", "w");

	CHECK_INT(chart_write(f, s, "t"), -EINVAL);
	fclose(f);
	json_decref(s);
	return 0;
}

static int page_name_is_made_from_the_id_alone(void)
{
	char buf[3 * DASHBOARD_ID_MAX + 16];

	dashboard_page_name("h-3f2a9c1e", buf, sizeof(buf));
	CHECK_STR(buf, "host-h-3f2a9c1e.html");
	dashboard_page_name("../x y", buf, sizeof(buf));
	CHECK_STR(buf, "host-_2e_2e_2fx_20y.html");
	return 0;
}

static int site_has_an_index_and_a_page_per_host(void)
{
	json_t *doc = history_fixture();
	char *top = scratch(), site[128], err[256] = "", *index, *page;
	struct dirent *e;
	size_t files = 0;
	DIR *d;

	snprintf(site, sizeof(site), "%s/site", top);
	CHECK_INT(dashboard_write(doc, site, err, sizeof(err)), 0);
	d = opendir(site);
	CHECK(d);
	while ((e = readdir(d)))
		files += e->d_name[0] != '.';
	closedir(d);
	/* index.html, two host pages, three case pages, no temporary */
	CHECK_INT(files, 6);
	index = slurp(site, "index.html");
	CHECK(index);
	CHECK_CONTAINS(index, "href=\"host-h-1.html\"");
	CHECK_CONTAINS(index, "href=\"host-h-2.html\"");
	CHECK(!strstr(index, "<script"));
	page = slurp(site, "host-h-1.html");
	CHECK(page);
	CHECK_INT(text_count(page, "class=\"chart trend-chart\""), 2);
	CHECK_CONTAINS(page, "<table class=\"changes\">");
	CHECK_CONTAINS(page, "<td class=\"text\">acknowledged</td>");
	CHECK(!strstr(page, "<script"));
	free(page);
	free(index);
	remove_tree(top);
	json_decref(doc);
	return 0;
}

static int site_over_an_old_one_replaces_its_pages(void)
{
	json_t *doc = history_fixture();
	char *top = scratch(), site[128], err[256] = "", *index;

	snprintf(site, sizeof(site), "%s/site", top);
	CHECK_INT(dashboard_write(doc, site, err, sizeof(err)), 0);
	json_object_set_new(doc, "store", json_string("sqlite:/second.db"));
	CHECK_INT(dashboard_write(doc, site, err, sizeof(err)), 0);
	index = slurp(site, "index.html");
	CHECK_CONTAINS(index, "sqlite:/second.db");
	free(index);
	remove_tree(top);
	json_decref(doc);
	return 0;
}

static int site_refuses_a_file_for_its_directory(void)
{
	json_t *doc = history_fixture();
	char *top = scratch(), site[128], err[256] = "";
	FILE *f;

	snprintf(site, sizeof(site), "%s/file", top);
	f = fopen(site, "w");
	CHECK(f);
	fclose(f);
	CHECK_INT(dashboard_write(doc, site, err, sizeof(err)), -ENOTDIR);
	CHECK_CONTAINS(err, "exists and is not a directory");
	remove_tree(top);
	json_decref(doc);
	return 0;
}

static int site_refuses_a_host_id_too_long_to_name(void)
{
	json_t *doc = history_fixture();
	char *top = scratch(), site[128], err[256] = "", id[100];
	struct stat st;

	memset(id, 'a', sizeof(id) - 1);
	id[sizeof(id) - 1] = '\0';
	json_object_set_new(json_array_get(json_object_get(doc, "hosts"), 0),
			    "id", json_string(id));
	snprintf(site, sizeof(site), "%s/site", top);
	CHECK_INT(dashboard_write(doc, site, err, sizeof(err)), -EINVAL);
	CHECK(stat(site, &st) != 0); /* refused before anything was made */
	remove_tree(top);
	json_decref(doc);
	return 0;
}

static const struct test tests[] = {
	{ "chart_has_a_point_per_run", chart_has_a_point_per_run },
	{ "chart_marks_change_points_by_kind_and_state",
	  chart_marks_change_points_by_kind_and_state },
	{ "chart_marks_context_changes", chart_marks_context_changes },
	{ "chart_labels_its_axis_with_si_prefixes",
	  chart_labels_its_axis_with_si_prefixes },
	{ "si_labels_never_use_an_exponent", si_labels_never_use_an_exponent },
	{ "chart_of_no_point_is_refused", chart_of_no_point_is_refused },
	{ "page_name_is_made_from_the_id_alone",
	  page_name_is_made_from_the_id_alone },
	{ "site_has_an_index_and_a_page_per_host",
	  site_has_an_index_and_a_page_per_host },
	{ "site_over_an_old_one_replaces_its_pages",
	  site_over_an_old_one_replaces_its_pages },
	{ "site_refuses_a_file_for_its_directory",
	  site_refuses_a_file_for_its_directory },
	{ "site_refuses_a_host_id_too_long_to_name",
	  site_refuses_a_host_id_too_long_to_name },
};

TEST_MAIN(tests)
