/* SPDX-License-Identifier: Apache-2.0 */
/* The closing line of a run and the command that resumes it. */
#include "ui/run_end.h"
#include "check.h"

static int run_end_tally_counts_each_status(void)
{
	struct result r[4] = { { .status = RESULT_OK },
			       { .status = RESULT_FAILED },
			       { .status = RESULT_SKIPPED },
			       { .status = RESULT_OK } };
	struct run_tally t = run_end_tally(r, 4);

	CHECK_INT(t.ok, 2);
	CHECK_INT(t.failed, 1);
	CHECK_INT(t.skipped, 1);
	return 0;
}

static int run_end_summary_says_cases_wall_report_and_store(void)
{
	char buf[256];

	run_end_summary(buf, sizeof(buf), (struct run_tally){ 15, 1, 1 }, 72.4,
			"r.json", "sqlite:/x.db", "u-1");
	CHECK_STR(buf, "17 cases: 15 ok, 1 failed, 1 skipped in 1:12; report "
		       "in r.json; stored in sqlite:/x.db (run u-1)");
	run_end_summary(buf, sizeof(buf), (struct run_tally){ 1, 0, 0 }, 2.04,
			NULL, NULL, NULL);
	CHECK_STR(buf, "1 case: 1 ok, 0 failed, 0 skipped in 2.0 s; report "
		       "on stdout");
	return 0;
}

/* The journal the run wrote is the one the command resumes. */
static int run_end_resume_turns_journal_into_resume(void)
{
	char *words[] = { "hostbench", "run", "a b.ini", "--journal",
			  "j.jsonl",   "-o",  "r.json" };
	struct strlist cmd = { .items = words, .n = 7 };
	char buf[256];

	run_end_resume(buf, sizeof(buf), &cmd, "j.jsonl");
	CHECK_STR(buf, "continue with: hostbench run 'a b.ini' --resume "
		       "j.jsonl -o r.json");
	words[3] = "--journal=j.jsonl";
	cmd = (struct strlist){ .items = (char *[]){ words[0], words[3] },
				.n = 2 };
	run_end_resume(buf, sizeof(buf), &cmd, "j.jsonl");
	CHECK_STR(buf, "continue with: hostbench --resume j.jsonl");
	return 0;
}

static int run_end_resume_without_journal_says_how_to_get_one(void)
{
	char *words[] = { "hostbench" };
	struct strlist cmd = { .items = words, .n = 1 };
	char buf[256];

	run_end_resume(buf, sizeof(buf), &cmd, NULL);
	CHECK_CONTAINS(buf, "--journal FILE");
	return 0;
}

static int run_end_resume_asks_for_a_masked_secret(void)
{
	char *words[] = { "hostbench", "--set", "token=(secret)", "--journal",
			  "j" };
	struct strlist cmd = { .items = words, .n = 5 };
	char buf[256];

	run_end_resume(buf, sizeof(buf), &cmd, "j");
	CHECK_CONTAINS(buf, "'token=(secret)' --resume j");
	CHECK_CONTAINS(buf, "put back each secret shown as (secret)");
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"run_end_tally_counts_each_status", run_end_tally_counts_each_status},
	{"run_end_summary_says_cases_wall_report_and_store", run_end_summary_says_cases_wall_report_and_store},
	{"run_end_resume_turns_journal_into_resume", run_end_resume_turns_journal_into_resume},
	{"run_end_resume_without_journal_says_how_to_get_one", run_end_resume_without_journal_says_how_to_get_one},
	{"run_end_resume_asks_for_a_masked_secret", run_end_resume_asks_for_a_masked_secret},
};
/* clang-format on */

TEST_MAIN(tests)
