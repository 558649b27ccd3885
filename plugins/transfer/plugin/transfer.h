/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The transfer plugin's targets. Every worker state starts with a struct
 * transfer_state, so the plugin's run and teardown can dispatch to the target
 * that made it.
 */
#ifndef HB_TRANSFER_TRANSFER_H
#define HB_TRANSFER_TRANSFER_H

#include <hostbench/plugin.h>

/* A target's run and teardown. */
struct transfer_ops {
	int (*run)(void *state, uint64_t iterations, struct hb_done *done,
		   char *err, size_t errlen);
	void (*teardown)(void *state);
};

/* The first member of every worker state. */
struct transfer_state {
	const struct transfer_ops *ops;
};

/* transfer/tcp and transfer/tls: one send of `size` bytes per iteration. */
int stream_setup(const struct hb_case *c, int tls, void **state, char *err,
		 size_t errlen);

/* transfer/tls-handshake: one full (or resumed) handshake per iteration. */
int handshake_setup(const struct hb_case *c, void **state, char *err,
		    size_t errlen);

/* transfer/command: one run of the command per iteration. */
/* Check a command case before the suite runs: template names, program. */
int command_validate(const struct hb_case *c, char *err, size_t errlen);
int command_setup(const struct hb_case *c, void **state, char *err,
		  size_t errlen);

#endif
