/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one sanitizer for text that comes from outside hostbench: a peer's
 * refusal, a command's stderr, a plugin's notes, warnings and catalog, a
 * journal or report file read back. Such text is shown on terminals and
 * in reports; it must not move the cursor, retitle the terminal or forge
 * a report line.
 */
#ifndef HB_CORE_BASE_SANITIZE_H
#define HB_CORE_BASE_SANITIZE_H

#include <stddef.h>

#include <jansson.h>

/*
 * Make s safe to show, in place (its length never changes): line ends and
 * tabs become blanks; every other control byte (C0, DEL), every byte of a
 * C1 control (U+0080..U+009F), of a bidirectional control (U+061C, U+200E,
 * U+200F, U+202A..U+202E, U+2066..U+2069) or of a line or paragraph
 * separator (U+2028, U+2029), and every byte that is not part of valid
 * UTF-8 becomes '?'. NULL is allowed. Returns the number of bytes replaced.
 */
size_t sanitize_text(char *s);

/* Nonzero when sanitize_text() would leave s as it is. NULL is clean. */
int sanitize_is_clean(const char *s);

/*
 * sanitize_text() for every string of a JSON document: values and object
 * keys, at any depth. Returns 0, or -ENOMEM (v is then partly sanitized:
 * free it).
 */
int sanitize_json(json_t *v);

#endif
