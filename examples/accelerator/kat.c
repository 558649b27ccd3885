/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The known-answer check of crypto/aes-256-ctr: the SDK's published vector
 * (<hostbench/crypto.h>, NIST SP 800-38A F.5.5) through the device's
 * request queue, the very path the benchmark times.
 */
#include "kat.h"

#include <stdio.h>
#include <string.h>

#include <hostbench/crypto.h>
#include <hostbench/plugin.h>

#include "accel.h"

/* Where a stream check cuts the vector: inside the second block. */
#define KAT_SPLIT 23

/* The vector decoded; HB_EFAIL when the SDK has none. */
static int kat_load(uint8_t key[32], uint8_t iv[16], uint8_t pt[64],
		    uint8_t ct[64], const char **source)
{
	const struct hb_crypto_kat *k =
		hb_crypto_kat_find("crypto/aes-256-ctr");
	size_t nkey, niv, npt, nct;

	if (!k || hb_crypto_unhex(k->key, key, 32, &nkey) || nkey != 32 ||
	    hb_crypto_unhex(k->iv, iv, 16, &niv) || niv != 16 ||
	    hb_crypto_unhex(k->in, pt, 64, &npt) || npt != 64 ||
	    hb_crypto_unhex(k->out, ct, 64, &nct) || nct != 64)
		return HB_EFAIL;
#ifdef EXAMPLE_ACCEL_KAT_CORRUPT
	/* Tests only: a wrong expected byte, to prove a mismatch fails. */
	ct[63] ^= 0x01;
#endif
	*source = k->source;
	return HB_OK;
}

int accel_kat_check(struct accel_dev *dev, int encrypt, int split, char *err,
		    size_t errlen)
{
	uint8_t key[32], iv[16], pt[64], ct[64], out[64];
	struct accel_req r = { .in = NULL };
	size_t first = split ? KAT_SPLIT : sizeof(out);
	const char *source = "";
	struct accel_key *k = NULL;
	int rc = kat_load(key, iv, pt, ct, &source);

	if (rc)
		return hb_errorf(err, errlen, rc,
				 "no known-answer vector for AES-256-CTR");
	rc = accel_key_load(dev, key, &k, err, errlen);
	if (rc)
		return accel_code(rc);
	/* a stream goes on mid-block: the vector in two requests */
	for (size_t off = 0; off < sizeof(out) && !rc; off += r.len) {
		r = (struct accel_req){ .key = k,
					.offset = off,
					.in = (encrypt ? pt : ct) + off,
					.out = out + off,
					.len = off ? sizeof(out) - off
						   : first };
		memcpy(r.counter, iv, sizeof(iv));
		rc = accel_run_one(dev, &r, err, errlen);
	}
	accel_key_free(k);
	if (rc)
		return rc;
	if (memcmp(out, encrypt ? ct : pt, sizeof(out)) == 0)
		return HB_OK;
	return hb_errorf(err, errlen, HB_EVERIFY,
			 "known-answer check failed: AES-256-CTR %s differs "
			 "from %s (device %s)",
			 encrypt ? "ciphertext" : "decrypted plaintext", source,
			 accel_dev_name(dev));
}
