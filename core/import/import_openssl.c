/* SPDX-License-Identifier: Apache-2.0 */
/*
 * openssl speed -mr (docs/interop.md): +H (the block sizes) and +F (bytes
 * per second of each), +F2..+F10 (the public-key operations per second),
 * in OpenSSL 1.1's layout (seconds per operation) and 3.x's (operations
 * per second); -multi's "Got: ... from N" lines summed when the file has
 * no total of its own; +DT, +DTP, +R lines (progress) skipped. Another
 * line is no result: the human table, "Forked child N", warnings.
 */
#include "import/import_formats.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonw.h"

#define OSSL_FIELDS 16 /* values of one line, at most */

/* One result line, as read. */
struct ossl_line {
	int tag;	/* 1 for +F, 2..10 for +F2..+F10 */
	int from;	/* -multi's child of a "Got:" line; -1: the run's own */
	unsigned idx;	/* the line's index (an algorithm of openssl's table) */
	unsigned bits;	/* a key's bits; 0 for none */
	char name[128]; /* the algorithm, "" when the line names none */
	size_t nv;
	double v[OSSL_FIELDS];
	long sizes[OSSL_FIELDS]; /* +F: the block size of each value */
	int line;
};

/* A public-key line: its target, figures, and where its values start. */
static const struct ossl_kind {
	int tag;
	const char *target, *figures[3];
	int named;  /* the line names the algorithm after the bits */
	int bits;   /* the line has bits after its index */
	int paired; /* a rate and its inverse (ECDH, FFDH): one figure */
	int since3; /* only OpenSSL 3.x writes it */
} kinds[] = {
	{ 2, "rsa", { "sign", "verify" }, 0, 1, 0, 0 },
	{ 3, "dsa", { "sign", "verify" }, 0, 1, 0, 0 },
	{ 4, "ecdsa", { "sign", "verify" }, 0, 1, 0, 0 },
	{ 5, "ecdh", { "op" }, 0, 1, 1, 0 },
	{ 6, "eddsa", { "sign", "verify" }, 1, 1, 0, 0 },
	{ 7, "sm2", { "sign", "verify" }, 1, 1, 0, 1 },
	{ 8, "ffdh", { "op" }, 0, 1, 1, 1 },
	{ 9, "kem", { "keygen", "encaps", "decaps" }, 0, 0, 0, 1 },
	{ 10, "sig", { "keygen", "sign", "verify" }, 0, 0, 0, 1 },
};

/* The kind of tag, NULL for +F (bytes) or an unknown one. */
static const struct ossl_kind *kind_of(int tag)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(*kinds); i++)
		if (kinds[i].tag == tag)
			return &kinds[i];
	return NULL;
}

/*
 * The curves of +F4 and +F5 by index, in OpenSSL 1.1.1's and 3.x's table
 * (the lines name only the bits): shown and kept as the case's curve
 * where the bits agree.
 */
static const struct {
	const char *name;
	unsigned bits;
} curves[] = {
	{ "secp160r1", 160 },	    { "nistp192", 192 },
	{ "nistp224", 224 },	    { "nistp256", 256 },
	{ "nistp384", 384 },	    { "nistp521", 521 },
	{ "nistk163", 163 },	    { "nistk233", 233 },
	{ "nistk283", 283 },	    { "nistk409", 409 },
	{ "nistk571", 571 },	    { "nistb163", 163 },
	{ "nistb233", 233 },	    { "nistb283", 283 },
	{ "nistb409", 409 },	    { "nistb571", 571 },
	{ "brainpoolP256r1", 256 }, { "brainpoolP256t1", 256 },
	{ "brainpoolP384r1", 384 }, { "brainpoolP384t1", 384 },
	{ "brainpoolP512r1", 512 }, { "brainpoolP512t1", 512 },
	{ "X25519", 253 },	    { "X448", 448 },
};

/* Does s (len bytes) start with one of openssl speed -mr's results? */
static int result_line(const char *s, size_t len)
{
	if (len > 5 && strncmp(s, "Got: ", 5) == 0)
		s += 5, len -= 5;
	return len > 3 && s[0] == '+' &&
	       (s[1] == 'F' || strncmp(s, "+H:", 3) == 0);
}

static int openssl_sniff(const char *text, size_t len)
{
	const char *s = text, *end = text + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

		if (result_line(s, n))
			return 1;
		s += n + 1;
	}
	return 0;
}

