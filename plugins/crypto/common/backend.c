/* SPDX-License-Identifier: Apache-2.0 */
/* A backend's plugin slots, each handing its case or state to its engine. */
#include "backend.h"

#include "cx.h"
#include "transform.h"

/* Every crypto state opens with its engine (enum cx_engine); a NULL one
 * is the symmetric engine's to ignore. */
static int is_pk(const void *state)
{
	return state && *(const enum cx_engine *)state == CX_ENGINE_PK;
}

int cx_backend_setup(const struct cx_backend *b, const struct hb_case *c,
		     void **state, char *err, size_t errlen)
{
	if (pk_is_target(c->target))
		return pk_setup(b->pk, c, state, err, errlen);
	return cx_setup(b->cx, c, state, err, errlen);
}

int cx_backend_run(void *state, uint64_t iterations, struct hb_done *done,
		   char *err, size_t errlen)
{
	if (is_pk(state))
		return pk_run(state, iterations, done, err, errlen);
	return cx_run(state, iterations, done, err, errlen);
}

void cx_backend_teardown(void *state)
{
	if (is_pk(state))
		pk_teardown(state);
	else
		cx_teardown(state);
}

int cx_backend_submit(void *state, uint64_t tag, char *err, size_t errlen)
{
	if (is_pk(state))
		return pk_submit(state, tag, err, errlen);
	return cx_submit(state, tag, err, errlen);
}

int cx_backend_poll(void *state, unsigned min, unsigned max,
		    uint64_t timeout_ns, struct hb_completion *out, char *err,
		    size_t errlen)
{
	if (is_pk(state))
		return pk_poll(state, min, max, timeout_ns, out, err, errlen);
	return cx_poll(state, min, max, timeout_ns, out, err, errlen);
}

int cx_backend_validate(const struct hb_case *c, char *err, size_t errlen)
{
	return pk_is_target(c->target) ? 0 : cx_validate(c, err, errlen);
}

int cx_backend_transform(const struct cx_backend *b, const struct hb_case *c,
			 struct hb_message *m, char *err, size_t errlen)
{
	return cx_transform(b->cx, c, m, err, errlen);
}
