/* SPDX-License-Identifier: Apache-2.0 */
/*
 * intel-ipsec-mb jobs: one engine message becomes one library job (cipher
 * and MAC chained in it), submitted to the manager's lanes; the manager
 * hands jobs back, in submission order, once enough lanes are full to
 * process them, or when flushed.
 *
 * A message the library cannot do in one job is done in stages, each a
 * job: its MAC (decrypt: first), then the cipher in pieces, then its MAC
 * (encrypt: last). Two cases need it in 1.3: CBC encrypt takes at most
 * 65520 bytes per job (pieces chain through the IV: the last ciphertext
 * block), and CTR carries only the low 32 bits of the counter block (a
 * piece ends where they wrap; the next starts from the counter carried
 * in all 128 bits, as OpenSSL and libgcrypt count).
 */
#include <string.h>

#include "ipmb.h"

/* Where a message is: one whole job, or which stage of the split. */
enum ipmb_stage {
	IPMB_WHOLE,	/* cipher and MAC chained in one job */
	IPMB_MAC_FIRST, /* decrypt: the MAC over the received message */
	IPMB_CIPHER,	/* a piece of the cipher at j->off */
	IPMB_MAC_LAST,	/* encrypt: the MAC over the ciphertext */
};

/* The low 32 bits of a big-endian counter block. */
static uint32_t ctr_low32(const uint8_t *ctr)
{
	return (uint32_t)ctr[12] << 24 | (uint32_t)ctr[13] << 16 |
	       (uint32_t)ctr[14] << 8 | ctr[15];
}

/* Add blocks to a 128-bit big-endian counter block, carrying through. */
static void ctr_add(uint8_t *ctr, uint64_t blocks)
{
	for (int i = 15; i >= 0 && blocks; i--) {
		blocks += ctr[i];
		ctr[i] = (uint8_t)blocks;
		blocks >>= 8;
	}
}

/* Bytes of the cipher piece at j->off (IPMB_CIPHER). */
static size_t piece_len(const struct ipmb_queue *q, const struct cx_job *j)
{
	size_t left = j->len - j->off;
	uint64_t room;

	if (q->cipher == IMB_CIPHER_CBC)
		return left < IPMB_CBC_MAX ? left : IPMB_CBC_MAX;
	/* CTR: up to where the low 32 bits of the counter wrap */
	room = ((UINT64_C(1) << 32) - ctr_low32(j->scratch)) * 16;
	return left < room ? left : (size_t)room;
}

/* Whether message j needs stages: more than one job can do at once. */
static int needs_split(const struct ipmb_queue *q, const struct cx_job *j)
{
	uint64_t blocks = (j->len + 15) / 16;

	if (q->cipher == IMB_CIPHER_CBC)
		return q->dir == IMB_DIR_ENCRYPT && j->len > IPMB_CBC_MAX;
	if (q->cipher == IMB_CIPHER_CNTR)
		return ctr_low32(j->iv) + blocks > (UINT64_C(1) << 32);
	return 0;
}

/* The cipher half of ij: n bytes of j at off, from iv. */
static void fill_cipher(const struct ipmb_queue *q, IMB_JOB *ij,
			const struct cx_job *j, size_t off, size_t n,
			const uint8_t *iv)
{
	ij->cipher_mode = q->cipher;
	ij->cipher_direction = q->dir;
	ij->key_len_in_bytes = q->ci->key_len;
	ij->src = j->src + off;
	ij->dst = j->dst + off;
	ij->msg_len_to_cipher_in_bytes = n;
	ij->iv = iv;
	ij->iv_len_in_bytes = q->ci->iv_len;
	if (q->cipher == IMB_CIPHER_GCM) {
		ij->enc_keys = ij->dec_keys = &q->gcm;
	} else if (q->cipher == IMB_CIPHER_CHACHA20_POLY1305) {
		ij->enc_keys = ij->dec_keys = q->key;
	} else {
		ij->enc_keys = q->enc;
		ij->dec_keys = q->dec;
	}
}

/* The MAC half of ij (an AEAD's tag included): over j's len bytes. */
static void fill_mac(const struct ipmb_queue *q, IMB_JOB *ij, struct cx_job *j,
		     const uint8_t *src)
{
	ij->hash_alg = q->hash;
	ij->src = src;
	ij->msg_len_to_hash_in_bytes = j->len;
	ij->auth_tag_output = j->mac;
	ij->auth_tag_output_len_in_bytes = q->hi ? q->hi->out_len : 16;
	switch (q->hash) {
	case IMB_AUTH_AES_GMAC:
		ij->u.GCM.aad = j->aad;
		ij->u.GCM.aad_len_in_bytes = j->aad_len;
		ij->auth_tag_output = j->tag;
		break;
	case IMB_AUTH_CHACHA20_POLY1305:
		ij->u.CHACHA20_POLY1305.aad = j->aad;
		ij->u.CHACHA20_POLY1305.aad_len_in_bytes = j->aad_len;
		ij->auth_tag_output = j->tag;
		break;
	case IMB_AUTH_POLY1305:
		ij->u.POLY1305._key = j->mac_key ? j->mac_key : q->mac_key;
		break;
	case IMB_AUTH_MD5:
	case IMB_AUTH_HMAC_SHA_1:
	case IMB_AUTH_HMAC_SHA_256:
		ij->u.HMAC._hashed_auth_key_xor_ipad = q->ipad;
		ij->u.HMAC._hashed_auth_key_xor_opad = q->opad;
		break;
	default: /* plain SHA: nothing more */
		break;
	}
}

