/* SPDX-License-Identifier: Apache-2.0 */
/* Host facts: the /proc and /etc parsers on sample text, and the live read. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "result/sysinfo.h"

/* Two hyperthreads of one core each on two cores of one package. */
static const char cpuinfo_x86[] =
	"processor\t: 0\n"
	"vendor_id\t: AuthenticAMD\n"
	"model name\t: AMD EPYC 7B13\n"
	"physical id\t: 0\n"
	"siblings\t: 4\n"
	"core id\t\t: 0\n"
	"cpu cores\t: 2\n"
	"flags\t\t: fpu sse2 pclmulqdq aes avx avx2 sha_ni avx512vl\n"
	"\n"
	"processor\t: 1\n"
	"model name\t: AMD EPYC 7B13\n"
	"physical id\t: 0\n"
	"core id\t\t: 0\n"
	"cpu cores\t: 2\n"
	"flags\t\t: fpu sse2 pclmulqdq aes avx avx2 sha_ni avx512vl\n"
	"\n"
	"processor\t: 2\n"
	"physical id\t: 0\n"
	"core id\t\t: 1\n"
	"\n"
	"processor\t: 3\n"
	"physical id\t: 0\n"
	"core id\t\t: 1\n";

static int cpuinfo_counts_cores_and_threads(void)
{
	struct sysinfo si = { 0 };

	CHECK_INT(sysinfo_parse_cpuinfo(&si, cpuinfo_x86, "x86_64"), 0);
	CHECK_STR(si.cpu_model, "AMD EPYC 7B13");
	CHECK_INT(si.logical_cpus, 4);
	CHECK_INT(si.physical_cores, 2);
	sysinfo_free(&si);
	return 0;
}

static int cpuinfo_keeps_whole_flags_of_interest(void)
{
	struct sysinfo si = { 0 };

	CHECK_INT(sysinfo_parse_cpuinfo(&si, cpuinfo_x86, "x86_64"), 0);
	/* table order; avx512vl is not avx512f, and "aes" is a whole word */
	CHECK_INT(si.cpu_flags.n, 4);
	CHECK_STR(si.cpu_flags.items[0], "aes");
	CHECK_STR(si.cpu_flags.items[1], "pclmulqdq");
	CHECK_STR(si.cpu_flags.items[2], "sha_ni");
	CHECK_STR(si.cpu_flags.items[3], "avx2");
	sysinfo_free(&si);
	return 0;
}

static int cpuinfo_without_core_ids_uses_cpu_cores(void)
{
	const char text[] = "processor : 0\nmodel name : X\ncpu cores : 6\n"
			    "processor : 1\nprocessor : 2\n";
	struct sysinfo si = { 0 };

	CHECK_INT(sysinfo_parse_cpuinfo(&si, text, "x86_64"), 0);
	CHECK_INT(si.logical_cpus, 3);
	CHECK_INT(si.physical_cores, 6);
	sysinfo_free(&si);
	return 0;
}

static int cpuinfo_reads_arm_features(void)
{
	const char text[] = "processor\t: 0\nFeatures\t: fp asimd aes pmull "
			    "sha1 sha2 crc32\nCPU part\t: 0xd0c\n";
	struct sysinfo si = { 0 };

	CHECK_INT(sysinfo_parse_cpuinfo(&si, text, "aarch64"), 0);
	CHECK_INT(si.logical_cpus, 1);
	CHECK_INT(si.physical_cores, 1);
	CHECK_INT(si.cpu_flags.n, 4);
	CHECK_STR(si.cpu_flags.items[1], "pmull");
	CHECK_STR(sysinfo_cpu_features("aarch64")[0].label, "AES");
	CHECK(sysinfo_cpu_features("riscv64")[0].flag == NULL);
	sysinfo_free(&si);
	return 0;
}

static int os_release_prefers_pretty_name(void)
{
	char *os = sysinfo_parse_os_release(
		"NAME=\"Debian GNU/Linux\"\n"
		"PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\n");

	CHECK_STR(os, "Debian GNU/Linux 12 (bookworm)");
	free(os);
	os = sysinfo_parse_os_release("ID=x\nNAME='Alpine Linux'\n");
	CHECK_STR(os, "Alpine Linux");
	free(os);
	os = sysinfo_parse_os_release("ID=x\n");
	CHECK_STR(os, "");
	free(os);
	return 0;
}

static const char mountinfo[] =
	"22 27 0:21 / /proc rw,relatime - proc proc rw\n"
	"27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
	"40 27 0:30 / /tmp rw shared:5 - tmpfs tmpfs rw\n"
	"41 27 8:17 / /srv/data rw - xfs /dev/sdb1 rw\n"
	"42 27 8:33 / /srv/data\\040two rw - btrfs /dev/sdc1 rw\n"
	"43 41 8:18 / /srv/data rw - ext4 /dev/sdb2 rw\n";

