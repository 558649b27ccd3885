/* SPDX-License-Identifier: Apache-2.0 */
/* The checks of `hostbench check`, in a helper with both plugins loaded. */
#include "conform/conform.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "proc/helper.h"
#include "plugin/loader.h"
#include "conform/conform_async.h"
#include "conform/conform_timed.h"
#include "run/hostapi.h"

/* Room for a key, a MAC key, an IV and a tag (struct hb_message). */
#define KEY_ROOM 64

/* One backend as a check drives it: its case for the target at hand. */
struct side {
	struct plugin p;
	struct verify_ref v; /* its transform, target and case */
};

/* A message and the room for what comes back. */
struct msg {
	uint8_t key[KEY_ROOM], mac_key[KEY_ROOM], iv[KEY_ROOM], aad[13];
	uint8_t *in, *out, tag[KEY_ROOM];
	size_t tag_len;
};

/* Bytes that differ from one position to the next, seeded. */
static void pattern(uint8_t *p, size_t n, unsigned seed)
{
	uint32_t x = 2463534242u ^ seed;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (uint8_t)x;
	}
}

/* Load the plugin on fd as s->p. */
static int side_load(struct side *s, int fd, const char *path, char *why,
		     size_t len)
{
	memset(s, 0, sizeof(*s));
	s->p.fd = fd;
	s->p.path = strdup(path ? path : "plugin");
	if (!s->p.path)
		return -ENOMEM;
	if (loader_open(&s->p, why, len))
		return -EINVAL;
	if (!loader_transform_fn(&s->p))
		return hb_errorf(why, len, -EINVAL,
				 "%s has no transform slot (ABI 1.2): it "
				 "cannot be checked",
				 s->p.desc->name);
	return 0;
}

/* Point s at target (its option defaults as parameters). */
static int side_target(struct side *s, const char *target)
{
	verify_ref_close(&s->v);
	return verify_ref_open(&s->v, &s->p, target);
}

/* One transform of m (len bytes) by s; its tag into m->tag. */
static int side_run(struct side *s, struct msg *m, size_t len, int encrypt,
		    char *why, size_t wlen)
{
	struct hb_message hm = { .encrypt = encrypt,
				 .key = m->key,
				 .mac_key = m->mac_key,
				 .iv = m->iv,
				 .aad = m->aad,
				 .aad_len = sizeof(m->aad),
				 .in = m->in,
				 .out = m->out,
				 .len = len,
				 .tag = m->tag,
				 .tag_len = m->tag_len };
	int rc = s->v.transform(&s->v.hc, &hm, why, wlen);

	why[wlen - 1] = '\0'; /* the plugin may not have */
	m->tag_len = hm.tag_len < KEY_ROOM ? hm.tag_len : KEY_ROOM;
	return rc;
}

/* The checks of one target, writing their rows. */
struct run {
	struct side *ref, *sub;
	const char *target;
	json_t *rows;
	struct msg a, b; /* the reference's and the subject's */
	uint8_t *plain;
};

static void row(struct run *r, const char *check, int ok, const char *detail)
{
	json_array_append_new(
		r->rows, json_pack("{s:s, s:s, s:b, s:s}", "target", r->target,
				   "check", check, "ok", ok, "detail", detail));
}

/* A check that does not apply to the target: ok, and said why. */
static void row_skipped(struct run *r, const char *check, const char *why)
{
	json_array_append_new(r->rows,
			      json_pack("{s:s, s:s, s:b, s:b, s:s}", "target",
					r->target, "check", check, "ok", 1,
					"skipped", 1, "detail", why));
}

/* Whether the target encrypts (has a ciphertext), by its group. */
static int is_cipher(const struct run *r)
{
	return strncmp(r->target, "crypto/", 7) == 0;
}

/* Whether the subject's tag (b) differs from the reference's (a): detail. */
static int tags_differ(struct run *r, size_t len, char *detail, size_t dlen)
{
	size_t i = 0;
	char got[24], want[24];
	int mac = strncmp(r->target, "mac/", 4) == 0;

	while (i < r->a.tag_len && i < r->b.tag_len &&
	       r->a.tag[i] == r->b.tag[i])
		i++;
	if (r->a.tag_len == r->b.tag_len && i == r->a.tag_len)
		return 0;
	verify_hex8(r->b.tag, r->b.tag_len, got);
	verify_hex8(r->a.tag, r->a.tag_len, want);
	return hb_errorf(detail, dlen, -1,
			 "%zu bytes: the %s differs from byte %zu (%zu bytes "
			 "%s, the reference's %zu bytes %s): %s",
			 len, verify_tag_kind(r->sub->v.bc.tdesc), i,
			 r->b.tag_len, got, r->a.tag_len, want,
			 mac ? "a MAC target takes its key from "
			       "hb_message.key, as many bytes as its digest "
			       "has (Poly1305 32)"
			     : "look at what the tag covers (AAD, then the "
			       "ciphertext; a composite MACs the ciphertext "
			       "with hb_message.mac_key)");
}

