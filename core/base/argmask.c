/* SPDX-License-Identifier: Apache-2.0 */
/* Command lines with their secrets masked. */
#define _GNU_SOURCE /* asprintf, memrchr */
#include "base/argmask.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/pgurl.h"

/* Nonzero when s ends in suffix. */
static int ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && strncmp(s + n - k, suffix, k) == 0;
}

/* Nonzero when the option key (n bytes) names a secret. */
static int key_is_secret(const char *key, size_t n, argmask_secret_fn fn,
			 void *ctx)
{
	const char *dot = memrchr(key, '.', n);
	char name[256];

	if (dot) {
		n -= (size_t)(dot + 1 - key);
		key = dot + 1;
	}
	if (ends_with(key, n, "token") || ends_with(key, n, "password") ||
	    ends_with(key, n, "secret"))
		return 1;
	snprintf(name, sizeof(name), "%.*s", (int)n, key);
	return fn && fn(name, ctx);
}

/* The password of a "scheme://user:PASSWORD@host" in word, or NULL; *n its
 * length. */
static const char *url_password(const char *word, size_t *n)
{
	const char *auth = strstr(word, "://"), *at, *colon;

	if (!auth)
		return NULL;
	auth += 3;
	at = auth + strcspn(auth, "/@");
	if (*at != '@')
		return NULL;
	colon = memchr(auth, ':', (size_t)(at - auth));
	if (!colon)
		return NULL;
	*n = (size_t)(at - colon - 1);
	return colon + 1;
}

/* word with bytes [from, from + n) replaced by ARGMASK_SECRET, pushed to out.
 */
static int push_masked(struct strlist *out, const char *word, size_t from,
		       size_t n)
{
	char *s = NULL;
	int rc;

	if (asprintf(&s, "%.*s%s%s", (int)from, word, ARGMASK_SECRET,
		     word + from + n) < 0)
		return -ENOMEM;
	rc = strlist_push(out, s);
	free(s);
	return rc;
}

/*
 * word with every password of the libpq URL at url (in word) replaced by
 * ARGMASK_SECRET, pushed to out.
 */
static int push_pgurl(struct strlist *out, const char *word, const char *url)
{
	size_t head = (size_t)(url - word);
	size_t n = head + pgurl_mask(url, ARGMASK_SECRET, NULL, 0) + 1;
	char *s = malloc(n);
	int rc;

	if (!s)
		return -ENOMEM;
	memcpy(s, word, head);
	pgurl_mask(url, ARGMASK_SECRET, s + head, n - head);
	rc = strlist_push(out, s);
	free(s);
	return rc;
}

/*
 * One word, masked as what it is: with set, word + set holds the
 * "KEY=VALUE" of a --set (set is where it starts); else any text.
 */
static int push_word(struct strlist *out, const char *word, size_t set,
		     int is_set, argmask_secret_fn fn, void *ctx)
{
	const char *kv = word + set, *eq = strchr(kv, '=');
	const char *pw = pgurl_find(word);
	size_t n;

	if (is_set && eq && key_is_secret(kv, (size_t)(eq - kv), fn, ctx))
		return push_masked(out, word, (size_t)(eq + 1 - word),
				   strlen(eq + 1));
	if (pw)
		return push_pgurl(out, word, pw);
	pw = url_password(word, &n);
	if (pw)
		return push_masked(out, word, (size_t)(pw - word), n);
	return strlist_push(out, word);
}

/* Nonzero when word is the option name (alone or as "name=..."). */
static int is_option(const char *word, const char *name)
{
	size_t n = strlen(name);

	return strncmp(word, name, n) == 0 &&
	       (word[n] == '\0' || word[n] == '=');
}

/* Nonzero for an option whose whole value is a secret. */
static int is_secret_option(const char *word)
{
	return is_option(word, "--token") || is_option(word, "--password");
}

/* Push an option's name and then its value, value masked by push_word. */
static int push_pair(struct strlist *out, const char *name, const char *value,
		     int is_set, argmask_secret_fn fn, void *ctx)
{
	int rc = strlist_push(out, name);

	if (rc)
		return rc;
	if (!is_set && is_secret_option(name))
		return strlist_push(out, ARGMASK_SECRET);
	return push_word(out, value, 0, is_set, fn, ctx);
}

int argmask(int argc, char *const *argv, argmask_secret_fn is_secret, void *ctx,
	    struct strlist *out)
{
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i], *eq = strchr(w, '=');
		int set = is_option(w, "--set") || strcmp(w, "-s") == 0;
		int rc;

		if (is_secret_option(w) && eq)
			rc = push_masked(out, w, (size_t)(eq + 1 - w),
					 strlen(eq + 1));
		else if (set && eq)
			rc = push_word(out, w, (size_t)(eq + 1 - w), 1,
				       is_secret, ctx);
		else if ((set || is_secret_option(w)) && i + 1 < argc) {
			rc = push_pair(out, w, argv[i + 1], set, is_secret,
				       ctx);
			i++;
		} else
			rc = push_word(out, w, 0, 0, is_secret, ctx);
		if (rc)
			return -ENOMEM;
	}
	return 0;
}

/* Nonzero when word needs quotes to read back as one shell word. */
static int needs_quotes(const char *word)
{
	return !word[0] || word[strcspn(word, " \t\n'\"\\$`;&|<>()*?[]#~{}")];
}

void argmask_text(const struct strlist *cmd, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < cmd->n; i++) {
		const char *w = cmd->items[i];

		util_appendf(buf, len, "%s", i ? " " : "");
		if (!needs_quotes(w)) {
			util_appendf(buf, len, "%s", w);
			continue;
		}
		util_appendf(buf, len, "'");
		for (; *w; w++) {
			if (*w == '\'')
				util_appendf(buf, len, "'\\''");
			else
				util_appendf(buf, len, "%c", *w);
		}
		util_appendf(buf, len, "'");
	}
}
