/* SPDX-License-Identifier: Apache-2.0 */
/* --set: "[SECTION.]KEY=VALUE" read and applied to the jobs it names. */
#include "suite/suite_set.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite/suite_file.h"
#include "suite/suite_hint.h"
#include "suite/suite_value.h"

/* A copy of text without surrounding blanks, as values read in a file. */
static char *trimmed(const char *text)
{
	size_t n;

	text += strspn(text, " \t");
	for (n = strlen(text); n && (text[n - 1] == ' ' || text[n - 1] == '\t');
	     n--)
		;
	return strndup(text, n);
}

/* Split "[SECTION.]KEY=VALUE" (the last '.' before '=' ends SECTION). */
int suite_set_parse(struct loader *ld, const char *text, struct suite_set *ov)
{
	const char *eq = strchr(text, '=');
	char lhs[256], *dot;

	memset(ov, 0, sizeof(*ov));
	ov->text = text;
	if (!eq || (size_t)(eq - text) >= sizeof(lhs))
		goto bad;
	memcpy(lhs, text, (size_t)(eq - text));
	lhs[eq - text] = '\0';
	dot = strrchr(lhs, '.');
	if (dot) {
		*dot = '\0';
		ov->section = strdup(lhs);
	}
	ov->key = trimmed(dot ? dot + 1 : lhs);
	ov->value = trimmed(eq + 1);
	if (!ov->key || !ov->value || (dot && !ov->section))
		return suite_loader_nomem(ld);
	if (!suite_file_key_name(ov->key) || (ov->section && !*ov->section))
		goto bad;
	return 0;
bad:
	return hb_errorf(ld->err, ld->errlen, -EINVAL,
			 "--set %s: expected KEY=VALUE or SECTION.KEY=VALUE",
			 text);
}

void suite_set_free(struct suite_set *ov)
{
	free(ov->section);
	free(ov->key);
	free(ov->value);
}

/*
 * The origin of ov's setting in job d: origin itself ("--set TEXT"), or,
 * for a secret option of d, "--set [SECTION.]KEY=(secret)" in buf, since
 * every message about the setting names its origin.
 */
static const char *set_origin(const struct suite_set *ov, const struct draft *d,
			      const char *origin, char *buf, size_t len)
{
	const struct hb_option *o = suite_draft_option(d, ov->key);

	if (!o || o->type != HB_OPT_SECRET)
		return origin;
	snprintf(buf, len, "--set %s%s%s=%s", ov->section ? ov->section : "",
		 ov->section ? "." : "", ov->key, SUITE_VALUE_SECRET);
	return buf;
}

/*
 * Apply ov to the jobs it names. Only keys in phase (1: target and
 * backend, which decide the option tables; 2: every other key) are
 * applied, so that "KEY=VALUE" finds the jobs whose target takes KEY.
 */
static int set_apply_one(struct loader *ld, const struct suite_set *ov,
			 int phase)
{
	int table_key = strcmp(ov->key, "target") == 0 ||
			strcmp(ov->key, "backend") == 0;
	char origin[300], shown[300], hint[128];
	struct suite_hint h = { .typed = ov->key };
	size_t hits = 0;

	if ((phase == 1) != table_key)
		return 0;
	snprintf(origin, sizeof(origin), "--set %s", ov->text);
	for (size_t i = 0; i < ld->ndrafts; i++) {
		struct draft *d = &ld->drafts[i];

		if (ov->section && strcmp(ov->section, d->label) != 0)
			continue;
		if (phase == 2 && !suite_draft_accepts(d, ov->key)) {
			suite_hint_keys(&h, d);
			if (ov->section)
				return suite_loader_fail(
					ld, -EINVAL, origin, d->label, ov->key,
					"unknown key%s",
					suite_hint_text(&h, hint,
							sizeof(hint)));
			continue;
		}
		if (suite_draft_set(
			    d, ov->key, ov->value,
			    set_origin(ov, d, origin, shown, sizeof(shown)),
			    -1))
			return suite_loader_nomem(ld);
		hits++;
	}
	if (hits)
		return 0;
	if (ov->section) {
		h.typed = ov->section;
		for (size_t i = 0; i < ld->ndrafts; i++)
			suite_hint_try(&h, ld->drafts[i].label);
		return suite_loader_fail(
			ld, -EINVAL, origin, NULL, NULL,
			"no job [%s] in the suite%s", ov->section,
			suite_hint_text(&h, hint, sizeof(hint)));
	}
	return suite_loader_fail(ld, -EINVAL, origin, NULL, NULL,
				 "no job takes the key \"%s\"%s", ov->key,
				 suite_hint_text(&h, hint, sizeof(hint)));
}

/* Apply every override in phase (see set_apply_one). */
int suite_set_apply(struct loader *ld, struct suite_set *ovs, size_t n,
		    int phase)
{
	for (size_t i = 0; i < n; i++) {
		int rc = set_apply_one(ld, &ovs[i], phase);

		if (rc)
			return rc;
	}
	return 0;
}