/* What reading the lines gathers. */
struct ossl_file {
	const struct import_in *in;
	struct import_out *out;
	struct ossl_line *lines;
	size_t n, cap;
	long sizes[OSSL_FIELDS], got_sizes[OSSL_FIELDS];
	size_t nsizes, got_nsizes;
	int children; /* -multi's children seen in "Got:" lines */
	char version[64];
};

/* The next ':'-separated field of *s (cut in place), NULL after the last. */
static char *field(char **s)
{
	char *f = *s, *colon;

	if (!f)
		return NULL;
	colon = strchr(f, ':');
	if (colon)
		*colon = '\0';
	*s = colon ? colon + 1 : NULL;
	return f;
}

/* f as a number into *v: 0, or -EINVAL. */
static int number(const char *f, double *v)
{
	char *end;

	*v = strtod(f, &end);
	return end != f && !*end && isfinite(*v) ? 0 : -EINVAL;
}

/* f as a whole number from 0 to max into *v: 0, or -EINVAL. */
static int whole(const char *f, double max, double *v)
{
	return number(f, v) || *v < 0 || *v > max || *v != floor(*v) ? -EINVAL
								     : 0;
}

/* "+H:16:64:..." into sizes. */
static int header(char *rest, long *sizes, size_t *n, int line, char *err,
		  size_t errlen)
{
	char *f;
	double v;

	*n = 0;
	while ((f = field(&rest))) {
		if (*n == OSSL_FIELDS || whole(f, 1e12, &v) || v == 0)
			return hb_errorf(err, errlen, -EINVAL,
					 "line %d: +H: \"%.40s\" is not a "
					 "block size (at most %d of them)",
					 line, f, OSSL_FIELDS);
		sizes[(*n)++] = (long)v;
	}
	return 0;
}

/* The values of a line from rest on into l (at most OSSL_FIELDS). */
static int values(char *rest, struct ossl_line *l, char *err, size_t errlen)
{
	char *f;

	while ((f = field(&rest))) {
		if (l->nv == OSSL_FIELDS || number(f, &l->v[l->nv]))
			return hb_errorf(err, errlen, -EINVAL,
					 "line %d: +F%d: \"%.40s\" is not a "
					 "number",
					 l->line, l->tag, f);
		l->nv++;
	}
	return 0;
}

/* A public-key line's fields after its tag into l (kind k). */
static int pk_fields(char *rest, const struct ossl_kind *k, struct ossl_line *l,
		     char *err, size_t errlen)
{
	char *f = field(&rest), *name;
	double v;
	size_t want = k->paired ? 2 : k->figures[2] ? 3 : 2;

	if (!f || whole(f, 1e6, &v))
		goto bad;
	l->idx = (unsigned)v;
	if (k->bits && (!(f = field(&rest)) || whole(f, 1e6, &v)))
		goto bad;
	l->bits = k->bits ? (unsigned)v : 0;
	/* the name where the line has one; a KEM's or signature's may */
	if (rest && (k->named || !isdigit((unsigned char)*rest)) &&
	    (name = field(&rest)))
		snprintf(l->name, sizeof(l->name), "%s", name);
	if (values(rest, l, err, errlen))
		return -EINVAL;
	if (l->nv == want)
		return 0;
bad:
	return hb_errorf(err, errlen, -EINVAL,
			 "line %d: +F%d: expected +F%d:INDEX%s%s:%s", l->line,
			 l->tag, l->tag, k->bits ? ":BITS" : "",
			 k->named ? ":NAME" : "",
			 k->paired	 ? "RATE:TIME"
			 : k->figures[2] ? "A:B:C"
					 : "SIGN:VERIFY");
}

/* A +F line's fields after its tag: index, name, one value per size. */
static int cipher_fields(struct ossl_file *f, char *rest, struct ossl_line *l,
			 char *err, size_t errlen)
{
	/* -multi's total has no +H of its own: its children's sizes */
	int own = l->from < 0 && f->nsizes;
	const long *sizes = own ? f->sizes : f->got_sizes;
	size_t n = own ? f->nsizes : f->got_nsizes;
	char *idx = field(&rest), *name = field(&rest);
	double v;

	if (!idx || whole(idx, 1e6, &v) || !name || !*name)
		return hb_errorf(err, errlen, -EINVAL,
				 "line %d: +F: expected +F:INDEX:NAME:VALUE...",
				 l->line);
	l->idx = (unsigned)v;
	snprintf(l->name, sizeof(l->name), "%s", name);
	if (values(rest, l, err, errlen))
		return -EINVAL;
	if (!n)
		return hb_errorf(err, errlen, -EINVAL,
				 "line %d: +F before any +H line (the block "
				 "sizes)",
				 l->line);
	if (l->nv != n)
		return hb_errorf(err, errlen, -EINVAL,
				 "line %d: +F: %zu values for %zu block sizes",
				 l->line, l->nv, n);
	memcpy(l->sizes, sizes, n * sizeof(*sizes));
	return 0;
}

