/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Run one external command to completion: no shell, stdin from /dev/null,
 * stdout and stderr captured (only the tail of stderr is kept, for the
 * error message), killed with its whole process group after a timeout, and
 * always reaped, so nothing is left behind.
 */
#ifndef HB_TRANSFER_SPAWN_H
#define HB_TRANSFER_SPAWN_H

#include <stddef.h>

/*
 * Run argv (argv[0] looked up in PATH) and wait for it, at most timeout
 * seconds. Returns 0 when it exited with status 0; otherwise HB_EFAIL with
 * err saying why: "cannot run", "exited with status N: <stderr tail>",
 * "killed by signal N", or "timed out after T s, killed". tail, when not
 * NULL, gets the last kilobyte of stderr as written (a NUL in it ends it).
 */
int spawn_run(char *const argv[], double timeout, char *tail, size_t tail_len,
	      char *err, size_t errlen);

#endif
