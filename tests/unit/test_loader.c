/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The plugin loader against the fixture plugins of tests/fixtures: what
 * loads, what is refused and the line a user reads about it, and the
 * order of the search path.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/command.h"
#include "check.h"
#include "plugin/loader.h"
#include "plugin/registry.h"
#include "plugin/scan.h"

#define FIXTURE(dir, file) HB_FIXTURE_DIR "/" dir "/" file ".so"

/* snprintf into the array buf, failing the test if the text did not fit. */
#define FORMAT(buf, ...)                                                       \
	CHECK(snprintf(buf, sizeof(buf), __VA_ARGS__) < (int)sizeof(buf))

/* A registry loaded from dirs, and everything the loader wrote to diag. */
struct loaded {
	struct registry reg;
	char *diag;
	size_t diaglen;
};

static void load(struct loaded *l, const char *const *dirs, size_t n)
{
	FILE *diag;

	memset(l, 0, sizeof(*l));
	diag = open_memstream(&l->diag, &l->diaglen);
	if (scan_load(&l->reg, dirs, n, diag) != 0)
		fprintf(stderr, "scan_load failed\n");
	fclose(diag);
}

static void unload(struct loaded *l)
{
	scan_free(&l->reg);
	free(l->diag);
}

static size_t count_lines(const char *text)
{
	size_t n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/*
 * Load the one fixture of HB_FIXTURE_DIR/scenario and check it is refused
 * with a reason containing want, and said so in exactly one line.
 */
static int expect_refused(const char *scenario, const char *want)
{
	char dir[PATH_MAX], path[PATH_MAX], line[1024];
	const char *dirs[] = { dir };
	struct loaded l;

	FORMAT(dir, "%s/%s", HB_FIXTURE_DIR, scenario);
	FORMAT(path, "%s/%s.so", dir, scenario);
	load(&l, dirs, 1);
	CHECK_INT(l.reg.n, 0);
	CHECK_INT(l.reg.nrefused, 1);
	CHECK_STR(l.reg.refused[0].path, path);
	CHECK_CONTAINS(l.reg.refused[0].reason, want);
	FORMAT(line, "loader: %s: refused: %s\n", path,
	       l.reg.refused[0].reason);
	CHECK_STR(l.diag, line);
	unload(&l);
	return 0;
}

/* A new private directory under TMPDIR, or NULL. */
static char *make_tempdir(char *buf, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	if (snprintf(buf, len, "%s/hb-loader-XXXXXX",
		     tmp && *tmp ? tmp : "/tmp") >= (int)len)
		return NULL;
	return mkdtemp(buf);
}

/* Copy the file src to dir/name with mode. */
static int copy_file(const char *src, const char *dir, const char *name,
		     mode_t mode)
{
	char dst[PATH_MAX], buf[65536];
	FILE *in = fopen(src, "rb"), *out;
	size_t n;
	int err = 0;

	if (snprintf(dst, sizeof(dst), "%s/%s", dir, name) >= (int)sizeof(dst))
		dst[0] = '\0';
	out = fopen(dst, "wb");
	if (!in || !out) {
		fprintf(stderr, "copy %s to %s: %s\n", src, dst,
			strerror(errno));
		err = -1;
	}
	while (!err && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			err = -1;
	if (in)
		fclose(in);
	if (out && fclose(out))
		err = -1;
	if (!err && chmod(dst, mode))
		err = -1;
	return err;
}

/* Remove a directory holding only files. */
static void remove_tempdir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX];

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) <
		    (int)sizeof(path))
			unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

static int good_plugin_loads_with_target_and_options(void)
{
	const char *dirs[] = { HB_FIXTURE_DIR "/good" };
	const struct hb_target *t = NULL;
	const struct plugin *p;
	struct loaded l;

	load(&l, dirs, 1);
	CHECK_INT(l.reg.n, 1);
	CHECK_INT(l.reg.nrefused, 0);
	CHECK_STR(l.diag, "");
	p = registry_find(&l.reg, "fixture/spin", "fixture", &t);
	CHECK(p != NULL);
	CHECK_STR(p->path, FIXTURE("good", "fixture"));
	CHECK_STR(t->options[0].name, "size");
	CHECK_INT(t->options[0].type, HB_OPT_SIZE);
	CHECK_STR(t->options[0].def, "4K");
	CHECK_STR(t->options[1].name, "mode");
	CHECK_INT(t->options[1].type, HB_OPT_ENUM);
	CHECK_STR(t->options[1].choices[1], "b");
	unload(&l);
	return 0;
}

