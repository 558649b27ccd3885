/* SPDX-License-Identifier: Apache-2.0 */
/* `hostbench sysinfo`: the report of no cases, the system alone. */
#include "app/cmd.h"

#include "app/cli.h"
#include "ui/output.h"
#include "base/exit.h"
#include "report/report.h"
#include "result/sysinfo.h"

/* output_writer for a struct report. */
static int write_report(const void *doc, enum report_format f, FILE *out,
			char *err, size_t errlen)
{
	return report_write(f, doc, out, err, errlen);
}

int cmd_sysinfo(const struct command_env *env)
{
	struct suite none = { 0 };
	struct sysinfo si = { 0 }; /* si: system information */
	int rc;

	sysinfo_read(&si);
	rc = output_write(
		env->cli->output, env->cli->format, write_report,
		&(struct report){ .sys = &si, .reg = env->reg, .suite = &none },
		NULL);
	sysinfo_free(&si);
	return rc ? EXIT_INTERNAL : EXIT_ALL_OK;
}
