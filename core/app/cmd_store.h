/* SPDX-License-Identifier: Apache-2.0 */
/* What `run --history` and export share with the store's commands. */
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

/* Open the store of --store (or the default); one line when it fails. */
struct store *cmd_store_open(const struct cli *cli);

/*
 * The history document of a store command: a selector that matches
 * nothing is bad input, named with what the store holds; with detect,
 * as cmd_store_history(). Returns an exit status, *doc NULL unless 0.
 */
int cmd_store_doc(struct store *st, const struct cli *cli, int detect,
		  json_t **doc);

#endif
