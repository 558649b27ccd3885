/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A verified target's units read back from the core's own buffers (ABI
 * 1.4, struct hb_buffers) and compared with what a reference backend's
 * transform slot makes of the same input, key and IV: for `hostbench
 * check`'s timed rows, and for the sample of every run's case.
 */
#ifndef HB_CORE_RUN_VERIFY_H
#define HB_CORE_RUN_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include <hostbench/plugin.h>

#include "plugin/loader.h"
#include "run/hostapi.h"
#include "suite/suite.h"

/* A reference backend's transform of one target, and its case. */
struct verify_ref {
	const struct hb_plugin *p;
	transform_fn transform;
	struct bench_case bc; /* its target, the option defaults */
	struct host_ctx ctx;
	struct hb_case hc;
};

/*
 * The reference p (loaded here) for target ("group/name"): 0, -ENOENT
 * when p does not offer it or has no transform slot, -ENOMEM.
 */
int verify_ref_open(struct verify_ref *v, const struct plugin *p,
		    const char *target);

void verify_ref_close(struct verify_ref *v);

/* What one verified case's units are. */
struct verify_case {
	const struct verify_ref *ref;
	char target[256]; /* the subject's "group/name" */
	const struct hb_target *t;
	int decrypt;	/* direction = decrypt: the plaintext is in */
	int stream;	/* mode = stream: buffer k of message 0 */
	int tag_unread; /* rekey = yes: an AEAD's tag may stay unread */
	size_t len;
	const uint8_t *in; /* the worker's input, as the core filled it */
};

/* vc for subject case bc (its parameters), ref and the worker's in. */
void verify_case_init(struct verify_case *vc, const struct bench_case *bc,
		      const struct verify_ref *ref, const uint8_t *in);

/*
 * Unit n (message n; a stream's buffer n) as read from the core's
 * buffers, out (len bytes) and tag, against the reference: 0, or -1
 * with what differed in why ("its output differs from the reference's
 * at byte 12 of 4096 (0x3c, the reference's 0x91)"), or -ENOMEM. scratch
 * holds the reference's output: room for len bytes (a stream: n + 1 times
 * that), or NULL to allocate it for the call.
 */
int verify_unit(const struct verify_case *vc, uint64_t n, const uint8_t *out,
		const uint8_t *tag, uint8_t *scratch, char *why, size_t len);

/*
 * "at byte 12 of 4096 (0x3c, the reference's 0x91)" into out for the first
 * byte where got and want (n bytes each) differ; returns 0, out untouched,
 * when they are equal.
 */
int verify_difference(const uint8_t *got, const uint8_t *want, size_t n,
		      char *out, size_t len);

/* Up to 8 bytes of a tag in hex, "..." after them when longer. */
void verify_hex8(const uint8_t *p, size_t n, char out[24]);

/* What t's tag is: "tag", "MAC", "MAC (over the ciphertext)", "digest". */
const char *verify_tag_kind(const struct hb_target *t);

#endif
