/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The schema, as forward-only numbered migrations shared by both
 * backends: migration N brings a database from version N - 1 to N, in
 * the transaction that records N. The SQL is portable (TEXT, BIGINT,
 * DOUBLE PRECISION); a statement that differs between the dialects has a
 * per-backend string. A database newer than this build is refused.
 */
#include "store/store_int.h"

#include <errno.h>
#include <string.h>

#include "base/util.h"

/*
 * One statement: portable, or per backend (NULL: the portable one; "":
 * nothing on that backend).
 */
struct schema_sql {
	const char *sql;
	const char *sqlite, *pg;
};

/* Version 1: hosts, contexts, runs, cases, results, samples, changes. */
static const struct schema_sql version_1[] = {
	/* a stable fingerprint: a kernel upgrade is a new context, not host */
	{ .sql = "CREATE TABLE host (id TEXT PRIMARY KEY, fingerprint TEXT NOT "
		 "NULL "
		 "UNIQUE, name TEXT, arch TEXT, cpu_model TEXT, logical_cpus "
		 "INTEGER, physical_cores INTEGER, ram_kb BIGINT, first_seen "
		 "TEXT)" },
	{ .sql = "CREATE TABLE context (id TEXT PRIMARY KEY, host TEXT NOT "
		 "NULL "
		 "REFERENCES host(id), facts TEXT NOT NULL)" },
	{ .sql = "CREATE TABLE run (uuid TEXT PRIMARY KEY, host TEXT NOT NULL "
		 "REFERENCES host(id), context TEXT NOT NULL REFERENCES "
		 "context(id), "
		 "started TEXT NOT NULL, ended TEXT, duration DOUBLE "
		 "PRECISION, "
		 "suite_path TEXT, suite_sha256 TEXT, label TEXT, fleet_job "
		 "TEXT, "
		 "fleet_rank INTEGER, hostbench_version TEXT, hostbench_commit "
		 "TEXT, "
		 "stored TEXT NOT NULL, report TEXT NOT NULL)" },
	{ .sql = "CREATE TABLE bcase (id TEXT PRIMARY KEY, job TEXT, title "
		 "TEXT, "
		 "target TEXT, backend TEXT, params TEXT NOT NULL)" },
	{ .sql = "CREATE TABLE result (run TEXT NOT NULL REFERENCES run(uuid), "
		 "bcase TEXT NOT NULL REFERENCES bcase(id), figure TEXT NOT "
		 "NULL, "
		 "unit TEXT, better TEXT NOT NULL, status TEXT NOT NULL, "
		 "median "
		 "DOUBLE PRECISION, ci_low DOUBLE PRECISION, ci_high DOUBLE "
		 "PRECISION, n INTEGER, cv DOUBLE PRECISION, cpu_median DOUBLE "
		 "PRECISION, flags TEXT, PRIMARY KEY (run, bcase, figure))" },
	{ .sql = "CREATE TABLE sample (run TEXT NOT NULL, bcase TEXT NOT NULL, "
		 "figure TEXT NOT NULL, idx INTEGER NOT NULL, value DOUBLE "
		 "PRECISION, PRIMARY KEY (run, bcase, figure, idx), FOREIGN "
		 "KEY "
		 "(run, bcase, figure) REFERENCES result(run, bcase, "
		 "figure))" },
	{ .sql = "CREATE TABLE changepoint (id TEXT PRIMARY KEY, series TEXT "
		 "NOT "
		 "NULL, run TEXT NOT NULL REFERENCES run(uuid), kind TEXT, "
		 "rel_change DOUBLE PRECISION, p DOUBLE PRECISION, state TEXT "
		 "NOT "
		 "NULL, detected TEXT NOT NULL, decided TEXT)" },
	{ .sql = "CREATE INDEX result_series ON result (bcase, figure)" },
	{ .sql = "CREATE INDEX run_host ON run (host, started)" },
	{ .sql = NULL },
};

