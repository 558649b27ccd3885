/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a crypto library really uses of the CPU, for the report: each
 * backend's describe() records it as the library "<lib> CPU", whose value
 * is "LABEL on|off, ..." in System Information's labels (AES-NI, VAES,
 * PCLMULQDQ, VPCLMULQDQ, SHA-NI, AVX2, AVX-512), then "; " and the
 * library's own words (OpenSSL's capability vector, libgcrypt's hwflist,
 * ipsec-mb's architecture). System Information reads it back to say
 * which library a CPU feature is off for; compare lists it under Differs.
 */
#ifndef HB_CRYPTO_CPU_H
#define HB_CRYPTO_CPU_H

#include <stddef.h>

#include <hostbench/plugin.h>

/* One CPU feature and whether the library uses it. */
struct cx_cpu_use {
	const char *label; /* System Information's label: "AES-NI" */
	int on;
};

/*
 * Record the library "<lib> CPU" on a: the n uses, then "; " and detail
 * when detail is not NULL or empty.
 */
void cx_cpu_note(struct hb_about *a, const char *lib,
		 const struct cx_cpu_use *uses, size_t n, const char *detail);

#endif
