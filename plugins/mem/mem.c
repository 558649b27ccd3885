/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Memory bandwidth: memcpy, memset and a summing read over one buffer per
 * worker. One unit of work is one pass over `size` bytes; a memcpy pass
 * counts `size` bytes (bytes copied, as the classic host benchmark and
 * `mbw` report it, not read + written).
 */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <hostbench/plugin.h>

enum mem_op { MEM_COPY, MEM_SET, MEM_READ };

struct mem_state {
	enum mem_op op;
	size_t size;
	unsigned char *src;
	unsigned char *dst; /* memcpy only */
	uint64_t sink;	    /* keeps the summing read observable */
};

#define MEM_ALIGN 4096

/* clang-format off */
static const struct hb_option mem_options[] = {
	{
		.name = "size",
		.type = HB_OPT_SIZE,
		.def = "64M",
		.help = "bytes per pass (one buffer per worker; memcpy uses "
			"two)",
		.min = 64,
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
	struct mem_state *s;

	if (size > SIZE_MAX || size % sizeof(uint64_t)) {
		snprintf(err, errlen, "size %llu: must be a multiple of 8",
			 (unsigned long long)size);
		return HB_EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		goto fail_state;
	s->op = mem_op_of(c->target);
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