/*
 * Version 2: a run's point columns in an index, so history reads them
 * without stepping through the rows that hold whole reports; on SQLite,
 * the samples kept in their key's order alone (WITHOUT ROWID), not in a
 * table and again in its key's index: a sample's run, case and figure
 * were stored twice.
 */
#define SAMPLE_COLUMNS                                                         \
	"(run TEXT NOT NULL, bcase TEXT NOT NULL, figure TEXT NOT NULL, idx "  \
	"INTEGER NOT NULL, value DOUBLE PRECISION, PRIMARY KEY (run, bcase, "  \
	"figure, idx), FOREIGN KEY (run, bcase, figure) REFERENCES "           \
	"result(run, bcase, figure))"
static const struct schema_sql version_2[] = {
	{ .sql = "CREATE INDEX run_point ON run (uuid, host, started, "
		 "context)" },
	{ .sql = "",
	  .sqlite = "CREATE TABLE sample_v2 " SAMPLE_COLUMNS " WITHOUT ROWID" },
	{ .sql = "", .sqlite = "INSERT INTO sample_v2 SELECT * FROM sample" },
	{ .sql = "", .sqlite = "DROP TABLE sample" },
	{ .sql = "", .sqlite = "ALTER TABLE sample_v2 RENAME TO sample" },
	{ .sql = NULL },
};

/*
 * Version 3: a host's runs in their series' order (start, then uuid) with
 * the point's columns, so history walks them in order instead of sorting.
 */
static const struct schema_sql version_3[] = {
	{ .sql = "CREATE INDEX run_order ON run (host, started, uuid, "
		 "context, label)" },
	{ .sql = NULL },
};

/*
 * Version 4: what a result holds, once. A run's report compressed
 * (store_report.c) in report_z, report '' beside it (an older run keeps
 * its text in report, read as it is); a result's samples, a JSON array's
 * text, in its row instead of a sample table that named the run, case
 * and figure again for each (every sample moved there, exact: 17
 * significant digits); on SQLite, result kept by its key alone (WITHOUT
 * ROWID), not in a table and again in its key's index; no index
 * result_series (no query reads results by case: history walks runs).
 */
#define RESULT_COLUMNS                                                         \
	"(run TEXT NOT NULL REFERENCES run(uuid), bcase TEXT NOT NULL "        \
	"REFERENCES bcase(id), figure TEXT NOT NULL, unit TEXT, better TEXT "  \
	"NOT NULL, status TEXT NOT NULL, median DOUBLE PRECISION, ci_low "     \
	"DOUBLE PRECISION, ci_high DOUBLE PRECISION, n INTEGER, cv DOUBLE "    \
	"PRECISION, cpu_median DOUBLE PRECISION, flags TEXT, samples TEXT, "   \
	"PRIMARY KEY (run, bcase, figure))"
/*
 * a result's samples as "[v0,v1,...]" in idx order, from the old table
 * (null where a sample was none: a NULL value)
 */
#define SAMPLES_OF(r)                                                          \
	"(SELECT '[' || group_concat(CASE WHEN value IS NULL THEN 'null' "     \
	"ELSE printf('%!.17g', value) END, ',') || ']' "                       \
	"FROM (SELECT value FROM sample s WHERE s.run = " r ".run AND "        \
	"s.bcase = " r ".bcase AND s.figure = " r ".figure ORDER BY idx))"
static const struct schema_sql version_4[] = {
	{ .sql = "",
	  .sqlite = "ALTER TABLE run ADD COLUMN report_z BLOB",
	  .pg = "ALTER TABLE run ADD COLUMN report_z BYTEA" },
	{ .sql = "",
	  .sqlite = "CREATE TABLE result_v4 " RESULT_COLUMNS " WITHOUT ROWID" },
	{ .sql = "",
	  .sqlite = "INSERT INTO result_v4 SELECT r.*, " SAMPLES_OF(
		  "r") " FROM result r" },
	{ .sql = "", .pg = "ALTER TABLE result ADD COLUMN samples TEXT" },
	{ .sql = "",
	  .pg = "UPDATE result r SET samples = (SELECT '[' || "
		"string_agg(coalesce(value::text, 'null'), ',' ORDER BY idx) "
		"|| ']' FROM "
		"sample s WHERE s.run = r.run AND s.bcase = r.bcase AND "
		"s.figure = r.figure)" },
	{ .sql = "DROP TABLE sample" },
	{ .sql = "", .sqlite = "DROP TABLE result" },
	{ .sql = "", .sqlite = "ALTER TABLE result_v4 RENAME TO result" },
	{ .sql = "", .pg = "DROP INDEX result_series" },
	{ .sql = NULL },
};

