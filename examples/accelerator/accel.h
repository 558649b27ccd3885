/* SPDX-License-Identifier: Apache-2.0 */
/* What the plugin's own files share. */
#ifndef ACCEL_ACCEL_H
#define ACCEL_ACCEL_H

/*
 * The HB_* code for a negative errno from the driver: -ENODEV (no device)
 * skips the case, everything else fails it.
 */
int accel_code(int errnum);

#endif
