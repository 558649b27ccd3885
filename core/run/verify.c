/* SPDX-License-Identifier: Apache-2.0 */
/* A verified target's units, read from the core's buffers, checked. */
#include "run/verify.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hostbench/crypto.h>

#include "base/parse.h"
#include "plugin/registry.h"
#include "run/buffers.h"

int verify_ref_open(struct verify_ref *v, const struct plugin *p,
		    const char *target)
{
	char full[256];

	memset(v, 0, sizeof(*v));
	v->p = p->desc;
	v->transform = loader_transform_fn(p);
	for (const struct hb_target *t = p->desc->targets; t->name; t++) {
		plugin_target_name(t, full, sizeof(full));
		if (strcmp(full, target) == 0)
			v->bc.tdesc = t;
	}
	if (!v->bc.tdesc || !v->transform)
		return -ENOENT;
	for (const struct hb_option *o = v->bc.tdesc->options; o && o->name;
	     o++)
		if (o->def && kvlist_set(&v->bc.params, o->name, o->def))
			return -ENOMEM;
	v->bc.title = v->bc.target = (char *)target;
	v->bc.parallel = 1;
	v->ctx = (struct host_ctx){ .bc = &v->bc, .r = NULL };
	v->hc = (struct hb_case){ .host = &host_api,
				  .target = v->bc.tdesc,
				  .workers = 1,
				  .core = &v->ctx };
	return 0;
}

void verify_ref_close(struct verify_ref *v)
{
	kvlist_free(&v->bc.params);
	memset(v, 0, sizeof(*v));
}

/* Whether bc's option name reads value. */
static int param_is(const struct bench_case *bc, const char *name,
		    const char *value)
{
	const char *v = kvlist_get(&bc->params, name);

	return v && strcmp(v, value) == 0;
}

void verify_case_init(struct verify_case *vc, const struct bench_case *bc,
		      const struct verify_ref *ref, const uint8_t *in)
{
	const char *size = kvlist_get(&bc->params, "size");
	uint64_t len = 0;

	memset(vc, 0, sizeof(*vc));
	vc->ref = ref;
	vc->t = bc->tdesc;
	plugin_target_name(bc->tdesc, vc->target, sizeof(vc->target));
	vc->decrypt = param_is(bc, "direction", "decrypt");
	vc->stream = param_is(bc, "mode", "stream");
	if (kvlist_get(&bc->params, "rekey"))
		parse_bool(kvlist_get(&bc->params, "rekey"), &vc->tag_unread,
			   NULL, 0);
	if (size)
		parse_size(size, &len, NULL, 0);
	vc->len = (size_t)len;
	vc->in = in;
}

int verify_difference(const uint8_t *got, const uint8_t *want, size_t n,
		      char *out, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i])
			return snprintf(out, len,
					"at byte %zu of %zu (0x%02x, the "
					"reference's 0x%02x)",
					i, n, got[i], want[i]);
	return 0;
}

void verify_hex8(const uint8_t *p, size_t n, char out[24])
{
	size_t i;

	for (i = 0; i < n && i < 8; i++)
		snprintf(out + 2 * i, 3, "%02x", p[i]);
	snprintf(out + 2 * i, 4, "%s", n > 8 ? "..." : "");
}

const char *verify_tag_kind(const struct hb_target *t)
{
	if (strcmp(t->group, "hash") == 0)
		return "digest";
	if (strcmp(t->group, "mac") == 0)
		return "MAC";
	return t->parts ? "MAC (over the ciphertext)" : "tag";
}

/* Whether vc's target has a ciphertext (a cipher, AEAD or composite). */
static int has_ciphertext(const struct verify_case *vc)
{
	return strncmp(vc->target, "crypto/", 7) == 0;
}

/*
 * What the reference makes of unit n into want (units of len bytes: n + 1
 * of them for a stream, whose buffer n is the last) and tag: message n
 * encrypted (or MACed, hashed), or for a decrypt and a stream message 0.
 */
