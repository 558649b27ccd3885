/* SPDX-License-Identifier: Apache-2.0 */
/* The per-pair tally of a case with several receivers. */
#include "pairs.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pairs {
	size_t n;
	unsigned users;
	_Atomic uint64_t *acked;
	char **why; /* NULL: the pair held */
	pthread_mutex_t lock;
};

/*
 * The tally worker 0 of the case being set up made, for its other
 * workers: a case's workers are set up one after the other, before any
 * other case's.
 */
static struct pairs *forming;

struct pairs *pairs_join(const struct hb_case *c, size_t n)
{
	struct pairs *p = c->worker ? forming : NULL;

	if (p && p->n == n) {
		p->users++;
		return p;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->acked = calloc(n, sizeof(*p->acked));
	p->why = calloc(n, sizeof(*p->why));
	if (!p->acked || !p->why || pthread_mutex_init(&p->lock, NULL)) {
		free(p->acked);
		free(p->why);
		free(p);
		return NULL;
	}
	p->n = n;
	p->users = 1;
	forming = p;
	return p;
}

void pairs_add(struct pairs *p, size_t k, uint64_t bytes)
{
	atomic_fetch_add(&p->acked[k], bytes);
}

void pairs_fail(struct pairs *p, size_t k, const char *why)
{
	pthread_mutex_lock(&p->lock);
	if (!p->why[k])
		p->why[k] = strdup(why[0] ? why : "failed");
	pthread_mutex_unlock(&p->lock);
}

int pairs_failed(struct pairs *p, size_t k)
{
	int failed;

	pthread_mutex_lock(&p->lock);
	failed = p->why[k] != NULL;
	pthread_mutex_unlock(&p->lock);
	return failed;
}

/* The bytes every pair that held acknowledged, together. */
static uint64_t held_bytes(const struct pairs *p)
{
	uint64_t all = 0;

	for (size_t k = 0; k < p->n; k++)
		if (!p->why[k])
			all += atomic_load(&p->acked[k]);
	return all;
}

/* Into the result: how each pair went, when one failed. */
static void tell(const struct pairs *p, const struct hb_case *c,
		 const char *const *addr)
{
	const struct hb_host *h = c->host;
	uint64_t all = held_bytes(p);
	char key[300], value[600];
	size_t failed = 0;

	for (size_t k = 0; k < p->n; k++)
		failed += p->why[k] != NULL;
	if (!failed)
		return;
	for (size_t k = 0; k < p->n; k++) {
		uint64_t bytes = atomic_load(&p->acked[k]);

		snprintf(key, sizeof(key), "pair %s", addr[k]);
		if (p->why[k]) {
			snprintf(value, sizeof(value), "failed: %s", p->why[k]);
			h->warn(c,
				"pair %s failed: %s; the case went on with "
				"the other receivers",
				addr[k], p->why[k]);
		} else {
			snprintf(value, sizeof(value),
				 "ok: %" PRIu64 " bytes acknowledged (%.1f%% "
				 "of the case's)",
				 bytes,
				 all ? 100.0 * (double)bytes / (double)all
				     : 0.0);
		}
		h->note(c, key, value);
	}
	snprintf(value, sizeof(value), "%zu of %zu ok", p->n - failed, p->n);
	h->note(c, "pairs", value);
}

void pairs_leave(struct pairs *p, const struct hb_case *c,
		 const char *const *addr)
{
	if (!p || --p->users)
		return;
	if (c && addr)
		tell(p, c, addr);
	if (forming == p)
		forming = NULL;
	for (size_t k = 0; k < p->n; k++)
		free(p->why[k]);
	free(p->why);
	free(p->acked);
	pthread_mutex_destroy(&p->lock);
	free(p);
}
