/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A minimal test harness: each test is a function registered in a table;
 * CHECK* macros record a failure with file and line and return from the
 * test. main() runs the tests named on the command line, or all of them.
 */
#ifndef HB_TEST_CHECK_H
#define HB_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

struct test {
	const char *name;
	int (*fn)(void);
};

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, \
				__LINE__, #cond);                              \
			return 1;                                              \
		}                                                              \
	} while (0)

#define CHECK_INT(got, want)                                                   \
	do {                                                                   \
		long long g_ = (long long)(got), w_ = (long long)(want);       \
		if (g_ != w_) {                                                \
			fprintf(stderr, "%s:%d: %s is %lld, want %lld\n",      \
				__FILE__, __LINE__, #got, g_, w_);             \
			return 1;                                              \
		}                                                              \
	} while (0)

#define CHECK_STR(got, want)                                                   \
	do {                                                                   \
		const char *g_ = (got), *w_ = (want);                          \
		if (!g_ || strcmp(g_, w_) != 0) {                              \
			fprintf(stderr, "%s:%d: %s is \"%s\", want \"%s\"\n",  \
				__FILE__, __LINE__, #got, g_ ? g_ : "(null)",  \
				w_);                                           \
			return 1;                                              \
		}                                                              \
	} while (0)

#define CHECK_CONTAINS(got, want)                                              \
	do {                                                                   \
		const char *g_ = (got), *w_ = (want);                          \
		if (!g_ || !strstr(g_, w_)) {                                  \
			fprintf(stderr,                                        \
				"%s:%d: %s is \"%s\", want it to "             \
				"contain \"%s\"\n",                            \
				__FILE__, __LINE__, #got, g_ ? g_ : "(null)",  \
				w_);                                           \
			return 1;                                              \
		}                                                              \
	} while (0)

#define CHECK_NEAR(got, want, tol)                                             \
	do {                                                                   \
		double g_ = (got), w_ = (want);                                \
		if (!(fabs(g_ - w_) <= (tol))) {                               \
			fprintf(stderr, "%s:%d: %s is %.10g, want %.10g\n",    \
				__FILE__, __LINE__, #got, g_, w_);             \
			return 1;                                              \
		}                                                              \
	} while (0)

/* Run the tests named in argv (all when none); returns the exit status. */
static inline int check_main(const struct test *tests, size_t n, int argc,
			     char **argv)
{
	int failed = 0, ran = 0;

	for (size_t i = 0; i < n; i++) {
		int wanted = argc < 2;

		for (int a = 1; a < argc; a++)
			wanted |= strcmp(argv[a], tests[i].name) == 0;
		if (!wanted)
			continue;
		ran++;
		if (tests[i].fn()) {
			fprintf(stderr, "FAIL %s\n", tests[i].name);
			failed++;
		}
	}
	if (!ran) {
		fprintf(stderr, "no test matched\n");
		return 1;
	}
	return failed ? 1 : 0;
}

#define TEST_MAIN(table)                                                       \
	int main(int argc, char **argv)                                        \
	{                                                                      \
		return check_main(table, sizeof(table) / sizeof(table[0]),     \
				  argc, argv);                                 \
	}

/*
 * TEST_MAIN for tests whose code starts helper processes (the plugin
 * loader): the test binary is /proc/self/exe, so it is also the helper.
 * Include "app/command.h" first.
 */
#define TEST_MAIN_HELPERS(table)                                               \
	int main(int argc, char **argv)                                        \
	{                                                                      \
		if (argc > 1 && strcmp(argv[1], "__helper") == 0)              \
			return command_helper(argc, argv);                     \
		return check_main(table, sizeof(table) / sizeof(table[0]),     \
				  argc, argv);                                 \
	}

#endif
