/* SPDX-License-Identifier: Apache-2.0 */
/* The timed rows of `hostbench check`: run(), submit/poll and streams. */
#include "conform/conform_timed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hostbench/crypto.h>

#include "plugin/check.h"
#include "plugin/registry.h"
#include "run/buffers.h"
#include "conform/conform_async.h"

/* Bytes of every message, a multiple of every block. */
#define TIMED_SIZE 4096
/* Workers each path is driven with, so each worker's data is its own. */
#define TIMED_WORKERS 2
/* run()'s ring: every message of calls of 1, 6 and 1 keeps its unit. */
#define TIMED_RING 8
/* Buffers a stream row reads, one run() call each. */
#define TIMED_STREAM 3

/* One worker's state on one path, and the core's buffers it writes. */
struct drive {
	const struct conform_backend *sub;
	const struct verify_ref *ref;
	char path[64]; /* "run()", "submit/poll at depth 16 decrypting" */
	unsigned worker;
	void *state;
	struct buffers b;
	struct verify_case vc;
	uint8_t *kept; /* per unit: out and tag as verified (obligation) */
	uint64_t *kept_msg;
	char *detail;
	size_t len;
};

/* A failure of d's current message n: where, what, and where to look. */
static int fail(struct drive *d, uint64_t n, const char *what)
{
	snprintf(d->detail, d->len, "%s, worker %u, %s %llu: %s", d->path,
		 d->worker, d->vc.stream ? "buffer" : "message",
		 (unsigned long long)n, what);
	return -1;
}

/* Bytes one unit's copy takes in d->kept: its output and its tag. */
static size_t unit_bytes(void)
{
	return TIMED_SIZE + HB_TAG_ROOM;
}

/* Read unit i (message n) from the core's buffers and verify it. */
static int verify(struct drive *d, unsigned i, uint64_t n)
{
	char what[512] = "";
	int rc = verify_unit(&d->vc, n, d->b.out[i], d->b.tag[i], NULL, what,
			     sizeof(what));

	if (rc)
		return fail(d, n, rc == -1 ? what : "out of memory");
	memcpy(d->kept + i * unit_bytes(), d->b.out[i], TIMED_SIZE);
	memcpy(d->kept + i * unit_bytes() + TIMED_SIZE, d->b.tag[i],
	       HB_TAG_ROOM);
	d->kept_msg[i] = n;
	return 0;
}

/*
 * Unit i is about to be the plugin's again: it must hold what it held
 * when verified (the plugin wrote it only until poll handed it back).
 * Then it is poisoned, so a unit that writes nothing shows.
 */
static int reclaim(struct drive *d, unsigned i)
{
	const uint8_t *k = d->kept + i * unit_bytes();
	char what[256];

	if (d->kept_msg[i] != UINT64_MAX &&
	    (memcmp(k, d->b.out[i], TIMED_SIZE) != 0 ||
	     memcmp(k + TIMED_SIZE, d->b.tag[i], HB_TAG_ROOM) != 0)) {
		snprintf(what, sizeof(what),
			 "its buffers (unit %u) changed after poll handed it "
			 "back: a plugin holds each unit's buffers until poll "
			 "hands it back, and never writes them after "
			 "(plugin.h, struct hb_buffers)",
			 i);
		return fail(d, d->kept_msg[i], what);
	}
	d->kept_msg[i] = UINT64_MAX;
	buffers_poison(&d->b, i);
	return 0;
}

