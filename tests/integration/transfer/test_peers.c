/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The peer list of the network targets (plugins/transfer/peers.c): one
 * HOST:PORT or several, comma-separated, and one token for all of them or
 * one per peer.
 */
#include <string.h>

#include <hostbench/plugin.h>

#include "check.h"
#include "peers.h"

static int one_peer_takes_its_token_whole(void)
{
	struct peers p;
	char err[256];

	CHECK_INT(peers_parse("lab2:5201", "a,b", &p, err, sizeof(err)), 0);
	CHECK_INT((int)p.n, 1);
	CHECK_STR(p.addr[0], "lab2:5201");
	CHECK_STR(p.token[0], "a,b");
	peers_free(&p);
	return 0;
}

static int a_list_is_split_and_trimmed_with_a_token_each(void)
{
	struct peers p;
	char err[256];

	CHECK_INT(peers_parse(" 127.0.0.1:1 ,[::1]:2,\tlab3:3 ", "x, y ,z", &p,
			      err, sizeof(err)),
		  0);
	CHECK_INT((int)p.n, 3);
	CHECK_STR(p.addr[0], "127.0.0.1:1");
	CHECK_STR(p.addr[1], "[::1]:2");
	CHECK_STR(p.addr[2], "lab3:3");
	CHECK_STR(p.token[0], "x");
	CHECK_STR(p.token[1], "y");
	CHECK_STR(p.token[2], "z");
	peers_free(&p);
	return 0;
}

static int one_token_serves_every_peer(void)
{
	struct peers p;
	char err[256];

	CHECK_INT(peers_parse("a:1,b:2", "t", &p, err, sizeof(err)), 0);
	CHECK_STR(p.token[0], "t");
	CHECK_STR(p.token[1], "t");
	peers_free(&p);
	CHECK_INT(peers_parse("a:1,b:2", "", &p, err, sizeof(err)), 0);
	CHECK_STR(p.token[1], "");
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

static const struct test tests[] = {
	{ "one_peer_takes_its_token_whole", one_peer_takes_its_token_whole },
	{ "a_list_is_split_and_trimmed_with_a_token_each",
	  a_list_is_split_and_trimmed_with_a_token_each },
	{ "one_token_serves_every_peer", one_token_serves_every_peer },
	{ "a_token_count_that_matches_neither_is_refused",
	  a_token_count_that_matches_neither_is_refused },
	{ "an_empty_or_bad_item_is_named", an_empty_or_bad_item_is_named },
};

TEST_MAIN(tests)
