/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The peers of a network case: `peer` names one receiver (HOST:PORT) or
 * several, comma-separated ("lab2:5201, lab3:5201", quoted in a suite so
 * it stays one case), and `token` one token for all of them or one per
 * peer, in the same order. Pure: no I/O.
 */
#ifndef HB_TRANSFER_PEERS_H
#define HB_TRANSFER_PEERS_H

#include <stddef.h>

/* A parsed peer list; addr[i] and token[i] point into the copies. */
struct peers {
	size_t n;
	char **addr;
	char **token;
	char *addr_text;  /* the list, split in place */
	char *token_text; /* the tokens, split in place */
};

/*
 * Split peer (non-empty) into its addresses, each checked as HOST:PORT,
 * and token into one token per peer: with several peers a comma list of
 * as many tokens as peers, or one token (no comma) for every peer; with
 * one peer token is taken whole. Returns 0, or HB_EINVAL naming the item
 * (an empty item, an item that is not HOST:PORT, or a token count that
 * matches neither, or a token token_check() refuses; tokens themselves
 * are never shown) or HB_ENOMEM.
 * Call peers_free() either way.
 */
int peers_parse(const char *peer, const char *token, struct peers *p, char *err,
		size_t errlen);

/* Free what peers_parse() made. */
void peers_free(struct peers *p);

#endif
