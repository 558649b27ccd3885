/* The journal of finished results, one JSON line each. */
#include "run/journal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/case_json.h"
#include "run/result_json.h"
#include "base/util.h"

/*
 * The identity of a case across runs: job label, target, backend,
 * parallel and every parameter, as the suite wrote them.
 */
static char *case_key(const struct suite *s, const struct bench_case *c)
{
	size_t len = 0;
	char *key = NULL;
	FILE *f = open_memstream(&key, &len);

	if (!f)
		return NULL;
	fprintf(f, "%s|%s|%s|parallel=%u", s->jobs[c->job].label, c->target,
		c->backend, c->parallel);
	for (size_t i = 0; i < c->params.n; i++)
		fprintf(f, "|%s=%s", c->params.items[i].key,
			c->params.items[i].value);
	if (fclose(f)) {
		free(key);
		return NULL;
	}
	return key;
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

		if (key)
			json_object_set(j->done, key, o);
		json_decref(o); /* a torn or foreign line is skipped */
		torn = line[n - 1] != '\n';
	}
	free(line);
	return torn;
}

int journal_open(struct journal *j, const char *path, int resume, char *err,
		 size_t errlen)
{
	FILE *old;
	int torn = 0;

	memset(j, 0, sizeof(*j));
	j->done = json_object();
	if (!j->done)
		return -ENOMEM;
	if (resume) {
		old = fopen(path, "r");
		if (!old)
			return hb_errorf(err, errlen, -errno, "--resume %s: %s",
					 path, strerror(errno));
		torn = journal_read(j, old);
		fclose(old);
	}
	j->fp = fopen(path, "a");
	if (!j->fp)
		return hb_errorf(err, errlen, -errno, "--journal %s: %s", path,
				 strerror(errno));
	if (torn) /* end the torn line so the next one stands alone */
		fputc('\n', j->fp);
	return 0;
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
	if (rc) { /* unreadable: measure it again */
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
	/* enough to render the journal again (`hostbench report`) */
	json_object_set_new(o, "case", case_json_report_put(s, c));
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
