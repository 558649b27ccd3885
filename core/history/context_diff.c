/* SPDX-License-Identifier: Apache-2.0 */
/* What changed between two contexts, in words (history/context_diff.h). */
#include "history/context_diff.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* One fact's words, at most. */
#define DIFF_LINE 256
/* A fact's text shown whole, at most (longer is cut with "..."). */
#define DIFF_TEXT 60

static const char *str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* Append line to out unless it holds it already; -ENOMEM when it fails. */
static int say(json_t *out, const char *line)
{
	const json_t *v;
	size_t i;

	json_array_foreach(out, i, v)
		if (strcmp(json_string_value(v), line) == 0)
			return 0;
	return json_array_append_new(out, json_string(line)) ? -ENOMEM : 0;
}

/* Nonzero when two texts (either NULL) are the same. */
static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* "name A -> B", each text cut to DIFF_TEXT, "(none)" for NULL. */
static int say_whole(json_t *out, const char *name, const char *a,
		     const char *b)
{
	char line[DIFF_LINE];

	snprintf(line, sizeof(line), "%s %.*s%s -> %.*s%s", name, DIFF_TEXT,
		 a ? a : "(none)", a && strlen(a) > DIFF_TEXT ? "..." : "",
		 DIFF_TEXT, b ? b : "(none)",
		 b && strlen(b) > DIFF_TEXT ? "..." : "");
	return say(out, line);
}

/* The first word of s that starts with a digit, its length into *len. */
static const char *version_word(const char *s, size_t *len)
{
	for (const char *p = s; *p; p++) {
		if ((p == s || p[-1] == ' ') && isdigit((unsigned char)*p)) {
			*len = strcspn(p, " ");
			return p;
		}
	}
	return NULL;
}

/*
 * The length of a's and b's versions up to and with their first differing
 * dot-separated component, into *la and *lb.
 */
static void version_cut(const char *a, size_t na, const char *b, size_t nb,
			size_t *la, size_t *lb)
{
	size_t i = 0;

	for (;;) {
		size_t ca = strcspn(a + i, "."), cb = strcspn(b + i, ".");

		if (ca > na - i)
			ca = na - i;
		if (cb > nb - i)
			cb = nb - i;
		if (ca != cb || strncmp(a + i, b + i, ca) != 0 ||
		    i + ca >= na || i + cb >= nb) {
			*la = i + ca;
			*lb = i + cb;
			return;
		}
		i += ca + 1;
	}
}

/* A versioned fact: "OpenSSL 3.0.17 -> 3.0.19", else the whole texts. */
static int say_version(json_t *out, const char *name, const char *a,
		       const char *b)
{
	size_t na = 0, nb = 0, la, lb;
	const char *va = a ? version_word(a, &na) : NULL;
	const char *vb = b ? version_word(b, &nb) : NULL;
	char line[DIFF_LINE];

	if (same(a, b))
		return 0;
	if (!va || !vb || (na == nb && strncmp(va, vb, na) == 0))
		return say_whole(out, name, a, b);
	version_cut(va, na, vb, nb, &la, &lb);
	snprintf(line, sizeof(line), "%s %.*s -> %.*s", name, (int)la, va,
		 (int)lb, vb);
	return say(out, line);
}

/* One "NAME STATE" of a feature list, or its end. */
struct feature {
	const char *name, *state;
	size_t nlen, slen;
};

/* The feature of list[0..end) at *i into f, *i moved on; 0 at the end. */
static int feature_next(const char *list, size_t end, size_t *i,
			struct feature *f)
{
	while (*i < end) {
		size_t item = strcspn(list + *i, ",;");
		const char *at = list + *i, *sp;

		if (*i + item > end)
			item = end - *i;
		*i += item + 1;
		while (*i < end && list[*i] == ' ')
			(*i)++;
		sp = memchr(at, ' ', item);
		if (!sp)
			continue;
		*f = (struct feature){ at, sp + 1, (size_t)(sp - at),
				       item - (size_t)(sp - at) - 1 };
		return 1;
	}
	return 0;
}

/* The feature of list[0..end) named as want, into f; 0 when none. */
static int feature_find(const char *list, size_t end,
			const struct feature *want, struct feature *f)
{
	size_t i = 0;

	while (feature_next(list, end, &i, f))
		if (f->nlen == want->nlen &&
		    strncmp(f->name, want->name, f->nlen) == 0)
			return 1;
	return 0;
}

/*
 * The features of a whose state b has otherwise (or not at all), appended
 * to line ("AES-NI on -> off, VAES on -> off"); how many.
 */
static int features_changed(const char *a, size_t ea, const char *b, size_t eb,
			    char *line, size_t len)
{
	struct feature fa, fb;
	size_t i = 0;
	int n = 0;

	while (feature_next(a, ea, &i, &fa)) {
		int found = feature_find(b, eb, &fa, &fb);

		if (found && fa.slen == fb.slen &&
		    strncmp(fa.state, fb.state, fa.slen) == 0)
			continue;
		snprintf(line + strlen(line), len - strlen(line),
			 "%s%.*s %.*s -> %.*s", n++ ? ", " : "", (int)fa.nlen,
			 fa.name, (int)fa.slen, fa.state,
			 found ? (int)fb.slen : (int)strlen("(none)"),
			 found ? fb.state : "(none)");
	}
	return n;
}

/*
 * A "... CPU" fact, "FEATURE on, FEATURE off; TAIL": "OpenSSL CPU: AES-NI
 * on -> off (OPENSSL_ia32cap)", the tail named by its word before '='
 * or ' ' when it changed.
 */