/* Encrypt (or MAC, digest) plain of len with both; equal out and tag? */
static int both_encrypt(struct run *r, size_t len, char *detail, size_t dlen)
{
	char why[256] = "";
	int ra, rb;

	memcpy(r->a.in, r->plain, len);
	memcpy(r->b.in, r->plain, len);
	ra = side_run(r->ref, &r->a, len, 1, why, sizeof(why));
	if (ra == HB_SKIP)
		return HB_SKIP;
	rb = side_run(r->sub, &r->b, len, 1, why, sizeof(why));
	if (!ra && rb == HB_SKIP) /* a size the subject says it cannot take */
		return hb_errorf(detail, dlen, HB_SKIP, "%s", why);
	if (ra || rb)
		return hb_errorf(detail, dlen, -1, "%zu bytes: %s failed: %s",
				 len, ra ? "reference" : "subject", why);
	if (is_cipher(r) &&
	    verify_difference(r->b.out, r->a.out, len, why, sizeof(why)))
		return hb_errorf(detail, dlen, -1,
				 "%zu bytes: the output differs from the "
				 "reference's %s: look at the key and IV the "
				 "transform takes (the first bytes of "
				 "hb_message.key and .iv) and the mode",
				 len, why);
	return tags_differ(r, len, detail, dlen);
}

/* Decrypt with to what from encrypted; the plaintext back? */
static int cross_decrypt(struct run *r, struct msg *from, struct side *to,
			 size_t len, char *detail, size_t dlen)
{
	struct msg *m = from == &r->a ? &r->b : &r->a;
	char why[256] = "";
	int rc;

	memcpy(m->in, from->out, len);
	memcpy(m->tag, from->tag, from->tag_len);
	m->tag_len = from->tag_len;
	rc = side_run(to, m, len, 0, why, sizeof(why));
	if (rc)
		return hb_errorf(detail, dlen, -1,
				 "%zu bytes: %s refused the other's message: "
				 "%s",
				 len, to == r->ref ? "reference" : "subject",
				 why);
	if (verify_difference(m->out, r->plain, len, why, sizeof(why)))
		return hb_errorf(detail, dlen, -1,
				 "%zu bytes: %s decrypted to other bytes than "
				 "the plaintext, %s",
				 len, to == r->ref ? "reference" : "subject",
				 why);
	return 0;
}

/* A row with a note its verdict carries: "ok (sizes >= 65537 B ...)". */
static void row_noted(struct run *r, const char *check, int ok,
		      const char *detail, const char *note)
{
	json_t *o = json_pack("{s:s, s:s, s:b, s:s}", "target", r->target,
			      "check", check, "ok", ok, "detail", detail);

	if (o && note && *note)
		json_object_set_new(o, "note", json_string(note));
	json_array_append_new(r->rows, o);
}

/* What a sizes row left out, for its verdict: "" when nothing. */
static void sizes_note(int skipped, int tried, size_t min_skipped,
		       size_t max_tried, char *note, size_t len)
{
	if (!skipped)
		snprintf(note, len, "%s", "");
	else if (tried && min_skipped > max_tried)
		snprintf(note, len, "sizes >= %zu B not offered", min_skipped);
	else
		snprintf(note, len, "%d sizes not offered", skipped);
}