static int describe_fills_libraries_and_unusable(void)
{
	const char *dirs[] = { HB_FIXTURE_DIR "/good" };
	struct loaded l;

	load(&l, dirs, 1);
	CHECK_INT(l.reg.n, 1);
	CHECK_STR(kvlist_get(&l.reg.plugins[0].libraries, "fixture-lib"),
		  "1.2.3");
	CHECK_STR(registry_unusable(&l.reg.plugins[0], "fixture/unusable"),
		  "fixture: never usable on any host");
	CHECK(registry_unusable(&l.reg.plugins[0], "fixture/spin") == NULL);
	unload(&l);
	return 0;
}

/* The host API calls the good fixture's setup makes: size, then noise. */
static uint64_t size_4k(const struct hb_case *c, const char *name)
{
	(void)c;
	return strcmp(name, "size") == 0 ? 4096 : 0;
}

static int64_t no_noise(const struct hb_case *c, const char *name)
{
	(void)c;
	(void)name;
	return 0;
}

static int good_fixture_runs_and_counts_its_work(void)
{
	const char *dirs[] = { HB_FIXTURE_DIR "/good" };
	const struct hb_host host = { .size = sizeof(host),
				      .get_size = size_4k,
				      .get_int = no_noise };
	struct hb_case c = { .host = &host, .workers = 1 };
	struct hb_done done = { 0 };
	const struct hb_plugin *d;
	const struct plugin *live;
	struct loaded l;
	char err[128] = "";
	void *state = NULL;

	load(&l, dirs, 1);
	CHECK_INT(l.reg.n, 1);
	/* the registry holds the probe's copy: data, never plugin code */
	CHECK(l.reg.plugins[0].desc->setup == NULL);
	live = loader_live(&l.reg.plugins[0], err, sizeof(err));
	CHECK(live != NULL);
	d = live->desc;
	c.target = &d->targets[0];
	CHECK_INT(d->setup(&c, &state, err, sizeof(err)), 0);
	CHECK_INT(d->run(state, 10, &done, err, sizeof(err)), 0);
	CHECK_INT(d->run(state, 5, &done, err, sizeof(err)), 0);
	d->teardown(state);
	CHECK_INT(done.bytes, 15 * 4096);
	CHECK_INT(done.ops, 15);
	unload(&l);
	return 0;
}

static int refuses_other_abi_major(void)
{
	char want[128];

	FORMAT(want, "built for ABI %d.%d, this hostbench speaks %d.%d",
	       HB_ABI_MAJOR + 1, HB_ABI_MINOR, HB_ABI_MAJOR, HB_ABI_MINOR);
	return expect_refused("abi-major", want);
}

static int refuses_newer_abi_minor(void)
{
	char want[128];

	FORMAT(want,
	       "built for ABI %d.%d, this hostbench speaks %d.%d: update "
	       "hostbench",
	       HB_ABI_MAJOR, HB_ABI_MINOR + 1, HB_ABI_MAJOR, HB_ABI_MINOR);
	return expect_refused("abi-minor-newer", want);
}

static int refuses_short_descriptor(void)
{
	char want[128];

	FORMAT(want, "descriptor is %zu bytes, ABI %d.%d needs %zu",
	       sizeof(struct hb_plugin) - sizeof(void *), HB_ABI_MAJOR,
	       HB_ABI_MINOR, sizeof(struct hb_plugin));
	return expect_refused("short-descriptor", want);
}

static int refuses_plugin_without_entry(void)
{
	return expect_refused("no-entry",
			      "exports no hostbench_plugin_entry()");
}

static int refuses_entry_returning_null(void)
{
	return expect_refused("entry-null",
			      "hostbench_plugin_entry() returned NULL");
}

static int refuses_null_run_slot(void)
{
	return expect_refused("null-run", "has no run function");
}

static int refuses_empty_backend_name(void)
{
	return expect_refused("no-name", "has no backend name");
}

static int refuses_plugin_without_targets(void)
{
	return expect_refused("no-targets", "offers no targets");
}

