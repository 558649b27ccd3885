/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What libgcrypt uses of the CPU: its hardware features, as
 * gcry_get_config(0, "hwflist") lists them after /etc/gcrypt/hwf.deny
 * and the application took theirs away.
 */
#include <stdio.h>
#include <string.h>

#include "../common/cpu.h"
#include "gc.h"

/* A feature and the hwflist name that says libgcrypt uses it. */
struct gc_hwf {
	const char *label;
	const char *hwf;
};

static const struct gc_hwf gc_hwfs[] = {
#if defined(__x86_64__) || defined(__i386__)
	{ "AES-NI", "intel-aesni" },
	{ "VAES", "intel-vaes-vpclmul" },
	{ "PCLMULQDQ", "intel-pclmul" },
	{ "VPCLMULQDQ", "intel-vaes-vpclmul" },
	{ "SHA-NI", "intel-shaext" },
	{ "AVX2", "intel-avx2" },
	{ "AVX-512", "intel-avx512" },
#elif defined(__aarch64__)
	{ "AES", "arm-aes" },
	{ "PMULL", "arm-pmull" },
	{ "SHA1", "arm-sha1" },
	{ "SHA2", "arm-sha2" },
	{ "SHA512", "arm-sha512" },
#endif
	{ NULL, NULL },
};

#define GC_NHWFS (sizeof(gc_hwfs) / sizeof(gc_hwfs[0]))

/* Nonzero when the ':'-separated list names hwf. */
static int listed(const char *list, const char *hwf)
{
	size_t n = strlen(hwf);

	for (const char *p = list; (p = strstr(p, hwf)); p += n)
		if ((p == list || p[-1] == ':') && (p[n] == ':' || !p[n]))
			return 1;
	return 0;
}

void gc_cpu_note(struct hb_about *a)
{
	char *conf = gcry_get_config(0, "hwflist");
	const char *list = conf ? conf : "";
	struct cx_cpu_use uses[GC_NHWFS];
	char detail[512];
	size_t n;

	if (strncmp(list, "hwflist:", 8) == 0)
		list += 8;
	snprintf(detail, sizeof(detail), "hwflist %.*s",
		 (int)strcspn(list, "\n"), list);
	n = strlen(detail);
	while (n && detail[n - 1] == ':')
		detail[--n] = '\0';
	for (n = 0; gc_hwfs[n].label; n++)
		uses[n] = (struct cx_cpu_use){
			.label = gc_hwfs[n].label,
			.on = listed(list, gc_hwfs[n].hwf),
		};
	cx_cpu_note(a, "libgcrypt", uses, n, conf ? detail : NULL);
	gcry_free(conf);
}
