/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A fleet of one: the build without MPI (HOSTBENCH_MPI off). Every case
 * runs here and the report is this host's own. A host-pair peer needs
 * other ranks, so a suite that asks for one is refused before it runs.
 */
#include "fleet/fleet.h"

#include <errno.h>

#include "fleet/fleet_int.h"

int fleet_init(struct fleet *f, enum report_format fmt, double wait, char *err,
	       size_t errlen)
{
	(void)fmt, (void)wait, (void)err, (void)errlen;
	*f = (struct fleet){ .size = 1 };
	return 0;
}

int fleet_prepare(struct fleet *f, struct suite *s, const struct registry *reg,
		  int loaded, const char *serve, const struct suite **resolved,
		  char *err, size_t errlen)
{
	(void)f, (void)serve, (void)reg;
	*resolved = s;
	return loaded ? loaded : fleet_refuse_peers(s, err, errlen);
}

int fleet_agree(struct fleet *f, int rc, char *err, size_t errlen)
{
	(void)f, (void)err, (void)errlen;
	return rc;
}

int fleet_start(struct fleet *f, const struct report *ctx)
{
	(void)f, (void)ctx;
	return 0;
}

int fleet_case_begin(struct fleet *f, size_t i)
{
	(void)f, (void)i;
	return 1;
}

int fleet_case_end(struct fleet *f, size_t i, struct result *r)
{
	(void)f, (void)i, (void)r;
	return 0;
}

int fleet_launched(void)
{
	return 0;
}

int fleet_case_counted(struct fleet *f)
{
	(void)f;
	return 1;
}

int fleet_finish(struct fleet *f, int own)
{
	(void)f;
	return own;
}

int fleet_writes_report(const struct fleet *f)
{
	(void)f;
	return 0;
}

int fleet_silent(const struct fleet *f)
{
	(void)f;
	return 0;
}

int fleet_end(struct fleet *f, int status)
{
	(void)f;
	return status;
}
