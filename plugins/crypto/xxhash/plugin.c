/* SPDX-License-Identifier: Apache-2.0 */
/*
 * crypto_xxhash.so: xxHash's non-cryptographic hashes (XXH3 64 and 128,
 * XXH64, XXH32) as file-integrity checks use them, through libxxhash.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>
#ifdef HB_XXH_DISPATCH
/*
 * libxxhash's run-time dispatch picks the widest vector unit the CPU has
 * (SSE2, AVX2, AVX-512), as xxhsum does; plain XXH3_64bits is SSE2 only on
 * a baseline x86-64 build. The header renames the XXH3 calls.
 */
#include <xxh_x86dispatch.h>
#endif

#include <hostbench/plugin.h>

#include "../common/seam.h"

/* The four hashes. */
enum xx_alg {
	XX_XXH3_64,
	XX_XXH3_128,
	XX_XXH64,
	XX_XXH32,
};

/* One worker: its buffer and, in stream mode, the hash state. */
struct xx_state {
	enum xx_alg alg;
	int stream;
	size_t size;
	uint8_t *buf;
	XXH3_state_t *s3;
	XXH64_state_t *s64;
	XXH32_state_t *s32;
	uint64_t sink; /* every result lands here, so none is dead code */
};

/*
 * A published sanity value of xxHash (cli/xsum_sanity_check.c): the hash
 * of the first len bytes of its generated test buffer, seed 0.
 */
struct xx_kat {
	size_t len;
	uint64_t low;  /* the hash, or the low half of XXH128 */
	uint64_t high; /* XXH128 high half */
};

static const struct xx_kat xx_kats[] = {
	[XX_XXH3_64] = { 2367, 0xCB37AEB9E5D361EDULL, 0 },
	[XX_XXH3_128] = { 2367, 0xCB37AEB9E5D361EDULL, 0xE89C0F6FF369B427ULL },
	[XX_XXH64] = { 222, 0xB641AE8CB691C174ULL, 0 },
	[XX_XXH32] = { 222, 0x5BD11DBDULL, 0 },
};

/* clang-format off */
static const struct hb_option xx_options[] = {
	{ .name = "size",
	  .type = HB_OPT_SIZE,
	  .def = "1M",
	  .help = "bytes hashed per buffer; in message mode one whole input",
	  .min = 1,
	  .max = INT64_C(1) << 30 },
	{ .name = "mode",
	  .type = HB_OPT_ENUM,
	  .def = "message",
	  .help = "message: one-shot hash of each buffer; stream: one endless "
		  "input through the update calls",
	  .choices = (const char *const[]){ "message", "stream", NULL } },
	{ .name = NULL },
};
/* clang-format on */

static const struct hb_target targets[] = {
	{ .group = "hash",
	  .name = "xxh3-64",
	  .summary = "XXH3, 64-bit",
	  .work = HB_WORK_BYTES,
	  .options = xx_options },
	{ .group = "hash",
	  .name = "xxh3-128",
	  .summary = "XXH3, 128-bit",
	  .work = HB_WORK_BYTES,
	  .options = xx_options },
	{ .group = "hash",
	  .name = "xxh64",
	  .summary = "XXH64",
	  .work = HB_WORK_BYTES,
	  .options = xx_options },
	{ .group = "hash",
	  .name = "xxh32",
	  .summary = "XXH32",
	  .work = HB_WORK_BYTES,
	  .options = xx_options },
	{ .name = NULL },
};

/* "0.8.1" from XXH_versionNumber(). */
static void xx_version(char *buf, size_t len)
{
	unsigned v = XXH_versionNumber();

	snprintf(buf, len, "%u.%u.%u", v / 10000, v / 100 % 100, v % 100);
}