static int mountinfo_picks_longest_mount(void)
{
	char *type = NULL, *dev = NULL;

	CHECK_INT(sysinfo_parse_mountinfo(mountinfo, "/tmp/x", &type, &dev), 0);
	CHECK_STR(type, "tmpfs");
	CHECK_STR(dev, "tmpfs");
	free(type);
	free(dev);
	CHECK_INT(sysinfo_parse_mountinfo(mountinfo, "/tmpfoo", &type, &dev),
		  0);
	CHECK_STR(type, "ext4");
	CHECK_STR(dev, "/dev/vda");
	free(type);
	free(dev);
	return 0;
}

static int mountinfo_last_overmount_wins(void)
{
	char *type = NULL, *dev = NULL;

	CHECK_INT(
		sysinfo_parse_mountinfo(mountinfo, "/srv/data/a", &type, &dev),
		0);
	CHECK_STR(type, "ext4");
	CHECK_STR(dev, "/dev/sdb2");
	free(type);
	free(dev);
	return 0;
}

static int mountinfo_decodes_escaped_spaces(void)
{
	char *type = NULL, *dev = NULL;

	CHECK_INT(sysinfo_parse_mountinfo(mountinfo, "/srv/data two/f", &type,
					  &dev),
		  0);
	CHECK_STR(type, "btrfs");
	free(type);
	free(dev);
	CHECK_INT(sysinfo_parse_mountinfo("", "/x", &type, &dev), -ENOENT);
	return 0;
}

static int live_read_has_the_basics(void)
{
	struct sysinfo si = { 0 };
	int has_lo = 0;

	CHECK_INT(sysinfo_read(&si), 0);
	CHECK(si.logical_cpus >= 1);
	CHECK(si.physical_cores >= 1);
	CHECK(si.physical_cores <= si.logical_cpus);
	CHECK(si.kernel && strncmp(si.kernel, "Linux ", 6) == 0);
	CHECK(si.cpu_model && si.os && si.hostname && si.arch);
	CHECK_STR(si.version, HB_VERSION);
	CHECK(si.ram_kb > 0);
	CHECK(si.nnetifs >= 1);
	for (size_t i = 0; i < si.nnetifs; i++)
		has_lo |= strcmp(si.netifs[i].name, "lo") == 0;
	sysinfo_free(&si);
	CHECK(has_lo);
	return 0;
}

static int root_filesystem_has_a_type(void)
{
	struct sysinfo si = { 0 };

	CHECK_INT(sysinfo_add_fs(&si, "/"), 0);
	CHECK_INT(sysinfo_add_fs(&si, "/"), 0);
	CHECK_INT(si.nfs, 1);
	CHECK_STR(si.fs[0].dir, "/");
	CHECK(si.fs[0].fstype[0] != '\0');
	CHECK(si.fs[0].total_bytes > 0);
	CHECK(si.fs[0].free_bytes <= si.fs[0].total_bytes);
	sysinfo_free(&si);
	return 0;
}

static int missing_dir_is_recorded_empty(void)
{
	struct sysinfo si = { 0 };

	CHECK_INT(sysinfo_add_fs(&si, "/nonexistent/hostbench/dir"), 0);
	CHECK_INT(si.nfs, 1);
	CHECK_INT(si.fs[0].total_bytes, 0);
	sysinfo_free(&si);
	return 0;
}

static int relative_dir_is_recorded_absolute(void)
{
	struct sysinfo si = { 0 };
	char cwd[4096];

	CHECK(getcwd(cwd, sizeof(cwd)));
	CHECK_INT(sysinfo_add_fs(&si, "."), 0);
	CHECK_INT(sysinfo_add_fs(&si, cwd), 0);
	CHECK_INT(si.nfs, 1);
	CHECK_STR(si.fs[0].dir, cwd);
	sysinfo_free(&si);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"cpuinfo_counts_cores_and_threads", cpuinfo_counts_cores_and_threads},
	{"cpuinfo_keeps_whole_flags_of_interest", cpuinfo_keeps_whole_flags_of_interest},
	{"cpuinfo_without_core_ids_uses_cpu_cores", cpuinfo_without_core_ids_uses_cpu_cores},
	{"cpuinfo_reads_arm_features", cpuinfo_reads_arm_features},
	{"os_release_prefers_pretty_name", os_release_prefers_pretty_name},
	{"mountinfo_picks_longest_mount", mountinfo_picks_longest_mount},
	{"mountinfo_last_overmount_wins", mountinfo_last_overmount_wins},
	{"mountinfo_decodes_escaped_spaces", mountinfo_decodes_escaped_spaces},
	{"live_read_has_the_basics", live_read_has_the_basics},
	{"root_filesystem_has_a_type", root_filesystem_has_a_type},
	{"missing_dir_is_recorded_empty", missing_dir_is_recorded_empty},
	{"relative_dir_is_recorded_absolute", relative_dir_is_recorded_absolute},
};
/* clang-format on */

TEST_MAIN(tests)
