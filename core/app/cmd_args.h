/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a command's words must be beyond their count (app/command.c's
 * table counts them): each function takes the parsed command line and
 * returns 0, or -EINVAL with a one-line message in err.
 */
#ifndef HB_CORE_APP_CMD_ARGS_H
#define HB_CORE_APP_CMD_ARGS_H

#include <stddef.h>

struct cli;

/* list, sysinfo: no argument at all. */
int cmd_args_none(const struct cli *cli, char *err, size_t errlen);

/* run: --extended takes no suite; --resume and --journal one file. */
int cmd_args_run(const struct cli *cli, char *err, size_t errlen);

/*
 * report: a file or a stored run's UUID at least; --rank only for files
 * (a stored run is one host's).
 */
int cmd_args_report(const struct cli *cli, char *err, size_t errlen);

/* compare: two reports, or one (or two) with --by. */
int cmd_args_compare(const struct cli *cli, char *err, size_t errlen);

/* store: import FILE... */
int cmd_args_store(const struct cli *cli, char *err, size_t errlen);

/* export: the store's selectors only without reports to export. */
int cmd_args_export(const struct cli *cli, char *err, size_t errlen);

/* regressions: one decision at a time (--ack or --ignore). */
int cmd_args_regressions(const struct cli *cli, char *err, size_t errlen);

/* dashboard: -o DIR. */
int cmd_args_dashboard(const struct cli *cli, char *err, size_t errlen);

#endif
