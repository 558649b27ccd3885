/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The io plugin driven through the plugin ABI, with the fake host of
 * tests/support: every target runs tiny cases in a fresh directory, which
 * must be exactly as before once teardown returns. Tests that need root
 * (mounts) exit 77, which CTest shows as skipped, with the reason on stderr.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <hostbench/plugin.h>

#include "check.h"
#include "fake_host.h"

#define SKIPPED	    77
#define MAX_WORKERS 4

/* One case of one target, set up for some workers. */
struct rig {
	void *dl;
	const struct hb_plugin *p;
	struct fh_case f;
	struct hb_case cases[MAX_WORKERS];
	void *states[MAX_WORKERS];
	unsigned n;
	int up;
	char err[512];
	struct hb_done done;
};

/*
 * Load io.so and prepare target for workers with "key=value" params
 * (NULL-terminated). Returns 0 or 1 (test failure).
 */
static int rig_open(struct rig *r, const char *target, unsigned workers, ...)
{
	const struct hb_plugin *(*entry)(void);
	const struct hb_target *t;
	const char *kv;
	va_list ap;
	int bad = 0;

	memset(r, 0, sizeof(*r));
	r->dl = dlopen(HB_IO_PLUGIN, RTLD_NOW | RTLD_LOCAL);
	CHECK(r->dl);
	*(void **)&entry = dlsym(r->dl, HB_ENTRY_SYMBOL);
	CHECK(entry);
	r->p = entry();
	for (t = r->p->targets; t->name && strcmp(t->name, target); t++)
		;
	CHECK(t->name);
	fh_case_init(&r->f, t, NULL);
	va_start(ap, workers);
	while ((kv = va_arg(ap, const char *)))
		bad |= fh_set(&r->f, kv);
	va_end(ap);
	CHECK(bad == 0);
	r->n = workers;
	for (unsigned i = 0; i < workers; i++)
		r->cases[i] = fh_worker(&r->f, i, workers);
	return 0;
}

/* setup() for every worker, serially, as the core does. */
static int rig_setup(struct rig *r)
{
	for (unsigned i = 0; i < r->n; i++) {
		int rc = r->p->setup(&r->cases[i], &r->states[i], r->err,
				     sizeof(r->err));

		if (rc == HB_OK)
			continue;
		for (unsigned j = 0; j < i; j++)
			r->p->teardown(r->states[j]);
		return rc;
	}
	r->up = 1;
	return 0;
}

/* run(n) on every worker; the first error is returned. */
static int rig_run(struct rig *r, uint64_t n)
{
	for (unsigned i = 0; i < r->n; i++) {
		int rc = r->p->run(r->states[i], n, &r->done, r->err,
				   sizeof(r->err));

		if (rc)
			return rc;
	}
	return 0;
}

static void rig_teardown(struct rig *r)
{
	for (unsigned i = 0; r->up && i < r->n; i++)
		r->p->teardown(r->states[i]);
	r->up = 0;
}

static void rig_close(struct rig *r)
{
	rig_teardown(r);
	dlclose(r->dl);
}

/* A fresh, empty directory under base into buf. */
static int fresh_dir(const char *base, char *buf, size_t len)
{
	snprintf(buf, len, "%s/hbio-test-XXXXXX", base);
	return mkdtemp(buf) ? 0 : -1;
}

/*
 * What a user would compare before and after: every entry's name, type,
 * size, mode and mtime, sorted by name, as one string.
 */
