/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helper processes: the core's side. Plugin code never runs in the core
 * (docs/reliability.md): loading a plugin, asking it to describe or
 * validate, and running a case each happen in a helper, a fresh copy of
 * hostbench started by exec (posix_spawn of /proc/self/exe) in an internal
 * mode. The helper's guardian (proc/guardian.h) does the work in a child
 * of its own, kills everything that child left behind, and answers on a
 * pipe. The core gives it a deadline and a stop flag, and notices its exit
 * with waitpid, never with end of file alone.
 */
#ifndef HB_CORE_PROC_HELPER_H
#define HB_CORE_PROC_HELPER_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#include "proc/container.h"

/* The descriptor numbers a helper finds what it is given on. */
enum helper_fd {
	HELPER_FD_REQUEST = 0, /* the request text, then end of file */
	HELPER_FD_STDOUT = 1,  /* a pipe the core reads, never its stdout */
	HELPER_FD_PLUGIN = 3,  /* the plugin file, opened and checked once */
	HELPER_FD_ANSWER = 4,  /* the guardian's answer */
	HELPER_FD_PLUGIN2 = 5, /* a second plugin (`hostbench check`) */
};

/* The argument that puts hostbench in helper mode: `hostbench __helper`. */
#define HELPER_ARG "__helper"

/* What to ask of a helper. */
struct helper_req {
	const char *mode;    /* the task: "probe", "validate", "case" */
	int plugin_fd;	     /* given as HELPER_FD_PLUGIN, or -1 */
	int plugin_fd2;	     /* given as HELPER_FD_PLUGIN2, or 0: none */
	const char *request; /* written to its standard input, or NULL */
	double timeout;	     /* seconds until it is stopped */
	const volatile sig_atomic_t *stop; /* nonzero: stop it now (or NULL) */
	const struct container_bounds *bounds; /* or NULL: container_default()'s
						* of a one-thread helper */
};

/* How a helper's task ended, as its guardian saw it. */
enum helper_end {
	HELPER_EXITED,	    /* the task exited with status `code` */
	HELPER_SIGNALLED,   /* the task was killed by signal `code` */
	HELPER_TIMED_OUT,   /* the deadline passed */
	HELPER_INTERRUPTED, /* *stop became nonzero */
	HELPER_BOUND,	    /* stopped at once at a bound of hits */
	HELPER_LOST,	    /* the guardian itself gave no answer */
};

/* What came back from a helper. */
struct helper_out {
	enum helper_end end;
	int code;      /* the exit status or signal, by end */
	char *answer;  /* the task's answer (NUL-terminated), or NULL: an
			* answer counts however the task then ended */
	size_t len;    /* its length */
	char out[121]; /* the start of what the task wrote on stdout */
	size_t outlen;
	pid_t task; /* the task's pid (0 if unknown), for names of leftovers */
	int hits;   /* the container_hit bits of the bounds it reached */
	uint64_t shared; /* the most shared memory the host gained while it
			  * ran, where watched (proc/watch.h) */
};

/* Largest answer read from a helper; a longer one is garbage. */
#define HELPER_ANSWER_MAX ((size_t)256 << 20)

/*
 * Start a helper for req in a container of its own (proc/container.h)
 * bounded by req->bounds, feed it the request, and wait until it has
 * answered and exited, its deadline passed or *stop became nonzero (then
 * it is told to end, and killed if it does not within a second). Then
 * every process left in its container is killed, whatever became of the
 * guardian. Returns 0 with out filled (free with helper_out_free),
 * or a negative errno when no helper could be started, with err filled.
 */
int helper_run(const struct helper_req *req, struct helper_out *out, char *err,
	       size_t errlen);

/*
 * A descriptor that polls readable when process pid exits (pidfd_open),
 * or -1 where the kernel has none (then callers poll waitpid on a short
 * period).
 */
int helper_pidfd(pid_t pid);

/*
 * The decimal number at s (leading blanks skipped) with *end after it, or
 * -1 with *end = s when there is none. For the kernel's and the helpers'
 * own lines, which hold only non-negative numbers.
 */
long helper_number(const char *s, const char **end);

/* Write all of buf to fd (retrying short writes). Returns 0 or -1. */
int helper_write(int fd, const char *buf, size_t len);

/* Free what out holds. */
void helper_out_free(struct helper_out *out);

/*
 * How a task that did not answer ended, in words for a reason: "crashed:
 * SIGSEGV", "exited with status 0", "no answer within 10 s", "was
 * interrupted". what goes before ("while loading").
 */
void helper_describe_end(const struct helper_out *out, double timeout,
			 const char *what, char *buf, size_t len);

#endif
