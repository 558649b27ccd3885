/* SPDX-License-Identifier: Apache-2.0 */
/* `hostbench list` and `hostbench describe`: the catalog, written out. */
#include "app/cmd.h"

#include <errno.h>

#include "ui/catalog.h"
#include "app/cli.h"
#include "app/presets.h"
#include "ui/output.h"
#include "base/exit.h"

/* What describe writes: a target of the registry. */
struct described {
	const struct registry *reg;
	const char *target;
};

/* output_writer for list: doc is the registry. */
static int write_list(const void *doc, enum report_format f, FILE *out,
		      char *err, size_t errlen)
{
	return catalog_list(doc, f, out, err, errlen);
}

/* output_writer for describe: doc is a struct described. */
static int write_described(const void *doc, enum report_format f, FILE *out,
			   char *err, size_t errlen)
{
	const struct described *d = doc;

	return catalog_describe(d->reg, d->target, f, out, err, errlen);
}

/*
 * The exit status of a catalog write: an --output that cannot be opened
 * and an unknown target are bad input, anything else went wrong here.
 */
static int catalog_status(int rc, int opened)
{
	if (!rc)
		return EXIT_ALL_OK;
	return !opened || rc == -ENOENT ? EXIT_BAD_INPUT : EXIT_INTERNAL;
}

int cmd_list(const struct command_env *env)
{
	int opened;
	int rc = output_write(env->cli->output, env->cli->format, write_list,
			      env->reg, &opened);

	return catalog_status(rc, opened);
}

int cmd_describe(const struct command_env *env)
{
	const struct described d = { env->reg, env->cli->args.items[0] };
	int opened;
	int rc = output_write(env->cli->output, env->cli->format,
			      write_described, &d, &opened);

	return catalog_status(rc, opened);
}

/* output_writer: the presets, a name and its line each. */
static int write_presets(const void *doc, enum report_format f, FILE *out,
			 char *err, size_t errlen)
{
	const struct strlist *l = doc;
	size_t half = l->n / 2;

	(void)f;
	(void)err;
	(void)errlen;
	for (size_t i = 0; i < half; i++)
		fprintf(out, "%-20s %s\n", l->items[i], l->items[half + i]);
	return ferror(out) ? -EIO : 0;
}

int cmd_presets(const struct command_env *env)
{
	struct strlist names = { 0 }, abouts = { 0 };
	int rc = presets_list(&names, &abouts), status;

	for (size_t i = 0; !rc && i < abouts.n; i++)
		rc = strlist_push(&names, abouts.items[i]) ? -ENOMEM : 0;
	if (rc)
		fprintf(stderr, "hostbench: %s\n",
			rc == -ENOENT ? "no presets directory found"
				      : "out of memory");
	status = rc ? EXIT_INTERNAL
		    : output_write_status(env->cli->output, REPORT_TEXT,
					  write_presets, &names);
	strlist_free(&names);
	strlist_free(&abouts);
	return status;
}
