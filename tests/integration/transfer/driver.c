/* SPDX-License-Identifier: Apache-2.0 */
/*
 * transfer-driver: a minimal host for the transfer plugin, so its targets
 * can be exercised without the core: load the plugin, set up one state per
 * worker, call run() from all workers at once for a number of rounds, tear
 * down, and print one JSON object on stdout:
 *   {"status": "ok"|"failed"|"skipped", "reason": "...", "bytes": N,
 *    "ops": N, "notes": {...}, "warnings": [...]}
 *
 * usage: transfer-driver PLUGIN TARGET [-p WORKERS] [-n ITERATIONS]
 *                        [-r ROUNDS] [KEY=VALUE...]
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hostbench/plugin.h>

#include "fake_host.h"

#define MAX_WORKERS 64

/* One worker's thread: its state, what to do, what happened. */
struct worker {
	const struct hb_plugin *p;
	void *state;
	uint64_t iterations;
	unsigned rounds;
	struct hb_done done;
	int rc;
	char err[512];
	pthread_barrier_t *start;
};

static void *work(void *arg)
{
	struct worker *w = arg;

	pthread_barrier_wait(w->start);
	for (unsigned r = 0; r < w->rounds && w->rc == 0; r++)
		w->rc = w->p->run(w->state, w->iterations, &w->done, w->err,
				  sizeof(w->err));
	return NULL;
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void report(const struct fh_case *fc, const char *status,
		   const char *reason, uint64_t bytes, uint64_t ops)
{
	printf("{\"status\": \"%s\", \"reason\": ", status);
	json_str(reason);
	printf(", \"bytes\": %llu, \"ops\": %llu, \"notes\": {",
	       (unsigned long long)bytes, (unsigned long long)ops);
	for (size_t i = 0; i < fc->notes.n; i++) {
		printf(i ? ", " : "");
		json_str(fc->notes.key[i]);
		printf(": ");
		json_str(fc->notes.value[i]);
	}
	printf("}, \"warnings\": [");
	for (size_t i = 0; i < fc->nwarnings; i++) {
		printf(i ? ", " : "");
		json_str(fc->warnings[i]);
	}
	printf("]}\n");
}

/* KEY=VALUE arguments over t's defaults; every required key given. */
static int load_params(struct fh_case *fc, const struct hb_target *t,
		       char **args, int n)
{
	const struct hb_option *o;

	fh_case_init(fc, t, NULL);
	for (int i = 0; i < n; i++) {
		const char *eq = strchr(args[i], '=');
		size_t klen = eq ? (size_t)(eq - args[i]) : 0;

		if (!eq)
			return fprintf(stderr, "not KEY=VALUE: %s\n", args[i]),
			       -1;
		for (o = t->options; o->name; o++)
			if (!strncmp(o->name, args[i], klen) && !o->name[klen])
				break;
		if (!o->name && !(t->flags & HB_TARGET_EXTRA_KEYS))
			return fprintf(stderr, "unknown key %.*s\n", (int)klen,
				       args[i]),
			       -1;
		if (fh_set(fc, args[i]))
			return fprintf(stderr, "cannot set %s\n", args[i]), -1;
	}
	for (o = t->options; o->name; o++)
		if (!fh_param(fc, o->name))
			return fprintf(stderr, "missing %s\n", o->name), -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct worker w[MAX_WORKERS] = { 0 };
	struct hb_case cases[MAX_WORKERS];
	unsigned workers = 1, rounds = 1, made = 0;
	uint64_t iterations = 1, bytes = 0, ops = 0;
	const struct hb_plugin *p;
	const struct hb_target *t;
	struct fh_case fc;
	pthread_t threads[MAX_WORKERS];
	pthread_barrier_t start;
	const char *failure = NULL, *status = "ok";
	void *dl;
	int opt, rc = 0;
	char err[512] = "";

	while ((opt = getopt(argc, argv, "+p:n:r:")) != -1) {
		if (opt == 'p')
			workers = (unsigned)atoi(optarg);
		else if (opt == 'n')
			iterations = strtoull(optarg, NULL, 10);
		else if (opt == 'r')
			rounds = (unsigned)atoi(optarg);
		else
			return 2;
	}
	if (argc - optind < 2 || workers < 1 || workers > MAX_WORKERS)
		return fprintf(stderr, "usage: transfer-driver PLUGIN TARGET "
				       "[-p N] [-n N] [-r N] [KEY=VALUE...]\n"),
		       2;
	dl = dlopen(argv[optind], RTLD_NOW | RTLD_LOCAL);
	if (!dl)
		return fprintf(stderr, "%s\n", dlerror()), 2;
	p = ((hb_entry_fn)dlsym(dl, HB_ENTRY_SYMBOL))();
	t = fh_target(p, argv[optind + 1]);
	if (!t)
		return fprintf(stderr, "no target %s\n", argv[optind + 1]), 2;
	if (load_params(&fc, t, argv + optind + 2, argc - optind - 2))
		return 2;

	for (made = 0; made < workers; made++) {
		cases[made] = fh_worker(&fc, made, workers);
		w[made].p = p;
		rc = p->setup(&cases[made], &w[made].state, err, sizeof(err));
		if (rc)
			break;
	}
	if (rc == 0) {
		pthread_barrier_init(&start, NULL, workers);
		for (unsigned i = 0; i < workers; i++) {
			w[i].iterations = iterations;
			w[i].rounds = rounds;
			w[i].start = &start;
			pthread_create(&threads[i], NULL, work, &w[i]);
		}
		for (unsigned i = 0; i < workers; i++) {
			pthread_join(threads[i], NULL);
			bytes += w[i].done.bytes;
			ops += w[i].done.ops;
			if (w[i].rc && !failure)
				failure = w[i].err;
		}
		pthread_barrier_destroy(&start);
	} else {
		status = rc == HB_SKIP ? "skipped" : "failed";
		failure = err;
	}
	for (unsigned i = 0; i < made; i++)
		p->teardown(w[i].state);
	if (failure && rc == 0)
		status = "failed";
	report(&fc, status, failure ? failure : "", bytes, ops);
	dlclose(dl);
	return strcmp(status, "ok") == 0 ? 0 : 1;
}
