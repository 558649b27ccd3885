/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fleet's messages: point-to-point sends and receives, each with a
 * deadline, polled with short sleeps instead of blocking in MPI (whose
 * blocking calls spin a CPU the measuring ranks of the same host need,
 * and wait forever on a rank that died).
 */
#include "fleet/fleet_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

/* Longest nap between two looks at MPI, in microseconds. */
#define FLEET_NAP_MAX_US 8000

/*
 * Sleep *us microseconds, then double it up to FLEET_NAP_MAX_US. A wait
 * starts with short naps (a case ends, the next starts soon) and settles
 * on long ones, so a rank that waits through a whole case (sequential, or
 * a host whose receiver another rank is measuring) wakes rarely; a start a
 * few milliseconds late costs nothing next to a case's setup. *us 0:
 * no nap at all (spin: a ping, whose timing is the measurement).
 */
static void nap(unsigned *us)
{
	struct timespec t = { .tv_nsec = (long)*us * 1000 };

	if (!*us)
		return;
	nanosleep(&t, NULL);
	if (*us < FLEET_NAP_MAX_US)
		*us = *us * 2 > FLEET_NAP_MAX_US ? FLEET_NAP_MAX_US : *us * 2;
}

/*
 * Wait for req until deadline (0: none), napping from us. Returns 0,
 * -ETIMEDOUT (the request is cancelled) or -EIO.
 */
static int wait_req(MPI_Request *req, double deadline, unsigned us)
{
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
 * Wait until a message from src with tag is there, by deadline, into
 * *status. Returns 0, -ETIMEDOUT or -EIO.
 */
static int wait_message(int src, int tag, double deadline, unsigned us,
			MPI_Status *status)
{
	int flag = 0;

	for (;;) {
		if (MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, status) !=
		    MPI_SUCCESS)
			return -EIO;
		if (flag)
			return 0;
		if (hb_now() > deadline)
			return -ETIMEDOUT;
		nap(&us);
	}
}

/*
 * The analyzer's MPI checker does not follow a request into wait_req(),
 * where MPI_Test completes it (or it is cancelled and freed).
 */
/* NOLINTBEGIN(clang-analyzer-optin.mpi.MPI-Checker) */

/* Send n items of type from buf to dst by deadline. */
static int send_items(const void *buf, int n, MPI_Datatype type, int dst,
		      int tag, double deadline)
{
	MPI_Request req;

	if (MPI_Isend(buf, n, type, dst, tag, MPI_COMM_WORLD, &req) !=
	    MPI_SUCCESS)
		return -EIO;
	return wait_req(&req, deadline, 250);
}

/* Receive one item of type from src into buf by deadline. */
static int recv_item(void *buf, MPI_Datatype type, int src, int tag,
		     double deadline, unsigned us)
{
	MPI_Status status;
	int rc = wait_message(src, tag, deadline, us, &status);

	if (rc)
		return rc;
	return MPI_Recv(buf, 1, type, src, tag, MPI_COMM_WORLD,
			MPI_STATUS_IGNORE) == MPI_SUCCESS
		       ? 0
		       : -EIO;
}

/* A send under way past its deadline, and the text it sends. */
struct kept_send {
	MPI_Request req;
	char *text;
};

int fleet_send_text_kept(int dst, int tag, char *text, double deadline,
			 void **kept)
{
	struct kept_send *k = calloc(1, sizeof(*k));
	int done = 0;
	unsigned us = 250;

	if (!k || MPI_Isend(text, (int)strlen(text) + 1, MPI_CHAR, dst, tag,
			    MPI_COMM_WORLD, &k->req) != MPI_SUCCESS) {
		free(k);
		free(text);
		return -EIO;
	}
	k->text = text;
	while (MPI_Test(&k->req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS) {
		if (done) {
			free(text);
			free(k);
			return 0;
		}
		if (hb_now() > deadline) {
			fleet_kept_flush(kept, 0); /* an older one goes */
			*kept = k;
			return -ETIMEDOUT;
		}
		nap(&us);
	}
	return -EIO; /* the text stays with the request */
}

void fleet_kept_flush(void **kept, double until)
{
	struct kept_send *k = *kept;
	unsigned us = 250;
	int done = 0;

	while (k && !done && hb_now() <= until) {
		if (MPI_Test(&k->req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			break;
		nap(&us);
	}
	if (k && done) {
		free(k->text);
		free(k);
	}
	*kept = NULL; /* one not taken stays under way until the end */
}

/* NOLINTEND(clang-analyzer-optin.mpi.MPI-Checker) */

int fleet_send_text(int dst, int tag, const char *text, double deadline)
{
	return send_items(text, (int)strlen(text) + 1, MPI_CHAR, dst, tag,
			  deadline);
}

int fleet_recv_text(int src, int tag, double deadline, char **out)
{
	MPI_Status status;
	int n = 0, rc = wait_message(src, tag, deadline, 250, &status);

	if (rc)
		return rc;
	MPI_Get_count(&status, MPI_CHAR, &n);
	*out = malloc((size_t)n + 1);
	if (!*out)
		return -ENOMEM;
	if (MPI_Recv(*out, n, MPI_CHAR, src, tag, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE) != MPI_SUCCESS) {
		free(*out);
		*out = NULL;
		return -EIO;
	}
	(*out)[n] = '\0';
	return 0;
}

int fleet_send_long(int dst, int tag, long value, double deadline)
{
	return send_items(&value, 1, MPI_LONG, dst, tag, deadline);
}

int fleet_recv_long(int src, int tag, long *value, double deadline, int spin)
{
	return recv_item(value, MPI_LONG, src, tag, deadline, spin ? 0 : 250);
}

int fleet_recv_leased(int tag, long *value, double *lease, double *heard)
{
	unsigned us = 250;
	double secs;
	int flag = 0;

	for (;;) {
		if (MPI_Iprobe(0, tag, MPI_COMM_WORLD, &flag,
			       MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -EIO;
		if (flag)
			return recv_item(value, MPI_LONG, 0, tag, *lease, 0);
		if (MPI_Iprobe(0, FLEET_TAG_LEASE, MPI_COMM_WORLD, &flag,
			       MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -EIO;
		if (flag) {
			if (recv_item(&secs, MPI_DOUBLE, 0, FLEET_TAG_LEASE,
				      *lease, 0))
				return -EIO;
			*heard = hb_now();
			*lease = *heard + secs;
			continue;
		}
		if (hb_now() > *lease)
			return -ETIMEDOUT;
		nap(&us);
	}
}

int fleet_send_double(int dst, int tag, double value, double deadline)
{
	return send_items(&value, 1, MPI_DOUBLE, dst, tag, deadline);
}

int fleet_recv_double(int src, int tag, double *value, double deadline)
{
	return recv_item(value, MPI_DOUBLE, src, tag, deadline, 0);
}
