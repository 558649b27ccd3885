/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PostgreSQL URLs as libpq reads them: every password masked where libpq
 * would find one, and nothing else; a parameter taken out; require_auth
 * read as libpq 16 reads it. Each masking is checked against libpq's own
 * parser too: the masked URL gives libpq no password but the stand-in.
 */
#include <errno.h>
#include <libpq-fe.h>
#include <stdlib.h>
#include <string.h>

#include "base/pgurl.h"
#include "check.h"
#include "store/store_pg.h"

/* url masked with "***" into buf. */
static const char *masked(const char *url, char *buf, size_t len)
{
	size_t n = pgurl_mask(url, "***", buf, len);

	return n < len ? buf : NULL;
}

/*
 * Nonzero when libpq, parsing url masked, finds no password field but
 * "***" (or none at all).
 */
static int libpq_sees_only_stars(const char *url)
{
	char buf[512], *msg = NULL;
	PQconninfoOption *o =
		PQconninfoParse(masked(url, buf, sizeof(buf)), &msg);
	int ok = o != NULL;

	for (PQconninfoOption *p = o; p && p->keyword; p++)
		if ((strcmp(p->keyword, "password") == 0 ||
		     strcmp(p->keyword, "sslpassword") == 0) &&
		    p->val && *p->val && strcmp(p->val, "***") != 0)
			ok = 0;
	PQconninfoFree(o);
	PQfreemem(msg);
	return ok;
}

static int mask_takes_the_user_info_to_its_first_at(void)
{
	const char *url = "postgresql://lab:pa?ss#w0rd@127.0.0.1:5432/results";
	char buf[256];

	CHECK_STR(masked(url, buf, sizeof(buf)),
		  "postgresql://lab:***@127.0.0.1:5432/results");
	CHECK(libpq_sees_only_stars(url));
	return 0;
}

static int mask_hides_every_password_parameter(void)
{
	const char *url = "postgres://lab:a@db,db2:5433/hb?host=%2Frun&"
			  "password=b&pass%77ord=c&sslpassword=d&port=1";
	char buf[256];

	CHECK_STR(masked(url, buf, sizeof(buf)),
		  "postgres://lab:***@db,db2:5433/hb?host=%2Frun&"
		  "password=***&pass%77ord=***&sslpassword=***&port=1");
	CHECK(libpq_sees_only_stars(url));
	return 0;
}

static int mask_hides_keys_libpq_does_not_know(void)
{
	char buf[256];

	CHECK_STR(masked("postgresql:///db?passwd=a&pass%zzword=b&x", buf,
			 sizeof(buf)),
		  "postgresql:///db?passwd=***&pass%zzword=***&***");
	return 0;
}

static int mask_leaves_what_has_no_password(void)
{
	char buf[256];

	CHECK_STR(masked("postgresql://lab@[::1]:5432/db?sslmode=verify-full",
			 buf, sizeof(buf)),
		  "postgresql://lab@[::1]:5432/db?sslmode=verify-full");
	CHECK_STR(masked("postgresql://lab:@db/x", buf, sizeof(buf)),
		  "postgresql://lab:@db/x");
	CHECK_STR(masked("sqlite:/tmp/a:b@c", buf, sizeof(buf)),
		  "sqlite:/tmp/a:b@c");
	/* no '@' before the first '/': "a" is a host, "b" its port */
	CHECK_STR(masked("postgresql://a:b/c@d", buf, sizeof(buf)),
		  "postgresql://a:b/c@d");
	return 0;
}

static int mask_goes_on_past_a_host_list_libpq_refuses(void)
{
	char buf[256];

	CHECK_STR(
		masked("postgresql://u:p@[::1/db?password=q", buf, sizeof(buf)),
		"postgresql://u:***@[::1/db?password=***");
	return 0;
}

