/* SPDX-License-Identifier: Apache-2.0 */
/* The helper's guardian: fork the task, relay its answer, leave nothing. */
#define _GNU_SOURCE /* pipe2 */
#include "proc/guardian.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hostbench/plugin.h>

#include "proc/helper.h"
#include "proc/setid.h"

/* Largest request a helper reads. */
#define GUARDIAN_REQUEST_MAX ((size_t)64 << 20)
/* Seconds the guardian keeps killing a tree that keeps growing. */
#define GUARDIAN_KILL_FOR 1.0

/* Set by SIGTERM (from the core) or the core's death. */
static volatile sig_atomic_t guardian_stop;

static void on_term(int sig)
{
	(void)sig;
	guardian_stop = 1;
}

/* The parent pid in /proc/PID/stat, or -1. */
static pid_t parent_of(const char *pid)
{
	char path[300], buf[512]; /* pid: a /proc entry name */
	const char *end;
	FILE *f;
	char *paren;
	long ppid;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* the command name may hold spaces and parentheses: skip past it */
	paren = strrchr(buf, ')');
	if (!paren || paren[1] != ' ' || !paren[2] || paren[3] != ' ')
		return -1;
	ppid = helper_number(paren + 4, &end); /* after ") S " */
	return (pid_t)ppid;
}

/*
 * SIGKILL every child listed in /proc/self/task/PID/children (the kernel's
 * own list, CONFIG_PROC_CHILDREN); how many, or -1 without that file.
 */
static int kill_listed_children(void)
{
	char path[64], buf[8192];
	const char *at = buf, *end;
	long pid;
	int n = 0;
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%ld/children",
		 (long)getpid());
	f = fopen(path, "re");
	if (!f)
		return -1;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	/* a longer list is finished on the next pass */
	while ((pid = helper_number(at, &end)) > 0) {
		kill((pid_t)pid, SIGKILL);
		n++;
		at = end;
	}
	return n;
}

/* SIGKILL every process whose parent is this one; how many there were. */
static int kill_children(void)
{
	pid_t self = getpid();
	int n = kill_listed_children();
	const char *end;
	struct dirent *e;
	DIR *d;

	if (n >= 0)
		return n;
	d = opendir("/proc");
	if (!d)
		return 0;
	n = 0;
	while ((e = readdir(d)))
		if (isdigit((unsigned char)e->d_name[0]) &&
		    parent_of(e->d_name) == self) {
			kill((pid_t)helper_number(e->d_name, &end), SIGKILL);
			n++;
		}
	closedir(d);
	return n;
}

/*
 * Kill every descendant of this process (a child subreaper, so orphans
 * come back to it) and reap them; gives up after GUARDIAN_KILL_FOR of a
 * tree that keeps growing.
 */
static void guardian_kill_tree(void)
{
	double until = hb_now() + GUARDIAN_KILL_FOR;

	do {
		int killed = kill_children();

		/* reap; orphans of the killed come back to us, next pass */
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (!killed && waitpid(-1, NULL, WNOHANG) < 0 &&
		    errno == ECHILD)
			return;
		usleep(1000);
	} while (hb_now() < until);
}

/* Read all of standard input into a new string, or NULL. */
static char *read_request(void)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap), *grown;
	ssize_t n;

	while (buf) {
		if (len + 1 >= cap) {
			grown = cap < GUARDIAN_REQUEST_MAX
					? realloc(buf, 2 * cap)
					: NULL;
			if (!grown)
				break;
			buf = grown;
			cap *= 2;
		}
		n = read(HELPER_FD_REQUEST, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (n == 0) {
			buf[len] = '\0';
			return buf;
		}
		len += (size_t)n;
	}
	free(buf);
	return NULL;
}

/* The task process: nothing of the guardian's but the task's own pipe. */
static void __attribute__((noreturn))
task_main(const struct guardian_task *t, const char *request, int pipe_r,
	  int pipe_w)
{
	close(pipe_r);
	close(HELPER_FD_ANSWER);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	_exit(t->run(request, pipe_w));
}

