/* SPDX-License-Identifier: Apache-2.0 */
/* The environment hostbench hands to what it starts, its secrets left out. */
#include "proc/childenv.h"

#include <stdlib.h>
#include <string.h>

extern char **environ;

/* Whether entry sets the variable name= (name with its '='). */
static int names(const char *entry, const char *name, size_t len)
{
	return strncmp(entry, name, len) == 0;
}

int childenv_secret(const char *entry)
{
	static const char *const secrets[] = { "HOSTBENCH_STORE=",
					       "PGPASSWORD=" };

	for (size_t i = 0; i < sizeof(secrets) / sizeof(secrets[0]); i++)
		if (names(entry, secrets[i], strlen(secrets[i])))
			return 1;
	return 0;
}

char **childenv_make(const char *extra)
{
	const char *eq = extra ? strchr(extra, '=') : NULL;
	size_t n = 0, j = 0, len = eq ? (size_t)(eq - extra) + 1 : 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!childenv_secret(environ[i]) &&
		    !(len && names(environ[i], extra, len)))
			env[j++] = environ[i];
	if (extra)
		env[j] = (char *)extra;
	return env;
}

int childenv_has_password(void)
{
	const char *pw = getenv("PGPASSWORD"), *url = getenv("HOSTBENCH_STORE");

	return (pw && *pw) || (url && strncmp(url, "postgres", 8) == 0);
}
