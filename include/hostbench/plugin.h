/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hostbench plugin ABI: the only header a plugin needs.
 *
 * A plugin is a shared object that exports exactly one symbol,
 * hostbench_plugin_entry(), returning a constant struct hb_plugin. The core
 * owns time, threads, statistics and output; a plugin does work when asked
 * and reports how much it did. A plugin never times itself, never writes to
 * stdout, never calls exit() or abort().
 *
 * Lifecycle of one case with N workers (see docs/plugins.md):
 *   describe()                 once per process, after loading
 *   validate()                 once per case, before any case runs (1.1)
 *   setup() x N                serially, one state per worker
 *   run() ...                  concurrently, one thread per worker state
 *                              (or submit/poll ...: see HB_TARGET_ASYNC)
 *   teardown() x N             serially, always, for every state setup made
 */
#ifndef HOSTBENCH_PLUGIN_H
#define HOSTBENCH_PLUGIN_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A major bump breaks plugins; a minor bump only appends. */
#define HB_ABI_MAJOR 1
#define HB_ABI_MINOR 4

/* Name of the single symbol a plugin exports. */
#define HB_ENTRY_SYMBOL "hostbench_plugin_entry"

/* Mark the entry function exported when building with -fvisibility=hidden. */
#define HB_EXPORT __attribute__((visibility("default")))

/* Return codes: 0 success, HB_SKIP "not applicable here", negative errors. */
enum hb_code {
	HB_OK = 0,
	HB_SKIP =
		1, /* setup: the case cannot run on this host; reason in err */
	HB_EINVAL = -1,	 /* bad parameter or input */
	HB_ENOMEM = -2,	 /* allocation failed */
	HB_EIO = -3,	 /* an I/O or system call failed */
	HB_ECRYPTO = -4, /* a crypto library call failed */
	HB_EVERIFY = -5, /* output wrong: known-answer or tag check failed */
	HB_ENOTSUP = -6, /* asked for something the plugin does not do */
	HB_EFAIL = -7,	 /* any other failure */
	/* submit (1.2): the device queue is full; poll, then submit again */
	HB_BUSY = 2,
};

/* Type of one option value, as written in a suite. */
enum hb_opt_type {
	HB_OPT_SIZE,	  /* "64K", "1M", "4096": bytes, powers of 1024 */
	HB_OPT_SIZE_LIST, /* a list given to the plugin whole, never expanded */
	HB_OPT_INT,	  /* signed decimal integer */
	HB_OPT_BOOL,	  /* true/false, yes/no, on/off, 1/0 */
	HB_OPT_STRING,	  /* free text */
	HB_OPT_ENUM,	  /* one of choices[] */
	HB_OPT_DURATION,  /* "500ms", "2s", "1m": read as seconds */
	/*
	 * ABI 1.2 (appended only): free text whose value is never shown: not
	 * in any report, title, journal or log ("(secret)" stands for it).
	 * get_str() reads it. A core older than 1.2 refuses a plugin that
	 * declares one, naming the option; struct hb_option is unchanged.
	 */
	HB_OPT_SECRET,
};

/*
 * One option a target accepts. Options are plain data so the core can
 * validate a whole suite before any plugin code runs. A comma list in a
 * suite expands into cases unless the type is HB_OPT_SIZE_LIST.
 */
struct hb_option {
	const char *name; /* key in the suite, e.g. "size" */
	enum hb_opt_type type;
	const char *def;  /* default as suite text; NULL = required */
	const char *help; /* one line for `hostbench describe` */
	/*
	 * HB_OPT_ENUM: the values, NULL-terminated. HB_OPT_SIZE: words a
	 * suite may write in place of a size (mem's "llc"); get_size()
	 * answers 0 for one and get_str() the word. NULL: none.
	 */
	const char *const *choices;
	int64_t min; /* SIZE/INT/DURATION(ms): bounds when */
	int64_t max; /* max > min, inclusive                */
};

