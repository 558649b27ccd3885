/* SPDX-License-Identifier: Apache-2.0 */
/* The journal of finished results, one JSON line each. */
#include "result/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fspath.h"
#include "base/sanitize.h"
#include "base/siphash.h"
#include "base/timetext.h"
#include "base/util.h"
#include "result/case_json.h"
#include "result/result_check.h"
#include "result/result_json.h"
#include "suite/suite_value.h"

/*
 * A parameter's value as the journal keeps it: as written, or for a secret
 * option "secret:" and its keyed hash, so cases stay apart and the value
 * is never written.
 */
static json_t *key_value(const struct journal *j, const struct bench_case *c,
			 const struct kv *p)
{
	char text[32];

	if (!suite_value_is_secret(c->tdesc, p->key))
		return json_string(p->value);
	snprintf(text, sizeof(text), "secret:%016llx",
		 (unsigned long long)siphash(j->hash_key, p->value,
					     strlen(p->value)));
	return json_string(text);
}

/*
 * The identity of a case across runs: job label, target, backend,
 * parallel and every parameter, as the suite wrote them, as one JSON
 * array, so no value can pass for a separator ("1|b=2" stays one value).
 */
static char *case_key(const struct journal *j, const struct suite *s,
		      const struct bench_case *c)
{
	json_t *key = json_pack("[s,s,s,i]", s->jobs[c->job].label, c->target,
				c->backend, (json_int_t)c->parallel);
	char *text = NULL;
	int bad = !key;

	for (size_t i = 0; !bad && i < c->params.n; i++)
		bad = json_array_append_new(
			key, json_pack("[s,o]", c->params.items[i].key,
				       key_value(j, c, &c->params.items[i])));
	if (!bad)
		text = json_dumps(key, JSON_COMPACT);
	json_decref(key);
	return text;
}

/* The hash key of a {"journal_key": HEX} line into j, the first one seen. */
static void hash_key_get(struct journal *j, const json_t *o)
{
	const char *hex = json_string_value(json_object_get(o, "journal_key"));
	char pair[3] = "";

	if (j->have_key || !hex || strlen(hex) != 2 * SIPHASH_KEY ||
	    strspn(hex, "0123456789abcdef") != 2 * SIPHASH_KEY)
		return;
	for (size_t i = 0; i < SIPHASH_KEY; i++) {
		memcpy(pair, hex + 2 * i, 2);
		j->hash_key[i] = (unsigned char)strtoul(pair, NULL, 16);
	}
	j->have_key = 1;
}

/*
 * Write the hash key as a line of its own, once, before the first line
 * whose key it hashed (resume reads it back). Returns 0 or -errno.
 */
static int hash_key_put(struct journal *j)
{
	char hex[2 * SIPHASH_KEY + 1];

	if (j->key_written)
		return 0;
	for (size_t i = 0; i < SIPHASH_KEY; i++)
		snprintf(hex + 2 * i, 3, "%02x", j->hash_key[i]);
	if (fprintf(j->fp, "{\"journal_key\":\"%s\"}\n", hex) < 0)
		return -errno;
	j->key_written = 1;
	return 0;
}

/*
 * The run appending, as every line names it: its uuid, start, label and
 * place in a fleet (the journal read as a report names the run of its
 * last line, compare/journal_doc.h). NULL when no run is named.
 */
static json_t *run_of(const struct journal *j)
{
	json_t *all, *o;
	int bad = 0;

	all = j->run ? runinfo_json(j->run, &bad) : NULL;
	if (!all || bad) {
		json_decref(all);
		return NULL;
	}
	o = json_pack("{s:O, s:O, s:O, s:O}", "uuid",
		      json_object_get(all, "uuid"), "started",
		      json_object_get(all, "started"), "label",
		      json_object_get(all, "label"), "fleet",
		      json_object_get(all, "fleet"));
	json_decref(all);
	return o;
}

/* Now as RFC 3339 text: when a line was written. */
static json_t *now_text(void)
{
	struct timespec ts;
	char text[TIMETEXT_LEN];

	clock_gettime(CLOCK_REALTIME, &ts);
	if (timetext_rfc3339(&ts, text, sizeof(text)))
		return json_null();
	return json_string(text);
}