/* Hash len bytes one-shot (message) or through the state (stream). */
static void xx_hash(struct xx_state *s, const uint8_t *p, size_t len,
		    uint64_t *low, uint64_t *high)
{
	XXH128_hash_t h128;

	*high = 0;
	switch (s->alg) {
	case XX_XXH3_64:
		if (s->stream) {
			XXH3_64bits_reset(s->s3);
			XXH3_64bits_update(s->s3, p, len);
			*low = XXH3_64bits_digest(s->s3);
		} else {
			*low = XXH3_64bits(p, len);
		}
		return;
	case XX_XXH3_128:
		if (s->stream) {
			XXH3_128bits_reset(s->s3);
			XXH3_128bits_update(s->s3, p, len);
			h128 = XXH3_128bits_digest(s->s3);
		} else {
			h128 = XXH3_128bits(p, len);
		}
		*low = h128.low64;
		*high = h128.high64;
		return;
	case XX_XXH64:
		if (s->stream) {
			XXH64_reset(s->s64, 0);
			XXH64_update(s->s64, p, len);
			*low = XXH64_digest(s->s64);
		} else {
			*low = XXH64(p, len, 0);
		}
		return;
	case XX_XXH32:
		if (s->stream) {
			XXH32_reset(s->s32, 0);
			XXH32_update(s->s32, p, len);
			*low = XXH32_digest(s->s32);
		} else {
			*low = XXH32(p, len, 0);
		}
		return;
	}
}

/* Check the published value on the path (one-shot or state) to be timed. */
static int xx_check(struct xx_state *s, const char *name, char *err,
		    size_t errlen)
{
	const struct xx_kat *k = &xx_kats[s->alg];
	uint64_t want_low = k->low, want_high = k->high, low = 0, high = 0;
	uint64_t gen = 2654435761U;
	uint8_t data[2367];

	for (size_t i = 0; i < sizeof(data); i++) {
		data[i] = (uint8_t)(gen >> 56);
		gen *= 11400714785074694797ULL;
	}
	cx_seam_known_answer((uint8_t *)&want_low, sizeof(want_low));
	xx_hash(s, data, k->len, &low, &high);
	if (low != want_low || high != want_high)
		return hb_errorf(err, errlen, HB_EVERIFY,
				 "known-answer check failed: %s of xxHash's "
				 "%zu-byte sanity buffer is %016llx, want "
				 "%016llx (cli/xsum_sanity_check.c)",
				 name, k->len, (unsigned long long)low,
				 (unsigned long long)want_low);
	return 0;
}

static void xx_teardown(void *state)
{
	struct xx_state *s = state;

	if (!s)
		return;
	XXH3_freeState(s->s3);
	XXH64_freeState(s->s64);
	XXH32_freeState(s->s32);
	free(s->buf);
	free(s);
}

/* Allocate the hash state the stream mode of s needs. */
static int xx_alloc_state(struct xx_state *s)
{
	if (!s->stream)
		return 0;
	if (s->alg == XX_XXH64)
		s->s64 = XXH64_createState();
	else if (s->alg == XX_XXH32)
		s->s32 = XXH32_createState();
	else
		s->s3 = XXH3_createState();
	return s->s3 || s->s64 || s->s32 ? 0 : -1;
}

/* Begin the endless input of stream mode. */
static void xx_start_stream(struct xx_state *s)
{
	if (s->s3 && s->alg == XX_XXH3_128)
		XXH3_128bits_reset(s->s3);
	else if (s->s3)
		XXH3_64bits_reset(s->s3);
	if (s->s64)
		XXH64_reset(s->s64, 0);
	if (s->s32)
		XXH32_reset(s->s32, 0);
}

