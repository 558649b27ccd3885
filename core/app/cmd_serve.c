/* SPDX-License-Identifier: Apache-2.0 */
/* `hostbench serve ...`: the transfer plugin's server program, exec'd. */
#include "app/cmd.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/cli.h"
#include "app/paths.h"
#include "base/exit.h"

int cmd_serve(const struct command_env *env)
{
	const struct strlist *args = &env->cli->args;
	char path[2 * PATH_MAX];
	char **argv = calloc(args->n + 2, sizeof(*argv));

	if (!argv) {
		fprintf(stderr, "hostbench: serve: %s\n", strerror(ENOMEM));
		return EXIT_INTERNAL;
	}
	if (paths_serve(path, sizeof(path)) == 0) {
		argv[0] = path;
		for (size_t i = 0; i < args->n; i++)
			argv[i + 1] = args->items[i];
		execv(path, argv);
	}
	free(argv);
	fprintf(stderr, "hostbench: serve: hostbench-serve is not installed "
			"(the transfer plugin was not built)\n");
	return EXIT_BAD_INPUT;
}
