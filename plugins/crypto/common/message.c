/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A timed message's parts, the same on the engine's two paths (the update
 * calls in engine.c, the job calls in jobs.c): its buffer, its IV, its MAC
 * key and the tag it ends with. Below both, so neither calls the other
 * for them.
 */
#include <stdlib.h>

#include <hostbench/crypto.h>

#include "state.h"

uint8_t *cx_message_buffer(size_t n, uint64_t seed)
{
	size_t rounded = (n + 63) & ~(size_t)63;
	uint8_t *p = aligned_alloc(64, rounded);

	if (p)
		hb_crypto_fill(p, rounded, seed);
	return p;
}

/* Own outputs and tags for n units, when the core gives none. */
static int own_outputs(struct cx_state *s, unsigned n)
{
	uint8_t **out = calloc(n, sizeof(*out)),
		**tag = calloc(n, sizeof(*tag));

	s->own = (struct hb_buffers){
		.in = s->data, .len = s->size, .n = n, .out = out, .tag = tag
	};
	if (!out || !tag)
		return HB_ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		out[i] = cx_message_buffer(s->size, 0);
		tag[i] = cx_message_buffer(HB_TAG_ROOM, 0);
		if (!out[i] || !tag[i])
			return HB_ENOMEM;
	}
	s->io = &s->own;
	return 0;
}

int cx_message_buffers(struct cx_state *s, const struct hb_case *c)
{
	uint64_t seed = HB_CRYPTO_SEED_DATA(c->worker);
	uint64_t used = cx_seam_data_seed(seed);

	s->io = c->buffers && c->buffers->len == s->size && c->buffers->n
			? c->buffers
			: NULL;
	/* the timed path reads the core's input; a test seam other data */
	if (!s->io || used != seed) {
		s->data = cx_message_buffer(s->size, used);
		if (!s->data)
			return HB_ENOMEM;
	}
	s->src = s->data ? s->data : s->io->in;
	if (!s->io)
		return own_outputs(s, s->depth);
	return 0;
}

void cx_message_buffers_free(struct cx_state *s)
{
	for (unsigned i = 0; s->own.out && i < s->own.n; i++) {
		free(s->own.out[i]);
		free(s->own.tag[i]);
	}
	free((void *)s->own.out);
	free((void *)s->own.tag);
	free(s->data);
}

const uint8_t *cx_message_key(const struct cx_state *s, uint64_t n,
			      uint8_t *key)
{
	if (!s->hi->one_time_key)
		return s->rekey ? s->mac_key : NULL;
	return hb_crypto_message_key(s->mac_key, s->hi->key_len, n, key);
}
