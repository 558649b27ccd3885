/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Memory bandwidth: memcpy, memset and a summing read over one buffer per
 * worker. One unit of work is one pass over `size` bytes; a memcpy pass
 * counts `size` bytes (bytes copied, as the classic host benchmark and
 * `mbw` report it, not read + written). Size llc (the default) shares
 * four last-level caches among all the case's buffers, so the passes
 * measure memory, not cache, and a case holds the same memory at any
 * number of workers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <hostbench/plugin.h>

#include "llc.h"

enum mem_op { MEM_COPY, MEM_SET, MEM_READ };

struct mem_state {
	enum mem_op op;
	size_t size;
	unsigned char *src;
	unsigned char *dst; /* memcpy only */
	uint64_t sink;	    /* keeps the summing read observable */
};

#define MEM_ALIGN 4096

/* The buffers of a case, all workers' together, span this many caches. */
#define MEM_LLC_TIMES 4
/*
 * Bounds of a case's buffers sized from the cache (all workers' together),
 * and their total when no cache size is known.
 */
#define MEM_LLC_FLOOR	 (UINT64_C(8) << 20)
#define MEM_LLC_CEILING	 (UINT64_C(512) << 20)
#define MEM_LLC_FALLBACK (UINT64_C(256) << 20)

/* The word a suite may write in place of a size. */
static const char *const mem_words[] = { "llc", NULL };

/* clang-format off */
static const struct hb_option mem_options[] = {
	{
		.name = "size",
		.type = HB_OPT_SIZE,
		.def = "llc",
		.help = "bytes per pass (one buffer per worker; memcpy uses "
			"two); llc: all the case's buffers together 4 x the "
			"last-level cache, 8M..512M",
		.choices = mem_words,
		.min = 8,
		.max = INT64_C(1) << 40,
	},
	{ 0 },
};
/* clang-format on */

static const struct hb_target mem_targets[] = {
	{
		.group = "mem",
		.name = "memcpy",
		.summary = "memcpy() of one buffer into another",
		.work = HB_WORK_BYTES,
		.options = mem_options,
	},
	{
		.group = "mem",
		.name = "memset",
		.summary = "memset() of a buffer",
		.work = HB_WORK_BYTES,
		.options = mem_options,
	},
	{
		.group = "mem",
		.name = "read",
		.summary = "summing read of a buffer, 64 bits at a time",
		.work = HB_WORK_BYTES,
		.options = mem_options,
	},
	{ 0 },
};

/* Which operation a target of this plugin measures. */
static enum mem_op mem_op_of(const struct hb_target *t)
{
	if (strcmp(t->name, "memcpy") == 0)
		return MEM_COPY;
	if (strcmp(t->name, "memset") == 0)
		return MEM_SET;
	return MEM_READ;
}

/* An aligned buffer with every page touched, so no fault is timed. */
static unsigned char *mem_buffer(size_t size)
{
	void *p;

	if (posix_memalign(&p, MEM_ALIGN, size))
		return NULL;
	memset(p, 0x5a, size);
	return p;
}

/*
 * Bytes per buffer for size = llc: MEM_LLC_TIMES last-level caches for all
 * the case's buffers together (every worker's, both of memcpy's), within
 * the floor and ceiling, shared out in whole pages. The total is the
 * case's, whatever the number of workers, so the memory a case holds is
 * bounded; the choice is noted in the result ("buffer", "buffer_total").
 */