static int xx_setup(const struct hb_case *c, void **state, char *err,
		    size_t errlen)
{
	const char *mode = c->host->get_str(c, "mode");
	const struct hb_target *t = c->target;
	char version[32], lib[80];
	struct xx_state *s;
	size_t rounded;
	int rc;

	s = calloc(1, sizeof(*s));
	if (!s)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	for (s->alg = XX_XXH3_64; s->alg <= XX_XXH32; s->alg++)
		if (strcmp(targets[s->alg].name, t->name) == 0)
			break;
	if (s->alg > XX_XXH32) {
		rc = hb_errorf(err, errlen, HB_ENOTSUP,
			       "%s/%s is not an xxhash target", t->group,
			       t->name);
		goto fail_state;
	}
	s->stream = mode && strcmp(mode, "stream") == 0;
	s->size = (size_t)c->host->get_size(c, "size");
	if (s->size == 0 || xx_alloc_state(s)) {
		rc = hb_errorf(err, errlen, s->size ? HB_ENOMEM : HB_EINVAL,
			       s->size ? "out of memory" : "size must be > 0");
		goto fail_state;
	}
	rc = xx_check(s, t->name, err, errlen);
	if (rc)
		goto fail_state;
	rounded = (s->size + 63) & ~(size_t)63;
	s->buf = aligned_alloc(64, rounded);
	if (!s->buf) {
		rc = hb_errorf(err, errlen, HB_ENOMEM,
			       "allocating a %zu-byte buffer: out of memory",
			       s->size);
		goto fail_state;
	}
	for (size_t i = 0; i < rounded; i++)
		s->buf[i] = (uint8_t)(i * 131 + c->worker);
	xx_start_stream(s);
	xx_version(version, sizeof(version));
#ifdef HB_XXH_DISPATCH
	snprintf(lib, sizeof(lib), "xxHash %s (x86 dispatch)", version);
#else
	snprintf(lib, sizeof(lib), "xxHash %s", version);
#endif
	c->host->note(c, "library", lib);
	*state = s;
	return 0;

fail_state:
	xx_teardown(s);
	return rc;
}

/* Stream: feed one more buffer to the endless input. */
static void xx_update(struct xx_state *s)
{
	switch (s->alg) {
	case XX_XXH3_64:
		XXH3_64bits_update(s->s3, s->buf, s->size);
		return;
	case XX_XXH3_128:
		XXH3_128bits_update(s->s3, s->buf, s->size);
		return;
	case XX_XXH64:
		XXH64_update(s->s64, s->buf, s->size);
		return;
	case XX_XXH32:
		XXH32_update(s->s32, s->buf, s->size);
		return;
	}
}

static int xx_run(void *state, uint64_t iterations, struct hb_done *done,
		  char *err, size_t errlen)
{
	struct xx_state *s = state;
	uint64_t i, sink = s->sink;

	(void)err;
	(void)errlen;
	if (s->stream) {
		for (i = 0; i < iterations; i++)
			xx_update(s);
	} else if (s->alg == XX_XXH3_64) {
		for (i = 0; i < iterations; i++)
			sink ^= XXH3_64bits(s->buf, s->size);
	} else if (s->alg == XX_XXH3_128) {
		for (i = 0; i < iterations; i++)
			sink ^= XXH3_128bits(s->buf, s->size).low64;
	} else if (s->alg == XX_XXH64) {
		for (i = 0; i < iterations; i++)
			sink ^= XXH64(s->buf, s->size, 0);
	} else {
		for (i = 0; i < iterations; i++)
			sink ^= XXH32(s->buf, s->size, 0);
	}
	s->sink = sink;
	done->bytes += iterations * s->size;
	done->ops += iterations;
	return 0;
}

static int xx_describe(struct hb_about *a, char *err, size_t errlen)
{
	char version[32];

	(void)err;
	(void)errlen;
	xx_version(version, sizeof(version));
	a->library(a, "xxHash", version);
	return 0;
}

static const struct hb_plugin plugin = {
	.abi_major = HB_ABI_MAJOR,
	.abi_minor = HB_ABI_MINOR,
	.size = sizeof(struct hb_plugin),
	.name = "xxhash",
	.version = "1.0.0",
	.summary = "xxHash integrity hashes (XXH3, XXH64, XXH32)",
	.targets = targets,
	.describe = xx_describe,
	.setup = xx_setup,
	.run = xx_run,
	.teardown = xx_teardown,
};

HB_EXPORT const struct hb_plugin *hostbench_plugin_entry(void)
{
	return &plugin;
}