/* Append what the task wrote; 0 once its pipe is at end of file. */
static int read_task(int fd, char **buf, size_t *len)
{
	char chunk[65536], *grown;
	ssize_t n = read(fd, chunk, sizeof(chunk));

	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	if (n == 0 || *len + (size_t)n > HELPER_ANSWER_MAX)
		return 0;
	grown = realloc(*buf, *len + (size_t)n + 1);
	if (!grown)
		return 0;
	*buf = grown;
	memcpy(*buf + *len, chunk, (size_t)n);
	*len += (size_t)n;
	(*buf)[*len] = '\0';
	return 1;
}

/*
 * Wait for the task's exit, reading its answer; the task's answer pipe
 * may stay open in a process it started, so its exit decides. Returns
 * the wait status, or -1 when told to stop first.
 */
static int wait_task(pid_t task, int fd, char **buf, size_t *len)
{
	int pidfd = helper_pidfd(task);
	struct pollfd pfd[2] = { { .fd = fd, .events = POLLIN },
				 { .fd = pidfd, .events = POLLIN } };
	int status = -1, exited = 0;
	double drained = 0; /* when reading after the exit stops */

	fcntl(fd, F_SETFL, O_NONBLOCK);
	while (!guardian_stop) {
		if (!exited && waitpid(task, &status, WNOHANG) == task) {
			exited = 1;
			pfd[1].fd = -1;
			drained = hb_now() + GUARDIAN_KILL_FOR;
		}
		if (exited && hb_now() > drained)
			break; /* a process it started writes on and on */
		if (poll(pfd, 2,
			 exited	      ? 0
			 : pidfd >= 0 ? 100
				      : 2) > 0 &&
		    pfd[0].revents) {
			if (!read_task(pfd[0].fd, buf, len))
				pfd[0].fd = -1;
			continue;
		}
		if (exited)
			break;
	}
	if (pidfd >= 0)
		close(pidfd);
	return guardian_stop ? -1 : status;
}

/* Run task t on request and relay how it went. */
static int guard(const struct guardian_task *t, const char *request)
{
	char *body = NULL, head[48];
	size_t len = 0;
	int fds[2], status;
	pid_t task;

	if (pipe2(fds, O_CLOEXEC))
		return 1;
	task = fork();
	if (task < 0)
		return 1;
	if (task == 0)
		task_main(t, request, fds[0], fds[1]);
	close(fds[1]);
	/* the task's pid first: temporary files it leaves carry it */
	snprintf(head, sizeof(head), "task %ld\n", (long)task);
	helper_write(HELPER_FD_ANSWER, head, strlen(head));
	status = wait_task(task, fds[0], &body, &len);
	close(fds[0]);
	kill(task, SIGKILL);
	guardian_kill_tree();
	if (status == -1) {
		free(body);
		return 1;
	}
	snprintf(head, sizeof(head), "%s %d\n",
		 WIFSIGNALED(status) ? "signal" : "exit",
		 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	helper_write(HELPER_FD_ANSWER, head, strlen(head));
	helper_write(HELPER_FD_ANSWER, body ? body : "", len);
	free(body);
	return 0;
}

int guardian_main(int argc, char **argv, const struct guardian_task *tasks)
{
	struct sigaction sa = { .sa_handler = on_term };
	const struct guardian_task *t = tasks;
	const char *end;
	char *request, why[256];
	int rc;

	/* the caller picks the plugin on descriptor 3: never with our rights */
	if (setid_check(why, sizeof(why))) {
		fprintf(stderr, "hostbench: %s\n", why);
		return 2;
	}
	if (argc != 4)
		return 2;
	while (t->mode && strcmp(t->mode, argv[2]) != 0)
		t++;
	if (!t->mode)
		return 2;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* die with the core, even when it was killed with SIGKILL */
	prctl(PR_SET_PDEATHSIG, SIGHUP);
	if ((long)getppid() != helper_number(argv[3], &end))
		return 1;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	request = read_request();
	if (!request)
		return 1;
	rc = guard(t, request);
	free(request);
	return rc;
}
