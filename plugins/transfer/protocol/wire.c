/* SPDX-License-Identifier: Apache-2.0 */
/* The transfer protocol's messages, shared by both ends. */
#include "wire.h"

#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <hostbench/plugin.h>

#include "err.h"
#include "net.h"

int wire_send_preface(int fd, enum wire_mode mode, char *err, size_t errlen)
{
	unsigned char p[8] = {
		'H', 'B', 'X', '2', (unsigned char)mode, 0, 0, 0
	};

	/* The ClientHello follows at once: one segment, not two. */
	return net_send_all(fd, p, sizeof(p), mode != WIRE_TCP, err, errlen);
}

int wire_recv_preface(int fd, enum wire_mode *mode, char *err, size_t errlen)
{
	unsigned char p[8];
	int rc = net_recv_all(fd, p, sizeof(p), err, errlen);

	if (rc)
		return rc;
	if (memcmp(p, WIRE_MAGIC, 4) != 0)
		return hb_errorf(err, errlen, HB_EINVAL,
				 "not a hostbench client (bad preface)");
	if (p[4] < WIRE_TCP || p[4] > WIRE_HANDSHAKE || p[5] || p[6] || p[7])
		return hb_errorf(err, errlen, HB_EINVAL, "unknown mode %u",
				 p[4]);
	*mode = (enum wire_mode)p[4];
	return 0;
}

/* The channel binding of ch: TLS keying material, zeros for plain TCP. */
static int binding(struct chan *ch, unsigned char out[WIRE_NONCE], char *err,
		   size_t errlen)
{
	static const char label[] = "EXPORTER-hostbench-token";

	memset(out, 0, WIRE_NONCE);
	if (!ch->ssl ||
	    SSL_export_keying_material(ch->ssl, out, WIRE_NONCE, label,
				       sizeof(label) - 1, NULL, 0, 0) == 1)
		return 0;
	hb_error_fill(err, errlen, "TLS keying material");
	err_ssl(err, errlen);
	return HB_ECRYPTO;
}

int wire_auth_begin(struct chan *ch, struct wire_auth *a, int server, char *err,
		    size_t errlen)
{
	int rc = binding(ch, a->binding, err, errlen);

	memset(a->server_nonce, 0, sizeof(a->server_nonce));
	memset(a->client_nonce, 0, sizeof(a->client_nonce));
	/* TLS modes: the keying material is fresh on every connection */
	if (rc || a->mode != WIRE_TCP)
		return rc;
	if (!server)
		return chan_read(ch, a->server_nonce, WIRE_NONCE, err, errlen);
	if (RAND_bytes(a->server_nonce, WIRE_NONCE) != 1)
		return hb_errorf(err, errlen, HB_ECRYPTO, "RAND_bytes failed");
	return chan_write(ch, a->server_nonce, WIRE_NONCE, 0, err, errlen);
}

/* The proof of the client (server = 0) or the server over a, with token. */
static void proof(const char *token, const struct wire_auth *a, int server,
		  unsigned char out[WIRE_PROOF])
{
	unsigned char msg[16 + 1 + 3 * WIRE_NONCE], *p = msg;
	unsigned int len = WIRE_PROOF;

	memcpy(p, server ? "hostbench server" : "hostbench client", 16);
	p += 16;
	*p++ = (unsigned char)a->mode;
	memcpy(p, a->server_nonce, WIRE_NONCE);
	memcpy(p + WIRE_NONCE, a->client_nonce, WIRE_NONCE);
	memcpy(p + 2 * WIRE_NONCE, a->binding, WIRE_NONCE);
	if (!HMAC(EVP_sha256(), token, (int)strlen(token), msg, sizeof(msg),
		  out, &len))
		memset(out, 0, WIRE_PROOF); /* matches no real proof */
}

