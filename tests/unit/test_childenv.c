/* SPDX-License-Identifier: Apache-2.0 */
/* The environment of what hostbench starts: its secrets left out. */
#define _GNU_SOURCE /* setenv */
#include <stdlib.h>

#include "proc/childenv.h"
#include "check.h"

/* The entry of env that sets name ("NAME="), or NULL. */
static const char *entry(char **env, const char *name)
{
	for (size_t i = 0; env[i]; i++)
		if (strncmp(env[i], name, strlen(name)) == 0)
			return env[i];
	return NULL;
}

static int drops_the_store_url_and_libpq_password(void)
{
	char **env;

	setenv("HOSTBENCH_STORE", "postgresql://u:SECRET@db/hb", 1);
	setenv("PGPASSWORD", "SECRET", 1);
	setenv("HB_KEPT", "yes", 1);
	env = childenv_make(NULL);
	CHECK(env);
	CHECK(!entry(env, "HOSTBENCH_STORE="));
	CHECK(!entry(env, "PGPASSWORD="));
	CHECK_STR(entry(env, "HB_KEPT="), "HB_KEPT=yes");
	free(env);
	return 0;
}

static int keeps_the_transfer_token(void)
{
	char **env;

	setenv("HOSTBENCH_TOKEN", "peer-token-0123456789", 1);
	env = childenv_make(NULL);
	CHECK(env);
	CHECK_STR(entry(env, "HOSTBENCH_TOKEN="),
		  "HOSTBENCH_TOKEN=peer-token-0123456789");
	free(env);
	return 0;
}

static int puts_extra_in_place_of_its_name(void)
{
	char **env;
	size_t n = 0;

	setenv("HOSTBENCH_TOKEN", "old-token-0123456789", 1);
	env = childenv_make("HOSTBENCH_TOKEN=new-token-0123456789");
	CHECK(env);
	for (size_t i = 0; env[i]; i++)
		n += strncmp(env[i], "HOSTBENCH_TOKEN=", 16) == 0;
	CHECK_INT(n, 1);
	CHECK_STR(entry(env, "HOSTBENCH_TOKEN="),
		  "HOSTBENCH_TOKEN=new-token-0123456789");
	free(env);
	return 0;
}

static int secret_names_the_whole_variable(void)
{
	CHECK(childenv_secret("HOSTBENCH_STORE=sqlite:/x.db"));
	CHECK(childenv_secret("PGPASSWORD="));
	CHECK(!childenv_secret("HOSTBENCH_STORE_X=1"));
	CHECK(!childenv_secret("PGPASSWORDS=1"));
	CHECK(!childenv_secret("XPGPASSWORD=1"));
	return 0;
}

static int has_password_with_pgpassword_or_a_postgres_store(void)
{
	unsetenv("PGPASSWORD");
	setenv("HOSTBENCH_STORE", "sqlite:/home/lab/results.db", 1);
	CHECK(!childenv_has_password());
	setenv("HOSTBENCH_STORE", "postgresql://u:SECRET@db/hb", 1);
	CHECK(childenv_has_password());
	setenv("HOSTBENCH_STORE", "none", 1);
	setenv("PGPASSWORD", "SECRET", 1);
	CHECK(childenv_has_password());
	setenv("PGPASSWORD", "", 1);
	CHECK(!childenv_has_password());
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"drops_the_store_url_and_libpq_password", drops_the_store_url_and_libpq_password},
	{"keeps_the_transfer_token", keeps_the_transfer_token},
	{"puts_extra_in_place_of_its_name", puts_extra_in_place_of_its_name},
	{"secret_names_the_whole_variable", secret_names_the_whole_variable},
	{"has_password_with_pgpassword_or_a_postgres_store", has_password_with_pgpassword_or_a_postgres_store},
};
/* clang-format on */

TEST_MAIN(tests)