static int mask_says_how_long_it_would_be(void)
{
	const char *url = "postgresql://u:p@h/d?password=x";
	char small[8];

	CHECK_INT(pgurl_mask(url, "***", NULL, 0), strlen(url) + 4);
	CHECK_INT(pgurl_mask(url, "***", small, sizeof(small)),
		  strlen(url) + 4);
	CHECK_STR(small, "postgre");
	return 0;
}

static int find_finds_a_url_in_a_word(void)
{
	const char *w = "--store=postgres://x";

	CHECK(pgurl_find(w) == w + 8);
	CHECK(pgurl_find("--store=sqlite:x") == NULL);
	return 0;
}

static int take_removes_every_one_and_keeps_the_last_value(void)
{
	char *rest, *value;

	CHECK_INT(pgurl_take("postgresql:///d?require_auth=md5&port=1&"
			     "require%5Fauth=%21password",
			     "require_auth", &rest, &value),
		  0);
	CHECK_STR(rest, "postgresql:///d?port=1");
	CHECK_STR(value, "!password");
	free(rest);
	free(value);
	CHECK_INT(pgurl_take("postgresql:///d?port=1", "require_auth", &rest,
			     &value),
		  0);
	CHECK_STR(rest, "postgresql:///d?port=1");
	CHECK(value == NULL);
	free(rest);
	CHECK_INT(pgurl_take("postgresql:///d?require_auth=%zz", "require_auth",
			     &rest, &value),
		  -EINVAL);
	return 0;
}

static int auth_default_refuses_clear_text_and_md5_only(void)
{
	unsigned allowed;
	char err[256];

	CHECK_INT(store_pg_auth_parse(STORE_PG_REQUIRE_AUTH, &allowed, err,
				      sizeof(err)),
		  0);
	CHECK_INT(allowed, STORE_PG_ALL & ~(STORE_PG_PASSWORD | STORE_PG_MD5));
	CHECK_INT(store_pg_auth_parse("scram-sha-256,none", &allowed, err,
				      sizeof(err)),
		  0);
	CHECK_INT(allowed, STORE_PG_SCRAM | STORE_PG_NONE);
	CHECK_INT(store_pg_auth_parse("", &allowed, err, sizeof(err)), 0);
	CHECK_INT(allowed, STORE_PG_ALL);
	return 0;
}

static int auth_refuses_what_libpq_16_refuses(void)
{
	unsigned allowed;
	char err[256];

	CHECK_INT(store_pg_auth_parse("password,!md5", &allowed, err,
				      sizeof(err)),
		  -EINVAL);
	CHECK_CONTAINS(err, "negated");
	CHECK_INT(store_pg_auth_parse("md5,md5", &allowed, err, sizeof(err)),
		  -EINVAL);
	CHECK_INT(store_pg_auth_parse("cleartext", &allowed, err, sizeof(err)),
		  -EINVAL);
	CHECK_CONTAINS(err, "\"cleartext\" is no method");
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"mask_takes_the_user_info_to_its_first_at", mask_takes_the_user_info_to_its_first_at},
	{"mask_hides_every_password_parameter", mask_hides_every_password_parameter},
	{"mask_hides_keys_libpq_does_not_know", mask_hides_keys_libpq_does_not_know},
	{"mask_leaves_what_has_no_password", mask_leaves_what_has_no_password},
	{"mask_goes_on_past_a_host_list_libpq_refuses", mask_goes_on_past_a_host_list_libpq_refuses},
	{"mask_says_how_long_it_would_be", mask_says_how_long_it_would_be},
	{"find_finds_a_url_in_a_word", find_finds_a_url_in_a_word},
	{"take_removes_every_one_and_keeps_the_last_value", take_removes_every_one_and_keeps_the_last_value},
	{"auth_default_refuses_clear_text_and_md5_only", auth_default_refuses_clear_text_and_md5_only},
	{"auth_refuses_what_libpq_16_refuses", auth_refuses_what_libpq_16_refuses},
};
/* clang-format on */

TEST_MAIN(tests)
