/* SPDX-License-Identifier: Apache-2.0 */
/* Run an external command with captured output and a time limit. */
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <hostbench/plugin.h>

#include "protocol/err.h"

/* How much of stderr's end is kept: the failure message, ssh's report. */
#define TAIL_MAX 1024

/* The child's pipes and what has been read of them. */
struct capture {
	int out, errfd, pidfd;
	char tail[TAIL_MAX + 1];
	size_t tail_len;
};

/* Keep the last TAIL_MAX bytes of stderr. */
static void keep_tail(struct capture *cp, const char *p, size_t n)
{
	if (n >= TAIL_MAX) {
		memcpy(cp->tail, p + n - TAIL_MAX, TAIL_MAX);
		cp->tail_len = TAIL_MAX;
		return;
	}
	if (cp->tail_len + n > TAIL_MAX) {
		size_t drop = cp->tail_len + n - TAIL_MAX;

		memmove(cp->tail, cp->tail + drop, cp->tail_len - drop);
		cp->tail_len -= drop;
	}
	memcpy(cp->tail + cp->tail_len, p, n);
	cp->tail_len += n;
}

/* Read what is ready on *fd; closes it and sets -1 at end of file. */
static void drain_fd(struct capture *cp, int *fd, int keep)
{
	char buf[65536];
	ssize_t n = read(*fd, buf, sizeof(buf));

	if (n > 0 && keep)
		keep_tail(cp, buf, (size_t)n);
	if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
		close(*fd);
		*fd = -1;
	}
}

/*
 * Read both pipes until they close and the child exits (pidfd readable),
 * or the deadline passes. Returns 0, or -1 on timeout.
 */
static int wait_output(struct capture *cp, double deadline)
{
	for (;;) {
		struct pollfd p[3] = { { .fd = cp->out, .events = POLLIN },
				       { .fd = cp->errfd, .events = POLLIN },
				       { .fd = cp->pidfd, .events = POLLIN } };
		double left = deadline - hb_now();
		int rc;

		/* Without a pidfd, the pipes closing means the child is done.
		 */
		if (cp->out < 0 && cp->errfd < 0 && cp->pidfd < 0)
			return 0;
		if (left <= 0)
			return -1;
		rc = poll(p, 3, (int)(left * 1000) + 1);
		if (rc < 0 && errno != EINTR)
			return -1;
		if (rc <= 0)
			continue;
		if (p[0].revents)
			drain_fd(cp, &cp->out, 0);
		if (p[1].revents)
			drain_fd(cp, &cp->errfd, 1);
		if (p[2].revents && cp->out < 0 && cp->errfd < 0)
			return 0;
		if (p[2].revents) {
			/* Exited, but a descendant holds the pipes: stop here.
			 */
			if (cp->out >= 0)
				close(cp->out);
			if (cp->errfd >= 0)
				close(cp->errfd);
			cp->out = cp->errfd = -1;
			return 0;
		}
	}
}

/* The stderr tail as one line: newlines become " / ", ends trimmed. */
static void tail_line(struct capture *cp, char *out, size_t len)
{
	size_t o = 0, i = 0, n = cp->tail_len;

	while (n && (cp->tail[n - 1] == '\n' || cp->tail[n - 1] == '\r' ||
		     cp->tail[n - 1] == ' '))
		n--;
	for (; i < n && o + 4 < len; i++) {
		char ch = cp->tail[i];

		if (ch == '\n') {
			memcpy(out + o, " / ", 3);
			o += 3;
		} else if (ch != '\r') {
			out[o++] = ch >= ' ' || ch == '\t' ? ch : '?';
		}
	}
	out[o] = '\0';
}

/*
 * File actions and attributes: /dev/null in, pipes out, no other
 * descriptor, default signal mask and SIGPIPE, its own process group.
 */
