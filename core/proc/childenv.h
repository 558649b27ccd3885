/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The environment of the programs hostbench starts (helpers, so every
 * plugin and every command a plugin runs; hostbench-serve for a fleet):
 * hostbench's own, less the secrets only the core needs. The core opens
 * the results store itself, so the store's URL, password included
 * (HOSTBENCH_STORE), and libpq's password (PGPASSWORD) go no further.
 * HOSTBENCH_TOKEN stays: it is the transfer plugin's, meant for it
 * (docs/transfer.md).
 */
#ifndef HB_CORE_PROC_CHILDENV_H
#define HB_CORE_PROC_CHILDENV_H

/* Whether entry ("NAME=value") is one of the secrets kept from children. */
int childenv_secret(const char *entry);

/*
 * A NULL-terminated copy of this process's environment for a child:
 * without the secrets, and with extra ("NAME=value", or NULL: none) in
 * place of any entry of the same name. The entries are borrowed (from
 * environ and extra): free the array alone, before either changes.
 * NULL when out of memory.
 */
char **childenv_make(const char *extra);

/*
 * Whether this process's environment holds a password: PGPASSWORD, or a
 * PostgreSQL URL in HOSTBENCH_STORE (which may hold user:PASSWORD@).
 * Plugin code runs as the same user, and a process of the same user may
 * read another's /proc/PID/environ unless it is not dumpable: main.c
 * then makes the core so.
 */
int childenv_has_password(void);

#endif
