/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The openssl-speed preset runs openssl speed's loops (OpenSSL 3.0's
 * apps/speed.c): for GCM, per block, the IV length, key and IV set, one
 * update (from the core's input into its buffer, ABI 1.4, where openssl
 * speed updates in place) and the final, which computes the tag and leaves it
 * unread (EVP_Update_loop_aead_enc); for CTR, CBC and ChaCha20-Poly1305
 * one update per block on one message (EVP_Update_loop). The test
 * defines the EVP calls the plugin makes, so they count every call of the timed
 * run() before handing it to OpenSSL; each case takes the preset's own keys for
 * its job. It also defines the timed path's test seam (seam.h) and libc's
 * copies, to prove the loop consults none of the seam and copies nothing
 * through libc (the message's IV included): a call per block is a share of
 * a 16-byte block's cost that openssl speed does not pay.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "../../../plugins/crypto/common/seam.h"
#include "../../unit/check.h"
#include "fake_host.h"

const struct hb_plugin *hostbench_plugin_entry(void);

/* The EVP calls of the timed loop, counted while counting is on. */
static struct {
	int on;
	unsigned long key_and_iv; /* EVP_CipherInit_ex2 with a key and IV */
	unsigned long iv_only;	  /* EVP_CipherInit_ex2 with an IV alone */
	unsigned long updates;	  /* EVP_Encrypt/DecryptUpdate */
	unsigned long apart;	  /* of which out != in: the core's buffers */
	unsigned long finals;	  /* EVP_CipherFinal_ex */
	unsigned long tags;	  /* EVP_CTRL_AEAD_GET_TAG */
	unsigned long ivlens;	  /* EVP_CTRL_AEAD_SET_IVLEN */
	unsigned long seams;	  /* the timed path's seam consulted */
	unsigned long libc;	  /* memcpy, memmove, memset of the plugin's */
} calls;

/*
 * What the plugin's own code may call of libc per block: nothing in a
 * shipped (optimized) build; a sanitizer's build makes every copy a call.
 */
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
#define LIBC_JUDGED 1
#else
#define LIBC_JUDGED 0
#endif

/*
 * The plugin's own calls of libc's copies (it is linked into this test:
 * a caller in this program's image; OpenSSL's own copies are the work).
 * A copy of a size the compiler knows is inlined and never comes here.
 */
static void count_libc(const void *caller)
{
	static Dl_info self;
	Dl_info who;

	if (!calls.on)
		return;
	if (!self.dli_fbase)
		dladdr((const void *)hostbench_plugin_entry, &self);
	if (dladdr(caller, &who) && who.dli_fbase == self.dli_fbase)
		calls.libc++;
}

/* Byte loops for the moment before libc's own are found (dlsym copies). */
static void *copy_bytes(void *d, const void *s, size_t n)
{
	volatile unsigned char *o = d;
	const unsigned char *i = s;

	for (size_t k = 0; k < n; k++)
		o[k] = i[k];
	return d;
}

static void *set_bytes(void *d, int c, size_t n)
{
	volatile unsigned char *o = d;

	for (size_t k = 0; k < n; k++)
		o[k] = (unsigned char)c;
	return d;
}

/* libc's definition of name into *slot; NULL while it is being looked up. */
static void *libc_fn(const char *name, void **slot)
{
	static int finding;

	if (!*slot && !finding) {
		finding = 1;
		*slot = dlsym(RTLD_NEXT, name);
		finding = 0;
	}
	return *slot;
}

void *memcpy(void *d, const void *s, size_t n)
{
	static void *f;
	void *(*copy)(void *, const void *, size_t);

	count_libc(__builtin_return_address(0));
	*(void **)&copy = libc_fn("memcpy", &f);
	return copy ? copy(d, s, n) : copy_bytes(d, s, n);
}

void *memmove(void *d, const void *s, size_t n)
{
	static void *f;
	void *(*move)(void *, const void *, size_t);

	count_libc(__builtin_return_address(0));
	*(void **)&move = libc_fn("memmove", &f);
	return move ? move(d, s, n) : copy_bytes(d, s, n);
}

void *memset(void *d, int c, size_t n)
{
	static void *f;
	void *(*set)(void *, int, size_t);

	count_libc(__builtin_return_address(0));
	*(void **)&set = libc_fn("memset", &f);
	return set ? set(d, c, n) : set_bytes(d, c, n);
}

/* The shipped seam's answers, each consultation counted. */
size_t cx_seam_timed_len(size_t len)
{
	calls.seams += calls.on;
	return len;
}

cx_tag_tamper *cx_seam_timed_tag(void)
{
	calls.seams += calls.on;
	return NULL;
}

/* OpenSSL's own definition of sym, the one ours stands in front of. */
static void *real(const char *sym)
{
	return dlsym(RTLD_NEXT, sym);
}

int EVP_CipherInit_ex2(EVP_CIPHER_CTX *ctx, const EVP_CIPHER *cipher,
		       const unsigned char *key, const unsigned char *iv,
		       int enc, const OSSL_PARAM params[])
{
	int (*f)(EVP_CIPHER_CTX *, const EVP_CIPHER *, const unsigned char *,
		 const unsigned char *, int, const OSSL_PARAM[]) =
		(int (*)(EVP_CIPHER_CTX *, const EVP_CIPHER *,
			 const unsigned char *, const unsigned char *, int,
			 const OSSL_PARAM[]))real("EVP_CipherInit_ex2");

	if (calls.on && key && iv)
		calls.key_and_iv++;
	else if (calls.on && iv)
		calls.iv_only++;
	return f(ctx, cipher, key, iv, enc, params);
}

/* Count one update of in to out. */
static void count_update(const unsigned char *out, const unsigned char *in)
{
	if (!calls.on || !out)
		return;
	calls.updates++;
	calls.apart += out != in;
}

int EVP_EncryptUpdate(EVP_CIPHER_CTX *ctx, unsigned char *out, int *outl,
		      const unsigned char *in, int inl)
{
	int (*f)(EVP_CIPHER_CTX *, unsigned char *, int *,
		 const unsigned char *, int) =
		(int (*)(EVP_CIPHER_CTX *, unsigned char *, int *,
			 const unsigned char *, int))real("EVP_EncryptUpdate");

	count_update(out, in);
	return f(ctx, out, outl, in, inl);
}

int EVP_DecryptUpdate(EVP_CIPHER_CTX *ctx, unsigned char *out, int *outl,
		      const unsigned char *in, int inl)
{
	int (*f)(EVP_CIPHER_CTX *, unsigned char *, int *,
		 const unsigned char *, int) =
		(int (*)(EVP_CIPHER_CTX *, unsigned char *, int *,
			 const unsigned char *, int))real("EVP_DecryptUpdate");

	count_update(out, in);
	return f(ctx, out, outl, in, inl);
}

int EVP_CipherFinal_ex(EVP_CIPHER_CTX *ctx, unsigned char *out, int *outl)
{
	int (*f)(EVP_CIPHER_CTX *, unsigned char *, int *) =
		(int (*)(EVP_CIPHER_CTX *, unsigned char *, int *))real(
			"EVP_CipherFinal_ex");

	calls.finals += calls.on;
	return f(ctx, out, outl);
}

int EVP_CIPHER_CTX_ctrl(EVP_CIPHER_CTX *ctx, int type, int arg, void *ptr)
{
	int (*f)(EVP_CIPHER_CTX *, int, int, void *) = (int (*)(
		EVP_CIPHER_CTX *, int, int, void *))real("EVP_CIPHER_CTX_ctrl");

	calls.tags += calls.on && type == EVP_CTRL_AEAD_GET_TAG;
	calls.ivlens += calls.on && type == EVP_CTRL_AEAD_SET_IVLEN;
	return f(ctx, type, arg, ptr);
}

/* Most keys of one preset job. */
#define MAX_KEYS 16

/*
 * The preset's keys for the OpenSSL job [job]: its own lines, after the
 * [global] ones, as "key=value" texts ending with NULL. size is left to
 * the caller (the preset's is a list). Returns how many, -1 without job.
 */
static int preset_job(const char *job, char keys[MAX_KEYS][200],
		      const char *params[MAX_KEYS + 2])
{
	FILE *f = fopen(HB_OPENSSL_SPEED_PRESET, "r");
	char line[256], section[64] = "", k[64], v[128];
	int n = 0, openssl = 0, found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && n < MAX_KEYS) {
		if (sscanf(line, " [%63[^]]]", section) == 1) {
			openssl = 0;
			continue;
		}
		if (sscanf(line, " %63[a-z_] = %127[^\n]", k, v) != 2)
			continue;
		if (strcmp(section, job) == 0 && strcmp(k, "backend") == 0) {
			openssl = strcmp(v, "openssl") == 0;
			found |= openssl;
		}
		/* the keys the target reads, of [global] and the job */
		if (strcmp(k, "mode") != 0 && strcmp(k, "rekey") != 0 &&
		    strcmp(k, "direction") != 0)
			continue;
		if (strcmp(section, "global") == 0 ||
		    (strcmp(section, job) == 0 && openssl))
			snprintf(keys[n], sizeof(keys[n]), "%s=%s", k, v);
		else
			continue;
		params[n] = keys[n];
		n++;
	}
	fclose(f);
	params[n] = NULL;
	return found ? n : -1;
}

