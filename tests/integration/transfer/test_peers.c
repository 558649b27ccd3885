/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The peer list of the network targets (plugins/transfer/plugin/peers.c):
 * one HOST:PORT or several, comma-separated, and one token for all of them
 * or one per peer.
 */
#include <string.h>

#include <hostbench/plugin.h>

#include "check.h"
#include "peers.h"

/* Tokens that pass the rule of plugins/transfer/protocol/token.h. */
#define T1 "6f1c0e5b9a2d47c3"
#define T2 "90ab7d13e4f25c68"
#define T3 "c4e8a1f05b7d2936"

static int one_peer_takes_its_token_whole(void)
{
	struct peers p;
	char err[256];

	CHECK_INT(peers_parse("lab2:5201", T1 "," T2, &p, err, sizeof(err)), 0);
	CHECK_INT((int)p.n, 1);
	CHECK_STR(p.addr[0], "lab2:5201");
	CHECK_STR(p.token[0], T1 "," T2);
	peers_free(&p);
	return 0;
}

static int a_list_is_split_and_trimmed_with_a_token_each(void)
{
	struct peers p;
	char err[256];

	CHECK_INT(peers_parse(" 127.0.0.1:1 ,[::1]:2,\tlab3:3 ",
			      T1 ", " T2 " ,\t" T3, &p, err, sizeof(err)),
		  0);
	CHECK_INT((int)p.n, 3);
	CHECK_STR(p.addr[0], "127.0.0.1:1");
	CHECK_STR(p.addr[1], "[::1]:2");
	CHECK_STR(p.addr[2], "lab3:3");
	CHECK_STR(p.token[0], T1);
	CHECK_STR(p.token[1], T2);
	CHECK_STR(p.token[2], T3);
	peers_free(&p);
	return 0;
}

static int one_token_serves_every_peer(void)
{
	struct peers p;
	char err[256];

	CHECK_INT(peers_parse("a:1,b:2", T1, &p, err, sizeof(err)), 0);
	CHECK_STR(p.token[0], T1);
	CHECK_STR(p.token[1], T1);
	peers_free(&p);
	return 0;
}

static int a_token_count_that_matches_neither_is_refused(void)
{
	struct peers p;
	char err[256];

	CHECK_INT(peers_parse("a:1,b:2", "s3cr3t,t2,t3", &p, err, sizeof(err)),
		  HB_EINVAL);
	CHECK_CONTAINS(err, "token: 3 tokens for 2 peers");
	CHECK(strstr(err, "s3cr3t") == NULL);
	peers_free(&p);
	return 0;
}

static int an_empty_or_bad_item_is_named(void)
{
	struct peers p;
	char err[256];

	CHECK_INT(peers_parse("a:1,,b:2", "", &p, err, sizeof(err)), HB_EINVAL);
	CHECK_CONTAINS(err, "peer 2 of 3 is empty");
	peers_free(&p);
	CHECK_INT(peers_parse("a:1,b:2,", "", &p, err, sizeof(err)), HB_EINVAL);
	CHECK_CONTAINS(err, "peer 3 of 3 is empty");
	peers_free(&p);
	CHECK_INT(peers_parse("a:1, lab2", "", &p, err, sizeof(err)),
		  HB_EINVAL);
	CHECK_CONTAINS(err, "\"lab2\" is not HOST:PORT");
	peers_free(&p);
	CHECK_INT(peers_parse("a:1, b:70000", "", &p, err, sizeof(err)),
		  HB_EINVAL);
	CHECK_CONTAINS(err, "\"b:70000\": the port must be a number");
	peers_free(&p);
	return 0;
}

static int a_short_token_is_refused_without_showing_it(void)
{
	struct peers p;
	char err[256];

	CHECK_INT(peers_parse("a:1", "s3cr3t", &p, err, sizeof(err)),
		  HB_EINVAL);
	CHECK_CONTAINS(err, "token: the token has 6 characters, at least 16");
	CHECK_CONTAINS(err, "openssl rand -hex 16");
	CHECK(strstr(err, "s3cr3t") == NULL);
	peers_free(&p);
	CHECK_INT(peers_parse("a:1", "", &p, err, sizeof(err)), HB_EINVAL);
	CHECK_CONTAINS(err, "no token given");
	peers_free(&p);
	return 0;
}

static int a_token_of_few_characters_is_refused(void)
{
	struct peers p;
	char err[256];

	CHECK_INT(peers_parse("a:1", "abababababababababab", &p, err,
			      sizeof(err)),
		  HB_EINVAL);
	CHECK_CONTAINS(err, "only 2 different characters");
	CHECK(strstr(err, "abab") == NULL);
	peers_free(&p);
	return 0;
}

static int the_bad_token_of_a_list_is_named_by_its_place(void)
{
	struct peers p;
	char err[256];

	CHECK_INT(peers_parse("a:1,b:2", T1 ", short", &p, err, sizeof(err)),
		  HB_EINVAL);
	CHECK_CONTAINS(err, "token 2 of 2: the token has 5 characters");
	CHECK(strstr(err, "short") == NULL && strstr(err, T1) == NULL);
	peers_free(&p);
	return 0;
}

static const struct test tests[] = {
	{ "one_peer_takes_its_token_whole", one_peer_takes_its_token_whole },
	{ "a_list_is_split_and_trimmed_with_a_token_each",
	  a_list_is_split_and_trimmed_with_a_token_each },
	{ "one_token_serves_every_peer", one_token_serves_every_peer },
	{ "a_token_count_that_matches_neither_is_refused",
	  a_token_count_that_matches_neither_is_refused },
	{ "an_empty_or_bad_item_is_named", an_empty_or_bad_item_is_named },
	{ "a_short_token_is_refused_without_showing_it",
	  a_short_token_is_refused_without_showing_it },
	{ "a_token_of_few_characters_is_refused",
	  a_token_of_few_characters_is_refused },
	{ "the_bad_token_of_a_list_is_named_by_its_place",
	  the_bad_token_of_a_list_is_named_by_its_place },
};

TEST_MAIN(tests)
