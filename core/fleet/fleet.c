/*
 * Fleet runs over MPI: the ranks agree on the suite, rank 0 paces the
 * cases and collects every result. Waits poll with short sleeps instead of
 * blocking in MPI, whose blocking calls spin a CPU the measuring ranks of
 * the same host need.
 */
#define _GNU_SOURCE /* asprintf */
#include "fleet/fleet.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>
#include <mpi.h>

#include "base/exit.h"
#include "fleet/fleet_int.h"
#include "run/isolate.h"
#include "run/result_json.h"

/* Message tags; every message is text (JSON) or one long. */
enum fleet_tag {
	TAG_CONTEXT = 1, /* worker -> 0: its report without results */
	TAG_GO,		 /* 0 -> worker: case index to start, or FLEET_STOP */
	TAG_RESULT,	 /* worker -> 0: {"case": i, "result": {...}} */
};

/* The control value that ends a rank's run. */
#define FLEET_STOP (-1L)

/* Seconds rank 0 waits for a rank's context before giving up on it. */
#define FLEET_CONTEXT_WAIT 120.0

/* Longest nap between two looks at MPI, in microseconds. */
#define FLEET_NAP_MAX_US 8000

/*
 * Sleep *us microseconds, then double it up to FLEET_NAP_MAX_US. A wait
 * starts with short naps (a case ends, the next starts soon) and settles
 * on long ones, so a rank that waits through a whole case (sequential, or
 * a host whose receiver another rank is measuring) wakes rarely; a start a
 * few milliseconds late costs nothing next to a case's setup.
 */
static void nap(unsigned *us)
{
	struct timespec t = { .tv_nsec = (long)*us * 1000 };

	nanosleep(&t, NULL);
	if (*us < FLEET_NAP_MAX_US)
		*us = *us * 2 > FLEET_NAP_MAX_US ? FLEET_NAP_MAX_US : *us * 2;
}

/*
 * Wait for req until deadline (0: no deadline). Returns 0, -ETIMEDOUT
 * (the request is cancelled) or -EIO.
 */
static int wait_req(MPI_Request *req, double deadline)
{
	unsigned us = 250;
	int done = 0;

	while (MPI_Test(req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS) {
		if (done)
			return 0;
		if (deadline > 0 && hb_now() > deadline) {
			MPI_Cancel(req);
			MPI_Request_free(req);
			return -ETIMEDOUT;
		}
		nap(&us);
	}
	return -EIO;
}

/*
 * The analyzer's MPI checker does not follow a request into wait_req(),
 * where MPI_Test completes it (or it is cancelled and freed).
 */
/* NOLINTBEGIN(clang-analyzer-optin.mpi.MPI-Checker) */

/* Send text, its NUL included, to rank dst. Returns 0 or -EIO. */
static int send_text(int dst, int tag, const char *text)
{
	MPI_Request req;

	if (MPI_Isend(text, (int)strlen(text) + 1, MPI_CHAR, dst, tag,
		      MPI_COMM_WORLD, &req) != MPI_SUCCESS)
		return -EIO;
	return wait_req(&req, 0);
}

/*
 * Receive one text from rank src by deadline into *out (the caller frees
 * it). Returns 0, -ETIMEDOUT, -EIO or -ENOMEM.
 */
static int recv_text(int src, int tag, double deadline, char **out)
{
	MPI_Status status;
	unsigned us = 250;
	int flag = 0, n = 0;

	for (;;) {
		if (MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, &status) !=
		    MPI_SUCCESS)
			return -EIO;
		if (flag)
			break;
		if (hb_now() > deadline)
			return -ETIMEDOUT;
		nap(&us);
	}
	MPI_Get_count(&status, MPI_CHAR, &n);
	*out = malloc((size_t)n + 1);
	if (!*out)
		return -ENOMEM;
	if (MPI_Recv(*out, n, MPI_CHAR, src, tag, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE) != MPI_SUCCESS) {
		free(*out);
		return -EIO;
	}
	(*out)[n] = '\0';
	return 0;
}

/* Tell rank dst to start case value, or to stop (FLEET_STOP). */
static int send_control(int dst, long value)
{
	MPI_Request req;

	if (MPI_Isend(&value, 1, MPI_LONG, dst, TAG_GO, MPI_COMM_WORLD, &req) !=
	    MPI_SUCCESS)
		return -EIO;
	/* small enough to go eagerly: a dead rank cannot hold it up long */
	return wait_req(&req, hb_now() + FLEET_SLACK);
}

