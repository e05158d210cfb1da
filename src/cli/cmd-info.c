/*
 * The read-only commands: `sysinfo` (what a config captures), `list`
 * (stored sessions) and `loads` (what exists and what its Loads column
 * counts).
 */
#include "cli.h"
#include "opts.h"
#include "contend/load.h"
#include "contend/store.h"
#include "contend/sysinfo.h"
#include "contend/util.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct info_args {
	const char *db, *dir, *output;
	int format; /* enum ct_report_format, or CLI_FORMAT_AUTO */
	/* list: which sessions, and how many of the newest */
	const char *label, *machine, *workload;
	unsigned limit;
	bool all;
};

static const struct cli_opt sysinfo_opts[] = {
	{ .type = CLI_OPT_STRING,
	  .long_name = "dir",
	  .off = offsetof(struct info_args, dir),
	  .argh = "DIR",
	  .help = "the work directory whose filesystem is described\n(%D)",
	  .def = "/var/tmp" },
	CLI_FORMAT(struct info_args, format),
	CLI_OUTPUT(struct info_args, output, "the facts"),
	CLI_END,
};

static const struct cli_opt list_opts[] = {
	CLI_STRING('L', "label", struct info_args, label, "PATTERN",
		   "the sessions of the labels PATTERN matches (fnmatch(3):\n'rc*', "
		   "'6.1[89]*')"),
	CLI_STRING(0, "machine", struct info_args, machine, "M",
		   "the sessions of machine M: a host name, or 4 or more\ndigits of a machine id"),
	CLI_STRING('w', "workload", struct info_args, workload, "W", "the sessions of workload W"),
	CLI_NUM_DEF(CLI_OPT_UINT, 'n', "limit", struct info_args, limit, "N",
		    "the newest N sessions (%D; %R)", 1, 1000000, 0, "50", NULL),
	CLI_FLAG(0, "all", struct info_args, all, "every session that matches, however many"),
	CLI_DB(struct info_args, db),
	CLI_FORMAT(struct info_args, format),
	CLI_OUTPUT(struct info_args, output, "the list"),
	CLI_END,
};

static const struct cli_opt loads_opts[] = {
	CLI_END,
};

/* Parses a command without operands; 1 after --help. */
static int parse_simple(const char *cmd, const char *synopsis, const struct cli_opt *opts,
			struct info_args *a, int argc, char **argv)
{
	struct cli_parsed p;
	char q[96];
	int rc = cli_parse(cmd, synopsis, NULL, opts, a, argc, argv, &p);

	if (!rc && p.rest < argc)
		return cli_usage_error(cmd, "unexpected argument %s",
				       ct_quote(argv[p.rest], q, sizeof(q)));
	return rc;
}

/* Closes the report (kept when printing succeeded): the exit code. */
static int finish(struct cli_out *o, const char *cmd, int rc)
{
	int ex = cli_out_close(o, cmd, !rc);

	if (!ex && rc)
		ex = cli_fail(rc, "cannot print the report");
	return ex;
}

int cmd_sysinfo(int argc, char **argv)
{
	struct info_args a = { .format = CLI_FORMAT_AUTO };
	struct ct_sysinfo si;
	struct cli_out o;
	char err[CT_ERRLEN];
	const char *dir;
	int rc = parse_simple("sysinfo", "contend sysinfo [--dir DIR] [--format F] [-o FILE]",
			      sysinfo_opts, &a, argc, argv);

	if (rc)
		return rc == 1 ? 0 : rc;
	rc = cli_out_setup(&o, "sysinfo", a.format, a.output, false);
	if (rc)
		return rc;
	dir = a.dir;
	rc = ct_sysinfo_capture(&si, "", dir, err, sizeof(err));
	if (rc)
		return cli_fail(rc, err);
	rc = cli_out_open(&o, "sysinfo");
	if (rc)
		return rc;
	switch (o.fmt) {
	case CT_FORMAT_JSON:
		rc = ct_report_sysinfo_json(o.f, &si, dir);
		break;
	case CT_FORMAT_CSV:
		rc = ct_report_sysinfo_csv(o.f, &si, dir);
		break;
	case CT_FORMAT_MD:
		rc = ct_report_sysinfo_md(o.f, &si, dir);
		break;
	default:
		ct_report_sysinfo_text(o.f, &si, dir);
	}
	return finish(&o, "sysinfo", rc);
}

/* "interleaved 1-4": the order a multi-config run used and the ids of its
 * sessions, so the configs compared in one run read as such; "-" alone. */
static void list_order(const struct ct_session_rec *recs, size_t i, char *buf, size_t len)
{
	int64_t g = recs[i].group_id, hi = recs[i].id;

	if (!g || !recs[i].order[0]) {
		snprintf(buf, len, "-");
		return;
	}
	/* a group's sessions are stored one after another and recs are by
	 * id descending: its highest id is the nearest before i of it */
	for (size_t k = i; k-- > 0 && recs[k].group_id == g;)
		hi = recs[k].id;
	snprintf(buf, len, "%s %lld-%lld", recs[i].order, (long long)g, (long long)hi);
}

