/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the host is: read from /proc, /sys, /etc/os-release, uname and
 * statvfs. A piece that cannot be read stays empty; only running out of
 * memory is an error.
 */
#include "result/sysinfo.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "host/sysfs.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HB_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||     \
	__has_feature(memory_sanitizer)
#define HB_SANITIZED 1
#endif
#endif
#ifndef HB_SANITIZED
#define HB_SANITIZED 0
#endif

#define NET_DIR "/sys/class/net"

static const struct cpu_feature x86_features[] = {
	{ "aes", "AES-NI" },	      { "vaes", "VAES" },
	{ "pclmulqdq", "PCLMULQDQ" }, { "vpclmulqdq", "VPCLMULQDQ" },
	{ "sha_ni", "SHA-NI" },	      { "avx2", "AVX2" },
	{ "avx512f", "AVX-512" },     { NULL, NULL },
};

static const struct cpu_feature arm_features[] = {
	{ "aes", "AES" },   { "pmull", "PMULL" },   { "sha1", "SHA1" },
	{ "sha2", "SHA2" }, { "sha512", "SHA512" }, { "sha3", "SHA3" },
	{ "sve", "SVE" },   { NULL, NULL },
};

static const struct cpu_feature no_features[] = { { NULL, NULL } };

const struct cpu_feature *sysinfo_cpu_features(const char *arch)
{
	if (!arch)
		return no_features;
	if (strcmp(arch, "x86_64") == 0 || strcmp(arch, "i686") == 0 ||
	    strcmp(arch, "i386") == 0)
		return x86_features;
	if (strcmp(arch, "aarch64") == 0 || strncmp(arch, "armv8", 5) == 0)
		return arm_features;
	return no_features;
}

/* Replace *dst with a copy of src. */
static int set_str(char **dst, const char *src)
{
	char *copy = strdup(src ? src : "");

	if (!copy)
		return -ENOMEM;
	free(*dst);
	*dst = copy;
	return 0;
}

/* Trim blanks at both ends of s in place; returns the new start. */
static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
			   end[-1] == '\n' || end[-1] == '\r'))
		end--;
	*end = '\0';
	return s;
}

/* Distinct (package, core) pairs seen in /proc/cpuinfo. */
struct core_set {
	long (*pairs)[2];
	size_t n, cap;
};

/* Add (pkg, core) unless already there. */
static int core_set_add(struct core_set *set, long pkg, long core)
{
	void *grown;

	for (size_t i = 0; i < set->n; i++)
		if (set->pairs[i][0] == pkg && set->pairs[i][1] == core)
			return 0;
	if (set->n == set->cap) {
		set->cap = set->cap ? set->cap * 2 : 16;
		grown = realloc(set->pairs, set->cap * sizeof(*set->pairs));
		if (!grown)
			return -ENOMEM;
		set->pairs = grown;
	}
	set->pairs[set->n][0] = pkg;
	set->pairs[set->n][1] = core;
	set->n++;
	return 0;
}

/* Keep the features of interest found in a space-separated flag list. */
static int keep_features(struct sysinfo *si, const char *flags,
			 const char *arch)
{
	const struct cpu_feature *f = sysinfo_cpu_features(arch);

	for (; f->flag; f++) {
		size_t len = strlen(f->flag);
		const char *p = flags;

		while ((p = strstr(p, f->flag)) != NULL) {
			int starts =
				p == flags || p[-1] == ' ' || p[-1] == '\t';
			int ends = p[len] == '\0' || p[len] == ' ' ||
				   p[len] == '\t' || p[len] == '\n';

			if (starts && ends) {
				if (strlist_push(&si->cpu_flags, f->flag))
					return -ENOMEM;
				break;
			}
			p += len;
		}
	}
	return 0;
}

/* What the /proc/cpuinfo parse has seen so far. */
struct cpuinfo_state {
	struct core_set cores;
	long pkg;
	unsigned cores_per_pkg;
	int have_flags;
};