/* Worker: wait for rank 0's word on case i. Returns 1 to run it, else 0. */
static int wait_control(size_t i)
{
	MPI_Request req;
	long value = FLEET_STOP;

	if (MPI_Irecv(&value, 1, MPI_LONG, 0, TAG_GO, MPI_COMM_WORLD, &req) !=
	    MPI_SUCCESS)
		return 0;
	return wait_req(&req, 0) == 0 && value == (long)i;
}

/* NOLINTEND(clang-analyzer-optin.mpi.MPI-Checker) */

/* FNV-1a over n bytes of p into *h. */
static void hash_bytes(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		*h ^= b[i];
		*h *= 1099511628211ULL;
	}
}

/* A string and its terminator, so "ab","c" and "a","bc" differ. */
static void hash_str(uint64_t *h, const char *s)
{
	hash_bytes(h, s ? s : "", strlen(s ? s : "") + 1);
}

/*
 * The expanded matrix as one number: what each rank would run, parameters
 * with their defaults filled, so another plugin version or a plugin
 * missing on one host shows too. Plugin paths are left out: hosts may
 * install in different places.
 */
static uint64_t hash_of_suite(const struct suite *s)
{
	uint64_t h = 14695981039346656037ULL;
	char num[256];

	for (size_t i = 0; i < s->ncases; i++) {
		const struct bench_case *c = &s->cases[i];

		hash_str(&h, c->title);
		hash_str(&h, c->target);
		hash_str(&h, c->backend);
		hash_str(&h, c->unit);
		for (size_t k = 0; k < c->params.n; k++) {
			hash_str(&h, c->params.items[k].key);
			hash_str(&h, c->params.items[k].value);
		}
		snprintf(num, sizeof(num),
			 "%u %.17g %u %u %.17g %llu %.17g %d %d", c->parallel,
			 c->duration, c->repetitions, c->warmup, c->timeout,
			 (unsigned long long)c->memory_limit, c->cpu_limit,
			 c->isolate, c->fleet_sequential);
		hash_str(&h, num);
	}
	return h;
}

int fleet_init(struct fleet *f, enum report_format fmt, char *err,
	       size_t errlen)
{
	char host[MPI_MAX_PROCESSOR_NAME];
	int len = 0;

	(void)fmt; /* every format has a fleet report */
	*f = (struct fleet){ .size = 1 };
	if (MPI_Init(NULL, NULL) != MPI_SUCCESS)
		return hb_errorf(err, errlen, -EIO, "fleet: MPI_Init failed");
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &f->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &f->size);
	f->st = calloc(1, sizeof(*f->st));
	if (f->st)
		f->st->ranks = calloc((size_t)f->size, sizeof(*f->st->ranks));
	if (!f->st || !f->st->ranks) {
		fleet_end(f, 0);
		return hb_errorf(err, errlen, -ENOMEM, "fleet: out of memory");
	}
	if (MPI_Get_processor_name(host, &len) != MPI_SUCCESS)
		snprintf(host, sizeof(host), "rank%d", f->rank);
	snprintf(f->st->ranks[f->rank].host, FLEET_HOST_MAX, "%s", host);
	return 0;
}

/* "rank 1 (lab2)" into buf. */
static const char *rank_name(const struct fleet *f, int r, char *buf,
			     size_t len)
{
	snprintf(buf, len, "rank %d (%s)", r, f->st->ranks[r].host);
	return buf;
}

/* What each rank says about its suite before anything runs. */
struct fleet_hello {
	uint64_t hash;
	int32_t loaded; /* suite_load's code */
	char host[FLEET_HOST_MAX];
};

/*
 * Compare every rank's hello with rank 0's; the first that differs or did
 * not load is named in err. Returns 0 or -EINVAL.
 */
