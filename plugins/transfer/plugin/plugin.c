/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The transfer plugin: network and command transfers. transfer/tcp and
 * transfer/tls send to a receiver (a loopback thread, or hostbench-serve on
 * another host), transfer/tls-handshake counts handshakes, and
 * transfer/command times an external command such as scp.
 */
#include <string.h>

#include <openssl/crypto.h>

#include <hostbench/plugin.h>

#include "ends.h"
#include "protocol/err.h"
#include "peers.h"
#include "transfer.h"

static const char *const tls_versions[] = { "1.3", "1.2", NULL };
static const char *const key_types[] = { "auto", "rsa2048", "ec-p256", NULL };

/* clang-format off */
/* Where to send: shared by the network targets. */
#define PEER_OPTIONS                                                           \
	{ .name = "peer",                                                      \
	  .type = HB_OPT_STRING,                                               \
	  .def = "",                                                           \
	  .help = "HOST:PORT of a `hostbench serve`, or several, "             \
		  "comma-separated (quoted: one case), each worker sending "   \
		  "to all of them in turn; empty: a receiver on 127.0.0.1 in " \
		  "this process" },                                            \
		{ .name = "token",                                             \
		  .type = HB_OPT_SECRET,                                       \
		  .def = "",                                                   \
		  .help = "the token the peer's `hostbench serve --token` "    \
			  "expects (several peers: one for all, or one per "   \
			  "peer, comma-separated); empty: $HOSTBENCH_TOKEN" }, \
	{                                                                      \
		.name = "io_timeout", .type = HB_OPT_DURATION, .def = "10s",   \
		.help = "limit for connecting and for each send or receive"    \
	}

/* Socket tuning: shared by the network targets. */
#define SOCKET_OPTIONS                                                         \
	{ .name = "sndbuf",                                                    \
	  .type = HB_OPT_SIZE,                                                 \
	  .def = "0",                                                          \
	  .help = "SO_SNDBUF of the sender; 0 keeps the kernel's autotuning",  \
	  .min = 0,                                                            \
	  .max = 1 << 30 },                                                    \
		{ .name = "rcvbuf",                                            \
		  .type = HB_OPT_SIZE,                                         \
		  .def = "0",                                                  \
		  .help = "SO_RCVBUF of both sockets; 0 keeps the kernel's "   \
			  "autotuning",                                        \
		  .min = 0,                                                    \
		  .max = 1 << 30 },                                            \
	{                                                                      \
		.name = "nodelay", .type = HB_OPT_BOOL, .def = "false",        \
		.help = "set TCP_NODELAY (no Nagle coalescing)"                \
	}

/* TLS choices: shared by transfer/tls and transfer/tls-handshake. */
#define TLS_OPTIONS                                                            \
	{ .name = "tls_version",                                               \
	  .type = HB_OPT_ENUM,                                                 \
	  .def = "1.3",                                                        \
	  .help = "TLS protocol version",                                      \
	  .choices = tls_versions },                                           \
		{ .name = "cipher",                                            \
		  .type = HB_OPT_STRING,                                       \
		  .def = "auto",                                               \
		  .help = "suite: TLS_AES_256_GCM_SHA384, "                    \
			  "TLS_AES_128_GCM_SHA256, "                           \
			  "TLS_CHACHA20_POLY1305_SHA256, or a 1.2 OpenSSL "    \
			  "name; auto: "                                       \
			  "AES-256-GCM" },                                     \
	{                                                                      \
		.name = "key", .type = HB_OPT_ENUM, .def = "auto",             \
		.help = "certificate key; auto: ec-p256 for ECDSA suites, "    \
			"else "                                                \
			"rsa2048",                                             \
		.choices = key_types                                           \
	}

#define SIZE_OPTION                                                            \
	{                                                                      \
		.name = "size", .type = HB_OPT_SIZE, .def = "128K",            \
		.help = "bytes per send call (one iteration)", .min = 1,       \
		.max = 1 << 30                                                 \
	}

static const struct hb_option tcp_options[] = {
	SIZE_OPTION,
	{ .name = "zerocopy",
	  .type = HB_OPT_BOOL,
	  .def = "false",
	  .help = "send with MSG_ZEROCOPY (skipped where the kernel has "
		  "none)" },
	SOCKET_OPTIONS,
	PEER_OPTIONS,
	{ 0 },
};

static const struct hb_option tls_options[] = {
	SIZE_OPTION, TLS_OPTIONS, SOCKET_OPTIONS, PEER_OPTIONS, { 0 },
};

static const struct hb_option handshake_options[] = {
	TLS_OPTIONS,
	{ .name = "resume",
	  .type = HB_OPT_BOOL,
	  .def = "false",
	  .help = "resume the previous session (TLS 1.3 ticket) instead of a "
		  "full handshake" },
	SOCKET_OPTIONS,
	PEER_OPTIONS,
	{ 0 },
};

