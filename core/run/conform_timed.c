/* SPDX-License-Identifier: Apache-2.0 */
/* The timed rows of `hostbench check`: run() and submit/poll verified. */
#include "run/conform_timed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hostbench/crypto.h>

#include "plugin/check.h"
#include "plugin/registry.h"
#include "run/conform_async.h"

/* Bytes of every message, a multiple of every block. */
#define TIMED_SIZE 4096
/* Workers each path is driven with, so each worker's data is its own. */
#define TIMED_WORKERS 2
/* Most messages one worker sends on one path (49 at depth 16). */
#define TIMED_MAX 64
/* Room for a tag (struct hb_message). */
#define TAG_ROOM 64

/* What the reference makes of one message, once the row has read it. */
struct expect {
	int known;
	uint8_t out[TIMED_SIZE]; /* a MAC's or digest's: what it read */
	uint8_t tag[TAG_ROOM];
	size_t tag_len;
};

/* One worker's state on one path, and what the reference expects of it. */
struct drive {
	const struct conform_backend *sub, *ref;
	char path[48]; /* "run()", "submit/poll at depth 16" */
	char target[256];
	unsigned worker;
	void *state;
	uint8_t data[TIMED_SIZE]; /* the worker's data, as filled */
	struct expect e[TIMED_MAX];
	char *detail;
	size_t len;
	int unverifiable;
};

/* A failure of d's current message n: where, what, and where to look. */
static int fail(struct drive *d, uint64_t n, const char *what)
{
	snprintf(d->detail, d->len, "%s, worker %u, message %llu: %s", d->path,
		 d->worker, (unsigned long long)n, what);
	return -1;
}

/* Whether the target encrypts (has a ciphertext), by its group. */
static int has_ciphertext(const struct drive *d)
{
	return strncmp(d->target, "crypto/", 7) == 0;
}

/* The reference's output and tag of message n over in, into e. */
static int reference(struct drive *d, uint64_t n, const uint8_t *in,
		     struct expect *e)
{
	struct hb_crypto_inputs ci;
	struct hb_message m = { .encrypt = 1,
				.key = ci.key,
				.mac_key = ci.mac_key,
				.iv = ci.iv,
				.in = in,
				.out = e->out,
				.len = TIMED_SIZE,
				.tag = e->tag };
	char why[256] = "", what[400];
	int rc;

	hb_crypto_message_inputs(d->target, d->sub->bc->tdesc->parts, n, &ci);
	memcpy(e->out, in, TIMED_SIZE);
	rc = d->ref->transform(d->ref->hc, &m, why, sizeof(why));
	why[sizeof(why) - 1] = '\0'; /* the plugin may not have */
	if (rc) {
		snprintf(what, sizeof(what),
			 "the reference's transform of it failed: %s", why);
		return fail(d, n, what);
	}
	e->tag_len = m.tag_len < TAG_ROOM ? m.tag_len : TAG_ROOM;
	e->known = 1;
	return 0;
}

/*
 * run(): the messages first .. last-1 of one call, which the row did not
 * read, as a buffer encrypted again in place goes through them.
 */
static int chain(struct drive *d, uint64_t first, uint64_t last)
{
	for (uint64_t u = first; u < last; u++) {
		if (u && !d->e[u - 1].known)
			return fail(d, u,
				    "its input, the message before it, was "
				    "never read back");
		if (reference(d, u, u ? d->e[u - 1].out : d->data, &d->e[u]))
			return -1;
	}
	return 0;
}

/* The input message n took (o->after), known to the reference, or NULL. */
static const uint8_t *input_of(struct drive *d, uint64_t n, uint64_t first,
			       const struct hb_output *o)
{
	char what[256];

	if (o->after == HB_OUTPUT_FRESH)
		return d->data;
	/* run(): the messages of one call before its last go in place */
	if (o->after < n && !d->e[o->after].known && o->after + 1 == n &&
	    o->after >= first && chain(d, first, n))
		return NULL;
	if (o->after < n && d->e[o->after].known)
		return d->e[o->after].out;
	snprintf(what, sizeof(what),
		 "says it took the output of message %llu as its input, "
		 "which is not an earlier message of its worker",
		 (unsigned long long)o->after);
	fail(d, n, what);
	return NULL;
}

