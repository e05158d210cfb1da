/*
 * `contend plan LABEL... --effect PCT`: how many sessions and runs a side
 * an effect needs, from what the store knows of this machine (Kalibera and
 * Jones's plan): the spread of runs within a session, from the labels'
 * own runs, and the spread of sessions, from every config measured in two
 * sessions or more (contend calibrate --sessions K makes one). With the
 * session as the unit, a session of n runs varies by between + within / n
 * on the logs, and a two-sample t on k sessions a side finds the effect
 * with 80% power when 2 (t + t)^2 that / k <= log(1 + effect)^2.
 */
#include "cli.h"
#include "opts.h"
#include "contend/report.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAN_POWER 0.8
#define PLAN_MAX   200

static const size_t plan_runs[] = { 3, 5, 10, 20 };

struct plan_args {
	const char *workload, *loads, *db;
	double effect, confidence;
};

static const struct cli_opt plan_opts[] = {
	CLI_NUM(CLI_OPT_DOUBLE, 0, "effect", struct plan_args, effect, "PCT",
		"the change to find, in percent (required; %R)", 0, 1000, CLI_MIN_OPEN),
	CLI_STRING('w', "workload", struct plan_args, workload, "NAME",
		   "workload (default: the first LABEL's latest)"),
	CLI_STRING('l', "loads", struct plan_args, loads, "LIST",
		   "loads (default: those the first LABEL has)"),
	CLI_NUM_DEF(CLI_OPT_DOUBLE, 0, "confidence", struct plan_args, confidence, "PCT",
		    "confidence level (%D; %R)", 0, 100, CLI_MIN_OPEN | CLI_MAX_OPEN, "95", NULL),
	CLI_DB(struct plan_args, db),
	CLI_END,
};

struct plan_ctx {
	struct ct_store *st;
	struct ct_session_rec *recs;
	size_t nrecs;
	char workload[32], params[256], machine[40];
	const char *const *labels;
	size_t nlabels;
};

/* The workload, parameters and machine of the first label's latest
 * complete session (of -w's workload when given); 0, or the exit code. */
static int plan_subject(struct plan_ctx *x, const struct plan_args *a)
{
	struct ct_run_filter f = { .label = x->labels[0],
				   .workload = a->workload,
				   .ok_only = true };
	struct ct_run *runs = NULL;
	const struct ct_run *last = NULL;
	char err[CT_ERRLEN];
	size_t n = 0;
	int rc = ct_store_runs(x->st, &f, &runs, &n, err, sizeof(err));

	if (rc)
		return cli_fail(rc, err);
	for (size_t i = 0; i < n; i++) {
		const struct ct_session_rec *r =
			ct_store_session_of(x->recs, x->nrecs, runs[i].session_id);

		if (r && r->status == CT_SESSION_COMPLETE &&
		    (!last || ct_store_session_newer(
				      r, ct_store_session_of(x->recs, x->nrecs, last->session_id))))
			last = &runs[i];
	}
	if (last) {
		snprintf(x->workload, sizeof(x->workload), "%s", last->workload);
		snprintf(x->params, sizeof(x->params), "%s", last->workload_params);
		snprintf(x->machine, sizeof(x->machine), "%s",
			 ct_store_session_of(x->recs, x->nrecs, last->session_id)->owner.machine);
	}
	free(runs);
	if (!last)
		return cli_usage_error("plan", "no complete session of '%s'%s%s", x->labels[0],
				       a->workload ? " for workload " : "",
				       a->workload ? a->workload : "");
	return 0;
}

/* The loads the first label ran with the workload's parameters, into buf
 * as a list; 0, or the exit code. */
