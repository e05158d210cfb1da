/*
 * `contend compare`: stored runs of several configs side by side, contest's
 * rows per load, then for every config against the baseline the effect on
 * Time with Fieller's interval, Welch's and Mann-Whitney's p-values and a
 * verdict whose p-values are Holm-adjusted across the loads compared, and
 * the runs flagged as outliers with their evidence. `--fail-on-regression
 * PCT` makes it a gate for a kernel CI: exit 1 when a load is
 * significantly slower by more than PCT percent.
 */
#include "cli.h"
#include "opts.h"
#include "contend/load.h"
#include "contend/report.h"
#include "contend/session.h"
#include "contend/store.h"
#include "contend/util.h"
#include "contend/workload.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LOADS 32

struct compare_args {
	const char *baseline, *workload, *loads, *db, *output;
	int format; /* enum ct_report_format, or CLI_FORMAT_AUTO */
	double confidence, fail_pct;
	int64_t sessions[CT_REPORT_MAX_ROWS]; /* report --session */
	size_t nsessions;
	/* --sessions: which stored sessions of a label count */
	enum ct_report_pool pool;
	int64_t pool_ids[256];
	size_t npool_ids;
	bool include_interrupted, within_session;
	bool why, all; /* compare --why; every counter tested */
};

/* --sessions all|latest|ID,ID... */
static int sessions_opt(const struct cli_opt *o, void *base, const char *arg, char *err, size_t len)
{
	struct compare_args *a = base;
	const char *p = arg;

	(void)o;
	a->npool_ids = 0;
	if (!strcmp(arg, "all") || !strcmp(arg, "latest")) {
		a->pool = *arg == 'a' ? CT_POOL_ALL : CT_POOL_LATEST;
		return 0;
	}
	a->pool = CT_POOL_LISTED;
	for (;;) {
		char *end;
		long long id;

		errno = 0;
		id = strtoll(p, &end, 10);
		if (errno || end == p || id <= 0 || (*end && *end != ',') ||
		    a->npool_ids == CT_ARRAY_SIZE(a->pool_ids))
			return ct_err(err, len, -EINVAL,
				      "--sessions takes all, latest or session ids separated by "
				      "commas (see: contend list), not '%s'",
				      arg);
		a->pool_ids[a->npool_ids++] = id;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

static int session_opt(const struct cli_opt *o, void *base, const char *arg, char *err, size_t len)
{
	struct compare_args *a = base;
	char *end;
	long long id;

	errno = 0;
	id = strtoll(arg, &end, 10);
	if (errno || end == arg || *end || id <= 0)
		return ct_err(err, len, -EINVAL,
			      "--session takes a session id (see: contend list), "
			      "not '%s'",
			      arg);
	if (a->nsessions == CT_REPORT_MAX_ROWS)
		return ct_err(err, len, -EINVAL, "at most %d sessions", CT_REPORT_MAX_ROWS);
	a->sessions[a->nsessions++] = id;
	return 0;
}

static const struct cli_opt compare_opts[] = {
	CLI_STRING(0, "baseline", struct compare_args, baseline, "LABEL",
		   "the config the others are compared with (default: the\nfirst LABEL)"),
	CLI_STRING('w', "workload", struct compare_args, workload, "NAME",
		   "workload (default: the baseline's latest)"),
	CLI_STRING('l', "loads", struct compare_args, loads, "LIST",
		   "loads (default: those the baseline has)"),
	CLI_NUM_DEF(CLI_OPT_DOUBLE, 0, "confidence", struct compare_args, confidence, "PCT",
		    "confidence level (%D; %R)", 0, 100, CLI_MIN_OPEN | CLI_MAX_OPEN, "95", NULL),
	{ .type = CLI_OPT_DOUBLE,
	  .long_name = "fail-on-regression",
	  .off = offsetof(struct compare_args, fail_pct),
	  .argh = "PCT",
	  .help = "exit 1 when a load is significantly slower than the\nbaseline by more than "
		  "PCT percent (%R)",
	  .max = INFINITY,
	  .only = "compare" },
	{ .type = CLI_OPT_CALLBACK,
	  .long_name = "sessions",
	  .argh = "WHICH",
	  .help = "the stored sessions of each LABEL whose runs count: all\n(default; with two or "
		  "more a side, the sessions decide),\nlatest, or IDs separated by commas",
	  .cb = sessions_opt },
	CLI_FLAG(0, "include-interrupted", struct compare_args, include_interrupted,
		 "count sessions that were interrupted (left out unless\nasked)"),
	CLI_FLAG(0, "within-session", struct compare_args, within_session,
		 "judge configs of other sessions by their runs alone, as\nif sessions did not "
		 "move (with one session a side and\nno estimate of how far this machine's "
		 "sessions move)"),
	{ .type = CLI_OPT_CALLBACK,
	  .long_name = "session",
	  .argh = "ID",
	  .help = "the runs of stored session ID (repeatable; see: contend\nlist), beside or "
		  "instead of LABELs",
	  .cb = session_opt,
	  .only = "report" },
	{ .type = CLI_OPT_FLAG,
	  .long_name = "why",
	  .off = offsetof(struct compare_args, why),
	  .help = "after the verdicts, why each config differs from the\nbaseline: its time budget "
		  "and the counters that moved\n(see: contend why --help)",
	  .only = "compare" },
	{ .type = CLI_OPT_FLAG,
	  .long_name = "all",
	  .off = offsetof(struct compare_args, all),
	  .help = "list every counter tested, not only the ten that ranked",
	  .only = "compare,why" },
	CLI_DB(struct compare_args, db),
	CLI_FORMAT_HTML(struct compare_args, format),
	CLI_OUTPUT(struct compare_args, output, "the report"),
	CLI_END,
};

struct compared {
	const char *labels[CT_REPORT_MAX_ROWS];
	int64_t sids[CT_REPORT_MAX_ROWS]; /* the session of each, 0: its latest */
	char sid_labels[CT_REPORT_MAX_ROWS][128];
	size_t nlabels;
	char wl[32], params[256];
	const char *loads[MAX_LOADS];
	size_t nloads;
	char loadbuf[512];
	bool own_loads;	 /* loads[] strdup'd from the store */
	const char *cmd; /* "compare", "report" or "why" */
};

/* "no stored runs of LABEL for workload W (PARAMS)", and what the label
 * does have: the workloads of its runs (-w finds them), or that its runs
 * of W ran with other parameters. The exit code. */
static int no_runs(struct ct_store *st, const struct compared *c, size_t i, const char *wl,
		   const char *params)
{
	struct ct_run_filter f = { .session_id = c->sids[i],
				   .label = c->labels[i],
				   .ok_only = true };
	struct ct_run *runs = NULL;
	char err[CT_ERRLEN], has[256] = "", hint[320] = "", q[96];
	size_t n = 0, off = 0, nother = 0;
	bool same = false;

	if (!ct_store_runs(st, &f, &runs, &n, err, sizeof(err))) {
		for (size_t k = 0; k < n; k++) {
			bool seen = false;

			for (size_t m = 0; m < k && !seen; m++)
				seen = !strcmp(runs[m].workload, runs[k].workload);
			if (seen)
				continue;
			if (wl && !strcmp(runs[k].workload, wl))
				same = true;
			else if (off < sizeof(has) && ++nother)
				off += (size_t)snprintf(has + off, sizeof(has) - off, "%s%s",
							off ? ", " : "", runs[k].workload);
		}
	}
	free(runs);
	if (nother == 1)
		snprintf(hint, sizeof(hint), "; it has runs of workload %s (-w %s compares those)",
			 has, has);
	else if (nother)
		snprintf(hint, sizeof(hint), "; it has runs of workloads %s (-w NAME)", has);
	else if (same)
		snprintf(hint, sizeof(hint), "; its runs of %s ran with other parameters", wl);
	ct_quote(c->labels[i], q, sizeof(q));
	cli_error("%s: no stored runs of %s%s%s%s%s%s%s (see: contend list)", c->cmd, q,
		  wl ? " for workload " : "", wl ? wl : "", params ? " (" : "",
		  params ? params : "", params ? ")" : "", hint);
	return CT_EXIT_USAGE;
}

/* The baseline's latest run says which workload and parameters; the loads
 * are -l's or, in order, those the baseline has with them. */
static long count_runs(struct ct_store *st, const struct compared *c, size_t i, const char *load);

static int what_to_compare(struct ct_store *st, const struct compare_args *a, struct compared *c)
{
	struct ct_run_filter f = { .session_id = c->sids[0],
				   .label = c->labels[0],
				   .workload = a->workload,
				   .ok_only = true };
	struct ct_run *runs = NULL;
	char err[CT_ERRLEN];
	size_t n = 0;
	int rc = ct_store_runs(st, &f, &runs, &n, err, sizeof(err));

	if (rc)
		return cli_fail(rc, err);
	if (!n) {
		free(runs);
		return no_runs(st, c, 0, a->workload, NULL);
	}
	snprintf(c->wl, sizeof(c->wl), "%s", runs[n - 1].workload);
	snprintf(c->params, sizeof(c->params), "%s", runs[n - 1].workload_params);
	rc = cli_split_loads(c->cmd, a->loads, c->loadbuf, sizeof(c->loadbuf), c->loads, MAX_LOADS,
			     &c->nloads);
	if (rc) {
		free(runs);
		return rc;
	}
	c->own_loads = !a->loads;
	/* a load --load-cmd defined is known by its stored runs */
	for (size_t i = 0; a->loads && !rc && i < c->nloads; i++)
		if (!ct_load_find(c->loads[i]) && count_runs(st, c, 0, c->loads[i]) <= 0) {
			cli_error("%s: unknown load '%s' (see: contend loads)", c->cmd,
				  c->loads[i]);
			rc = CT_EXIT_USAGE;
		}
	for (size_t i = 0; !a->loads && i < n && c->nloads < MAX_LOADS; i++) {
		bool seen = false;

		if (strcmp(runs[i].workload, c->wl) || strcmp(runs[i].workload_params, c->params))
			continue;
		for (size_t k = 0; k < c->nloads && !seen; k++)
			seen = !strcmp(c->loads[k], runs[i].load);
		if (!seen && (c->loads[c->nloads] = strdup(runs[i].load)))
			c->nloads++;
	}
	free(runs);
	return rc;
}

/* The number of ok runs of label (of load, NULL: any) with the workload
 * and parameters compared; -1 after printing a store error. */
static long count_runs(struct ct_store *st, const struct compared *c, size_t i, const char *load)
{
	struct ct_run_filter f = { .session_id = c->sids[i],
				   .label = c->labels[i],
				   .workload = c->wl,
				   .load = load,
				   .workload_params = c->params,
				   .ok_only = true };
	struct ct_run *runs = NULL;
	char err[CT_ERRLEN];
	size_t n = 0;

	if (ct_store_runs(st, &f, &runs, &n, err, sizeof(err))) {
		cli_error("%s", err);
		return -1;
	}
	free(runs);
	return (long)n;
}

/* A label or load that names nothing is a mistake a CI gate must not
 * pass: every label has runs of the workload compared, the baseline has
 * runs of every load asked for. */
static int check_names(struct ct_store *st, const struct compared *c)
{
	long n;

	for (size_t i = 1; i < c->nlabels; i++) {
		n = count_runs(st, c, i, NULL);
		if (n < 0)
			return CT_EXIT_ENV;
		if (!n)
			return no_runs(st, c, i, c->wl, c->params);
	}
	for (size_t i = 0; i < c->nloads; i++) {
		n = count_runs(st, c, 0, c->loads[i]);
		if (n < 0)
			return CT_EXIT_ENV;
		if (!n) {
			cli_error("%s: the baseline '%s' has no runs under load '%s'", c->cmd,
				  c->labels[0], c->loads[i]);
			return CT_EXIT_USAGE;
		}
	}
	return 0;
}

/* Whether the gate may take c's verdict: not one session a side where
 * how far this machine's sessions move is unknown, or known only at gaps
 * shorter than its sessions' (or in one boot where a reboot lies between
 * them) - unless --within-session asked for the runs' verdict. */
static bool gate_takes(const struct ct_report *rep, const struct ct_report_cell *c)
{
	return rep->within_session || c->cmp.decided_by == CT_TEST_NONE ||
	       !(c->scope == CT_SCOPE_ACROSS ||
		 (c->scope == CT_SCOPE_MACHINE && !c->between.covers));
}

/* A config significantly worse than the baseline by more than pct: by
 * the ratio of means, or when the sessions decided by theirs (the ratio of
 * the sessions' medians). */
static bool regression(const struct ct_report *rep, double pct)
{
	for (size_t i = 0; pct >= 0 && i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].ncells; j++) {
			const struct ct_report_cell *c = &rep->blocks[i].cells[j];
			bool sess = c->cmp.decided_by == CT_TEST_SESSIONS ||
				    c->cmp.decided_by == CT_TEST_ACROSS;
			double r = sess ? c->cmp.effect : c->cmp.ratio.ratio;

			if (c->compared && gate_takes(rep, c) &&
			    !strcmp(ct_report_verdict(rep, c), "worse") &&
			    (sess || c->cmp.have_ratio) && fabs(r - 1) * 100 > pct)
				return true;
		}
	return false;
}

/* The first compared cell whose verdict the gate cannot take, and its
 * load; NULL when there is none. */
static const struct ct_report_cell *uncovered(const struct ct_report *rep, const char **load)
{
	for (size_t i = 0; i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].ncells; j++) {
			const struct ct_report_cell *c = &rep->blocks[i].cells[j];

			if (c->compared && !gate_takes(rep, c)) {
				*load = rep->blocks[i].load;
				return c;
			}
		}
	return NULL;
}

