/* SPDX-License-Identifier: Apache-2.0 */
/* The shipped behaviour at each point of the test seam (seam.h). */
#include "seam.h"

#define SEAM __attribute__((weak))

SEAM void cx_seam_known_answer(uint8_t *want, size_t len)
{
	(void)want;
	(void)len;
}

SEAM int cx_seam_received(uint8_t *msg, size_t len)
{
	(void)msg;
	(void)len;
	return 0;
}

SEAM uint64_t cx_seam_received_iv(unsigned index)
{
	(void)index;
	return 0;
}

SEAM int cx_seam_checks_tags(void)
{
	return 1;
}

SEAM size_t cx_seam_ctr_split(const uint8_t *iv, size_t len, uint8_t *next_iv)
{
	(void)iv;
	(void)next_iv;
	return len;
}

SEAM size_t cx_seam_timed_len(size_t len)
{
	return len;
}

SEAM void cx_seam_timed_key(uint8_t *key, size_t len)
{
	(void)key;
	(void)len;
}

SEAM uint64_t cx_seam_data_seed(uint64_t seed)
{
	return seed;
}

SEAM cx_tag_tamper *cx_seam_timed_tag(void)
{
	return NULL;
}

SEAM cx_tag_tamper *cx_seam_timed_out(int stream, int encrypt)
{
	(void)stream;
	(void)encrypt;
	return NULL;
}

SEAM cx_tag_tamper *cx_seam_timed_submit(void)
{
	return NULL;
}

SEAM cx_tag_map *cx_seam_timed_completion(void)
{
	return NULL;
}

SEAM const struct hb_plugin *cx_seam_plugin(const struct hb_plugin *p)
{
	return p;
}
