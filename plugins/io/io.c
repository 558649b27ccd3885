/* SPDX-License-Identifier: Apache-2.0 */
/*
 * File I/O workloads: buffered stdio (fwrite, fread), large sequential
 * files (seq-write, seq-read) and many small files (small-files), each in
 * the directory `dir`. Safety is part of every target: the plugin writes
 * only files it creates itself inside dir, never one that was there
 * before, and teardown leaves dir as it found it. See docs/io.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io.h"

static const char *const io_fsync_choices[] = { "none", "end", "each", NULL };
static const char *const io_mode_choices[] = { "write", "read", NULL };

#define IO_MAX_BLOCK (INT64_C(1) << 30)
#define IO_MAX_FILE  (INT64_C(1) << 50)

/* clang-format off */
#define IO_OPT_DIR                                                             \
	{                                                                      \
		.name = "dir", .type = HB_OPT_STRING, .def = ".",              \
		.help = "directory to work in; a list runs the case in each",  \
	}
#define IO_OPT_FILE_SIZE(d)                                                    \
	{                                                                      \
		.name = "file_size", .type = HB_OPT_SIZE, .def = (d),          \
		.help = "bytes per file (a whole number of blocks is used)",   \
		.min = 1, .max = IO_MAX_FILE,                                  \
	}
#define IO_OPT_SIZE(d)                                                         \
	{                                                                      \
		.name = "size", .type = HB_OPT_SIZE, .def = (d),               \
		.help = "block: bytes per read or write call", .min = 1,       \
		.max = IO_MAX_BLOCK,                                           \
	}
#define IO_OPT_DIRECT                                                          \
	{                                                                      \
		.name = "direct", .type = HB_OPT_BOOL, .def = "false",         \
		.help = "O_DIRECT: bypass the page cache (size a multiple "    \
			"of 4K)",                                              \
	}
#define IO_OPT_FSYNC(d)                                                        \
	{                                                                      \
		.name = "fsync", .type = HB_OPT_ENUM, .def = (d),              \
		.help = "force writes to the device: none (the page-cache "    \
			"figure), at the end of each file/sample, or after "   \
			"each block",                                          \
		.choices = io_fsync_choices,                                   \
	}
#define IO_OPT_DROP_CACHES                                                     \
	{                                                                      \
		.name = "drop_caches", .type = HB_OPT_BOOL, .def = "false",    \
		.help = "before reading, also write 1 to "                     \
			"/proc/sys/vm/drop_caches (root only)",                \
	}
#define IO_OPT_CACHE                                                           \
	{                                                                      \
		.name = "cache", .type = HB_OPT_BOOL, .def = "false",          \
		.help = "read from the page cache: never drop the file's "     \
			"cached pages",                                        \
	}

static const struct hb_option io_fwrite_options[] = {
	IO_OPT_DIR,
	IO_OPT_FILE_SIZE("4G"),
	IO_OPT_SIZE("1M"),
	IO_OPT_FSYNC("end"),
	{
		.name = "min_free",
		.type = HB_OPT_SIZE,
		.def = "16G",
		.help = "skip unless the filesystem has this much free space",
		.min = 0,
		.max = IO_MAX_FILE,
	},
	{ 0 },
};

static const struct hb_option io_fread_options[] = {
	IO_OPT_DIR,	    IO_OPT_FILE_SIZE("4G"), IO_OPT_SIZE("1M"),
	IO_OPT_DROP_CACHES, IO_OPT_CACHE,	    { 0 },
};

static const struct hb_option io_seq_write_options[] = {
	IO_OPT_DIR,    IO_OPT_FILE_SIZE("8G"), IO_OPT_SIZE("1M"),
	IO_OPT_DIRECT, IO_OPT_FSYNC("end"),    { 0 },
};

static const struct hb_option io_seq_read_options[] = {
	IO_OPT_DIR,    IO_OPT_FILE_SIZE("8G"), IO_OPT_SIZE("1M"),
	IO_OPT_DIRECT, IO_OPT_CACHE,	       IO_OPT_DROP_CACHES,
	{ 0 },
};