int conform_difference(const uint8_t *got, const uint8_t *want, size_t n,
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

void conform_hex8(const uint8_t *p, size_t n, char out[24])
{
	size_t i;

	for (i = 0; i < n && i < 8; i++)
		snprintf(out + 2 * i, 3, "%02x", p[i]);
	snprintf(out + 2 * i, 4, "%s", n > 8 ? "..." : "");
}

const char *conform_tag_kind(const struct hb_target *t)
{
	if (strcmp(t->group, "hash") == 0)
		return "digest";
	if (strcmp(t->group, "mac") == 0)
		return "MAC";
	return t->parts ? "MAC (over the ciphertext)" : "tag";
}

/* The first byte at which o's tag and e's differ (a length counts). */
static size_t tag_difference(const struct hb_output *o, const struct expect *e)
{
	size_t i = 0;

	while (o->tag && i < o->tag_len && i < e->tag_len &&
	       o->tag[i] == e->tag[i])
		i++;
	return i;
}

/* What message n showed (o) against what the reference made of in. */
static int compare(struct drive *d, uint64_t n, const struct hb_output *o,
		   const uint8_t *in)
{
	const struct expect *e = &d->e[n];
	char what[512], at[96] = "", got[24], want[24];

	if (conform_difference(o->data, e->out, TIMED_SIZE, at, sizeof(at))) {
		if (has_ciphertext(d) && memcmp(o->data, in, TIMED_SIZE) == 0)
			return fail(d, n,
				    "its output is its input: the timed "
				    "path did no cipher work on it");
		snprintf(what, sizeof(what),
			 has_ciphertext(d)
				 ? "its output differs from the reference's "
				   "%s: look at the key, the IV (message n's, "
				   "hb_crypto_message_iv) and the data "
				   "(HB_CRYPTO_SEED_DATA(worker)) the timed "
				   "path uses"
				 : "it read other bytes than its worker's "
				   "data, %s: look at HB_CRYPTO_SEED_DATA"
				   "(worker)",
			 at);
		return fail(d, n, what);
	}
	if (o->tag_len == e->tag_len &&
	    (!e->tag_len || (o->tag && !memcmp(o->tag, e->tag, e->tag_len))))
		return 0;
	conform_hex8(o->tag, o->tag ? o->tag_len : 0, got);
	conform_hex8(e->tag, e->tag_len, want);
	snprintf(what, sizeof(what),
		 "its %s differs from byte %zu: %zu bytes %s, the reference's "
		 "%zu bytes %s: look at the %s",
		 conform_tag_kind(d->sub->bc->tdesc), tag_difference(o, e),
		 o->tag_len, got, e->tag_len, want,
		 has_ciphertext(d) && !d->sub->bc->tdesc->parts
			 ? "tag the timed path hands back"
			 : "MAC key of message n (hb_crypto_message_inputs) "
			   "and what the MAC covers");
	return fail(d, n, what);
}

/*
 * Read back message n (tag, on the submit path) of the worker and compare
 * it with the reference; first is the first message of the run() call.
 */
static int verify(struct drive *d, uint64_t tag, uint64_t n, uint64_t first)
{
	struct hb_output o = { .message = 0 };
	const uint8_t *in;
	char why[256] = "", what[400];
	int rc = d->sub->output(d->state, tag, &o, why, sizeof(why));

	why[sizeof(why) - 1] = '\0';
	if (rc == HB_ENOTSUP) {
		d->unverifiable = 1;
		snprintf(d->detail, d->len,
			 "not verifiable: %s, worker %u: its output slot "
			 "cannot show message %llu: %s",
			 d->path, d->worker, (unsigned long long)n, why);
		return -1;
	}
	if (rc) {
		snprintf(what, sizeof(what), "output: %s", why);
		return fail(d, n, what);
	}
	if (o.message != n) {
		snprintf(what, sizeof(what),
			 "it says it was message %llu: a worker numbers its "
			 "messages from 0 in the order it starts them, and "
			 "message n takes n's IV and key",
			 (unsigned long long)o.message);
		return fail(d, n, what);
	}
	if (!o.data || o.len != TIMED_SIZE) {
		snprintf(what, sizeof(what), "it shows %zu bytes, not %d",
			 o.data ? o.len : 0, TIMED_SIZE);
		return fail(d, n, what);
	}
	in = input_of(d, n, first, &o);
	if (!in || reference(d, n, in, &d->e[n]))
		return -1;
	return compare(d, n, &o, in);
}

/* Set up the worker's state with depth (0: run()'s, the depth not given). */
static int drive_setup(struct drive *d, unsigned depth)
{
	struct hb_case hc = *d->sub->hc;
	char why[256] = "", what[400];
	int rc;

	d->sub->bc->queue_depth = depth;
	d->sub->bc->depth_given = depth > 0;
	hc.worker = d->worker;
	hc.workers = TIMED_WORKERS;
	rc = d->sub->p->setup(&hc, &d->state, why, sizeof(why));
	why[sizeof(why) - 1] = '\0';
	if (!rc)
		return 0;
	d->state = NULL;
	snprintf(what, sizeof(what), "setup %s: %s",
		 rc == HB_SKIP ? "skips" : "fails", why);
	fail(d, 0, what);
	return rc == HB_SKIP ? HB_SKIP : -1;
}

/* run(): 1 message, then 6 in one call, then 1, each call's last read. */
static int drive_run(struct drive *d)
{
	static const uint64_t calls[] = { 1, 6, 1 };
	uint64_t n = 0;

	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		struct hb_done done = { 0 };
		char why[256] = "", what[400];
		int rc = d->sub->p->run(d->state, calls[i], &done, why,
					sizeof(why));

		why[sizeof(why) - 1] = '\0';
		if (rc || done.ops != calls[i]) {
			snprintf(what, sizeof(what),
				 "run(%llu) %s%s (%llu messages done)",
				 (unsigned long long)calls[i],
				 rc ? "fails: " : "did not do them", why,
				 (unsigned long long)done.ops);
			return fail(d, n, what);
		}
		n += calls[i];
		if (verify(d, 0, n - 1, n - calls[i]))
			return -1;
	}
	return 0;
}

