/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the fleet's files share: the state behind struct fleet, the
 * messages and rounds, the peer modes (fleet_pairs.c) and a rank's name
 * (fleet_rank_name.c), both in every build, what rank 0 knows of each
 * rank (fleet_rank.c), the receivers of host-pair transfers
 * (fleet_peer.c), each rank's results as rank 0 takes them in
 * (fleet_spool.c), and what the fleet report above (fleetreport/) reads.
 * Each file calls only its own group and the groups before it in the
 * order of fleet/ in .ci/layering (FOLDERS, and docs/architecture.md),
 * which checks it: fleet_msg, fleet_pairs, fleet_rank_name < fleet_rank
 * < fleet_round < fleet_clock < fleet_trace < fleet_watchdog <
 * fleet_fault, fleet_wait < fleet_peer < fleet_spool < fleet_unlike <
 * fleet_setup < fleet_case < fleet.c, fleet_solo; none calls back into a
 * phase or fleet.c, and none calls fleetreport/.
 */
#ifndef HB_CORE_FLEET_FLEET_INT_H
#define HB_CORE_FLEET_FLEET_INT_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include <jansson.h>

#include "fleet/fleet.h"
#include "render/table.h"

/* Longest host name a rank reports (MPI_MAX_PROCESSOR_NAME is 256). */
#define FLEET_HOST_MAX 256

/* When a rank ran a case, on its own wall clock (seconds since 1970). */
struct fleet_span {
	double start; /* released to start it; 0: never started */
	double end;   /* its result was ready */
};

/* Where rank 0's spool keeps one result message; len 0: not there. */
struct fleet_spooled {
	long at;
	size_t len;
};

/* What rank 0 knows of one rank. */
struct fleet_rank {
	char host[FLEET_HOST_MAX];
	int lost;	    /* rank 0 stopped waiting for it */
	int late;	    /* rank 0: a rank gave up waiting for it */
	int gave_up;	    /* it gave up on rank 0 (and left the run) */
	int unheard;	    /* not heard from once rank 0 came back late: out,
			       blamed on nobody */
	char *lost_why;	    /* "no result within 35 s ... at \"X\"" */
	json_t *context;    /* its report without results: system, ... */
	struct result *res; /* suite->ncases; rank 0's own live in main */
	struct fleet_span *at; /* suite->ncases: when it ran each case */
	double offset;	       /* its wall clock minus rank 0's, seconds */
	double rtt;	       /* round trip of the best ping; -1: unknown */
	int failed;	       /* one of its cases failed */
	struct fleet_spooled *spooled; /* suite->ncases, or NULL: where
					  st->spool keeps each result */
};

/* Everything a fleet keeps between calls. */
struct fleet_state {
	const struct suite *suite; /* the suite as loaded, for reports */
	struct suite resolved;	   /* host pairs resolved; cases NULL: unused */
	pid_t serve;		   /* this rank's receiver, 0 when none */
	char **where; /* size: "HOST:PORT" each rank's receiver is reached
			 at from here, NULL when it has none */
	int nwhere;   /* entries in where */
	struct fleet_rank *ranks; /* size of them, every rank's host */
	double wait;		  /* fleet_timeout before the first case */
	size_t pending;		  /* together: case whose results are due */
	double due;		  /* rank 0: deadline of pending results */
	double span_start;	  /* this rank: wall clock of its case start */
	double lease;		  /* above 0: rank 0's next word is due by */
	double heard;		  /* above 0: when rank 0 last said a word */
	size_t at;		  /* above 0: the case rank 0 last released */
	int stopped;		  /* this rank was told to stop */
	int orphan;		  /* this rank gave up on rank 0 */
	int abandon;		  /* a rank was lost: leave by MPI_Abort */
	int started;		  /* rank 0: the others may wait for its word */
	int released;		  /* rank 0: every rank was told to stop */
	unsigned char *absent;	  /* suite->ncases, or NULL: this rank has no
				     plugin for case i (fleet_unlike.c) */
	FILE *spool; /* rank 0: every rank's result messages, or NULL */
	void *kept;  /* a result send rank 0 did not take in time */
};