/* Room for one more line in f. */
static struct ossl_line *line_new(struct ossl_file *f)
{
	if (array_grow((void **)&f->lines, f->n, &f->cap, sizeof(*f->lines)))
		return NULL;
	memset(&f->lines[f->n], 0, sizeof(*f->lines));
	return &f->lines[f->n];
}

/* A version in a line of text ("version: 3.0.19", "OpenSSL 1.1.1w ..."). */
static void version_line(struct ossl_file *f, const char *s)
{
	const char *v = NULL;

	if (strncmp(s, "version: ", 9) == 0)
		v = s + 9;
	else if (strncmp(s, "OpenSSL ", 8) == 0 && isdigit((unsigned char)s[8]))
		v = s + 8;
	if (v && !f->version[0])
		snprintf(f->version, sizeof(f->version), "%.*s",
			 (int)strcspn(v, " \t\r"), v);
}

/*
 * "Got: LINE from N" (a child of -multi) into its line and N; the line
 * as it is otherwise (*from -1). s is changed in place.
 */
static char *got(char *s, int *from)
{
	char *tail;

	*from = -1;
	if (strncmp(s, "Got: ", 5) != 0)
		return s;
	tail = strstr(s, " from ");
	if (tail) {
		*from = (int)strtol(tail + 6, NULL, 10);
		*tail = '\0';
	}
	return s + 5;
}

/* One line of the file (s, NUL-terminated in place), number n. */
static int line_read(struct ossl_file *f, char *s, int n, char *err,
		     size_t errlen)
{
	struct ossl_line *l;
	char *rest, *tag;
	int from, t;

	s = got(s, &from);
	if (s[0] != '+') {
		version_line(f, s);
		return 0;
	}
	rest = s + 1;
	tag = field(&rest);
	if (from >= 0 && from + 1 > f->children)
		f->children = from + 1;
	if (strcmp(tag, "H") == 0)
		return from >= 0 ? header(rest, f->got_sizes, &f->got_nsizes, n,
					  err, errlen)
				 : header(rest, f->sizes, &f->nsizes, n, err,
					  errlen);
	if (tag[0] != 'F' || (tag[1] && !isdigit((unsigned char)tag[1])))
		return 0; /* progress: +DT, +DTP, +R, +R1...; +FTD */
	t = tag[1] ? (int)strtol(tag + 1, NULL, 10) : 1;
	if (t != 1 && !kind_of(t)) {
		import_note(f->out, f->in,
			    "line %d: +F%d is no result line hostbench knows: "
			    "left out",
			    n, t);
		return 0;
	}
	l = line_new(f);
	if (!l)
		return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	*l = (struct ossl_line){ .tag = t, .from = from, .line = n };
	if (t == 1 ? cipher_fields(f, rest, l, err, errlen)
		   : pk_fields(rest, kind_of(t), l, err, errlen))
		return -EINVAL;
	f->n++;
	return 0;
}

/* Every line of in's text. */
static int lines_read(struct ossl_file *f, char *err, size_t errlen)
{
	const char *s = f->in->text, *end = s + f->in->len;
	char buf[4096] = "";
	int n = 0, rc = 0;

	while (!rc && s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;
		size_t len;

		n++;
		if (e > s && e[-1] == '\r')
			e--;
		len = (size_t)(e - s);
		if (len >= sizeof(buf) && result_line(s, len))
			rc = hb_errorf(err, errlen, -EINVAL,
				       "line %d: longer than %zu bytes", n,
				       sizeof(buf) - 1);
		else if (len < sizeof(buf)) {
			memcpy(buf, s, len);
			buf[len] = '\0';
			rc = line_read(f, buf, n, err, errlen);
		}
		s = nl ? nl + 1 : end;
	}
	return rc;
}

