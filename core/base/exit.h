/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The exit statuses of hostbench, documented in docs/usage.md: every
 * command and every fleet rank returns one of these.
 */
#ifndef HB_CORE_BASE_EXIT_H
#define HB_CORE_BASE_EXIT_H

enum hb_exit {
	EXIT_ALL_OK = 0, /* every case ok or skipped */
	EXIT_CASE_FAILED =
		1,	    /* a case failed (or compare found a regression) */
	EXIT_BAD_INPUT = 2, /* bad command line, suite, report or file */
	EXIT_INTERNAL = 3,  /* out of memory, a write that failed */
	EXIT_STORE = 4,	    /* the report is written, the store failed */
};

/* 128 + the signal that interrupted a run (130 for SIGINT, 143 SIGTERM). */
#define EXIT_SIGNAL(sig) (128 + (sig))

#endif