static int plan_loads(struct plan_ctx *x, char *buf, size_t len)
{
	struct ct_run_filter f = { .label = x->labels[0],
				   .workload = x->workload,
				   .workload_params = x->params,
				   .ok_only = true };
	struct ct_run *runs = NULL;
	char err[CT_ERRLEN];
	size_t n = 0, off = 0;
	int rc = ct_store_runs(x->st, &f, &runs, &n, err, sizeof(err));

	if (rc)
		return cli_fail(rc, err);
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;

		while (k < i && strcmp(runs[k].load, runs[i].load))
			k++;
		if (k == i)
			(void)ct_append_word(buf, len, &off, runs[i].load);
	}
	free(runs);
	return 0;
}

/* The spread of runs within a session under load, pooled over the labels'
 * complete sessions (*within NaN when no session holds two runs). */
static int plan_within(struct plan_ctx *x, const char *load, double *within)
{
	double sum = 0, df = 0;
	char err[CT_ERRLEN];
	int rc = 0;

	for (size_t l = 0; !rc && l < x->nlabels; l++) {
		struct ct_run_filter f = { .label = x->labels[l],
					   .workload = x->workload,
					   .load = load,
					   .workload_params = x->params,
					   .ok_only = true };
		struct ct_run *runs = NULL;
		struct ct_stats_levels lv;
		size_t n = 0, m = 0;
		double *v;
		int64_t *s;

		rc = ct_store_runs(x->st, &f, &runs, &n, err, sizeof(err));
		if (rc)
			return cli_fail(rc, err);
		v = malloc((n ? n : 1) * sizeof(*v));
		s = malloc((n ? n : 1) * sizeof(*s));
		for (size_t i = 0; v && s && i < n; i++) {
			const struct ct_session_rec *r =
				ct_store_session_of(x->recs, x->nrecs, runs[i].session_id);

			if (r && r->status == CT_SESSION_COMPLETE && ct_run_value(&runs[i]) > 0) {
				v[m] = ct_run_value(&runs[i]);
				s[m++] = runs[i].session_id;
			}
		}
		if (!v || !s)
			rc = -ENOMEM;
		else if (m && !ct_stats_levels(v, s, m, &lv) && lv.nruns > lv.nsessions) {
			sum += lv.within_var * (double)(lv.nruns - lv.nsessions);
			df += (double)(lv.nruns - lv.nsessions);
		}
		free(v);
		free(s);
		free(runs);
	}
	if (rc)
		return cli_fail(rc, "out of memory");
	*within = df > 0 ? sum / df : NAN;
	return 0;
}

/* An estimate of the spread of sessions to plan from: two degrees of
 * freedom or more (one pair of sessions, truncated at zero as often as
 * not, is no estimate). */
static bool plannable(const struct ct_stats_between *bw)
{
	return bw->df >= 2;
}

static void plan_row(const struct plan_args *a, const char *load, double within,
		     const struct ct_stats_between *bw)
{
	double between = plannable(bw) ? fmax(0, bw->var - bw->within / bw->runs) : 0;
	char w[16], b[16];

	snprintf(w, sizeof(w), "%.1f%%", 100 * sqrt(expm1(within)));
	if (plannable(bw))
		snprintf(b, sizeof(b), "%.1f%%", 100 * sqrt(expm1(between)));
	else
		snprintf(b, sizeof(b), "?");
	printf("%-9s %-11s %-12s", load, w, b);
	for (size_t i = 0; i < CT_ARRAY_SIZE(plan_runs); i++) {
		size_t k = ct_stats_sessions_needed(between + within / (double)plan_runs[i],
						    1 + a->effect / 100, a->confidence, PLAN_POWER,
						    PLAN_MAX);
		char c[24];

		if (k)
			snprintf(c, sizeof(c), "%zu", k);
		else
			snprintf(c, sizeof(c), ">%d", PLAN_MAX);
		printf(i + 1 < CT_ARRAY_SIZE(plan_runs) ? " %-7s" : " %s", c);
	}
	printf("\n");
}

