/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fleet's fault points in a shipped hostbench: they do nothing and
 * read nothing from the environment. The tests' own build of hostbench
 * (tests/integration/fleet/fault_hook.c) links a fleet_fault() that makes
 * a rank die or hang there instead; this file is not linked into it.
 */
#include "fleet/fleet_int.h"

void fleet_fault(int rank, const char *point)
{
	(void)rank, (void)point;
}