/* Message tags; every message is text (JSON), one long or one double. */
enum fleet_tag {
	FLEET_TAG_HELLO = 1,	/* rank -> 0: suite hash, host; 0 -> answer */
	FLEET_TAG_PEERS = 3,	/* rank -> 0: its receiver; 0 -> all of them */
	FLEET_TAG_AGREE = 5,	/* rank -> 0: its precheck; 0 -> verdict */
	FLEET_TAG_CONTEXT = 7,	/* rank -> 0: its report without results */
	FLEET_TAG_PING = 9,	/* 0 -> rank: a ping; rank -> 0: its clock */
	FLEET_TAG_GO = 11,	/* 0 -> rank: case to start, or FLEET_STOP */
	FLEET_TAG_RESULT = 12,	/* rank -> 0: {"case": i, "result": {...}} */
	FLEET_TAG_LEASE = 13,	/* 0 -> rank: seconds to its next word */
	FLEET_TAG_GAVE_UP = 14, /* rank -> 0: seconds it waited for rank 0 */
	FLEET_TAG_UNLIKE = 41,	/* rank -> 0: cases some rank lacks; 0 -> all */
};

/* The control value that ends a rank's run. */
#define FLEET_STOP (-1L)

/*
 * The same once a rank was lost or left: MPI_Finalize would wait for it,
 * so the rank leaves with MPI_Abort.
 */
#define FLEET_STOP_ABORT (-2L)

/*
 * Send text, its NUL included, to rank dst (fleet_msg.c, as the rest of
 * this block). Returns 0, -ETIMEDOUT (not taken by deadline) or -EIO.
 */
int fleet_send_text(int dst, int tag, const char *text, double deadline);

/*
 * fleet_send_text() of text (malloc'd; taken) that is not given up at
 * deadline: a send rank 0 has not taken by then (rank 0 stopped) stays
 * under way in *kept, so rank 0, should it come back, still gets it
 * (fleet_kept_flush()). Returns 0, -ETIMEDOUT (kept) or -EIO.
 */
int fleet_send_text_kept(int dst, int tag, char *text, double deadline,
			 void **kept);

/*
 * Carry a kept send (NULL: none) on until it is taken or until; free it
 * when taken. Returns when until passes, whatever happens.
 */
void fleet_kept_flush(void **kept, double until);

/*
 * Receive one text from rank src by deadline (hb_now() seconds) into
 * *out, which the caller frees. Returns 0, -ETIMEDOUT, -EIO or -ENOMEM.
 */
int fleet_recv_text(int src, int tag, double deadline, char **out);

/* Send one long to rank dst; 0, -ETIMEDOUT or -EIO. */
int fleet_send_long(int dst, int tag, long value, double deadline);

/*
 * Receive one long from rank src into *value by deadline; spin instead
 * of napping when spin (a ping, whose timing matters). Returns 0,
 * -ETIMEDOUT or -EIO.
 */
int fleet_recv_long(int src, int tag, long *value, double deadline, int spin);

/*
 * A rank above 0: receive one long of tag from rank 0 into *value by
 * *lease, while each double of FLEET_TAG_LEASE rank 0 sends meanwhile
 * (seconds to its next word) moves *lease to now + that, and *heard to
 * now. Returns 0, -ETIMEDOUT (rank 0 silent past its lease) or -EIO.
 */
int fleet_recv_leased(int tag, long *value, double *lease, double *heard);

/* Send one double to rank dst; 0, -ETIMEDOUT or -EIO. */
int fleet_send_double(int dst, int tag, double value, double deadline);

/* Receive one double from rank src, spinning; as fleet_recv_long(). */
int fleet_recv_double(int src, int tag, double *value, double deadline);

/*
 * Rank 0's side of a round, what this rank decides from every rank's
 * message: all[r] is rank r's (NULL for a rank lost before or during
 * the round; all[0] is rank 0's own). Returns the answer every rank gets
 * (a new reference), or NULL when out of memory.
 */
