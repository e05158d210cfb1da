/*
 * The oltp workload's report, WimMark's layout: per load and config the
 * runs as scores ("Runs (mq-deadline):  1374.22 1487.19 1437.26"), where
 * 1000 is the mean no-load tps of the reference config - by default the
 * first config stored with the same engine parameters - then tps and
 * latency, then each config against the reference with the statistics of
 * DESIGN.md section 5. Runs of other engine parameters are never scored.
 */
#include "contend/oltp.h"
#include "contend/report.h"
#include "contend/verdict.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct orow {
	const char *label;
	int64_t session_id;
	struct ct_run *runs; /* every run, ok or not */
	size_t n, nok;
	double *tps;	 /* of the ok runs */
	double *pb, *po; /* paired values (blocks), npairs */
	size_t npairs;
};

static int fetch(struct ct_store *st, const char *label, int64_t session, const char *params,
		 const char *load, struct orow *r, char *err, size_t len)
{
	struct ct_run_filter f = {
		.label = label, .workload = "oltp", .load = load, .workload_params = params
	};
	int rc;

	memset(r, 0, sizeof(*r));
	r->label = label;
	f.session_id = session;
	if (!f.session_id) {
		rc = ct_store_latest_session_with(st, label, "oltp", load, params, &f.session_id,
						  err, len);
		if (rc || !f.session_id)
			return rc;
	}
	r->session_id = f.session_id;
	rc = ct_store_runs(st, &f, &r->runs, &r->n, err, len);
	if (rc)
		return rc;
	r->tps = malloc((r->n ? r->n : 1) * sizeof(*r->tps));
	if (!r->tps)
		return ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t i = 0; i < r->n; i++)
		if (r->runs[i].status == CT_RUN_OK &&
		    !ct_run_metric(&r->runs[i], CT_METRIC_TPS, &r->tps[r->nok]))
			r->nok++;
	return 0;
}

static void drop(struct orow *r)
{
	free(r->runs);
	free(r->tps);
	memset(r, 0, sizeof(*r));
}

static double mean(const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	return n ? s / (double)n : NAN;
}

/* Mean of a metric over the ok runs, NaN when none has it. */
static double metric_mean(const struct orow *r, const char *name)
{
	double s = 0, v;
	size_t k = 0;

	for (size_t i = 0; i < r->n; i++)
		if (r->runs[i].status == CT_RUN_OK && !ct_run_metric(&r->runs[i], name, &v)) {
			s += v;
			k++;
		}
	return k ? s / (double)k : NAN;
}

int ct_report_oltp_reference(struct ct_store *st, const char *params, char *label, size_t len,
			     char *err, size_t elen)
{
	struct ct_run_filter f = {
		.workload = "oltp", .load = "none", .workload_params = params, .ok_only = true
	};
	struct ct_run *runs = NULL;
	size_t n = 0;
	int rc;

	label[0] = '\0';
	rc = ct_store_runs(st, &f, &runs, &n, err, elen);
	if (rc)
		return rc;
	if (n)
		snprintf(label, len, "%s", runs[0].label);
	free(runs);
	return 0;
}

static void print_row(FILE *f, const struct orow *r, double ref)
{
	fprintf(f, "Runs (%s): ", r->label);
	for (size_t i = 0; i < r->nok; i++) {
		double s = ct_oltp_score(r->tps[i], ref);

		fprintf(f, " %.2f", isnan(s) ? r->tps[i] : s);
	}
	if (!r->nok)
		fprintf(f, " (%s)", r->n ? "every run failed" : "no runs");
	fprintf(f, "%s\n", isnan(ref) && r->nok ? "  (tps; no reference to score against)" : "");
	if (r->nok) {
		double hit = metric_mean(r, "hit_ratio");

		fprintf(f,
			"  tps %.1f  latency ms p50 %.2f p90 %.2f p99 %.2f p99.9 %.2f max %.2f"
			"  group %.2f",
			mean(r->tps, r->nok), metric_mean(r, "lat_p50_us") / 1e3,
			metric_mean(r, "lat_p90_us") / 1e3, metric_mean(r, "lat_p99_us") / 1e3,
			metric_mean(r, "lat_p999_us") / 1e3, metric_mean(r, "lat_max_us") / 1e3,
			metric_mean(r, "group_mean"));
		if (!isnan(hit))
			fprintf(f, "  pool hit %.1f%%", hit * 100);
		fprintf(f,
			"\n  read %.0f IOPS p99 %.2f ms, DB write %.0f IOPS, log %.0f IOPS p99 "
			"%.2f ms",
			metric_mean(r, "read_iops"), metric_mean(r, "read_p99_us") / 1e3,
			metric_mean(r, "dbw_iops"), metric_mean(r, "log_iops"),
			metric_mean(r, "log_p99_us") / 1e3);
		double peak = metric_mean(r, "mem_peak"), lim = metric_mean(r, "mem_limit");

		if (!isnan(peak) && !isnan(lim))
			fprintf(f, ", cgroup memory peak %.1f MiB of %.1f MiB", peak / 1048576,
				lim / 1048576);
		fprintf(f, "\n");
	}
	for (size_t i = 0; i < r->n; i++)
		if (r->runs[i].status != CT_RUN_OK)
			fprintf(f, "  %s run %u %s: %s\n", r->label, r->runs[i].seq,
				ct_run_status_name(r->runs[i].status), r->runs[i].reason);
}

