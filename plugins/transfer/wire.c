/* The transfer protocol's messages, shared by both ends. */
#include "wire.h"

#include <string.h>

#include <openssl/crypto.h>

#include <hostbench/plugin.h>

#include "err.h"
#include "net.h"

int wire_send_preface(int fd, enum wire_mode mode, char *err, size_t errlen)
{
	unsigned char p[8] = {
		'H', 'B', 'X', '1', (unsigned char)mode, 0, 0, 0
	};

	/* More follows at once (hello or ClientHello): one segment, not two. */
	return net_send_all(fd, p, sizeof(p), 1, err, errlen);
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

int wire_send_hello(struct chan *ch, const char *token, char *err,
		    size_t errlen)
{
	unsigned char buf[2 + WIRE_TOKEN_MAX];
	size_t len = strlen(token);

	if (len > WIRE_TOKEN_MAX)
		return hb_errorf(err, errlen, HB_EINVAL,
				 "token is %zu bytes, at most %d allowed", len,
				 WIRE_TOKEN_MAX);
	buf[0] = (unsigned char)(len >> 8);
	buf[1] = (unsigned char)len;
	/* a length-prefixed frame, not a C string */
	/* NOLINTNEXTLINE(bugprone-not-null-terminated-result) */
	memcpy(buf + 2, token, len);
	return chan_write(ch, buf, 2 + len, 0, err, errlen);
}

int wire_recv_hello(struct chan *ch, char *token, char *err, size_t errlen)
{
	unsigned char h[2];
	size_t len;
	int rc = chan_read(ch, h, 2, err, errlen);

	if (rc)
		return rc;
	len = (size_t)h[0] << 8 | h[1];
	if (len > WIRE_TOKEN_MAX)
		return hb_errorf(err, errlen, HB_EINVAL,
				 "token length %zu too long", len);
	rc = chan_read(ch, token, len, err, errlen);
	if (rc)
		return rc;
	token[len] = '\0';
	if (strlen(token) != len)
		return hb_errorf(err, errlen, HB_EINVAL,
				 "token holds a NUL byte");
	return 0;
}

int wire_send_reply(struct chan *ch, enum wire_status status, const char *msg,
		    char *err, size_t errlen)
{
	unsigned char buf[2 + 255];
	size_t len = strlen(msg);

	if (len > 255)
		len = 255;
	buf[0] = (unsigned char)status;
	buf[1] = (unsigned char)len;
	/* a length-prefixed frame, not a C string */
	/* NOLINTNEXTLINE(bugprone-not-null-terminated-result) */
	memcpy(buf + 2, msg, len);
	return chan_write(ch, buf, 2 + len, 0, err, errlen);
}

int wire_recv_reply(struct chan *ch, char *err, size_t errlen)
{
	unsigned char h[2];
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

int wire_token_equal(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	/* Compare a fixed span so timing says nothing about the prefix. */
	char pa[WIRE_TOKEN_MAX + 1] = { 0 }, pb[WIRE_TOKEN_MAX + 1] = { 0 };

	if (la > WIRE_TOKEN_MAX || lb > WIRE_TOKEN_MAX)
		return 0;
	memcpy(pa, a, la);
	memcpy(pb, b, lb);
	return (la == lb) & (CRYPTO_memcmp(pa, pb, sizeof(pa)) == 0);
}