/* The sessions as a table, a row each. */
static void print_list(FILE *f, const struct ct_session_rec *recs, size_t n)
{
	int lw = 5; /* the label column: as wide as the longest label */

	if (!n) {
		fprintf(f, "no sessions stored\n");
		return;
	}
	char first[128] = "", m[128];
	bool machines = false; /* sessions of more than one machine: say whose */

	for (size_t i = 0; i < n; i++) {
		if ((int)strlen(recs[i].label) > lw)
			lw = (int)strlen(recs[i].label);
		ct_report_machine(&recs[i].owner, m, sizeof(m));
		if (!i)
			snprintf(first, sizeof(first), "%s", m);
		machines |= strcmp(first, m) != 0;
	}
	fprintf(f, "%-5s %-19s %-*s %-9s %-7s %-11s %5s %6s  %-*s%s\n", "id", "started", lw,
		"label", "workload", "profile", "status", "runs", "failed", machines ? 15 : 0,
		"configs", machines ? "  machine" : "");
	for (size_t i = 0; i < n; i++) {
		char when[32], order[64];
		time_t t = (time_t)(recs[i].started_at / 1000000000);
		struct tm tm;

		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", localtime_r(&t, &tm));
		list_order(recs, i, order, sizeof(order));
		ct_report_machine(&recs[i].owner, m, sizeof(m));
		fprintf(f, "%-5lld %-19s %-*s %-9s %-7s %-11s %5u %6u  %-*s%s%s\n",
			(long long)recs[i].id, when, lw, recs[i].label, recs[i].workload,
			recs[i].profile[0] ? recs[i].profile : "-",
			ct_session_status_name(recs[i].status), recs[i].nruns, recs[i].nfailed,
			machines ? 15 : 0, order, machines ? "  " : "", machines ? m : "");
	}
}

int cmd_list(int argc, char **argv)
{
	struct info_args a = { .format = CLI_FORMAT_AUTO };
	struct ct_session_filter f = { .counts = true };
	struct ct_session_rec *recs = NULL;
	struct ct_store *st;
	size_t n = 0;
	unsigned closed;
	char err[CT_ERRLEN];
	struct cli_out o;
	bool more;
	int rc = parse_simple("list",
			      "contend list [-L PATTERN] [--machine M] [-w W] [-n N | --all]\n"
			      "                    [--db PATH] [--format F] [-o FILE]",
			      list_opts, &a, argc, argv);

	if (rc)
		return rc == 1 ? 0 : rc;
	f.label_glob = a.label;
	f.machine = a.machine;
	f.workload = a.workload;
	/* one more than is shown: whether there are more, to say so */
	f.limit = a.all ? 0 : (size_t)a.limit + 1;
	rc = cli_out_setup(&o, "list", a.format, a.output, false);
	if (rc)
		return rc;
	rc = cli_open_store(a.db, &st);
	if (rc)
		return rc;
	/* a store that cannot be written (read-only, or its disk full) shows
	 * its orphans as interrupted without recording it */
	rc = st->readonly ? 0 : ct_session_close_orphans(st, &closed, err, sizeof(err));
	if (rc == -ENOSPC)
		rc = 0;
	if (!rc)
		rc = ct_store_sessions(st, &f, &recs, &n, err, sizeof(err));
	ct_store_close(st);
	if (rc)
		return cli_fail(rc, err);
	more = !a.all && n > a.limit;
	if (more)
		n = a.limit;
	(void)ct_session_show_orphans(recs, n);
	rc = cli_out_open(&o, "list");
	if (rc) {
		free(recs);
		return rc;
	}
	switch (o.fmt) {
	case CT_FORMAT_JSON:
		rc = ct_report_sessions_json(o.f, recs, n);
		break;
	case CT_FORMAT_CSV:
		rc = ct_report_sessions_csv(o.f, recs, n);
		break;
	case CT_FORMAT_MD:
		rc = ct_report_sessions_md(o.f, recs, n);
		break;
	default:
		print_list(o.f, recs, n);
		if (more)
			fprintf(o.f, "(the newest %zu shown; --all, or -n N, for more)\n", n);
	}
	free(recs);
	return finish(&o, "list", rc);
}

int cmd_loads(int argc, char **argv)
{
	struct info_args a = { .format = CLI_FORMAT_AUTO };
	int rc = parse_simple("loads", "contend loads", loads_opts, &a, argc, argv);

	if (rc)
		return rc == 1 ? 0 : rc;
	printf("%-9s %-16s %s\n", "load", "Loads counts", "what it does");
	for (size_t i = 0; i < ct_load_count(); i++) {
		const struct ct_load_ops *ops = ct_load_at(i);

		printf("%-9s %-16s %s%s%s", ops->name,
		       strcmp(ops->name, "none") ? ops->work_unit : "-", ops->summary,
		       ops->flags & CT_LOAD_DEFAULT ? " [default]" : "",
		       ops->flags & CT_LOAD_HIDDEN ? " [harness self-test]" : "");
		/* the options it declares (see: contend run --help) */
		for (const struct ct_option *o = ops->options; o && o->type != CT_OPTION_END; o++)
			printf("%s--%s", o == ops->options ? "; options: " : ", ", o->name);
		putchar('\n');
	}
	printf("\nAny program is a load too: run --load-cmd NAME=COMMAND (see: contend run "
	       "--help)\n");
	return 0;
}