static const struct hb_option io_small_options[] = {
	IO_OPT_DIR,
	IO_OPT_FILE_SIZE("64K"),
	IO_OPT_SIZE("4K"),
	{
		.name = "files",
		.type = HB_OPT_INT,
		.def = "250",
		.help = "files per worker",
		.min = 1,
		.max = 1000000,
	},
	{
		.name = "mode",
		.type = HB_OPT_ENUM,
		.def = "write",
		.help = "open-write-close or open-read-close each file",
		.choices = io_mode_choices,
	},
	IO_OPT_DIRECT,
	IO_OPT_FSYNC("none"),
	IO_OPT_CACHE,
	IO_OPT_DROP_CACHES,
	{ 0 },
};
/* clang-format on */

static const struct hb_target io_targets[] = {
	{
		.group = "io",
		.name = "fwrite",
		.summary = "buffered stdio sequential write of one file",
		.work = HB_WORK_BYTES,
		.options = io_fwrite_options,
	},
	{
		.group = "io",
		.name = "fread",
		.summary = "buffered stdio sequential read of one file",
		.work = HB_WORK_BYTES,
		.options = io_fread_options,
	},
	{
		.group = "io",
		.name = "seq-write",
		.summary = "sequential pwrite of a large file per worker",
		.work = HB_WORK_BYTES,
		.options = io_seq_write_options,
	},
	{
		.group = "io",
		.name = "seq-read",
		.summary = "sequential pread of a large file per worker",
		.work = HB_WORK_BYTES,
		.options = io_seq_read_options,
	},
	{
		.group = "io",
		.name = "small-files",
		.summary = "open-write-close or open-read-close of small files",
		.work = HB_WORK_FILES,
		.options = io_small_options,
	},
	{ 0 },
};

static const struct io_ops *const io_all_ops[] = {
	&io_fwrite_ops,	  &io_fread_ops, &io_seq_write_ops,
	&io_seq_read_ops, &io_small_ops, NULL,
};

/* Whether target t declares option name. */
static int io_has(const struct hb_target *t, const char *name)
{
	for (const struct hb_option *o = t->options; o->name; o++)
		if (strcmp(o->name, name) == 0)
			return 1;
	return 0;
}

/* Read the options target declares into p. */
static void io_params_read(const struct hb_case *c, struct io_params *p)
{
	const struct hb_host *h = c->host;
	const struct hb_target *t = c->target;
	const char *v;

	p->dir = h->get_str(c, "dir");
	p->file_size = h->get_size(c, "file_size");
	p->size = h->get_size(c, "size");
	if (io_has(t, "min_free"))
		p->min_free = h->get_size(c, "min_free");
	if (io_has(t, "files"))
		p->files = (uint64_t)h->get_int(c, "files");
	if (io_has(t, "fsync")) {
		v = h->get_str(c, "fsync");
		p->fsync = strcmp(v, "each") == 0  ? IO_FSYNC_EACH
			   : strcmp(v, "end") == 0 ? IO_FSYNC_END
						   : IO_FSYNC_NONE;
	}
	if (io_has(t, "direct"))
		p->direct = h->get_bool(c, "direct");
	if (io_has(t, "drop_caches"))
		p->drop_caches = h->get_bool(c, "drop_caches");
	if (io_has(t, "cache"))
		p->cache = h->get_bool(c, "cache");
	if (io_has(t, "mode"))
		p->read = strcmp(h->get_str(c, "mode"), "read") == 0;
}

