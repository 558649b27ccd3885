/*
 * What the report says about the host: CPU, crypto flags, memory, kernel,
 * OS, host name, network interfaces, and hostbench's own build.
 */
#ifndef HB_CORE_SYSINFO_H
#define HB_CORE_SYSINFO_H

#include <stddef.h>

#include "util.h"

/* One network interface from /sys/class/net. */
struct netif {
	char *name;
	char *driver;    /* "virtio_net", "" when unknown */
	long speed_mbps; /* -1 when unknown */
	char *mac;
	char *state;     /* operstate: "up", "down", ... */
};

/* The filesystem under a directory a target used. */
struct fsinfo {
	char *dir;
	char *fstype;
	char *device;
	unsigned long long free_bytes;
	unsigned long long total_bytes;
};

struct sysinfo {
	char *cpu_model;
	unsigned physical_cores;
	unsigned logical_cpus;
	struct strlist cpu_flags;   /* of interest: aes vaes pclmulqdq sha_ni avx2 avx512f */
	unsigned long long ram_kb;
	char *kernel;               /* "Linux 6.1.0-... #1 SMP ..." */
	char *os;                   /* PRETTY_NAME of /etc/os-release */
	char *hostname;
	struct netif *netifs;
	size_t nnetifs;
	struct fsinfo *fs;
	size_t nfs;
	char *version;              /* hostbench version */
	char *build_type;           /* "Release", "Debug", ... */
	int sanitized;              /* built with a sanitizer */
};

/* Read the host. Missing pieces are left empty, never an error. */
int sysinfo_read(struct sysinfo *si);

/* Add the filesystem under dir (once per dir). */
int sysinfo_add_fs(struct sysinfo *si, const char *dir);

void sysinfo_free(struct sysinfo *si);

#endif
