/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Conformance of a backend against a reference (`hostbench check`),
 * through the public ABI only: each plugin's transform slot is handed the
 * same messages, and their outputs must agree. It runs in a helper with
 * both plugins loaded (descriptors 3 and 5), never in the core.
 */
#ifndef HB_CORE_CONFORM_CONFORM_H
#define HB_CORE_CONFORM_CONFORM_H

/* Largest message a check sends: 1 MiB + 17 bytes. */
#define CONFORM_MAX_LEN ((size_t)(1 << 20) + 17)

/*
 * Task "check": the request is {"reference": PATH, "subject": PATH,
 * "targets": ["group/name", ...]}. Answers {"rows": [{"target": ...,
 * "check": ..., "ok": bool, "detail": ...}, ...]}, or {"refused": why}
 * when a plugin cannot be loaded. The checks: "sizes" (1 byte to 1 MiB +
 * 17, odd ones included: outputs, tags, MACs and digests equal),
 * "decrypt" (each decrypts the other's ciphertext), "counter" (a CTR
 * counter carried across a 2^32-block boundary), "tag" (a corrupted tag
 * or MAC refused), "repeat" (the same message twice gives the same
 * bytes, so no state leaks between calls), the timed rows "run",
 * "submit" and "stream" (conform/conform_timed.h: the subject's timed
 * path read from the core's buffers) and "async" (the subject's messages
 * in flight at depth 1 and 16, conform/conform_async.h). A row may carry
 * "skipped": true (with why), "unverifiable": true (with what to add),
 * or a "note" its verdict shows ("sizes >= 65537 B not offered").
 */
int conform_task(const char *request, int answer_fd);

#endif
