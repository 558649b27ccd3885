/* SPDX-License-Identifier: Apache-2.0 */
/* CPU lists: "0-3,8" to CPU numbers and back. */
#include "host/cpulist.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

int cpulist_push(struct cpulist *l, int cpu)
{
	if (array_grow((void **)&l->cpus, l->n, &l->cap, sizeof(int)))
		return -ENOMEM;
	l->cpus[l->n++] = cpu;
	return 0;
}

int cpulist_has(const struct cpulist *l, int cpu)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->cpus[i] == cpu)
			return 1;
	return 0;
}

void cpulist_free(struct cpulist *l)
{
	free(l->cpus);
	memset(l, 0, sizeof(*l));
}

/* A CPU number at *p, advancing *p; -1 when there is none. */
long cpulist_number(const char **p)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)**p))
		return -1;
	v = strtol(*p, &end, 10);
	*p = end;
	return v > CPULIST_MAX_CPU ? -1 : v;
}

int cpulist_parse(const char *text, struct cpulist *l, char *err, size_t errlen)
{
	const char *p = text;

	while (*p == ' ')
		p++;
	if (!*p)
		return hb_errorf(err, errlen, -EINVAL, "empty CPU list");
	for (;;) {
		long lo = cpulist_number(&p), hi = lo;

		if (lo >= 0 && *p == '-') {
			p++;
			hi = cpulist_number(&p);
		}
		if (lo < 0 || hi < lo)
			return hb_errorf(err, errlen, -EINVAL,
					 "\"%s\" is not a CPU list (e.g. "
					 "0-3,8; CPUs 0..%d)",
					 text, CPULIST_MAX_CPU);
		for (long c = lo; c <= hi; c++)
			if (cpulist_push(l, (int)c))
				return -ENOMEM;
		while (*p == ' ')
			p++;
		if (!*p)
			return 0;
		if (*p++ != ',')
			return hb_errorf(err, errlen, -EINVAL,
					 "\"%s\" is not a CPU list (e.g. "
					 "0-3,8)",
					 text);
		while (*p == ' ')
			p++;
	}
}

void cpulist_format(const struct cpulist *l, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < l->n && used < len; i++) {
		size_t j = i;
		int w;

		while (j + 1 < l->n && l->cpus[j + 1] == l->cpus[j] + 1)
			j++;
		if (j > i)
			w = snprintf(buf + used, len - used, "%s%d-%d",
				     used ? "," : "", l->cpus[i], l->cpus[j]);
		else
			w = snprintf(buf + used, len - used, "%s%d",
				     used ? "," : "", l->cpus[i]);
		used += (size_t)w;
		i = j;
	}
	if (used >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}
