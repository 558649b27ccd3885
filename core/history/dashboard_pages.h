/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the dashboard's pages say (dashboard.c writes them into the site):
 * the index a lab opens every morning (every host with its open
 * regressions, each series' latest figures and verdict, the newest runs
 * and their labels), and a page per case with the same case on every host
 * side by side, unlike contexts marked; and the names of the pages, which
 * the site's writer and the pages' links share.
 */
#ifndef HB_CORE_HISTORY_DASHBOARD_PAGES_H
#define HB_CORE_HISTORY_DASHBOARD_PAGES_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* Longest host id a page is named for. */
#define DASHBOARD_ID_MAX 64

/* Room for a case page's name: "case-XXXXXXXXXXXXXXXX.html". */
#define DASHBOARD_CASE_NAME 32

/*
 * The file name of the page of the case series s belongs to: the case's
 * name (view_label()) hashed, so every host's series of one case share it.
 */
void dashboard_case_name(const json_t *s, char *buf, size_t len);

/*
 * The file name of the page of host id: "host-ID.html", each byte of id
 * outside [A-Za-z0-9-] written "_XX" (hex), so no id names a path
 * elsewhere and two ids never share a page. The name comes from the id,
 * never from the host's name. buf holds at least 3 * DASHBOARD_ID_MAX + 11.
 */
void dashboard_page_name(const char *id, char *buf, size_t len);

/* The index of doc into out. Returns 0 or -ENOMEM. */
int dashboard_index(FILE *out, const json_t *doc);

/*
 * The page of the case series s belongs to: a table of every host's
 * latest figures, verdict and context facts (those that differ from the
 * first host's marked), then each host's chart. Returns 0 or -ENOMEM.
 */
int dashboard_case(FILE *out, const json_t *doc, const json_t *s);

/* Nonzero for a change point still open: a regression no one set aside. */
int dashboard_open_change(const json_t *c);

#endif
