/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Suites: files read into draft jobs, --set applied (suite_set.c), each
 * job's target and backends resolved (suite_backend.c), every key
 * validated against the target's option table (suite_check.c);
 * suite_expand.c makes the cases.
 */
#include "suite/suite.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite/suite_backend.h"
#include "suite/suite_check.h"
#include "suite/suite_draft.h"
#include "suite/suite_file.h"
#include "suite/suite_fio.h"
#include "suite/suite_loader.h"
#include "suite/suite_set.h"

/* Largest suite file read; suites are a few hundred lines. */
#define SUITE_MAX_FILE (1024 * 1024)

/* "FILE:LINE" as a new string. */
static char *origin_at(const char *file, unsigned line)
{
	char buf[ORIGIN_MAX];

	snprintf(buf, sizeof(buf), "%s:%u", file, line);
	return strdup(buf);
}

/* A new empty draft for section sec of file name, or NULL. */
static struct draft *draft_new(struct loader *ld, const char *name,
			       const struct sf_section *sec)
{
	struct draft *d;

	if (array_grow((void **)&ld->drafts, ld->ndrafts, &ld->dcap,
		       sizeof(*d)))
		return NULL;
	d = &ld->drafts[ld->ndrafts];
	memset(d, 0, sizeof(*d));
	d->label = strdup(sec->name);
	d->file = strdup(name);
	d->line = sec->line;
	ld->ndrafts++;
	return d->label && d->file ? d : NULL;
}

/* Record a [global] key; cur lists the file's global keys in force. */
static int global_add(struct loader *ld, const char *name,
		      const struct sf_entry *e, size_t *cur, size_t *ncur)
{
	struct gsetting *g;
	size_t i;

	if (array_grow((void **)&ld->globals, ld->nglobals, &ld->gcap,
		       sizeof(*g)))
		return -ENOMEM;
	g = &ld->globals[ld->nglobals];
	memset(g, 0, sizeof(*g));
	g->key = strdup(e->key);
	g->value = strdup(e->value);
	g->origin = origin_at(name, e->line);
	if (!g->key || !g->value || !g->origin) {
		free(g->key);
		free(g->value);
		free(g->origin);
		return -ENOMEM;
	}
	for (i = 0; i < *ncur; i++)
		if (strcmp(ld->globals[cur[i]].key, e->key) == 0)
			break;
	/* A value replaced by a later [global] is not a typo: the new one
	 * is checked in its place. */
	if (i < *ncur)
		ld->globals[cur[i]].used = 1;
	cur[i] = ld->nglobals++;
	if (i == *ncur)
		(*ncur)++;
	return 0;
}

/* A job section: inherit the globals in force, then its own keys. */
static int job_add(struct loader *ld, const char *name,
		   const struct sf_section *sec, const size_t *cur, size_t ncur)
{
	struct draft *d = draft_new(ld, name, sec);

	if (!d)
		return -ENOMEM;
	for (size_t i = 0; i < ncur; i++) {
		const struct gsetting *g = &ld->globals[cur[i]];

		if (suite_draft_set(d, g->key, g->value, g->origin,
				    (long)cur[i]))
			return -ENOMEM;
	}
	for (size_t i = 0; i < sec->n; i++) {
		char *origin = origin_at(name, sec->entries[i].line);
		int rc = origin ? suite_draft_set(d, sec->entries[i].key,
						  sec->entries[i].value, origin,
						  -1)
				: -ENOMEM;

		free(origin);
		if (rc)
			return rc;
	}
	return 0;
}

/* Total number of entries in f's [global] sections: room for cur. */
static size_t count_globals(const struct suite_file *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->sections[i].name, "global") == 0)
			n += f->sections[i].n;
	return n;
}

/* Read one suite text into drafts. */
static int loader_add_text(struct loader *ld, const char *name,
			   const char *text, size_t len)
{
	struct suite_file f = { 0 };
	size_t *cur, ncur = 0, jobs = 0;
	int rc = suite_file_read(&f, name, text, len, ld->err, ld->errlen);

	if (rc)
		return rc;
	rc = -ENOMEM;
	cur = calloc(count_globals(&f) + 1, sizeof(*cur));
	if (!cur)
		goto free_file;
	for (size_t i = 0; i < f.n; i++) {
		const struct sf_section *sec = &f.sections[i];
		int is_global = strcmp(sec->name, "global") == 0;

		for (size_t j = 0; is_global && j < sec->n; j++)
			if (global_add(ld, name, &sec->entries[j], cur, &ncur))
				goto free_cur;
		if (!is_global && job_add(ld, name, sec, cur, ncur))
			goto free_cur;
		jobs += !is_global;
	}
	rc = 0;
	if (!jobs)
		rc = hb_errorf(
			ld->err, ld->errlen, -EINVAL,
			"%s: no jobs (a job is a [section] with a target)",
			name);
free_cur:
	free(cur);
free_file:
	suite_file_free(&f);
	if (rc == -ENOMEM)
		suite_loader_nomem(ld);
	return rc;
}

static void loader_free(struct loader *ld)
{
	for (size_t i = 0; i < ld->ndrafts; i++)
		suite_draft_free(&ld->drafts[i]);
	free(ld->drafts);
	for (size_t i = 0; i < ld->nglobals; i++) {
		free(ld->globals[i].key);
		free(ld->globals[i].value);
		free(ld->globals[i].origin);
	}
	free(ld->globals);
}

