/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The probe: a helper process that loads one plugin file and sends its
 * catalog back (GStreamer's plugin scanner does the same), so a plugin
 * that crashes, exits, hangs or prints while it loads costs only itself.
 */
#ifndef HB_CORE_PLUGIN_PROBE_H
#define HB_CORE_PLUGIN_PROBE_H

#include <stddef.h>

#include <jansson.h>

#include "plugin/registry.h"

/* Seconds a probe may take, unless HOSTBENCH_PROBE_TIMEOUT says otherwise. */
#define PROBE_TIMEOUT 10.0

/* How a probe ended, for the cache: only a settled answer is kept. */
enum probe_verdict {
	PROBE_CATALOG, /* *catalog holds the plugin's catalog */
	PROBE_REFUSED, /* the plugin is refused for good (why) */
	PROBE_UNSURE,  /* refused this time: timed out, interrupted */
};

/*
 * Probe p (path and fd set) in a helper within timeout seconds. Returns
 * the verdict with *catalog (a new reference) or the reason in why
 * ("crashed while loading: SIGSEGV", "exited with status 0 while
 * loading", "no answer within 10 s while loading", or the plugin's own
 * refusal), or a negative errno when no helper could be started.
 */
int probe_plugin(const struct plugin *p, double timeout, json_t **catalog,
		 char *why, size_t len);

/* HOSTBENCH_PROBE_TIMEOUT in seconds, PROBE_TIMEOUT when unset or bad. */
double probe_timeout(void);

/* The helper's task "probe": load the plugin on its descriptor 3. */
int probe_task(const char *request, int answer_fd);

#endif
