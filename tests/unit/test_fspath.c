/* SPDX-License-Identifier: Apache-2.0 */
/* Which symbolic links a path walk follows, as protected_symlinks would. */
#include <sys/stat.h>

#include "base/fspath.h"
#include "check.h"

/* A directory owned by uid with mode. */
static struct stat dir_of(uid_t uid, mode_t mode)
{
	struct stat st = { .st_uid = uid, .st_mode = S_IFDIR | mode };

	return st;
}

static int link_in_a_private_directory_is_followed(void)
{
	struct stat d = dir_of(1000, 0755);

	CHECK(fspath_link_allowed(&d, 1001, 0));
	return 0;
}

static int another_users_link_in_a_sticky_directory_is_not_followed(void)
{
	struct stat d = dir_of(0, 01777);

	CHECK(!fspath_link_allowed(&d, 1001, 0));
	CHECK(!fspath_link_allowed(&d, 1001, 1002));
	return 0;
}

static int own_or_directory_owners_link_in_a_sticky_directory_is_followed(void)
{
	struct stat d = dir_of(0, 01777);

	CHECK(fspath_link_allowed(&d, 1001, 1001));
	CHECK(fspath_link_allowed(&d, 0, 1001));
	return 0;
}

static int world_writable_directory_counts_as_shared(void)
{
	struct stat open = dir_of(0, 0777), group = dir_of(0, 0775);

	CHECK(fspath_shared(&open));
	CHECK(!fspath_link_allowed(&open, 1001, 0));
	CHECK(!fspath_shared(&group));
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"link_in_a_private_directory_is_followed", link_in_a_private_directory_is_followed},
	{"another_users_link_in_a_sticky_directory_is_not_followed", another_users_link_in_a_sticky_directory_is_not_followed},
	{"own_or_directory_owners_link_in_a_sticky_directory_is_followed", own_or_directory_owners_link_in_a_sticky_directory_is_followed},
	{"world_writable_directory_counts_as_shared", world_writable_directory_counts_as_shared},
};
/* clang-format on */

TEST_MAIN(tests)
