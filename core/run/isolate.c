/* Each case in its own child process; the parent reads its result. */
#define _GNU_SOURCE /* pipe2, strsignal */
#include "run/isolate.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "run/result_json.h"
#include "run/runner.h"

/* What the parent saw of its child. */
struct child {
	pid_t pid;
	int result_fd; /* the child's JSON result */
	int stdout_fd; /* anything the plugin printed on stdout */
	char *json;    /* result text read so far */
	size_t len;
	char out[120]; /* the start of what came on stdout */
	size_t outlen;
	int status; /* from waitpid */
	int timed_out;
	int interrupted;
};

double isolate_timeout(const struct bench_case *c)
{
	if (c->timeout > 0)
		return c->timeout;
	/* setup and calibration, then every sample, with room to spare */
	return 120 + 4 * (c->warmup + c->repetitions + 3) * c->duration;
}

/* Write all of buf to fd. */
static int write_all(int fd, const char *buf, size_t len)
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

/* The case's memory and CPU limits, as setrlimit sees them. */
static void child_limits(const struct bench_case *c)
{
	struct rlimit rl;

	if (c->memory_limit) {
		rl.rlim_cur = rl.rlim_max = (rlim_t)c->memory_limit;
		setrlimit(RLIMIT_AS, &rl);
	}
	if (c->cpu_limit > 0) {
		rl.rlim_cur = (rlim_t)c->cpu_limit + 1;
		rl.rlim_max = rl.rlim_cur + 1;
		setrlimit(RLIMIT_CPU, &rl);
	}
}

/* The child: run the case, send the result, leave without cleanup. */
static void __attribute__((noreturn))
child_main(const struct bench_case *c, const volatile sig_atomic_t *stop,
	   int result_fd, int stdout_fd)
{
	struct result r = { 0 };
	json_t *o = json_object();
	char *text = NULL;
	int rc;

	prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the core */
	setpgid(0, 0); /* so the parent can end our own children too */
	dup2(stdout_fd, STDOUT_FILENO);
	child_limits(c);
	rc = runner_run_case(c, stop, &r);
	if (!rc && o && result_json_put(o, &r) == 0)
		text = json_dumps(o, JSON_COMPACT);
	if (!text || write_all(result_fd, text, strlen(text)))
		_exit(3);
	_exit(0);
}

/* Read what is there on fd into the child's buffers; 0 at EOF. */
static int child_read(struct child *ch, int fd)
{
	char buf[65536];
	ssize_t n = read(fd, buf, sizeof(buf));
	char *grown;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : 0;
	if (n == 0)
		return 0;
	if (fd == ch->stdout_fd) {
		size_t take = (size_t)n;

		if (take > sizeof(ch->out) - 1 - ch->outlen)
			take = sizeof(ch->out) - 1 - ch->outlen;
		memcpy(ch->out + ch->outlen, buf, take);
		ch->outlen += take;
		ch->out[ch->outlen] = '\0';
		return 1;
	}
	grown = realloc(ch->json, ch->len + (size_t)n + 1);
	if (!grown)
		return 0;
	ch->json = grown;
	memcpy(ch->json + ch->len, buf, (size_t)n);
	ch->len += (size_t)n;
	ch->json[ch->len] = '\0';
	return 1;
}

/*
 * Wait for the child's result, watching the timeout and the stop flag. A
 * stop (SIGINT, SIGTERM) ends the case at once: the sample under way is
 * lost either way, and the user is waiting.
 */
static void child_wait(struct child *ch, const struct bench_case *c,
		       const volatile sig_atomic_t *stop)
{
	double deadline = hb_now() + isolate_timeout(c);
	struct pollfd fds[2] = { { .fd = ch->result_fd, .events = POLLIN },
				 { .fd = ch->stdout_fd, .events = POLLIN } };

	while (fds[0].fd >= 0) {
		if (poll(fds, 2, 50) > 0)
			for (int i = 0; i < 2; i++)
				if (fds[i].revents &&
				    !child_read(ch, fds[i].fd))
					fds[i].fd = -1;
		if (*stop) {
			ch->interrupted = 1;
			break;
		}
		if (hb_now() > deadline) {
			ch->timed_out = 1;
			break;
		}
	}
	/* whatever is left of its process group, or the child alone */
	if (kill(-ch->pid, SIGKILL))
		kill(ch->pid, SIGKILL);
	waitpid(ch->pid, &ch->status, 0);
}

