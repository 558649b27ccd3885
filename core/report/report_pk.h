/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The public-key section of the text report, paired as `openssl speed`
 * prints it.
 */
#ifndef HB_CORE_REPORT_REPORT_PK_H
#define HB_CORE_REPORT_REPORT_PK_H

#include "report/layout.h"

/*
 * Whether every result of section s is a public-key target (group pk):
 * the text report then pairs them as `openssl speed` does
 * (report_pk_text), a sign and the verify of the same key on one line.
 */
int report_pk_section(const struct report *r, const struct report_section *s);

/*
 * Section s's pk results as `openssl speed` lines, "rsa 2048 bits openssl
 * 0.000580s 0.000017s 1724.1 58823.5" under "sign verify sign/s
 * verify/s", derivations under "op op/s". Returns 0 or -ENOMEM.
 */
int report_pk_text(const struct report *r, const struct report_section *s,
		   FILE *out);

#endif