/*
 * Set up target fullname as the preset's job [job] with extra keys (NULL
 * or a list ending with NULL), count the calls of one run() of blocks
 * buffers into calls, and return its rc; done receives the work done.
 */
static int run_counted(const char *job, const char *fullname,
		       const char *const *extra, uint64_t blocks,
		       struct hb_done *done)
{
	const struct hb_plugin *p = hostbench_plugin_entry();
	const struct hb_target *t = fh_target(p, fullname);
	char keys[MAX_KEYS][200], err[512] = "";
	const char *params[MAX_KEYS + 8];
	static struct fh_case fc;
	void *state = NULL;
	int n = preset_job(job, keys, params), rc;

	if (!t || n < 0) {
		fprintf(stderr, "no target %s or no OpenSSL job [%s] in %s\n",
			fullname, job, HB_OPENSSL_SPEED_PRESET);
		return -100;
	}
	while (extra && *extra && n < MAX_KEYS + 6)
		params[n++] = *extra++;
	params[n] = NULL;
	fh_case_init(&fc, t, params);
	rc = p->setup(&fc.c, &state, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "setup: %s\n", err);
		return rc;
	}
	memset(&calls, 0, sizeof(calls));
	memset(done, 0, sizeof(*done));
	calls.on = 1;
	rc = p->run(state, blocks, done, err, sizeof(err));
	calls.on = 0;
	p->teardown(state);
	if (rc)
		fprintf(stderr, "run: %s\n", err);
	return rc;
}