/* Set up the worker's state with depth (0: run()'s, the depth not given). */
static int drive_setup(struct drive *d, unsigned depth, unsigned units)
{
	struct hb_case hc = *d->sub->hc;
	char why[256] = "", what[400];
	int rc;

	if (buffers_make(&d->b, TIMED_SIZE, units, d->worker))
		return fail(d, 0, "out of memory");
	for (unsigned i = 0; i < units; i++)
		d->kept_msg[i] = UINT64_MAX;
	verify_case_init(&d->vc, d->sub->bc, d->ref, d->b.in);
	d->sub->bc->queue_depth = depth;
	d->sub->bc->depth_given = depth > 0;
	hc.worker = d->worker;
	hc.workers = TIMED_WORKERS;
	hc.buffers = &d->b.hb;
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

/* run() calls of calls[] units; every unit read back after its call. */
static int drive_run(struct drive *d, const uint64_t *calls, size_t ncalls)
{
	const unsigned nbuf = d->b.hb.n; /* the plugin cannot change it */
	uint64_t n = 0;

	if (!nbuf)
		return fail(d, 0,
			    "the core made no buffers for the timed path");
	for (size_t c = 0; c < ncalls; c++) {
		struct hb_done done = { 0 };
		char why[256] = "", what[400];
		int rc;

		for (unsigned i = 0; i < nbuf; i++)
			if (reclaim(d, i))
				return -1;
		rc = d->sub->p->run(d->state, calls[c], &done, why,
				    sizeof(why));
		why[sizeof(why) - 1] = '\0';
		if (rc || done.ops != calls[c]) {
			snprintf(what, sizeof(what),
				 "run(%llu) %s%s (%llu messages done)",
				 (unsigned long long)calls[c],
				 rc ? "fails: " : "did not do them", why,
				 (unsigned long long)done.ops);
			return fail(d, n, what);
		}
		for (uint64_t u = 0; u < calls[c]; u++, n++)
			if (verify(d, (unsigned)(n % nbuf), n))
				return -1;
	}
	return 0;
}

/* One unit is back: verify it before its tag goes out again. */
static int on_done(void *arg, const struct hb_completion *c, uint64_t msg,
		   char *detail, size_t len)
{
	(void)detail;
	(void)len;
	return verify(arg, (unsigned)c->tag, msg);
}

/* Unit tag is submitted again (or the flight ended): reclaim it. */
static int on_before(void *arg, uint64_t tag, char *detail, size_t len)
{
	(void)detail;
	(void)len;
	return reclaim(arg, (unsigned)tag);
}

/* submit/poll at depth: 3 x depth + 1 messages, every one read back. */
static int drive_submit(struct drive *d, unsigned depth)
{
	struct conform_flight f = { .p = d->sub->p,
				    .state = d->state,
				    .depth = depth,
				    .n = 3 * depth + 1,
				    .bytes = TIMED_SIZE,
				    .before = on_before,
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

/* One worker through path at depth, set up and torn down. */
static int drive_worker(struct drive *d, enum conform_path path, unsigned depth)
{
	static const uint64_t calls[] = { 1, 6, 1 }, stream[] = { 1, 1, 1 };
	unsigned units = path == CONFORM_PATH_SUBMIT ? depth
			 : path == CONFORM_PATH_RUN  ? TIMED_RING
						     : 1;
	int rc = drive_setup(d, path == CONFORM_PATH_SUBMIT ? depth : 0, units);

	if (!rc && path == CONFORM_PATH_RUN)
		rc = drive_run(d, calls, 3);
	else if (!rc && path == CONFORM_PATH_STREAM)
		rc = drive_run(d, stream, TIMED_STREAM);
	else if (!rc)
		rc = drive_submit(d, depth);
	if (d->state)
		d->sub->p->teardown(d->state);
	d->state = NULL;
	buffers_free(&d->b);
	return rc;
}

/* The row's parameters: messages (a stream) of TIMED_SIZE, direction. */
static int set_params(struct bench_case *bc, enum conform_path path,
		      int decrypt)
{
	char size[32];

	snprintf(size, sizeof(size), "%d", TIMED_SIZE);
	return conform_param(bc, "size", size) ||
	       conform_param(bc, "mode",
			     path == CONFORM_PATH_STREAM ? "stream"
							 : "message") ||
	       conform_param(bc, "direction", decrypt ? "decrypt" : "encrypt");
}

/* Every worker of path at depth, in one direction: 0, -1 or HB_SKIP. */
static int drive_path(struct drive *d, enum conform_path path, unsigned depth,
		      int decrypt)
{
	int rc = set_params(d->sub->bc, path, decrypt) ? -1 : 0;

	snprintf(d->path, sizeof(d->path), "%s%s",
		 path == CONFORM_PATH_RUN      ? "run()"
		 : path == CONFORM_PATH_STREAM ? "run() in stream mode"
					       : "submit/poll at depth ",
		 decrypt ? " decrypting" : "");
	if (path == CONFORM_PATH_SUBMIT)
		snprintf(d->path, sizeof(d->path), "submit/poll at depth %u%s",
			 depth, decrypt ? " decrypting" : "");
	for (d->worker = 0; d->worker < TIMED_WORKERS && !rc; d->worker++)
		rc = drive_worker(d, path, depth);
	return rc;
}

/* Why path does not apply to sub, or NULL when it does. */
static const char *not_applicable(const struct conform_backend *sub,
				  enum conform_path path)
{
	const struct hb_target *t = sub->bc->tdesc;

	if (path == CONFORM_PATH_SUBMIT &&
	    (!(t->flags & HB_TARGET_ASYNC) || check_has_async(sub->p) <= 0))
		return "has no asynchronous submit and poll for this target";
	if (path == CONFORM_PATH_STREAM && strcmp(t->group, "crypto") != 0)
		return "has no output to compare in stream mode: a MAC or "
		       "digest of an endless message never ends";
	if (path == CONFORM_PATH_STREAM) {
		const struct hb_option *m = plugin_option_find(t, "mode");

		for (const char *const *c = m ? m->choices : NULL; c && *c; c++)
			if (strcmp(*c, "stream") == 0)
				return NULL;
		return "offers no stream mode for this target";
	}
	return NULL;
}

/* Why sub's timed path cannot be verified (and what to add), or NULL. */
static int unverifiable(const struct conform_backend *sub, char *detail,
			size_t len)
{
	if (sub->p->abi_minor < 4)
		return hb_errorf(detail, len, 1,
				 "not verifiable: %s is built for ABI 1.%u, "
				 "whose timed path writes buffers of its own "
				 "that the core cannot read: rebuild it for "
				 "ABI 1.4, set HB_TARGET_VERIFIED and write "
				 "each unit's output into hb_case.buffers "
				 "(docs/plugins.md, \"Porting to ABI 1.4\")",
				 sub->p->name, sub->p->abi_minor);
	if (!(sub->bc->tdesc->flags & HB_TARGET_VERIFIED))
		return hb_errorf(detail, len, 1,
				 "not verifiable: the target does not set "
				 "HB_TARGET_VERIFIED: set it and write each "
				 "unit's output into hb_case.buffers "
				 "(docs/plugins.md, \"Porting to ABI 1.4\")");
	return 0;
}

/* What a passing row verified, into detail. */
static void passed(enum conform_path path, int directions, char *detail,
		   size_t len)
{
	const char *both = directions == 2 ? ", encrypted and decrypted" : "";

	if (path == CONFORM_PATH_RUN)
		snprintf(detail, len,
			 "%d workers x 8 messages of %d bytes (calls of 1, "
			 "6, 1)%s: outputs and tags read from the core's "
			 "buffers equal the reference's",
			 TIMED_WORKERS, TIMED_SIZE, both);
	else if (path == CONFORM_PATH_SUBMIT)
		snprintf(detail, len,
			 "%d workers at depth 1 and 16 (4 and 49 messages of "
			 "%d bytes)%s: every output and tag read from the "
			 "core's buffers equals the reference's",
			 TIMED_WORKERS, TIMED_SIZE, both);
	else
		snprintf(detail, len,
			 "%d workers x %d buffers of %d bytes of one stream, "
			 "read from the core's buffers: byte for byte the "
			 "reference's",
			 TIMED_WORKERS, TIMED_STREAM, TIMED_SIZE);
}

/* Every depth and direction of path: 0, -1 or HB_SKIP (detail filled). */
static int drive_all(struct drive *d, enum conform_path path, int *directions)
{
	static const unsigned depths[] = { 1, 16 };
	int dec = path != CONFORM_PATH_STREAM &&
		  plugin_option_find(d->sub->bc->tdesc, "direction");
	int rc = 0;

	*directions = 1 + dec;
	for (int decrypt = 0; !rc && decrypt <= dec; decrypt++)
		for (size_t i = 0;
		     !rc && i < (path == CONFORM_PATH_SUBMIT ? 2u : 1u); i++)
			rc = drive_path(d, path, depths[i], decrypt);
	return rc;
}

enum conform_verdict conform_timed(const struct conform_backend *sub,
				   const struct verify_ref *ref,
				   enum conform_path path, char *detail,
				   size_t len)
{
	const char *na = not_applicable(sub, path);
	struct drive *d;
	int rc, directions = 1;

	if (na)
		return hb_errorf(detail, len, CONFORM_SKIPPED, "%s %s",
				 sub->p->name, na);
	if (unverifiable(sub, detail, len))
		return CONFORM_UNVERIFIABLE;
	d = calloc(1, sizeof(*d));
	if (d) {
		d->kept = malloc(16 * unit_bytes());
		d->kept_msg = calloc(16, sizeof(*d->kept_msg));
	}
	if (!d || !d->kept || !d->kept_msg) {
		rc = hb_errorf(detail, len, CONFORM_FAILED, "out of memory");
		goto out_free;
	}
	d->sub = sub;
	d->ref = ref;
	d->detail = detail;
	d->len = len;
	detail[0] = '\0';
	rc = drive_all(d, path, &directions);
	if (!rc)
		passed(path, directions, detail, len);
	rc = rc == HB_SKIP ? CONFORM_SKIPPED : rc ? CONFORM_FAILED : CONFORM_OK;
out_free:
	if (d) {
		free(d->kept);
		free(d->kept_msg);
	}
	free(d);
	return (enum conform_verdict)rc;
}