/* Where transfer/command's figure takes its time from. */
static const char *const timed_by_choices[] = { "command", "ssh", NULL };

static const struct hb_option command_options[] = {
	{ .name = "command",
	  .type = HB_OPT_STRING,
	  .help = "the command, split like a shell line but never run by one; "
		  "{file}, {worker} and {any_key} are replaced per argument; "
		  "any "
		  "other key of the job is a template variable" },
	{ .name = "file_size",
	  .type = HB_OPT_SIZE,
	  .def = "64M",
	  .help = "bytes in {file} (random), and bytes counted per run",
	  .min = 1 },
	{ .name = "file_dir",
	  .type = HB_OPT_STRING,
	  .def = "",
	  .help = "where {file} is made; empty: $TMPDIR or /tmp" },
	{ .name = "command_timeout",
	  .type = HB_OPT_DURATION,
	  .def = "10m",
	  .help = "a run that takes longer is killed and fails the case" },
	{ .name = "timed_by",
	  .type = HB_OPT_ENUM,
	  .def = "command",
	  .choices = timed_by_choices,
	  .help = "the figure's time: the whole command's, or ssh's own "
		  "session (ssh -v's Bytes per second; needs -v)" },
	{ 0 },
};
/* clang-format on */

static const struct hb_target targets[] = {
	{ .group = "transfer",
	  .name = "tcp",
	  .summary = "TCP stream throughput, bytes received per second",
	  .work = HB_WORK_BYTES,
	  .options = tcp_options },
	{ .group = "transfer",
	  .name = "tls",
	  .summary = "TLS stream throughput (OpenSSL), bytes received per "
		     "second",
	  .work = HB_WORK_BYTES,
	  .options = tls_options },
	{ .group = "transfer",
	  .name = "tls-handshake",
	  .summary = "TLS handshakes per second over new TCP connections",
	  .work = HB_WORK_OPS,
	  .options = handshake_options },
	{ .group = "transfer",
	  .name = "command",
	  .summary = "an external command moving file_size bytes (scp, ...)",
	  .work = HB_WORK_BYTES,
	  .options = command_options,
	  .flags = HB_TARGET_EXTRA_KEYS | HB_TARGET_TOOL_TIMED },
	{ 0 },
};

static int transfer_describe(struct hb_about *a, char *err, size_t errlen)
{
	const char *v = OpenSSL_version(OPENSSL_VERSION);

	(void)err;
	(void)errlen;
	/* "OpenSSL 3.0.19 27 Jan 2026": the name is given separately. */
	if (strncmp(v, "OpenSSL ", 8) == 0)
		v += 8;
	a->library(a, "OpenSSL", v);
	return 0;
}

static int transfer_setup(const struct hb_case *c, void **state, char *err,
			  size_t errlen)
{
	const char *name = c->target->name;

	if (strcmp(name, "tcp") == 0)
		return stream_setup(c, 0, state, err, errlen);
	if (strcmp(name, "tls") == 0)
		return stream_setup(c, 1, state, err, errlen);
	if (strcmp(name, "tls-handshake") == 0)
		return handshake_setup(c, state, err, errlen);
	if (strcmp(name, "command") == 0)
		return command_setup(c, state, err, errlen);
	return hb_errorf(err, errlen, HB_ENOTSUP, "no target %s", name);
}

/*
 * Checks that touch nothing: a command's template and file_dir, the peers'
 * addresses and ports, and as many tokens as peers.
 */
static int transfer_validate(const struct hb_case *c, char *err, size_t errlen)
{
	const char *peer;
	struct peers p;
	int rc;

	if (strcmp(c->target->name, "command") == 0)
		return command_validate(c, err, errlen);
	peer = c->host->get_str(c, "peer");
	if (!peer || !peer[0])
		return 0;
	rc = peers_parse(peer, ends_token(c), &p, err, errlen);
	peers_free(&p);
	return rc;
}

static int transfer_run(void *state, uint64_t iterations, struct hb_done *done,
			char *err, size_t errlen)
{
	const struct transfer_state *s = state;

	return s->ops->run(state, iterations, done, err, errlen);
}

static void transfer_teardown(void *state)
{
	const struct transfer_state *s = state;

	s->ops->teardown(state);
}

static const struct hb_plugin plugin = {
	.abi_major = HB_ABI_MAJOR,
	.abi_minor = HB_ABI_MINOR,
	.size = sizeof(struct hb_plugin),
	.name = "transfer",
	.version = "1.0.0",
	.summary = "TCP, TLS and TLS-handshake transfers, external commands",
	.targets = targets,
	.describe = transfer_describe,
	.setup = transfer_setup,
	.run = transfer_run,
	.teardown = transfer_teardown,
	.validate = transfer_validate,
};

HB_EXPORT const struct hb_plugin *hostbench_plugin_entry(void)
{
	return &plugin;
}
