/* The journal of finished results, one JSON line each. */
#include "run/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/sanitize.h"
#include "base/util.h"
#include "run/result_check.h"
#include "run/result_json.h"

/*
 * The identity of a case across runs: job label, target, backend,
 * parallel and every parameter, as the suite wrote them, as one JSON
 * array, so no value can pass for a separator ("1|b=2" stays one value).
 */
static char *case_key(const struct suite *s, const struct bench_case *c)
{
	json_t *key = json_pack("[s,s,s,i]", s->jobs[c->job].label, c->target,
				c->backend, (json_int_t)c->parallel);
	char *text = NULL;
	int bad = !key;

	for (size_t i = 0; !bad && i < c->params.n; i++)
		bad = json_array_append_new(
			key, json_pack("[s,s]", c->params.items[i].key,
				       c->params.items[i].value));
	if (!bad)
		text = json_dumps(key, JSON_COMPACT);
	json_decref(key);
	return text;
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
 * Open path as the journal: never through a symbolic link, and only a
 * regular file (a FIFO would hang, a device would swallow the lines); with
 * resume it must exist. Returns the stream, or NULL with *why set to an
 * errno value (ELOOP: a link; ENOTSUP: not a regular file).
 */
static FILE *journal_file(const char *path, int resume, int *why)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a reader */
	int fd = open(path,
		      O_RDWR | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC |
			      (resume ? 0 : O_CREAT),
		      0666);
	struct stat st;
	FILE *f = NULL;

	*why = fd < 0 ? errno : 0;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || fcntl(fd, F_SETFL, O_APPEND))
		*why = errno;
	else if (!S_ISREG(st.st_mode))
		*why = ENOTSUP;
	else if (!(f = fdopen(fd, "a+")))
		*why = errno;
	if (!f)
		close(fd);
	return f;
}

/* Why journal_file() refused, in words. */
static const char *journal_why(int why)
{
	if (why == ELOOP)
		return "a symbolic link (give the file itself)";
	if (why == ENOTSUP)
		return "not a regular file";
	return strerror(why);
}

int journal_open(struct journal *j, const char *path, int resume, char *err,
		 size_t errlen)
{
	const char *opt = resume ? "--resume" : "--journal";
	int torn = 0, why;

	memset(j, 0, sizeof(*j));
	j->done = json_object();
	if (!j->done)
		return -ENOMEM;
	j->fp = journal_file(path, resume, &why);
	if (!j->fp)
		return hb_errorf(err, errlen, -why, "%s %s: %s", opt, path,
				 journal_why(why));
	if (resume)
		torn = journal_read(j, j->fp);
	if (ferror(j->fp))
		return hb_errorf(err, errlen, -EIO, "%s %s: %s", opt, path,
				 strerror(EIO));
	if (torn) /* end the torn line so the next one stands alone */
		fputc('\n', j->fp);
	return 0;
}

/* Mark r as taken from the journal, in every report format. */
static int journal_mark(struct result *r)
{
	r->resumed = 1;
	return strlist_push(&r->warnings, JOURNAL_RESUMED_WARNING);
}

int journal_recall(const struct journal *j, const struct suite *s,
		   const struct bench_case *c, struct result *r)
{
	char *key = case_key(s, c), err[256];
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
	if (!rc)
		rc = result_check(r, err, sizeof(err));
	/* the figures come from the samples, never from the line's word */
	if (!rc)
		rc = result_rates(r);
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
	char *key = case_key(s, c), *line = NULL;
	json_t *o = json_object();
	int rc = -ENOMEM;

	if (!key || !o)
		goto out;
	json_object_set_new(o, "key", json_string(key));
	json_object_set_new(o, "job", json_string(s->jobs[c->job].label));
	json_object_set_new(o, "title", json_string(c->title));
	json_object_set_new(o, "target", json_string(c->target));
	json_object_set_new(o, "backend", json_string(c->backend));
	if (result_json_put(o, r))
		goto out;
	line = json_dumps(o, JSON_COMPACT);
	if (!line)
		goto out;
	rc = 0;
	if (fprintf(j->fp, "%s\n", line) < 0 || fflush(j->fp) ||
	    fsync(fileno(j->fp)))
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