/* migrations[N - 1] brings version N - 1 to N. */
static const struct schema_sql *const migrations[] = { version_1, version_2,
						       version_3, version_4 };

#define NMIGRATIONS (sizeof(migrations) / sizeof(migrations[0]))

_Static_assert(NMIGRATIONS == STORE_SCHEMA_VERSION,
	       "one migration per schema version");

/* The statement of s for st's backend. */
static const char *dialect(const struct store *st, const struct schema_sql *s)
{
	if (st->ops == &store_sqlite_ops && s->sqlite)
		return s->sqlite;
	if (st->ops == &store_pg_ops && s->pg)
		return s->pg;
	return s->sql;
}

static int version_row(void *arg, const struct store_val *v, size_t n)
{
	*(long long *)arg = n && v[0].type != STORE_NULL ? v[0].i : 0;
	return 0;
}

/* The database's version into *version (0 when it has no tables). */
static int read_version(struct store *st, long long *version, char *err,
			size_t errlen)
{
	char why[512];
	int rc = store_query(st, "SELECT max(version) FROM schema_version",
			     NULL, 0, version_row, version, why, sizeof(why));

	*version = rc ? 0 : *version;
	if (rc && !strstr(why, "schema_version")) /* not "no such table" */
		return hb_errorf(err, errlen, rc, "%s", why);
	return 0;
}

/* Apply migrations after version, in the open transaction. */
static int apply(struct store *st, long long version, char *err, size_t errlen)
{
	int rc = 0;

	for (size_t m = (size_t)version; m < NMIGRATIONS && !rc; m++) {
		for (const struct schema_sql *s = migrations[m]; s->sql && !rc;
		     s++)
			if (*dialect(st, s))
				rc = store_exec(st, dialect(st, s), NULL, 0,
						err, errlen);
		if (!rc)
			rc = store_exec(st,
					"INSERT INTO schema_version (version) "
					"VALUES (?)",
					(struct store_val[]){
						store_int((long long)m + 1) },
					1, err, errlen);
	}
	return rc;
}

/* A database this build cannot read: refused, never downgraded. */
static int too_new(long long version, char *err, size_t errlen)
{
	return hb_errorf(err, errlen, -EPROTO,
			 "schema version %lld is newer than this hostbench's "
			 "(%d): use a newer hostbench",
			 version, STORE_SCHEMA_VERSION);
}

int store_schema_migrate(struct store *st, char *err, size_t errlen)
{
	long long version = 0;
	int rc = read_version(st, &version, err, errlen);

	if (rc || version == STORE_SCHEMA_VERSION)
		return rc;
	if (version > STORE_SCHEMA_VERSION)
		return too_new(version, err, errlen);
	rc = store_begin(st, err, errlen);
	if (rc)
		return rc;
	if (st->ops->lock)
		rc = store_exec(st, st->ops->lock, NULL, 0, err, errlen);
	/* in the transaction: a failed statement would abort it */
	if (!rc)
		rc = store_exec(st,
				"CREATE TABLE IF NOT EXISTS schema_version "
				"(version INTEGER NOT NULL)",
				NULL, 0, err, errlen);
	/* another process may have migrated while this one waited */
	if (!rc)
		rc = read_version(st, &version, err, errlen);
	if (!rc && version > STORE_SCHEMA_VERSION)
		rc = too_new(version, err, errlen);
	if (!rc && version < STORE_SCHEMA_VERSION)
		rc = apply(st, version, err, errlen);
	return store_end(st, rc, err, errlen);
}
