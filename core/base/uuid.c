/* SPDX-License-Identifier: Apache-2.0 */
/* Random (version 4) UUIDs from the kernel's generator. */
#include "base/uuid.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

void uuid_v4_text(const unsigned char bytes[16], char out[UUID_TEXT])
{
	unsigned char b[16];
	size_t at = 0;

	memcpy(b, bytes, sizeof(b));
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* variant RFC 4122 */
	for (size_t i = 0; i < sizeof(b); i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[at++] = '-';
		snprintf(out + at, UUID_TEXT - at, "%02x", b[i]);
		at += 2;
	}
	out[at] = '\0';
}

int uuid_v4(char out[UUID_TEXT])
{
	unsigned char b[16];
	size_t got = 0;

	while (got < sizeof(b)) {
		ssize_t n = getrandom(b + got, sizeof(b) - got, 0);

		if (n < 0 && errno != EINTR)
			return -errno;
		if (n > 0)
			got += (size_t)n;
	}
	uuid_v4_text(b, out);
	return 0;
}