/* Nonzero when a parameter of c is a secret option. */
static int has_secret(const struct bench_case *c)
{
	for (size_t i = 0; i < c->params.n; i++)
		if (suite_value_is_secret(c->tdesc, c->params.items[i].key))
			return 1;
	return 0;
}

/*
 * Read every whole line of an earlier journal into j->done. Returns 1 when
 * the file ends in a torn line (the core died while writing it).
 */
static int journal_read(struct journal *j, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int torn = 0;

	while ((n = getline(&line, &cap, f)) > 0) {
		json_t *o = json_loads(line, 0, NULL);
		const char *key = json_string_value(json_object_get(o, "key"));

		hash_key_get(j, o);
		/* the key is matched as written; the rest is shown */
		if (key && json_object_set(j->done, key, o) == 0)
			sanitize_json(o);
		json_decref(o); /* a torn or foreign line is skipped */
		torn = line[n - 1] != '\n';
	}
	free(line);
	return torn;
}

/*
 * Judge the journal at fd (st): a regular file of yours that nobody else
 * may write, so no line and no hash key in it came from someone else.
 * Returns 0 or a negative errno with the reason in why.
 */
static int journal_judge(int fd, const struct stat *st, char *why, size_t len)
{
	if (!S_ISREG(st->st_mode))
		return hb_errorf(why, len, -ENOTSUP, "not a regular file");
	if (st->st_uid != geteuid())
		return hb_errorf(why, len, -EPERM,
				 "belongs to user %u, not you (a journal is "
				 "read back as your own)",
				 (unsigned)st->st_uid);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return hb_errorf(why, len, -EPERM,
				 "writable by others (mode %04o; fix: chmod "
				 "go-w)",
				 (unsigned)(st->st_mode & 07777));
	/* its hash key is a secret: the journal is the caller's alone */
	if ((st->st_mode & 077) && fchmod(fd, st->st_mode & 0700))
		return hb_errorf(why, len, -errno, "chmod go-r: %s",
				 strerror(errno));
	return 0;
}

/*
 * Open path as the journal: links on the way under the protected_symlinks
 * rule, none at the name itself, created 0600, and judged by
 * journal_judge() (a FIFO must not hang: O_NONBLOCK); with resume it must
 * exist. Returns the stream, or NULL with the reason in why.
 */
static FILE *journal_file(const char *path, int resume, char *why, size_t len)
{
	struct fspath at;
	struct stat st;
	FILE *f = NULL;
	int fd = -1;

	if (fspath_walk(&at, path, 0, why, len))
		goto out;
	if (S_ISLNK(at.st.st_mode)) {
		hb_error_fill(why, len,
			      "a symbolic link (give the file "
			      "itself)");
		goto out;
	}
	fd = openat(at.dirfd, at.name,
		    O_RDWR | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC |
			    (resume ? 0 : O_CREAT),
		    0600);
	if (fd < 0 || fstat(fd, &st) || fcntl(fd, F_SETFL, O_APPEND))
		hb_error_fill(why, len, "%s",
			      errno == ELOOP ? "a symbolic link (give the "
					       "file itself)"
					     : strerror(errno));
	else if (!journal_judge(fd, &st, why, len) && !(f = fdopen(fd, "a+")))
		hb_error_fill(why, len, "%s", strerror(errno));
out:
	if (!f && fd >= 0)
		close(fd);
	fspath_free(&at);
	return f;
}

