/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A channel: a connected socket, plain or wrapped in TLS, with whole-buffer
 * reads and writes. Both ends of the transfer protocol speak through it.
 */
#ifndef HB_TRANSFER_CHAN_H
#define HB_TRANSFER_CHAN_H

#include <stddef.h>

#include <openssl/ssl.h>

/* fd is owned by whoever made the channel; ssl is NULL for plain TCP. */
struct chan {
	int fd;
	SSL *ssl;
};

/* Write all len bytes; more hints that data follows (MSG_MORE, TCP only). */
int chan_write(struct chan *ch, const void *buf, size_t len, int more,
	       char *err, size_t errlen);

/* Read exactly len bytes; a peer that closes first is HB_EIO. */
int chan_read(struct chan *ch, void *buf, size_t len, char *err, size_t errlen);

/*
 * Read at most len bytes into buf and set *got (> 0). Returns 0, or HB_EIO
 * on end of stream ("connection closed by peer"), reset or timeout.
 */
int chan_read_some(struct chan *ch, void *buf, size_t len, size_t *got,
		   char *err, size_t errlen);

#endif
