/* SPDX-License-Identifier: Apache-2.0 */
/*
 * context_diff on facts built here: a context change said as the facts
 * that differ, never as bare ids.
 */
#include <stdio.h>

#include "check.h"
#include "history/context_diff.h"

#define OSSL_CPU_ON "AES-NI on, VAES on, AVX2 on; OPENSSL_ia32cap=0xfffa:0x405f"
#define OSSL_CPU_OFF                                                           \
	"AES-NI off, VAES on, AVX2 on; OPENSSL_ia32cap=0xfdfa:0x405f "         \
	"env:~0x200000000000000"

/* Facts of a context: kernel, OpenSSL (twice, as two plugins say it). */
static json_t *facts(const char *kernel, const char *openssl, const char *cpu)
{
	return json_pack("{s:s, s:s, s:s, s:[s, s], s:n, s:{s:{s:s, s:s}, "
			 "s:{s:s}}}",
			 "kernel", kernel, "os", "Debian GNU/Linux 12",
			 "hostbench", "0.1.0", "cpu_flags", "aes", "avx2",
			 "governor", "libraries", "openssl", "OpenSSL", openssl,
			 "OpenSSL CPU", cpu, "transfer", "OpenSSL", openssl);
}

static int diff_text_of(json_t *a, json_t *b, char *buf, size_t len)
{
	int rc = context_diff_text(a, b, buf, len);

	json_decref(a);
	json_decref(b);
	return rc;
}

static int openssl_version_said_once(void)
{
	char buf[512];

	CHECK_INT(
		diff_text_of(
			facts("Linux 6.1.0", "3.0.17 1 Jul 2025", OSSL_CPU_ON),
			facts("Linux 6.1.0", "3.0.19 27 Jan 2026", OSSL_CPU_ON),
			buf, sizeof(buf)),
		0);
	CHECK_STR(buf, "OpenSSL 3.0.17 -> 3.0.19");
	return 0;
}

static int kernel_cut_after_first_differing_component(void)
{
	char buf[512];

	CHECK_INT(diff_text_of(facts("Linux 6.1.0-18-amd64 #1 SMP Debian",
				     "3.0.19", OSSL_CPU_ON),
			       facts("Linux 6.18.44-fc #1 SMP", "3.0.19",
				     OSSL_CPU_ON),
			       buf, sizeof(buf)),
		  0);
	CHECK_STR(buf, "kernel 6.1 -> 6.18");
	CHECK_INT(diff_text_of(
			  facts("Linux 6.1.0-18-amd64", "3.0.19", OSSL_CPU_ON),
			  facts("Linux 6.1.0-21-amd64", "3.0.19", OSSL_CPU_ON),
			  buf, sizeof(buf)),
		  0);
	CHECK_STR(buf, "kernel 6.1.0-18-amd64 -> 6.1.0-21-amd64");
	return 0;
}

static int cpu_features_that_changed_and_their_cause(void)
{
	char buf[512];

	CHECK_INT(diff_text_of(facts("Linux 6.1", "3.0.19", OSSL_CPU_ON),
			       facts("Linux 6.1", "3.0.19", OSSL_CPU_OFF), buf,
			       sizeof(buf)),
		  0);
	CHECK_STR(buf, "OpenSSL CPU: AES-NI on -> off (OPENSSL_ia32cap)");
	return 0;
}

static int several_facts_in_a_fixed_order(void)
{
	char buf[512];

	CHECK_INT(diff_text_of(facts("Linux 6.1.0", "3.0.17", OSSL_CPU_ON),
			       facts("Linux 6.18.2", "3.0.19", OSSL_CPU_OFF),
			       buf, sizeof(buf)),
		  0);
	CHECK_STR(buf, "kernel 6.1 -> 6.18; OpenSSL 3.0.17 -> 3.0.19; "
		       "OpenSSL CPU: AES-NI on -> off (OPENSSL_ia32cap)");
	return 0;
}

static int flags_and_missing_facts(void)
{
	json_t *a = facts("Linux 6.1", "3.0.19", OSSL_CPU_ON);
	json_t *b = facts("Linux 6.1", "3.0.19", OSSL_CPU_ON);
	char buf[512];

	json_object_set_new(b, "cpu_flags", json_pack("[s, s]", "aes", "vaes"));
	json_object_set_new(
		json_object_get(json_object_get(b, "libraries"), "openssl"),
		"libfoo", json_string("1.2"));
	json_object_set_new(b, "governor", json_string("performance"));
	CHECK_INT(diff_text_of(a, b, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "governor (none) -> performance; CPU flags: -avx2 "
		       "+vaes; libfoo (none) -> 1.2");
	return 0;
}

static int same_facts_say_nothing(void)
{
	char buf[512];

	CHECK_INT(diff_text_of(facts("Linux 6.1", "3.0.19", OSSL_CPU_ON),
			       facts("Linux 6.1", "3.0.19", OSSL_CPU_ON), buf,
			       sizeof(buf)),
		  0);
	CHECK_STR(buf, "");
	CHECK_INT(diff_text_of(json_null(), json_null(), buf, sizeof(buf)), 0);
	CHECK_STR(buf, "");
	return 0;
}

/* The facts of an imported run's context: the tool that measured. */
static json_t *tool_facts(const char *name, const char *version)
{
	return json_pack("{s:{s:s, s:s?}}", "tool", "name", name, "version",
			 version);
}

static int tool_upgrade_said_by_the_tools_name(void)
{
	char buf[512];

	CHECK_INT(diff_text_of(tool_facts("fio", "3.33"),
			       tool_facts("fio", "3.35"), buf, sizeof(buf)),
		  0);
	CHECK_STR(buf, "fio 3.33 -> 3.35");
	CHECK_INT(diff_text_of(tool_facts("openssl", NULL),
			       tool_facts("openssl", "3.0.19"), buf,
			       sizeof(buf)),
		  0);
	CHECK_STR(buf, "openssl (none) -> 3.0.19");
	CHECK_INT(diff_text_of(tool_facts("fio", "3.33"),
			       tool_facts("fio", "3.33"), buf, sizeof(buf)),
		  0);
	CHECK_STR(buf, "");
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"tool_upgrade_said_by_the_tools_name", tool_upgrade_said_by_the_tools_name},
	{"openssl_version_said_once", openssl_version_said_once},
	{"kernel_cut_after_first_differing_component", kernel_cut_after_first_differing_component},
	{"cpu_features_that_changed_and_their_cause", cpu_features_that_changed_and_their_cause},
	{"several_facts_in_a_fixed_order", several_facts_in_a_fixed_order},
	{"flags_and_missing_facts", flags_and_missing_facts},
	{"same_facts_say_nothing", same_facts_say_nothing},
};
/* clang-format on */

TEST_MAIN(tests)
