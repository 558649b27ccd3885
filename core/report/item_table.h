/* SPDX-License-Identifier: Apache-2.0 */
/* The table of one report item, as every format that shows tables reads it. */
#ifndef HB_CORE_REPORT_ITEM_TABLE_H
#define HB_CORE_REPORT_ITEM_TABLE_H

#include "report/layout.h"
#include "render/table.h"

/*
 * The table of item it (it->key set): row 0 is the header; then one row
 * per job and backend, labelled with the job and, when the rows differ in
 * backend, the backend. A "dir" table has a "% Difference" column against
 * the first directory (one per further directory when there are more than
 * two). A grid's corner names the job and its rows and columns name their
 * parameter ("size 64K", "4 parallels"). Its notes hold "ROW, COLUMN:
 * annotations" for every cell that has annotations; each figure's spread
 * is the CV of its samples, which md and html show beside it and text, to
 * keep the classic layout, leaves to the notes of noisy cells. Returns 0
 * or -ENOMEM; free t with table_free().
 */
int report_table_build(const struct report *r, const struct report_item *it,
		       struct table *t);

#endif
