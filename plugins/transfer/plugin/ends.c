/* SPDX-License-Identifier: Apache-2.0 */
/* Client context and loopback receiver for the network targets. */
#include "ends.h"

#include <stdlib.h>
#include <string.h>

#include "protocol/err.h"
#include "protocol/tls.h"

/* The receiver reads in pieces of this size whatever the sender sends. */
#define RECV_BUF (256 * 1024)

/* TLS options of case c, with "auto" resolved per version and cipher. */
static void read_tls(const struct hb_case *c, struct tls_client_opts *o)
{
	const struct hb_host *h = c->host;
	const char *key = h->get_str(c, "key");

	o->version = strcmp(h->get_str(c, "tls_version"), "1.2") == 0
			     ? TLS1_2_VERSION
			     : TLS1_3_VERSION;
	o->cipher = h->get_str(c, "cipher");
	if (strcmp(o->cipher, "auto") == 0)
		o->cipher = o->version == TLS1_3_VERSION
				    ? "TLS_AES_256_GCM_SHA384"
				    : "ECDHE-RSA-AES256-GCM-SHA384";
	if (strcmp(key, "rsa2048") == 0)
		o->key = TLS_KEY_RSA2048;
	else if (strcmp(key, "ec-p256") == 0)
		o->key = TLS_KEY_EC_P256;
	else
		o->key = tls_key_for_cipher(o->cipher);
}

/* Socket options of case c. */
static void read_net(const struct hb_case *c, struct net_opts *o)
{
	const struct hb_host *h = c->host;

	o->sndbuf = (int)h->get_size(c, "sndbuf");
	o->rcvbuf = (int)h->get_size(c, "rcvbuf");
	o->nodelay = h->get_bool(c, "nodelay");
	o->io_timeout = h->get_duration(c, "io_timeout");
}

const char *ends_token(const struct hb_case *c)
{
	const char *t = c->host->get_str(c, "token"), *env;

	if (t && t[0])
		return t;
	env = getenv("HOSTBENCH_TOKEN");
	return env ? env : "";
}

/* One peer_cfg per receiver in e->pc, each a copy of base. */
static int fill_peers(struct ends *e, const struct peer_cfg *base, char *err,
		      size_t errlen)
{
	e->npc = e->have_local ? 1 : e->peers.n;
	e->pc = calloc(e->npc, sizeof(*e->pc));
	if (!e->pc)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	for (size_t i = 0; i < e->npc; i++) {
		e->pc[i] = *base;
		e->pc[i].addr =
			e->have_local ? e->local.addr : e->peers.addr[i];
		e->pc[i].token =
			e->have_local ? e->local.token : e->peers.token[i];
	}
	e->where = e->have_local ? e->local.addr : e->where;
	return 0;
}

/* A loopback receiver for base's mode, in e->local. */
static int start_local(struct ends *e, const struct peer_cfg *base,
		       const struct tls_client_opts *to, char *err,
		       size_t errlen)
{
	int rc;

	if (base->mode != WIRE_TCP) {
		rc = tls_server_ctx(1u << to->key, &e->srv_tls, err, errlen);
		if (rc)
			return rc;
	}
	rc = local_start(&e->local, e->srv_tls, e->bio, &base->net, RECV_BUF,
			 err, errlen);
	if (rc == 0)
		e->have_local = 1;
	return rc;
}

int ends_prepare(const struct hb_case *c, enum wire_mode mode, struct ends *e,
		 char *err, size_t errlen)
{
	const char *peer = c->host->get_str(c, "peer");
	struct peer_cfg base = { .mode = mode };
	struct tls_client_opts to = { 0 };
	int rc;

	memset(e, 0, sizeof(*e));
	read_net(c, &base.net);
	/* A handshake is a ping-pong of small writes: Nagle only adds delay. */
	if (mode == WIRE_HANDSHAKE)
		base.net.nodelay = 1;
	if (mode != WIRE_TCP) {
		read_tls(c, &to);
		e->bio = tls_bio_method();
		if (!e->bio)
			return hb_errorf(err, errlen, HB_ENOMEM,
					 "BIO_meth_new");
		rc = tls_client_ctx(&to, &e->cli_tls, err, errlen);
		if (rc)
			return rc;
		base.tls = e->cli_tls;
		base.bio = e->bio;
	}
	e->where = peer;
	if (peer[0])
		rc = peers_parse(peer, ends_token(c), &e->peers, err, errlen);
	else
		rc = start_local(e, &base, &to, err, errlen);
	return rc ? rc : fill_peers(e, &base, err, errlen);
}

void ends_free(struct ends *e)
{
	if (e->have_local)
		local_stop(&e->local);
	e->have_local = 0;
	for (size_t i = 0; e->pc && i < e->npc; i++)
		SSL_SESSION_free(e->pc[i].session);
	free(e->pc);
	e->pc = NULL;
	e->npc = 0;
	peers_free(&e->peers);
	SSL_CTX_free(e->cli_tls);
	SSL_CTX_free(e->srv_tls);
	BIO_meth_free(e->bio);
}