/*
 * An AEAD job of the preset: per block a key and IV, one update from the
 * core's input into the core's buffer (ABI 1.4; openssl speed updates in
 * place, the same bytes touched) and a final (which computes the tag), the tag
 * never read out.
 */
static int aead_job(const char *job, const char *fullname, const char *size)
{
	const char *const extra[] = { size, NULL };
	struct hb_done done;

	CHECK_INT(run_counted(job, fullname, extra, 1000, &done), 0);
	CHECK_INT((int)done.ops, 1000);
	CHECK_INT((int)calls.ivlens, 1000);
	CHECK_INT((int)calls.key_and_iv, 1000);
	CHECK_INT((int)calls.iv_only, 0);
	CHECK_INT((int)calls.updates, 1000);
	CHECK_INT((int)calls.apart, 1000);
	CHECK_INT((int)calls.finals, 1000);
	CHECK_INT((int)calls.tags, 0);
	CHECK_INT((int)calls.seams, 0);
	if (LIBC_JUDGED)
		CHECK_INT((int)calls.libc, 0);
	return 0;
}

static int preset_aes_256_gcm_keys_and_finishes_every_block(void)
{
	return aead_job("aes-256-gcm", "crypto/aes-256-gcm", "size=16");
}

static int preset_aes_128_gcm_keys_and_finishes_every_block(void)
{
	return aead_job("aes-128-gcm", "crypto/aes-128-gcm", "size=16384");
}