static int report(struct ct_store *st, const struct compare_args *a, const struct compared *c,
		  struct cli_out *o)
{
	struct ct_report_source src[CT_REPORT_MAX_ROWS];
	const char *units[MAX_LOADS];
	struct ct_report_query q = {
		.workload = c->wl,
		.params = c->params,
		.src = src,
		.nsrc = c->nlabels,
		.loads = c->loads,
		.work_units = units,
		.nloads = c->nloads,
		.confidence = a->confidence,
		.pool = a->pool,
		.pool_ids = a->pool_ids,
		.npool_ids = a->npool_ids,
		.include_unfinished = a->include_interrupted,
		.within_session = a->within_session,
	};
	const struct ct_workload_ops *w = ct_workload_find(c->wl);
	/* a scored workload (oltp) is shown as WimMark showed it: each run as
	 * a score against the baseline's no-load tps */
	bool scored = w && (w->flags & CT_WL_SCORED);
	struct ct_report rep;
	const struct ct_report_cell *u;
	const char *load = NULL;
	char err[CT_ERRLEN];
	int rc, ex = 0;

	for (size_t i = 0; i < c->nlabels; i++)
		src[i] = (struct ct_report_source){ c->labels[i], c->sids[i] };
	for (size_t i = 0; i < c->nloads; i++) {
		const struct ct_load_ops *ops = ct_load_find(c->loads[i]);

		units[i] = ops ? ops->work_unit : NULL;
	}
	/* scored against the baseline, as WimMark compared kernels: oltp's
	 * tps, or a command's own figure */
	q.score = scored;
	q.score_label = c->labels[0];
	rc = ct_report_build(&rep, st, &q, err, sizeof(err));
	/* why with one label: each load against its no-load runs */
	if (!rc && !strcmp(c->cmd, "why") && c->nlabels == 1)
		rc = ct_report_why_loads(&rep, st, "none", err, sizeof(err));
	else if (!rc && (a->why || !strcmp(c->cmd, "why")))
		rc = ct_report_why(&rep, st, err, sizeof(err));
	if (rc) {
		ct_report_release(&rep);
		return cli_fail(rc, err);
	}
	ex = cli_out_open(o, c->cmd);
	if (ex) {
		ct_report_release(&rep);
		return ex;
	}
	if (o->fmt == CT_FORMAT_TEXT) {
		fprintf(o->f, "contend %s: workload %s (%s), baseline '%s'\n\n", c->cmd, c->wl,
			c->params, c->labels[0]);
		if (!strcmp(c->cmd, "why")) {
			ct_report_print_why(o->f, &rep, a->all);
		} else if (scored) {
			ct_report_print_oltp(o->f, &rep);
		} else {
			if (rep.figure_kind == CT_FIGURE_LATENCY)
				ct_report_print_latency(o->f, &rep);
			else if (rep.figure_kind != CT_FIGURE_TIME)
				ct_report_print_figures(o->f, &rep);
			else
				ct_report_print_table(o->f, &rep);
			ct_report_print_verdicts(o->f, &rep, NULL);
		}
		if (a->why)
			ct_report_print_why(o->f, &rep, a->all);
		if (strcmp(c->cmd, "why")) {
			ct_report_print_sessions(o->f, &rep);
			ct_report_print_flagged(o->f, &rep);
			ct_report_print_drift(o->f, &rep);
			ct_report_print_diff(o->f, &rep);
		}
	} else {
		rc = cli_out_report(o, &rep, c->cmd);
	}
	ex = cli_out_close(o, c->cmd, !rc);
	if (!ex && rc)
		ex = cli_fail(rc, "cannot print the report");
	/* a decided regression fails the gate whatever another load's
	 * spread; a gate that cannot pass nor fail on a load says why */
	if (!ex && a->fail_pct >= 0 && regression(&rep, a->fail_pct)) {
		cli_error("regression: a load is significantly slower than '%s' by more than %g%%",
			  c->labels[0], a->fail_pct);
		ex = CT_EXIT_REGRESSION;
	} else if (!ex && a->fail_pct >= 0 && (u = uncovered(&rep, &load))) {
		char g[32], far[32];

		ct_report_fmt_gap(u->between.gap_ns, g, sizeof(g));
		ct_report_fmt_gap(u->between.max_gap_ns, far, sizeof(far));
		if (u->scope == CT_SCOPE_ACROSS)
			cli_error("%s: how far this machine's sessions move is unknown (one "
				  "session a "
				  "side under load '%s', %s apart%s), so the gate can neither pass "
				  "nor fail: run %s, or give --within-session to judge these "
				  "sessions alone",
				  c->cmd, load, g, u->between.reboot ? " across a reboot" : "",
				  u->calibrate_hint);
		else
			cli_error(
				"%s: this machine's spread of sessions is known up to %s apart, "
				"which does not cover these sessions %s apart%s (one a side under "
				"load '%s'), so the gate can neither pass nor fail: run %s",
				c->cmd, far, g, u->between.reboot ? " across a reboot" : "", load,
				u->calibrate_hint);
		ex = CT_EXIT_USAGE;
	}
	ct_report_release(&rep);
	return ex;
}

