/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One message through a backend's primitives, for the transform slot (ABI
 * 1.2) that `hostbench check` calls: see struct hb_message.
 */
#ifndef HB_CRYPTO_TRANSFORM_H
#define HB_CRYPTO_TRANSFORM_H

#include <hostbench/plugin.h>

#include "engine.h"

/*
 * Process m through case c's target with ops: a cipher or AEAD (and a
 * composite's MAC over the ciphertext with m->mac_key), a MAC or a digest.
 * Returns 0, HB_EVERIFY for a tag or MAC that does not match on decrypt,
 * HB_SKIP for a size off the cipher's block, or the backend's error.
 */
int cx_transform(const struct cx_ops *ops, const struct hb_case *c,
		 struct hb_message *m, char *err, size_t errlen);

#endif