/* Every size, both ways: outputs, tags, then each decrypts the other's. */
static void check_sizes(struct run *r)
{
	static const size_t sizes[] = { 1,
					15,
					16,
					17,
					64,
					255,
					4096,
					65537,
					CONFORM_MAX_LEN - 17,
					CONFORM_MAX_LEN };
	char detail[512] = "", d2[512] = "", skip[512] = "", note[64];
	int bad = 0, bad_dec = 0, tried = 0, skipped = 0;
	size_t min_skipped = SIZE_MAX, max_tried = 0;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t len = sizes[i];
		int rc = both_encrypt(r, len, bad ? d2 : detail, sizeof(d2));

		if (rc == HB_SKIP && (bad ? d2 : detail)[0]) {
			if (!skipped++)
				snprintf(skip, sizeof(skip), "%s",
					 bad ? d2 : detail);
			min_skipped = len < min_skipped ? len : min_skipped;
			(bad ? d2 : detail)[0] = '\0';
		}
		if (rc == HB_SKIP)
			continue;
		tried++;
		max_tried = len;
		bad |= rc != 0;
		if (rc || !is_cipher(r) || bad_dec)
			continue;
		/* each decrypt overwrites the other side's output: again */
		bad_dec = cross_decrypt(r, &r->a, r->sub, len, d2, sizeof(d2));
		if (!bad_dec && both_encrypt(r, len, d2, sizeof(d2)) == 0)
			bad_dec = cross_decrypt(r, &r->b, r->ref, len, d2,
						sizeof(d2));
		if (bad_dec)
			row(r, "decrypt", 0, d2);
	}
	if (!bad)
		snprintf(detail, sizeof(detail),
			 "%d sizes from 1 byte to %zu (those the block "
			 "takes)%s%.150s",
			 tried, CONFORM_MAX_LEN,
			 skipped ? "; the subject skips some: " : "", skip);
	sizes_note(skipped, tried, min_skipped, max_tried, note, sizeof(note));
	row_noted(r, "sizes", !bad && tried, tried ? detail : "no size taken",
		  bad ? "" : note);
	if (is_cipher(r) && !bad_dec)
		row(r, "decrypt", !bad, bad ? "not reached" : "both ways");
}

/* A counter block whose low 32 bits wrap within the message. */
static void check_counter(struct run *r)
{
	char detail[512] = "";
	int rc;

	if (!strstr(r->target, "-ctr"))
		return;
	memset(r->a.iv + 12, 0xff, 4);
	r->a.iv[15] = 0xfe;
	memcpy(r->b.iv, r->a.iv, KEY_ROOM);
	rc = both_encrypt(r, 64, detail, sizeof(detail));
	if (rc)
		snprintf(detail + strlen(detail),
			 sizeof(detail) - strlen(detail),
			 "; the counter block's low 32 bits wrap after byte "
			 "32: the carry goes on into its upper 96 bits");
	row(r, "counter", rc == 0,
	    rc ? detail : "carried across a 2^32-block boundary");
	pattern(r->a.iv, KEY_ROOM, 3);
	memcpy(r->b.iv, r->a.iv, KEY_ROOM);
}

/* A corrupted tag or MAC must be refused by the subject. */
static void check_tag(struct run *r)
{
	char why[256] = "";
	int rc;

	if (both_encrypt(r, 64, why, sizeof(why)) || !r->a.tag_len)
		return;
	memcpy(r->b.in, is_cipher(r) ? r->a.out : r->plain, 64);
	memcpy(r->b.tag, r->a.tag, r->a.tag_len);
	r->b.tag_len = r->a.tag_len;
	r->b.tag[0] ^= 0x01;
	rc = side_run(r->sub, &r->b, 64, 0, why, sizeof(why));
	row(r, "tag", rc == HB_EVERIFY,
	    rc == HB_EVERIFY ? "a corrupted tag is refused"
	    : rc	     ? why
			     : "a tag with byte 0 flipped was accepted: the "
			       "decrypt must check the tag (or MAC) it is "
			       "given and return HB_EVERIFY");
}

/* The same message twice through the subject: the same bytes. */
static void check_repeat(struct run *r)
{
	uint8_t first[KEY_ROOM + 4096];
	char why[256] = "";
	int same;

	memcpy(r->b.in, r->plain, 4096);
	if (side_run(r->sub, &r->b, 4096, 1, why, sizeof(why)))
		return;
	memcpy(first, r->b.out, 4096);
	memcpy(first + 4096, r->b.tag, r->b.tag_len);
	memcpy(r->b.in, r->plain, 4096);
	same = side_run(r->sub, &r->b, 4096, 1, why, sizeof(why)) == 0 &&
	       memcmp(first, r->b.out, 4096) == 0 &&
	       memcmp(first + 4096, r->b.tag, r->b.tag_len) == 0;
	row(r, "repeat", same,
	    same ? "no state kept between messages"
		 : "the same message gave other bytes the second time");
}

