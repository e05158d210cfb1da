/*
 * The report model and its text printer, contest's layout: a block per load,
 * a row per config, means over the run group, Ratio against the reference
 * config's no-load mean. Failed runs are listed under their block with the
 * reason; they never enter a mean.
 */
#include "contend/report.h"
#include "contend/load.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int reference_time(struct ct_report *rep, struct ct_store *st, const char *workload,
			  const char *params, const struct ct_report_source *src, size_t nsrc,
			  char *err, size_t len)
{
	struct ct_run_filter f = {
		.label = rep->ref_label,
		.workload = workload,
		.load = "none",
		.workload_params = params,
		.ok_only = true,
	};
	struct ct_run *runs = NULL;
	struct ct_run_group g;
	size_t n = 0;
	int rc;

	rep->ref_time_s = NAN;
	for (size_t i = 0; i < nsrc; i++)
		if (!strcmp(src[i].label, rep->ref_label) && src[i].session_id)
			f.session_id = src[i].session_id;
	if (f.session_id) {
		rc = ct_store_runs(st, &f, &runs, &n, err, len);
		if (rc)
			return rc;
	}
	if (!n) {
		free(runs);
		runs = NULL;
		rc = ct_store_latest_session_with(st, rep->ref_label, workload, "none", params,
						  &f.session_id, err, len);
		if (rc)
			return rc;
		if (!f.session_id)
			return 0;
		rc = ct_store_runs(st, &f, &runs, &n, err, len);
		if (rc)
			return rc;
	}
	ct_run_group(runs, n, &g);
	if (g.n) {
		rep->ref_time_s = g.time_s;
		rep->ref_session_id = f.session_id;
	}
	free(runs);
	return 0;
}

static int build_row(struct ct_report_row *row, struct ct_store *st, const char *workload,
		     const char *params, const struct ct_report_source *src, const char *load,
		     char *err, size_t len)
{
	struct ct_run_filter f = {
		.session_id = src->session_id,
		.label = src->label,
		.workload = workload,
		.load = load,
		.workload_params = params,
	};
	struct ct_run *runs = NULL;
	size_t n = 0;
	int rc;

	memset(row, 0, sizeof(*row));
	snprintf(row->label, sizeof(row->label), "%s", src->label);
	row->ratio = NAN;
	if (!f.session_id) {
		rc = ct_store_latest_session_with(st, src->label, workload, load, params,
						  &f.session_id, err, len);
		if (rc)
			return rc;
		if (!f.session_id)
			return 0;
	}
	row->session_id = f.session_id;
	rc = ct_store_runs(st, &f, &runs, &n, err, len);
	if (rc)
		return rc;
	ct_run_group(runs, n, &row->g);
	/* keep only the failed runs, compacted to the front */
	for (size_t i = 0; i < n; i++)
		if (runs[i].status != CT_RUN_OK)
			runs[row->nfailed++] = runs[i];
	if (row->nfailed)
		row->failed = runs;
	else
		free(runs);
	return 0;
}

int ct_report_build(struct ct_report *rep, struct ct_store *st, const char *workload,
		    const char *workload_params, const struct ct_report_source *src, size_t nsrc,
		    const char *const *loads, size_t nloads, const char *ref_label, char *err,
		    size_t len)
{
	int rc = 0;

	memset(rep, 0, sizeof(*rep));
	if (!nsrc || nsrc > CT_REPORT_MAX_ROWS)
		return ct_err(err, len, -EINVAL, "a report needs 1 to %d configs",
			      CT_REPORT_MAX_ROWS);
	snprintf(rep->workload, sizeof(rep->workload), "%s", workload);
	snprintf(rep->ref_label, sizeof(rep->ref_label), "%s",
		 ref_label ? ref_label : src[0].label);
	rep->blocks = calloc(nloads ? nloads : 1, sizeof(*rep->blocks));
	if (!rep->blocks)
		return ct_err(err, len, -ENOMEM, "out of memory");
	rc = reference_time(rep, st, workload, workload_params, src, nsrc, err, len);
	if (rc)
		goto fail;
	for (size_t i = 0; i < nloads; i++) {
		struct ct_report_block *b = &rep->blocks[rep->nblocks++];
		const struct ct_load_ops *ops = ct_load_find(loads[i]);

		snprintf(b->load, sizeof(b->load), "%s", loads[i]);
		b->work_unit = ops ? ops->work_unit : NULL;
		for (size_t j = 0; j < nsrc; j++) {
			struct ct_report_row *row = &b->rows[b->nrows++];

			rc = build_row(row, st, workload, workload_params, &src[j], loads[i], err,
				       len);
			if (rc)
				goto fail;
			if (row->g.n && !isnan(rep->ref_time_s) && rep->ref_time_s > 0)
				row->ratio = row->g.time_s / rep->ref_time_s;
		}
	}
	return 0;
fail:
	ct_report_release(rep);
	return rc;
}

