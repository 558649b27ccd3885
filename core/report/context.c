/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The context of a report, alike in every format: the build that ran it,
 * the plugins' libraries, and the lines that describe the host.
 */
#include "report/context.h"

#include <errno.h>
#include <string.h>

#include "base/argmask.h"
#include "base/parse.h"
#include "base/units.h"

const char *report_build_warning(const struct sysinfo *si)
{
	const char *build =
		si && si->build_type ? si->build_type : HB_BUILD_TYPE;

	if (si && si->sanitized)
		return "a sanitizer build: figures are far below a release "
		       "build's";
	if (strcmp(build, "Debug") == 0)
		return "a Debug build: figures are below a release build's";
	return NULL;
}

void report_app_line(const struct report *r, char *buf, size_t len)
{
	const struct sysinfo *si = r->sys;
	const char *version = si && si->version ? si->version : HB_VERSION;
	const char *build =
		si && si->build_type ? si->build_type : HB_BUILD_TYPE;
	const char *warning = report_build_warning(si);
	size_t os_len = si && si->kernel ? strcspn(si->kernel, " ") : 0;

	const char *commit = si && si->commit ? si->commit : "";

	snprintf(buf, len, "hostbench %s (%s build%s%s%s) / %.*s%s%s", version,
		 build[0] ? build : "unknown",
		 si && si->sanitized ? ", sanitized" : "",
		 commit[0] ? ", commit " : "", commit, os_len ? (int)os_len : 5,
		 os_len ? si->kernel : "Linux", warning ? " - WARNING: " : "",
		 warning ? warning : "");
}

/* s, or "unknown" when empty. */
static const char *known(const char *s)
{
	return s && s[0] ? s : "unknown";
}

/* "UUID, STARTED to ENDED (65.3 s)". */
static void run_line(const struct runinfo *ri, char *buf, size_t len)
{
	snprintf(buf, len, "%s, %s to %s (%.3f s)", ri->uuid,
		 ri->started[0] ? ri->started : "unknown",
		 ri->ended[0] ? ri->ended : "unknown", ri->duration);
}

/* "lab.ini sha256 HEX; more.ini sha256 HEX", "none" without a file. */
static void suites_line(const struct runinfo *ri, char *buf, size_t len)
{
	snprintf(buf, len, "%s", ri->nsuites ? "" : "none");
	for (size_t i = 0; i < ri->nsuites; i++)
		report_appendf(buf, len, "%s%s sha256 %s", i ? "; " : "",
			       ri->suites[i].path,
			       ri->suites[i].sha256[0] ? ri->suites[i].sha256
						       : "unknown");
}

int report_run_facts(const struct report *r, struct kvlist *out)
{
	const struct runinfo *ri = r->run;
	char line[4 * REPORT_LINE];
	int err;

	if (!ri || !ri->known)
		return 0;
	run_line(ri, line, sizeof(line));
	err = kvlist_set(out, "Run", line);
	suites_line(ri, line, sizeof(line));
	err = err ? err : kvlist_set(out, "Suite", line);
	argmask_text(&ri->command_line, line, sizeof(line));
	err = err ? err : kvlist_set(out, "Command", line);
	if (ri->label)
		err = err ? err : kvlist_set(out, "Label", ri->label);
	err = err ? err : kvlist_set(out, "Units", UNITS_LEGEND);
	if (ri->fleet_size > 0) {
		snprintf(line, sizeof(line), "job %s, rank %d of %d",
			 ri->fleet_job ? ri->fleet_job : "unknown",
			 ri->fleet_rank, ri->fleet_size);
		err = err ? err : kvlist_set(out, "Fleet", line);
	}
	return err;
}

int report_plugins(const struct report *r, struct strlist *out)
{
	char line[REPORT_LINE];

	if (!r->run || !r->run->known)
		return 0;
	for (size_t i = 0; r->reg && i < r->reg->n; i++) {
		const struct plugin *p = &r->reg->plugins[i];

		snprintf(line, sizeof(line), "%s %s (%s)", p->desc->name,
			 known(p->desc->version), known(p->path));
		if (strlist_push(out, line))
			return -ENOMEM;
	}
	return 0;
}

