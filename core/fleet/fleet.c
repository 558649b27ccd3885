/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fleet runs over MPI, joined and left: MPI_Init and MPI_Finalize, both
 * bounded, and the state every phase works on. The phases are their own
 * files: before the first case (fleet_setup.c), the cases
 * (fleet_case.c), the report (fleet_report.c). Every wait has a deadline
 * (fleet_msg.c, fleet_round.c), so a rank lost at any moment costs a
 * wait, never the run.
 */
#include "fleet/fleet.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <jansson.h>
#include <mpi.h>

#include "base/exit.h"
#include "fleet/fleet_int.h"

/*
 * Seconds a rank that gave up on rank 0 waits before it ends the job, so
 * that every other rank, whose wait ends about then, says so on its host.
 */
#define FLEET_GIVE_UP_GRACE 1.0

/* Sleep secs seconds. */
static void sleep_for(double secs)
{
	struct timespec t = { .tv_sec = (time_t)secs,
			      .tv_nsec = (long)((secs - (double)(time_t)secs) *
						1e9) };

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

/* MPI_Init, bounded: a rank that died before it joined ends the wait. */
static int join(double wait)
{
	struct fleet_watchdog *w = NULL;
	int rc;

	fleet_watchdog_start(&w, wait, EXIT_CASE_FAILED, "MPI_Init", 1);
	fleet_fault(-1, "init");
	rc = MPI_Init(NULL, NULL);
	fleet_watchdog_stop(w);
	return rc;
}

int fleet_init(struct fleet *f, enum report_format fmt, double wait, char *err,
	       size_t errlen)
{
	char host[MPI_MAX_PROCESSOR_NAME];
	int len = 0;
	double started = fleet_wall();

	(void)fmt; /* every format has a fleet report */
	*f = (struct fleet){ .size = 1 };
	if (join(wait) != MPI_SUCCESS)
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
	f->st->wait = wait;
	for (int r = 0; r < f->size; r++)
		snprintf(f->st->ranks[r].host, FLEET_HOST_MAX, "unknown host");
	if (MPI_Get_processor_name(host, &len) != MPI_SUCCESS)
		snprintf(host, sizeof(host), "rank%d", f->rank);
	snprintf(f->st->ranks[f->rank].host, FLEET_HOST_MAX, "%s", host);
	fleet_trace_at(f, "start", -1, started);
	fleet_trace(f, "mpi_init", -1);
	return 0;
}

int fleet_writes_report(const struct fleet *f)
{
	return f->size > 1 && f->rank == 0;
}

int fleet_silent(const struct fleet *f)
{
	return f->rank != 0;
}

/* Free what st holds; returns whether a rank was lost. */
static int free_state(struct fleet_state *st, int size)
{
	int lost = 0;

	fleet_peers_release(st);
	for (int r = 0; st->ranks && r < size; r++) {
		struct fleet_rank *fr = &st->ranks[r];

		lost |= fr->lost || fr->gave_up || fr->unheard;
		for (size_t i = 0;
		     fr->res && st->suite && i < st->suite->ncases; i++)
			result_free(&fr->res[i]);
		free(fr->res);
		free(fr->at);
		free(fr->spooled);
		free(fr->lost_why);
		json_decref(fr->context);
	}
	free(st->ranks);
	free(st->absent);
	if (st->spool)
		fclose(st->spool);
	free(st);
	return lost;
}

/*
 * This rank gave up on rank 0: FLEET_GIVE_UP_GRACE for the others to say
 * so too, carrying on a result send rank 0 did not take in time.
 */
static void grace(struct fleet_state *st)
{
	double until = hb_now() + FLEET_GIVE_UP_GRACE;

	fleet_kept_flush(&st->kept, until);
	if (until > hb_now())
		sleep_for(until - hb_now());
}

int fleet_launched(void)
{
	static const char *const sizes[] = { "OMPI_COMM_WORLD_SIZE",
					     "SLURM_NTASKS", "PMI_SIZE" };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(*sizes); i++) {
		const char *v = getenv(sizes[i]);

		if (v && strtol(v, NULL, 10) > 1)
			return 1;
	}
	return 0;
}

int fleet_end(struct fleet *f, int status)
{
	struct fleet_watchdog *w = NULL;
	double wait = SUITE_FLEET_TIMEOUT;
	int lost = 0, orphan = 0;

	if (f->st) {
		fleet_trace(f, "report", -1);
		fleet_case_goodbye(f);
		/* the others' leases end about now: let them say so too,
		   and a late rank 0 take a result it did not take in time */
		if (f->st->orphan)
			grace(f->st);
		else
			fleet_kept_flush(&f->st->kept, hb_now());
		orphan = f->st->orphan || f->st->abandon;
		wait = f->st->wait;
		lost = free_state(f->st, f->size);
		f->st = NULL;
	}
	fflush(stdout);
	fflush(stderr);
	if ((lost && f->rank == 0) || orphan) {
		/* no report without rank 0: the launcher too, so its status
		   says so (mpirun --enable-recovery ignores MPI_Abort's) */
		fleet_launcher_end(!orphan);
		MPI_Abort(MPI_COMM_WORLD, status ? status : EXIT_CASE_FAILED);
	}
	/* a rank that died after its last result holds MPI_Finalize up:
	   each rank leaves alone, the report (rank 0's) already written */
	fleet_watchdog_start(&w, wait, status, "MPI_Finalize", 0);
	MPI_Finalize();
	fleet_watchdog_stop(w);
	if (f->rank == 0 || status >= EXIT_SIGNAL(0))
		return status;
	return EXIT_ALL_OK;
}