/* A stream job of the preset: one update per block into one buffer. */
static int stream_job(const char *job, const char *fullname)
{
	const char *const extra[] = { "size=64", NULL };
	struct hb_done done;

	CHECK_INT(run_counted(job, fullname, extra, 1000, &done), 0);
	CHECK_INT((int)done.ops, 1000);
	CHECK_INT((int)done.bytes, 64000);
	CHECK_INT((int)calls.updates, 1000);
	CHECK_INT((int)calls.apart, 1000);
	CHECK_INT((int)(calls.key_and_iv + calls.iv_only), 0);
	CHECK_INT((int)calls.finals, 0);
	CHECK_INT((int)calls.tags, 0);
	CHECK_INT((int)calls.seams, 0);
	if (LIBC_JUDGED)
		CHECK_INT((int)calls.libc, 0);
	return 0;
}

static int preset_aes_256_ctr_updates_one_stream_into_one_buffer(void)
{
	return stream_job("aes-256-ctr", "crypto/aes-256-ctr");
}

static int preset_aes_256_cbc_updates_one_stream_into_one_buffer(void)
{
	return stream_job("aes-256-cbc", "crypto/aes-256-cbc");
}

static int preset_chacha20_poly1305_updates_one_stream_into_one_buffer(void)
{
	return stream_job("chacha20-poly1305", "crypto/chacha20-poly1305");
}

/* Without rekey a message keeps its key, and its tag is read out. */
static int message_mode_without_rekey_keeps_the_key(void)
{
	const char *const extra[] = { "size=16", "rekey=no", NULL };
	struct hb_done done;

	CHECK_INT(run_counted("aes-256-gcm", "crypto/aes-256-gcm", extra, 500,
			      &done),
		  0);
	CHECK_INT((int)calls.key_and_iv, 0);
	CHECK_INT((int)calls.iv_only, 500);
	CHECK_INT((int)calls.finals, 500);
	CHECK_INT((int)calls.tags, 500);
	CHECK_INT((int)calls.seams, 0);
	return 0;
}

/* A decrypting AEAD job sets the key and checks a tag on every block. */
static int rekey_decrypt_checks_every_tag(void)
{
	const char *const extra[] = { "size=64", "direction=decrypt", NULL };
	struct hb_done done;

	CHECK_INT(run_counted("aes-256-gcm", "crypto/aes-256-gcm", extra, 300,
			      &done),
		  0);
	CHECK_INT((int)calls.key_and_iv, 300);
	CHECK_INT((int)calls.finals, 300);
	CHECK_INT((int)calls.tags, 0);
	CHECK_INT((int)calls.seams, 0);
	return 0;
}

/* rekey in stream mode is refused before anything runs. */
static int rekey_in_stream_mode_is_refused(void)
{
	const struct hb_plugin *p = hostbench_plugin_entry();
	const struct hb_target *t = fh_target(p, "crypto/aes-256-gcm");
	static const char *const over[] = { "mode=stream", "rekey=yes", NULL };
	static struct fh_case fc;
	char err[512] = "";

	fh_case_init(&fc, t, over);
	CHECK_INT(p->validate(&fc.c, err, sizeof(err)), HB_EINVAL);
	CHECK_CONTAINS(err, "rekey = yes sets a key per message");
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"preset_aes_256_gcm_keys_and_finishes_every_block", preset_aes_256_gcm_keys_and_finishes_every_block},
	{"preset_aes_128_gcm_keys_and_finishes_every_block", preset_aes_128_gcm_keys_and_finishes_every_block},
	{"preset_aes_256_ctr_updates_one_stream_into_one_buffer", preset_aes_256_ctr_updates_one_stream_into_one_buffer},
	{"preset_aes_256_cbc_updates_one_stream_into_one_buffer", preset_aes_256_cbc_updates_one_stream_into_one_buffer},
	{"preset_chacha20_poly1305_updates_one_stream_into_one_buffer", preset_chacha20_poly1305_updates_one_stream_into_one_buffer},
	{"message_mode_without_rekey_keeps_the_key", message_mode_without_rekey_keeps_the_key},
	{"rekey_decrypt_checks_every_tag", rekey_decrypt_checks_every_tag},
	{"rekey_in_stream_mode_is_refused", rekey_in_stream_mode_is_refused},
};
/* clang-format on */

TEST_MAIN(tests)