static int refuses_target_without_group(void)
{
	return expect_refused("no-group",
			      "target 2 (\"nogroup\") has no group");
}

static int refuses_target_offered_twice(void)
{
	return expect_refused("dup-target",
			      "target fixture/spin offered twice");
}

static int refuses_option_of_unknown_type(void)
{
	return expect_refused(
		"bad-type", "fixture/spin option \"size\" has unknown type 99");
}

static int refuses_enum_without_choices(void)
{
	return expect_refused(
		"enum-without-choices",
		"fixture/spin option \"mode\" is an enum without choices");
}

static int refuses_default_that_is_not_a_size(void)
{
	return expect_refused(
		"bad-default",
		"fixture/spin option \"size\": default \"12Q\" is not a size");
}

static int refuses_default_outside_bounds(void)
{
	return expect_refused("out-of-bounds",
			      "fixture/spin option \"size\": default \"2G\" is "
			      "outside its bounds 1..1073741824");
}

static int refuses_option_declared_twice(void)
{
	return expect_refused("dup-option",
			      "fixture/spin option \"mode\" declared twice");
}

static int refuses_option_named_like_a_core_key(void)
{
	return expect_refused(
		"core-key-option",
		"fixture/spin option \"parallel\" is a key the core reads");
}

static int refuses_composite_with_unknown_part(void)
{
	return expect_refused("unknown-part",
			      "target fixture/composite names part "
			      "fixture/nothing, which this plugin does not "
			      "offer");
}

static int refuses_target_with_group_but_no_name(void)
{
	return expect_refused("nameless-target",
			      "target 2 has a group but no name");
}

static int refuses_failing_describe(void)
{
	return expect_refused(
		"describe-fails",
		"describe() failed: fixture: cannot query the device");
}

static int refuses_missing_library_naming_it(void)
{
	return expect_refused("missing-lib",
			      "needs libhbfixture-absent.so.1, which is not "
			      "installed (libhbfixture-absent.so.1: cannot "
			      "open shared object file");
}

static int refuses_world_writable_directory(void)
{
	char dir[PATH_MAX], path[PATH_MAX], want[PATH_MAX + 64];
	const char *dirs[] = { dir };
	struct loaded l;

	CHECK(make_tempdir(dir, sizeof(dir)));
	CHECK_INT(
		copy_file(FIXTURE("good", "fixture"), dir, "fixture.so", 0755),
		0);
	CHECK_INT(chmod(dir, 0777), 0);
	load(&l, dirs, 1);
	remove_tempdir(dir);
	FORMAT(path, "%s/fixture.so", dir);
	FORMAT(want,
	       "loader: %s: refused: directory %s is writable by others "
	       "(mode 0777; fix: chmod go-w %s)\n",
	       path, dir, dir);
	CHECK_INT(l.reg.n, 0);
	CHECK_INT(l.reg.nrefused, 1);
	CHECK_STR(l.reg.refused[0].path, path);
	CHECK_STR(l.diag, want);
	unload(&l);
	return 0;
}

static int runs_no_code_from_writable_plugin(void)
{
	char dir[PATH_MAX], path[PATH_MAX];
	const char *dirs[] = { dir };
	struct loaded l;

	CHECK(make_tempdir(dir, sizeof(dir)));
	FORMAT(path, "%s/fixture.so", dir);
	CHECK_INT(
		copy_file(FIXTURE("good", "fixture"), dir, "fixture.so", 0777),
		0);
	CHECK_INT(unsetenv("HB_FIXTURE_RAN"), 0);
	load(&l, dirs, 1);
	CHECK_INT(l.reg.nrefused, 1);
	CHECK(getenv("HB_FIXTURE_RAN") == NULL);
	unload(&l);
	/* The same file, once safe, loads: in its probe, never here. */
	CHECK_INT(chmod(path, 0755), 0);
	load(&l, dirs, 1);
	remove_tempdir(dir);
	CHECK_INT(l.reg.n, 1);
	CHECK(getenv("HB_FIXTURE_RAN") == NULL);
	unload(&l);
	return 0;
}

