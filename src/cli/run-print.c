/*
 * The report `contend run` prints once its session is stored: built from
 * the store, as `contend compare` builds it later, so what a user sees
 * right after a run is what compare will say. Here are only the session's
 * own headings and notes; the tables are src/report's printers.
 */
#include "run.h"
#include "contend/load.h"
#include "contend/report.h"
#include "contend/workload.h"

#include <stdio.h>
#include <string.h>

/* Why a session's runs will give no verdict, for its header: "" when they
 * can. */
static const char *too_few(const struct ct_session_opts *o)
{
	static char buf[96];
	size_t need = ct_stats_runs_needed(95);

	if (o->runs >= need || o->adaptive)
		return "";
	snprintf(buf, sizeof(buf),
		 "; its %zu runs a load make a table, too few for a verdict (-n %zu)",
		 (size_t)o->runs, need);
	return buf;
}

static void print_adaptive(FILE *f, const struct ct_session *s)
{
	for (size_t i = 0; i < s->ncells; i++) {
		const struct ct_cell_outcome *c = &s->cells[i];

		fprintf(f,
			"%sadaptive: %s %s after %u runs (95%% CI of the mean +-%.2f%%, target "
			"+-%g%%)\n",
			i ? "" : "\n", c->load, c->precise ? "precise" : "IMPRECISE", c->runs,
			c->halfwidth_pct, s->opts.precision_pct);
	}
}

/* The verdicts' heading says which test decided them: the signed-rank
 * test pairs the runs of 6 blocks or more, fewer leave it to U. */
static const char *verdict_note(const struct ct_report *rep, bool sequential)
{
	size_t paired = 0, unpaired = 0;

	if (sequential)
		return "sequential runs: unpaired tests";
	for (size_t i = 0; i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].ncells; j++) {
			const struct ct_report_cell *c = &rep->blocks[i].cells[j];

			if (!c->compared || c->cmp.decided_by == CT_TEST_NONE)
				continue;
			if (c->cmp.decided_by == CT_TEST_SIGNED_RANK)
				paired++;
			else
				unpaired++;
		}
	if (paired && unpaired)
		return "interleaved blocks: the signed-rank test decides where 6 blocks or more "
		       "paired, U elsewhere";
	if (unpaired)
		return "interleaved blocks: under the 6 paired blocks the signed-rank test needs, "
		       "so U decides";
	return "interleaved blocks: the signed-rank test decides from 6 blocks";
}

/* The report of what the session stored: one config's table (WimMark's
 * scores for a scored workload), or every config's with the verdicts of
 * each against the first. */
int run_print(struct run_args *a, struct ct_store *st)
{
	const struct ct_session *s = &a->s;
	const struct ct_session_opts *o = &s->opts;
	const struct ct_workload_ops *w = ct_workload_find(o->workload);
	bool scored = w->flags & CT_WL_SCORED;
	struct ct_report_source src[CT_SESSION_MAX_CONFIGS + 1];
	const char *units[CT_SESSION_MAX_LOADS];
	struct ct_report_query q = {
		.workload = o->workload,
		.params = s->workload_params,
		.src = src,
		.loads = o->loads,
		.work_units = units,
		.nloads = o->nloads,
		.confidence = 95,
		.score = scored,
	};
	struct ct_report rep;
	struct cli_out *out = &a->out;
	char err[CT_ERRLEN];
	bool text = out->fmt == CT_FORMAT_TEXT;
	FILE *f;
	int rc = 0, ex;

	ex = cli_out_open(out, a->cmd);
	if (ex)
		return ex;
	f = out->f;
	for (size_t i = 0; i < o->nloads; i++)
		units[i] = ct_load_find(o->loads[i])->work_unit;
	if (s->ncfg > 1) {
		for (size_t k = 0; k < s->ncfg; k++)
			src[q.nsrc++] =
				(struct ct_report_source){ s->cfg[k].label, s->cfg[k].rec.id };
		q.ref_label = a->baseline;
		q.base_label = scored && a->baseline ? a->baseline : s->cfg[0].label;
		q.score_label = q.base_label;
		if (text)
			fprintf(f,
				"contend: workload %s (%s), %zu configs [%s order, seed %llu], "
				"sessions "
				"%lld-%lld\n",
				o->workload, s->workload_params, s->ncfg,
				o->sequential ? "sequential" : "interleaved",
				(unsigned long long)o->order_seed, (long long)s->cfg[0].rec.id,
				(long long)s->cfg[s->ncfg - 1].rec.id);
		if (s->env.quick && text)
			fprintf(f, "profile: quick - scaled-down sizes, for a first look%s\n",
				too_few(o));
	} else {
		if (a->baseline && strcmp(a->baseline, s->cfg[0].label))
			src[q.nsrc++] = (struct ct_report_source){ a->baseline, 0 };
		src[q.nsrc++] = (struct ct_report_source){ s->cfg[0].label, s->rec.id };
		q.base_label = a->baseline;
		q.ref_label = a->baseline ? a->baseline : s->cfg[0].label;
		q.score_label = a->baseline;
		/* one config's session: its config is cfg[0], which a --set knob
		 * gives a label and machine facts of its own */
		if (text)
			fprintf(f, "contend: workload %s (%s), config '%s' [%s], session %lld\n",
				o->workload, s->workload_params, s->cfg[0].label,
				s->cfg[0].si.fingerprint, (long long)s->rec.id);
		if (s->env.quick && text)
			fprintf(f,
				"profile: quick - scaled-down %s sizes, for a first look; use the "
				"full profile for comparisons%s\n",
				run_takes(w, "tree") ? "kbuild tree and load" : "load", too_few(o));
	}
	if (text)
		fprintf(f, "\n");
	if (ct_report_build(&rep, st, &q, err, sizeof(err))) {
		cli_out_close(out, a->cmd, false);
		cli_error("%s", err);
		return CT_EXIT_ENV;
	}
	if (!text)
		rc = cli_out_report(out, &rep, a->cmd);
	else if (scored)
		ct_report_print_oltp(f, &rep);
	else if (rep.figure_kind == CT_FIGURE_LATENCY)
		ct_report_print_latency(f, &rep);
	else if (rep.figure_kind != CT_FIGURE_TIME)
		ct_report_print_figures(f, &rep);
	else
		ct_report_print_table(f, &rep);
	if (text && !scored && s->ncfg > 1)
		ct_report_print_verdicts(f, &rep, verdict_note(&rep, o->sequential));
	if (text && !scored && s->ncfg == 1)
		print_adaptive(f, s);
	ct_report_release(&rep);
	ex = cli_out_close(out, a->cmd, !rc);
	if (!ex && rc)
		ex = cli_fail(rc, "cannot print the report");
	return ex;
}
