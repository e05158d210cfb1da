/*
 * `contend fleet summary`: a fleet's store in one table - the newest
 * complete session of each machine and label, its figure per load, and
 * its verdict against a baseline: one machine's session
 * (--baseline-machine), or each machine's own session of a label
 * (--baseline). What a lab reads after a play has run the suite on every
 * machine (docs/fleet.md).
 */
#include "cli.h"
#include "opts.h"
#include "contend/fleet.h"
#include "contend/store.h"
#include "contend/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fleet_args {
	const char *workload, *loads, *base_label, *base_machine, *label, *db, *output;
	int format;
	double confidence;
	bool within_session, why;
};

static const struct cli_opt summary_opts[] = {
	CLI_STRING('w', "workload", struct fleet_args, workload, "NAME",
		   "workload (default: the baseline's newest session's)"),
	CLI_STRING('l', "loads", struct fleet_args, loads, "LIST",
		   "loads, separated by commas (default: every load run\nwith the baseline's "
		   "parameters)"),
	CLI_STRING(0, "baseline-machine", struct fleet_args, base_machine, "M",
		   "judge every row against machine M's newest session (a\nhost name or 4+ digits "
		   "of its machine id; of --baseline's\nlabel when given too)"),
	CLI_STRING(0, "baseline", struct fleet_args, base_label, "LABEL",
		   "judge each machine's rows against its own session of\nLABEL (a machine without "
		   "one: against the fleet's newest\nsession of LABEL)"),
	CLI_STRING(0, "label", struct fleet_args, label, "GLOB",
		   "only labels that match GLOB (fnmatch: 6.1.*); the\nbaseline's always shows"),
	CLI_NUM_DEF(CLI_OPT_DOUBLE, 0, "confidence", struct fleet_args, confidence, "PCT",
		    "confidence level (%D; %R)", 0, 100, CLI_MIN_OPEN | CLI_MAX_OPEN, "95", NULL),
	CLI_FLAG(0, "within-session", struct fleet_args, within_session,
		 "judge sessions by their runs alone, as if sessions did\nnot move (compare's "
		 "--within-session)"),
	CLI_FLAG(0, "why", struct fleet_args, why,
		 "explain each row a load made worse: its runs' counters\nagainst its baseline's "
		 "(contend why's rule)"),
	CLI_DB(struct fleet_args, db),
	CLI_FORMAT_HTML(struct fleet_args, format),
	CLI_OUTPUT(struct fleet_args, output, "the summary"),
	CLI_END,
};

#define FLEET_SYNOPSIS "contend fleet summary [options]"
#define FLEET_INTRO                                                                         \
	"sums up a fleet's store (one PostgreSQL that many machines write): the newest\n"   \
	"complete session of each machine and label, its figure under each load and its\n"  \
	"verdict against a baseline - a machine's session, or each machine's own session\n" \
	"of a label"

static int print_fleet(const struct ct_fleet *fl, struct cli_out *o)
{
	switch (o->fmt) {
	case CT_FORMAT_JSON:
		return ct_fleet_print_json(o->f, fl);
	case CT_FORMAT_CSV:
		return ct_fleet_print_csv(o->f, fl);
	case CT_FORMAT_MD:
		return ct_fleet_print_md(o->f, fl);
	case CT_FORMAT_HTML:
		return ct_fleet_print_html(o->f, fl);
	case CT_FORMAT_TEXT:
	default:
		return ct_fleet_print_text(o->f, fl);
	}
}

static int summary_main(int argc, char **argv)
{
	struct fleet_args a = { .format = CLI_FORMAT_AUTO };
	struct ct_fleet_query q = { 0 };
	const char *loads[CT_FLEET_MAX_LOADS];
	char loadbuf[1024], err[CT_ERRLEN];
	struct ct_store *st = NULL;
	struct ct_fleet fl;
	struct cli_parsed p;
	struct cli_out o;
	int ex, rc;

	ex = cli_parse("fleet summary", FLEET_SYNOPSIS, FLEET_INTRO, summary_opts, &a, argc, argv,
		       &p);
	if (ex)
		return ex == 1 ? 0 : ex;
	if (p.rest < argc)
		return cli_usage_error("fleet summary", "unexpected operand '%s'", argv[p.rest]);
	ex = cli_split_loads("fleet summary", a.loads, loadbuf, sizeof(loadbuf), loads,
			     CT_FLEET_MAX_LOADS, &q.nloads);
	if (!ex)
		ex = cli_out_setup(&o, "fleet summary", a.format, a.output, true);
	if (ex)
		return ex;
	q.workload = a.workload;
	q.loads = loads;
	q.base_machine = a.base_machine;
	q.base_label = a.base_label;
	q.label_glob = a.label;
	q.confidence = a.confidence;
	q.within_session = a.within_session;
	q.why = a.why;
	ex = cli_open_store(a.db, &st);
	if (ex)
		return ex;
	rc = ct_fleet_build(&fl, st, &q, err, sizeof(err));
	ct_store_close(st);
	if (rc == -ENOENT || rc == -EINVAL)
		return cli_cmd_fail("fleet summary", -EINVAL, err);
	if (rc)
		return cli_fail(rc, err);
	ex = cli_out_open(&o, "fleet summary");
	if (!ex) {
		rc = print_fleet(&fl, &o);
		ex = cli_out_close(&o, "fleet summary", !rc);
		if (!ex && rc)
			ex = cli_fail(rc, "cannot print the summary");
	}
	ct_fleet_release(&fl);
	return ex;
}

int cmd_fleet(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "summary"))
		return summary_main(argc - 1, argv + 1);
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		cli_help(stdout, "fleet", FLEET_SYNOPSIS, FLEET_INTRO, summary_opts);
		return 0;
	}
	/* options before the subcommand go to summary's parser */
	if (argc > 1 && argv[1][0] == '-')
		return summary_main(argc, argv);
	if (argc > 1)
		return cli_unknown_sub("fleet", argv[1]);
	return cli_usage_error("fleet", "needs a subcommand: fleet summary [options]");
}
