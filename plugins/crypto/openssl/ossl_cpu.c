/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What OpenSSL uses of the CPU: its capability vector OPENSSL_ia32cap_P,
 * as OpenSSL_version(OPENSSL_CPU_INFO) prints it ("OPENSSL_ia32cap=
 * 0xW0:0xW1", and " env:MASK" when OPENSSL_ia32cap masked it), so a run
 * told not to use AES-NI says so. W0 holds CPUID leaf 1 (EDX low, ECX
 * high), W1 leaf 7 (EBX low, ECX high).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "../common/cpu.h"
#include "ossl.h"

/* A feature's bit: in word 0 or 1 of the vector. */
struct ossl_cap_bit {
	const char *label;
	int word;
	int bit;
};

static const struct ossl_cap_bit ossl_cap_bits[] = {
	{ "AES-NI", 0, 32 + 25 },   { "VAES", 1, 32 + 9 },
	{ "PCLMULQDQ", 0, 32 + 1 }, { "VPCLMULQDQ", 1, 32 + 10 },
	{ "SHA-NI", 1, 29 },	    { "AVX2", 1, 5 },
	{ "AVX-512", 1, 16 },
};

#define OSSL_NCAPS (sizeof(ossl_cap_bits) / sizeof(ossl_cap_bits[0]))

/* The two words of "0xW0:0xW1" into w: nonzero when both read. */
static int vectors(const char *text, uint64_t w[2])
{
	char *end;

	errno = 0;
	w[0] = strtoull(text, &end, 16);
	if (errno || end == text || *end != ':')
		return 0;
	text = end + 1;
	w[1] = strtoull(text, &end, 16);
	return !errno && end != text;
}

void ossl_cpu_note(struct hb_about *a)
{
	const char *info = OpenSSL_version(OPENSSL_CPU_INFO);
	const char *vec = strstr(info, "OPENSSL_ia32cap=");
	struct cx_cpu_use uses[OSSL_NCAPS];
	uint64_t w[2] = { 0, 0 };
	size_t n = 0;

	if (strncmp(info, "CPUINFO: ", 9) == 0)
		info += 9;
	if (vec && vectors(vec + strlen("OPENSSL_ia32cap="), w))
		for (n = 0; n < OSSL_NCAPS; n++)
			uses[n] = (struct cx_cpu_use){
				.label = ossl_cap_bits[n].label,
				.on = (int)(w[ossl_cap_bits[n].word] >>
					    ossl_cap_bits[n].bit) &
				      1,
			};
	cx_cpu_note(a, "OpenSSL", uses, n, info);
}
