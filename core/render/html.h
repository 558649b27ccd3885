/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pieces every HTML page of hostbench shares: one self-contained
 * document (inline CSS, no script, no external resource), escaped text and
 * tables written from a struct table.
 */
#ifndef HB_CORE_RENDER_HTML_H
#define HB_CORE_RENDER_HTML_H

#include <stdio.h>

#include "render/table.h"

/* The doctype, head with the inline style sheet, <body> and <h1>title. */
void html_begin(FILE *out, const char *title);

/* </body></html>. */
void html_end(FILE *out);

/* s escaped as HTML text. */
void html_text(FILE *out, const char *s);

/*
 * t as <table class="cls">: row 0 as the header, the first column as row
 * headers, figures right-aligned. row_class (NULL, or one per row of t,
 * each NULL or a class) marks rows: "differs", "verdict-regressed". t's
 * notes follow as a list.
 */
void html_table(FILE *out, const struct table *t, const char *cls,
		const char *const *row_class);

/* Open and close <section> with an <h2>. */
void html_section(FILE *out, const char *title);
void html_section_end(FILE *out);

#endif
