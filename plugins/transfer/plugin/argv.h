/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Command templates for transfer/command, as pure functions: split a
 * command line into words the way a shell would quote them, but with no
 * expansion of any kind, then replace {name} placeholders inside each word.
 * A value is always one whole piece of one argument, so no parameter can
 * add arguments, redirect anything or run a second command.
 *
 * Splitting: blanks separate words; '...' keeps everything literally;
 * "..." keeps blanks, and a backslash in it escapes " and \ only; outside
 * quotes a backslash escapes the next character.
 * Placeholders: {name} with name of letters, digits, '_', '-' and '.';
 * "{{" and "}}" stand for literal braces.
 */
#ifndef HB_TRANSFER_ARGV_H
#define HB_TRANSFER_ARGV_H

#include <stddef.h>

/* A NULL-terminated array of owned words. */
struct words {
	char **w;
	size_t n;
};

/*
 * Split text into out. Returns 0, or HB_EINVAL (unterminated quote, empty
 * command) or HB_ENOMEM with err filled. Free with words_free().
 */
int argv_split(const char *text, struct words *out, char *err, size_t errlen);

/* Free the words and the array. */
void words_free(struct words *w);

/* The value of placeholder name, or NULL when the case has no such name. */
typedef const char *(*argv_lookup)(void *ctx, const char *name);

/*
 * Replace every {name} of word with lookup(ctx, name) into a new string
 * *out. Returns 0; HB_EINVAL naming the placeholder when lookup has no
 * value or the braces do not close; HB_ENOMEM.
 */
int argv_expand(const char *word, argv_lookup lookup, void *ctx, char **out,
		char *err, size_t errlen);

#endif