static char *listing(const char *dir)
{
	struct dirent **names;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int n = scandir(dir, &names, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (strcmp(names[i]->d_name, ".") &&
		    strcmp(names[i]->d_name, "..") && lstat(path, &st) == 0)
			fprintf(f, "%s %o %lld %lld.%09ld\n", names[i]->d_name,
				st.st_mode, (long long)st.st_size,
				(long long)st.st_mtim.tv_sec,
				st.st_mtim.tv_nsec);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	fclose(f);
	return out;
}

/* Entries in dir, "." and ".." not counted. */
static int entries(const char *dir)
{
	char *l = listing(dir);
	int n = 0;

	for (char *p = l; p && *p; p++)
		n += *p == '\n';
	free(l);
	return n;
}

/* Mount a tmpfs (options, flags) on dir; root only. */
static int mount_tmpfs(const char *dir, unsigned long flags, const char *opts)
{
	if (geteuid() != 0)
		return -EPERM;
	return mount("tmpfs", dir, "tmpfs", flags, opts) ? -errno : 0;
}

/* Run target in a fresh dir: setup, run 3 x n, teardown; dir stays empty. */
static int run_clean(const char *target, unsigned workers, uint64_t n,
		     uint64_t unit_bytes, const char *p1, const char *p2,
		     const char *p3)
{
	char dir[256], dirkv[300];
	struct rig r;

	CHECK(fresh_dir("/tmp", dir, sizeof(dir)) == 0);
	snprintf(dirkv, sizeof(dirkv), "dir=%s", dir);
	CHECK(rig_open(&r, target, workers, dirkv, p1, p2, p3, NULL) == 0);
	CHECK_INT(rig_setup(&r), HB_OK);
	for (int i = 0; i < 3; i++)
		CHECK_INT(rig_run(&r, n), HB_OK);
	CHECK_INT(r.done.ops, 3 * n * workers);
	CHECK_INT(r.done.bytes, 3 * n * workers * unit_bytes);
	rig_close(&r);
	CHECK_INT(entries(dir), 0);
	CHECK(rmdir(dir) == 0);
	return 0;
}

static int fwrite_counts_blocks_across_passes(void)
{
	/* 16 blocks per file: 3 x 40 blocks wraps the file seven times */
	return run_clean("fwrite", 1, 40, 65536, "file_size=1M", "size=64K",
			 NULL);
}

static int fwrite_fsync_end_counts_blocks(void)
{
	return run_clean("fwrite", 2, 20, 65536, "file_size=1M", "fsync=end",
			 "size=64K");
}

static int fwrite_notes_free_space_and_file_size(void)
{
	char dir[256], dirkv[300], want[300];
	struct rig r;

	CHECK(fresh_dir("/tmp", dir, sizeof(dir)) == 0);
	snprintf(dirkv, sizeof(dirkv), "dir=%s", dir);
	CHECK(rig_open(&r, "fwrite", 1, dirkv, "file_size=2M", "min_free=0",
		       NULL) == 0);
	CHECK_INT(rig_setup(&r), HB_OK);
	/* the file is unlinked from the start: nothing to see in dir */
	CHECK_INT(entries(dir), 0);
	snprintf(want, sizeof(want), "GiB at %s", dir);
	CHECK_CONTAINS(fh_note(&r.f, "text"), "free space ");
	CHECK_CONTAINS(fh_note(&r.f, "text"), want);
	CHECK_STR(fh_note(&r.f, "file_size"), "2097152");
	CHECK(fh_note(&r.f, "free_space"));
	rig_close(&r);
	CHECK(rmdir(dir) == 0);
	return 0;
}

static int fwrite_skips_when_free_space_short(void)
{
	char dir[256], dirkv[300];
	struct rig r;

	CHECK(fresh_dir("/tmp", dir, sizeof(dir)) == 0);
	snprintf(dirkv, sizeof(dirkv), "dir=%s", dir);
	CHECK(rig_open(&r, "fwrite", 1, dirkv, "file_size=1M", "min_free=1000T",
		       NULL) == 0);
	CHECK_INT(rig_setup(&r), HB_SKIP);
	CHECK_CONTAINS(r.err, "free space more than 1000.00TiB needed at ");
	CHECK_CONTAINS(r.err, dir);
	rig_close(&r);
	CHECK_INT(entries(dir), 0);
	CHECK(rmdir(dir) == 0);
	return 0;
}

static int fread_counts_blocks_across_passes(void)
{
	return run_clean("fread", 2, 10, 131072, "file_size=1M", "size=128K",
			 NULL);
}

static int fread_notes_file_size_and_cache_drop(void)
{
	char dir[256], dirkv[300];
	struct rig r;

	CHECK(fresh_dir("/tmp", dir, sizeof(dir)) == 0);
	snprintf(dirkv, sizeof(dirkv), "dir=%s", dir);
	CHECK(rig_open(&r, "fread", 1, dirkv, "file_size=4M", NULL) == 0);
	CHECK_INT(rig_setup(&r), HB_OK);
	CHECK_STR(fh_note(&r.f, "text"), "file size 4.00MiB");
	CHECK_STR(fh_note(&r.f, "cache"), "fadvise");
	CHECK_INT(r.f.nwarnings, 0);
	rig_close(&r);
	CHECK(rmdir(dir) == 0);
	return 0;
}

static int fread_on_memory_fs_warns_cached(void)
{
	char dir[256], dirkv[300];
	struct rig r;

	if (fresh_dir("/dev/shm", dir, sizeof(dir)) != 0) {
		fprintf(stderr, "skipped: no /dev/shm: %s\n", strerror(errno));
		return SKIPPED;
	}
	snprintf(dirkv, sizeof(dirkv), "dir=%s", dir);
	CHECK(rig_open(&r, "fread", 1, dirkv, "file_size=1M", NULL) == 0);
	CHECK_INT(rig_setup(&r), HB_OK);
	CHECK_INT(r.f.nwarnings, 1);
	CHECK_CONTAINS(r.f.warnings[0], "served from memory");
	rig_close(&r);
	CHECK(rmdir(dir) == 0);
	return 0;
}

static int fread_with_cache_keeps_pages_and_says_so(void)
{
	char dir[256], dirkv[300];
	struct rig r;

	CHECK(fresh_dir("/tmp", dir, sizeof(dir)) == 0);
	snprintf(dirkv, sizeof(dirkv), "dir=%s", dir);
	CHECK(rig_open(&r, "fread", 1, dirkv, "file_size=1M", "cache=true",
		       NULL) == 0);
	CHECK_INT(rig_setup(&r), HB_OK);
	CHECK_STR(fh_note(&r.f, "cache"), "kept (cache = true)");
	CHECK_INT(r.f.nwarnings, 0);
	rig_close(&r);
	CHECK(rmdir(dir) == 0);
	return 0;
}

static int seq_write_counts_blocks_per_worker(void)
{
	return run_clean("seq-write", 2, 12, 262144, "file_size=2M",
			 "size=256K", NULL);
}

static int seq_write_direct_fsync_each_counts_blocks(void)
{
	return run_clean("seq-write", 1, 9, 1048576, "file_size=4M",
			 "direct=true", "fsync=each");
}

/*
 * A buffered write case (target with params p1, p2) on a real disk: two
 * samples of 3 passes over a 2M file, then teardown. The "flush" note must
 * contain flush, and "cached_after" (what stayed in the page cache after
 * the last sample) must be zero or not as cached says.
 */
static int write_case_cache(const char *target, const char *p1, const char *p2,
			    const char *flush, int cached)
{
	char dir[256], dirkv[300];
	const char *after;
	struct rig r;

	CHECK(fresh_dir("/var/tmp", dir, sizeof(dir)) == 0);
	snprintf(dirkv, sizeof(dirkv), "dir=%s", dir);
	CHECK(rig_open(&r, target, 1, dirkv, "file_size=2M", "size=256K",
		       "min_free=0", p1, p2, NULL) == 0);
	CHECK_INT(rig_setup(&r), HB_OK);
	CHECK_CONTAINS(fh_note(&r.f, "flush"), flush);
	/* the figure says on its line whether it waited for the device */
	CHECK(!strstr(fh_note(&r.f, "text"), "page cache only") == !cached);
	CHECK_INT(rig_run(&r, 24), HB_OK);
	CHECK_INT(rig_run(&r, 24), HB_OK);
	rig_teardown(&r);
	after = fh_note(&r.f, "cached_after");
	CHECK(after);
	if (cached)
		CHECK(strtoull(after, NULL, 10) > 0);
	else
		CHECK_STR(after, "0");
	rig_close(&r);
	CHECK_INT(entries(dir), 0);
	CHECK(rmdir(dir) == 0);
	return 0;
}

/* fio's direct=0 invalidate=1 end_fsync=1: what a sample wrote is flushed
 * and dropped inside it, so nothing it wrote is left in the page cache. */
static int seq_write_buffered_flushes_and_drops_what_it_wrote(void)
{
	return write_case_cache("seq-write", NULL, NULL, "end_fsync", 0);
}

static int fwrite_flushes_and_drops_what_it_wrote(void)
{
	return write_case_cache("fwrite", NULL, NULL, "end_fsync", 0);
}

/* The page-cache figure is asked for by name and says what it is. */
static int seq_write_fsync_none_is_the_page_cache_figure(void)
{
	return write_case_cache("seq-write", "fsync=none", NULL,
				"page cache only", 1);
}

static int seq_read_counts_blocks_per_worker(void)
{
	return run_clean("seq-read", 2, 12, 262144, "file_size=2M", "size=256K",
			 NULL);
}

static int seq_read_direct_counts_blocks(void)
{
	return run_clean("seq-read", 2, 5, 1048576, "file_size=2M",
			 "direct=true", NULL);
}

static int seq_direct_refuses_unaligned_block(void)
{
	char dir[256], dirkv[300];
	struct rig r;

	CHECK(fresh_dir("/tmp", dir, sizeof(dir)) == 0);
	snprintf(dirkv, sizeof(dirkv), "dir=%s", dir);
	CHECK(rig_open(&r, "seq-write", 1, dirkv, "size=1000", "direct=true",
		       NULL) == 0);
	CHECK_INT(rig_setup(&r), HB_EINVAL);
	CHECK_STR(r.err, "size 1000: direct needs a multiple of 4096 bytes");
	rig_close(&r);
	CHECK(rmdir(dir) == 0);
	return 0;
}

static int seq_direct_on_tmpfs_skips_or_runs(void)
{
	char dir[256], dirkv[300];
	struct rig r;
	int rc;

	if (fresh_dir("/dev/shm", dir, sizeof(dir)) != 0) {
		fprintf(stderr, "skipped: no /dev/shm: %s\n", strerror(errno));
		return SKIPPED;
	}
	snprintf(dirkv, sizeof(dirkv), "dir=%s", dir);
	CHECK(rig_open(&r, "seq-write", 1, dirkv, "file_size=1M", "direct=true",
		       NULL) == 0);
	rc = rig_setup(&r);
	/* tmpfs has O_DIRECT since Linux 6.6; before, it refuses it */
	if (rc == HB_SKIP) {
		CHECK_CONTAINS(r.err, "O_DIRECT not supported by the "
				      "filesystem at ");
		CHECK_CONTAINS(r.err, dir);
	} else {
		CHECK_INT(rc, HB_OK);
		CHECK_INT(rig_run(&r, 3), HB_OK);
		CHECK_INT(r.done.bytes, 3 * 1048576);
	}
	rig_close(&r);
	CHECK_INT(entries(dir), 0);
	CHECK(rmdir(dir) == 0);
	return 0;
}

static int small_files_write_counts_files(void)
{
	return run_clean("small-files", 2, 11, 65536, "files=8", "mode=write",
			 NULL);
}

static int small_files_read_counts_files(void)
{
	return run_clean("small-files", 2, 11, 65536, "files=8", "mode=read",
			 NULL);
}

static int small_files_direct_read_counts_files(void)
{
	return run_clean("small-files", 1, 20, 65536, "files=5", "direct=true",
			 "mode=read");
}

static int small_files_carry_crash_cleanup_names(void)
{
	char dir[256], dirkv[300], prefix[64];
	struct dirent **names;
	struct stat st;
	struct rig r;
	int n;

	CHECK(fresh_dir("/tmp", dir, sizeof(dir)) == 0);
	snprintf(dirkv, sizeof(dirkv), "dir=%s", dir);
	CHECK(rig_open(&r, "small-files", 1, dirkv, "files=6", NULL) == 0);
	CHECK_INT(rig_setup(&r), HB_OK);
	/* the names the core removes if the case's process is killed */
	snprintf(prefix, sizeof(prefix), ".hostbench-%ld-0-", (long)getpid());
	n = scandir(dir, &names, NULL, alphasort);
	CHECK_INT(n, 2 + 6);
	for (int i = 0; i < n; i++) {
		char path[600];

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (names[i]->d_name[1] && strcmp(names[i]->d_name, "..")) {
			CHECK(strncmp(names[i]->d_name, prefix,
				      strlen(prefix)) == 0);
			CHECK(lstat(path, &st) == 0);
			CHECK(S_ISREG(st.st_mode));
			CHECK_INT(st.st_mode & 0777, 0600);
			CHECK_INT(st.st_size, 65536);
		}
		free(names[i]);
	}
	free(names);
	CHECK_STR(fh_note(&r.f, "text"),
		  "6 files of 64.00KiB, page cache only");
	rig_close(&r);
	CHECK_INT(entries(dir), 0);
	CHECK(rmdir(dir) == 0);
	return 0;
}

static int small_files_refuse_a_replaced_file(void)
{
	char dir[256], dirkv[300], path[600], moved[700];
	struct rig r;

	CHECK(fresh_dir("/tmp", dir, sizeof(dir)) == 0);
	snprintf(dirkv, sizeof(dirkv), "dir=%s", dir);
	CHECK(rig_open(&r, "small-files", 1, dirkv, "files=2", NULL) == 0);
	CHECK_INT(rig_setup(&r), HB_OK);
	/*
	 * Someone moves the second file away and puts one of their own in
	 * its place (moved, not removed, so its inode cannot be reused).
	 */
	snprintf(path, sizeof(path), "%s/.hostbench-%ld-0-1", dir,
		 (long)getpid());
	snprintf(moved, sizeof(moved), "%s.moved", path);
	CHECK(rename(path, moved) == 0);
	CHECK(close(open(path, O_WRONLY | O_CREAT | O_EXCL, 0600)) == 0);
	CHECK_INT(rig_run(&r, 2), HB_EIO);
	CHECK_CONTAINS(r.err, "replaced by another file");
	rig_close(&r);
	/* theirs stays, untouched: teardown removed only its own name */
	CHECK_INT(entries(dir), 2);
	CHECK(unlink(path) == 0);
	CHECK(unlink(moved) == 0);
	CHECK(rmdir(dir) == 0);
	return 0;
}

static int small_files_refuse_a_fifo_in_place_of_a_file(void)
{
	char dir[256], dirkv[300], path[600], moved[700];
	struct rig r;

	/* an open that waits for a reader fails the test, not the suite */
	alarm(60);
	CHECK(fresh_dir("/tmp", dir, sizeof(dir)) == 0);
	snprintf(dirkv, sizeof(dirkv), "dir=%s", dir);
	CHECK(rig_open(&r, "small-files", 1, dirkv, "files=2", NULL) == 0);
	CHECK_INT(rig_setup(&r), HB_OK);
	snprintf(path, sizeof(path), "%s/.hostbench-%ld-0-1", dir,
		 (long)getpid());
	snprintf(moved, sizeof(moved), "%s.moved", path);
	CHECK(rename(path, moved) == 0);
	CHECK(mkfifo(path, 0600) == 0);
	CHECK_INT(rig_run(&r, 2), HB_EIO);
	CHECK_CONTAINS(r.err, "replaced by another file");
	rig_close(&r);
	alarm(0);
	CHECK(unlink(path) == 0);
	CHECK(unlink(moved) == 0);
	CHECK(rmdir(dir) == 0);
	return 0;
}

static int small_files_size_that_wraps_64_bits_skips_for_space(void)
{
	char dir[256], dirkv[300];
	struct rig r;

	CHECK(fresh_dir("/tmp", dir, sizeof(dir)) == 0);
	snprintf(dirkv, sizeof(dirkv), "dir=%s", dir);
	/* 16384 files x 1 PiB = 2^64 bytes: 0 once wrapped */
	CHECK(rig_open(&r, "small-files", 1, dirkv, "files=16384",
		       "file_size=1P", "size=1M", NULL) == 0);
	CHECK_INT(rig_setup(&r), HB_SKIP);
	CHECK_CONTAINS(r.err, "free space");
	rig_close(&r);
	CHECK_INT(entries(dir), 0);
	CHECK(rmdir(dir) == 0);
	return 0;
}

static int validate_names_a_missing_dir(void)
{
	struct rig r;

	CHECK(rig_open(&r, "small-files", 1, "dir=/nonexistent/hbio", NULL) ==
	      0);
	CHECK(r.p->validate);
	CHECK_INT(r.p->validate(&r.cases[0], r.err, sizeof(r.err)), HB_EINVAL);
	CHECK_STR(r.err, "dir /nonexistent/hbio: No such file or directory");
	rig_close(&r);
	return 0;
}

static int validate_accepts_a_dir_and_creates_nothing(void)
{
	char dir[256], dirkv[300];
	struct rig r;

	CHECK(fresh_dir("/tmp", dir, sizeof(dir)) == 0);
	snprintf(dirkv, sizeof(dirkv), "dir=%s", dir);
	CHECK(rig_open(&r, "seq-read", 1, dirkv, "direct=true", NULL) == 0);
	CHECK_INT(r.p->validate(&r.cases[0], r.err, sizeof(r.err)), HB_OK);
	CHECK_INT(entries(dir), 0);
	rig_close(&r);
	CHECK(rmdir(dir) == 0);
	return 0;
}

static int validate_refuses_unaligned_direct_block(void)
{
	struct rig r;

	CHECK(rig_open(&r, "small-files", 1, "dir=/tmp", "direct=true",
		       "size=1000", NULL) == 0);
	CHECK_INT(r.p->validate(&r.cases[0], r.err, sizeof(r.err)), HB_EINVAL);
	CHECK_STR(r.err, "size 1000: direct needs a multiple of 4096 bytes");
	rig_close(&r);
	return 0;
}

static int preexisting_files_are_untouched(void)
{
	static const char *const targets[] = { "fwrite", "fread", "seq-write",
					       "seq-read", "small-files" };
	char dir[256], dirkv[300], path[600], *before, *after;
	struct timeval old[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
	struct rig r;
	FILE *f;

	CHECK(fresh_dir("/tmp", dir, sizeof(dir)) == 0);
	/* the very names the plugin tries first, for both workers */
	for (int w = 0; w < 2; w++) {
		snprintf(path, sizeof(path), "%s/.hostbench-%ld-%d-0", dir,
			 (long)getpid(), w);
		f = fopen(path, "w");
		CHECK(f);
		fputs("keep me\n", f);
		fclose(f);
		CHECK(utimes(path, old) == 0);
	}
	before = listing(dir);
	snprintf(dirkv, sizeof(dirkv), "dir=%s", dir);
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		CHECK(rig_open(&r, targets[i], 2, dirkv, "file_size=1M",
			       "min_free=0", NULL) == 0);
		CHECK_INT(rig_setup(&r), HB_OK);
		CHECK_INT(rig_run(&r, 20), HB_OK);
		rig_close(&r);
		after = listing(dir);
		CHECK_STR(after, before);
		free(after);
	}
	f = fopen(path, "r");
	CHECK(f);
	CHECK(fgets(path, sizeof(path), f));
	fclose(f);
	CHECK_STR(path, "keep me\n");
	free(before);
	for (int w = 0; w < 2; w++) {
		snprintf(path, sizeof(path), "%s/.hostbench-%ld-%d-0", dir,
			 (long)getpid(), w);
		CHECK(unlink(path) == 0);
	}
	CHECK(rmdir(dir) == 0);
	return 0;
}

static int missing_dir_is_named(void)
{
	struct rig r;

	CHECK(rig_open(&r, "seq-write", 1, "dir=/nonexistent/hbio", NULL) == 0);
	CHECK_INT(rig_setup(&r), HB_EINVAL);
	CHECK_STR(r.err, "dir /nonexistent/hbio: No such file or directory");
	rig_close(&r);
	return 0;
}

static int file_as_dir_is_named(void)
{
	char dir[256], file[300], dirkv[320], want[400];
	struct rig r;

	CHECK(fresh_dir("/tmp", dir, sizeof(dir)) == 0);
	snprintf(file, sizeof(file), "%s/file", dir);
	CHECK(close(open(file, O_WRONLY | O_CREAT | O_EXCL, 0600)) == 0);
	snprintf(dirkv, sizeof(dirkv), "dir=%s", file);
	CHECK(rig_open(&r, "fwrite", 1, dirkv, NULL) == 0);
	CHECK_INT(rig_setup(&r), HB_EINVAL);
	snprintf(want, sizeof(want), "dir %s: Not a directory", file);
	CHECK_STR(r.err, want);
	rig_close(&r);
	CHECK(unlink(file) == 0);
	CHECK(rmdir(dir) == 0);
	return 0;
}

static int readonly_dir_is_named(void)
{
	char dir[256], dirkv[300], want[300];
	struct rig r;
	int rc;

	CHECK(fresh_dir("/tmp", dir, sizeof(dir)) == 0);
	/* root writes through any mode: only a read-only mount stops it */
	rc = geteuid() == 0 ? mount_tmpfs(dir, MS_RDONLY, "size=1m")
			    : chmod(dir, 0500);
	if (rc) {
		fprintf(stderr, "skipped: cannot make %s read-only: %s\n", dir,
			strerror(-rc));
		rmdir(dir);
		return SKIPPED;
	}
	snprintf(dirkv, sizeof(dirkv), "dir=%s", dir);
	CHECK(rig_open(&r, "small-files", 1, dirkv, NULL) == 0);
	CHECK_INT(rig_setup(&r), HB_EINVAL);
	snprintf(want, sizeof(want), "dir %s: not writable: %s", dir,
		 strerror(geteuid() == 0 ? EROFS : EACCES));
	CHECK_STR(r.err, want);
	rig_close(&r);
	if (geteuid() == 0)
		CHECK(umount(dir) == 0);
	CHECK(rmdir(dir) == 0);
	return 0;
}

static int full_filesystem_fails_run_and_cleans_up(void)
{
	char dir[256], dirkv[300], filler[300];
	char block[4096] = { 1 };
	struct rig r;
	int rc, fd;

	CHECK(fresh_dir("/tmp", dir, sizeof(dir)) == 0);
	rc = mount_tmpfs(dir, 0, "size=4m");
	if (rc) {
		fprintf(stderr, "skipped: cannot mount a small tmpfs: %s\n",
			strerror(-rc));
		rmdir(dir);
		return SKIPPED;
	}
	snprintf(dirkv, sizeof(dirkv), "dir=%s", dir);
	CHECK(rig_open(&r, "fwrite", 1, dirkv, "file_size=2M", "size=64K",
		       "min_free=0", NULL) == 0);
	CHECK_INT(rig_setup(&r), HB_OK);
	/* someone else fills the filesystem while the case runs */
	snprintf(filler, sizeof(filler), "%s/filler", dir);
	fd = open(filler, O_WRONLY | O_CREAT | O_EXCL, 0600);
	CHECK(fd >= 0);
	while (write(fd, block, sizeof(block)) > 0)
		;
	close(fd);
	CHECK_INT(rig_run(&r, 64), HB_EIO);
	CHECK_CONTAINS(r.err, strerror(ENOSPC));
	CHECK_CONTAINS(r.err, dir);
	rig_close(&r);
	CHECK_INT(entries(dir), 1);
	CHECK(unlink(filler) == 0);
	CHECK(umount(dir) == 0);
	CHECK(rmdir(dir) == 0);
	return 0;
}

/* One line per test: CMakeLists.txt reads the names from them. */
/* clang-format off */
static const struct test tests[] = {
	{"fwrite_counts_blocks_across_passes", fwrite_counts_blocks_across_passes},
	{"fwrite_fsync_end_counts_blocks", fwrite_fsync_end_counts_blocks},
	{"fwrite_notes_free_space_and_file_size", fwrite_notes_free_space_and_file_size},
	{"fwrite_skips_when_free_space_short", fwrite_skips_when_free_space_short},
	{"fread_counts_blocks_across_passes", fread_counts_blocks_across_passes},
	{"fread_notes_file_size_and_cache_drop", fread_notes_file_size_and_cache_drop},
	{"fread_on_memory_fs_warns_cached", fread_on_memory_fs_warns_cached},
	{"fread_with_cache_keeps_pages_and_says_so", fread_with_cache_keeps_pages_and_says_so},
	{"seq_write_counts_blocks_per_worker", seq_write_counts_blocks_per_worker},
	{"seq_write_direct_fsync_each_counts_blocks", seq_write_direct_fsync_each_counts_blocks},
	{"seq_write_buffered_flushes_and_drops_what_it_wrote", seq_write_buffered_flushes_and_drops_what_it_wrote},
	{"fwrite_flushes_and_drops_what_it_wrote", fwrite_flushes_and_drops_what_it_wrote},
	{"seq_write_fsync_none_is_the_page_cache_figure", seq_write_fsync_none_is_the_page_cache_figure},
	{"seq_read_counts_blocks_per_worker", seq_read_counts_blocks_per_worker},
	{"seq_read_direct_counts_blocks", seq_read_direct_counts_blocks},
	{"seq_direct_refuses_unaligned_block", seq_direct_refuses_unaligned_block},
	{"seq_direct_on_tmpfs_skips_or_runs", seq_direct_on_tmpfs_skips_or_runs},
	{"small_files_write_counts_files", small_files_write_counts_files},
	{"small_files_read_counts_files", small_files_read_counts_files},
	{"small_files_direct_read_counts_files", small_files_direct_read_counts_files},
	{"small_files_carry_crash_cleanup_names", small_files_carry_crash_cleanup_names},
	{"small_files_refuse_a_replaced_file", small_files_refuse_a_replaced_file},
	{"small_files_refuse_a_fifo_in_place_of_a_file", small_files_refuse_a_fifo_in_place_of_a_file},
	{"small_files_size_that_wraps_64_bits_skips_for_space", small_files_size_that_wraps_64_bits_skips_for_space},
	{"validate_names_a_missing_dir", validate_names_a_missing_dir},
	{"validate_accepts_a_dir_and_creates_nothing", validate_accepts_a_dir_and_creates_nothing},
	{"validate_refuses_unaligned_direct_block", validate_refuses_unaligned_direct_block},
	{"preexisting_files_are_untouched", preexisting_files_are_untouched},
	{"missing_dir_is_named", missing_dir_is_named},
	{"file_as_dir_is_named", file_as_dir_is_named},
	{"readonly_dir_is_named", readonly_dir_is_named},
	{"full_filesystem_fails_run_and_cleans_up", full_filesystem_fails_run_and_cleans_up},
};
/* clang-format on */

/* As check_main(), but one named test's own status is the exit status. */
int main(int argc, char **argv)
{
	for (size_t i = 0; argc == 2 && i < sizeof(tests) / sizeof(*tests); i++)
		if (strcmp(argv[1], tests[i].name) == 0)
			return tests[i].fn();
	return check_main(tests, sizeof(tests) / sizeof(*tests), argc, argv);
}