static int check_hellos(const struct fleet *f, const struct fleet_hello *h,
			int loaded, char *err, size_t errlen)
{
	char a[FLEET_HOST_MAX + 32], b[FLEET_HOST_MAX + 32];

	for (int r = 0; r < f->size; r++) {
		if (!h[r].loaded && h[r].hash == h[0].hash)
			continue;
		if (loaded)
			return loaded; /* this rank's own message stands */
		if (f->rank != 0)
			return hb_errorf(err, errlen, -EINVAL,
					 "fleet: %s refused the suite (rank 0 "
					 "says why)",
					 rank_name(f, f->rank, a, sizeof(a)));
		if (h[r].loaded)
			return hb_errorf(err, errlen, -EINVAL,
					 "fleet: %s could not load the suite "
					 "(its message is above); nothing ran",
					 rank_name(f, r, a, sizeof(a)));
		return hb_errorf(err, errlen, -EINVAL,
				 "fleet: the suite differs between ranks: %s "
				 "expands to other cases than %s (same suite "
				 "files, --set and plugins on every host); "
				 "nothing ran",
				 rank_name(f, r, a, sizeof(a)),
				 rank_name(f, 0, b, sizeof(b)));
	}
	return 0;
}

int fleet_prepare(struct fleet *f, const struct suite *s, int loaded,
		  const char *serve, const struct suite **run, char *err,
		  size_t errlen)
{
	struct fleet_state *st = f->st;
	struct fleet_hello mine = { .loaded = loaded }, *all;
	int rc;

	*run = s;
	if (!loaded)
		mine.hash = hash_of_suite(s);
	snprintf(mine.host, sizeof(mine.host), "%s", st->ranks[f->rank].host);
	all = calloc((size_t)f->size, sizeof(*all));
	if (!all)
		return loaded ? loaded
			      : hb_errorf(err, errlen, -ENOMEM,
					  "fleet: out of memory");
	rc = MPI_Allgather(&mine, sizeof(mine), MPI_BYTE, all, sizeof(mine),
			   MPI_BYTE, MPI_COMM_WORLD);
	if (rc != MPI_SUCCESS) {
		free(all);
		return loaded ? loaded
			      : hb_errorf(err, errlen, -EIO,
					  "fleet: MPI_Allgather failed");
	}
	for (int r = 0; r < f->size; r++)
		memcpy(st->ranks[r].host, all[r].host, FLEET_HOST_MAX);
	rc = check_hellos(f, all, loaded, err, errlen);
	free(all);
	if (rc)
		return rc;
	st->suite = s;
	rc = fleet_peers_resolve(f, serve, err, errlen);
	if (!rc && st->run.cases)
		*run = &st->run;
	return rc;
}

int fleet_agree(struct fleet *f, int rc, char *err, size_t errlen)
{
	int32_t mine = rc, *all = calloc((size_t)f->size, sizeof(*all));
	char who[FLEET_HOST_MAX + 32];
	int bad = -1;

	if (!all)
		return rc ? rc : -ENOMEM;
	if (MPI_Allgather(&mine, 1, MPI_INT32_T, all, 1, MPI_INT32_T,
			  MPI_COMM_WORLD) != MPI_SUCCESS)
		all[f->rank] = rc ? rc : -EIO;
	for (int r = 0; r < f->size && bad < 0; r++)
		if (all[r])
			bad = r;
	free(all);
	if (rc || bad < 0)
		return rc;
	return hb_errorf(err, errlen, -EINVAL,
			 "fleet: %s refused the suite (its message is above); "
			 "nothing ran",
			 rank_name(f, bad, who, sizeof(who)));
}

/* Rank 0 gives up on rank r at case i (SIZE_MAX: before any case). */
static void mark_lost(struct fleet *f, int r, size_t i, const char *why)
{
	struct fleet_rank *fr = &f->st->ranks[r];
	const char *title =
		i < f->st->suite->ncases ? f->st->suite->cases[i].title : NULL;

	fr->lost = 1;
	free(fr->lost_why);
	if (title) {
		if (asprintf(&fr->lost_why, "%s at \"%s\"", why, title) < 0)
			fr->lost_why = NULL;
	} else {
		fr->lost_why = xstrdup(why);
	}
	send_control(r, FLEET_STOP); /* in case it is only slow */
}

