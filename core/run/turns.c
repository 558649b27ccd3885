/* SPDX-License-Identifier: Apache-2.0 */
/* The helper's side of interleaved turns: one byte each way on two FIFOs. */
#include "run/turns.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hostbench/plugin.h>

int turns_open(struct turns *t, const char *go, const char *done, char *err,
	       size_t errlen)
{
	t->waited = 0;
	t->done = -1;
	t->go = open(go, O_RDONLY | O_CLOEXEC);
	if (t->go < 0)
		return hb_errorf(err, errlen, -errno, "open %s: %s", go,
				 strerror(errno));
	t->done = open(done, O_WRONLY | O_CLOEXEC);
	if (t->done < 0) {
		int rc = -errno;

		close(t->go);
		t->go = -1;
		return hb_errorf(err, errlen, rc, "open %s: %s", done,
				 strerror(-rc));
	}
	return 0;
}

int turns_wait(struct turns *t)
{
	double t0 = hb_now();
	ssize_t n;
	char c;

	do
		n = read(t->go, &c, 1);
	while (n < 0 && errno == EINTR);
	t->waited += hb_now() - t0;
	return n == 1 && c == TURN_GO;
}

void turns_say(const struct turns *t, char c)
{
	ssize_t n;

	do
		n = write(t->done, &c, 1);
	while (n < 0 && errno == EINTR);
}

void turns_close(struct turns *t)
{
	if (t->go >= 0)
		close(t->go);
	if (t->done >= 0)
		close(t->done);
	t->go = t->done = -1;
}
