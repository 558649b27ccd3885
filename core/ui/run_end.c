/* SPDX-License-Identifier: Apache-2.0 */
/* The closing line of a run and the command that resumes it. */
#include "ui/run_end.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/argmask.h"

struct run_tally run_end_tally(const struct result *results, size_t n)
{
	struct run_tally t = { 0 };

	for (size_t i = 0; i < n; i++) {
		if (results[i].status == RESULT_OK)
			t.ok++;
		else if (results[i].status == RESULT_FAILED)
			t.failed++;
		else
			t.skipped++;
	}
	return t;
}

/* "12.3 s" under a minute, else "M:SS" (or "H:MM:SS"), into buf. */
static void wall_text(char *buf, size_t len, double seconds)
{
	unsigned long s = (unsigned long)lround(fmax(seconds, 0));

	if (seconds < 59.95)
		snprintf(buf, len, "%.1f s", fmax(seconds, 0));
	else if (s >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60,
			 s % 60);
	else
		snprintf(buf, len, "%lu:%02lu", s / 60, s % 60);
}

void run_end_summary(char *buf, size_t len, struct run_tally t, double seconds,
		     const char *report, const char *store, const char *uuid)
{
	size_t n = t.ok + t.failed + t.skipped, at;
	char wall[32];

	wall_text(wall, sizeof(wall), seconds);
	snprintf(buf, len,
		 "%zu case%s: %zu ok, %zu failed, %zu skipped in %s; "
		 "report %s%s",
		 n, n == 1 ? "" : "s", t.ok, t.failed, t.skipped, wall,
		 report ? "in " : "on stdout", report ? report : "");
	at = strlen(buf);
	if (store && at < len)
		snprintf(buf + at, len - at, "; stored in %s (run %s)", store,
			 uuid ? uuid : "?");
}

/* cmd with "--journal FILE" (or "--journal=FILE") as "--resume FILE". */
static int resume_words(const struct strlist *cmd, struct strlist *out)
{
	int rc = 0;

	for (size_t i = 0; i < cmd->n && !rc; i++) {
		const char *w = cmd->items[i];

		if (strcmp(w, "--journal") == 0)
			rc = strlist_push(out, "--resume");
		else if (strncmp(w, "--journal=", 10) == 0)
			rc = strlist_push(out, "--resume")
				     ?: strlist_push(out, w + 10);
		else
			rc = strlist_push(out, w);
	}
	return rc;
}

/* Nonzero when a word of cmd holds a masked secret. */
static int has_secret(const struct strlist *cmd)
{
	for (size_t i = 0; i < cmd->n; i++)
		if (strstr(cmd->items[i], ARGMASK_SECRET))
			return 1;
	return 0;
}

void run_end_resume(char *buf, size_t len, const struct strlist *cmd,
		    const char *journal)
{
	struct strlist words = { 0 };
	char line[4096];
	size_t at;

	if (!journal) {
		snprintf(buf, len,
			 "no journal, so nothing can resume this run: run "
			 "with --journal FILE to continue one later with "
			 "--resume FILE");
		return;
	}
	if (resume_words(cmd, &words)) {
		snprintf(buf, len, "continue with --resume %s", journal);
		strlist_free(&words);
		return;
	}
	argmask_text(&words, line, sizeof(line));
	strlist_free(&words);
	snprintf(buf, len, "continue with: %s", line);
	at = strlen(buf);
	if (has_secret(cmd) && at < len)
		snprintf(buf + at, len - at,
			 " (put back each secret shown as " ARGMASK_SECRET ")");
}
