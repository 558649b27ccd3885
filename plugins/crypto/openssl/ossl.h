/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The OpenSSL backend of the crypto engine: libcrypto's EVP and EVP_MAC
 * behind the engine's primitive table, one library context per worker
 * with the providers the case asks for. It fills both sets of calls: the
 * update calls (ossl_ops.c), and the job calls (ossl_jobs.c), which run
 * each whole message through the update calls inside an OpenSSL
 * ASYNC_JOB, so messages stay in flight at the case's queue_depth.
 */
#ifndef HB_CRYPTO_OSSL_H
#define HB_CRYPTO_OSSL_H

#include <stddef.h>

#include <hostbench/plugin.h>

#include "../common/engine.h"
#include "../common/pk.h"

/*
 * The OpenSSL primitives. lib_open reads "provider" and "properties"; the
 * lib it opens starts with a pointer to this table, so the job calls
 * (ossl_jobs.c), which the table names, reach the update calls through
 * the lib they are given (ossl_lib_updates) and never name the table.
 */
extern const struct cx_ops cx_openssl_ops;

/* The update calls of lib, a lib of cx_openssl_ops.lib_open. */
static inline const struct cx_ops *ossl_lib_updates(void *lib)
{
	return *(const struct cx_ops *const *)lib;
}

/*
 * The job calls of cx_openssl_ops (struct cx_ops says what each does): a
 * queue opens spec->depth sets of contexts (one when 0) and a pool of as
 * many ASYNC_JOBs; a failed job's why stays valid until the next submit.
 */
int ossl_jobs_open(void *lib, const struct hb_case *c,
		   const struct cx_jobspec *spec, void **q, char *err,
		   size_t errlen);
int ossl_jobs_submit(void *q, struct cx_job *j, char *err, size_t errlen);
struct cx_job *ossl_jobs_reap(void *q, int flush);
void ossl_jobs_close(void *q);

/*
 * Try to load the providers named in list ("default+legacy"; '+' or ','
 * separate names) into a fresh library context, and drop it. Returns 0,
 * or HB_ECRYPTO with OpenSSL's reason in err. describe() uses it to mark
 * targets whose default providers are missing on this host.
 */
/*
 * Whether v reads as OpenSSL reads OPENSSL_ia32cap: vectors "[~]N"
 * (N in base 16 with 0x, 8 with a leading 0, else 10) joined by ':',
 * nothing else. Pure; unit tested.
 */
int ossl_env_valid_ia32cap(const char *v);

/*
 * Judge the environment masks OpenSSL reads (OPENSSL_ia32cap): 0, or
 * HB_EINVAL with the variable's name, its value and the form expected in
 * err, for text OpenSSL would read as "every capability off".
 */
int ossl_env_check(char *err, size_t errlen);

int cx_openssl_probe(const char *list, char *err, size_t errlen);

/*
 * err = "what: OpenSSL's reason (its detail)", from the first error in the
 * queue (the root cause: "could not load the shared library (filename...)"
 * comes before the generic provider_init failure); empties the queue.
 * Returns code.
 */
int cx_openssl_fail(char *err, size_t errlen, int code, const char *what);

/*
 * Record the library "OpenSSL CPU" on a: the CPU features OpenSSL's
 * capability vector lets it use, and the vector (cpu.h).
 */
void ossl_cpu_note(struct hb_about *a);

/* The OpenSSL pk calls (ossl_pk.c). */
extern const struct pk_ops pk_openssl_ops;

#endif
