/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the report says about the host: CPU, crypto flags, memory, NUMA
 * nodes and caches, kernel, OS, host name, network interfaces, and
 * hostbench's own build.
 */
#ifndef HB_CORE_RUN_SYSINFO_H
#define HB_CORE_RUN_SYSINFO_H

#include <stddef.h>

#include "host/topology.h"
#include "base/util.h"

/* The longest host name, in bytes (a DNS name's bound): a report from
   elsewhere, and a store, are read with longer ones cut to it. */
#define SYSINFO_HOSTNAME_MAX 255

/* One network interface from /sys/class/net. */
struct netif {
	char *name;
	char *driver;	 /* "virtio_net", "" when unknown */
	long speed_mbps; /* -1 when unknown */
	char *mac;
	char *state; /* operstate: "up", "down", ... */
};

/* The filesystem under a directory a target used. */
struct fsinfo {
	char *dir;
	char *fstype;
	char *device;
	unsigned long long free_bytes;
	unsigned long long total_bytes;
};

/* Strings are never NULL after sysinfo_read(): "" when unknown. */
struct sysinfo {
	char *arch; /* uname machine: "x86_64", "aarch64" */
	char *cpu_model;
	unsigned physical_cores;
	unsigned logical_cpus;
	struct strlist cpu_flags; /* present, of sysinfo_cpu_features(arch) */
	unsigned long long ram_kb;
	struct topology topo; /* NUMA nodes and CPU 0's caches (may be empty) */
	char *kernel;	      /* "Linux 6.1.0-... #1 SMP ..." */
	char *os;	      /* PRETTY_NAME of /etc/os-release */
	char *hostname;
	struct netif *netifs;
	size_t nnetifs;
	struct fsinfo *fs;
	size_t nfs;
	char *version;	  /* hostbench version */
	char *build_type; /* "Release", "Debug", ... */
	char *commit;	  /* `git describe` of the source, "" for none */
	int sanitized;	  /* built with a sanitizer */
};

/* A CPU feature reports name: as /proc/cpuinfo spells it, as people say it. */
struct cpu_feature {
	const char *flag;  /* "sha_ni" */
	const char *label; /* "SHA-NI" */
};

/*
 * The crypto-relevant features of arch ("x86_64", "aarch64", ...) in the
 * order reports list them, terminated by {NULL, NULL}; an empty list for an
 * architecture hostbench knows nothing about.
 */
const struct cpu_feature *sysinfo_cpu_features(const char *arch);

/*
 * Read the host into a zeroed si. Missing pieces are left empty, never an
 * error. Returns 0 or -ENOMEM (si is then freed).
 */
int sysinfo_read(struct sysinfo *si);

/*
 * Add the filesystem under dir, recorded under dir's absolute, resolved
 * path (once per directory; a second call for the same directory does
 * nothing): statvfs for free (available to unprivileged users) and
 * total bytes, type and device of the longest mount point of
 * /proc/self/mountinfo that contains dir. A dir that does not exist is
 * recorded with empty type and zero sizes. Returns 0 or -ENOMEM.
 */
int sysinfo_add_fs(struct sysinfo *si, const char *dir);

/* Free what si owns and zero it. */
void sysinfo_free(struct sysinfo *si);

/* The parsers behind sysinfo_read(): pure, so tests feed them sample text. */

/*
 * Fill cpu_model, physical_cores, logical_cpus and cpu_flags of si from the
 * text of /proc/cpuinfo. Physical cores are the distinct (physical id,
 * core id) pairs, else "cpu cores", else the logical count. Features come
 * from "flags" (x86) or "Features" (arm) and are kept when
 * sysinfo_cpu_features(arch) lists them. Returns 0 or -ENOMEM.
 */
int sysinfo_parse_cpuinfo(struct sysinfo *si, const char *text,
			  const char *arch);

/*
 * PRETTY_NAME of os-release text (quotes and escapes removed), else NAME,
 * as a new string; "" when neither is there. NULL only when out of memory.
 */
char *sysinfo_parse_os_release(const char *text);

/*
 * The mount of /proc/self/mountinfo text whose mount point is the longest
 * one containing path (an absolute, resolved path; the last such mount wins
 * when one is mounted over another). Sets *fstype and *device to new
 * strings. Returns 0, -ENOENT when no mount contains path, or -ENOMEM.
 */
int sysinfo_parse_mountinfo(const char *text, const char *path, char **fstype,
			    char **device);

#endif