int journal_open(struct journal *j, const char *path, int resume,
		 const struct runinfo *run, char *err, size_t errlen)
{
	const char *opt = resume ? "--resume" : "--journal";
	char why[512] = "";
	int torn = 0;

	memset(j, 0, sizeof(*j));
	j->run = run;
	j->done = json_object();
	if (!j->done)
		return -ENOMEM;
	j->fp = journal_file(path, resume, why, sizeof(why));
	if (!j->fp)
		return hb_errorf(err, errlen, -EINVAL, "%s %s: %s", opt, path,
				 why);
	/* the hash key of an earlier run is read whether resumed or not */
	torn = journal_read(j, j->fp);
	if (!resume)
		json_object_clear(j->done);
	if (ferror(j->fp))
		return hb_errorf(err, errlen, -EIO, "%s %s: %s", opt, path,
				 strerror(EIO));
	if (torn) /* end the torn line so the next one stands alone */
		fputc('\n', j->fp);
	/* a fresh key, written with the first line that needs it */
	j->key_written = j->have_key;
	if (!j->have_key &&
	    getrandom(j->hash_key, SIPHASH_KEY, 0) != SIPHASH_KEY)
		return hb_errorf(err, errlen, -EIO, "%s %s: no random key", opt,
				 path);
	j->have_key = 1;
	return 0;
}

/* Mark r as taken from the journal, in every report format. */
static int journal_mark(struct result *r)
{
	r->resumed = 1;
	return strlist_push(&r->warnings, JOURNAL_RESUMED_WARNING);
}

/*
 * Drop what a line says that its samples cannot prove: the plugin's notes
 * and the cycles per byte (the caller works them out again from the
 * samples, run/cycles.h).
 */
static void journal_forget_claims(struct result *r)
{
	kvlist_free(&r->info);
	r->cycles_per_byte = 0;
	r->cycles_method[0] = '\0';
	for (size_t i = 0; i < r->nparts; i++)
		journal_forget_claims(&r->parts[i]);
}

int journal_recall(const struct journal *j, const struct suite *s,
		   const struct bench_case *c, struct result *r)
{
	char *key = case_key(j, s, c), err[256];
	json_t *o;
	int rc;

	if (!key)
		return -ENOMEM;
	o = json_object_get(j->done, key);
	free(key);
	if (!o)
		return 0;
	rc = result_json_get(o, c->tdesc ? c->tdesc->parts : NULL, r, err,
			     sizeof(err));
	r->c = c;
	/* a failure or a skip is measured again: a line cannot prove it */
	if (!rc && r->status != RESULT_OK)
		rc = -EINVAL;
	if (!rc)
		rc = result_check(r, err, sizeof(err));
	/* the figures come from the samples, never from the line's word */
	if (!rc) {
		journal_forget_claims(r);
		rc = result_rates(r);
	}
	if (!rc)
		rc = result_finish(r);
	if (!rc)
		rc = journal_mark(r);
	if (rc) { /* unreadable or impossible: measure it again */
		result_free(r);
		memset(r, 0, sizeof(*r));
		return rc == -ENOMEM ? rc : 0;
	}
	return 1;
}

int journal_append(struct journal *j, const struct suite *s,
		   const struct result *r)
{
	const struct bench_case *c = r->c;
	char *key = case_key(j, s, c), *line = NULL;
	json_t *o = json_object();
	int rc = -ENOMEM;

	if (!key || !o)
		goto out;
	json_object_set_new(o, "key", json_string(key));
	json_object_set_new(o, "job", json_string(s->jobs[c->job].label));
	json_object_set_new(o, "title", json_string(c->title));
	json_object_set_new(o, "target", json_string(c->target));
	json_object_set_new(o, "backend", json_string(c->backend));
	/* enough to render the journal again (`hostbench report`) */
	json_object_set_new(o, "case", case_json_report_put(s, c));
	json_object_set_new(o, "journaled", now_text());
	if (j->run)
		json_object_set_new(o, "run", run_of(j));
	if (result_json_put(o, r))
		goto out;
	line = json_dumps(o, JSON_COMPACT);
	if (!line)
		goto out;
	rc = has_secret(c) ? hash_key_put(j) : 0;
	if (!rc && (fprintf(j->fp, "%s\n", line) < 0 || fflush(j->fp) ||
		    fsync(fileno(j->fp))))
		rc = -errno;
out:
	free(line);
	json_decref(o);
	free(key);
	return rc;
}

void journal_close(struct journal *j)
{
	if (j->fp)
		fclose(j->fp);
	json_decref(j->done);
	memset(j, 0, sizeof(*j));
}
