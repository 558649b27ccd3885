/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the reader of results (isolated children, journals, resume,
 * compare): any text that parses as JSON, read as a result. Must never
 * crash or leak.
 */
#include <stdint.h>
#include <string.h>

#include "result/result_json.h"

static const char *const parts[] = { "crypto/aes-256-cbc", "mac/hmac-md5",
				     NULL };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *o = json_loadb((const char *)data, size, 0, NULL);
	struct result r;
	char err[256];

	if (!o)
		return 0;
	memset(&r, 0, sizeof(r));
	result_json_get(o, parts, &r, err, sizeof(err));
	result_free(&r);
	json_decref(o);
	return 0;
}