/* What one unit of work a target reports is. */
enum hb_work {
	HB_WORK_BYTES,	  /* figures in bytes/s (Gbps, GB/s, ...) */
	HB_WORK_FILES,	  /* bytes/s and files/s */
	HB_WORK_MESSAGES, /* bytes/s and messages/s */
	HB_WORK_OPS,	  /* operations/s only (handshakes, ...) */
};

/* Target flags. */
enum hb_target_flag {
	/* Unknown suite keys are passed to setup as strings, not refused. */
	HB_TARGET_EXTRA_KEYS = 1u << 0,
	/* (1.2) The target takes the plugin's submit/poll slots: the core
	 * keeps queue_depth units in flight per worker. */
	HB_TARGET_ASYNC = 1u << 1,
	/* (1.2) The work is done by a device, not the host CPU: idle host
	 * CPU is the point, so reports say "offload: host CPU N%" instead of
	 * flagging the case starved. */
	HB_TARGET_OFFLOAD = 1u << 2,
	/* (1.4) The timed path reads and writes the core's buffers
	 * (struct hb_buffers): the core reads what each unit wrote and
	 * verifies it, in `hostbench check` and after every sample of a run.
	 * The target's `size` option is one unit's bytes. */
	HB_TARGET_VERIFIED = 1u << 3,
	/* (1.4) The work is an external tool's that reports its own time
	 * (ssh's session of an scp): the target may tell it with tool_time()
	 * and its figure is then the tool's, the whole run's beside it. */
	HB_TARGET_TOOL_TIMED = 1u << 4,
};

/*
 * One benchmark kernel, named "group/name". A composite target (cipher then
 * MAC) names its halves in parts[]: targets of the same plugin that the core
 * measures with the same parameters, so reports can say which half bounds it.
 */
struct hb_target {
	const char *group;   /* "crypto", "hash", "mem", "io", ... */
	const char *name;    /* "aes-256-gcm" */
	const char *summary; /* one line */
	enum hb_work work;
	const struct hb_option
		*options;	  /* terminated by an entry with name NULL */
	unsigned flags;		  /* enum hb_target_flag */
	const char *const *parts; /* NULL, or NULL-terminated "group/name" */
};

struct hb_case;

/* Bytes of room the core gives each unit for its tag, MAC or digest. */
#define HB_TAG_ROOM 64

/*
 * (ABI 1.4) The buffers of one worker of a HB_TARGET_VERIFIED target. The
 * core allocates them before setup and frees them after teardown, and it
 * reads every unit's output from them itself: no answer of the plugin's
 * stands in for what its timed path wrote (`hostbench check`, and a
 * sample of every run, compare these bytes with a reference).
 *
 *   in       len bytes, the worker's input as the core filled it (the
 *            crypto SDK's HB_CRYPTO_SEED_DATA(worker)); read only. Every
 *            unit that encrypts, MACs or hashes reads it; a decrypt reads
 *            the ciphertext it prepared from it in setup.
 *   out[i]   len bytes: unit i's output (a cipher's; a decrypt's
 *            plaintext). 64-byte aligned.
 *   tag[i]   HB_TAG_ROOM bytes: unit i's tag, MAC or digest (<hostbench/
 *            crypto.h> says which, and what a decrypt writes).
 *
 * Which unit is i: through run(), the worker's k-th unit (k counted from
 * 0 over every run() call of the state) writes out[k % n]; through
 * submit(), the unit tagged tag writes out[tag] (the core's tags are
 * below n). The plugin's obligation: it writes out[i] and tag[i] only
 * while unit i is its own, from its submit until the poll that hands it
 * back (during the run() call that does it), and never after; the core
 * reads them from then until it submits tag i again.
 */
struct hb_buffers {
	const uint8_t *in;
	size_t len;	     /* bytes of in and of each out[i] */
	unsigned n;	     /* units of out and tag */
	uint8_t *const *out; /* n buffers of len bytes */
	uint8_t *const *tag; /* n buffers of HB_TAG_ROOM bytes */
};