static int plan(struct plan_ctx *x, const struct plan_args *a)
{
	char list[512], err[CT_ERRLEN], *save = NULL, *load, g[32] = "";
	bool unknown = false, few = false;
	int64_t far = 0;
	int ex = plan_subject(x, a);

	if (!ex && a->loads)
		snprintf(list, sizeof(list), "%s", a->loads);
	else if (!ex)
		ex = plan_loads(x, list, sizeof(list));
	if (ex)
		return ex;
	for (char *c = list; *c; c++)
		if (*c == ',')
			*c = ' ';
	printf("contend plan: workload %s (%s), a %+g%% change, %g%% confidence, %.0f%% power\n\n"
	       "%-9s %-11s %-12s n=3     n=5     n=10    n=20   (sessions a side, n runs each)\n",
	       x->workload, x->params, a->effect, a->confidence, 100 * PLAN_POWER, "load",
	       "within CoV", "between CoV");
	for (load = strtok_r(list, " ", &save); load; load = strtok_r(NULL, " ", &save)) {
		struct ct_stats_between bw;
		double within = NAN;
		int rc;

		ex = plan_within(x, load, &within);
		if (ex)
			return ex;
		if (isnan(within))
			return cli_usage_error(
				"plan", "no session of %s holds two runs under load '%s'",
				x->nlabels == 1 ? "that label" : "those labels", load);
		/* every pair of the machine's sessions: how far they reach in
		 * time is said under the table */
		rc = ct_report_spread(x->st, x->recs, x->nrecs, x->workload, x->params, load,
				      x->machine, NULL, 0, NULL, 0, &bw, err, sizeof(err));
		if (rc)
			return cli_fail(rc, err);
		unknown |= !(bw.df > 0);
		few |= bw.df > 0 && !plannable(&bw);
		far = bw.max_gap_ns > far ? bw.max_gap_ns : far;
		plan_row(a, load, within, &bw);
	}
	if (few)
		printf("\nbetween CoV ?: too few pairs of sessions to tell how far this machine's "
		       "sessions\nmove (one degree of freedom, as from two sessions, is no "
		       "estimate)");
	else if (unknown)
		printf("\nbetween CoV ?: how far this machine's sessions move is unknown (no "
		       "config of two\nsessions or more)");
	if (unknown || few)
		printf(";\nthe sessions above assume none move, a floor: contend calibrate "
		       "--sessions 4\n[--every D] measures it\n");
	else
		printf("\nbetween CoV: from the pairs of sessions of one config this machine "
		       "measured (up to\n%s apart); sessions compared farther apart may move "
		       "more\n",
		       ct_report_fmt_gap(far, g, sizeof(g)));
	return 0;
}

int cmd_plan(int argc, char **argv)
{
	static const char synopsis[] =
		"contend plan --effect PCT [-w NAME] [-l LIST] [--confidence PCT] [--db PATH] "
		"LABEL...";
	static const char intro[] =
		"  how many sessions and runs a side a PCT% change needs to be found with 80%\n"
		"  power, from the LABELs' stored runs and this machine's spread of sessions";
	struct plan_args a = { 0 };
	struct plan_ctx x = { 0 };
	struct cli_parsed p;
	char err[CT_ERRLEN];
	int ex, rc;

	ex = cli_parse("plan", synopsis, intro, plan_opts, &a, argc, argv, &p);
	if (ex)
		return ex == 1 ? 0 : ex;
	if (!(a.effect > 0))
		return cli_usage_error("plan", "needs --effect PCT, the change to find");
	if (p.rest >= argc)
		return cli_usage_error("plan", "needs a LABEL (contend list shows them)");
	x.labels = (const char *const *)argv + p.rest;
	x.nlabels = (size_t)(argc - p.rest);
	ex = cli_open_store(a.db, &x.st);
	if (ex)
		return ex;
	rc = ct_store_sessions(x.st, NULL, &x.recs, &x.nrecs, err, sizeof(err));
	ex = rc ? cli_fail(rc, err) : plan(&x, &a);
	free(x.recs);
	ct_store_close(x.st);
	return ex;
}
