/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One-line error messages into caller-owned buffers, for every file of the
 * transfer plugin and hostbench-serve (the plugin cannot use the core's).
 */
#ifndef HB_TRANSFER_ERR_H
#define HB_TRANSFER_ERR_H

#include <stddef.h>

/*
 * Append ": " and the reason of the newest OpenSSL error (or "unknown
 * error") to the message already in err, draining the error queue.
 */
void err_ssl(char *err, size_t len);

#endif