/*
 * The host API: how a plugin reads the parameters of its case and tells the
 * core about it. Getters take an option name from the target's table; the
 * core validated every value against that table already, so a getter never
 * fails for a declared option. note(), warn() and log() may be called from
 * setup and teardown (serial), not from run.
 */
struct hb_host {
	uint32_t size; /* sizeof(struct hb_host) of the core */
	uint64_t (*get_size)(const struct hb_case *c, const char *name);
	/*
	 * (1.2) get_int also answers the core key "queue_depth": the units
	 * the core keeps in flight per worker (1 for a synchronous target),
	 * so setup can size its slots. A target that declares its own
	 * queue_depth option (ABI 1.1) reads that option instead.
	 */
	int64_t (*get_int)(const struct hb_case *c, const char *name);
	int (*get_bool)(const struct hb_case *c, const char *name);
	/* STRING and ENUM values, and the raw text of any option. */
	const char *(*get_str)(const struct hb_case *c, const char *name);
	/* DURATION values, in seconds. */
	double (*get_duration)(const struct hb_case *c, const char *name);
	/* SIZE_LIST: fills up to max values, returns how many there are. */
	size_t (*get_size_list)(const struct hb_case *c, const char *name,
				uint64_t *out, size_t max);
	/* Record a fact in the result ("provider" = "default"). Last wins. */
	void (*note)(const struct hb_case *c, const char *key,
		     const char *value);
	/* Add a warning to the result; it is shown in every report format. */
	void (*warn)(const struct hb_case *c, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));
	/* A diagnostic line on stderr, prefixed with the case. */
	void (*log)(const struct hb_case *c, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));
	/*
	 * From run() of an HB_TARGET_TOOL_TIMED target, once per iteration:
	 * the seconds the tool that did the iteration's work says it took
	 * (ssh's session time). The core adds them up per worker and
	 * sample and keeps no more than the run() call's own wall time; a
	 * sample's figure is then the work over the tool's time, and the
	 * report names it so, with the whole run's figure beside. Ignored
	 * from any other target. Present when size reaches it (check
	 * host->size >= offsetof(struct hb_host, tool_time) + sizeof(void *)
	 * in a plugin built for several cores).
	 */
	void (*tool_time)(const struct hb_case *c, double seconds);
};

/* Everything setup needs to know about the case it prepares a worker for. */
struct hb_case {
	const struct hb_host *host;
	const struct hb_target *target;
	unsigned worker;  /* 0 .. workers-1 */
	unsigned workers; /* the case's parallel */
	void *core;	  /* the core's own; plugins do not touch it */
	/* (1.4) A HB_TARGET_VERIFIED target's buffers; NULL otherwise. */
	const struct hb_buffers *buffers;
};

/* Work a run() call did. bytes for byte targets, ops for every target. */
struct hb_done {
	uint64_t bytes;
	uint64_t ops;
};

/*
 * One finished unit of an asynchronous target (ABI 1.2): the tag it was
 * submitted with, its status (0, or a negative HB_E* code that fails the
 * case) and what it did. device_ns is the time the device reports it
 * spent on the unit, or 0 when it reports none.
 */
struct hb_completion {
	uint64_t tag;
	int status;
	struct hb_done done;
	uint64_t device_ns;
};

/*
 * One message the core hands a target for a conformance check (ABI 1.2,
 * `hostbench check`): its own key, IV, AAD and data. The plugin uses the
 * first bytes of key, mac_key and iv its algorithm needs (the core gives
 * 64 of each), writes len bytes to out (ciphers, AEADs and composites),
 * and writes the tag (AEAD tag, or the MAC or digest; a composite's MAC
 * over the ciphertext with mac_key) to tag, setting tag_len. A MAC target
 * (HMAC, Poly1305) takes its key from key, never from mac_key: an HMAC as
 * many bytes as its digest has, Poly1305 32 (<hostbench/crypto.h>,
 * hb_crypto_message_inputs, says what the timed rows pass). To decrypt,
 * in is the ciphertext and tag the tag to check: a mismatch is
 * HB_EVERIFY, never a wrong plaintext.
 */
