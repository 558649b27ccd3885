/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ssh's own report of a session, as `ssh -v` (and `scp -v`) prints it at
 * the end: "Transferred: sent N, received M bytes, in T seconds" and
 * "Bytes per second: sent R, received S". The classic scp loop reads R.
 */
#ifndef HB_TRANSFER_SESSION_H
#define HB_TRANSFER_SESSION_H

#include <stddef.h>

/*
 * The session time ssh measured, from the last report in text (len
 * bytes, not NUL-terminated): N / R seconds, exact where ssh's printed
 * T is rounded to a tenth. Returns 0 with *seconds set, or -1 when text
 * holds no whole report (no line, a number that is not one, R or N not
 * above zero).
 */
int session_seconds(const char *text, size_t len, double *seconds);

#endif