typedef json_t *fleet_decide_fn(struct fleet *f, json_t *const *all, void *arg);

/*
 * One bounded exchange through rank 0, instead of a collective that would
 * wait on a dead rank: every rank sends mine (tag), rank 0 waits for each
 * by now + wait, marks the ranks it did not hear from lost (what they
 * were doing: stage), decides, and sends the answer to every rank, lost
 * ones included (a rank that was only slow learns it is out). A rank
 * above 0 waits for the answer until twice wait, then gives up on rank 0
 * (f->st->orphan). *answer gets the answer ({"lost": [r, ...], ...} as
 * decide made it, with "out": true on a rank that was counted lost).
 * Returns 0, -ETIMEDOUT (orphan), -EIO or -ENOMEM.
 */
int fleet_round(struct fleet *f, int tag, json_t *mine, double wait,
		const char *stage, fleet_decide_fn *decide, void *arg,
		json_t **answer);

/*
 * Rank 0 gives up on rank r at case i (SIZE_MAX: before any case), why
 * being what it saw ("no result within 35 s (the rank died or hung)"),
 * and tells r to stop in case it is only slow (fleet_rank.c, as the next).
 */
void fleet_rank_lose(struct fleet *f, int r, size_t i, const char *why);

/*
 * Rank 0: whether rank r gave up waiting for rank 0 (it sent
 * FLEET_TAG_GAVE_UP before it left): then rank 0 was the late one, and it
 * says so in its own entry instead of counting r lost at case i. Returns
 * 1 when r gave up, else 0.
 */
int fleet_rank_gave_up(struct fleet *f, int r, size_t i);

/*
 * Rank 0, back late secs after the deadline of case i's results (it was
 * stopped or hung): marks itself late, says so on stderr, blaming no
 * rank.
 */
void fleet_rank_late(struct fleet *f, size_t i, double secs);

/*
 * A rank above 0 that heard nothing from rank 0 by its lease (waited
 * seconds, at stage: "at \"memcpy\"", "while the ranks compared their
 * suites"): say so on stderr, naming rank 0, tell rank 0 (should it only
 * be stopped, it learns it was the late one) and leave the run
 * (st->orphan).
 */
void fleet_rank_give_up(struct fleet *f, double waited, const char *stage);

/* Nonzero when rank r is out of the run: lost, or it gave up on rank 0. */
int fleet_rank_out(const struct fleet *f, int r);

/* "rank 1 (lab2)" into buf; returns buf (fleet_rank_name.c). */
const char *fleet_rank_name(const struct fleet *f, int r, char *buf,
			    size_t len);

/* "lost", "late" or "ok": the name of a rank's status in reports. */
const char *fleet_rank_name_status(const struct fleet_rank *fr);

/*
 * The end of the cases (fleet_case.c), before the job is left: rank 0
 * tells every rank still in the run that it is over (its report is
 * written); a rank above 0 waits for that word, unless it already stopped.
 */
void fleet_case_goodbye(struct fleet *f);

/*
 * Every rank not lost: rank 0 estimates every rank's
 * clock offset against its own by ping-pong over MPI (the ping with the
 * shortest round trip wins, as NTP does) into st->ranks[].offset and
 * rtt; the others answer. Bounded by wait. Returns 0, or -ETIMEDOUT on a
 * rank that gave up on rank 0.
 */
int fleet_clock_sync(struct fleet *f, double wait);

/* This host's wall clock, seconds since 1970 (CLOCK_REALTIME). */
double fleet_wall(void);

/*
 * Seconds rank 0 waits for case c's result once it started it: the
 * case's own time (its timeout when set, else what its samples should
 * take) plus its fleet_timeout. Pure.
 */
double fleet_case_wait(const struct bench_case *c);