int fleet_start(struct fleet *f, const struct report *ctx)
{
	struct fleet_state *st = f->st;
	char *text = NULL;
	json_error_t jerr;
	int rc = fleet_context_text(ctx, &text);

	st->started = 1;
	if (rc)
		return rc;
	if (f->rank != 0) {
		rc = send_text(0, TAG_CONTEXT, text);
		free(text);
		return rc;
	}
	for (int r = 0; r < f->size; r++) {
		if (r > 0 && recv_text(r, TAG_CONTEXT,
				       hb_now() + FLEET_CONTEXT_WAIT, &text)) {
			mark_lost(f, r, SIZE_MAX,
				  "sent no context before the first case "
				  "(the rank died or hung)");
			continue;
		}
		st->ranks[r].context = json_loads(text, 0, &jerr);
		free(text);
		text = NULL;
	}
	for (int r = 0; r < f->size; r++) {
		st->ranks[r].res =
			calloc(st->suite->ncases ? st->suite->ncases : 1,
			       sizeof(struct result));
		if (!st->ranks[r].res)
			return -ENOMEM;
	}
	return 0;
}

/* Decode rank r's result message text for case i into its results. */
static void take_result(struct fleet *f, int r, size_t i, const char *text)
{
	const struct bench_case *c = &f->st->suite->cases[i];
	struct result *res = &f->st->ranks[r].res[i];
	const char *const *parts = c->tdesc ? c->tdesc->parts : NULL;
	char why[256] = "not JSON";
	json_error_t jerr;
	json_t *doc = json_loads(text, 0, &jerr);
	json_t *jc = doc ? json_object_get(doc, "case") : NULL;

	result_free(res);
	memset(res, 0, sizeof(*res));
	if (!json_is_integer(jc) || (size_t)json_integer_value(jc) != i)
		snprintf(why, sizeof(why), "a result for another case");
	else if (!result_json_get(json_object_get(doc, "result"), parts, res,
				  why, sizeof(why)))
		why[0] = '\0';
	json_decref(doc);
	res->c = c;
	if (why[0]) {
		result_free(res);
		memset(res, 0, sizeof(*res));
		res->c = c;
		res->status = RESULT_FAILED;
		if (asprintf(&res->reason,
			     "rank 0 cannot read what this rank sent: %s",
			     why) < 0)
			res->reason = NULL;
	}
	if (res->status == RESULT_FAILED)
		f->st->ranks[r].failed = 1;
}

/* Rank 0: wait for rank r's result of case i until st->due. */
static void collect_one(struct fleet *f, int r, size_t i)
{
	const struct bench_case *c = &f->st->suite->cases[i];
	double wait = isolate_timeout(c) + FLEET_SLACK;
	char *text = NULL, why[128];
	int rc;

	if (f->st->ranks[r].lost)
		return;
	rc = recv_text(r, TAG_RESULT, f->st->due, &text);
	if (rc == 0) {
		take_result(f, r, i, text);
		free(text);
		return;
	}
	snprintf(why, sizeof(why),
		 rc == -ETIMEDOUT ? "no result within %.0f s (the rank died "
				    "or hung)"
				  : "its result could not be received",
		 wait);
	mark_lost(f, r, i, why);
}

/* Rank 0: collect the results of the together case still pending. */
static void collect_pending(struct fleet *f)
{
	struct fleet_state *st = f->st;

	if (!st->pending)
		return;
	for (int r = 1; r < f->size; r++)
		collect_one(f, r, st->pending - 1);
	st->pending = 0;
}

/* Rank 0: the deadline for results of case i started now. */
static double due_for(const struct fleet *f, size_t i)
{
	return hb_now() + isolate_timeout(&f->st->suite->cases[i]) +
	       FLEET_SLACK;
}

int fleet_case_begin(struct fleet *f, size_t i)
{
	struct fleet_state *st = f->st;

	if (f->size == 1)
		return 1;
	if (f->rank != 0) {
		if (st->stopped || !wait_control(i)) {
			st->stopped = 1;
			return 0;
		}
		return 1;
	}
	collect_pending(f);
	if (st->suite->cases[i].fleet_sequential)
		return 1; /* rank 0 goes first, the others in fleet_case_end */
	st->due = due_for(f, i);
	for (int r = 1; r < f->size; r++)
		if (!st->ranks[r].lost && send_control(r, (long)i))
			mark_lost(f, r, i, "did not take the start signal");
	st->pending = i + 1;
	return 1;
}