int report_libraries(const struct report *r, struct strlist *out)
{
	char line[REPORT_LINE];

	for (size_t p = 0; r->reg && p < r->reg->n; p++) {
		const struct kvlist *libs = &r->reg->plugins[p].libraries;

		for (size_t i = 0; i < libs->n; i++) {
			const char *name = libs->items[i].key;
			const char *version = libs->items[i].value;
			size_t k = 0;

			/* a version that starts with the name needs it once */
			if (strncmp(version, name, strlen(name)) == 0)
				snprintf(line, sizeof(line), "%s", version);
			else
				snprintf(line, sizeof(line), "%s %s", name,
					 version);
			while (k < out->n && strcmp(out->items[k], line) != 0)
				k++;
			if (k == out->n && strlist_push(out, line))
				return -ENOMEM;
		}
	}
	return 0;
}

/* Nonzero when si lists flag as present. */
static int has_flag(const struct sysinfo *si, const char *flag)
{
	for (size_t i = 0; i < si->cpu_flags.n; i++)
		if (strcmp(si->cpu_flags.items[i], flag) == 0)
			return 1;
	return 0;
}

/*
 * Nonzero when a library's "<lib> CPU" line ("AES-NI off, VAES on; ...",
 * written by the crypto backends) says it does not use label.
 */
static int cpu_line_off(const char *line, const char *label)
{
	size_t n = strlen(label), end = strcspn(line, ";");

	for (size_t at = 0; at < end; at += strcspn(line + at, ",")) {
		at += strspn(line + at, ", ");
		if (strncmp(line + at, label, n) == 0 &&
		    strncmp(line + at + n, " off", 4) == 0 &&
		    (line[at + n + 4] == ',' || line[at + n + 4] == ';' ||
		     !line[at + n + 4]))
			return 1;
	}
	return 0;
}

/* " (off for OpenSSL, libgcrypt)": the libraries told not to use label. */
static void off_for(const struct registry *reg, const char *label, char *buf,
		    size_t len)
{
	static const char suffix[] = " CPU";
	size_t named = 0;

	for (size_t p = 0; reg && p < reg->n; p++) {
		const struct kvlist *libs = &reg->plugins[p].libraries;

		for (size_t i = 0; i < libs->n; i++) {
			const char *key = libs->items[i].key;
			size_t k = strlen(key);

			if (k <= sizeof(suffix) - 1 ||
			    strcmp(key + k - (sizeof(suffix) - 1), suffix) !=
				    0 ||
			    !cpu_line_off(libs->items[i].value, label))
				continue;
			report_appendf(buf, len, "%s%.*s",
				       named++ ? ", " : " (off for ",
				       (int)(k - (sizeof(suffix) - 1)), key);
		}
	}
	if (named)
		report_appendf(buf, len, ")");
}

/*
 * "x86_64 AES-NI ON, VAES ON, ..." for the architecture's feature list; a
 * feature the CPU has and a library does not use says which library.
 */
static void features_line(const struct report *r, char *buf, size_t len)
{
	const struct sysinfo *si = r->sys;
	const struct cpu_feature *f = sysinfo_cpu_features(si->arch);
	const char *arch = si->arch && si->arch[0] ? si->arch : "unknown";

	snprintf(buf, len, "%s", arch);
	if (!f->flag)
		report_appendf(buf, len, " (no crypto features known)");
	for (size_t i = 0; f[i].flag; i++) {
		int on = has_flag(si, f[i].flag);

		report_appendf(buf, len, "%s %s %s", i ? "," : "", f[i].label,
			       on ? "ON" : "OFF");
		if (on)
			off_for(r->reg, f[i].label, buf, len);
	}
}

