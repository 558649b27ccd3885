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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <hostbench/plugin.h>

#define MAX_PARAMS  64
#define MAX_WORKERS 64

/* Parameters, notes and warnings of the one case the driver runs. */
struct drv {
	const struct hb_target *t;
	const char *keys[MAX_PARAMS], *vals[MAX_PARAMS];
	size_t nparams;
	char *note_keys[MAX_PARAMS], *note_vals[MAX_PARAMS];
	size_t nnotes;
	char *warnings[MAX_PARAMS];
	size_t nwarnings;
};

static struct drv drv;

static const char *text(const struct hb_case *c, const char *name)
{
	(void)c;
	for (size_t i = 0; i < drv.nparams; i++)
		if (strcmp(drv.keys[i], name) == 0)
			return drv.vals[i];
	return NULL;
}

static uint64_t get_size(const struct hb_case *c, const char *name)
{
	const char *v = text(c, name);
	char *end;
	uint64_t n;

	if (!v)
		return 0;
	n = strtoull(v, &end, 10);
	switch (*end) {
	case 'k':
	case 'K':
		return n << 10;
	case 'm':
	case 'M':
		return n << 20;
	case 'g':
	case 'G':
		return n << 30;
	default:
		return n;
	}
}

static int64_t get_int(const struct hb_case *c, const char *name)
{
	const char *v = text(c, name);

	return v ? strtoll(v, NULL, 10) : 0;
}

static int get_bool(const struct hb_case *c, const char *name)
{
	const char *v = text(c, name);

	return v && (!strcasecmp(v, "true") || !strcasecmp(v, "yes") ||
		     !strcasecmp(v, "on") || !strcmp(v, "1"));
}

static double get_duration(const struct hb_case *c, const char *name)
{
	const char *v = text(c, name);
	char *end;
	double d;

	if (!v)
		return 0;
	d = strtod(v, &end);
	if (!strcmp(end, "ms"))
		return d / 1000;
	if (!strcmp(end, "m"))
		return d * 60;
	return d;
}

static size_t get_size_list(const struct hb_case *c, const char *name,
			    uint64_t *out, size_t max)
{
	(void)c;
	(void)name;
	(void)out;
	(void)max;
	return 0;
}

static void note(const struct hb_case *c, const char *key, const char *value)
{
	(void)c;
	for (size_t i = 0; i < drv.nnotes; i++)
		if (strcmp(drv.note_keys[i], key) == 0) {
			free(drv.note_vals[i]);
			drv.note_vals[i] = strdup(value);
			return;
		}
	if (drv.nnotes < MAX_PARAMS) {
		drv.note_keys[drv.nnotes] = strdup(key);
		drv.note_vals[drv.nnotes++] = strdup(value);
	}
}

static void warn(const struct hb_case *c, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	(void)c;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (drv.nwarnings < MAX_PARAMS)
		drv.warnings[drv.nwarnings++] = strdup(line);
}

static void logline(const struct hb_case *c, const char *fmt, ...)
{
	va_list ap;

	(void)c;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static const struct hb_host host = {
    .size = sizeof(struct hb_host),
    .get_size = get_size,
    .get_int = get_int,
    .get_bool = get_bool,
    .get_str = text,
    .get_duration = get_duration,
    .get_size_list = get_size_list,
    .note = note,
    .warn = warn,
    .log = logline,
};

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

static void report(const char *status, const char *reason, uint64_t bytes,
		   uint64_t ops)
{
	printf("{\"status\": \"%s\", \"reason\": ", status);
	json_str(reason);
	printf(", \"bytes\": %llu, \"ops\": %llu, \"notes\": {",
	       (unsigned long long)bytes, (unsigned long long)ops);
	for (size_t i = 0; i < drv.nnotes; i++) {
		printf(i ? ", " : "");
		json_str(drv.note_keys[i]);
		printf(": ");
		json_str(drv.note_vals[i]);
	}
	printf("}, \"warnings\": [");
	for (size_t i = 0; i < drv.nwarnings; i++) {
		printf(i ? ", " : "");
		json_str(drv.warnings[i]);
	}
	printf("]}\n");
}

/* Defaults from the option table, then KEY=VALUE arguments. */
static int load_params(char **args, int n)
{
	const struct hb_option *o;

	for (o = drv.t->options; o->name; o++)
		if (o->def) {
			drv.keys[drv.nparams] = o->name;
			drv.vals[drv.nparams++] = o->def;
		}
	for (int i = 0; i < n; i++) {
		char *eq = strchr(args[i], '=');
		size_t j;

		if (!eq)
			return fprintf(stderr, "not KEY=VALUE: %s\n", args[i]),
			       -1;
		*eq = '\0';
		for (o = drv.t->options; o->name; o++)
			if (!strcmp(o->name, args[i]))
				break;
		if (!o->name && !(drv.t->flags & HB_TARGET_EXTRA_KEYS))
			return fprintf(stderr, "unknown key %s\n", args[i]), -1;
		for (j = 0; j < drv.nparams; j++)
			if (!strcmp(drv.keys[j], args[i]))
				break;
		if (j == drv.nparams && drv.nparams < MAX_PARAMS)
			drv.nparams++;
		drv.keys[j] = args[i];
		drv.vals[j] = eq + 1;
	}
	for (o = drv.t->options; o->name; o++)
		if (!text(NULL, o->name))
			return fprintf(stderr, "missing %s\n", o->name), -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct worker w[MAX_WORKERS] = {0};
	struct hb_case cases[MAX_WORKERS];
	unsigned workers = 1, rounds = 1, made = 0;
	uint64_t iterations = 1, bytes = 0, ops = 0;
	const struct hb_plugin *p;
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
	for (drv.t = p->targets; drv.t->name; drv.t++) {
		char full[128];

		snprintf(full, sizeof(full), "%s/%s", drv.t->group,
			 drv.t->name);
		if (!strcmp(full, argv[optind + 1]))
			break;
	}
	if (!drv.t->name)
		return fprintf(stderr, "no target %s\n", argv[optind + 1]), 2;
	if (load_params(argv + optind + 2, argc - optind - 2))
		return 2;

	for (made = 0; made < workers; made++) {
		cases[made] = (struct hb_case){.host = &host,
					       .target = drv.t,
					       .worker = made,
					       .workers = workers};
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
	report(status, failure ? failure : "", bytes, ops);
	dlclose(dl);
	return strcmp(status, "ok") == 0 ? 0 : 1;
}
