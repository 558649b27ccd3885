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

const uint8_t *cx_message_iv(const struct cx_state *s, uint64_t n, uint8_t *iv)
{
	return hb_crypto_message_iv(s->iv, s->ci->iv_len, n, iv);
}

const uint8_t *cx_message_key(const struct cx_state *s, uint64_t n,
			      uint8_t *key)
{
	if (!s->hi->one_time_key)
		return s->rekey ? s->mac_key : NULL;
	return hb_crypto_message_key(s->mac_key, s->hi->key_len, n, key);
}

const uint8_t *cx_message_tag(const struct cx_state *s, const uint8_t *tag,
			      const uint8_t *mac, size_t *len)
{
	*len = 0;
	if (s->hi)
		*len = s->hi->out_len;
	else if (s->ci && s->ci->kind == CX_AEAD)
		*len = s->ci->out_len;
	return s->hi ? mac : *len ? tag : NULL;
}
