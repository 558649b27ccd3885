/*
 * One-line error messages into caller-owned buffers, for every file of the
 * transfer plugin and hostbench-serve (the plugin cannot use the core's).
 */
#ifndef HB_TRANSFER_ERR_H
#define HB_TRANSFER_ERR_H

#include <stddef.h>

/* snprintf into err, when err and len are given. */
void terr_fill(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Fill err and evaluate to code: `return terr(err, len, HB_EINVAL, ...)`.
 * A macro, so static analysis sees which code comes back.
 */
#define terr(err, len, code, ...) (terr_fill((err), (len), __VA_ARGS__), (code))

/*
 * Append ": " and the reason of the newest OpenSSL error (or "unknown
 * error") to the message already in err, draining the error queue.
 */
void terr_ssl(char *err, size_t len);

#endif