/*
 * A point of a run where a test may stop this rank (rank, or -1 before
 * MPI knows it). A shipped hostbench does nothing here (fleet_fault.c).
 * The tests' hostbench-faults (docs/fleet.md, "Testing failures") dies by
 * SIGKILL there, or hangs (sleeps forever) with ":hang", when
 * HOSTBENCH_FLEET_FAULT=RANK:POINT[:hang] names this rank (or, before MPI
 * knows it, the launcher's rank variable) and point.
 */
void fleet_fault(int rank, const char *point);

/*
 * Bound a call into MPI that cannot be bounded otherwise (MPI_Init, which
 * waits for every rank to start; MPI_Finalize): unless fleet_watchdog_stop()
 * comes first, after secs the process says what (on stderr) and exits
 * with status, ending the launcher first when launcher (a rank that never
 * joined: the job is over); otherwise the launcher sees every rank leave
 * and its status is theirs (mpirun --enable-recovery: 0). Returns 0 or
 * -EAGAIN (no thread: the call is unbounded).
 */
struct fleet_watchdog;
int fleet_watchdog_start(struct fleet_watchdog **w, double secs, int status,
			 const char *what, int launcher);

/*
 * End the job from outside MPI (fleet_watchdog.c): SIGTERM to this
 * process's parent when it is Open MPI's daemon (orted), or, unless
 * daemon_only, mpirun itself; Open MPI then ends every rank and mpirun
 * exits. For a job MPI_Abort does not end: before MPI_Init, or under
 * --enable-recovery inside a Slurm allocation, where mpirun outlives an
 * aborted job until the allocation's time limit. Returns the parent's
 * pid, or 0 when it is none of them.
 */
pid_t fleet_launcher_end(int daemon_only);

/* Disarm and free w (NULL is fine). */
void fleet_watchdog_stop(struct fleet_watchdog *w);

/*
 * Resolve the cases of st->suite with a peer mode into st->resolved for rank
 * of size (hosts in st->ranks): start serve, exchange addresses, ports
 * and tokens in a round through rank 0 (bounded by st->wait), rewrite
 * peer and token; a case whose partner was lost fails with the reason.
 * Does nothing (st->resolved stays empty) when no case asks for it. Returns 0,
 * -EIO (a receiver did not start: every rank), -ECANCELED (this rank was
 * counted lost), -ETIMEDOUT (no word from rank 0) or -ENOMEM, with err
 * filled.
 */
int fleet_peers_resolve(struct fleet *f, const char *serve, char *err,
			size_t errlen);

/* Why rank 0 has no figure of its own in an all-to-one case. */
#define FLEET_RECEIVES_ONLY                                                    \
	"peer = all-to-one: rank 0 receives from every other rank (their "     \
	"sum is the fleet total)"

/* Nonzero when this rank only receives in case i (all-to-one, rank 0). */
int fleet_peer_receives(const struct fleet *f, size_t i);

/*
 * Where this rank's result of case i with a peer mode names a partner's
 * receiver ("127.0.0.1:40123: connect: ..."), add which rank that is
 * ("127.0.0.1:40123 (rank 2 (lab3)): connect: ..."): in the reason of a
 * failed case, in its warnings, and in the pairs the plugin told of
 * (info "pair 127.0.0.1:40123 (rank 2 (lab3))": "failed: ..."). Returns 0
 * or -ENOMEM.
 */
int fleet_peer_blame(const struct fleet *f, size_t i, struct result *r);

/* Free st->resolved and stop this rank's receiver, if any. */
void fleet_peers_release(struct fleet_state *st);

/*
 * ctx (a report, here without results) as JSON text into *text, which
 * the caller frees. Returns 0 or a negative code.
 */
int fleet_context_text(const struct report *ctx, char **text);

/* fleet_partner() of "all-to-all": every rank sends to every other. */
#define FLEET_EVERY_OTHER (-4)

/*
 * The partner of rank among size for a peer mode: "rank-pairs" pairs 0-1,
 * 2-3, ...; "ring" sends to rank + 1 (the last to 0); "all-to-one" sends
 * to rank 0; "all-to-all" to every other rank. Returns the partner, -1
 * for the odd rank out of rank-pairs, -3 for rank 0 of all-to-one (it
 * receives), FLEET_EVERY_OTHER for all-to-all, -2 when mode is none of
 * them. Pure.
 */
