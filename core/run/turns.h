/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Turns: how the cases of an interleaved job (order = interleaved) share
 * the host. Each case helper gets two FIFOs: on "go" the core says when it
 * may measure (TURN_GO) or must stop sampling (TURN_QUIT); on "done" the
 * helper says it is set up (TURN_READY), then after each turn whether it
 * has samples enough (TURN_ENOUGH) or wants more (TURN_MORE). One byte
 * each; a helper that ends closes its end, which the core reads as end of
 * file. run/interleave.c is the core's side, run/runner.c the helper's.
 */
#ifndef HB_CORE_RUN_TURNS_H
#define HB_CORE_RUN_TURNS_H

#include <stddef.h>

#define TURN_GO	    'g'
#define TURN_QUIT   'q'
#define TURN_READY  'r'
#define TURN_ENOUGH 'e'
#define TURN_MORE   'm'

/* The helper's end of its turns; fds -1 when the case takes no turns. */
struct turns {
	int go;	       /* read: the core's TURN_GO / TURN_QUIT */
	int done;      /* write: TURN_READY, TURN_ENOUGH, TURN_MORE */
	double waited; /* seconds spent waiting for turns, not measuring */
};

/*
 * Open the FIFOs at paths go and done (the core holds both open, so
 * neither open blocks). Returns 0, or -errno with "open PATH: why" in err.
 */
int turns_open(struct turns *t, const char *go, const char *done, char *err,
	       size_t errlen);

/*
 * Wait for the core's word: 1 for TURN_GO, 0 for TURN_QUIT or when the
 * core is gone. The wait is added to t->waited.
 */
int turns_wait(struct turns *t);

/* Tell the core c (TURN_READY, TURN_ENOUGH, TURN_MORE). */
void turns_say(const struct turns *t, char c);

/* Close what turns_open() opened. */
void turns_close(struct turns *t);

#endif