void ct_report_release(struct ct_report *rep)
{
	for (size_t i = 0; i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].nrows; j++)
			free(rep->blocks[i].rows[j].failed);
	free(rep->blocks);
	rep->blocks = NULL;
	rep->nblocks = 0;
}

/* contest printed seconds with two decimals; short runs need more */
static const char *fmt_time(double s, char *buf, size_t len)
{
	snprintf(buf, len, s >= 1 ? "%.2f" : s >= 0.01 ? "%.3f" : "%.5f", s);
	return buf;
}

static int label_width(const struct ct_report *rep)
{
	int w = 16;

	for (size_t i = 0; i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].nrows; j++) {
			int l = (int)strlen(rep->blocks[i].rows[j].label);
			if (l > w)
				w = l;
		}
	return w;
}

void ct_report_print_text(FILE *f, const struct ct_report *rep)
{
	int w = label_width(rep);
	char tbuf[32];

	for (size_t i = 0; i < rep->nblocks; i++) {
		const struct ct_report_block *b = &rep->blocks[i];
		bool noload = !strcmp(b->load, "none");

		if (i)
			fputc('\n', f);
		fprintf(f, "%s:\n", b->load);
		fprintf(f, "%-*s  %-6s %-8s %-5s %-8s %-6s %s\n", w, "Kernel", "[runs]", "Time",
			"CPU%", "Loads", "LCPU%", "Ratio");
		for (size_t j = 0; j < b->nrows; j++) {
			const struct ct_report_row *r = &b->rows[j];
			char loads[32], lcpu[16], ratio[16], cpu[16], time[16];

			if (!r->g.n) {
				fprintf(f, "%-*s  %-6s %s\n", w, r->label, "0",
					r->nfailed ? "(every run failed)" : "(no runs)");
			} else {
				fmt_time(r->g.time_s, time, sizeof(time));
				snprintf(cpu, sizeof(cpu), "%.0f%%", r->g.cpu_pct);
				if (noload) {
					snprintf(loads, sizeof(loads), "-");
					snprintf(lcpu, sizeof(lcpu), "-");
				} else {
					snprintf(loads, sizeof(loads), "%.0f", r->g.loads);
					snprintf(lcpu, sizeof(lcpu), "%.0f%%", r->g.lcpu_pct);
				}
				if (isnan(r->ratio))
					snprintf(ratio, sizeof(ratio), "-");
				else
					snprintf(ratio, sizeof(ratio), "%.2f", r->ratio);
				fprintf(f, "%-*s  %-6u %-8s %-5s %-8s %-6s %s\n", w, r->label,
					r->g.n, time, cpu, loads, lcpu, ratio);
			}
			for (size_t k = 0; k < r->nfailed; k++)
				fprintf(f, "  %s run %u %s: %s\n", r->label, r->failed[k].seq,
					ct_run_status_name(r->failed[k].status),
					r->failed[k].reason);
		}
	}
	if (isnan(rep->ref_time_s))
		fprintf(f, "\nRatio: no no-load runs of '%s' for this workload\n", rep->ref_label);
	else
		fprintf(f, "\nRatio = Time / %s s, the no-load mean of '%s' (session %lld)\n",
			fmt_time(rep->ref_time_s, tbuf, sizeof(tbuf)), rep->ref_label,
			(long long)rep->ref_session_id);
	bool first = true;

	for (size_t i = 0; i < rep->nblocks; i++) {
		const struct ct_report_block *b = &rep->blocks[i];

		if (!b->work_unit || !strcmp(b->load, "none"))
			continue;
		fprintf(f, "%s%s = %s", first ? "Loads: " : ", ", b->load, b->work_unit);
		first = false;
	}
	if (!first)
		fputc('\n', f);
}