/* why LABEL: its loads against none, which must be among them and not
 * alone. */
static int why_loads(struct compared *c)
{
	bool none = false;

	for (size_t i = 0; i < c->nloads; i++)
		none |= !strcmp(c->loads[i], "none");
	if (!none && c->nloads < MAX_LOADS) {
		memmove(&c->loads[1], &c->loads[0], c->nloads * sizeof(c->loads[0]));
		c->loads[0] = c->own_loads ? strdup("none") : "none";
		if (!c->loads[0])
			return cli_fail(-ENOMEM, "out of memory");
		c->nloads++;
	}
	if (c->nloads < 2)
		return cli_usage_error(c->cmd,
				       "one label is set against its own runs under no load: '%s' "
				       "has runs under none alone (-l LOAD, or give two labels)",
				       c->labels[0]);
	return 0;
}

/* report --session ID: the label of each session asked for, after the
 * LABELs. */
static int add_sessions(struct ct_store *st, const struct compare_args *a, struct compared *c)
{
	struct ct_session_rec *recs = NULL;
	char err[CT_ERRLEN];
	size_t n = 0;
	int rc = ct_store_sessions(st, NULL, &recs, &n, err, sizeof(err));

	if (rc)
		return cli_fail(rc, err);
	for (size_t i = 0; i < a->nsessions && !rc; i++) {
		const struct ct_session_rec *r = ct_store_session_of(recs, n, a->sessions[i]);

		if (!r) {
			cli_error("%s: no session %lld in the store (see: contend list)", c->cmd,
				  (long long)a->sessions[i]);
			rc = CT_EXIT_USAGE;
		} else if (c->nlabels == CT_REPORT_MAX_ROWS) {
			rc = cli_usage_error(c->cmd, "at most %d configs", CT_REPORT_MAX_ROWS);
		} else {
			snprintf(c->sid_labels[c->nlabels], sizeof(c->sid_labels[0]), "%s",
				 r->label);
			c->labels[c->nlabels] = c->sid_labels[c->nlabels];
			c->sids[c->nlabels++] = a->sessions[i];
		}
	}
	free(recs);
	return rc;
}

