/* SPDX-License-Identifier: Apache-2.0 */
/* The shipped presets, by name (presets.h). */
#include "app/presets.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/paths.h"
#include "base/sanitize.h"
#include "suite/suite_hint.h"

#define SUFFIX ".ini"

int presets_is_name(const char *arg)
{
	if (!*arg || access(arg, F_OK) == 0)
		return 0;
	for (const char *c = arg; *c; c++)
		if (!(strchr("-_.", *c) || (*c >= 'a' && *c <= 'z') ||
		      (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
			return 0;
	return 1;
}

/* The first sentence of the comment that opens file path, into buf. */
static void about_of(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[256];
	size_t n = 0;

	buf[0] = '\0';
	while (f && fgets(line, sizeof(line), f) && line[0] == ';' &&
	       n + 1 < len) {
		char *s = line + 1 + (line[1] == ' ');
		size_t k = strcspn(s, "\n");

		if (!k)
			break;
		n += (size_t)snprintf(buf + n, len - n, "%s%.*s", n ? " " : "",
				      (int)k, s);
	}
	if (f)
		fclose(f);
	for (char *c = buf; *c; c++)
		if ((*c == ':' || *c == '.') && (c[1] == ' ' || !c[1])) {
			*c = '\0';
			break;
		}
	buf[sanitize_cut_len(buf, PRESETS_ABOUT_MAX)] = '\0';
	sanitize_text(buf);
}

/* Order of two names for qsort. */
static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int presets_list(struct strlist *names, struct strlist *abouts)
{
	char dir[PATH_MAX], path[PATH_MAX + 256], about[512];
	struct dirent *e;
	DIR *d;
	int rc = 0;

	if (paths_conf("presets", dir, sizeof(dir)) || !(d = opendir(dir)))
		return -ENOENT;
	while (!rc && (e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);

		if (n <= strlen(SUFFIX) || e->d_name[0] == '.' ||
		    strcmp(e->d_name + n - strlen(SUFFIX), SUFFIX) != 0)
			continue;
		e->d_name[n - strlen(SUFFIX)] = '\0';
		rc = strlist_push(names, e->d_name);
	}
	closedir(d);
	if (names->n)
		qsort(names->items, names->n, sizeof(*names->items), name_cmp);
	for (size_t i = 0; !rc && i < names->n; i++) {
		snprintf(path, sizeof(path), "%s/%s" SUFFIX, dir,
			 names->items[i]);
		about_of(path, about, sizeof(about));
		rc = strlist_push(abouts, about);
	}
	return rc ? -ENOMEM : 0;
}

int presets_find(const char *name, char *path, size_t len, char *err,
		 size_t errlen)
{
	struct strlist names = { 0 }, abouts = { 0 };
	struct suite_hint h = { .typed = name };
	char rel[NAME_MAX + 16], hint[192];
	int rc;

	if (snprintf(rel, sizeof(rel), "presets/%s" SUFFIX, name) <
		    (int)sizeof(rel) &&
	    paths_conf(rel, path, len) == 0)
		return 0;
	presets_list(&names, &abouts);
	for (size_t i = 0; i < names.n; i++)
		suite_hint_try(&h, names.items[i]);
	rc = hb_errorf(
		err, errlen, -ENOENT,
		"%.64s: no such file, nor preset%s; hostbench presets lists "
		"them",
		name, suite_hint_text(&h, hint, sizeof(hint)));
	strlist_free(&names);
	strlist_free(&abouts);
	return rc;
}
