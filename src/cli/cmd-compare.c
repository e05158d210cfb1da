/*
 * `contend compare`: stored runs of several configs side by side, contest's
 * rows per load, then for every config against the baseline the effect on
 * Time with Fieller's interval, Welch's and Mann-Whitney's p-values and a
 * verdict whose p-values are Holm-adjusted across the loads compared.
 * `--fail-on-regression PCT` makes it a gate for a kernel CI: exit 1 when a
 * load is significantly slower by more than PCT percent.
 */
#include "cli.h"
#include "contend/report.h"
#include "contend/stats.h"
#include "contend/store.h"
#include "contend/util.h"
#include "contend/verdict.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LOADS 32

static void compare_usage(FILE *f)
{
	fputs("usage: contend compare [options] LABEL...\n"
	      "\n"
	      "  compares the stored runs of each LABEL with the baseline (the first LABEL)\n"
	      "      --baseline LABEL            the config the others are compared with\n"
	      "  -w, --workload NAME             workload (default: the baseline's latest)\n"
	      "  -l, --loads LIST                loads (default: those the baseline has)\n"
	      "      --confidence PCT            confidence level (default 95)\n"
	      "      --fail-on-regression PCT    exit 1 when a load is significantly slower\n"
	      "                                  than the baseline by more than PCT percent\n"
	      "      --db PATH                   results store\n",
	      f);
}

int cli_row_runs(struct ct_store *st, int64_t session, const char *label, const char *workload,
		 const char *params, const char *load, struct cli_row_runs *rr, char *err,
		 size_t len)
{
	struct ct_run_filter f = { .session_id = session,
				   .label = label,
				   .workload = workload,
				   .load = load,
				   .workload_params = params,
				   .ok_only = true };
	int rc;

	memset(rr, 0, sizeof(*rr));
	if (!session)
		return 0;
	rc = ct_store_runs(st, &f, &rr->runs, &rr->n, err, len);
	if (rc)
		return rc;
	rr->t = malloc((rr->n ? rr->n : 1) * sizeof(*rr->t));
	if (!rr->t)
		return ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t i = 0; i < rr->n; i++)
		rr->t[i] = ct_run_value(&rr->runs[i]);
	return 0;
}

void cli_row_runs_free(struct cli_row_runs *rr)
{
	free(rr->runs);
	free(rr->t);
	memset(rr, 0, sizeof(*rr));
}

/*
 * Interference a run's monitors recorded, as a share of its wall time: CPU
 * used outside contend and steal. A run that is an outlier and shows
 * foreign CPU above 10% or steal above 2% is a likely fluke. PSI is printed
 * as context only: a -j8 compile on two CPUs, or the load itself, makes
 * pressure of its own (measured: PSI cpu some 91% on a quiet machine).
 */
static bool interfered(const struct ct_run *r, char *buf, size_t len)
{
	double wall = (double)r->wall_ns / 1e3, psi = 0;
	const char *res[] = { "cpu", "io", "memory" }, *worst = "cpu";

	for (int k = 0; k < 3 && r->mon.have_psi; k++)
		if ((double)r->mon.psi_us[k][0] > psi) {
			psi = (double)r->mon.psi_us[k][0];
			worst = res[k];
		}
	snprintf(buf, len, "foreign CPU %.0f%%, steal %.1f%%, PSI %s some %.0f%%",
		 100 * (double)r->mon.foreign_cpu_us / wall, 100 * (double)r->mon.steal_us / wall,
		 worst, 100 * psi / wall);
	return wall > 0 && ((double)r->mon.foreign_cpu_us > 0.10 * wall ||
			    (double)r->mon.steal_us > 0.02 * wall);
}

/* Lists the runs of one row flagged as outliers, with their evidence and
 * the mean without them. */
static int print_flagged(const char *label, const char *load, const struct cli_row_runs *rr,
			 const char *unit)
{
	double kept = 0;
	bool *flag;
	size_t nflag = 0;

	if (rr->n < 3)
		return 0;
	flag = calloc(rr->n, sizeof(*flag));
	if (!flag)
		return -ENOMEM;
	if (ct_stats_outliers(rr->t, rr->n, flag, &nflag) || !nflag) {
		free(flag);
		return 0;
	}
	for (size_t i = 0; i < rr->n; i++) {
		char ev[160];
		bool fluke;

		if (!flag[i]) {
			kept += rr->t[i];
			continue;
		}
		fluke = interfered(&rr->runs[i], ev, sizeof(ev));
		printf("%-9s %s run %u flagged (%.2f %s): %s; %s\n", load, label, rr->runs[i].seq,
		       rr->t[i], unit, ev, fluke ? "likely fluke" : "no interference seen");
	}
	printf("%-9s %s mean without flagged runs: %.2f %s (%zu runs)\n", load, label,
	       kept / (double)(rr->n - nflag), unit, rr->n - nflag);
	free(flag);
	return 0;
}

