/* SPDX-License-Identifier: Apache-2.0 */
/* HTML page helpers shared by the run, compare and merge pages. */
#include "render/html.h"

#include <string.h>

#include "render/svg.h"

/* Small, readable, printable; no web font. */
static const char style[] =
	"body{font-family:sans-serif;margin:2em auto;max-width:72em;"
	"color:#222;padding:0 1em}"
	"h1{font-size:1.6em}h2{font-size:1.25em;border-bottom:1px solid #ccc;"
	"padding-bottom:.2em;margin-top:2em}"
	"table{border-collapse:collapse;margin:.8em 0}"
	"th,td{border:1px solid #ddd;padding:.25em .6em;vertical-align:top}"
	"thead th{background:#f2f2f2}"
	"td{text-align:right;font-variant-numeric:tabular-nums}"
	"tbody th{text-align:left;font-weight:normal}"
	"td.text,table.context td{text-align:left}"
	"td,tbody th{white-space:nowrap}"
	"td.text{white-space:normal;overflow-wrap:anywhere}"
	".fact.differs{background:#fff3cd}"
	"[data-verdict=regression],[data-verdict=regressed],td.open:not("
	"[data-open=\"0\"]){color:#b33c00;font-weight:bold}"
	"tr.differs th,tr.differs td{background:#fff3cd}"
	".verdict-regressed{color:#b33c00;font-weight:bold}"
	".verdict-improved{color:#00794f;font-weight:bold}"
	".notes{font-size:.9em;color:#555}small.cv{color:#777}"
	"svg.chart{display:block;margin:1em 0;min-width:640px;height:auto}"
	"figure{margin:0}";

void html_text(FILE *out, const char *s)
{
	svg_escape(out, s);
}

void html_begin(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n"
	      "<title>",
	      out);
	html_text(out, title);
	fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>",
		style);
	html_text(out, title);
	fputs("</h1>\n", out);
}

void html_end(FILE *out)
{
	fputs("</body>\n</html>\n", out);
}

void html_section(FILE *out, const char *title)
{
	fputs("<section>\n<h2>", out);
	html_text(out, title);
	fputs("</h2>\n", out);
}

void html_section_end(FILE *out)
{
	fputs("</section>\n", out);
}

void html_table(FILE *out, const struct table *t, const char *cls,
		const char *const *row_class)
{
	fputs("<table class=\"", out);
	html_text(out, cls);
	fputs("\">\n", out);
	for (size_t row = 0; row < t->rows; row++) {
		if (row == 0) {
			fputs("<thead><tr>", out);
		} else if (row_class && row_class[row]) {
			fputs("<tr class=\"", out);
			html_text(out, row_class[row]);
			fputs("\">", out);
		} else {
			fputs("<tr>", out);
		}
		for (size_t c = 0; c < t->cols; c++) {
			const char *cell = t->cells[row * t->cols + c];
			const char *tag = row == 0 || c == 0 ? "th" : "td";

			/* figures align right, words (notes, names) left */
			if (tag[1] == 'd' && !strchr("0123456789+-.", cell[0]))
				fputs("<td class=\"text\">", out);
			else
				fprintf(out, "<%s>", tag);
			html_text(out, cell);
			if (t->spread && t->spread[row * t->cols + c]) {
				fputs(" <small class=\"cv\">", out);
				html_text(out, t->spread[row * t->cols + c]);
				fputs("</small>", out);
			}
			fprintf(out, "</%s>", tag);
		}
		fputs(row == 0 ? "</tr></thead>\n<tbody>\n" : "</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
	if (!t->notes.n)
		return;
	fputs("<ul class=\"notes\">\n", out);
	for (size_t i = 0; i < t->notes.n; i++) {
		fputs("<li>", out);
		html_text(out, t->notes.items[i]);
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
}