/* Fill ij with message j's current stage. */
static void fill_stage(const struct ipmb_queue *q, IMB_JOB *ij,
		       struct cx_job *j)
{
	memset(ij, 0, sizeof(*ij));
	ij->cipher_mode = IMB_CIPHER_NULL;
	ij->hash_alg = IMB_AUTH_NULL;
	ij->chain_order = q->dir == IMB_DIR_ENCRYPT ? IMB_ORDER_CIPHER_HASH
						    : IMB_ORDER_HASH_CIPHER;
	ij->src = j->src;
	switch (j->stage) {
	case IPMB_WHOLE:
		if (q->ci)
			fill_cipher(q, ij, j, 0, j->len, j->iv);
		if (q->hash != IMB_AUTH_NULL)
			fill_mac(q, ij, j, j->src);
		break;
	case IPMB_MAC_FIRST:
		fill_mac(q, ij, j, j->src);
		break;
	case IPMB_MAC_LAST:
		fill_mac(q, ij, j, j->dst);
		break;
	default: /* IPMB_CIPHER: CBC chains from the last block done */
		if (!q->ci) /* a cipher's stage: never without one */
			break;
		fill_cipher(q, ij, j, j->off, piece_len(q, j),
			    q->cipher == IMB_CIPHER_CBC && j->off
				    ? j->dst + j->off - 16
			    : q->cipher == IMB_CIPHER_CBC ? j->iv
							  : j->scratch);
		break;
	}
	ij->user_data = j;
	ij->user_data2 = (void *)q;
}

/* After a stage of j finished: move on; 0 when the message is done. */
static int advance(const struct ipmb_queue *q, struct cx_job *j)
{
	size_t n;

	switch (j->stage) {
	case IPMB_MAC_FIRST:
		j->stage = IPMB_CIPHER;
		return 1;
	case IPMB_CIPHER:
		n = piece_len(q, j);
		j->off += n;
		ctr_add(j->scratch, n / 16);
		if (j->off < j->len)
			return 1;
		if (q->dir == IMB_DIR_DECRYPT || q->hash == IMB_AUTH_NULL)
			return 0;
		j->stage = IPMB_MAC_LAST;
		return 1;
	default:
		return 0;
	}
}

/* Message j is finished: queue it for job_reap. */
static void finish(struct ipmb_queue *q, struct cx_job *j)
{
	j->next = NULL;
	if (q->done_tail)
		q->done_tail->next = j;
	else
		q->done = j;
	q->done_tail = j;
	q->inflight--;
}

/* The library's words for a job status. */
static const char *status_text(IMB_STATUS st)
{
	switch (st) {
	case IMB_STATUS_INVALID_ARGS:
		return "the library refused the job (invalid arguments)";
	case IMB_STATUS_INTERNAL_ERROR:
		return "internal error in the library";
	default:
		return "the job did not complete";
	}
}

/* Take every job the manager hands back, starting with ij. */
static void collect(IMB_MGR *mgr, IMB_JOB *ij)
{
	for (; ij; ij = IMB_GET_COMPLETED_JOB(mgr)) {
		struct cx_job *j = ij->user_data;
		struct ipmb_queue *owner = ij->user_data2;

		if (ij->status != IMB_STATUS_COMPLETED) {
			j->status = HB_ECRYPTO;
			if (!j->why)
				j->why = status_text(ij->status);
			finish(owner, j);
		} else if (advance(owner, j)) {
			j->next = owner->pending;
			owner->pending = j;
		} else {
			finish(owner, j);
		}
	}
}

/* Submit j's current stage, then every stage that became ready. */
static void submit_stages(struct ipmb_queue *q, struct cx_job *j)
{
	while (j) {
		IMB_JOB *ij = IMB_GET_NEXT_JOB(q->mgr);
		int e;

		fill_stage(q, ij, j);
		ij = IMB_SUBMIT_JOB(q->mgr);
		e = imb_get_errno(q->mgr);
		if (e && !j->why)
			j->why = imb_get_strerror(e);
		collect(q->mgr, ij);
		j = q->pending;
		if (j)
			q->pending = j->next;
	}
}

int ipmb_job_submit(void *queue, struct cx_job *j, char *err, size_t errlen)
{
	struct ipmb_queue *q = queue;

	(void)err;
	(void)errlen;
	j->status = 0;
	j->why = NULL;
	j->off = 0;
	j->stage = IPMB_WHOLE;
	/* one job has one src: a composite out of place MACs its dst after */
	if (needs_split(q, j) ||
	    (q->ci && q->hi && q->dir == IMB_DIR_ENCRYPT && j->src != j->dst)) {
		j->stage = q->dir == IMB_DIR_DECRYPT && q->hi ? IPMB_MAC_FIRST
							      : IPMB_CIPHER;
		memcpy(j->scratch, j->iv, 16);
	}
	q->inflight++;
	submit_stages(q, j);
	return 0;
}

struct cx_job *ipmb_job_reap(void *queue, int flush)
{
	struct ipmb_queue *q = queue;
	struct cx_job *j;

	while (!q->done && flush && q->inflight) {
		IMB_JOB *ij = IMB_FLUSH_JOB(q->mgr);

		if (!ij)
			break; /* the manager holds none: nothing to wait for */
		collect(q->mgr, ij);
		j = q->pending;
		if (j) {
			q->pending = j->next;
			submit_stages(q, j);
		}
	}
	j = q->done;
	if (j) {
		q->done = j->next;
		if (!q->done)
			q->done_tail = NULL;
	}
	return j;
}
