/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Memory bandwidth: memcpy, memset and a summing read over one buffer per
 * worker. One unit of work is one pass over `size` bytes; a memcpy pass
 * counts `size` bytes (bytes copied, as the classic host benchmark and
 * `mbw` report it, not read + written). Size 0 (the default) sizes each
 * worker's buffer from the host's last-level cache, so the passes measure
 * memory, not cache, without holding gigabytes on a large host.
 */
#include <dirent.h>
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

/* The buffers of all workers together span this many last-level caches. */
#define MEM_LLC_TIMES 4
/* Bounds of a buffer sized from the cache, and its size when none is known. */
#define MEM_LLC_FLOOR	 (UINT64_C(8) << 20)
#define MEM_LLC_CEILING	 (UINT64_C(256) << 20)
#define MEM_LLC_FALLBACK (UINT64_C(64) << 20)

/* Where the kernel describes CPU 0's caches (index0, index1, ...). */
#define MEM_CACHE_DIR "/sys/devices/system/cpu/cpu0/cache"

/* clang-format off */
static const struct hb_option mem_options[] = {
	{
		.name = "size",
		.type = HB_OPT_SIZE,
		.def = "0",
		.help = "bytes per pass (one buffer per worker; memcpy uses "
			"two); 0: 4 x the last-level cache over the workers, "
			"8M..256M",
		.min = 0,
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

/* The first line of file dir/index/name into buf; 0 when read. */
static int cache_attr(const char *index, const char *name, char *buf,
		      size_t len)
{
	char path[512];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), MEM_CACHE_DIR "/%s/%s", index, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok ? 0 : -1;
}

/* "32768K" (sysfs writes K, sometimes M) in bytes; 0 when unreadable. */
static uint64_t cache_bytes(const char *text)
{
	char *end;
	unsigned long long v = strtoull(text, &end, 10);

	if (*end == 'K')
		return (uint64_t)v << 10;
	if (*end == 'M')
		return (uint64_t)v << 20;
	return *end == '\0' ? (uint64_t)v : 0;
}

/*
 * The size of CPU 0's last-level data or unified cache in bytes (the one
 * of the highest level), or 0 when sysfs does not say.
 */
static uint64_t mem_llc_bytes(void)
{
	char level[32], type[32], size[32];
	uint64_t best = 0;
	long best_level = 0;
	struct dirent *e;
	DIR *d = opendir(MEM_CACHE_DIR);

	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		long lv;

		if (strncmp(e->d_name, "index", 5) != 0 ||
		    cache_attr(e->d_name, "level", level, sizeof(level)) ||
		    cache_attr(e->d_name, "type", type, sizeof(type)) ||
		    cache_attr(e->d_name, "size", size, sizeof(size)) ||
		    strcmp(type, "Instruction") == 0)
			continue;
		lv = strtol(level, NULL, 10);
		if (lv > best_level) {
			best_level = lv;
			best = cache_bytes(size);
		}
	}
	closedir(d);
	return best;
}

/*
 * Bytes per worker's buffer for size 0: MEM_LLC_TIMES caches shared by the
 * workers, within the floor and ceiling, in whole pages. The choice is
 * noted in the result ("buffer").
 */
static uint64_t mem_auto_size(const struct hb_case *c)
{
	uint64_t llc = mem_llc_bytes(), size;
	unsigned workers = c->workers ? c->workers : 1;
	char note[160];

	if (llc) {
		size = MEM_LLC_TIMES * llc / workers;
		size = size < MEM_LLC_FLOOR	? MEM_LLC_FLOOR
		       : size > MEM_LLC_CEILING ? MEM_LLC_CEILING
						: size;
		size = (size + MEM_ALIGN - 1) / MEM_ALIGN * MEM_ALIGN;
		snprintf(note, sizeof(note),
			 "%lluM per worker (%d x last-level cache %lluK over "
			 "%u workers)",
			 (unsigned long long)(size >> 20), MEM_LLC_TIMES,
			 (unsigned long long)(llc >> 10), workers);
	} else {
		size = MEM_LLC_FALLBACK;
		snprintf(note, sizeof(note),
			 "%lluM per worker (last-level cache unknown)",
			 (unsigned long long)(size >> 20));
	}
	if (c->worker == 0)
		c->host->note(c, "buffer", note);
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
	struct mem_state *s;

	if (size == 0)
		size = mem_auto_size(c);
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