int ct_report_print_oltp(FILE *f, struct ct_store *st, const char *params,
			 const struct ct_report_source *src, size_t nsrc, const char *const *loads,
			 size_t nloads, const char *baseline, bool paired, double confidence,
			 char *err, size_t len)
{
	char ref_label[128];
	struct orow ref = { 0 }, *rows = NULL, *refrows = NULL;
	double ref_tps = NAN;
	int rc;

	if (baseline)
		snprintf(ref_label, sizeof(ref_label), "%s", baseline);
	else {
		rc = ct_report_oltp_reference(st, params, ref_label, sizeof(ref_label), err, len);
		if (rc)
			return rc;
	}
	if (*ref_label) {
		int64_t sess = 0;

		for (size_t j = 0; j < nsrc; j++)
			if (!strcmp(src[j].label, ref_label))
				sess = src[j].session_id;
		rc = fetch(st, ref_label, sess, params, "none", &ref, err, len);
		if (rc)
			goto out;
		if (!ref.nok && sess) {
			drop(&ref);
			rc = fetch(st, ref_label, 0, params, "none", &ref, err, len);
			if (rc)
				goto out;
		}
		ref_tps = mean(ref.tps, ref.nok);
	}
	rows = calloc(nsrc * nloads + 1, sizeof(*rows));
	refrows = calloc(nloads + 1, sizeof(*refrows));
	if (!rows || !refrows) {
		rc = ct_err(err, len, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < nloads; i++) {
		fprintf(f, "%s%s:\n", i ? "\n" : "", loads[i]);
		for (size_t j = 0; j < nsrc; j++) {
			struct orow *r = &rows[i * nsrc + j];

			rc = fetch(st, src[j].label, src[j].session_id, params, loads[i], r, err,
				   len);
			if (rc)
				goto out;
			print_row(f, r, ref_tps);
		}
	}
	fputc('\n', f);
	if (!isnan(ref_tps))
		fprintf(f,
			"Score = 1000 x tps / %.2f, the no-load mean tps of '%s' (session "
			"%lld)%s\n",
			ref_tps, ref_label, (long long)ref.session_id,
			baseline ? "" : ", the first config stored with these engine parameters");
	else if (*ref_label)
		fprintf(f,
			"Score: '%s' has no no-load oltp runs with these engine parameters; runs "
			"of "
			"other parameters are never scored against each other\n",
			ref_label);
	if (isnan(ref_tps))
		goto out;

	/* each config against the reference, Holm across the loads */
	for (size_t j = 0; j < nsrc; j++) {
		struct ct_verdict v[64];

		if (!strcmp(src[j].label, ref_label))
			continue;
		if (nloads > 64)
			break;
		for (size_t i = 0; i < nloads; i++) {
			struct orow *r = &rows[i * nsrc + j], *b = &refrows[i];

			if (!b->runs && !b->tps) {
				rc = fetch(st, ref_label,
					   ref.session_id && !strcmp(loads[i], "none")
						   ? ref.session_id
						   : 0,
					   params, loads[i], b, err, len);
				if (rc)
					goto out;
			}
			size_t np2 = 0;
			double *pa = NULL, *pb = NULL;

			if (paired && b->n && r->n) {
				pa = malloc(b->n * sizeof(*pa));
				pb = malloc(b->n * sizeof(*pb));
				if (pa && pb)
					np2 = ct_verdict_pair(b->runs, b->n, r->runs, r->n, pa, pb);
			}
			ct_verdict_tests(&v[i], b->tps, b->nok, r->tps, r->nok, pa, pb, np2, true,
					 confidence);
			free(pa);
			free(pb);
		}
		rc = ct_verdict_holm(v, nloads, 1, confidence);
		if (rc) {
			ct_err(err, len, rc, "cannot adjust the p-values");
			goto out;
		}
		fprintf(f,
			"\ntps against '%s' (Holm-adjusted across %zu loads, %g%% confidence):\n",
			ref_label, nloads, confidence);
		for (size_t i = 0; i < nloads; i++)
			ct_verdict_print(f, loads[i], src[j].label, ref_label, &v[i]);
	}
	rc = 0;
out:
	for (size_t i = 0; rows && i < nsrc * nloads; i++)
		drop(&rows[i]);
	for (size_t i = 0; refrows && i < nloads; i++)
		drop(&refrows[i]);
	free(rows);
	free(refrows);
	drop(&ref);
	return rc;
}
