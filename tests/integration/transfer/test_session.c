/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ssh's report of a session (plugins/transfer/plugin/session.c), as read
 * from the end of scp -v's stderr for transfer/command's timed_by = ssh.
 */
#include <string.h>

#include "check.h"
#include "session.h"

/* The end of an scp -v of a 500 MB file, as OpenSSH 9.2 writes it. */
static const char REPORT[] =
	"debug1: client_input_channel_req: channel 0 rtype exit-status\n"
	"debug1: channel 0: free: client-session, nchannels 1\n"
	"Transferred: sent 500133596, received 96024 bytes, in 4.4 seconds\n"
	"Bytes per second: sent 113006823.5, received 21697.5\n"
	"debug1: Exit status 0\n";

/* seconds of text, or -1 when session_seconds() finds no report. */
static double seconds_of(const char *text)
{
	double s = 0;

	return session_seconds(text, strlen(text), &s) ? -1 : s;
}

static int session_is_sent_over_sent_per_second(void)
{
	double s = seconds_of(REPORT);

	/* exact, where the printed 4.4 s is rounded */
	CHECK(s > 4.4256 && s < 4.4258);
	CHECK(s == 500133596.0 / 113006823.5);
	return 0;
}

static int the_last_report_is_read(void)
{
	char two[1024];

	snprintf(two, sizeof(two), "%s%s", REPORT,
		 "Transferred: sent 1000, received 10 bytes, in 0.0 seconds\n"
		 "Bytes per second: sent 500000.0, received 5000.0\n");
	CHECK(seconds_of(two) == 0.002);
	return 0;
}

static int a_report_without_its_rate_is_none(void)
{
	CHECK(seconds_of("Transferred: sent 1000, received 10 bytes, in 0.0 "
			 "seconds\n") == -1);
	CHECK(seconds_of("Bytes per second: sent 500000.0, received 1.0\n") ==
	      -1);
	CHECK(seconds_of("") == -1);
	return 0;
}

static int words_that_are_no_number_are_none(void)
{
	CHECK(seconds_of("Transferred: sent lots, received 10 bytes\n"
			 "Bytes per second: sent 500000.0, received 1.0\n") ==
	      -1);
	CHECK(seconds_of("Transferred: sent 1.2.3, received 10 bytes\n"
			 "Bytes per second: sent 500000.0, received 1.0\n") ==
	      -1);
	CHECK(seconds_of("Transferred: sent 1000, received 10 bytes\n"
			 "Bytes per second: sent 0.0, received 1.0\n") == -1);
	/* a number cut off by the end of the text is not read */
	CHECK(seconds_of("Transferred: sent 1000, received 10 bytes\n"
			 "Bytes per second: sent 500000") == -1);
	return 0;
}

static int a_line_that_only_quotes_the_report_is_not_it(void)
{
	/* the words inside another line (a remote's banner, a file name) */
	CHECK(seconds_of(
		      "debug1: Transferred: sent 1000, received 1 bytes\n"
		      "echo Bytes per second: sent 500000.0, received 1\n") ==
	      -1);
	return 0;
}

static int text_is_read_no_further_than_its_length(void)
{
	double s = 0;

	/* the report lies beyond len: not read */
	CHECK(session_seconds(REPORT, 60, &s) == -1);
	return 0;
}

static const struct test tests[] = {
	{ "session_is_sent_over_sent_per_second",
	  session_is_sent_over_sent_per_second },
	{ "the_last_report_is_read", the_last_report_is_read },
	{ "a_report_without_its_rate_is_none",
	  a_report_without_its_rate_is_none },
	{ "words_that_are_no_number_are_none",
	  words_that_are_no_number_are_none },
	{ "a_line_that_only_quotes_the_report_is_not_it",
	  a_line_that_only_quotes_the_report_is_not_it },
	{ "text_is_read_no_further_than_its_length",
	  text_is_read_no_further_than_its_length },
};

TEST_MAIN(tests)