int fleet_partner(const char *mode, int rank, int size);

/*
 * The peer mode c asks for ("rank-pairs", "ring", "all-to-one",
 * "all-to-all"), or NULL when c sends to no rank (its target takes no
 * peer and token, or peer is HOST:PORT).
 */
const char *fleet_peer_mode(const struct bench_case *c);

/* Who sends to whom in a peer mode, one line for reports. Pure. */
const char *fleet_peer_mode_text(const char *mode);

/*
 * In a fleet of one rank: -EINVAL with the file, line and section of the
 * first case of s with a peer mode (it needs other ranks), else 0.
 */
int fleet_refuse_peers(const struct suite *s, char *err, size_t errlen);

/*
 * Nonzero when warning is a plugin's word that one pair of a case with
 * several receivers failed ("pair ADDR failed: ..."): the spread's notes
 * list it under an ok case, and rank 0 keeps it with a result's figures.
 */
int fleet_pair_warning(const char *warning);

/*
 * Rank 0 of a fleet of two or more appends "PHASE I WALL MAXRSS_KB" to
 * the file HOSTBENCH_FLEET_TRACE names, when set (fleet_trace.c): the
 * phase it ended (i: the case, or -1), on its wall clock (now, or wall),
 * and its peak memory so far. For bench/fleet_scale.py.
 */
void fleet_trace_at(const struct fleet *f, const char *phase, long i,
		    double wall);
void fleet_trace(const struct fleet *f, const char *phase, long i);

/*
 * Unlike hosts (fleet_unlike.c). The jobs of s (loaded: 0, else none)
 * whose target no plugin here offers, as the hello's {"JOB": "TARGET"};
 * NULL when out of memory.
 */
json_t *fleet_unlike_unoffered(const struct suite *s, int loaded);

/*
 * Rank 0: "no rank offers TARGET" (malloc'd) when a job's target is
 * offered by no rank's plugins (every hello in all names it unoffered),
 * else NULL.
 */
char *fleet_unlike_nobody(const struct fleet *f, json_t *const *all);

/*
 * Rank 0: the union of every rank's cases (all[r]'s "cases", [hash, job,
 * backend]) as [hash, job, backend, the first rank that has it], in job
 * order; *differs is the rank (-1: rank 0) that lacks a case whose
 * backend it has a plugin for, in a job whose target it offers (its suite
 * differs in something else), else 0. NULL when out of memory.
 */
json_t *fleet_unlike_union(const struct fleet *f, json_t *const *all,
			   int *differs);

/*
 * Every rank: run the union u instead of s's cases. The first rank that
 * has each case describes it through rank 0 (a round); s's cases are
 * then u's, this rank's own where it has them, else a stand-in that
 * fleet_absent() skips. hashes: s's case hashes. Returns 0, -ECANCELED
 * (this rank was counted lost), -ETIMEDOUT, -EIO or -ENOMEM.
 */
int fleet_unlike_take(struct fleet *f, struct suite *s,
		      const char *const *hashes, const json_t *u);

/*
 * When this rank has no plugin for case i, r becomes skipped with the
 * reason (which rank lacks which plugin). Returns 0 or -ENOMEM.
 */
int fleet_absent(const struct fleet *f, size_t i, struct result *r);

/*
 * A result message of case i ({"case": i, "result": {...}, "start",
 * "end"}) into res (freed first) and at; one that cannot be read makes
 * res failed with the reason (fleet_spool.c, as the next).
 */
void fleet_result_take(const struct bench_case *c, size_t i, const char *text,
		       struct result *res, struct fleet_span *at);

/*
 * Rank 0: keep rank r's message text of case i in st->spool and only the
 * figures of its result in memory (status, reason, rates): the report
 * reads the rest back one rank at a time. Without a spool (no temporary
 * file) the whole result stays.
 */
void fleet_spool(struct fleet *f, int r, size_t i, const char *text);

#endif
