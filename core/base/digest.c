/* SPDX-License-Identifier: Apache-2.0 */
/* SHA-256 of buffers and files, through libcrypto's one-shot EVP calls. */
#include "base/digest.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <hostbench/plugin.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

/* The digest's bytes as lowercase hex. */
static void to_hex(const unsigned char *md, unsigned n,
		   char hex[DIGEST_SHA256_HEX])
{
	for (unsigned i = 0; i < n && 2 * i + 2 < DIGEST_SHA256_HEX; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
}

/* Feed every byte of f to ctx. Returns 0 or -errno. */
static int digest_stream(EVP_MD_CTX *ctx, FILE *f)
{
	unsigned char buf[65536];
	size_t n;

	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (!EVP_DigestUpdate(ctx, buf, n))
			return -ENOMEM;
	return ferror(f) ? -(errno ? errno : EIO) : 0;
}

int digest_file_sha256(const char *path, char hex[DIGEST_SHA256_HEX], char *err,
		       size_t errlen)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	EVP_MD_CTX *ctx = NULL;
	unsigned n = 0;
	int rc = -ENOMEM;
	FILE *f = fopen(path, "rb");

	hex[0] = '\0';
	if (!f)
		return hb_errorf(err, errlen, -errno, "%s: %s", path,
				 strerror(errno));
	ctx = EVP_MD_CTX_new();
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL))
		goto out_close;
	rc = digest_stream(ctx, f);
	if (!rc && !EVP_DigestFinal_ex(ctx, md, &n))
		rc = -ENOMEM;
	if (!rc)
		to_hex(md, n, hex);
out_close:
	EVP_MD_CTX_free(ctx);
	fclose(f);
	if (rc)
		return hb_errorf(err, errlen, rc, "%s: %s", path,
				 strerror(-rc));
	return 0;
}

void digest_sha256(const void *data, size_t len, uint8_t out[32])
{
	SHA256(data, len, out);
}