/*
 * The layout of f's public-key lines: 1 OpenSSL 3.x's (operations per
 * second), 0 1.1's (seconds per operation), -1 unknown: by the version
 * (the file's, else --tool-version), else by a line only 3.x writes, else
 * by ECDH's pair (3.x: the rate first), else by the values (a second per
 * operation or more is no 1.1 layout, a rate below one no 3.x one).
 */
static int layout_of(const struct ossl_file *f, const char *version)
{
	int low = 0, high = 0;

	if (version && isdigit((unsigned char)version[0]))
		return strtol(version, NULL, 10) >= 3;
	for (size_t i = 0; i < f->n; i++) {
		const struct ossl_line *l = &f->lines[i];

		if (l->tag == 1)
			continue;
		if (kind_of(l->tag)->since3)
			return 1;
		if (kind_of(l->tag)->paired)
			return l->v[0] >= l->v[1];
		for (size_t k = 0; k < l->nv; k++) {
			low += l->v[k] < 1;
			high += l->v[k] >= 1;
		}
	}
	return low && high ? -1 : !low;
}

/* Figure i of line l as a rate (bytes or operations per second). */
static double rate(const struct ossl_line *l, size_t i, int v3)
{
	const struct ossl_kind *k = kind_of(l->tag);
	double v = k && k->paired ? l->v[0] : l->v[i];

	if (!k || v3 || k->since3)
		return v;
	return v > 0 ? 1 / v : NAN;
}

/* One figure of one case: the run's own values, and -multi's sum. */
struct ossl_fig {
	const struct ossl_line *first; /* the case's first line */
	size_t at;		       /* which value of its lines */
	double *own;		       /* the run's own values, in order */
	size_t nown, capown;
	double got; /* the sum of the children's */
	int ngot;
};

/* The key of value at of line l: its case and figure. */
static void fig_key(const struct ossl_line *l, size_t at, char *key, size_t len)
{
	snprintf(key, len, "%d\n%u\n%u\n%s\n%ld\n%zu", l->tag, l->idx, l->bits,
		 l->name, l->tag == 1 ? l->sizes[at] : 0L,
		 l->tag == 1 ? 0 : at);
}

/* Every value of every line into its figure (figs, in first-seen order). */
static int figures_of(const struct ossl_file *f, int v3, struct ossl_fig **figs,
		      size_t *n)
{
	json_t *seen = json_object();
	size_t cap = 0;
	char key[256];
	int rc = seen ? 0 : -ENOMEM;

	*figs = NULL;
	*n = 0;
	for (size_t i = 0; !rc && i < f->n; i++) {
		const struct ossl_line *l = &f->lines[i];
		size_t nfig = l->tag == 1		? l->nv
			      : kind_of(l->tag)->paired ? 1
							: l->nv;

		for (size_t k = 0; !rc && k < nfig; k++) {
			json_t *at;
			struct ossl_fig *g;
			double v = rate(l, k, v3);

			fig_key(l, k, key, sizeof(key));
			at = json_object_get(seen, key);
			if (!at) {
				rc = array_grow((void **)figs, *n, &cap,
						sizeof(**figs));
				if (rc)
					break;
				(*figs)[*n] = (struct ossl_fig){ .first = l,
								 .at = k };
				json_object_set_new(
					seen, key,
					json_integer((json_int_t)*n));
				g = &(*figs)[(*n)++];
			} else {
				g = &(*figs)[json_integer_value(at)];
			}
			if (!g)
				break;
			if (l->from >= 0) {
				g->got += v;
				g->ngot++;
			} else if (!(rc = array_grow((void **)&g->own, g->nown,
						     &g->capown,
						     sizeof(double)))) {
				g->own[g->nown++] = v;
			}
		}
	}
	json_decref(seen);
	return rc;
}

/* The curve of an ECDSA or ECDH line by its index, NULL if not known. */
static const char *curve_of(const struct ossl_line *l)
{
	if (l->idx < sizeof(curves) / sizeof(*curves) &&
	    curves[l->idx].bits == l->bits)
		return curves[l->idx].name;
	return NULL;
}

/* The case of figure g: what its line says, and -multi's children. */
static json_t *case_of(const struct ossl_file *f, const struct ossl_fig *g,
		       struct import_case *c, char *job, size_t len)
{
	const struct ossl_line *l = g->first;
	const struct ossl_kind *k = kind_of(l->tag);
	const char *name = l->name[0]			? l->name
			   : l->tag == 4 || l->tag == 5 ? curve_of(l)
							: NULL;
	json_t *p = json_object();
	int bad = 0;

