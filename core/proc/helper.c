/* SPDX-License-Identifier: Apache-2.0 */
/* Start a helper process by exec, feed it, wait for its answer. */
#define _GNU_SOURCE /* pipe2 */
#include "proc/helper.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hostbench/plugin.h>

#include "proc/childenv.h"
#include "proc/watch.h"

/* Lowest descriptor the core's ends are moved to before a spawn, so no
 * dup2 of the file actions can overwrite another source descriptor. */
#define HELPER_FD_HIGH 10
/* Seconds a helper told to end gets before it is killed outright. */
#define HELPER_GRACE 1.0

/* The core's ends of a helper's pipes, and the helper's. */
struct helper_pipes {
	int request[2];
	int out[2];
	int answer[2];
};

/* Close fd if open, and mark it closed. */
static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void pipes_close(struct helper_pipes *p)
{
	for (int i = 0; i < 2; i++) {
		close_fd(&p->request[i]);
		close_fd(&p->out[i]);
		close_fd(&p->answer[i]);
	}
}

/* A pipe whose both ends sit at HELPER_FD_HIGH or above, close-on-exec. */
static int high_pipe(int fds[2])
{
	int low[2];

	if (pipe2(low, O_CLOEXEC))
		return -errno;
	for (int i = 0; i < 2; i++) {
		fds[i] = fcntl(low[i], F_DUPFD_CLOEXEC, HELPER_FD_HIGH);
		close(low[i]);
	}
	if (fds[0] >= 0 && fds[1] >= 0)
		return 0;
	close_fd(&fds[0]);
	close_fd(&fds[1]);
	return -EMFILE;
}

static int pipes_open(struct helper_pipes *p)
{
	int rc;

	*p = (struct helper_pipes){ { -1, -1 }, { -1, -1 }, { -1, -1 } };
	rc = high_pipe(p->request);
	if (!rc)
		rc = high_pipe(p->out);
	if (!rc)
		rc = high_pipe(p->answer);
	if (rc)
		pipes_close(p);
	return rc;
}

/* Default dispositions and an empty mask for every signal, own group. */
static int spawn_attr(posix_spawnattr_t *attr)
{
	sigset_t all, none;

	sigfillset(&all);
	sigemptyset(&none);
	if (posix_spawnattr_init(attr))
		return -ENOMEM;
	posix_spawnattr_setsigdefault(attr, &all);
	posix_spawnattr_setsigmask(attr, &none);
	posix_spawnattr_setpgroup(attr, 0);
	posix_spawnattr_setflags(attr, POSIX_SPAWN_SETSIGDEF |
					       POSIX_SPAWN_SETSIGMASK |
					       POSIX_SPAWN_SETPGROUP);
	return 0;
}

/* The helper's descriptors 0, 1, 3, 4; stderr stays the core's. */
static int spawn_files(posix_spawn_file_actions_t *fa,
		       const struct helper_pipes *p, int plugin_fd,
		       int plugin_fd2)
{
	if (posix_spawn_file_actions_init(fa))
		return -ENOMEM;
	posix_spawn_file_actions_adddup2(fa, p->request[0], HELPER_FD_REQUEST);
	posix_spawn_file_actions_adddup2(fa, p->out[1], HELPER_FD_STDOUT);
	if (plugin_fd >= 0)
		posix_spawn_file_actions_adddup2(fa, plugin_fd,
						 HELPER_FD_PLUGIN);
	posix_spawn_file_actions_adddup2(fa, p->answer[1], HELPER_FD_ANSWER);
	if (plugin_fd2 > 0)
		posix_spawn_file_actions_adddup2(fa, plugin_fd2,
						 HELPER_FD_PLUGIN2);
	return 0;
}

