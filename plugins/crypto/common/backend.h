/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A backend's plugin slots over both engines: a pk target goes to the pk
 * group's (pk.h), any other to the symmetric engine (engine.h). The slots
 * given only a state hand it to the engine that made it, so a backend's
 * plugin.c fills its table with these and keeps only its own describe.
 * A backend without pk targets uses the symmetric engine's slots alone.
 */
#ifndef HB_CRYPTO_BACKEND_H
#define HB_CRYPTO_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include <hostbench/plugin.h>

#include "engine.h"
#include "pk.h"

/* The library calls of one backend, for each engine. */
struct cx_backend {
	const struct cx_ops *cx;
	const struct pk_ops *pk;
};

/* The plugin's setup: pk_setup with b->pk or cx_setup with b->cx. */
int cx_backend_setup(const struct cx_backend *b, const struct hb_case *c,
		     void **state, char *err, size_t errlen);

/* The plugin's run, teardown, submit and poll, by the state's engine. */
int cx_backend_run(void *state, uint64_t iterations, struct hb_done *done,
		   char *err, size_t errlen);
void cx_backend_teardown(void *state);
int cx_backend_submit(void *state, uint64_t tag, char *err, size_t errlen);
int cx_backend_poll(void *state, unsigned min, unsigned max,
		    uint64_t timeout_ns, struct hb_completion *out, char *err,
		    size_t errlen);

/* The plugin's validate: pk options are checked whole by the core's
 * option table, so only the symmetric targets have more to check. */
int cx_backend_validate(const struct hb_case *c, char *err, size_t errlen);

/* The plugin's transform (ABI 1.2): one message through b->cx. */
int cx_backend_transform(const struct cx_backend *b, const struct hb_case *c,
			 struct hb_message *m, char *err, size_t errlen);

#endif
