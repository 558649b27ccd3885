/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The results store: every run's report kept in a database, SQLite by
 * default or a lab's PostgreSQL server, behind one API and one schema
 * (docs/history.md). Every value reaches SQL as a bound parameter; a
 * report is stored in one transaction, so a killed run leaves nothing
 * half written. Messages never show a URL's password.
 */
#ifndef HB_CORE_STORE_STORE_H
#define HB_CORE_STORE_STORE_H

#include <signal.h>
#include <stddef.h>

#include <jansson.h>

#include "base/util.h"

/* The newest schema this build reads and writes. */
#define STORE_SCHEMA_VERSION 4

struct store;

/* What store_history() selects; NULL or 0 fields select everything. */
struct store_query {
	const char *host;  /* a host id (h-...) or host name */
	const char *cases; /* fnmatch(3) pattern of a job, title or target */
	const char *since; /* points from then on: "YYYY-MM-DDTHH:MM:SS.mmmZ" */
	const char *until; /* points up to then, in the same form */
	const char *label; /* runs of this label only */
};

/*
 * Nonzero when url, or HOSTBENCH_STORE when url is NULL, is "none": the
 * run is kept out of the store, as with --no-store.
 */
int store_off(const char *url);

/*
 * Nonzero when the store at url (NULL: HOSTBENCH_STORE or the default)
 * may hold runs: a SQLite file that exists, or any other URL.
 */
int store_exists(const char *url);

/*
 * Open (and create or migrate) the store at url: "sqlite:PATH",
 * "postgresql://..." (or "postgres://..."); NULL takes HOSTBENCH_STORE,
 * then $XDG_DATA_HOME/hostbench/results.db (~/.local/share without it).
 * A new SQLite file is created mode 0600 in a directory made 0700. A
 * database of a newer schema than STORE_SCHEMA_VERSION is refused.
 * A PostgreSQL server is held to the store's defaults (docs/history.md):
 * no password in clear text or MD5, a connection that makes no step for
 * connect_timeout given up, a lock waited for 10 s at most. stop (may be
 * NULL) is the flag a signal sets (core/main.c): once it is nonzero, a
 * wait on the server ends, its statement cancelled, with -EINTR (the
 * first wait of this store and every one after). Returns 0, or a negative
 * errno with "store URL: reason" in err (every password of URL masked);
 * *st is NULL on error.
 */
int store_open(struct store **st, const char *url,
	       const volatile sig_atomic_t *stop, char *err, size_t errlen);

/*
 * What storing a report did: the host reports newly stored, and the uuids
 * of those stored already, the same, so left as they were. Zero it before
 * use; store_tally_free() frees it.
 */
struct store_tally {
	int added;
	struct strlist skipped;
};

/* Free what t holds and zero it. */
void store_tally_free(struct store_tally *t);

/*
 * Store report (a JSON report as `run --format json` writes it; a fleet
 * report stores every host's report) in one transaction. Idempotent by
 * run.uuid: a run already stored with the same report is left as it is.
 * A report without "run" gets a uuid from the SHA-256 of its compact
 * text. Refused with -EINVAL, nothing stored: a run uuid that is not a
 * UUID, and a run stored already with another report (one uuid names one
 * run). Returns 0 or a negative code with err filled.
 */
int store_put(struct store *st, const json_t *report, char *err, size_t errlen);

/* The uuid store_put() stores report under (one host's report). */
void store_run_uuid(const json_t *report, char out[37]);

/*
 * The whole JSON report stored with run uuid, as it was kept (compact
 * text), into *text (malloc'd, NUL-terminated; the caller frees it) and
 * *len. Returns 0, -ENOENT when no such run is stored, or another
 * negative code, with err filled.
 */
int store_report(struct store *st, const char *uuid, char **text, size_t *len,
		 char *err, size_t errlen);

/*
 * The history document (docs/history.md, "history_version": 1) of what q
 * selects: hosts, and series of host x case x figure with their points
 * oldest first, their contexts and their stored change points. *doc is
 * the caller's (json_decref). Returns 0 or a negative code.
 */
int store_history(struct store *st, const struct store_query *q, json_t **doc,
		  char *err, size_t errlen);

/*
 * Check that each selector of q (host, cases, label) matches something in
 * a store that holds runs (an empty store passes): -ENOENT when one
 * matches nothing, err naming it and what the store holds instead (at
 * most 10 names, sanitized). Returns 0 or a negative code.
 */
int store_select_check(struct store *st, const struct store_query *q, char *err,
		       size_t errlen);

/*
 * Persist every series' "changes" of doc (new ones as "new"), then set
 * each change's "state" in doc to the stored one (acknowledged and ignored
 * survive a new detection). One transaction. Returns 0 or a negative code.
 */
int store_changes_save(struct store *st, json_t *doc, char *err, size_t errlen);

/*
 * Set change point change_id's state: "new", "acknowledged" or "ignored".
 * -ENOENT for an unknown id, -EINVAL for an unknown state.
 */
int store_change_state(struct store *st, const char *change_id,
		       const char *state, char *err, size_t errlen);

/* Where the store is, as a URL with its password masked. */
const char *store_where(const struct store *st);

/* Close st (NULL is fine). */
void store_close(struct store *st);

#endif