/* One "key : value" line of /proc/cpuinfo into si and the parse state. */
static int cpuinfo_line(struct sysinfo *si, struct cpuinfo_state *st, char *key,
			char *value, const char *arch)
{
	if (strcmp(key, "processor") == 0) {
		si->logical_cpus++;
		st->pkg = 0;
	} else if (strcmp(key, "physical id") == 0) {
		st->pkg = strtol(value, NULL, 10);
	} else if (strcmp(key, "core id") == 0) {
		return core_set_add(&st->cores, st->pkg,
				    strtol(value, NULL, 10));
	} else if (strcmp(key, "cpu cores") == 0 && !st->cores_per_pkg) {
		st->cores_per_pkg = (unsigned)strtoul(value, NULL, 10);
	} else if ((strcmp(key, "model name") == 0 ||
		    strcmp(key, "Hardware") == 0 ||
		    strcmp(key, "cpu model") == 0) &&
		   !(si->cpu_model && *si->cpu_model)) {
		return set_str(&si->cpu_model, value);
	} else if ((strcmp(key, "flags") == 0 ||
		    strcmp(key, "Features") == 0) &&
		   !st->have_flags) {
		st->have_flags = 1;
		return keep_features(si, value, arch);
	}
	return 0;
}

int sysinfo_parse_cpuinfo(struct sysinfo *si, const char *text,
			  const char *arch)
{
	struct cpuinfo_state st = { .pkg = 0 };
	char *copy = strdup(text), *line, *save = NULL;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	si->logical_cpus = 0;
	for (line = strtok_r(copy, "\n", &save); line && !err;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = '\0';
		err = cpuinfo_line(si, &st, trim(line), trim(colon + 1), arch);
	}
	if (st.cores.n)
		si->physical_cores = (unsigned)st.cores.n;
	else if (st.cores_per_pkg)
		si->physical_cores = st.cores_per_pkg;
	else
		si->physical_cores = si->logical_cpus;
	free(st.cores.pairs);
	free(copy);
	return err;
}

/* Remove the shell quoting of an os-release value in place. */
static void unquote(char *v)
{
	char quote = v[0], *out = v;

	if (quote != '"' && quote != '\'')
		return;
	for (char *in = v + 1; *in && *in != quote; in++) {
		if (quote == '"' && in[0] == '\\' && in[1])
			in++;
		*out++ = *in;
	}
	*out = '\0';
}

char *sysinfo_parse_os_release(const char *text)
{
	char *copy = strdup(text), *line, *save = NULL, *result;
	const char *pretty = NULL, *name = NULL;

	if (!copy)
		return NULL;
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');

		if (!eq)
			continue;
		*eq = '\0';
		unquote(eq + 1);
		if (strcmp(trim(line), "PRETTY_NAME") == 0)
			pretty = eq + 1;
		else if (strcmp(trim(line), "NAME") == 0)
			name = eq + 1;
	}
	result = strdup(pretty ? pretty : name ? name : "");
	free(copy);
	return result;
}

