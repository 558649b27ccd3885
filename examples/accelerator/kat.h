/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The known-answer check of crypto/aes-256-ctr: the published vector run
 * through the device on the very path the benchmark times.
 */
#ifndef ACCEL_KAT_H
#define ACCEL_KAT_H

#include <stddef.h>

#include "device.h"

/*
 * Run NIST SP 800-38A F.5.5 CTR-AES256.Encrypt through the request queue
 * of dev: encrypt checks the ciphertext, decrypt checks the recovered
 * plaintext. With split, the data goes in two requests cut mid-block, as a
 * stream continues from one buffer to the next. Returns HB_OK, HB_EVERIFY
 * naming the vector, or the device's error as an HB_E* code; err filled.
 */
int accel_kat_check(struct accel_dev *dev, int encrypt, int split, char *err,
		    size_t errlen);

#endif
