/* SPDX-License-Identifier: Apache-2.0 */
/* Random (version 4) UUIDs from the kernel's generator; UUIDs checked. */
#include "base/uuid.h"

#include <ctype.h>
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

int uuid_is_text(const char *s)
{
	for (size_t i = 0; s && i < UUID_TEXT - 1; i++) {
		int dash = i == 8 || i == 13 || i == 18 || i == 23;

		/* a NUL is neither: the loop never reads past the end */
		if (dash ? s[i] != '-' : !isxdigit((unsigned char)s[i]))
			return 0;
	}
	return s && s[UUID_TEXT - 1] == '\0';
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
