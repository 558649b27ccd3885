/* SPDX-License-Identifier: Apache-2.0 */
/* The buffers a verified target's units read and write: the core's. */
#include "run/buffers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hostbench/crypto.h>

#include "base/parse.h"
#include "plugin/registry.h"

/* The byte check's poison repeats: no cipher writes 4 KiB of one byte. */
#define POISON 0xa5

int buffers_wanted(const struct hb_plugin *p, const struct hb_target *t)
{
	return p && t && (t->flags & HB_TARGET_VERIFIED) && p->abi_minor >= 4 &&
	       plugin_option_find(t, "size");
}

unsigned buffers_units(const struct bench_case *bc, int async)
{
	const char *mode = kvlist_get(&bc->params, "mode");
	const char *size = kvlist_get(&bc->params, "size");
	uint64_t len = 0;

	if (async)
		return bc->queue_depth ? bc->queue_depth : 1;
	if (mode && strcmp(mode, "stream") == 0)
		return 1;
	if (size && parse_size(size, &len, NULL, 0) == 0 && len &&
	    len <= BUFFERS_RING_BYTES / 4)
		return 4;
	return len && len <= BUFFERS_RING_BYTES / 2 ? 2 : 1;
}

/* A 64-byte aligned buffer of n bytes (rounded up), poisoned (touched). */
static uint8_t *poison_alloc(size_t n)
{
	size_t rounded = (n + 63) & ~(size_t)63;
	uint8_t *p = aligned_alloc(64, rounded ? rounded : 64);

	if (p)
		memset(p, POISON, rounded ? rounded : 64);
	return p;
}

int buffers_make(struct buffers *b, size_t len, unsigned n, unsigned worker)
{
	size_t rounded = (len + 63) & ~(size_t)63;

	memset(b, 0, sizeof(*b));
	b->in = poison_alloc(len);
	b->out = calloc(n, sizeof(*b->out));
	b->tag = calloc(n, sizeof(*b->tag));
	if (!b->in || !b->out || !b->tag)
		goto fail_buffers;
	b->hb.n = n;
	for (unsigned i = 0; i < n; i++) {
		b->out[i] = poison_alloc(len);
		b->tag[i] = poison_alloc(HB_TAG_ROOM);
		if (!b->out[i] || !b->tag[i])
			goto fail_buffers;
	}
	hb_crypto_fill(b->in, rounded, HB_CRYPTO_SEED_DATA(worker));
	b->hb = (struct hb_buffers){
		.in = b->in, .len = len, .n = n, .out = b->out, .tag = b->tag
	};
	return 0;

fail_buffers:
	buffers_free(b);
	return -ENOMEM;
}

void buffers_free(struct buffers *b)
{
	for (unsigned i = 0; i < b->hb.n; i++) {
		free(b->out ? b->out[i] : NULL);
		free(b->tag ? b->tag[i] : NULL);
	}
	free(b->out);
	free(b->tag);
	free(b->in);
	memset(b, 0, sizeof(*b));
}

void buffers_poison(struct buffers *b, unsigned i)
{
	memset(b->out[i], POISON, b->hb.len);
	memset(b->tag[i], POISON, HB_TAG_ROOM);
}

int buffers_poisoned(const uint8_t *out, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (out[i] != POISON)
			return 0;
	return len > 0;
}
