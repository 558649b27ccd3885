/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A run's whole report as the store keeps it: since schema 4, its compact
 * JSON text compressed (xz: LZMA2, liblzma) in run.report_z, an eighth of
 * its text (docs/history.md, "A year of a lab"); an older row keeps the
 * text in run.report, and is read as it is.
 */
#include "store/store_int.h"

#include <errno.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/*
 * LZMA2 at preset 6 with a hash-chain match finder that stops at 16
 * bytes and a 256 KiB window: within 4% of preset 6's size on reports, at
 * a quarter of its CPU time (docs/history.md, "A year of a lab").
 */
static int filters_of(lzma_options_lzma *opt, lzma_filter f[2])
{
	if (lzma_lzma_preset(opt, 6))
		return -EINVAL;
	opt->mf = LZMA_MF_HC4;
	opt->nice_len = 16;
	opt->dict_size = 1u << 18;
	f[0] = (lzma_filter){ .id = LZMA_FILTER_LZMA2, .options = opt };
	f[1] = (lzma_filter){ .id = LZMA_VLI_UNKNOWN, .options = NULL };
	return 0;
}

int store_report_pack(const char *text, size_t len, unsigned char **out,
		      size_t *outlen, char *err, size_t errlen)
{
	size_t cap = lzma_stream_buffer_bound(len);
	lzma_options_lzma opt;
	lzma_filter f[2];

	*outlen = 0;
	*out = malloc(cap);
	if (!*out || filters_of(&opt, f) ||
	    lzma_stream_buffer_encode(f, LZMA_CHECK_CRC32, NULL,
				      (const uint8_t *)text, len, *out, outlen,
				      cap) != LZMA_OK) {
		free(*out);
		*out = NULL;
		return hb_errorf(err, errlen, -ENOMEM,
				 "compressing a report: out of memory");
	}
	return 0;
}

/* What the read of one run's report gives back. */
struct kept {
	char *text; /* malloc'd, NUL-terminated */
	size_t len;
	int rc; /* of the decompression */
	int found;
};

/* z's output grown to twice its size (or a first 64 KiB). */
static int grow(lzma_stream *z, struct kept *k, size_t *cap)
{
	size_t want = *cap ? *cap * 2 : 65536;
	char *p = realloc(k->text, want + 1);

	if (!p)
		return -ENOMEM;
	k->text = p;
	z->next_out = (uint8_t *)p + *cap;
	z->avail_out = want - *cap;
	*cap = want;
	return 0;
}

/* The n bytes at data (an xz stream) decompressed into k->text. */
static int unpack_into(struct kept *k, const void *data, size_t n)
{
	lzma_stream z = LZMA_STREAM_INIT;
	lzma_ret ret = lzma_stream_decoder(&z, UINT64_MAX, 0);
	size_t cap = 0;
	int rc = 0;

	if (ret != LZMA_OK)
		return -ENOMEM;
	z.next_in = data;
	z.avail_in = n;
	while (ret == LZMA_OK && !rc) {
		if (!z.avail_out)
			rc = grow(&z, k, &cap);
		if (!rc)
			ret = lzma_code(&z, LZMA_FINISH);
	}
	k->len = (size_t)z.total_out;
	lzma_end(&z);
	if (!rc && ret != LZMA_STREAM_END)
		rc = ret == LZMA_MEM_ERROR ? -ENOMEM : -EPROTO;
	if (!rc)
		k->text[k->len] = '\0';
	return rc;
}

/* A run's row: report (text), report_z (compressed, or NULL). */
static int kept_row(void *arg, const struct store_val *v, size_t n)
{
	struct kept *k = arg;

	k->found = 1;
	if (n == 2 && v[1].type == STORE_BLOB)
		k->rc = unpack_into(k, v[1].s, v[1].n);
	else if (n == 2 && v[0].type == STORE_TEXT) {
		k->len = strlen(v[0].s);
		k->text = strdup(v[0].s);
		k->rc = k->text ? 0 : -ENOMEM;
	} else {
		k->rc = -EPROTO; /* neither: nothing to read */
	}
	return 0;
}

int store_report(struct store *st, const char *uuid, char **text, size_t *len,
		 char *err, size_t errlen)
{
	struct kept k = { 0 };
	int rc = store_query(st,
			     "SELECT report, report_z FROM run WHERE "
			     "uuid = ?",
			     (struct store_val[]){ store_text(uuid) }, 1,
			     kept_row, &k, err, errlen);

	if (!rc && !k.found)
		rc = hb_errorf(err, errlen, -ENOENT, "%s: no run %s stored",
			       store_where(st), uuid);
	else if (!rc && k.rc)
		rc = hb_errorf(err, errlen, k.rc,
			       "%s: run %s: its kept report %s",
			       store_where(st), uuid,
			       k.rc == -ENOMEM ? "does not fit in memory"
					       : "is damaged");
	if (rc) {
		free(k.text);
		return rc;
	}
	*text = k.text;
	*len = k.len;
	return 0;
}
