/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The transfer protocol between a sender (the plugin's client side) and a
 * receiver (the plugin's loopback thread or hostbench-serve). Both ends
 * compile this one file; docs/transfer.md describes the bytes.
 *
 *   client -> server  preface: "HBX2", mode (1 byte), 3 zero bytes
 *   (TLS modes: the TLS handshake, then everything below inside TLS)
 *   server -> client  challenge, tcp mode only: a fresh nonce (32 bytes)
 *   client -> server  hello: client nonce (32), client proof (32)
 *   server -> client  reply: status (1 byte), message length (1), message,
 *                     then, when the status is ok, the server proof (32)
 *   stream modes, repeated:
 *     client -> server  frame: byte count n (8 bytes BE), then n bytes
 *     server -> client  ack: n (8 bytes BE), sent once all n arrived
 *   a frame with n = 0 ends the session; handshake mode ends after reply.
 *
 * The token never travels. A proof is HMAC-SHA256 keyed with the token
 * over a label ("hostbench client" or "hostbench server"), the mode, the
 * server's nonce (zeros in TLS modes), the client's nonce and the channel
 * binding: 32 bytes of TLS keying material (RFC 5705, label
 * "EXPORTER-hostbench-token") in TLS modes, which differ on each side of a
 * man in the middle, so relayed proofs fail; zeros in tcp mode.
 */
#ifndef HB_TRANSFER_WIRE_H
#define HB_TRANSFER_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "chan.h"
#include "token.h"

#define WIRE_MAGIC "HBX2"
#define WIRE_NONCE 32 /* bytes of each nonce */
#define WIRE_PROOF 32 /* bytes of an HMAC-SHA256 proof */

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
	WIRE_BUSY = 2, /* the token holds, but the receiver has no room */
};

/* What both proofs of one session are computed over. */
struct wire_auth {
	enum wire_mode mode;
	unsigned char server_nonce[WIRE_NONCE]; /* zeros in TLS modes */
	unsigned char client_nonce[WIRE_NONCE];
	unsigned char binding[WIRE_NONCE]; /* TLS exporter; zeros for tcp */
};

/*
 * Client: send the plain-text preface for mode on fd (held back for what
 * follows in TLS modes, sent at once for tcp, whose server speaks next).
 */
int wire_send_preface(int fd, enum wire_mode mode, char *err, size_t errlen);

/* Server: read and check a preface; HB_EINVAL for anything else. */
int wire_recv_preface(int fd, enum wire_mode *mode, char *err, size_t errlen);

/*
 * Both, after the preface (and TLS handshake): start a->mode's auth with
 * the channel binding of ch. The server (server = 1) of a tcp session
 * sends a fresh nonce, the client receives it. Returns 0 or a negative
 * code with err filled.
 */
int wire_auth_begin(struct chan *ch, struct wire_auth *a, int server, char *err,
		    size_t errlen);

/*
 * Client: a fresh client nonce, and the hello proving token (at most
 * TOKEN_MAX bytes) without sending it.
 */
int wire_send_hello(struct chan *ch, struct wire_auth *a, const char *token,
		    char *err, size_t errlen);

/*
 * Server: read a hello and check its proof against token. Returns 0 when
 * it holds, HB_EINVAL ("wrong token") when not, or the read's error.
 */
int wire_recv_hello(struct chan *ch, struct wire_auth *a, const char *token,
		    char *err, size_t errlen);

/*
 * Server: answer a hello; msg is at most 255 bytes, cut if longer. With
 * WIRE_OK the server's proof over a with token follows.
 */
int wire_send_reply(struct chan *ch, enum wire_status status, const char *msg,
		    const struct wire_auth *a, const char *token, char *err,
		    size_t errlen);

/*
 * Client: read the reply. Returns 0 for WIRE_OK with a server proof that
 * holds; HB_EINVAL for a refusal, with the receiver's message ("wrong
 * token"), or for a proof that does not hold (the receiver does not know
 * the token, or a man in the middle); HB_EIO if the connection failed.
 */
int wire_recv_reply(struct chan *ch, const struct wire_auth *a,
		    const char *token, char *err, size_t errlen);

/* Both: an 8-byte count (a frame header or an ack). */
int wire_send_count(struct chan *ch, uint64_t n, int more, char *err,
		    size_t errlen);
int wire_recv_count(struct chan *ch, uint64_t *n, char *err, size_t errlen);

#endif