/* Decode mountinfo's octal escapes (\040 for a space) in place. */
static void unescape_octal(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
					(s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* Length of mount point mp when it contains path, else 0. */
static size_t mount_covers(const char *mp, const char *path)
{
	size_t len = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return 1;
	if (strncmp(mp, path, len) != 0)
		return 0;
	return path[len] == '/' || path[len] == '\0' ? len : 0;
}

/*
 * Fields of one mountinfo line: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS
 * [OPTIONAL...] - FSTYPE SOURCE SUPEROPTS". Sets the pointers into line.
 */
static int mountinfo_fields(char *line, char **mp, char **fstype, char **source)
{
	char *save = NULL, *tok;
	int field = 0, after_dash = 0;

	*mp = *fstype = *source = NULL;
	for (tok = strtok_r(line, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), field++) {
		if (field == 4)
			*mp = tok;
		else if (field > 5 && !after_dash && strcmp(tok, "-") == 0)
			after_dash = field;
		else if (after_dash && field == after_dash + 1)
			*fstype = tok;
		else if (after_dash && field == after_dash + 2)
			*source = tok;
	}
	return *mp && *fstype && *source ? 0 : -EINVAL;
}

int sysinfo_parse_mountinfo(const char *text, const char *path, char **fstype,
			    char **device)
{
	char *copy = strdup(text), *line, *save = NULL;
	const char *best_type = NULL, *best_dev = NULL;
	size_t best = 0;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *mp, *type, *source;
		size_t len;

		if (mountinfo_fields(line, &mp, &type, &source))
			continue;
		unescape_octal(mp);
		unescape_octal(source);
		len = mount_covers(mp, path);
		if (len && len >= best) {
			best = len;
			best_type = type;
			best_dev = source;
		}
	}
	if (!best) {
		err = -ENOENT;
	} else {
		*fstype = strdup(best_type);
		*device = strdup(best_dev);
		if (!*fstype || !*device) {
			free(*fstype);
			free(*device);
			*fstype = *device = NULL;
			err = -ENOMEM;
		}
	}
	free(copy);
	return err;
}

/* Read one interface's facts from /sys/class/net/NAME. */
static int read_netif(struct netif *nif, const char *name)
{
	char path[PATH_MAX], link[PATH_MAX], line[128];
	const char *driver = "";
	ssize_t n;

	nif->speed_mbps = -1;
	if (set_str(&nif->name, name))
		return -ENOMEM;
	snprintf(path, sizeof(path), NET_DIR "/%s/device/driver", name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		driver = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	}
	if (set_str(&nif->driver, driver))
		return -ENOMEM;
	snprintf(path, sizeof(path), NET_DIR "/%s/speed", name);
	sysfs_read_line(path, line, sizeof(line));
	if (line[0]) {
		char *end;
		long speed = strtol(line, &end, 10);

		nif->speed_mbps = end != line && speed >= 0 ? speed : -1;
	}
	snprintf(path, sizeof(path), NET_DIR "/%s/address", name);
	sysfs_read_line(path, line, sizeof(line));
	if (set_str(&nif->mac, line))
		return -ENOMEM;
	snprintf(path, sizeof(path), NET_DIR "/%s/operstate", name);
	sysfs_read_line(path, line, sizeof(line));
	return set_str(&nif->state, line);
}

/* qsort order for interface names. */
static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every interface of /sys/class/net, lo included, sorted by name. */
static int read_netifs(struct sysinfo *si)
{
	struct strlist names = { 0 };
	struct dirent *de;
	DIR *d = opendir(NET_DIR);
	int err = 0;

	if (!d)
		return 0;
	while (!err && (de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			err = strlist_push(&names, de->d_name);
	closedir(d);
	if (err)
		goto free_names;
	if (names.n) /* qsort wants an array, even of none */
		qsort(names.items, names.n, sizeof(char *), cmp_name);
	si->netifs = calloc(names.n ? names.n : 1, sizeof(*si->netifs));
	if (!si->netifs) {
		err = -ENOMEM;
		goto free_names;
	}
	for (size_t i = 0; i < names.n && !err; i++) {
		err = read_netif(&si->netifs[i], names.items[i]);
		si->nnetifs = i + 1;
	}
free_names:
	strlist_free(&names);
	return err;
}

/* MemTotal of /proc/meminfo in kB, 0 when unreadable. */
static unsigned long long read_ram_kb(void)
{
	char *text = sysfs_read_text("/proc/meminfo"), *p;
	unsigned long long kb = 0;

	if (!text)
		return 0;
	p = strstr(text, "MemTotal:");
	if (p)
		kb = strtoull(p + strlen("MemTotal:"), NULL, 10);
	free(text);
	return kb;
}

/* Kernel, architecture and host name from uname(2). */
static int read_uname(struct sysinfo *si)
{
	struct utsname u;
	char kernel[sizeof(u.sysname) + sizeof(u.release) + sizeof(u.version)];

	kernel[0] = '\0';
	if (uname(&u) == 0)
		snprintf(kernel, sizeof(kernel), "%s %s %s", u.sysname,
			 u.release, u.version);
	else
		memset(&u, 0, sizeof(u));
	if (set_str(&si->kernel, kernel) || set_str(&si->arch, u.machine) ||
	    set_str(&si->hostname, u.nodename))
		return -ENOMEM;
	return 0;
}

/* CPU model, cores, logical CPUs and features from /proc/cpuinfo. */
static int read_cpu(struct sysinfo *si)
{
	char *text = sysfs_read_text("/proc/cpuinfo");
	long online;
	int err = 0;

	if (text)
		err = sysinfo_parse_cpuinfo(si, text, si->arch);
	free(text);
	if (err)
		return err;
	if (!si->logical_cpus) {
		online = sysconf(_SC_NPROCESSORS_ONLN);
		si->logical_cpus = online > 0 ? (unsigned)online : 1;
	}
	if (!si->physical_cores)
		si->physical_cores = si->logical_cpus;
	return si->cpu_model ? 0 : set_str(&si->cpu_model, "");
}

/* PRETTY_NAME from /etc/os-release, or /usr/lib/os-release. */
static int read_os(struct sysinfo *si)
{
	char *text = sysfs_read_text("/etc/os-release");

	if (!text)
		text = sysfs_read_text("/usr/lib/os-release");
	if (!text)
		return set_str(&si->os, "");
	free(si->os);
	si->os = sysinfo_parse_os_release(text);
	free(text);
	return si->os ? 0 : -ENOMEM;
}

int sysinfo_read(struct sysinfo *si)
{
	int err;

	err = read_uname(si);
	if (!err)
		err = read_cpu(si);
	if (!err)
		err = read_os(si);
	if (!err)
		err = read_netifs(si);
	if (!err)
		err = set_str(&si->version, HB_VERSION);
	if (!err)
		err = set_str(&si->build_type, HB_BUILD_TYPE);
	if (!err)
		err = set_str(&si->commit, HB_COMMIT);
	if (err) {
		sysinfo_free(si);
		return err;
	}
	si->ram_kb = read_ram_kb();
	si->sanitized = HB_SANITIZED;
	err = topology_read(&si->topo, "");
	if (err == -ENOMEM) {
		sysinfo_free(si);
		return err;
	}
	return 0;
}

/* Fill type, device and sizes of the filesystem under fs->dir. */
static int read_fs(struct fsinfo *fs)
{
	struct statvfs st;
	char *mountinfo;
	int err = 0;

	if (statvfs(fs->dir, &st) == 0) {
		fs->free_bytes = (unsigned long long)st.f_bavail * st.f_frsize;
		fs->total_bytes = (unsigned long long)st.f_blocks * st.f_frsize;
	}
	mountinfo = sysfs_read_text("/proc/self/mountinfo");
	if (mountinfo)
		err = sysinfo_parse_mountinfo(mountinfo, fs->dir, &fs->fstype,
					      &fs->device);
	free(mountinfo);
	if (err == -ENOMEM)
		return err;
	if (!fs->fstype && set_str(&fs->fstype, ""))
		return -ENOMEM;
	if (!fs->device && set_str(&fs->device, ""))
		return -ENOMEM;
	return 0;
}

/* Free what one fsinfo owns. */
static void fsinfo_free(struct fsinfo *fs)
{
	free(fs->dir);
	free(fs->fstype);
	free(fs->device);
}

int sysinfo_add_fs(struct sysinfo *si, const char *dir)
{
	char resolved[PATH_MAX];
	struct fsinfo *grown, *fs;

	/* "." and "/tmp/../tmp" name one directory: report where it is */
	if (realpath(dir, resolved))
		dir = resolved;
	for (size_t i = 0; i < si->nfs; i++)
		if (strcmp(si->fs[i].dir, dir) == 0)
			return 0;
	grown = realloc(si->fs, (si->nfs + 1) * sizeof(*si->fs));
	if (!grown)
		return -ENOMEM;
	si->fs = grown;
	fs = &si->fs[si->nfs];
	memset(fs, 0, sizeof(*fs));
	fs->dir = strdup(dir);
	if (!fs->dir || read_fs(fs)) {
		fsinfo_free(fs);
		return -ENOMEM;
	}
	si->nfs++;
	return 0;
}

void sysinfo_free(struct sysinfo *si)
{
	for (size_t i = 0; i < si->nnetifs; i++) {
		free(si->netifs[i].name);
		free(si->netifs[i].driver);
		free(si->netifs[i].mac);
		free(si->netifs[i].state);
	}
	free(si->netifs);
	for (size_t i = 0; i < si->nfs; i++)
		fsinfo_free(&si->fs[i]);
	free(si->fs);
	free(si->arch);
	free(si->cpu_model);
	strlist_free(&si->cpu_flags);
	free(si->kernel);
	free(si->os);
	free(si->hostname);
	free(si->version);
	free(si->build_type);
	free(si->commit);
	topology_free(&si->topo);
	memset(si, 0, sizeof(*si));
}