static int refuses_world_writable_file(void)
{
	char dir[PATH_MAX], want[PATH_MAX * 2 + 64];
	const char *dirs[] = { dir };
	struct loaded l;

	CHECK(make_tempdir(dir, sizeof(dir)));
	CHECK_INT(
		copy_file(FIXTURE("good", "fixture"), dir, "fixture.so", 0666),
		0);
	load(&l, dirs, 1);
	remove_tempdir(dir);
	FORMAT(want,
	       "loader: %s/fixture.so: refused: file %s/fixture.so is "
	       "writable by others (mode 0666; fix: chmod go-w "
	       "%s/fixture.so)\n",
	       dir, dir, dir);
	CHECK_INT(l.reg.n, 0);
	CHECK_INT(l.reg.nrefused, 1);
	CHECK_STR(l.diag, want);
	unload(&l);
	return 0;
}

static int refuses_file_of_another_user(void)
{
	char dir[PATH_MAX], path[PATH_MAX];
	const char *dirs[] = { dir };
	struct loaded l;

	CHECK(make_tempdir(dir, sizeof(dir)));
	CHECK_INT(
		copy_file(FIXTURE("good", "fixture"), dir, "fixture.so", 0755),
		0);
	FORMAT(path, "%s/fixture.so", dir);
	if (chown(path, 4242, 4242) != 0) { /* needs root: CI runs as root */
		remove_tempdir(dir);
		fprintf(stderr, "skipped: chown needs root\n");
		return 0;
	}
	load(&l, dirs, 1);
	remove_tempdir(dir);
	CHECK_INT(l.reg.n, 0);
	CHECK_INT(l.reg.nrefused, 1);
	CHECK_CONTAINS(l.reg.refused[0].reason,
		       "belongs to user 4242, neither you nor root");
	unload(&l);
	return 0;
}

static int refuses_group_writable_file(void)
{
	char dir[PATH_MAX];
	const char *dirs[] = { dir };
	struct loaded l;

	CHECK(make_tempdir(dir, sizeof(dir)));
	CHECK_INT(
		copy_file(FIXTURE("good", "fixture"), dir, "fixture.so", 0775),
		0);
	load(&l, dirs, 1);
	remove_tempdir(dir);
	CHECK_INT(l.reg.n, 0);
	CHECK_INT(l.reg.nrefused, 1);
	CHECK_CONTAINS(l.reg.refused[0].reason,
		       "fixture.so is writable by group (mode 0775; fix: ");
	unload(&l);
	return 0;
}

static int refuses_second_file_with_same_backend_and_target(void)
{
	char dir[PATH_MAX], first[PATH_MAX + 32], want[PATH_MAX + 128];
	const char *dirs[] = { dir };
	struct loaded l;

	CHECK(make_tempdir(dir, sizeof(dir)));
	CHECK_INT(copy_file(FIXTURE("good", "fixture"), dir, "a.so", 0755), 0);
	CHECK_INT(copy_file(FIXTURE("good", "fixture"), dir, "b.so", 0755), 0);
	load(&l, dirs, 1);
	remove_tempdir(dir);
	FORMAT(first, "%s/a.so", dir);
	FORMAT(want,
	       "backend \"fixture\" already offers fixture/spin (from %s)",
	       first);
	CHECK_INT(l.reg.n, 1);
	CHECK_STR(l.reg.plugins[0].path, first);
	CHECK_INT(l.reg.nrefused, 1);
	CHECK_CONTAINS(l.reg.refused[0].path, "/b.so");
	CHECK_STR(l.reg.refused[0].reason, want);
	CHECK_INT(count_lines(l.diag), 1);
	unload(&l);
	return 0;
}

static int bad_plugin_does_not_stop_good_one(void)
{
	char dir[PATH_MAX];
	const char *dirs[] = { dir };
	struct loaded l;

	CHECK(make_tempdir(dir, sizeof(dir)));
	CHECK_INT(
		copy_file(FIXTURE("abi-major", "abi-major"), dir, "a.so", 0755),
		0);
	CHECK_INT(copy_file(FIXTURE("good", "fixture"), dir, "b.so", 0755), 0);
	load(&l, dirs, 1);
	remove_tempdir(dir);
	CHECK_INT(l.reg.n, 1);
	CHECK_CONTAINS(l.reg.plugins[0].path, "/b.so");
	CHECK_INT(l.reg.nrefused, 1);
	CHECK_CONTAINS(l.reg.refused[0].path, "/a.so");
	CHECK_INT(count_lines(l.diag), 1);
	unload(&l);
	return 0;
}