struct hb_message {
	int encrypt; /* 1 encrypt (or MAC, digest), 0 decrypt and verify */
	const uint8_t *key, *mac_key, *iv; /* 64 bytes each */
	const uint8_t *aad;
	size_t aad_len;
	const uint8_t *in;
	uint8_t *out;
	size_t len;
	uint8_t *tag;	/* 64 bytes of room */
	size_t tag_len; /* out: bytes of tag written; in: to check */
};

/* (1.3, unused since 1.4) What the output slot answered. */
#define HB_OUTPUT_FRESH UINT64_MAX

/*
 * (1.3, unused since 1.4) What the output slot described. The core no
 * longer calls output(): it reads the timed path's output from the
 * buffers it owns (struct hb_buffers), so no answer outside the timed
 * calls can stand in for them.
 */
struct hb_output {
	uint64_t message;
	uint64_t after;
	const uint8_t *data;
	size_t len;
	const uint8_t *tag;
	size_t tag_len;
};

/* Run-time facts about the plugin, filled by describe(). */
struct hb_about {
	void *core; /* the core's own */
	/* A library this plugin runs on, e.g. ("OpenSSL", "3.0.19 ..."). */
	void (*library)(struct hb_about *a, const char *name,
			const char *version);
	/* A target that cannot run on this host, with the reason. */
	void (*unusable)(struct hb_about *a, const char *target,
			 const char *reason);
};

/*
 * The plugin vtable and descriptor. Fill it with designated initializers.
 * abi_major, abi_minor and size come first so the core can refuse a plugin
 * built for another ABI before reading anything else.
 */
struct hb_plugin {
	uint16_t abi_major;  /* HB_ABI_MAJOR */
	uint16_t abi_minor;  /* HB_ABI_MINOR */
	uint32_t size;	     /* sizeof(struct hb_plugin) */
	const char *name;    /* backend name: "openssl", "mem" */
	const char *version; /* plugin version */
	const char *summary; /* one line */
	const struct hb_target
		*targets; /* terminated by an entry with name NULL */

	/*
	 * Report linked library versions and targets unusable on this host.
	 * Optional (NULL: no libraries, every target usable). Returns 0, or a
	 * negative code with err filled: the plugin is then refused.
	 */
	int (*describe)(struct hb_about *a, char *err, size_t errlen);

	/*
	 * Prepare one worker's state for case c: allocate and touch buffers,
	 * check known-answer vectors, create files. Returns 0 with *state set,
	 * HB_SKIP with the reason in err, or a negative code with err filled.
	 * On anything but 0 setup frees what it made; teardown is not called.
	 */
	int (*setup)(const struct hb_case *c, void **state, char *err,
		     size_t errlen);

	/*
	 * Do exactly `iterations` units of work (one unit is what the target
	 * calls one: a buffer, a block, a file, a handshake) and add what was
	 * done to *done. Called from the worker's own thread. Returns 0 or a
	 * negative code with err filled; the case then fails.
	 */
	int (*run)(void *state, uint64_t iterations, struct hb_done *done,
		   char *err, size_t errlen);

	/* Free everything setup made: memory, files, sockets. Never fails. */
	void (*teardown)(void *state);

	/* ---- ABI 1.1 ---- */

	/*
	 * Optional. Check a case's parameters against this host before any
	 * case of the suite runs (a directory that must exist, a template
	 * naming a parameter that is not there); c->worker is 0. Cheap and
	 * without side effects: create nothing. Returns 0, or a negative code
	 * with err filled: the suite is then refused as bad input. note()
	 * and warn() are not available here.
	 */
	int (*validate)(const struct hb_case *c, char *err, size_t errlen);

	/* ---- ABI 1.2 ---- */

