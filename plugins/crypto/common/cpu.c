/* SPDX-License-Identifier: Apache-2.0 */
/* The "<lib> CPU" library line of a crypto backend (cpu.h). */
#include "cpu.h"

#include <stdio.h>

void cx_cpu_note(struct hb_about *a, const char *lib,
		 const struct cx_cpu_use *uses, size_t n, const char *detail)
{
	char name[64], line[1024];
	size_t used = 0;

	line[0] = '\0';
	for (size_t i = 0; i < n && used < sizeof(line); i++)
		used += (size_t)snprintf(line + used, sizeof(line) - used,
					 "%s%s %s", i ? ", " : "",
					 uses[i].label,
					 uses[i].on ? "on" : "off");
	if (detail && *detail && used < sizeof(line))
		snprintf(line + used, sizeof(line) - used, "%s%s",
			 used ? "; " : "", detail);
	snprintf(name, sizeof(name), "%s CPU", lib);
	a->library(a, name, line);
}