/* Remove ".hostbench-<pid>-*" files the child left in dir. */
static void remove_leftovers(const char *dir, pid_t pid)
{
	char prefix[64], path[4096];
	struct dirent *e;
	DIR *d = dir ? opendir(dir) : NULL;

	if (!d)
		return;
	snprintf(prefix, sizeof(prefix), ".hostbench-%ld-", (long)pid);
	while ((e = readdir(d)))
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 &&
		    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) <
			    (int)sizeof(path))
			unlink(path);
	closedir(d);
}

/*
 * Remove what a dead child left where plugins put temporary files: the
 * case's dir and file_dir, $TMPDIR and /tmp.
 */
static void remove_all_leftovers(const struct bench_case *c, pid_t pid)
{
	const char *tmpdir = getenv("TMPDIR");

	remove_leftovers(kvlist_get(&c->params, "dir"), pid);
	remove_leftovers(kvlist_get(&c->params, "file_dir"), pid);
	if (tmpdir && *tmpdir)
		remove_leftovers(tmpdir, pid);
	remove_leftovers("/tmp", pid);
}

/* Set r failed or skipped with a formatted reason. */
static int child_verdict(struct result *r, enum result_status st,
			 const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int child_verdict(struct result *r, enum result_status st,
			 const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	r->status = st;
	free(r->reason);
	r->reason = strdup(line);
	return r->reason ? 0 : -ENOMEM;
}

/* Why the child ended without a result, as the case's reason. */
static int child_failure(const struct child *ch, const struct bench_case *c,
			 struct result *r)
{
	int st = ch->status;

	if (ch->interrupted)
		return child_verdict(r, RESULT_SKIPPED, "interrupted");
	if (ch->timed_out)
		return child_verdict(r, RESULT_FAILED,
				     "timed out after %.0fs (set timeout = "
				     "to allow more)",
				     isolate_timeout(c));
	if (WIFSIGNALED(st))
		return child_verdict(
			r, RESULT_FAILED, "crashed: signal %d (%s)%s",
			WTERMSIG(st), strsignal(WTERMSIG(st)),
			c->memory_limit || c->cpu_limit > 0
				? " (the case's memory_limit or cpu_limit may "
				  "have been reached)"
				: "");
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return child_verdict(r, RESULT_FAILED,
				     "the plugin called exit(0) before the "
				     "case ended (plugins must not exit)");
	return child_verdict(r, RESULT_FAILED,
			     "the case's process exited with status %d",
			     WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

/* Turn what the child sent and how it ended into r. */
static int child_result(struct child *ch, const struct bench_case *c,
			struct result *r)
{
	char err[256];
	json_t *o = NULL;
	int rc = -EINVAL;

	/* a whole result counts however the child then ended */
	if (ch->json)
		o = json_loads(ch->json, 0, NULL);
	if (o)
		rc = result_json_get(o, c->tdesc ? c->tdesc->parts : NULL, r,
				     err, sizeof(err));
	json_decref(o);
	if (rc == -ENOMEM)
		return rc;
	if (rc) {
		result_free(r);
		memset(r, 0, sizeof(*r));
		rc = child_failure(ch, c, r);
		remove_all_leftovers(c, ch->pid);
	} else if (ch->outlen) {
		ch->out[strcspn(ch->out, "\n")] = '\0';
		rc = child_verdict(r, RESULT_FAILED,
				   "the plugin wrote to stdout (plugins must "
				   "not): \"%.60s\"",
				   ch->out);
	}
	r->c = c;
	return rc;
}

int isolate_run_case(const struct bench_case *c,
		     const volatile sig_atomic_t *stop, struct result *r)
{
	struct child ch = { 0 };
	int res[2], out[2], rc;

	if (pipe2(res, O_CLOEXEC))
		return -errno;
	if (pipe2(out, O_CLOEXEC))
		goto fail_out_pipe;
	fflush(stdout);
	fflush(stderr);
	ch.pid = fork();
	if (ch.pid < 0)
		goto fail_fork;
	if (ch.pid == 0)
		child_main(c, stop, res[1], out[1]);
	setpgid(ch.pid, ch.pid); /* both sides, so no kill can miss it */
	close(res[1]);
	close(out[1]);
	ch.result_fd = res[0];
	ch.stdout_fd = out[0];
	child_wait(&ch, c, stop);
	rc = child_result(&ch, c, r);
	close(res[0]);
	close(out[0]);
	free(ch.json);
	return rc;

fail_fork:
	rc = -errno;
	close(out[0]);
	close(out[1]);
	close(res[0]);
	close(res[1]);
	return rc;
fail_out_pipe:
	rc = -errno;
	close(res[0]);
	close(res[1]);
	return rc;
}
