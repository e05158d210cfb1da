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
#include "contend/store.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LOADS 32

struct compare_args {
	const char *baseline, *workload, *loads, *db;
	double confidence, fail_pct;
};

static const struct cli_opt compare_opts[] = {
	CLI_STRING(0, "baseline", struct compare_args, baseline, "LABEL",
		   "the config the others are compared with (default: the\nfirst LABEL)", 0),
	CLI_STRING('w', "workload", struct compare_args, workload, "NAME",
		   "workload (default: the baseline's latest)", 0),
	CLI_STRING('l', "loads", struct compare_args, loads, "LIST",
		   "loads (default: those the baseline has)", 0),
	CLI_NUM(CLI_OPT_DOUBLE, 0, "confidence", struct compare_args, confidence, "PCT",
		"confidence level (default 95; %R)", 0, 100, CLI_MIN_OPEN | CLI_MAX_OPEN, 0),
	CLI_NUM(CLI_OPT_DOUBLE, 0, "fail-on-regression", struct compare_args, fail_pct, "PCT",
		"exit 1 when a load is significantly slower than the\nbaseline by more than PCT "
		"percent (%R)",
		0, INFINITY, 0, 0),
	CLI_STRING(0, "db", struct compare_args, db, "PATH", "results store", 0),
	CLI_END,
};

struct compared {
	const char *labels[CT_REPORT_MAX_ROWS];
	size_t nlabels;
	char wl[32], params[256];
	const char *loads[MAX_LOADS];
	size_t nloads;
	char loadbuf[512];
	bool own_loads; /* loads[] strdup'd from the store */
};

/* The baseline's latest run says which workload and parameters; the loads
 * are -l's or, in order, those the baseline has with them. */
static int what_to_compare(struct ct_store *st, const struct compare_args *a, struct compared *c)
{
	struct ct_run_filter f = { .label = c->labels[0],
				   .workload = a->workload,
				   .ok_only = true };
	struct ct_run *runs = NULL;
	char err[CT_ERRLEN], *save = NULL, *tok;
	size_t n = 0;
	int rc = ct_store_runs(st, &f, &runs, &n, err, sizeof(err));

	if (rc)
		return cli_fail(rc, err);
	if (!n) {
		free(runs);
		cli_error("compare: no stored runs of '%s'%s%s (see: contend list)", c->labels[0],
			  a->workload ? " for workload " : "", a->workload ? a->workload : "");
		return CT_EXIT_USAGE;
	}
	snprintf(c->wl, sizeof(c->wl), "%s", runs[n - 1].workload);
	snprintf(c->params, sizeof(c->params), "%s", runs[n - 1].workload_params);
	if (a->loads) {
		snprintf(c->loadbuf, sizeof(c->loadbuf), "%s", a->loads);
		for (tok = strtok_r(c->loadbuf, ",", &save); tok && c->nloads < MAX_LOADS;
		     tok = strtok_r(NULL, ",", &save))
			c->loads[c->nloads++] = tok;
	}
	c->own_loads = !a->loads;
	for (size_t i = 0; a->loads && !rc && i < c->nloads; i++)
		if (!ct_load_find(c->loads[i])) {
			cli_error("compare: unknown load '%s' (see: contend loads)", c->loads[i]);
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
static long count_runs(struct ct_store *st, const struct compared *c, const char *label,
		       const char *load)
{
	struct ct_run_filter f = { .label = label,
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
		n = count_runs(st, c, c->labels[i], NULL);
		if (n < 0)
			return CT_EXIT_ENV;
		if (!n) {
			cli_error("compare: no stored runs of '%s' for workload %s (%s) (see: "
				  "contend "
				  "list)",
				  c->labels[i], c->wl, c->params);
			return CT_EXIT_USAGE;
		}
	}
	for (size_t i = 0; i < c->nloads; i++) {
		n = count_runs(st, c, c->labels[0], c->loads[i]);
		if (n < 0)
			return CT_EXIT_ENV;
		if (!n) {
			cli_error("compare: the baseline '%s' has no runs under load '%s'",
				  c->labels[0], c->loads[i]);
			return CT_EXIT_USAGE;
		}
	}
	return 0;
}

/* A config significantly worse than the baseline by more than pct. */
static bool regression(const struct ct_report *rep, double pct)
{
	for (size_t i = 0; pct >= 0 && i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].ncells; j++) {
			const struct ct_report_cell *c = &rep->blocks[i].cells[j];

			if (c->compared && !strcmp(ct_report_verdict(rep, c), "worse") &&
			    c->cmp.have_ratio && fabs(c->cmp.ratio.ratio - 1) * 100 > pct)
				return true;
		}
	return false;
}

static int report(struct ct_store *st, const struct compare_args *a, const struct compared *c)
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
	};
	struct ct_report rep;
	char err[CT_ERRLEN];
	int rc, ex = 0;

	for (size_t i = 0; i < c->nlabels; i++)
		src[i] = (struct ct_report_source){ c->labels[i], 0 };
	for (size_t i = 0; i < c->nloads; i++) {
		const struct ct_load_ops *ops = ct_load_find(c->loads[i]);

		units[i] = ops ? ops->work_unit : NULL;
	}
	rc = ct_report_build(&rep, st, &q, err, sizeof(err));
	if (rc)
		return cli_fail(rc, err);
	printf("contend compare: workload %s (%s), baseline '%s'\n\n", c->wl, c->params,
	       c->labels[0]);
	ct_report_print_table(stdout, &rep);
	ct_report_print_verdicts(stdout, &rep, NULL);
	ct_report_print_flagged(stdout, &rep);
	if (regression(&rep, a->fail_pct)) {
		fflush(stdout);
		cli_error("regression: a load is significantly slower than '%s' by more than %g%%",
			  c->labels[0], a->fail_pct);
		ex = CT_EXIT_REGRESSION;
	}
	ct_report_release(&rep);
	return ex;
}

int cmd_compare(int argc, char **argv)
{
	static const char synopsis[] = "contend compare [options] LABEL...";
	static const char intro[] =
		"compares the stored runs of each LABEL with the baseline (the first LABEL)";
	struct compare_args a = { .confidence = 95, .fail_pct = -1 };
	struct compared c = { 0 };
	struct ct_store *st = NULL;
	struct cli_parsed p;
	int ex;

	ex = cli_parse("compare", synopsis, intro, compare_opts, &a, argc, argv, &p);
	if (ex)
		return ex == 1 ? 0 : ex;
	if (a.baseline)
		c.labels[c.nlabels++] = a.baseline;
	for (int i = p.rest; i < argc; i++) {
		if (a.baseline && !strcmp(argv[i], a.baseline))
			continue;
		if (c.nlabels == CT_REPORT_MAX_ROWS)
			return cli_usage_error("compare", "at most %d configs can be compared",
					       CT_REPORT_MAX_ROWS);
		c.labels[c.nlabels++] = argv[i];
	}
	if (c.nlabels < 2)
		return cli_usage_error("compare",
				       "needs at least two labels (a baseline and another)");
	ex = cli_open_store(a.db, 0, &st);
	if (!ex)
		ex = what_to_compare(st, &a, &c);
	if (!ex)
		ex = check_names(st, &c);
	if (!ex)
		ex = report(st, &a, &c);
	for (size_t i = 0; c.own_loads && i < c.nloads; i++)
		free((char *)c.loads[i]);
	ct_store_close(st);
	return ex;
}