	if (!k) {
		snprintf(job, len, "%s %ld bytes", l->name, l->sizes[g->at]);
		jsonw_set(p, "algorithm", jsonw_text(l->name), &bad);
		jsonw_set(p, "size", json_integer(l->sizes[g->at]), &bad);
	} else {
		if (name)
			snprintf(job, len, "%s %s", k->target, name);
		else if (l->bits)
			snprintf(job, len, "%s %u bits", k->target, l->bits);
		else
			snprintf(job, len, "%s #%u", k->target, l->idx);
		if (l->bits)
			jsonw_set(p, "bits", json_integer(l->bits), &bad);
		if (name)
			jsonw_set(p, "algorithm", jsonw_text(name), &bad);
		else if (l->tag != 2 && l->tag != 3 && l->tag != 8)
			jsonw_set(p, "index", json_integer(l->idx), &bad);
	}
	if (f->children) {
		jsonw_set(p, "multi", json_integer(f->children), &bad);
		util_appendf(job, len, ", -multi %d", f->children);
	}
	*c = (struct import_case){ .job = !k ? l->name : job,
				   .title = job,
				   .target = NULL,
				   .backend = "openssl",
				   .params = p };
	if (bad) {
		json_decref(p);
		return NULL;
	}
	return p;
}

/* Figure g into the run: the run's own values, else the children's sum. */
static int fig_emit(const struct ossl_file *f, struct import_run *run,
		    const struct ossl_fig *g)
{
	const struct ossl_kind *k = kind_of(g->first->tag);
	const struct import_figure fig = { k ? k->figures[g->at] : "rate",
					   k ? "ops/s" : "MB/s", 0 };
	struct import_case c;
	char job[300], target[48];
	json_t *params = case_of(f, g, &c, job, sizeof(job));

	if (!params)
		return -ENOMEM;
	snprintf(target, sizeof(target), "openssl-speed/%s",
		 k ? k->target : "bytes");
	c.target = target;
	if (g->nown)
		import_figure(run, &c, &fig, g->nown == 1 ? g->own[0] : NAN,
			      g->own, g->nown);
	else
		import_figure(run, &c, &fig, g->got, NULL, 0);
	json_decref(params);
	return run->bad ? -ENOMEM : 0;
}

/* The run of f: its version, layout and every figure. */
static int run_of(struct ossl_file *f, char *err, size_t errlen)
{
	const char *version = f->version[0] ? f->version : f->in->tool_version;
	int v3 = layout_of(f, version), rc = 0, summed = 0;
	struct import_run run;
	struct ossl_fig *figs = NULL;
	size_t n = 0;

	if (v3 < 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "cannot tell OpenSSL 1.1's layout (seconds "
				 "per operation) from 3.x's (operations per "
				 "second): give --tool-version");
	rc = import_run_new(&run, f->in, f->out, "openssl",
			    f->version[0] ? f->version : NULL, NULL);
	if (!rc)
		rc = figures_of(f, v3, &figs, &n);
	for (size_t i = 0; !rc && i < n; i++) {
		summed += !figs[i].nown;
		rc = fig_emit(f, &run, &figs[i]);
	}
	if (!rc && summed)
		import_note(
			f->out, f->in,
			"%d figure%s summed from -multi's %d children "
			"(\"Got:\" lines): the file has no total of its own",
			summed, summed == 1 ? "" : "s", f->children);
	for (size_t i = 0; i < n; i++)
		free(figs[i].own);
	free(figs);
	return rc == -ENOMEM ? hb_errorf(err, errlen, rc, "out of memory") : rc;
}

static int openssl_read(const struct import_in *in, struct import_out *out,
			char *err, size_t errlen)
{
	struct ossl_file f = { .in = in, .out = out };
	int rc = lines_read(&f, err, errlen);

	if (!rc && !f.n)
		rc = hb_errorf(err, errlen, -EINVAL,
			       "no result line (+F, +F2...) of openssl speed "
			       "-mr");
	if (!rc)
		rc = run_of(&f, err, errlen);
	free(f.lines);
	return rc;
}

const struct import_format import_openssl_speed = {
	.name = "openssl-speed",
	.summary = "openssl speed -mr (1.1 and 3.x; -multi's Got: lines)",
	.sniff = openssl_sniff,
	.read = openssl_read,
};