/* A row with its verdict: ok, failed, skipped or not verifiable. */
static void row_verdict(struct run *r, const char *check,
			enum conform_verdict v, const char *detail)
{
	json_t *o =
		json_pack("{s:s, s:s, s:b, s:s}", "target", r->target, "check",
			  check, "ok", v == CONFORM_OK || v == CONFORM_SKIPPED,
			  "detail", detail);

	if (o && v == CONFORM_SKIPPED)
		json_object_set_new(o, "skipped", json_true());
	if (o && v == CONFORM_UNVERIFIABLE)
		json_object_set_new(o, "unverifiable", json_true());
	json_array_append_new(r->rows, o);
}

/* The subject's own timed path, run(), submit/poll or a stream, against
 * the reference's transform. */
static void check_timed(struct run *r, const char *check,
			enum conform_path path)
{
	struct conform_backend sub = { .p = r->sub->p.desc,
				       .bc = &r->sub->v.bc,
				       .hc = &r->sub->v.hc };
	char detail[768] = "";
	enum conform_verdict v =
		conform_timed(&sub, &r->ref->v, path, detail, sizeof(detail));

	row_verdict(r, check, v, detail);
}

/* The subject's messages in flight (submit and poll) at depth 1 and 16. */
static void check_async(struct run *r)
{
	char detail[512] = "";
	enum conform_async_result res =
		conform_async(r->sub->p.desc, &r->sub->v.bc, &r->sub->v.hc,
			      detail, sizeof(detail));

	if (res == CONFORM_ASYNC_SKIPPED)
		row_skipped(r, "async", detail);
	else
		row(r, "async", res == CONFORM_ASYNC_OK, detail);
}

/* The messages' buffers and keys; 0 or -ENOMEM. */
static int run_init(struct run *r)
{
	struct msg *m[2] = { &r->a, &r->b };

	r->plain = malloc(CONFORM_MAX_LEN);
	for (int i = 0; i < 2; i++) {
		m[i]->in = malloc(CONFORM_MAX_LEN);
		m[i]->out = malloc(CONFORM_MAX_LEN);
		pattern(m[i]->key, KEY_ROOM, 1);
		pattern(m[i]->mac_key, KEY_ROOM, 2);
		pattern(m[i]->iv, KEY_ROOM, 3);
		pattern(m[i]->aad, sizeof(m[i]->aad), 4);
	}
	if (!r->plain || !r->a.in || !r->a.out || !r->b.in || !r->b.out)
		return -ENOMEM;
	pattern(r->plain, CONFORM_MAX_LEN, 5);
	return 0;
}

/* Every check of one target both offer. */
static void check_target(struct run *r, const char *target)
{
	r->target = target;
	if (side_target(r->ref, target) || side_target(r->sub, target)) {
		row(r, "offered", 0, "not offered by both backends");
		return;
	}
	check_sizes(r);
	check_counter(r);
	check_tag(r);
	check_repeat(r);
	/* last: they change the subject's parameters */
	check_timed(r, "run", CONFORM_PATH_RUN);
	check_timed(r, "submit", CONFORM_PATH_SUBMIT);
	check_timed(r, "stream", CONFORM_PATH_STREAM);
	check_async(r);
}

/* The rows of every target of req, or {"refused": why}. */
static json_t *conform_all(const json_t *req)
{
	struct side ref, sub;
	struct run r = { .ref = &ref, .sub = &sub };
	char why[512] = "";
	const json_t *t;
	size_t i;

	if (side_load(&ref, HELPER_FD_PLUGIN,
		      json_string_value(json_object_get(req, "reference")), why,
		      sizeof(why)) ||
	    side_load(&sub, HELPER_FD_PLUGIN2,
		      json_string_value(json_object_get(req, "subject")), why,
		      sizeof(why)))
		return json_pack("{s:s}", "refused", why);
	if (run_init(&r))
		return NULL;
	r.rows = json_array();
	json_array_foreach(json_object_get(req, "targets"), i, t) {
		if (json_is_string(t))
			check_target(&r, json_string_value(t));
	}
	return json_pack("{s:o}", "rows", r.rows);
}

int conform_task(const char *request, int answer_fd)
{
	json_t *req = json_loads(request, 0, NULL);
	json_t *ans = req ? conform_all(req) : NULL;
	char *text = ans ? json_dumps(ans, JSON_COMPACT) : NULL;
	int rc = text ? helper_write(answer_fd, text, strlen(text)) : -1;

	/* no cleanup: the task exits now, and the plugins stay loaded */
	return rc ? 1 : 0;
}