/* Refuse parameters the table cannot express. Returns 0 or HB_EINVAL. */
static int io_params_check(const struct io_params *p, char *err, size_t errlen)
{
	if (!p->dir || !p->dir[0]) {
		snprintf(err, errlen, "dir: empty");
		return HB_EINVAL;
	}
	if (p->file_size < p->size) {
		snprintf(err, errlen,
			 "file_size %llu is smaller than one block (size %llu)",
			 (unsigned long long)p->file_size,
			 (unsigned long long)p->size);
		return HB_EINVAL;
	}
	if (p->direct && p->size % IO_ALIGN) {
		snprintf(err, errlen,
			 "size %llu: direct needs a multiple of %d bytes",
			 (unsigned long long)p->size, IO_ALIGN);
		return HB_EINVAL;
	}
	return 0;
}

/* Close and remove everything the state made, then free it. */
static void io_release(struct io_state *s)
{
	if (s->fp)
		fclose(s->fp);
	if (s->fd >= 0)
		close(s->fd);
	for (uint64_t i = 0; i < s->made; i++)
		io_file_remove(s->dirfd, s->c->worker, &s->names[i]);
	if (s->dirfd >= 0)
		close(s->dirfd);
	free(s->names);
	free(s->buf);
	free(s);
}

/*
 * Before the suite runs: parameters the option table cannot express and a
 * dir that is missing, not a directory or not writable refuse the suite,
 * naming the dir. Creates nothing; O_DIRECT support and free space are
 * known only in setup.
 */
static int io_validate(const struct hb_case *c, char *err, size_t errlen)
{
	struct io_params p = { 0 };
	int rc;

	io_params_read(c, &p);
	rc = io_params_check(&p, err, errlen);
	if (!rc)
		rc = io_dir_check(p.dir, err, errlen);
	return rc;
}

static void io_teardown(void *state)
{
	struct io_state *s = state;

	if (s->ops->teardown)
		s->ops->teardown(s);
	io_release(s);
}

static int io_setup(const struct hb_case *c, void **state, char *err,
		    size_t errlen)
{
	struct io_state *s;
	size_t i;
	int rc;

	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return HB_ENOMEM;
	}
	*s = (struct io_state){ .c = c, .dirfd = -1, .fd = -1 };
	for (i = 0; io_all_ops[i]; i++)
		if (strcmp(io_all_ops[i]->name, c->target->name) == 0)
			s->ops = io_all_ops[i];
	if (!s->ops) {
		rc = HB_ENOTSUP;
		snprintf(err, errlen, "no target io/%s", c->target->name);
		goto fail_release;
	}
	io_params_read(c, &s->p);
	rc = io_params_check(&s->p, err, errlen);
	if (rc)
		goto fail_release;
	rc = io_dir_open(s->p.dir, s->dir, sizeof(s->dir), &s->dirfd, err,
			 errlen);
	if (rc)
		goto fail_release;
	s->blocks = s->p.file_size / s->p.size;
	s->buf = io_buffer((size_t)s->p.size, c->worker + 1);
	if (!s->buf) {
		rc = HB_ENOMEM;
		snprintf(err, errlen, "block of %llu bytes: %s",
			 (unsigned long long)s->p.size, strerror(ENOMEM));
		goto fail_release;
	}
	rc = s->ops->setup(s, err, errlen);
	if (rc)
		goto fail_release;
	*state = s;
	return HB_OK;

fail_release:
	io_release(s);
	return rc;
}

static int io_run(void *state, uint64_t iterations, struct hb_done *done,
		  char *err, size_t errlen)
{
	struct io_state *s = state;

	return s->ops->run(s, iterations, done, err, errlen);
}

static const struct hb_plugin io_plugin = {
	.abi_major = HB_ABI_MAJOR,
	.abi_minor = HB_ABI_MINOR,
	.size = sizeof(struct hb_plugin),
	.name = "io",
	.version = "1.0.0",
	.summary = "file I/O: stdio, large sequential files, small files",
	.targets = io_targets,
	.setup = io_setup,
	.run = io_run,
	.teardown = io_teardown,
	.validate = io_validate,
};

HB_EXPORT const struct hb_plugin *hostbench_plugin_entry(void)
{
	return &io_plugin;
}
