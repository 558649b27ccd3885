/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the suite parser: any text, read as a suite against a registry that
 * offers one target of every option type. Must never crash, leak or hang;
 * a suite it accepts must expand into at least one case.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "suite/suite.h"

static const char *const modes[] = { "message", "stream", NULL };
static const char *const parts[] = { "fuzz/all", NULL };

static const struct hb_option all_options[] = {
	{ .name = "size",
	  .type = HB_OPT_SIZE,
	  .def = "1M",
	  .min = 1,
	  .max = INT64_C(1) << 40 },
	{ .name = "sizes", .type = HB_OPT_SIZE_LIST, .def = "16, 64" },
	{ .name = "count",
	  .type = HB_OPT_INT,
	  .def = "3",
	  .min = 0,
	  .max = 100 },
	{ .name = "direct", .type = HB_OPT_BOOL, .def = "false" },
	{ .name = "dir", .type = HB_OPT_STRING, .def = "/tmp" },
	{ .name = "mode",
	  .type = HB_OPT_ENUM,
	  .def = "message",
	  .choices = modes },
	{ .name = "wait", .type = HB_OPT_DURATION, .def = "1s" },
	{ 0 },
};

static const struct hb_target targets[] = {
	{ .group = "fuzz", .name = "all", .options = all_options },
	{ .group = "fuzz",
	  .name = "extra",
	  .options = all_options,
	  .flags = HB_TARGET_EXTRA_KEYS },
	{ .group = "fuzz",
	  .name = "composite",
	  .options = all_options,
	  .parts = parts },
	{ 0 },
};

static const struct hb_plugin plugin = {
	.abi_major = HB_ABI_MAJOR,
	.abi_minor = HB_ABI_MINOR,
	.size = sizeof(struct hb_plugin),
	.name = "fuzz",
	.targets = targets,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct plugin p = { .path = "fuzz.so", .desc = &plugin };
	struct registry reg = { .plugins = &p, .n = 1 };
	struct suite s = { 0 };
	char err[1024];

	if (suite_load_buffer(&s, "fuzz.ini", (const char *)data, size, NULL,
			      &reg, err, sizeof(err)) == 0 &&
	    s.ncases == 0)
		abort();
	suite_free(&s);
	return 0;
}
