/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The --help texts, made from the tables: `hostbench --help` lists the
 * commands of app/command.c and the global options; `hostbench CMD
 * --help` prints CMD's synopsis, summary, description and options
 * (app/options.c's help lines).
 */
#ifndef HB_CORE_APP_USAGE_H
#define HB_CORE_APP_USAGE_H

#include <stdio.h>

struct command;

/* `hostbench --help` to out. */
void usage_global(FILE *out);

/* `hostbench CMD --help` to out, for cmd (not COMMAND_OWN_ARGS). */
void usage_command(const struct command *cmd, FILE *out);

#endif