static int prepare(posix_spawn_file_actions_t *fa, posix_spawnattr_t *at,
		   int out_w, int err_w)
{
	sigset_t none, defaults;

	sigemptyset(&none);
	sigemptyset(&defaults);
	sigaddset(&defaults, SIGPIPE);
	sigaddset(&defaults, SIGCHLD);
	if (posix_spawn_file_actions_init(fa))
		return -1;
	if (posix_spawnattr_init(at)) {
		posix_spawn_file_actions_destroy(fa);
		return -1;
	}
	/* Nothing of this process but the three standard streams leaks in. */
	if (posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0) ||
	    posix_spawn_file_actions_adddup2(fa, out_w, 1) ||
	    posix_spawn_file_actions_adddup2(fa, err_w, 2) ||
	    posix_spawn_file_actions_addclosefrom_np(fa, 3) ||
	    posix_spawnattr_setpgroup(at, 0) ||
	    posix_spawnattr_setsigmask(at, &none) ||
	    posix_spawnattr_setsigdefault(at, &defaults) ||
	    posix_spawnattr_setflags(at, POSIX_SPAWN_SETPGROUP |
						 POSIX_SPAWN_SETSIGMASK |
						 POSIX_SPAWN_SETSIGDEF)) {
		posix_spawnattr_destroy(at);
		posix_spawn_file_actions_destroy(fa);
		return -1;
	}
	return 0;
}

/* Why the child ended, as the return code and message of spawn_run. */
static int verdict(int status, struct capture *cp, const char *name, char *err,
		   size_t errlen)
{
	char tail[TAIL_MAX * 2];

	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	tail_line(cp, tail, sizeof(tail));
	if (WIFEXITED(status))
		return hb_errorf(err, errlen, HB_EFAIL,
				 "command %s exited with status %d%s%s", name,
				 WEXITSTATUS(status), tail[0] ? ": " : "",
				 tail);
	return hb_errorf(err, errlen, HB_EFAIL,
			 "command %s killed by signal %d%s%s", name,
			 WTERMSIG(status), tail[0] ? ": " : "", tail);
}

int spawn_run(char *const argv[], double timeout, char *tail, size_t tail_len,
	      char *err, size_t errlen)
{
	extern char **environ;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	struct capture cp = { .pidfd = -1 };
	int po[2], pe[2], status = 0, rc;
	pid_t pid;

	if (pipe2(po, O_CLOEXEC))
		return hb_errorf(err, errlen, HB_EIO, "pipe: %s",
				 strerror(errno));
	if (pipe2(pe, O_CLOEXEC)) {
		rc = hb_errorf(err, errlen, HB_EIO, "pipe: %s",
			       strerror(errno));
		goto out_po;
	}
	if (prepare(&fa, &at, po[1], pe[1])) {
		rc = hb_errorf(err, errlen, HB_ENOMEM,
			       "posix_spawn setup failed");
		goto out_pe;
	}
	rc = posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		rc = hb_errorf(err, errlen, HB_EFAIL,
			       "command %s: cannot run: %s", argv[0],
			       strerror(rc));
		goto out_pe;
	}
	close(po[1]);
	close(pe[1]);
	cp.out = po[0];
	cp.errfd = pe[0];
	cp.pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (wait_output(&cp, hb_now() + timeout)) {
		/* The whole group, so helpers it started die with it. */
		kill(-pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		rc = hb_errorf(err, errlen, HB_EFAIL,
			       "command %s timed out after %g s and was killed",
			       argv[0], timeout);
	} else {
		/*
		 * Anything it left running in its group goes too; the zombie
		 * still holds the group id, so this reaches no one else.
		 */
		if (cp.pidfd >= 0)
			kill(-pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		rc = verdict(status, &cp, argv[0], err, errlen);
	}
	if (tail && tail_len)
		snprintf(tail, tail_len, "%.*s", (int)cp.tail_len, cp.tail);
	if (cp.out >= 0)
		close(cp.out);
	if (cp.errfd >= 0)
		close(cp.errfd);
	if (cp.pidfd >= 0)
		close(cp.pidfd);
	return rc;
out_pe:
	close(pe[0]);
	close(pe[1]);
out_po:
	close(po[0]);
	close(po[1]);
	return rc;
}