static int every_refusal_is_one_line(void)
{
	const char *dirs[] = {
		HB_FIXTURE_DIR "/abi-major",	  HB_FIXTURE_DIR "/missing-lib",
		HB_FIXTURE_DIR "/describe-fails", HB_FIXTURE_DIR "/null-run",
		HB_FIXTURE_DIR "/good",
	};
	struct loaded l;

	load(&l, dirs, sizeof(dirs) / sizeof(dirs[0]));
	CHECK_INT(l.reg.n, 1);
	CHECK_INT(l.reg.nrefused, 4);
	CHECK_INT(count_lines(l.diag), 4);
	unload(&l);
	return 0;
}

static int behaviour_plugins_load_side_by_side(void)
{
	const char *dirs[] = { HB_FIXTURE_DIR "/behaviour",
			       HB_FIXTURE_DIR "/good" };
	struct loaded l;

	load(&l, dirs, 2);
	CHECK_INT(l.reg.n, 4);
	CHECK_INT(l.reg.nrefused, 0);
	CHECK(registry_find(&l.reg, "fixture/spin", "fixture-setup-fails",
			    NULL));
	CHECK(registry_find(&l.reg, "fixture/spin", "fixture-setup-skips",
			    NULL));
	CHECK(registry_find(&l.reg, "fixture/spin", "fixture-run-fails", NULL));
	CHECK(registry_find(&l.reg, "fixture/spin", "fixture", NULL));
	unload(&l);
	return 0;
}

static int earlier_directory_wins_for_same_file_name(void)
{
	char a[PATH_MAX], b[PATH_MAX], want[PATH_MAX + 32];
	const char *dirs[] = { a, b };
	struct loaded l;

	CHECK(make_tempdir(a, sizeof(a)));
	CHECK(make_tempdir(b, sizeof(b)));
	CHECK_INT(copy_file(FIXTURE("good", "fixture"), a, "x.so", 0755), 0);
	CHECK_INT(copy_file(FIXTURE("abi-major", "abi-major"), b, "x.so", 0755),
		  0);
	load(&l, dirs, 2);
	remove_tempdir(a);
	remove_tempdir(b);
	FORMAT(want, "%s/x.so", a);
	CHECK_INT(l.reg.n, 1);
	CHECK_STR(l.reg.plugins[0].path, want);
	CHECK_INT(l.reg.nrefused, 0);
	CHECK_STR(l.diag, "");
	unload(&l);
	return 0;
}

static int missing_directory_is_skipped_silently(void)
{
	const char *dirs[] = { HB_FIXTURE_DIR "/no-such-directory",
			       HB_FIXTURE_DIR "/good" };
	struct loaded l;

	load(&l, dirs, 2);
	CHECK_INT(l.reg.n, 1);
	CHECK_INT(l.reg.nrefused, 0);
	CHECK_STR(l.diag, "");
	unload(&l);
	return 0;
}

static int plugin_dirs_puts_cli_then_env_then_binary(void)
{
	char a[PATH_MAX], b[PATH_MAX], c[PATH_MAX], env[PATH_MAX * 3];
	char exe[PATH_MAX];
	struct strlist cli = { 0 }, out = { 0 };
	ssize_t len;

	CHECK(make_tempdir(a, sizeof(a)));
	CHECK(make_tempdir(b, sizeof(b)));
	CHECK(make_tempdir(c, sizeof(c)));
	CHECK_INT(strlist_push(&cli, a), 0);
	CHECK_INT(strlist_push(&cli, b), 0);
	/* Empty entries are ignored; a repeat of a --plugin-dir is dropped. */
	FORMAT(env, "%s::%s/../%s:", c, a, strrchr(a, '/') + 1);
	CHECK_INT(setenv("HOSTBENCH_PLUGIN_PATH", env, 1), 0);
	CHECK_INT(plugin_dirs(&out, &cli, NULL), 0);
	rmdir(a);
	rmdir(b);
	rmdir(c);
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	CHECK(len > 0);
	exe[len] = '\0';
	*strrchr(exe, '/') = '\0';
	CHECK(out.n >= 5);
	CHECK_STR(out.items[0], a);
	CHECK_STR(out.items[1], b);
	CHECK_STR(out.items[2], c);
	CHECK_STR(out.items[3], exe);
	CHECK_STR(out.items[out.n - 1], HB_INSTALL_PLUGIN_DIR);
	for (size_t i = 0; i < out.n; i++)
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(out.items[i], out.items[j]) != 0);
	strlist_free(&cli);
	strlist_free(&out);
	return 0;
}