/* compare and report: the configs named, their runs as one report model,
 * printed in the format asked; compare's gate. */
static int compare_main(const char *cmd, const char *synopsis, const char *intro, int argc,
			char **argv)
{
	bool rep = !strcmp(cmd, "report");
	struct compare_args a = { .fail_pct = -1, .format = CLI_FORMAT_AUTO };
	struct compared c = { .cmd = cmd };
	struct ct_store *st = NULL;
	struct cli_parsed p;
	struct cli_out o;
	int ex;

	ex = cli_parse(cmd, synopsis, intro, compare_opts, &a, argc, argv, &p);
	if (ex)
		return ex == 1 ? 0 : ex;
	ex = cli_out_setup(&o, cmd, a.format, a.output, true);
	if (ex)
		return ex;
	if (a.baseline)
		c.labels[c.nlabels++] = a.baseline;
	for (int i = p.rest; i < argc; i++) {
		if (a.baseline && !strcmp(argv[i], a.baseline))
			continue;
		for (size_t k = 0; k < c.nlabels; k++)
			if (!strcmp(c.labels[k], argv[i])) {
				char q[96];

				return cli_usage_error(cmd, "label %s is named twice",
						       ct_quote(argv[i], q, sizeof(q)));
			}
		if (c.nlabels == CT_REPORT_MAX_ROWS)
			return cli_usage_error(cmd, "at most %d configs can be compared",
					       CT_REPORT_MAX_ROWS);
		c.labels[c.nlabels++] = argv[i];
	}
	if (!rep && c.nlabels < 2 && strcmp(cmd, "why"))
		return cli_usage_error(cmd, "needs at least two labels (a baseline and another)");
	if (!c.nlabels && !a.nsessions)
		return cli_usage_error(cmd,
				       "needs a LABEL (why: two, or one with runs under a load "
				       "to set against its runs under none)");
	if (rep && !c.nlabels && !a.nsessions)
		return cli_usage_error(cmd, "needs a LABEL or --session ID");
	ex = cli_open_store(a.db, &st);
	/* a session whose contend is gone is interrupted, as list says, and
	 * counts only when asked (a store that cannot be written: as it is) */
	if (!ex && !st->readonly) {
		char err[CT_ERRLEN];
		unsigned closed;
		int rc = ct_session_close_orphans(st, &closed, err, sizeof(err));

		if (rc && rc != -ENOSPC)
			ex = cli_fail(rc, err);
	}
	if (!ex && a.nsessions)
		ex = add_sessions(st, &a, &c);
	if (!ex)
		ex = what_to_compare(st, &a, &c);
	if (!ex && !strcmp(cmd, "why") && c.nlabels == 1)
		ex = why_loads(&c);
	if (!ex)
		ex = check_names(st, &c);
	if (!ex)
		ex = report(st, &a, &c, &o);
	for (size_t i = 0; c.own_loads && i < c.nloads; i++)
		free((char *)c.loads[i]);
	ct_store_close(st);
	return ex;
}

int cmd_compare(int argc, char **argv)
{
	return compare_main("compare", "contend compare [options] LABEL...",
			    "compares the stored runs of each LABEL with the baseline (the first "
			    "LABEL)",
			    argc, argv);
}

int cmd_why(int argc, char **argv)
{
	return compare_main("why", "contend why [options] BASELINE LABEL... | LABEL -l LOAD...",
			    "why each LABEL's runs differ from the baseline's: where the "
			    "foreground's\ntime went (on CPU, waiting for a CPU, blocked on I/O, "
			    "memory stalls),\nthen the counters that moved, ranked with a test "
			    "and an interval; with one LABEL, its runs under each load against "
			    "its\nruns under none (contest's question)",
			    argc, argv);
}

int cmd_report(int argc, char **argv)
{
	return compare_main("report", "contend report [options] [LABEL...] [--session ID...]",
			    "renders stored results - one config or several, by label or by "
			    "session - as\ntext, JSON, CSV, Markdown or a self-contained HTML page "
			    "(-o report.html)",
			    argc, argv);
}