static int say_cpu(json_t *out, const char *name, const char *a, const char *b)
{
	size_t ea, eb;
	const char *ta, *tb;
	char line[DIFF_LINE];

	if (same(a, b))
		return 0;
	if (!a || !b)
		return say_whole(out, name, a, b);
	ea = strcspn(a, ";");
	eb = strcspn(b, ";");
	ta = a[ea] ? a + ea + 1 + strspn(a + ea + 1, " ") : "";
	tb = b[eb] ? b + eb + 1 + strspn(b + eb + 1, " ") : "";
	snprintf(line, sizeof(line), "%s: ", name);
	if (!features_changed(a, ea, b, eb, line, sizeof(line)))
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "%.*s changed", (int)strcspn(ta, "= "), ta);
	else if (strcmp(ta, tb) != 0)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 " (%.*s)", (int)strcspn(ta, "= "), ta);
	return say(out, line);
}

/* Each library fact of plugin p in a, against b's (b's alone: later). */
static int say_libraries(json_t *out, const json_t *a, const json_t *b)
{
	const char *plugin, *key;
	const json_t *facts, *v;
	int rc = 0;

	json_object_foreach((json_t *)a, plugin, facts) {
		const json_t *other = json_object_get(b, plugin);

		json_object_foreach((json_t *)facts, key, v) {
			const char *x = json_string_value(v);
			const char *y = str(other, key);
			size_t n = strlen(key);

			if (n > 4 && strcmp(key + n - 4, " CPU") == 0)
				rc = say_cpu(out, key, x, y);
			else
				rc = say_version(out, key, x, y);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* Library facts only after has: "name (none) -> B". */
static int say_new_libraries(json_t *out, const json_t *a, const json_t *b)
{
	const char *plugin, *key;
	const json_t *facts, *v;
	int rc;

	json_object_foreach((json_t *)b, plugin, facts) {
		json_object_foreach((json_t *)facts, key, v) {
			if (str(json_object_get(a, plugin), key))
				continue;
			rc = say_whole(out, key, NULL, json_string_value(v));
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* Whether array a holds the string s. */
static int holds(const json_t *a, const char *s)
{
	const json_t *v;
	size_t i;

	json_array_foreach(a, i, v)
		if (same(json_string_value(v), s))
			return 1;
	return 0;
}

/* "CPU flags: -aes +avx512f": the flags one side has alone. */
static int say_flags(json_t *out, const json_t *a, const json_t *b)
{
	char line[DIFF_LINE] = "CPU flags:";
	size_t head = strlen(line), i;
	const json_t *v;

	json_array_foreach(a, i, v)
		if (!holds(b, json_string_value(v)))
			snprintf(line + strlen(line),
				 sizeof(line) - strlen(line), " -%s",
				 json_string_value(v));
	json_array_foreach(b, i, v)
		if (!holds(a, json_string_value(v)))
			snprintf(line + strlen(line),
				 sizeof(line) - strlen(line), " +%s",
				 json_string_value(v));
	return strlen(line) > head ? say(out, line) : 0;
}

/*
 * The tool an imported run was measured with (import/): "fio 3.33 ->
 * 3.35"; "tool fio -> iperf3" when the name changed.
 */
static int say_tool(json_t *out, const json_t *a, const json_t *b)
{
	const char *na = str(a, "name"), *nb = str(b, "name");

	if (!a && !b)
		return 0;
	if (!same(na, nb))
		return say_whole(out, "tool", na, nb);
	return say_version(out, na ? na : "tool", str(a, "version"),
			   str(b, "version"));
}

json_t *context_diff(const json_t *before, const json_t *after)
{
	const json_t *la = json_object_get(before, "libraries");
	const json_t *lb = json_object_get(after, "libraries");
	json_t *out = json_array();
	int rc = out ? 0 : -ENOMEM;

	if (!rc)
		rc = say_version(out, "kernel", str(before, "kernel"),
				 str(after, "kernel"));
	if (!rc && !same(str(before, "os"), str(after, "os")))
		rc = say_whole(out, "OS", str(before, "os"), str(after, "os"));
	if (!rc)
		rc = say_version(out, "hostbench", str(before, "hostbench"),
				 str(after, "hostbench"));
	if (!rc)
		rc = say_tool(out, json_object_get(before, "tool"),
			      json_object_get(after, "tool"));
	if (!rc && !same(str(before, "governor"), str(after, "governor")))
		rc = say_whole(out, "governor", str(before, "governor"),
			       str(after, "governor"));
	if (!rc)
		rc = say_flags(out, json_object_get(before, "cpu_flags"),
			       json_object_get(after, "cpu_flags"));
	if (!rc)
		rc = say_libraries(out, la, lb);
	if (!rc)
		rc = say_new_libraries(out, la, lb);
	if (rc) {
		json_decref(out);
		return NULL;
	}
	return out;
}

int context_diff_text(const json_t *before, const json_t *after, char *buf,
		      size_t len)
{
	json_t *d = context_diff(before, after);
	const json_t *v;
	size_t i;

	if (len)
		buf[0] = '\0';
	if (!d)
		return -ENOMEM;
	json_array_foreach(d, i, v) {
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 i ? "; " : "", json_string_value(v));
	}
	json_decref(d);
	return 0;
}

int context_diff_doc(json_t *doc)
{
	const json_t *s;
	json_t *ctxs, *c;
	size_t i, k;

	json_array_foreach(json_object_get(doc, "series"), i, s) {
		ctxs = json_object_get(s, "contexts");
		json_array_foreach(ctxs, k, c) {
			json_t *d;

			if (!k)
				continue;
			d = context_diff(
				json_object_get(json_array_get(ctxs, k - 1),
						"facts"),
				json_object_get(c, "facts"));
			if (!d || json_object_set_new(c, "changed", d))
				return -ENOMEM;
		}
	}
	return 0;
}