/* One completion of the submit path: read it back before the next submit. */
static int on_done(void *arg, const struct hb_completion *c, char *detail,
		   size_t len)
{
	struct drive *d = arg;

	(void)detail;
	(void)len;
	return verify(d, c->tag, c->tag, 0);
}

/* submit/poll at depth: 3 x depth + 1 messages, every one read back. */
static int drive_submit(struct drive *d, unsigned depth)
{
	struct conform_flight f = { .p = d->sub->p,
				    .state = d->state,
				    .depth = depth,
				    .n = 3 * depth + 1,
				    .bytes = TIMED_SIZE,
				    .done = on_done,
				    .arg = d };
	char flight[512] = "";

	if (conform_flight(&f, flight, sizeof(flight)) == 0)
		return 0;
	if (strncmp(d->detail, d->path, strlen(d->path)) != 0)
		snprintf(d->detail, d->len, "%s, worker %u: %s", d->path,
			 d->worker, flight);
	return -1;
}

/* Every worker of path at depth; 0, -1 or HB_SKIP (detail filled). */
static int drive_path(struct drive *d, enum conform_path path, unsigned depth)
{
	int rc = 0;

	snprintf(d->path, sizeof(d->path),
		 path == CONFORM_PATH_RUN ? "run()" : "submit/poll at depth %u",
		 depth);
	for (d->worker = 0; d->worker < TIMED_WORKERS && !rc; d->worker++) {
		memset(d->e, 0, sizeof(d->e));
		hb_crypto_fill(d->data, sizeof(d->data),
			       HB_CRYPTO_SEED_DATA(d->worker));
		rc = drive_setup(d, path == CONFORM_PATH_RUN ? 0 : depth);
		if (rc)
			break;
		rc = path == CONFORM_PATH_RUN ? drive_run(d)
					      : drive_submit(d, depth);
		d->sub->p->teardown(d->state);
	}
	return rc;
}

/* The row's parameters: whole messages of TIMED_SIZE, encrypted. */
static int set_params(struct bench_case *bc)
{
	char size[32];

	snprintf(size, sizeof(size), "%d", TIMED_SIZE);
	return conform_param(bc, "size", size) ||
	       conform_param(bc, "mode", "message") ||
	       conform_param(bc, "direction", "encrypt");
}

/* Why path does not apply to sub, or NULL when it does. */
static const char *not_applicable(const struct conform_backend *sub,
				  enum conform_path path)
{
	if (path == CONFORM_PATH_SUBMIT &&
	    (!(sub->bc->tdesc->flags & HB_TARGET_ASYNC) ||
	     check_has_async(sub->p) <= 0))
		return "has no asynchronous submit and poll for this target";
	return NULL;
}

enum conform_verdict conform_timed(const struct conform_backend *sub,
				   const struct conform_backend *ref,
				   enum conform_path path, char *detail,
				   size_t len)
{
	static const unsigned depths[] = { 1, 16 };
	const char *na = not_applicable(sub, path);
	struct drive *d;
	int rc = 0;

	if (na)
		return hb_errorf(detail, len, CONFORM_SKIPPED, "%s %s",
				 sub->p->name, na);
	if (!sub->output)
		return hb_errorf(detail, len, CONFORM_UNVERIFIABLE,
				 "not verifiable: %s has no output slot (ABI "
				 "1.3), so what its timed path produced "
				 "cannot be compared",
				 sub->p->name);
	d = calloc(1, sizeof(*d));
	if (!d || set_params(sub->bc)) {
		free(d);
		return hb_errorf(detail, len, CONFORM_FAILED, "out of memory");
	}
	d->sub = sub;
	d->ref = ref;
	d->detail = detail;
	d->len = len;
	plugin_target_name(sub->bc->tdesc, d->target, sizeof(d->target));
	for (size_t i = 0; !rc && i < (path == CONFORM_PATH_RUN ? 1 : 2); i++)
		rc = drive_path(d, path, depths[i]);
	if (!rc)
		snprintf(detail, len,
			 path == CONFORM_PATH_RUN
				 ? "%d workers x 8 messages of %d bytes "
				   "(calls of 1, 6, 1): outputs and tags "
				   "equal the reference's"
				 : "%d workers at depth 1 and 16 (4 and 49 "
				   "messages of %d bytes): every output and "
				   "tag equals the reference's",
			 TIMED_WORKERS, TIMED_SIZE);
	rc = rc == HB_SKIP     ? CONFORM_SKIPPED
	     : d->unverifiable ? CONFORM_UNVERIFIABLE
	     : rc	       ? CONFORM_FAILED
			       : CONFORM_OK;
	free(d);
	return (enum conform_verdict)rc;
}