static uint64_t mem_llc_size(const struct hb_case *c, unsigned buffers)
{
	const char *source;
	uint64_t llc = llc_bytes(LLC_SYSFS_DIR, &source), total, size;
	unsigned workers = c->workers ? c->workers : 1;
	char note[200];

	total = llc ? MEM_LLC_TIMES * llc : MEM_LLC_FALLBACK;
	total = total < MEM_LLC_FLOOR	  ? MEM_LLC_FLOOR
		: total > MEM_LLC_CEILING ? MEM_LLC_CEILING
					  : total;
	size = total / workers / buffers / MEM_ALIGN * MEM_ALIGN;
	if (size < MEM_ALIGN)
		size = MEM_ALIGN;
	if (llc)
		snprintf(note, sizeof(note),
			 "%lluK per buffer, %u buffers (%d x last-level cache "
			 "%lluK, from %s, over %u workers)",
			 (unsigned long long)(size >> 10), workers * buffers,
			 MEM_LLC_TIMES, (unsigned long long)(llc >> 10), source,
			 workers);
	else
		snprintf(note, sizeof(note),
			 "%lluK per buffer, %u buffers (last-level cache "
			 "unknown: %lluM in all)",
			 (unsigned long long)(size >> 10), workers * buffers,
			 (unsigned long long)(total >> 20));
	if (c->worker == 0) {
		c->host->note(c, "buffer", note);
		snprintf(note, sizeof(note), "%llu",
			 (unsigned long long)size * workers * buffers);
		c->host->note(c, "buffer_total", note);
	}
	return size;
}

static void mem_teardown(void *state)
{
	struct mem_state *s = state;

	free(s->src);
	free(s->dst);
	free(s);
}

static int mem_setup(const struct hb_case *c, void **state, char *err,
		     size_t errlen)
{
	uint64_t size = c->host->get_size(c, "size");
	enum mem_op op = mem_op_of(c->target);
	struct mem_state *s;

	/* the core let through a size or a word of mem_words: "llc" */
	if (size == 0)
		size = mem_llc_size(c, op == MEM_COPY ? 2 : 1);
	if (size > SIZE_MAX || size % sizeof(uint64_t)) {
		snprintf(err, errlen, "size %llu: must be a multiple of 8",
			 (unsigned long long)size);
		return HB_EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		goto fail_state;
	s->op = op;
	s->size = (size_t)size;
	s->src = mem_buffer(s->size);
	if (!s->src)
		goto fail_buffer;
	if (s->op == MEM_COPY) {
		s->dst = mem_buffer(s->size);
		if (!s->dst)
			goto fail_buffer;
	}
	*state = s;
	return HB_OK;

fail_buffer:
	mem_teardown(s);
fail_state:
	snprintf(err, errlen, "cannot allocate %llu bytes: %s",
		 (unsigned long long)size, strerror(ENOMEM));
	return HB_ENOMEM;
}

/* Sum the buffer; the compiler must assume the result is used. */
static uint64_t mem_sum(const unsigned char *buf, size_t size)
{
	const uint64_t *w = (const uint64_t *)(const void *)buf;
	uint64_t a = 0, b = 0, c = 0, d = 0;
	size_t n = size / sizeof(uint64_t), i = 0;

	for (; i + 4 <= n; i += 4) {
		a += w[i];
		b += w[i + 1];
		c += w[i + 2];
		d += w[i + 3];
	}
	for (; i < n; i++)
		a += w[i];
	return a + b + c + d;
}

static int mem_run(void *state, uint64_t iterations, struct hb_done *done,
		   char *err, size_t errlen)
{
	struct mem_state *s = state;

	(void)err;
	(void)errlen;
	for (uint64_t i = 0; i < iterations; i++) {
		switch (s->op) {
		case MEM_COPY:
			memcpy(s->dst, s->src, s->size);
			break;
		case MEM_SET:
			memset(s->src, (int)(i & 0xff), s->size);
			break;
		case MEM_READ:
			s->sink += mem_sum(s->src, s->size);
			break;
		}
		/* The stores above are observable: nothing may be elided. */
		__asm__ volatile("" : : "r"(s->src), "r"(s->dst) : "memory");
	}
	done->bytes += iterations * s->size;
	done->ops += iterations;
	return HB_OK;
}

static const struct hb_plugin mem_plugin = {
	.abi_major = HB_ABI_MAJOR,
	.abi_minor = HB_ABI_MINOR,
	.size = sizeof(struct hb_plugin),
	.name = "mem",
	.version = "1.0.0",
	.summary = "memory bandwidth: memcpy, memset, summing read",
	.targets = mem_targets,
	.setup = mem_setup,
	.run = mem_run,
	.teardown = mem_teardown,
};

HB_EXPORT const struct hb_plugin *hostbench_plugin_entry(void)
{
	return &mem_plugin;
}