/* The first config's session of an interleaved --vary session ("first=0"
 * for that one itself), or 0 when id was not part of one. */
static int64_t interleaved_group(const struct ct_session_rec *recs, size_t n, int64_t id)
{
	for (size_t i = 0; i < n; i++) {
		long long first;

		if (recs[i].id != id)
			continue;
		if (strncmp(recs[i].schedule, "interleaved ", 12))
			return 0;
		if (!strstr(recs[i].schedule, "first=") ||
		    sscanf(strstr(recs[i].schedule, "first="), "first=%lld", &first) != 1)
			return 0;
		return first ? first : id;
	}
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "baseline", required_argument, NULL, 'b' },
		{ "workload", required_argument, NULL, 'w' },
		{ "loads", required_argument, NULL, 'l' },
		{ "confidence", required_argument, NULL, 'c' },
		{ "fail-on-regression", required_argument, NULL, 'f' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *baseline = NULL, *workload = NULL, *db = NULL;
	const char *labels[CT_REPORT_MAX_ROWS], *loads[MAX_LOADS];
	struct ct_report_source src[CT_REPORT_MAX_ROWS];
	char loadbuf[512] = "", params[256] = "", wl[32] = "", err[CT_ERRLEN] = "", *save = NULL,
	     *tok;
	double confidence = 95, fail_pct = -1;
	struct ct_store *st = NULL;
	struct ct_run *runs = NULL;
	struct ct_report rep = { 0 };
	struct ct_verdict *v = NULL;
	struct cli_row_runs *rr = NULL;
	struct ct_session_rec *recs = NULL;
	size_t nrecs = 0;
	size_t nlabels = 0, nloads = 0, n = 0;
	int c, rc, ex = 0;
	bool regression = false, tps = false;

	optind = 1;
	while ((c = getopt_long(argc, argv, "w:l:h", opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			baseline = optarg;
			break;
		case 'w':
			workload = optarg;
			break;
		case 'l':
			snprintf(loadbuf, sizeof(loadbuf), "%s", optarg);
			break;
		case 'c':
			if (cli_parse_confidence(optarg, &confidence))
				return CT_EXIT_USAGE;
			break;
		case 'f':
			if (ct_parse_double(optarg, &fail_pct) && strcmp(optarg, "0")) {
				cli_error("invalid value '%s' for --fail-on-regression", optarg);
				return CT_EXIT_USAGE;
			}
			if (!strcmp(optarg, "0"))
				fail_pct = 0;
			break;
		case 'd':
			db = optarg;
			break;
		case 'h':
			compare_usage(stdout);
			return 0;
		default:
			compare_usage(stderr);
			return CT_EXIT_USAGE;
		}
	}
	if (baseline)
		labels[nlabels++] = baseline;
	for (int i = optind; i < argc; i++) {
		if (baseline && !strcmp(argv[i], baseline))
			continue;
		if (nlabels == CT_REPORT_MAX_ROWS) {
			cli_error("at most %d configs can be compared", CT_REPORT_MAX_ROWS);
			return CT_EXIT_USAGE;
		}
		labels[nlabels++] = argv[i];
	}
	if (nlabels < 2) {
		cli_error("compare needs at least two labels (a baseline and another)");
		return CT_EXIT_USAGE;
	}
	ex = cli_open_store(db, &st);
	if (ex)
		return ex;

	/* the baseline's latest run says which workload and parameters */
	{
		struct ct_run_filter f = { .label = labels[0],
					   .workload = workload,
					   .ok_only = true };

		rc = ct_store_runs(st, &f, &runs, &n, err, sizeof(err));
		if (rc) {
			ex = cli_fail(rc, err);
			goto out;
		}
		if (!n) {
			cli_error("no stored runs of '%s'%s%s", labels[0], workload ? " for " : "",
				  workload ? workload : "");
			ex = CT_EXIT_USAGE;
			goto out;
		}
		snprintf(wl, sizeof(wl), "%s", runs[n - 1].workload);
		workload = wl;
		snprintf(params, sizeof(params), "%s", runs[n - 1].workload_params);
		tps = ct_run_higher_better(&runs[n - 1]);
	}
	if (*loadbuf) {
		for (tok = strtok_r(loadbuf, ",", &save); tok && nloads < MAX_LOADS;
		     tok = strtok_r(NULL, ",", &save))
			loads[nloads++] = tok;
	} else {
		for (size_t i = 0; i < n && nloads < MAX_LOADS; i++) {
			bool seen = false;

			if (strcmp(runs[i].workload, workload) ||
			    strcmp(runs[i].workload_params, params))
				continue;
			for (size_t k = 0; k < nloads && !seen; k++)
				seen = !strcmp(loads[k], runs[i].load);
			if (!seen) {
				loads[nloads] = strdup(runs[i].load);
				if (loads[nloads])
					nloads++;
			}
		}
	}
	for (size_t i = 0; i < nlabels; i++)
		src[i] = (struct ct_report_source){ labels[i], 0 };
	rc = ct_report_build(&rep, st, workload, params, src, nlabels, loads, nloads, labels[0],
			     err, sizeof(err));
	if (rc) {
		ex = cli_fail(rc, err);
		goto out;
	}
	printf("contend compare: workload %s (%s), baseline '%s'\n\n", workload, params, labels[0]);
	ct_report_print_text(stdout, &rep);
	printf("\n%s against '%s' (Holm-adjusted across %zu loads, %g%% confidence):\n",
	       tps ? "tps" : "Time", labels[0], nloads, confidence);

	v = calloc(nloads * nlabels, sizeof(*v));
	rr = calloc(nloads * nlabels, sizeof(*rr));
	if (!v || !rr) {
		ex = cli_fail(-ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < nloads; i++)
		for (size_t j = 0; j < nlabels; j++) {
			rc = cli_row_runs(st, rep.blocks[i].rows[j].session_id, labels[j], workload,
					  params, loads[i], &rr[i * nlabels + j], err, sizeof(err));
			if (rc) {
				ex = cli_fail(rc, err);
				goto out;
			}
		}
	/* configs of one interleaved session pair their runs by block */
	rc = ct_store_sessions(st, 0, &recs, &nrecs, err, sizeof(err));
	if (rc) {
		ex = cli_fail(rc, err);
		goto out;
	}
	for (size_t j = 1; j < nlabels; j++) {
		for (size_t i = 0; i < nloads; i++) {
			struct ct_verdict *vi = &v[i * nlabels + j];
			const struct cli_row_runs *b = &rr[i * nlabels], *o = &rr[i * nlabels + j];
			int64_t group =
				b->n ? interleaved_group(recs, nrecs, b->runs[0].session_id) : 0;
			double *pa = NULL, *pb = NULL;
			size_t npair = 0;

			if (group && o->n && b->runs[0].session_id != o->runs[0].session_id &&
			    interleaved_group(recs, nrecs, o->runs[0].session_id) == group) {
				pa = calloc(b->n, sizeof(*pa));
				pb = calloc(b->n, sizeof(*pb));
				if (pa && pb)
					npair = ct_verdict_pair(b->runs, b->n, o->runs, o->n, pa,
								pb);
			}
			ct_verdict_tests(vi, b->t, b->n, o->t, o->n, pa, pb, npair,
					 b->n && ct_run_higher_better(&b->runs[0]), confidence);
			free(pa);
			free(pb);
		}
		rc = ct_verdict_holm(&v[j], nloads, nlabels, confidence);
		if (rc) {
			ex = cli_fail(rc, "cannot adjust the p-values");
			goto out;
		}
		for (size_t i = 0; i < nloads; i++) {
			const struct ct_verdict *vi = &v[i * nlabels + j];

			if (ct_verdict_worse(vi) && fail_pct >= 0 && vi->have_ratio &&
			    fabs(vi->ratio.ratio - 1) * 100 > fail_pct)
				regression = true;
		}
		for (size_t i = 0; i < nloads; i++)
			ct_verdict_print(stdout, loads[i], labels[j], labels[0],
					 &v[i * nlabels + j]);
	}
	for (size_t i = 0; i < nloads; i++)
		for (size_t j = 0; j < nlabels; j++) {
			rc = print_flagged(labels[j], loads[i], &rr[i * nlabels + j],
					   tps ? "tps" : "s");
			if (rc) {
				ex = cli_fail(rc, "out of memory");
				goto out;
			}
		}
	if (regression) {
		cli_error("regression: a load is significantly slower than '%s' by more than %g%%",
			  labels[0], fail_pct);
		ex = CT_EXIT_REGRESSION;
	}
out:
	for (size_t i = 0; rr && i < nloads * nlabels; i++)
		cli_row_runs_free(&rr[i]);
	free(rr);
	if (!*loadbuf)
		for (size_t i = 0; i < nloads; i++)
			free((char *)loads[i]);
	free(v);
	free(recs);
	free(runs);
	ct_report_release(&rep);
	ct_store_close(st);
	return ex;
}
