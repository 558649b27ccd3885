/* SPDX-License-Identifier: Apache-2.0 */
/* What `run --history` shares with the store's commands. */
#ifndef HB_CORE_APP_CMD_STORE_H
#define HB_CORE_APP_CMD_STORE_H

#include <jansson.h>

#include "app/cli.h"
#include "store/store.h"

/*
 * The history document of what cli selects (--host, --case, --since);
 * with detect, change points found (history/regress.h) and kept with
 * their states. Returns 0, or -1 with the reason said on one line.
 */
int cmd_store_history(struct store *st, const struct cli *cli, int detect,
		      json_t **doc);

#endif