static int plugin_dirs_without_cli_or_env_starts_at_binary(void)
{
	struct strlist out = { 0 };
	char exe[PATH_MAX], plugins[PATH_MAX + 16];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	CHECK(len > 0);
	exe[len] = '\0';
	*strrchr(exe, '/') = '\0';
	FORMAT(plugins, "%s/plugins", exe);
	CHECK_INT(unsetenv("HOSTBENCH_PLUGIN_PATH"), 0);
	CHECK_INT(plugin_dirs(&out, NULL, NULL), 0);
	CHECK(out.n >= 3);
	CHECK_STR(out.items[0], exe);
	CHECK_STR(out.items[1], plugins);
	strlist_free(&out);
	return 0;
}

/* One line per test: CTest registers each line by its name. */
/* clang-format off */
static const struct test tests[] = {
	{"good_plugin_loads_with_target_and_options", good_plugin_loads_with_target_and_options},
	{"describe_fills_libraries_and_unusable", describe_fills_libraries_and_unusable},
	{"good_fixture_runs_and_counts_its_work", good_fixture_runs_and_counts_its_work},
	{"refuses_other_abi_major", refuses_other_abi_major},
	{"refuses_newer_abi_minor", refuses_newer_abi_minor},
	{"refuses_short_descriptor", refuses_short_descriptor},
	{"refuses_plugin_without_entry", refuses_plugin_without_entry},
	{"refuses_entry_returning_null", refuses_entry_returning_null},
	{"refuses_null_run_slot", refuses_null_run_slot},
	{"refuses_empty_backend_name", refuses_empty_backend_name},
	{"refuses_plugin_without_targets", refuses_plugin_without_targets},
	{"refuses_target_without_group", refuses_target_without_group},
	{"refuses_target_offered_twice", refuses_target_offered_twice},
	{"refuses_option_of_unknown_type", refuses_option_of_unknown_type},
	{"refuses_enum_without_choices", refuses_enum_without_choices},
	{"refuses_default_that_is_not_a_size", refuses_default_that_is_not_a_size},
	{"refuses_default_outside_bounds", refuses_default_outside_bounds},
	{"refuses_option_declared_twice", refuses_option_declared_twice},
	{"refuses_option_named_like_a_core_key", refuses_option_named_like_a_core_key},
	{"refuses_composite_with_unknown_part", refuses_composite_with_unknown_part},
	{"refuses_target_with_group_but_no_name", refuses_target_with_group_but_no_name},
	{"refuses_failing_describe", refuses_failing_describe},
	{"refuses_missing_library_naming_it", refuses_missing_library_naming_it},
	{"refuses_world_writable_directory", refuses_world_writable_directory},
	{"refuses_world_writable_file", refuses_world_writable_file},
	{"runs_no_code_from_writable_plugin", runs_no_code_from_writable_plugin},
	{"refuses_group_writable_file", refuses_group_writable_file},
	{"refuses_file_of_another_user", refuses_file_of_another_user},
	{"refuses_second_file_with_same_backend_and_target", refuses_second_file_with_same_backend_and_target},
	{"bad_plugin_does_not_stop_good_one", bad_plugin_does_not_stop_good_one},
	{"every_refusal_is_one_line", every_refusal_is_one_line},
	{"behaviour_plugins_load_side_by_side", behaviour_plugins_load_side_by_side},
	{"earlier_directory_wins_for_same_file_name", earlier_directory_wins_for_same_file_name},
	{"missing_directory_is_skipped_silently", missing_directory_is_skipped_silently},
	{"plugin_dirs_puts_cli_then_env_then_binary", plugin_dirs_puts_cli_then_env_then_binary},
	{"plugin_dirs_without_cli_or_env_starts_at_binary", plugin_dirs_without_cli_or_env_starts_at_binary},
};
/* clang-format on */

TEST_MAIN_HELPERS(tests)