/* "node 0: CPUs 0-3, 16384 MiB; node 1: ..." */
static void numa_line(const struct topology *t, char *buf, size_t len)
{
	char cpus[256];

	buf[0] = '\0';
	for (size_t i = 0; i < t->nnodes; i++) {
		cpulist_format(&t->nodes[i].cpus, cpus, sizeof(cpus));
		report_appendf(buf, len, "%snode %d: CPUs %s, %llu MiB",
			       i ? "; " : "", t->nodes[i].id,
			       cpus[0] ? cpus : "none",
			       t->nodes[i].mem_kb / 1024);
	}
}

/* "L1d 32K, L1i 32K, L2 512K, L3 32M (CPUs 0-7)": CPU 0's caches. */
static void cache_line(const struct topology *t, char *buf, size_t len)
{
	unsigned last = topology_last_level(t);
	char size[32];

	buf[0] = '\0';
	for (size_t i = 0; i < t->ncaches; i++) {
		const struct topology_cache *c = &t->caches[i];

		parse_format_size(c->size, size, sizeof(size));
		report_appendf(buf, len, "%sL%u%s %s", i ? ", " : "", c->level,
			       strcmp(c->type, "Data") == 0	     ? "d"
			       : strcmp(c->type, "Instruction") == 0 ? "i"
								     : "",
			       size);
		if (c->level == last && c->shared[0])
			report_appendf(buf, len, " (CPUs %s)", c->shared);
	}
}

int report_system_facts(const struct report *r, struct kvlist *out)
{
	const struct sysinfo *si = r->sys;
	char line[REPORT_LINE];
	int err;

	if (!si)
		return 0;
	snprintf(line, sizeof(line), "%s, physical %u / logical %u",
		 known(si->cpu_model), si->physical_cores, si->logical_cpus);
	err = kvlist_set(out, "CPU", line);
	features_line(r, line, sizeof(line));
	err = err ? err : kvlist_set(out, "AES", line);
	snprintf(line, sizeof(line), "%llu kB", si->ram_kb);
	err = err ? err : kvlist_set(out, "RAM", line);
	numa_line(&si->topo, line, sizeof(line));
	if (si->topo.nnodes)
		err = err ? err : kvlist_set(out, "NUMA", line);
	cache_line(&si->topo, line, sizeof(line));
	if (si->topo.ncaches)
		err = err ? err : kvlist_set(out, "Cache", line);
	err = err ? err : kvlist_set(out, "Kernel", known(si->kernel));
	err = err ? err : kvlist_set(out, "OS", known(si->os));
	err = err ? err : kvlist_set(out, "Host", known(si->hostname));
	return err;
}

void report_netif_line(const struct netif *nif, char *buf, size_t len)
{
	snprintf(buf, len, "%s", known(nif->name));
	if (nif->driver && nif->driver[0])
		report_appendf(buf, len, " (%s)", nif->driver);
	if (nif->mac && nif->mac[0])
		report_appendf(buf, len, " %s", nif->mac);
	report_appendf(buf, len, " %s, speed ", known(nif->state));
	if (nif->speed_mbps >= 0)
		report_appendf(buf, len, "%ldMb/s", nif->speed_mbps);
	else
		report_appendf(buf, len, "unknown");
}

/* bytes as "80.12GiB" (MiB below a GiB, TiB from a TiB). */
static void human_bytes(unsigned long long bytes, char *buf, size_t len)
{
	static const char *const names[] = { "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes / (1024.0 * 1024.0);
	size_t i = 0;

	while (v >= 1024 && i + 1 < sizeof(names) / sizeof(names[0])) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%.2f%s", v, names[i]);
}

void report_fs_line(const struct fsinfo *fs, char *buf, size_t len)
{
	char free_text[32], total_text[32];

	snprintf(buf, len, "%s : ", known(fs->dir));
	if (!fs->fstype || !fs->fstype[0]) {
		report_appendf(buf, len, "unknown filesystem");
		return;
	}
	report_appendf(buf, len, "%s on %s", fs->fstype, known(fs->device));
	if (!fs->total_bytes)
		return;
	human_bytes(fs->free_bytes, free_text, sizeof(free_text));
	human_bytes(fs->total_bytes, total_text, sizeof(total_text));
	report_appendf(buf, len, ", free %s of %s", free_text, total_text);
}
