/* SPDX-License-Identifier: Apache-2.0 */
/* The checks of a command's words that a count of them cannot say. */
#include "app/cmd_args.h"

#include <errno.h>
#include <string.h>

#include "app/cli.h"
#include "app/stored.h"

int cmd_args_none(const struct cli *cli, char *err, size_t errlen)
{
	if (cli->args.n)
		return hb_errorf(err, errlen, -EINVAL,
				 "%s takes no argument: %s", cli->command,
				 cli->args.items[0]);
	return 0;
}

int cmd_args_run(const struct cli *cli, char *err, size_t errlen)
{
	if (cli->extended && cli->fio)
		return hb_errorf(err, errlen, -EINVAL,
				 "--extended runs its own suite; drop --fio");
	if (cli->extended && cli->args.n)
		return hb_errorf(err, errlen, -EINVAL,
				 "--extended runs its own suite; drop %s",
				 cli->args.items[0]);
	if (cli->journal && cli->resume &&
	    strcmp(cli->journal, cli->resume) != 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "--resume appends to its own file; drop "
				 "--journal %s",
				 cli->journal);
	return 0;
}

int cmd_args_report(const struct cli *cli, char *err, size_t errlen)
{
	if (!cli->args.n)
		return hb_errorf(err, errlen, -EINVAL,
				 "report needs JSON reports, journals or "
				 "stored runs: FILE...|UUID...");
	for (size_t i = 0; cli->rank >= 0 && i < cli->args.n; i++)
		if (stored_is_run(cli->args.items[i]))
			return hb_errorf(err, errlen, -EINVAL,
					 "--rank takes a host out of a fleet "
					 "report; stored run %s is one host's "
					 "(drop --rank)",
					 cli->args.items[i]);
	if (cli->figure == RESULT_FIGURE_CPU &&
	    (cli->format == REPORT_JSON || cli->format == REPORT_CSV))
		return hb_errorf(err, errlen, -EINVAL,
				 "--figure cpu: a %s report holds both "
				 "figures already (--figure picks the one "
				 "text, markdown and html lead with)",
				 cli->format == REPORT_JSON ? "json" : "csv");
	return 0;
}

int cmd_args_compare(const struct cli *cli, char *err, size_t errlen)
{
	if (cli->by && (cli->args.n < 1 || cli->args.n > 2))
		return hb_errorf(err, errlen, -EINVAL,
				 "compare --by needs one report (or two): "
				 "REPORT.json [NEW.json]");
	if (!cli->by && cli->args.n != 2)
		return hb_errorf(err, errlen, -EINVAL,
				 "compare needs two reports: BASE.json "
				 "NEW.json (or one with --by KEY=A,B)");
	return 0;
}

int cmd_args_store(const struct cli *cli, char *err, size_t errlen)
{
	int own = !cli->from || strcmp(cli->from, "hostbench") == 0;

	if (cli->args.n < 2 || strcmp(cli->args.items[0], "import") != 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "store needs import FILE...");
	if (own && (cli->host || cli->tool_version))
		return hb_errorf(err, errlen, -EINVAL,
				 "--%s is for another tool's files, which "
				 "name it or not: give --from FORMAT (a "
				 "hostbench report names its own)",
				 cli->host ? "host" : "tool-version");
	return 0;
}

int cmd_args_export(const struct cli *cli, char *err, size_t errlen)
{
	const char *sel = cli->host    ? "--host"
			  : cli->cases ? "--case"
			  : cli->since ? "--since"
			  : cli->until ? "--until"
			  : cli->label ? "--label"
				       : NULL;

	if (sel && cli->args.n)
		return hb_errorf(err, errlen, -EINVAL,
				 "%s selects series of the store; the reports "
				 "given (%s) are exported whole: drop one",
				 sel, cli->args.items[0]);
	return 0;
}

int cmd_args_regressions(const struct cli *cli, char *err, size_t errlen)
{
	if (cli->ack && cli->ignore)
		return hb_errorf(err, errlen, -EINVAL,
				 "--ack and --ignore: one decision at a time "
				 "(give one of them)");
	return 0;
}

int cmd_args_dashboard(const struct cli *cli, char *err, size_t errlen)
{
	if (!cli->output)
		return hb_errorf(err, errlen, -EINVAL,
				 "dashboard needs -o DIR");
	return 0;
}
