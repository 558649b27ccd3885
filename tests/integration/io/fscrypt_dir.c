/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fscrypt_dir MOUNT DIR: make the empty directory DIR, on the filesystem
 * mounted at MOUNT, an encrypted directory, with no tool beyond the
 * kernel's ioctls: a random key added to the filesystem's keyring
 * (FS_IOC_ADD_ENCRYPTION_KEY), then a v2 policy naming it set on DIR
 * (FS_IOC_SET_ENCRYPTION_POLICY, AES-256-XTS contents, AES-256-CTS names).
 * The key leaves with the mount. Root only. Exit 0, or 1 with the failing
 * call on stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fscrypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define KEY_BYTES 64

/* Report the failing call and errno; returns 1, the exit status. */
static int fail(const char *what, const char *path)
{
	fprintf(stderr, "fscrypt_dir: %s %s: %s\n", what, path,
		strerror(errno));
	return 1;
}

/* Add a random key to the keyring of the filesystem at mount; id out. */
static int add_key(const char *mount,
		   unsigned char id[FSCRYPT_KEY_IDENTIFIER_SIZE])
{
	struct fscrypt_add_key_arg *arg;
	int fd, rc = 0;

	arg = calloc(1, sizeof(*arg) + KEY_BYTES);
	if (!arg)
		return fail("calloc for", mount);
	arg->key_spec.type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	arg->raw_size = KEY_BYTES;
	if (getrandom(arg->raw, KEY_BYTES, 0) != KEY_BYTES) {
		free(arg);
		return fail("getrandom for", mount);
	}
	fd = open(mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, FS_IOC_ADD_ENCRYPTION_KEY, arg) != 0)
		rc = fail("FS_IOC_ADD_ENCRYPTION_KEY on", mount);
	else
		memcpy(id, arg->key_spec.u.identifier,
		       FSCRYPT_KEY_IDENTIFIER_SIZE);
	if (fd >= 0)
		close(fd);
	free(arg);
	return rc;
}

int main(int argc, char **argv)
{
	struct fscrypt_policy_v2 policy = {
		.version = FSCRYPT_POLICY_V2,
		.contents_encryption_mode = FSCRYPT_MODE_AES_256_XTS,
		.filenames_encryption_mode = FSCRYPT_MODE_AES_256_CTS,
		.flags = FSCRYPT_POLICY_FLAGS_PAD_32,
	};
	int fd, rc;

	if (argc != 3) {
		fprintf(stderr, "usage: fscrypt_dir MOUNT DIR\n");
		return 2;
	}
	if (add_key(argv[1], policy.master_key_identifier))
		return 1;
	if (mkdir(argv[2], 0700) != 0)
		return fail("mkdir", argv[2]);
	fd = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fail("open", argv[2]);
	rc = ioctl(fd, FS_IOC_SET_ENCRYPTION_POLICY, &policy);
	close(fd);
	return rc ? fail("FS_IOC_SET_ENCRYPTION_POLICY on", argv[2]) : 0;
}
