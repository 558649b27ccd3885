/*
 * The transfer protocol between a sender (the plugin's client side) and a
 * receiver (the plugin's loopback thread or hostbench-serve). Both ends
 * compile this one file; docs/transfer.md describes the bytes.
 *
 *   client -> server  preface: "HBX1", mode (1 byte), 3 zero bytes
 *   (TLS modes: the TLS handshake, then everything below inside TLS)
 *   client -> server  hello: token length (2 bytes BE), token
 *   server -> client  reply: status (1 byte), message length (1), message
 *   stream modes, repeated:
 *     client -> server  frame: byte count n (8 bytes BE), then n bytes
 *     server -> client  ack: n (8 bytes BE), sent once all n arrived
 *   a frame with n = 0 ends the session; handshake mode ends after reply.
 */
#ifndef HB_TRANSFER_WIRE_H
#define HB_TRANSFER_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "chan.h"

#define WIRE_MAGIC     "HBX1"
#define WIRE_TOKEN_MAX 256

/* What a connection is for, sent in the preface. */
enum wire_mode {
	WIRE_TCP = 1,	    /* stream over plain TCP */
	WIRE_TLS = 2,	    /* stream over TLS */
	WIRE_HANDSHAKE = 3, /* one TLS handshake, then close */
};

/* The receiver's answer to a hello. */
enum wire_status {
	WIRE_OK = 0,
	WIRE_BAD_TOKEN = 1,
};

/* Client: send the plain-text preface for mode on fd. */
int wire_send_preface(int fd, enum wire_mode mode, char *err, size_t errlen);

/* Server: read and check a preface; HB_EINVAL for anything else. */
int wire_recv_preface(int fd, enum wire_mode *mode, char *err, size_t errlen);

/* Client: present token (at most WIRE_TOKEN_MAX bytes). */
int wire_send_hello(struct chan *ch, const char *token, char *err,
		    size_t errlen);

/* Server: read a hello into token (WIRE_TOKEN_MAX + 1 bytes). */
int wire_recv_hello(struct chan *ch, char *token, char *err, size_t errlen);

/* Server: answer a hello; msg is at most 255 bytes, cut if longer. */
int wire_send_reply(struct chan *ch, enum wire_status status, const char *msg,
		    char *err, size_t errlen);

/*
 * Client: read the reply. Returns 0 for WIRE_OK; HB_EINVAL for a refusal,
 * with the receiver's message ("wrong token"); HB_EIO if the connection
 * failed.
 */
int wire_recv_reply(struct chan *ch, char *err, size_t errlen);

/* Both: an 8-byte count (a frame header or an ack). */
int wire_send_count(struct chan *ch, uint64_t n, int more, char *err,
		    size_t errlen);
int wire_recv_count(struct chan *ch, uint64_t *n, char *err, size_t errlen);

/* Constant-time token comparison: 1 when equal. */
int wire_token_equal(const char *a, const char *b);

#endif
