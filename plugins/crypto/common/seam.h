/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The test seam of the crypto backends: the few points where a test, or
 * a deliberately broken backend built for the tests of `hostbench check`,
 * changes what the shipped code does. seam.c defines each as a weak
 * symbol with the shipped behaviour; a test or fixture links an object
 * that defines it again (tests/fixtures/crypto/). Shipped plugins never
 * define them, so they always run seam.c's.
 */
#ifndef HB_CRYPTO_SEAM_H
#define HB_CRYPTO_SEAM_H

#include <stddef.h>
#include <stdint.h>

#include <hostbench/plugin.h>

/*
 * A known answer's expected bytes (want, len of them), as loaded: shipped,
 * unchanged. A test makes them wrong to prove a wrong answer fails setup.
 */
void cx_seam_known_answer(uint8_t *want, size_t len);

/*
 * A received message or signature (len bytes), after its tag, MAC or
 * check was made and before the timed run checks it again: shipped,
 * unchanged (returns 0). A test damages it (returns 1) to prove a
 * damaged one fails the run.
 */
int cx_seam_received(uint8_t *msg, size_t len);

/*
 * The IV number of the received message a decrypt slot (index, in the
 * order made) takes: shipped, 0, the one setup prepared.
 */
uint64_t cx_seam_received_iv(unsigned index);

/* Whether a decrypt checks the tag or MAC it is given: shipped, 1. */
int cx_seam_checks_tags(void);

/*
 * Bytes of a CTR message of len bytes from counter block iv before the
 * counter goes on from next_iv: shipped, len (the library carries the
 * whole counter, next_iv untouched).
 */
size_t cx_seam_ctr_split(const uint8_t *iv, size_t len, uint8_t *next_iv);

/*
 * The timed path's own points, for the deliberately broken backends that
 * test the timed rows of `hostbench check`. Each applies only to what a
 * worker times (run, submit, poll), never to known answers or transform,
 * and each is consulted once, at setup, never inside the timed loop: a
 * call per message would be a share of a 16-byte message's cost.
 */
/* Bytes one timed message processes, of len: shipped, len. */
size_t cx_seam_timed_len(size_t len);
/* The worker's cipher and MAC key as filled (len bytes): unchanged. */
void cx_seam_timed_key(uint8_t *key, size_t len);
/* The seed a worker's data buffer is filled with: shipped, seed. */
uint64_t cx_seam_data_seed(uint64_t seed);

/* What a timed message's tag, MAC or digest (len bytes) goes through. */
typedef void cx_tag_tamper(uint8_t *tag, size_t len);

/*
 * The function a timed message's tag, MAC or digest goes through once
 * made: shipped, NULL (none, the loop makes no call).
 */
cx_tag_tamper *cx_seam_timed_tag(void);

/*
 * The function a timed unit's output (len bytes, in the core's buffer)
 * goes through once made, in stream mode or not and in a direction:
 * shipped, NULL (none, the loop makes no call).
 */
cx_tag_tamper *cx_seam_timed_out(int stream, int encrypt);

/*
 * The function a submit on the job path calls on the output (len bytes)
 * of the unit poll handed back before the last one: shipped, NULL (none,
 * the loop makes no call).
 */
cx_tag_tamper *cx_seam_timed_submit(void);

/* The tag a completion carries, from the tag its unit was submitted with. */
typedef uint64_t cx_tag_map(uint64_t tag);

/*
 * The function a completion's tag goes through on the job path: shipped,
 * NULL (none, the loop makes no call).
 */
cx_tag_map *cx_seam_timed_completion(void);

/* The plugin table a backend's entry point returns: shipped, p. */
const struct hb_plugin *cx_seam_plugin(const struct hb_plugin *p);

#endif