/* posix_spawn this binary as `hostbench __helper MODE PARENT`. */
static int spawn_helper(const struct helper_req *req,
			const struct helper_pipes *p, pid_t *pid)
{
	char parent[32];
	char *argv[] = { "hostbench", HELPER_ARG, (char *)req->mode, parent,
			 NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	char self[PATH_MAX], **env;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int fd = req->plugin_fd, fd2 = req->plugin_fd2, rc;

	/* the binary's own path: under valgrind /proc/self/exe is the tool */
	if (n <= 0 || self[0] != '/')
		return -ENOEXEC;
	self[n] = '\0';
	snprintf(parent, sizeof(parent), "%ld", (long)getpid());
	/* plugin code and its commands never see the core's secrets */
	env = childenv_make(NULL);
	if (!env)
		return -ENOMEM;
	if (fd >= 0 && fd < HELPER_FD_HIGH) {
		fd = fcntl(fd, F_DUPFD_CLOEXEC, HELPER_FD_HIGH);
		if (fd < 0) {
			rc = -errno;
			goto out_env;
		}
	}
	if (fd2 > 0 && fd2 < HELPER_FD_HIGH) {
		fd2 = fcntl(fd2, F_DUPFD_CLOEXEC, HELPER_FD_HIGH);
		if (fd2 < 0) {
			rc = -errno;
			goto out_fd;
		}
	}
	rc = spawn_attr(&attr);
	if (rc)
		goto out_fd;
	rc = spawn_files(&fa, p, fd, fd2);
	if (rc)
		goto out_attr;
	rc = -posix_spawn(pid, self, &fa, &attr, argv, env);
	posix_spawn_file_actions_destroy(&fa);
out_attr:
	posix_spawnattr_destroy(&attr);
out_fd:
	if (fd != req->plugin_fd)
		close(fd);
	if (fd2 > 0 && fd2 != req->plugin_fd2)
		close(fd2);
out_env:
	free(env);
	return rc;
}

/* Write all of text to fd; a helper that went away is not an error here. */
static void write_request(int fd, const char *text)
{
	size_t len = text ? strlen(text) : 0;
	sigset_t pipe_sig, old;

	/* a helper gone early must not kill the core with SIGPIPE */
	sigemptyset(&pipe_sig);
	sigaddset(&pipe_sig, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_sig, &old);
	while (len) {
		ssize_t n = write(fd, text, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		text += n;
		len -= (size_t)n;
	}
	if (len && !sigismember(&old, SIGPIPE)) {
		struct timespec zero = { 0, 0 };

		sigtimedwait(&pipe_sig, NULL, &zero);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Append what can be read now from fd; 0 at end of file or error. */
static int read_answer(int fd, struct helper_out *out, int *garbage)
{
	char buf[65536];
	ssize_t n = read(fd, buf, sizeof(buf));
	char *grown;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	if (n == 0)
		return 0;
	if (out->len + (size_t)n > HELPER_ANSWER_MAX) {
		*garbage = 1;
		return 1;
	}
	grown = realloc(out->answer, out->len + (size_t)n + 1);
	if (!grown) {
		*garbage = 1;
		return 1;
	}
	out->answer = grown;
	memcpy(out->answer + out->len, buf, (size_t)n);
	out->len += (size_t)n;
	out->answer[out->len] = '\0';
	return 1;
}

/* Keep the start of what the task printed on stdout; drop the rest. */
static int read_stdout(int fd, struct helper_out *out)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));
	size_t take;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	if (n == 0)
		return 0;
	take = (size_t)n;
	if (take > sizeof(out->out) - 1 - out->outlen)
		take = sizeof(out->out) - 1 - out->outlen;
	memcpy(out->out + out->outlen, buf, take);
	out->outlen += take;
	out->out[out->outlen] = '\0';
	return 1;
}

/* Tell the helper to end (its guardian kills the task's whole tree), then
 * kill its group outright if it is still there after a grace period. */
static void helper_stop(pid_t pid, int *status)
{
	double until = hb_now() + HELPER_GRACE;

	kill(pid, SIGTERM);
	while (hb_now() < until) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return;
		usleep(5000);
	}
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
}

/* Read both pipes until the helper exits, its deadline, a bound or a stop. */
static int helper_wait(const struct helper_req *req, struct helper_pipes *p,
		       pid_t pid, struct helper_out *out, int *garbage,
		       struct watch *watch)
{
	double deadline = hb_now() + req->timeout;
	int pidfd = helper_pidfd(pid);
	struct pollfd fds[3] = { { .fd = p->answer[0], .events = POLLIN },
				 { .fd = p->out[0], .events = POLLIN },
				 { .fd = pidfd, .events = POLLIN } };
	int status = 0, exited = 0, hits;
	double drained = 0; /* when draining after the exit stops */

	fcntl(p->answer[0], F_SETFL, O_NONBLOCK);
	fcntl(p->out[0], F_SETFL, O_NONBLOCK);
	for (;;) {
		if (!exited && waitpid(pid, &status, WNOHANG) == pid) {
			exited = 1;
			fds[2].fd = -1;
			drained = hb_now() + HELPER_GRACE;
		}
		if (exited && hb_now() > drained)
			break; /* someone else holds the pipe open */
		if (poll(fds, 3,
			 exited	     ? 0
			 : pidfd < 0 ? 2
				     : (int)(WATCH_PERIOD * 1000)) > 0 &&
		    (fds[0].revents || fds[1].revents)) {
			if (fds[0].revents &&
			    !read_answer(fds[0].fd, out, garbage))
				fds[0].fd = -1;
			if (fds[1].revents && !read_stdout(fds[1].fd, out))
				fds[1].fd = -1;
			continue; /* drain before looking at the exit again */
		}
		if (exited)
			break;
		if (req->stop && *req->stop) {
			out->end = HELPER_INTERRUPTED;
			helper_stop(pid, &status);
			break;
		}
		if (hb_now() > deadline) {
			out->end = HELPER_TIMED_OUT;
			helper_stop(pid, &status);
			break;
		}
		hits = watch_due(watch);
		if (hits) {
			out->hits |= hits;
			out->end = HELPER_BOUND;
			helper_stop(pid, &status);
			break;
		}
	}
	out->hits |= watch_end(watch);
	out->shared = watch->shared;
	if (pidfd >= 0)
		close(pidfd);
	return status;
}

