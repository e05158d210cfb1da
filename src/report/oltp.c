/*
 * The oltp workload's printer, WimMark's layout: per load and config the
 * runs as scores ("Runs (mq-deadline):  1374.22 1487.19 1437.26"), where
 * 1000 is the mean no-load tps of the score reference - by default the
 * first config stored with the same engine parameters - then tps and
 * latency, then each config against the reference. Runs of other engine
 * parameters are never scored; the model only holds runs of these.
 */
#include "internal.h"

#include <math.h>
#include <string.h>

#define metric rp_metric

/* tps, the latency percentiles the workload keeps (oltp: p90, p99.9 and
 * its group commit; pgbench: p95), its I/O classes where it has them, and
 * its cgroup's memory (pgbench: and its server's CPU). */
static void print_figures(FILE *f, const struct ct_report_cell *r)
{
	static const char *const lat[][2] = {
		{ "lat_p50_us", "p50" }, { "lat_p90_us", "p90" },    { "lat_p95_us", "p95" },
		{ "lat_p99_us", "p99" }, { "lat_p999_us", "p99.9" }, { "lat_max_us", "max" },
	};
	double hit = metric(r, "hit_ratio"), peak = metric(r, "mem_peak");
	double lim = metric(r, "mem_limit"), group = metric(r, "group_mean");
	double server = metric(r, "server_cpu_s");
	bool io = !isnan(metric(r, "read_iops"));

	fprintf(f, "  tps %.1f  latency ms", metric(r, CT_METRIC_TPS));
	for (size_t i = 0; i < sizeof(lat) / sizeof(lat[0]); i++)
		if (!isnan(metric(r, lat[i][0])))
			fprintf(f, " %s %.2f", lat[i][1], metric(r, lat[i][0]) / 1e3);
	if (!isnan(group))
		fprintf(f, "  group %.2f", group);
	if (!isnan(hit))
		fprintf(f, "  pool hit %.1f%%", hit * 100);
	if (io)
		fprintf(f,
			"\n  read %.0f IOPS p99 %.2f ms, DB write %.0f IOPS, log %.0f IOPS p99 "
			"%.2f ms",
			metric(r, "read_iops"), metric(r, "read_p99_us") / 1e3,
			metric(r, "dbw_iops"), metric(r, "log_iops"),
			metric(r, "log_p99_us") / 1e3);
	if (!isnan(peak) && !isnan(lim))
		fprintf(f, "%scgroup memory peak %.1f MiB of %.1f MiB", io ? ", " : "\n  ",
			peak / 1048576, lim / 1048576);
	if (!isnan(server))
		fprintf(f, ", server CPU %.1f s a run", server);
	fprintf(f, "\n");
}

static void print_row(FILE *f, const struct ct_report_cell *r)
{
	fprintf(f, "Runs (%s): ", r->label);
	for (size_t i = 0; i < r->n; i++)
		fprintf(f, " %.2f", r->scores ? r->scores[i] : r->values[i]);
	if (!r->n)
		fprintf(f, " (%s)", r->nruns ? "every run failed" : "no runs");
	fprintf(f, "%s\n", !r->scores && r->n ? "  (tps; no reference to score against)" : "");
	if (r->n)
		print_figures(f, r);
	if (r->n)
		rp_probe_line(f, r);
	rp_failed_runs(f, r);
}

void ct_report_print_oltp(FILE *f, const struct ct_report *rep)
{
	char sb[48];

	for (size_t i = 0; i < rep->nblocks; i++) {
		fprintf(f, "%s%s:\n", i ? "\n" : "", rep->blocks[i].load);
		for (size_t j = 0; j < rep->blocks[i].ncells; j++)
			print_row(f, &rep->blocks[i].cells[j]);
	}
	fputc('\n', f);
	if (!isnan(rep->score_tps))
		fprintf(f, "Score = 1000 x tps / %.2f, the no-load mean tps of '%s' (%s%lld)%s\n",
			rep->score_tps, rep->score_label,
			rp_sessions_of(rep->score_nsessions, sb, sizeof(sb)),
			(long long)rep->score_session_id,
			rep->score_default
				? ", the first config stored with these engine parameters"
				: "");
	else if (*rep->score_label)
		fprintf(f,
			"Score: '%s' has no no-load oltp runs with these engine parameters; runs "
			"of other parameters are never scored against each other\n",
			rep->score_label);
	if (!isnan(rep->score_tps))
		ct_report_print_verdicts(f, rep, NULL);
}
