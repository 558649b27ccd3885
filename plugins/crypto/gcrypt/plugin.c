/* SPDX-License-Identifier: Apache-2.0 */
/*
 * crypto_gcrypt.so: the shared crypto targets measured through libgcrypt,
 * so `backend = openssl, gcrypt` compares the same work side by side.
 */
#include <stdio.h>

#include <gcrypt.h>

#include <hostbench/plugin.h>

#include "../common/backend.h"
#include "../common/seam.h"
#include "../common/targets.h"
#include "gc.h"

/* clang-format off */
static const struct hb_option cipher_options[] = {
	HB_CRYPTO_OPTIONS_CIPHER,
	HB_CRYPTO_OPT_REKEY,
	HB_CRYPTO_OPT_END,
};

static const struct hb_option cbc16_options[] = {
	HB_CRYPTO_OPTIONS_CBC(16),
	HB_CRYPTO_OPT_REKEY,
	HB_CRYPTO_OPT_END,
};

static const struct hb_option cbc8_options[] = {
	HB_CRYPTO_OPTIONS_CBC(8),
	HB_CRYPTO_OPT_REKEY,
	HB_CRYPTO_OPT_END,
};

static const struct hb_option mac_options[] = {
	HB_CRYPTO_OPTIONS_MAC,
	HB_CRYPTO_OPT_REKEY,
	HB_CRYPTO_OPT_END,
};

static const struct hb_option digest_options[] = {
	HB_CRYPTO_OPTIONS_DIGEST,
	HB_CRYPTO_OPT_END,
};

static const struct hb_target targets[] = {
	CX_TARGETS(CX_TARGET_ENTRY)
	PK_TARGETS(PK_TARGET_ENTRY)
	{.name = NULL},
};
/* clang-format on */

/*
 * The library version, the CPU features it uses, and targets whose
 * algorithms libgcrypt lacks.
 */
static int gc_describe(struct hb_about *a, char *err, size_t errlen)
{
	char why[256], name[128];
	int rc = cx_gcrypt_init(err, errlen);

	if (rc)
		return rc;
	a->library(a, "libgcrypt", gcry_check_version(NULL));
	gc_cpu_note(a);
	for (const struct hb_target *t = targets; t->name; t++) {
		const struct cx_spec *sp = cx_spec_find(t);

		if (!sp)
			continue;
		rc = cx_gcrypt_available(sp->alg, why, sizeof(why));
		if (!rc && sp->mac != CX_NONE)
			rc = cx_gcrypt_available(sp->mac, why, sizeof(why));
		if (rc) {
			snprintf(name, sizeof(name), "%s/%s", t->group,
				 t->name);
			a->unusable(a, name, why);
		}
	}
	return 0;
}

static const struct cx_backend backend = {
	.cx = &cx_gcrypt_ops,
	.pk = &pk_gcrypt_ops,
};

static int gc_setup(const struct hb_case *c, void **state, char *err,
		    size_t errlen)
{
	return cx_backend_setup(&backend, c, state, err, errlen);
}

/* One message of `hostbench check` (ABI 1.2). */
static int gc_transform(const struct hb_case *c, struct hb_message *m,
			char *err, size_t errlen)
{
	return cx_backend_transform(&backend, c, m, err, errlen);
}

static const struct hb_plugin plugin = {
	.abi_major = HB_ABI_MAJOR,
	.abi_minor = HB_ABI_MINOR,
	.size = sizeof(struct hb_plugin),
	.name = "gcrypt",
	.version = "1.0.0",
	.summary = "ciphers, MACs, digests and public-key operations through "
		   "libgcrypt",
	.targets = targets,
	.describe = gc_describe,
	.setup = gc_setup,
	.run = cx_backend_run,
	.teardown = cx_backend_teardown,
	.validate = cx_backend_validate,
	.transform = gc_transform,
};

HB_EXPORT const struct hb_plugin *hostbench_plugin_entry(void)
{
	return cx_seam_plugin(&plugin);
}
