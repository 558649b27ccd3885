/*
 * The crypto engine: setup, run and teardown for every shared crypto
 * target, written once over a small table of library primitives that each
 * backend fills. The engine owns buffers, message numbering, directions,
 * modes, composites and known-answer checks; a backend only maps cx_alg
 * onto its library's calls.
 *
 * Every backend function returns 0 or a negative HB_E* code with a
 * one-line reason in err (the library's own words where it has them).
 */
#ifndef HB_CRYPTO_ENGINE_H
#define HB_CRYPTO_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include <hostbench/plugin.h>

#include "cx.h"

/* The primitives a backend provides. Handles are the backend's own. */
struct cx_ops {
	/*
	 * Prepare the library for one worker of case c (load providers,
	 * read backend options). c is never NULL. HB_SKIP when the library
	 * cannot do this case here.
	 */
	int (*lib_open)(const struct hb_case *c, void **lib, char *err,
			size_t errlen);
	void (*lib_close)(void *lib);

	/*
	 * A cipher or AEAD handle for alg and direction with key (the alg's
	 * key length). c, when not NULL, receives notes about who does the
	 * work ("provider", "library").
	 */
	int (*cipher_open)(void *lib, const struct hb_case *c, enum cx_alg alg,
			   int encrypt, const uint8_t *key, void **h, char *err,
			   size_t errlen);
	/* Start a new message with iv (the alg's IV length). */
	int (*cipher_start)(void *h, const uint8_t *iv, char *err,
			    size_t errlen);
	/* Authenticate aad (AEAD only), after start and before any data. */
	int (*cipher_aad)(void *h, const uint8_t *aad, size_t len, char *err,
			  size_t errlen);
	/* Encrypt or decrypt len bytes; in == out works in place. */
	int (*cipher_update)(void *h, const uint8_t *in, uint8_t *out,
			     size_t len, char *err, size_t errlen);
	/*
	 * End the message. AEAD encrypt writes the tag; AEAD decrypt checks
	 * it and returns HB_EVERIFY on a mismatch. Other ciphers ignore tag.
	 */
	int (*cipher_finish)(void *h, uint8_t *tag, char *err, size_t errlen);
	void (*cipher_close)(void *h);

	/* A MAC or digest handle; notes as for cipher_open. */
	int (*hash_open)(void *lib, const struct hb_case *c, enum cx_alg alg,
			 void **h, char *err, size_t errlen);
	/*
	 * Start a new message. MACs: key sets a new key; NULL keeps the
	 * previous one (HMAC's precomputed pads). Digests: key is NULL.
	 */
	int (*hash_start)(void *h, const uint8_t *key, size_t key_len,
			  char *err, size_t errlen);
	int (*hash_update)(void *h, const uint8_t *in, size_t len, char *err,
			   size_t errlen);
	/* Write the MAC or digest (the alg's out_len bytes). */
	int (*hash_finish)(void *h, uint8_t *out, char *err, size_t errlen);
	void (*hash_close)(void *h);
};

/*
 * The plugin's validate() (ABI 1.1): a size the cipher cannot take (CBC
 * without padding) is refused before the suite runs.
 */
int cx_validate(const struct hb_case *c, char *err, size_t errlen);

/*
 * Prepare one worker of case c with backend ops: read size, mode and
 * direction, check every primitive against its known-answer vector on the
 * same path it will time, allocate and touch the buffers, and prepare valid
 * ciphertexts and tags for decrypt. Returns 0, HB_SKIP, HB_EINVAL (a size
 * the mode cannot take), HB_EVERIFY (wrong known answer) or another code,
 * with err filled.
 */
int cx_setup(const struct cx_ops *ops, const struct hb_case *c, void **state,
	     char *err, size_t errlen);

/* Process iterations buffers of `size` bytes: the plugin's run(). */
int cx_run(void *state, uint64_t iterations, struct hb_done *done, char *err,
	   size_t errlen);

/* Free what cx_setup made: the plugin's teardown(). */
void cx_teardown(void *state);

/*
 * Check alg against its published vector through ops on lib, in the given
 * direction (ignored for MACs and digests). Returns 0, HB_EVERIFY with a
 * reason naming the vector, or the backend's error.
 */
int cx_kat_check(const struct cx_ops *ops, void *lib, enum cx_alg alg,
		 int encrypt, char *err, size_t errlen);

#endif