static int expect(const struct verify_case *vc, uint64_t n, uint8_t *want,
		  uint8_t *tag, size_t *tag_len, char *why, size_t len)
{
	struct hb_crypto_inputs ci;
	size_t units = vc->stream ? (size_t)n + 1 : 1;
	struct hb_message m = { .encrypt = 1,
				.key = ci.key,
				.mac_key = ci.mac_key,
				.iv = ci.iv,
				.in = want,
				.out = want,
				.len = units * vc->len,
				.tag = tag };
	char err[256] = "";
	int rc;

	hb_crypto_message_inputs(vc->target, vc->t->parts,
				 vc->decrypt || vc->stream ? 0 : n, &ci);
	for (size_t u = 0; u < units; u++)
		memcpy(want + u * vc->len, vc->in, vc->len);
	rc = vc->ref->transform(&vc->ref->hc, &m, err, sizeof(err));
	err[sizeof(err) - 1] = '\0'; /* the plugin may not have */
	if (rc)
		return hb_errorf(why, len, -1,
				 "the reference's transform of it failed: %s",
				 err);
	*tag_len = m.tag_len < HB_TAG_ROOM ? m.tag_len : HB_TAG_ROOM;
	return 0;
}

/* The output out against want (the reference's, or the plaintext). */
static int compare_out(const struct verify_case *vc, const uint8_t *out,
		       const uint8_t *want, char *why, size_t len)
{
	char at[96] = "";

	if (!verify_difference(out, want, vc->len, at, sizeof(at)))
		return 0;
	if (vc->decrypt)
		return hb_errorf(why, len, -1,
				 "its plaintext differs from the worker's "
				 "data as filled, %s: the timed decrypt is "
				 "wrong",
				 at);
	if (memcmp(out, vc->in, vc->len) == 0)
		return hb_errorf(why, len, -1,
				 "its output is its input: the timed path did "
				 "no cipher work on it");
	return hb_errorf(why, len, -1,
			 "its output differs from the reference's %s: look "
			 "at the key, the IV (message n's, "
			 "hb_crypto_message_iv) and the input (the core's "
			 "hb_buffers.in) the timed path uses",
			 at);
}

/* The tag (HB_TAG_ROOM bytes) against want (want_len of them). */
static int compare_tag(const struct verify_case *vc, const uint8_t *tag,
		       const uint8_t *want, size_t want_len, char *why,
		       size_t len)
{
	char got[24], exp[24];
	size_t i = 0;

	while (i < want_len && tag[i] == want[i])
		i++;
	if (i == want_len)
		return 0;
	verify_hex8(tag, want_len, got);
	verify_hex8(want, want_len, exp);
	return hb_errorf(why, len, -1,
			 "its %s differs from byte %zu: %s, the reference's "
			 "%s: look at the %s",
			 verify_tag_kind(vc->t), i, got, exp,
			 has_ciphertext(vc) && !vc->t->parts
				 ? "tag the timed path writes (hb_buffers.tag)"
				 : "MAC key of message n "
				   "(hb_crypto_message_inputs) and what the "
				   "MAC covers");
}

/* Nothing of the timed path's in the core's buffer: said so. */
static int not_written(char *why, size_t len)
{
	return hb_errorf(why, len, -1,
			 "the timed path wrote nothing into the core's "
			 "buffer: its output did not come from the timed path "
			 "(ABI 1.4: the core reads each unit's output from "
			 "hb_case.buffers itself; output() is not called)");
}

int verify_unit(const struct verify_case *vc, uint64_t n, const uint8_t *out,
		const uint8_t *tag, uint8_t *scratch, char *why, size_t len)
{
	size_t units = vc->stream ? (size_t)n + 1 : 1, want_len = 0;
	uint8_t *want = scratch ? scratch : malloc(units * vc->len + 64),
		wtag[HB_TAG_ROOM];
	int cipher = has_ciphertext(vc), rc = 0;

	if (!want)
		return -ENOMEM;
	if (cipher ? buffers_poisoned(out, vc->len)
		   : buffers_poisoned(tag, HB_TAG_ROOM))
		rc = not_written(why, len);
	else if (cipher && vc->decrypt)
		rc = compare_out(vc, out, vc->in, why, len);
	else
		rc = expect(vc, n, want, wtag, &want_len, why, len);
	if (!rc && cipher && !vc->decrypt)
		rc = compare_out(vc, out, want + (units - 1) * vc->len, why,
				 len);
	if (!rc && want_len && !vc->stream && !(cipher && vc->decrypt) &&
	    !(vc->tag_unread && cipher && !vc->t->parts))
		rc = compare_tag(vc, tag, wtag, want_len, why, len);
	if (!scratch)
		free(want);
	return rc;
}
