/* SPDX-License-Identifier: Apache-2.0 */
/* The peer list of a network case and the token of each peer. */
#include "peers.h"

#include <stdlib.h>
#include <string.h>

#include <hostbench/plugin.h>

#include "protocol/net.h"
#include "protocol/token.h"

/* Cut text at each comma into items[] (n of them), blanks trimmed. */
static void split(char *text, char **items, size_t n)
{
	char *p = text;

	for (size_t i = 0; i < n; i++) {
		char *end = strchr(p, ','), *last;

		if (end)
			*end = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		last = p + strlen(p);
		while (last > p && (last[-1] == ' ' || last[-1] == '\t'))
			*--last = '\0';
		items[i] = p;
		p = end ? end + 1 : p + strlen(p);
	}
}

/* Items in a comma list: one more than its commas. */
static size_t count_items(const char *text)
{
	size_t n = 1;

	for (; *text; text++)
		n += *text == ',';
	return n;
}

/* Check every address of p: not empty, HOST:PORT. */
static int check_addrs(const struct peers *p, const char *peer, char *err,
		       size_t errlen)
{
	for (size_t i = 0; i < p->n; i++) {
		if (!p->addr[i][0])
			return hb_errorf(err, errlen, HB_EINVAL,
					 "\"%s\": peer %zu of %zu is empty "
					 "(a comma list of HOST:PORT)",
					 peer, i + 1, p->n);
		if (net_check_hostport(p->addr[i], 0, err, errlen))
			return HB_EINVAL;
	}
	return 0;
}

/* The first n tokens of p pass token_check(), which never shows them. */
static int check_tokens(const struct peers *p, size_t n, char *err,
			size_t errlen)
{
	char why[256];

	for (size_t i = 0; i < n; i++) {
		if (!token_check(p->token[i], why, sizeof(why)))
			continue;
		if (n == 1)
			return hb_errorf(err, errlen, HB_EINVAL, "token: %s",
					 why);
		return hb_errorf(err, errlen, HB_EINVAL, "token %zu of %zu: %s",
				 i + 1, n, why);
	}
	return 0;
}

/* One token per peer in p->token, from token as peers_parse() says. */
static int split_tokens(struct peers *p, const char *token, char *err,
			size_t errlen)
{
	size_t n = p->n > 1 ? count_items(token) : 1;

	p->token_text = strdup(token);
	p->token = calloc(p->n, sizeof(*p->token));
	if (!p->token_text || !p->token)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	if (n != 1 && n != p->n)
		return hb_errorf(err, errlen, HB_EINVAL,
				 "token: %zu tokens for %zu peers (give one "
				 "token for every peer, or one per peer in "
				 "the order of peer)",
				 n, p->n);
	if (n == 1) {
		for (size_t i = 0; i < p->n; i++)
			p->token[i] = p->token_text;
		return check_tokens(p, 1, err, errlen);
	}
	split(p->token_text, p->token, n);
	return check_tokens(p, n, err, errlen);
}

int peers_parse(const char *peer, const char *token, struct peers *p, char *err,
		size_t errlen)
{
	int rc;

	memset(p, 0, sizeof(*p));
	p->n = count_items(peer);
	p->addr_text = strdup(peer);
	p->addr = calloc(p->n, sizeof(*p->addr));
	if (!p->addr_text || !p->addr)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	split(p->addr_text, p->addr, p->n);
	rc = check_addrs(p, peer, err, errlen);
	if (rc == 0)
		rc = split_tokens(p, token ? token : "", err, errlen);
	return rc;
}

void peers_free(struct peers *p)
{
	free(p->addr);
	free(p->token);
	free(p->addr_text);
	free(p->token_text);
	memset(p, 0, sizeof(*p));
}