/* Take the line "WORD N\n" off the front of out->answer into *n. */
static int take_line(struct helper_out *out, const char *word, long *n)
{
	size_t wl = strlen(word);
	const char *end;

	if (!out->answer || strncmp(out->answer, word, wl) != 0 ||
	    out->answer[wl] != ' ')
		return -1;
	*n = helper_number(out->answer + wl, &end);
	if (*n < 0 || *end != '\n')
		return -1;
	out->len -= (size_t)(end + 1 - out->answer);
	memmove(out->answer, end + 1, out->len + 1);
	return 0;
}

/*
 * Split the guardian's answer: "task PID", then (once the task ended)
 * "exit N" or "signal N" and the task's own answer. Anything else is a
 * lost helper.
 */
static void parse_answer(struct helper_out *out, int garbage)
{
	long n;

	if (!garbage && take_line(out, "task", &n) == 0)
		out->task = (pid_t)n;
	if (out->end == HELPER_TIMED_OUT || out->end == HELPER_INTERRUPTED ||
	    out->end == HELPER_BOUND)
		goto drop;
	out->end = HELPER_LOST;
	if (garbage || !out->task)
		goto drop;
	if (take_line(out, "exit", &n) == 0)
		out->end = HELPER_EXITED;
	else if (take_line(out, "signal", &n) == 0)
		out->end = HELPER_SIGNALLED;
	else
		goto drop;
	out->code = (int)n;
	if (out->len)
		return;
drop:
	free(out->answer);
	out->answer = NULL;
	out->len = 0;
}

int helper_run(const struct helper_req *req, struct helper_out *out, char *err,
	       size_t errlen)
{
	struct container_bounds bounds = { 0 };
	struct helper_pipes p;
	struct container ct;
	struct watch watch;
	int garbage = 0, rc;
	pid_t pid = 0;

	memset(out, 0, sizeof(*out));
	rc = pipes_open(&p);
	if (rc)
		return hb_errorf(err, errlen, rc, "cannot start a helper: %s",
				 strerror(-rc));
	rc = spawn_helper(req, &p, &pid);
	close_fd(&p.request[0]);
	close_fd(&p.out[1]);
	close_fd(&p.answer[1]);
	if (rc) {
		pipes_close(&p);
		return hb_errorf(err, errlen, rc,
				 "cannot start a helper (this binary): %s",
				 strerror(-rc));
	}
	if (req->bounds)
		bounds = *req->bounds;
	else
		container_default(&bounds, 1, 1);
	/* before the request: the guardian forks nothing until it has it all */
	container_open(&ct, pid, &bounds);
	watch_start(&watch, &ct, &bounds);
	write_request(p.request[1], req->request);
	close_fd(&p.request[1]);
	helper_wait(req, &p, pid, out, &garbage, &watch);
	out->hits |= container_hits(&ct);
	container_close(&ct);
	pipes_close(&p);
	parse_answer(out, garbage);
	return 0;
}

int helper_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

long helper_number(const char *s, const char **end)
{
	char *stop;
	long v;

	while (*s == ' ' || *s == '\t')
		s++;
	errno = 0;
	v = isdigit((unsigned char)*s) ? strtol(s, &stop, 10) : -1;
	if (v < 0 || errno) {
		*end = s;
		return -1;
	}
	*end = stop;
	return v;
}

int helper_write(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

void helper_out_free(struct helper_out *out)
{
	free(out->answer);
	memset(out, 0, sizeof(*out));
}

void helper_describe_end(const struct helper_out *out, double timeout,
			 const char *what, char *buf, size_t len)
{
	switch (out->end) {
	case HELPER_EXITED:
		snprintf(buf, len, "exited with status %d %s", out->code, what);
		return;
	case HELPER_SIGNALLED:
		snprintf(buf, len, "crashed %s: SIG%s", what,
			 sigabbrev_np(out->code) ? sigabbrev_np(out->code)
						 : "?");
		return;
	case HELPER_TIMED_OUT:
		snprintf(buf, len, "no answer within %g s %s", timeout, what);
		return;
	case HELPER_INTERRUPTED:
		snprintf(buf, len, "interrupted %s", what);
		return;
	case HELPER_BOUND:
		snprintf(buf, len, "stopped at a bound of its resources %s",
			 what);
		return;
	case HELPER_LOST:
		break;
	}
	snprintf(buf, len, "its helper process ended without an answer %s",
		 what);
}
