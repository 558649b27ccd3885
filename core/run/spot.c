/* SPDX-License-Identifier: Apache-2.0 */
/* A sample of each worker's units verified after each kept sample. */
#include "run/spot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/parse.h"

int spot_open(struct spot *s, const struct bench_case *bc, unsigned worker,
	      int async, const struct verify_ref *ref)
{
	struct timespec t;
	uint64_t len = 0;
	const char *size = kvlist_get(&bc->params, "size");

	memset(s, 0, sizeof(*s));
	if (!size || parse_size(size, &len, NULL, 0) || !len)
		return -EINVAL;
	if (buffers_make(&s->buf, (size_t)len, buffers_units(bc, async),
			 worker))
		return -ENOMEM;
	if (ref)
		verify_case_init(&s->vc, bc, ref, s->buf.in);
	/* touched now, so a check after a sample faults no page in */
	s->want = ref ? malloc((size_t)len + 64) : NULL;
	if (ref && !s->want) {
		spot_close(s);
		return -ENOMEM;
	}
	if (s->want)
		memset(s->want, 0, (size_t)len + 64);
	clock_gettime(CLOCK_MONOTONIC, &t);
	s->rng = ((uint64_t)t.tv_nsec << 20) ^ (uint64_t)t.tv_sec ^
		 ((uint64_t)worker << 48) ^ UINT64_C(0x9e3779b97f4a7c15);
	return 0;
}

/* The next draw, below n (n > 0). */
static uint64_t draw(struct spot *s, uint64_t n)
{
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 7;
	s->rng ^= s->rng << 17;
	return s->rng % n;
}

/*
 * Unit i of the buffers and its message, if the sample left one there:
 * through run(), the k-th unit of the case sits in i = k % n; through
 * submit, tag i held a->msg[i] last. 0 when none of this sample's is.
 */
static int unit_at(const struct spot *s, unsigned i, uint64_t done,
		   const struct async_slots *a, uint64_t *msg)
{
	uint64_t n = s->buf.hb.n, k;

	if (a) {
		*msg = a->msg[i];
		return a->msg[i] != UINT64_MAX &&
		       a->submitted - a->msg[i] <= done;
	}
	if (!s->units || s->units - 1 < i)
		return 0;
	k = s->units - 1 - (s->units - 1 - i) % n; /* the last in slot i */
	*msg = k;
	return s->units - k <= done;
}

int spot_check(struct spot *s, uint64_t done, const struct async_slots *a,
	       char *why, size_t len)
{
	unsigned n = s->buf.hb.n, start = (unsigned)draw(s, n);
	char what[512];

	if (!s->vc.ref || s->vc.stream || !done)
		return 0;
	/* the first unit of this sample's from a slot drawn at random */
	for (unsigned j = 0; j < n; j++) {
		unsigned i = (start + j) % n;
		uint64_t msg;
		int rc;

		if (!unit_at(s, i, done, a, &msg))
			continue;
		rc = verify_unit(&s->vc, msg, s->buf.out[i], s->buf.tag[i],
				 s->want, what, sizeof(what));
		if (rc == -1)
			return hb_errorf(why, len, -1,
					 "message %llu, verified after the "
					 "sample: %s",
					 (unsigned long long)msg, what);
		s->checked += rc == 0;
		return rc;
	}
	return 0;
}

void spot_close(struct spot *s)
{
	free(s->want);
	buffers_free(&s->buf);
	memset(s, 0, sizeof(*s));
}

int spot_reference(const struct bench_case *bc, int buffered,
		   struct verify_ref *ref, const struct verify_ref **out,
		   struct result *r)
{
	const struct hb_target *t = bc->tdesc;
	const struct hb_plugin *p = bc->plugin->desc;
	int crypto =
		t->work == HB_WORK_BYTES &&
		(strcmp(t->group, "crypto") == 0 ||
		 strcmp(t->group, "mac") == 0 || strcmp(t->group, "hash") == 0);
	char line[300] = "";
	const char *mode = kvlist_get(&bc->params, "mode");

	*out = NULL;
	if (buffered && mode && strcmp(mode, "stream") == 0)
		return kvlist_set(&r->info, "verified",
				  "no: a stream is one endless message "
				  "(hostbench check's stream row verifies "
				  "it)");
	if (buffered && bc->reference &&
	    verify_ref_open(ref, bc->reference, bc->target) == 0)
		*out = ref;
	else if (buffered)
		snprintf(line, sizeof(line),
			 "not verified: no reference backend (openssl) to "
			 "compare the timed path's output with");
	else if (crypto && p->abi_minor < 4)
		snprintf(line, sizeof(line),
			 "not verified: %s is built for ABI 1.%u, before the "
			 "core's buffers (hostbench list, check)",
			 p->name, p->abi_minor);
	return line[0] && !strlist_has(&r->warnings, line)
		       ? strlist_push(&r->warnings, line)
		       : 0;
}

int spot_note(struct result *r, const struct verify_ref *ref, uint64_t checked,
	      uint64_t ns)
{
	char text[160];

	snprintf(text, sizeof(text),
		 "%llu messages against %s after the samples, %.3f ms",
		 (unsigned long long)checked, ref->p->name, (double)ns * 1e-6);
	return kvlist_set(&r->info, "verified", text);
}