	/*
	 * Optional asynchronous slots, both or neither, for the targets with
	 * HB_TARGET_ASYNC (modelled on fio's ioengine queue/getevents). The
	 * core keeps up to queue_depth units in flight per worker state and
	 * times each from submission to completion. Which path a case
	 * takes: submit/poll when the suite gives queue_depth (even 1) or
	 * the target is HB_TARGET_OFFLOAD; otherwise (a host-CPU target,
	 * queue_depth left out) run(), one unit at a time and untimed per
	 * unit, as `openssl speed` without -async_jobs. run is required, and
	 * both paths must do the same work: `hostbench check` verifies both.
	 * (1.4) A unit's buffers (struct hb_buffers) are the plugin's from
	 * its submit until the poll that hands it back, and the core's
	 * after: a plugin holds each unit's buffers until then, and never
	 * writes them after.
	 *
	 * submit: start one unit of work tagged tag (the core's; it comes
	 * back in the unit's completion). Returns 0 when accepted, HB_BUSY
	 * when the device queue is full (back-pressure: the core polls and
	 * submits again), or a negative code with err filled.
	 *
	 * poll: report finished units into out[0..max), in any order:
	 * wait at most timeout_ns (0: do not wait) until at least min have
	 * finished. Returns how many it wrote (0 is fine when min is 0 or
	 * the time ran out), or a negative code with err filled. The core
	 * polls until every unit it submitted has completed before it ends a
	 * sample and before teardown, so teardown never sees a unit in
	 * flight.
	 */
	int (*submit)(void *state, uint64_t tag, char *err, size_t errlen);
	int (*poll)(void *state, unsigned min, unsigned max,
		    uint64_t timeout_ns, struct hb_completion *out, char *err,
		    size_t errlen);

	/*
	 * Optional: process message m through case c's target and
	 * parameters, for `hostbench check` (a backend checked against a
	 * reference through this ABI only). Returns 0, HB_EVERIFY for a tag
	 * that does not match on decrypt, HB_SKIP when c's target cannot
	 * take m (a size off the block), or a negative code with err filled.
	 */
	int (*transform)(const struct hb_case *c, struct hb_message *m,
			 char *err, size_t errlen);

	/* ---- ABI 1.3 ---- */

	/*
	 * Unused since ABI 1.4: leave it NULL. A 1.3 plugin's output() is
	 * never called: its timed path writes buffers the core cannot read,
	 * so `hostbench check` calls its run and submit rows not verifiable
	 * and its runs carry the warning "not verified". Rebuilt for 1.4,
	 * a target sets HB_TARGET_VERIFIED and writes hb_case.buffers.
	 */
	int (*output)(void *state, uint64_t tag, struct hb_output *out,
		      char *err, size_t errlen);
};

/* The one exported symbol. */
typedef const struct hb_plugin *(*hb_entry_fn)(void);

/*
 * The entry function every plugin defines, marked HB_EXPORT:
 *   HB_EXPORT const struct hb_plugin *hostbench_plugin_entry(void) { ... }
 * Declared here so the compiler checks a plugin's signature.
 */
const struct hb_plugin *hostbench_plugin_entry(void);

/*
 * Seconds on CLOCK_MONOTONIC, for deadlines (a connection's, a child's);
 * only differences mean anything. Plugins never time their own work: the
 * core times every sample.
 */
static inline double hb_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/*
 * Fill err (when err and errlen are given) with a printf-style one-line
 * message, always NUL-terminated.
 */
static inline void hb_error_fill(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline void hb_error_fill(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/*
 * Fill err and evaluate to code, for every failure path of a plugin (and
 * of the core): `return hb_errorf(err, errlen, HB_EINVAL, "size %zu", n);`.
 * A macro, so static analysis sees which code comes back.
 */
#define hb_errorf(err, errlen, code, ...)                                      \
	(hb_error_fill((err), (errlen), __VA_ARGS__), (code))

#ifdef __cplusplus
}
#endif

#endif /* HOSTBENCH_PLUGIN_H */
