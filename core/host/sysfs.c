/* SPDX-License-Identifier: Apache-2.0 */
/* The small text files of /proc and /sys, read whole or by first line. */
#include "host/sysfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *sysfs_read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, cap = 4096;
	char *buf, *grown;

	if (!f)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		len += fread(buf + len, 1, cap - len - 1, f);
		if (len < cap - 1)
			break;
		cap *= 2;
		grown = realloc(buf, cap);
		if (!grown) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = grown;
	}
	if (buf)
		buf[len] = '\0';
	fclose(f);
	return buf;
}

int sysfs_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int rc = 0;

	buf[0] = '\0';
	if (!f)
		return -ENOENT;
	if (!fgets(buf, (int)len, f)) {
		buf[0] = '\0';
		rc = -ENOENT;
	}
	fclose(f);
	buf[strcspn(buf, "\r\n")] = '\0';
	return rc;
}
