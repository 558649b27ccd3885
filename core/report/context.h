/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The context of a report: the build that ran it, the plugins' libraries
 * and the host's facts, networks and file systems, worded alike in every
 * format.
 */
#ifndef HB_CORE_REPORT_CONTEXT_H
#define HB_CORE_REPORT_CONTEXT_H

#include <stddef.h>

#include "report/writer.h"

/* Why this build's figures are not representative (Debug, sanitizer), or NULL.
 */
const char *report_build_warning(const struct sysinfo *si);

/* "hostbench 0.1.0 (Release build, commit d54abfe) / Linux". */
void report_app_line(const struct report *r, char *buf, size_t len);

/*
 * The run's identity as label -> value, in report order, for a report
 * whose run is known (none for an older report): Run ("UUID, STARTED to
 * ENDED (65.3 s)"), Suite ("lab.ini sha256 HEX", "; " between files),
 * Command (the masked command line, shell-quoted), Units (UNITS_LEGEND:
 * which units are binary, which decimal) and Fleet. Returns 0 or -ENOMEM.
 */
int report_run_facts(const struct report *r, struct kvlist *out);

/*
 * Each plugin as "name version (FILE)", in load order, for a report whose
 * run is known (none for an older report). Returns 0 or -ENOMEM.
 */
int report_plugins(const struct report *r, struct strlist *out);

/*
 * Each distinct library of every loaded plugin as "name version" (the
 * version alone when it starts with the name), in load order. Returns 0 or
 * -ENOMEM.
 */
int report_libraries(const struct report *r, struct strlist *out);

/*
 * The one-line facts of System Information as label -> value, in report
 * order: CPU, AES, RAM, Kernel, OS, Host. Returns 0 or -ENOMEM.
 */
int report_system_facts(const struct report *r, struct kvlist *out);

/* "eth0 (virtio_net) 52:54:00:12:34:56 up, speed 10000Mb/s". */
void report_netif_line(const struct netif *nif, char *buf, size_t len);

/* "/tmp : ext4 on /dev/vda1, free 80.12GiB of 251.00GiB". */
void report_fs_line(const struct fsinfo *fs, char *buf, size_t len);

#endif
