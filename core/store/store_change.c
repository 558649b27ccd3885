/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Change points kept with their state: a detection adds the new ones as
 * "new"; "acknowledged" and "ignored" are a person's decision and survive
 * every later detection.
 */
#include "store/store_int.h"

#include <errno.h>
#include <string.h>

#include "base/util.h"

static const char *const states[] = { "new", "acknowledged", "ignored" };

static const char *text_of(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static int state_row(void *arg, const struct store_val *v, size_t n)
{
	json_t *change = arg;

	if (n && v[0].type == STORE_TEXT)
		json_object_set_new(change, "state", json_string(v[0].s));
	return 0;
}

/* Change c of series s: stored unless known, its stored state into c. */
static int save_one(struct store *st, const json_t *s, json_t *c,
		    const char *now, char *err, size_t errlen)
{
	const json_t *ch = json_object_get(c, "change"),
		     *p = json_object_get(c, "p");
	struct store_val id = store_text(text_of(c, "id"));
	int rc;

	if (!id.s || !text_of(c, "run"))
		return 0;
	rc = store_exec(
		st,
		"INSERT INTO changepoint (id, series, run, kind, rel_change, "
		"p, "
		"state, detected) VALUES (?, ?, ?, ?, ?, ?, 'new', ?) ON "
		"CONFLICT DO NOTHING",
		(struct store_val[]){
			id, store_text(text_of(s, "id")),
			store_text(text_of(c, "run")),
			store_text(text_of(c, "kind")),
			json_is_number(ch) ? store_real(json_number_value(ch))
					   : store_text(NULL),
			json_is_number(p) ? store_real(json_number_value(p))
					  : store_text(NULL),
			store_text(now) },
		7, err, errlen);
	if (!rc)
		rc = store_query(st,
				 "SELECT state FROM changepoint WHERE id = ?",
				 &id, 1, state_row, c, err, errlen);
	return rc;
}

int store_changes_save(struct store *st, json_t *doc, char *err, size_t errlen)
{
	char now[40];
	json_t *s, *c;
	size_t i, k;
	int rc = store_begin(st, err, errlen);

	store_now(now, sizeof(now));
	json_array_foreach(json_object_get(doc, "series"), i, s) {
		json_array_foreach(json_object_get(s, "changes"), k, c) {
			if (rc)
				break;
			rc = save_one(st, s, c, now, err, errlen);
		}
	}
	return store_end(st, rc, err, errlen);
}

static int found_row(void *arg, const struct store_val *v, size_t n)
{
	(void)v;
	(void)n;
	*(int *)arg = 1;
	return 0;
}

int store_change_state(struct store *st, const char *change_id,
		       const char *state, char *err, size_t errlen)
{
	struct store_val id = store_text(change_id);
	char now[40];
	int known = 0, rc = -EINVAL;

	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++)
		if (strcmp(state, states[i]) == 0)
			rc = 0;
	if (rc)
		return hb_errorf(err, errlen, rc,
				 "%s: not a state (new, acknowledged, "
				 "ignored)",
				 state);
	store_now(now, sizeof(now));
	rc = store_begin(st, err, errlen);
	if (!rc)
		rc = store_query(st, "SELECT 1 FROM changepoint WHERE id = ?",
				 &id, 1, found_row, &known, err, errlen);
	if (!rc && !known)
		rc = hb_errorf(err, errlen, -ENOENT,
			       "no change point %s (see hostbench "
			       "regressions)",
			       change_id);
	if (!rc)
		rc = store_exec(st,
				"UPDATE changepoint SET state = ?, decided = ? "
				"WHERE id = ?",
				(struct store_val[]){ store_text(state),
						      store_text(now), id },
				3, err, errlen);
	return store_end(st, rc, err, errlen);
}