/* Nonzero when got is the proof of token over a (constant time). */
static int proof_holds(const char *token, const struct wire_auth *a, int server,
		       const unsigned char *got)
{
	unsigned char want[WIRE_PROOF];

	proof(token, a, server, want);
	return CRYPTO_memcmp(want, got, WIRE_PROOF) == 0;
}

int wire_send_hello(struct chan *ch, struct wire_auth *a, const char *token,
		    char *err, size_t errlen)
{
	unsigned char buf[WIRE_NONCE + WIRE_PROOF];
	size_t len = strlen(token);

	if (len > TOKEN_MAX)
		return hb_errorf(err, errlen, HB_EINVAL,
				 "token is %zu bytes, at most %d allowed", len,
				 TOKEN_MAX);
	if (RAND_bytes(a->client_nonce, WIRE_NONCE) != 1)
		return hb_errorf(err, errlen, HB_ECRYPTO, "RAND_bytes failed");
	memcpy(buf, a->client_nonce, WIRE_NONCE);
	proof(token, a, 0, buf + WIRE_NONCE);
	return chan_write(ch, buf, sizeof(buf), 0, err, errlen);
}

int wire_recv_hello(struct chan *ch, struct wire_auth *a, const char *token,
		    char *err, size_t errlen)
{
	unsigned char buf[WIRE_NONCE + WIRE_PROOF];
	int rc = chan_read(ch, buf, sizeof(buf), err, errlen);

	if (rc)
		return rc;
	memcpy(a->client_nonce, buf, WIRE_NONCE);
	if (!proof_holds(token, a, 0, buf + WIRE_NONCE))
		return hb_errorf(err, errlen, HB_EINVAL, "wrong token");
	return 0;
}

int wire_send_reply(struct chan *ch, enum wire_status status, const char *msg,
		    const struct wire_auth *a, const char *token, char *err,
		    size_t errlen)
{
	unsigned char buf[2 + 255 + WIRE_PROOF];
	size_t len = strlen(msg);

	if (len > 255)
		len = 255;
	buf[0] = (unsigned char)status;
	buf[1] = (unsigned char)len;
	/* a length-prefixed frame, not a C string */
	/* NOLINTNEXTLINE(bugprone-not-null-terminated-result) */
	memcpy(buf + 2, msg, len);
	if (status == WIRE_OK) {
		proof(token, a, 1, buf + 2 + len);
		len += WIRE_PROOF;
	}
	return chan_write(ch, buf, 2 + len, 0, err, errlen);
}

int wire_recv_reply(struct chan *ch, const struct wire_auth *a,
		    const char *token, char *err, size_t errlen)
{
	unsigned char h[2], mac[WIRE_PROOF];
	char msg[256];
	int rc = chan_read(ch, h, 2, err, errlen);

	if (rc)
		return rc;
	rc = chan_read(ch, msg, h[1], err, errlen);
	if (rc)
		return rc;
	msg[h[1]] = '\0';
	if (h[0] != WIRE_OK)
		return hb_errorf(err, errlen, HB_EINVAL,
				 "refused by receiver: %s",
				 msg[0] ? msg : "no reason given");
	rc = chan_read(ch, mac, sizeof(mac), err, errlen);
	if (rc)
		return rc;
	if (!proof_holds(token, a, 1, mac))
		return hb_errorf(err, errlen, HB_EINVAL,
				 "the receiver could not prove it knows the "
				 "token (another token, or a man in the "
				 "middle)");
	return 0;
}

int wire_send_count(struct chan *ch, uint64_t n, int more, char *err,
		    size_t errlen)
{
	unsigned char b[8];

	net_put_u64(b, n);
	return chan_write(ch, b, sizeof(b), more, err, errlen);
}

int wire_recv_count(struct chan *ch, uint64_t *n, char *err, size_t errlen)
{
	unsigned char b[8];
	int rc = chan_read(ch, b, sizeof(b), err, errlen);

	if (rc == 0)
		*n = net_get_u64(b);
	return rc;
}