/* r's measurement as {"case": i, "result": {...}} text into *text. */
static int result_message(size_t i, const struct result *r, char **text)
{
	json_t *doc = json_object(), *res = json_object();
	int rc = -ENOMEM;

	if (doc && res &&
	    !json_object_set_new(doc, "case", json_integer((json_int_t)i)) &&
	    !result_json_put(res, r) && !json_object_set(doc, "result", res)) {
		*text = json_dumps(doc, JSON_COMPACT);
		rc = *text ? 0 : -ENOMEM;
	}
	json_decref(res);
	json_decref(doc);
	return rc;
}

int fleet_case_end(struct fleet *f, size_t i, struct result *r)
{
	struct fleet_state *st = f->st;
	char *text = NULL;
	int rc;

	r->c = &st->suite->cases[i];
	if (f->size == 1)
		return 0;
	if (f->rank != 0) {
		rc = result_message(i, r, &text);
		if (!rc)
			rc = send_text(0, TAG_RESULT, text);
		free(text);
		/* a result rank 0 did not get makes it count this rank lost */
		return rc == -EIO ? 0 : rc;
	}
	if (!st->suite->cases[i].fleet_sequential)
		return 0;
	for (int rank = 1; rank < f->size; rank++) {
		if (st->ranks[rank].lost)
			continue;
		st->due = due_for(f, i);
		if (send_control(rank, (long)i))
			mark_lost(f, rank, i, "did not take the start signal");
		else
			collect_one(f, rank, i);
	}
	return 0;
}

/* Rank 0: fill every result a lost rank never sent. */
static int fill_lost(struct fleet *f)
{
	struct fleet_state *st = f->st;
	char who[FLEET_HOST_MAX + 32];

	for (int r = 1; r < f->size; r++) {
		struct fleet_rank *fr = &st->ranks[r];

		for (size_t i = 0; fr->lost && fr->res && i < st->suite->ncases;
		     i++) {
			if (fr->res[i].c)
				continue;
			fr->res[i].c = &st->suite->cases[i];
			fr->res[i].status = RESULT_FAILED;
			if (asprintf(&fr->res[i].reason, "%s lost: %s",
				     rank_name(f, r, who, sizeof(who)),
				     fr->lost_why ? fr->lost_why : "") < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

int fleet_finish(struct fleet *f, int own)
{
	struct fleet_state *st = f->st;
	int status = own;

	if (f->size == 1 || f->rank != 0)
		return own;
	collect_pending(f);
	for (int r = 1; r < f->size; r++) {
		struct fleet_rank *fr = &st->ranks[r];

		/* a stop from main (a signal) leaves some waiting: release */
		if (!fr->lost)
			send_control(r, FLEET_STOP);
		for (size_t i = 0;
		     !fr->lost && fr->res && i < st->suite->ncases; i++)
			if (!fr->res[i].c)
				mark_lost(f, r, i, "stopped before this case");
		if ((fr->lost || fr->failed) && status == 0)
			status = EXIT_CASE_FAILED;
	}
	st->released = 1;
	if (fill_lost(f))
		fprintf(stderr, "hostbench: fleet: out of memory\n");
	return status;
}

int fleet_reports(const struct fleet *f)
{
	return f->size > 1 && f->rank == 0;
}

int fleet_silent(const struct fleet *f)
{
	return f->rank != 0;
}

int fleet_end(struct fleet *f, int status)
{
	struct fleet_state *st = f->st;
	int lost = 0;

	if (st && f->rank == 0 && st->started && !st->released)
		/* rank 0 gave up before the end: no rank may wait for it */
		for (int r = 1; r < f->size; r++)
			if (!st->ranks[r].lost)
				send_control(r, FLEET_STOP);
	if (st) {
		fleet_peers_release(st);
		for (int r = 0; st->ranks && r < f->size; r++) {
			struct fleet_rank *fr = &st->ranks[r];

			lost |= fr->lost;
			for (size_t i = 0;
			     fr->res && st->suite && i < st->suite->ncases; i++)
				result_free(&fr->res[i]);
			free(fr->res);
			free(fr->lost_why);
			json_decref(fr->context);
		}
		free(st->ranks);
		free(st);
		f->st = NULL;
	}
	fflush(stdout);
	fflush(stderr);
	if (lost && f->rank == 0)
		MPI_Abort(MPI_COMM_WORLD, status ? status : 1);
	MPI_Finalize();
	return status;
}