/* Validate and apply overrides to the drafts, then check every job. */
static int loader_check(struct loader *ld, const struct strlist *overrides)
{
	size_t n = overrides ? overrides->n : 0;
	struct suite_set *ovs = calloc(n + 1, sizeof(*ovs));
	int rc = ovs ? 0 : suite_loader_nomem(ld);

	for (size_t i = 0; i < n && !rc; i++)
		rc = suite_set_parse(ld, overrides->items[i], &ovs[i]);
	if (!rc)
		rc = suite_set_apply(ld, ovs, n, 1);
	for (size_t i = 0; i < ld->ndrafts && !rc; i++) {
		rc = suite_backend_target(ld, &ld->drafts[i]);
		if (!rc)
			rc = suite_backend_resolve(ld, &ld->drafts[i]);
	}
	if (!rc)
		rc = suite_set_apply(ld, ovs, n, 2);
	for (size_t i = 0; i < ld->ndrafts && !rc; i++)
		rc = suite_check_draft(ld, &ld->drafts[i]);
	if (!rc)
		rc = suite_check_globals(ld);
	for (size_t i = 0; ovs && i < n; i++)
		suite_set_free(&ovs[i]);
	free(ovs);
	return rc;
}

/*
 * The one path every load takes: texts[i] (lens[i] bytes) named names[i]
 * become drafts, then a checked and expanded suite.
 */
static int load_texts(struct suite *s, const char *const *names,
		      const char *const *texts, const size_t *lens, size_t n,
		      const struct strlist *overrides,
		      const struct registry *reg, char *err, size_t errlen)
{
	struct loader ld = { .reg = reg, .err = err, .errlen = errlen };
	struct suite_room room = { 0 };
	int rc = 0;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < n && !rc; i++)
		rc = loader_add_text(&ld, names[i], texts[i], lens[i]);
	if (!rc)
		rc = loader_check(&ld, overrides);
	for (size_t i = 0; i < ld.ndrafts && !rc; i++)
		rc = suite_draft_expand(&ld.drafts[i], reg, s, &room, err,
					errlen);
	loader_free(&ld);
	if (rc)
		suite_free(s);
	return rc;
}

/* Read a whole suite file into a new buffer. */
static int read_file(const char *path, char **text, size_t *len, char *err,
		     size_t errlen)
{
	FILE *f = fopen(path, "rb");
	int rc = 0;

	*text = NULL;
	if (!f)
		return hb_errorf(err, errlen, -EINVAL, "%s: cannot open: %s",
				 path, strerror(errno));
	*text = malloc(SUITE_MAX_FILE + 1);
	if (!*text) {
		rc = hb_errorf(err, errlen, -ENOMEM, "out of memory");
		goto close_file;
	}
	*len = fread(*text, 1, SUITE_MAX_FILE + 1, f);
	if (ferror(f))
		rc = hb_errorf(err, errlen, -EINVAL, "%s: cannot read: %s",
			       path, strerror(errno));
	else if (*len > SUITE_MAX_FILE)
		rc = hb_errorf(err, errlen, -EINVAL,
			       "%s: too large for a suite (max %d bytes)", path,
			       SUITE_MAX_FILE);
	if (rc) {
		free(*text);
		*text = NULL;
	}
close_file:
	fclose(f);
	return rc;
}

/* A fio job file's text (suite_fio.h) replaced by its suite text. */
static int from_fio(const char *path, char **text, size_t *len, char *err,
		    size_t errlen)
{
	char *suite;
	size_t n;
	int rc =
		suite_fio_translate(path, *text, *len, &suite, &n, err, errlen);

	if (rc)
		return rc;
	free(*text);
	*text = suite;
	*len = n;
	return 0;
}

int suite_load(struct suite *s, const char *const *files, size_t nfiles,
	       const struct strlist *overrides, const struct registry *reg,
	       char *err, size_t errlen)
{
	return suite_load_as(s, files, nfiles, overrides, reg, 0, err, errlen);
}

int suite_load_as(struct suite *s, const char *const *files, size_t nfiles,
		  const struct strlist *overrides, const struct registry *reg,
		  unsigned flags, char *err, size_t errlen)
{
	char **texts = calloc(nfiles + 1, sizeof(*texts));
	size_t *lens = calloc(nfiles + 1, sizeof(*lens));
	int rc = 0;

	memset(s, 0, sizeof(*s));
	if (!texts || !lens)
		rc = hb_errorf(err, errlen, -ENOMEM, "out of memory");
	else if (!nfiles)
		rc = hb_errorf(err, errlen, -EINVAL, "no suite file given");
	for (size_t i = 0; i < nfiles && !rc; i++) {
		rc = read_file(files[i], &texts[i], &lens[i], err, errlen);
		if (!rc && ((flags & SUITE_FIO) ||
			    suite_fio_is(files[i], texts[i], lens[i])))
			rc = from_fio(files[i], &texts[i], &lens[i], err,
				      errlen);
	}
	if (!rc)
		rc = load_texts(s, files, (const char *const *)texts, lens,
				nfiles, overrides, reg, err, errlen);
	for (size_t i = 0; texts && i < nfiles; i++)
		free(texts[i]);
	free(texts);
	free(lens);
	return rc;
}

int suite_load_buffer(struct suite *s, const char *name, const char *text,
		      size_t len, const struct strlist *overrides,
		      const struct registry *reg, char *err, size_t errlen)
{
	return load_texts(s, &name, &text, &len, 1, overrides, reg, err,
			  errlen);
}

void suite_free(struct suite *s)
{
	for (size_t i = 0; i < s->ncases; i++)
		suite_case_free(&s->cases[i]);
	free(s->cases);
	for (size_t i = 0; i < s->njobs; i++) {
		free(s->jobs[i].label);
		free(s->jobs[i].file);
		free(s->jobs[i].group);
		free(s->jobs[i].section);
		free(s->jobs[i].note);
		free(s->jobs[i].unoffered);
		strlist_free(&s->jobs[i].varying);
		kvlist_free(&s->jobs[i].origins);
	}
	free(s->jobs);
	memset(s, 0, sizeof(*s));
}
