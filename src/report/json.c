/*
 * The JSON printers, written with jansson: the report model whole (every
 * run of every cell, its summary, flagged runs with their evidence, the
 * comparison with the baseline), `stats`' datasets and comparisons (its
 * keys of before "schema" came, kept), the stored sessions and the system
 * facts. Every document says "schema": "contend/1"; docs/schema/
 * contend-1.json describes them and the tests validate against it. A
 * figure that does not exist (no ratio, no interval) is null, never 0.
 */
#include "internal.h"
#include "contend/fleet.h"
#include "contend/history.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SCHEMA "contend/1"

/* A string of the model as JSON: labels are the user's, so bytes that are
 * not UTF-8 become '?' rather than making the document invalid. */
static json_t *jstr(const char *s)
{
	json_t *j = json_string(s);
	char *copy;

	if (j)
		return j;
	copy = strdup(s);
	if (!copy)
		return NULL;
	for (unsigned char *p = (unsigned char *)copy; *p; p++)
		if (*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *jint(int64_t v)
{
	return json_integer((json_int_t)v);
}

/* v, or null when it is negative (a start state not recorded) */
static json_t *jknown(int64_t v)
{
	return v >= 0 ? jint(v) : json_null();
}

static json_t *summary_json(const struct ct_stats_summary *s)
{
	return json_pack(
		"{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "n",
		(json_int_t)s->n, "mean", jnum(s->mean), "sd", jnum(s->sd), "median",
		jnum(s->median), "mad", jnum(s->mad), "min", jnum(s->min), "max", jnum(s->max),
		"cov", jnum(s->cov), "ci_low", jnum(s->ci_low), "ci_high", jnum(s->ci_high),
		"median_ci_low", jnum(s->median_ci_ok ? s->median_ci_low : NAN), "median_ci_high",
		jnum(s->median_ci_ok ? s->median_ci_high : NAN), "aad_median", jnum(s->aad_median));
}

/* The outcome as a word a program can match; a significant one is the
 * verdict's own word ("better", "larger"...). */
static const char *outcome_name(const struct ct_stats_comparison *c, const char *verdict)
{
	switch (c->outcome) {
	case CT_OUTCOME_NOT_ENOUGH:
		return "not_enough";
	case CT_OUTCOME_NO_SPREAD:
		return "no_spread";
	case CT_OUTCOME_NO_DIFFERENCE:
		return "no_difference";
	default:
		return verdict;
	}
}

static const char *decided_by(const struct ct_stats_comparison *c)
{
	return c->decided_by == CT_TEST_SIGNED_RANK ? "signed-rank"
	       : c->decided_by == CT_TEST_RANK	    ? "mann-whitney"
	       : c->decided_by == CT_TEST_SESSIONS  ? "sessions"
	       : c->decided_by == CT_TEST_ACROSS    ? "sessions+machine"
						    : NULL;
}

/* The keys `stats --format json` printed before the schema was versioned,
 * plus the outcome, Holm's p and the pairs. */
static json_t *comparison_json(const char *base, const struct ct_report_cell *d,
			       const struct ct_stats_comparison *c, const char *verdict)
{
	bool ok = c->have_ratio && c->ratio.bounded;
	bool p = d->paired;
	const char *by = decided_by(c);
	json_t *o = json_object();

	json_object_set_new(o, "baseline", jstr(base));
	json_object_set_new(o, "other", jstr(d->label));
	json_object_set_new(o, "welch_t", jnum(c->have_t ? c->t.t : NAN));
	json_object_set_new(o, "welch_df", jnum(c->have_t ? c->t.df : NAN));
	json_object_set_new(o, "welch_p", jnum(c->have_t ? c->t.p : NAN));
	json_object_set_new(o, "mann_whitney_u", jnum(c->have_u ? c->u.stat : NAN));
	json_object_set_new(o, "mann_whitney_p", jnum(c->have_u ? c->u.p : NAN));
	json_object_set_new(o, "paired_t", jnum(p && c->have_pt ? c->pt.t : NAN));
	json_object_set_new(o, "paired_df", jnum(p && c->have_pt ? c->pt.df : NAN));
	json_object_set_new(o, "paired_p", jnum(p && c->have_pt ? c->pt.p : NAN));
	json_object_set_new(o, "wilcoxon_v", jnum(p && c->have_w ? c->w.stat : NAN));
	json_object_set_new(o, "wilcoxon_p", jnum(p && c->have_w ? c->w.p : NAN));
	json_object_set_new(o, "pairs", json_integer((json_int_t)c->npairs));
	json_object_set_new(o, "ratio", jnum(c->have_ratio ? c->ratio.ratio : NAN));
	json_object_set_new(o, "ratio_ci_low", jnum(ok ? c->ratio.low : NAN));
	json_object_set_new(o, "ratio_ci_high", jnum(ok ? c->ratio.high : NAN));
	json_object_set_new(o, "effect_scale",
			    json_string(c->ratio_scale ? "ratio" : "difference"));
	json_object_set_new(o, "effect", jnum(c->effect));
	json_object_set_new(o, "effect_ci_low", jnum(c->effect_low));
	json_object_set_new(o, "effect_ci_high", jnum(c->effect_high));
	json_object_set_new(o, "decided_p", jnum(c->p));
	json_object_set_new(o, "holm_p", jnum(by ? c->p_adj : NAN));
	json_object_set_new(o, "decided_by", by ? json_string(by) : json_null());
	if (d->scope != CT_SCOPE_NONE) {
		static const char *const scopes[] = { [CT_SCOPE_SESSION] = "session",
						      [CT_SCOPE_SESSIONS] = "sessions",
						      [CT_SCOPE_ACROSS] = "across-sessions",
						      [CT_SCOPE_MACHINE] = "machine" };
		bool s = c->decided_by == CT_TEST_SESSIONS || c->decided_by == CT_TEST_ACROSS;
		bool m = c->decided_by == CT_TEST_ACROSS;

		json_object_set_new(o, "scope", json_string(scopes[d->scope]));
		json_object_set_new(o, "sessions_base",
				    s ? json_integer((json_int_t)c->nsessions_base) : json_null());
		json_object_set_new(o, "sessions_other",
				    s ? json_integer((json_int_t)c->nsessions_other) : json_null());
		json_object_set_new(o, "sessions_welch_t", jnum(s ? c->sessions_t.t : NAN));
		json_object_set_new(o, "sessions_welch_df", jnum(s ? c->sessions_t.df : NAN));
		json_object_set_new(o, "sessions_welch_p", jnum(s ? c->sessions_t.p : NAN));
		json_object_set_new(o, "machine_sessions_cov",
				    jnum(m ? ct_stats_between_cov(&c->between) : NAN));
		json_object_set_new(o, "machine_sessions",
				    m ? json_integer((json_int_t)c->between.nsessions)
				      : json_null());
		json_object_set_new(o, "machine_configs",
				    m ? json_integer((json_int_t)c->between.nconfigs)
				      : json_null());
		json_object_set_new(o, "machine_df", jnum(m ? c->between.df : NAN));
		json_object_set_new(o, "machine_pairs",
				    m ? json_integer((json_int_t)c->between.npairs) : json_null());
		json_object_set_new(o, "machine_gap_s",
				    jnum(m ? (double)c->between.gap_ns / 1e9 : NAN));
		json_object_set_new(o, "machine_covers",
				    m ? json_boolean(c->between.covers) : json_null());
	}
	json_object_set_new(o, "outcome", json_string(outcome_name(c, verdict)));
	json_object_set_new(o, "verdict", jstr(verdict));
	return o;
}

/* The figures judged beside the main one, each with its comparison. */
static json_t *extras_json(const struct ct_report *rep, const char *base,
			   const struct ct_report_cell *d)
{
	json_t *arr = json_array();

	for (unsigned k = 0; k < rep->nextra; k++) {
		const struct ct_report_extra *x = &rep->extra[k];
		const struct ct_stats_comparison *c = &d->extra_cmp[k];

		json_array_append_new(
			arr,
			json_pack("{s:s, s:s, s:b, s:b, s:o}", "metric", x->metric, "unit", x->unit,
				  "higher_better", x->higher_better, "secondary", x->secondary,
				  "comparison",
				  comparison_json(base, d, c,
						  ct_report_outcome(rep, c, x->higher_better))));
	}
	return arr;
}

static json_t *metrics_json(const struct ct_metric *m, unsigned n)
{
	json_t *o = json_object();

	for (unsigned i = 0; i < n; i++)
		json_object_set_new(o, m[i].name, jnum(m[i].value));
	return o;
}

static json_t *monitors_json(const struct ct_monitors *m)
{
	static const char *const res[] = { "cpu", "io", "memory" };
	json_t *o = json_object(), *psi = json_null();

	if (m->have_psi) {
		psi = json_object();
		for (int r = 0; r < 3; r++)
			json_object_set_new(psi, res[r],
					    json_pack("{s:I, s:I}", "some_us",
						      (json_int_t)m->psi_us[r][0], "full_us",
						      (json_int_t)m->psi_us[r][1]));
	}
	json_object_set_new(o, "psi", psi);
	json_object_set_new(o, "steal_us", jint(m->steal_us));
	json_object_set_new(o, "foreign_cpu_us", jint(m->foreign_cpu_us));
	json_object_set_new(o, "majflt", jint(m->majflt));
	json_object_set_new(o, "pswpin", jint(m->pswpin));
	json_object_set_new(o, "sectors_read", jint(m->sectors_read));
	json_object_set_new(o, "sectors_written", jint(m->sectors_written));
	json_object_set_new(o, "start_dirty_bytes", jknown(m->start_dirty_bytes));
	json_object_set_new(o, "start_writeback_bytes", jknown(m->start_writeback_bytes));
	json_object_set_new(o, "start_cpu_speed",
			    jnum(m->start_cpu_speed >= 0 ? m->start_cpu_speed : NAN));
	return o;
}

static json_t *flag_json(const struct ct_report_flag *fl)
{
	return json_pack("{s:o, s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:b}", "foreign_cpu_pct",
			 jnum(fl->unmonitored ? NAN : fl->foreign_pct), "steal_pct",
			 jnum(fl->unmonitored ? NAN : fl->steal_pct), "psi_pct",
			 jnum(fl->unmonitored ? NAN : fl->psi_pct), "psi_resource",
			 fl->psi_resource ? fl->psi_resource : "cpu", "start_dirty_bytes",
			 jknown(fl->start_dirty_bytes), "start_writeback_bytes",
			 jknown(fl->start_writeback_bytes), "cpu_speed_rel",
			 jnum(fl->cpu_speed_rel), "load_rate", jnum(fl->load_rate),
			 "load_rate_median", jnum(fl->load_rate_median), "likely_fluke",
			 fl->likely_fluke);
}

static json_t *run_json(const struct ct_report_cell *c, const struct ct_run *r)
{
	long v = rp_value_of(c, r);
	const struct ct_report_flag *fl = rp_flag_of(c, v);
	json_t *o = json_object();
	json_object_set_new(o, "id", jint(r->id));
	json_object_set_new(o, "seq", json_integer(r->seq));
	json_object_set_new(o, "block", json_integer(r->block));
	json_object_set_new(o, "status", json_string(ct_run_status_name(r->status)));
	json_object_set_new(o, "reason", jstr(r->reason));
	json_object_set_new(o, "started_at_ns", jint(r->started_at));
	json_object_set_new(o, "time_s", jnum(ct_run_time_s(r)));
	json_object_set_new(o, "user_s", jnum((double)r->user_us / 1e6));
	json_object_set_new(o, "sys_s", jnum((double)r->sys_us / 1e6));
	json_object_set_new(o, "cpu_pct", jnum(ct_run_cpu_pct(r)));
	json_object_set_new(o, "exit_code", json_integer(r->exit_code));
	json_object_set_new(o, "loads", jnum(ct_run_loads(r)));
	json_object_set_new(o, "lcpu_pct", jnum(ct_run_lcpu_pct(r)));
	json_object_set_new(o, "value", v >= 0 ? jnum(c->values[v]) : json_null());
	json_object_set_new(o, "score", v >= 0 && c->scores ? jnum(c->scores[v]) : json_null());
	json_object_set_new(o, "outlier", json_boolean(v >= 0 && c->outlier && c->outlier[v]));
	json_object_set_new(o, "flag", fl ? flag_json(fl) : json_null());
	json_object_set_new(o, "workload_params", jstr(r->workload_params));
	json_object_set_new(o, "load_params", jstr(r->load_params));
	json_object_set_new(o, "monitors", monitors_json(&r->mon));
	json_object_set_new(o, "metrics", metrics_json(r->metrics, r->nmetrics));
	return o;
}

static json_t *ids_json(const int64_t *ids, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, jint(ids[i]));
	return a;
}

static json_t *why_json(const struct ct_why *w)
{
	static const char *const groups[] = { "budget", "tree", "cgroup", "machine" };
	json_t *o = json_object(), *ranked = json_array(), *rows = json_array();

	for (size_t i = 0; i < w->nranked; i++)
		json_array_append_new(ranked, jstr(w->rows[w->ranked[i]].info->name));
	for (size_t i = 0; i < w->nrows; i++) {
		const struct ct_why_row *r = &w->rows[i];
		json_t *j = json_object();

		json_object_set_new(j, "counter", jstr(r->info->name));
		json_object_set_new(j, "what", jstr(r->info->what));
		json_object_set_new(j, "unit", jstr(r->info->unit));
		json_object_set_new(j, "group", jstr(groups[r->info->group]));
		json_object_set_new(j, "baseline_runs", jint((int64_t)r->nbase));
		json_object_set_new(j, "runs", jint((int64_t)r->n));
		json_object_set_new(j, "baseline_median", jnum(r->nbase ? r->base_median : NAN));
		json_object_set_new(j, "median", jnum(r->n ? r->median : NAN));
		json_object_set_new(j, "shift", jnum(r->shift));
		json_object_set_new(j, "low", jnum(r->low));
		json_object_set_new(j, "high", jnum(r->high));
		json_object_set_new(j, "effect", jnum(r->effect));
		json_object_set_new(j, "p", json_real(r->p));
		json_object_set_new(j, "p_adjusted", json_real(r->p_adj));
		json_object_set_new(j, "tested", json_boolean(r->tested));
		json_object_set_new(j, "ranked", json_boolean(r->ranked));
		json_object_set_new(j, "rho", jnum(r->rho));
		json_object_set_new(j, "follows", json_boolean(r->follows));
		json_array_append_new(rows, j);
	}
	json_object_set_new(o, "baseline_load", *w->base_load ? jstr(w->base_load) : json_null());
	json_object_set_new(o, "baseline_runs", jint((int64_t)w->nbase));
	json_object_set_new(o, "runs", jint((int64_t)w->n));
	json_object_set_new(o, "budget", json_boolean(w->budget));
	json_object_set_new(o, "tested", jint((int64_t)w->ntested));
	json_object_set_new(o, "ranked", ranked);
	json_object_set_new(o, "counters", rows);
	json_object_set_new(o, "none", *w->none ? jstr(w->none) : json_null());
	return o;
}

static json_t *cell_json(const struct ct_report *rep, const struct ct_report_block *b,
			 const struct ct_report_cell *c)
{
	const char *base = b->base_cell >= 0 ? b->cells[b->base_cell].label : b->base.label;
	json_t *o = json_object(), *runs = json_array();

	json_object_set_new(o, "label", jstr(c->label));
	json_object_set_new(o, "session_id", c->session_id ? jint(c->session_id) : json_null());
	json_object_set_new(o, "sessions", ids_json(c->sessions, c->nsessions));
	json_object_set_new(o, "unfinished_sessions", json_integer((json_int_t)c->nunfinished));
	json_object_set_new(o, "runs_ok", json_integer(c->g.n));
	json_object_set_new(o, "runs_failed", json_integer(c->g.nfailed));
	json_object_set_new(o, "time_s", jnum(c->g.n ? c->g.time_s : NAN));
	json_object_set_new(o, "cpu_pct", jnum(c->g.n ? c->g.cpu_pct : NAN));
	json_object_set_new(o, "loads", jnum(c->g.n ? c->g.loads : NAN));
	json_object_set_new(o, "lcpu_pct", jnum(c->g.n ? c->g.lcpu_pct : NAN));
	json_object_set_new(o, "ratio", jnum(c->ratio));
	json_object_set_new(o, "summary", c->have_summary ? summary_json(&c->sum) : json_null());
	json_object_set_new(o, "mean_unflagged", jnum(c->mean_unflagged));
	json_object_set_new(o, "metrics", metrics_json(c->metric_means, c->nmetric_means));
	for (size_t i = 0; i < c->nruns; i++)
		json_array_append_new(runs, run_json(c, &c->runs[i]));
	json_object_set_new(o, "runs", runs);
	json_object_set_new(o, "comparison",
			    c->compared
				    ? comparison_json(base, c, &c->cmp, ct_report_verdict(rep, c))
				    : json_null());
	if (c->compared && rep->nextra)
		json_object_set_new(o, "extra_comparisons", extras_json(rep, base, c));
	if (c->why)
		json_object_set_new(o, "why", why_json(c->why));
	return o;
}

/* The configs shown with their facts, and the facts that differ. */
static json_t *configs_json(const struct ct_report *rep)
{
	json_t *arr = json_array();

	for (size_t k = 0; k < rep->nconfigs; k++) {
		const struct ct_report_config *c = &rep->configs[k];
		json_t *diff = json_object();

		for (size_t d = 0; d < rep->ndiffs; d++)
			json_object_set_new(diff, rep->diffs[d].name,
					    jstr(rep->diffs[d].values[k]));
		json_array_append_new(
			arr,
			json_pack("{s:o, s:o, s:o, s:o, s:I, s:I, s:I}", "label", jstr(c->label),
				  "config_id", c->config_id ? jint(c->config_id) : json_null(),
				  "fingerprint",
				  c->config_id ? jstr(c->si.fingerprint) : json_null(), "differs",
				  diff, "sessions", (json_int_t)c->nsessions, "runs",
				  (json_int_t)c->nruns, "unfinished_sessions",
				  (json_int_t)c->nunfinished));
	}
	return arr;
}

/* The host's figures of a reference, by their stored names, into o. */
static json_t *ref_figs(json_t *o, const double fig[CT_REF_NFIGS])
{
	for (int i = 0; i < CT_REF_NFIGS; i++)
		json_object_set_new(o, ct_ref_fig_keys[i], jnum(fig[i]));
	return o;
}

static json_t *side_json(const char *label, const struct ct_report_ref *r)
{
	return ref_figs(json_pack("{s:o, s:I, s:I}", "label", jstr(label), "sessions",
				  (json_int_t)r->nsessions, "references", (json_int_t)r->nrefs),
			r->median);
}

/* A config's reference and its drift against the baseline's. */
static json_t *config_drift_json(const struct ct_report_drift *d)
{
	json_t *o = side_json(d->label, &d->ref), *w = json_array();

	json_object_set_new(o, "compared", json_boolean(d->compared));
	json_object_set_new(o, "drift_pct",
			    d->compared ? ref_figs(json_object(), d->pct) : json_null());
	json_object_set_new(o, "largest",
			    d->compared && d->largest >= 0
				    ? json_string(ct_ref_fig_keys[d->largest])
				    : json_null());
	for (size_t i = 0; i < d->nwarnings; i++)
		json_array_append_new(w, json_pack("{s:o, s:s, s:o, s:o}", "load",
						   jstr(d->warnings[i].load), "figure",
						   ct_ref_fig_keys[d->largest], "drift_pct",
						   jnum(d->pct[d->largest]), "effect_pct",
						   jnum(d->warnings[i].effect_pct)));
	json_object_set_new(o, "warnings", w);
	return o;
}

/* Each session shown with its references and their medians. */
static json_t *session_refs_json(const struct ct_report *rep)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < rep->nsession_refs; i++) {
		const struct ct_report_session_ref *s = &rep->session_refs[i];
		json_t *refs = json_array();

		for (size_t j = 0; j < s->nrefs; j++)
			json_array_append_new(
				refs,
				ref_figs(json_pack("{s:I, s:s, s:I}", "seq",
						   (json_int_t)s->refs[j].seq, "phase",
						   ct_ref_phase_name(s->refs[j].phase),
						   "taken_at_ns", (json_int_t)s->refs[j].taken_at),
					 s->refs[j].fig));
		json_array_append_new(arr, ref_figs(json_pack("{s:I, s:o, s:o}", "session_id",
							      (json_int_t)s->session_id, "label",
							      jstr(s->label), "refs", refs),
						    s->ref.median));
	}
	return arr;
}

/* The host's drift: the baseline's reference, each config's against it,
 * every session's references. */
static json_t *drift_json(const struct ct_report *rep)
{
	json_t *cfgs = json_array();

	for (size_t k = 0; rep->drift && k < rep->nconfigs; k++)
		json_array_append_new(cfgs, config_drift_json(&rep->drift[k]));
	return json_pack("{s:o, s:o, s:o}", "baseline", side_json(rep->base_label, &rep->base_ref),
			 "configs", cfgs, "sessions", session_refs_json(rep));
}

static json_t *runs_json(const struct ct_report *rep)
{
	json_t *o = json_object(), *loads = json_array(), *score = json_null();

	json_object_set_new(o, "workload", jstr(rep->workload));
	json_object_set_new(o, "params", jstr(rep->params));
	json_object_set_new(o, "confidence", json_real(rep->confidence));
	json_object_set_new(o, "higher_better", json_boolean(rep->higher_better));
	json_object_set_new(o, "figure", json_string(rep->figure_key));
	json_object_set_new(o, "unit", jstr(rep->unit));
	json_object_set_new(o, "baseline", jstr(rep->base_label));
	json_object_set_new(o, "paired", json_boolean(rep->paired));
	json_object_set_new(o, "within_session", json_boolean(rep->within_session));
	json_object_set_new(o, "reference",
			    json_pack("{s:o, s:o, s:o, s:I}", "label", jstr(rep->ref_label),
				      "time_s", jnum(rep->ref_time_s), "session_id",
				      rep->ref_session_id ? jint(rep->ref_session_id) : json_null(),
				      "sessions", (json_int_t)rep->ref_nsessions));
	/* Ratio's reference for a figure of the runs' own: its no-load mean */
	json_object_set_new(json_object_get(o, "reference"), "value", jnum(rep->ref_value));
	/* the score's reference: oltp's tps, or the judged figure's mean
	 * ("value", with "tps" null for a figure that is not tps) */
	if (rep->scored)
		score = json_pack("{s:o, s:o, s:o, s:b, s:o, s:o}", "label", jstr(rep->score_label),
				  "tps",
				  jnum(rep->figure_kind == CT_FIGURE_OTHER ? NAN : rep->score_tps),
				  "session_id",
				  rep->score_session_id ? jint(rep->score_session_id) : json_null(),
				  "default", rep->score_default, "figure", jstr(rep->figure),
				  "value", jnum(rep->score_tps));
	json_object_set_new(o, "score", score);
	for (size_t i = 0; i < rep->nblocks; i++) {
		const struct ct_report_block *b = &rep->blocks[i];
		json_t *cells = json_array();

		for (size_t j = 0; j < b->ncells; j++)
			json_array_append_new(cells, cell_json(rep, b, &b->cells[j]));
		json_array_append_new(
			loads, json_pack("{s:o, s:o, s:o}", "load", jstr(b->load), "work_unit",
					 b->work_unit ? jstr(b->work_unit) : json_null(), "configs",
					 cells));
	}
	json_object_set_new(o, "loads", loads);
	json_object_set_new(o, "configs", configs_json(rep));
	json_object_set_new(o, "drift", drift_json(rep));
	return o;
}

/* `stats`' document: the keys it always had. */
static json_t *numbers_json(const struct ct_report *rep)
{
	const struct ct_report_block *b = &rep->blocks[0];
	json_t *o = json_object(), *sets = json_array(), *cmps = json_array();

	json_object_set_new(o, "confidence", json_real(rep->confidence));
	for (size_t i = 0; i < b->ncells; i++) {
		const struct ct_report_cell *d = &b->cells[i];
		json_t *ds = json_object(), *out = json_array(), *sum = summary_json(&d->sum);

		json_object_set_new(ds, "name", jstr(d->label));
		json_object_update(ds, sum);
		json_decref(sum);
		for (size_t k = 0; k < d->nflags; k++)
			json_array_append_new(out, json_pack("{s:I, s:o}", "index",
							     (json_int_t)d->flags[k].value, "value",
							     jnum(d->values[d->flags[k].value])));
		json_object_set_new(ds, "outliers", out);
		json_array_append_new(sets, ds);
	}
	for (size_t i = 1; i < b->ncells; i++)
		json_array_append_new(cmps, comparison_json(b->cells[0].label, &b->cells[i],
							    &b->cells[i].cmp,
							    ct_report_verdict(rep, &b->cells[i])));
	json_object_set_new(o, "datasets", sets);
	json_object_set_new(o, "comparisons", cmps);
	return o;
}

/* Every document opens with the schema, the command and the version. */
static json_t *document(const char *command)
{
	return json_pack("{s:s, s:s, s:s}", "schema", SCHEMA, "command", command, "version",
			 ct_version);
}

static int dump(FILE *f, json_t *doc, json_t *body)
{
	int rc;

	if (!doc || !body || json_object_update(doc, body)) {
		json_decref(doc);
		json_decref(body);
		return -ENOMEM;
	}
	json_decref(body);
	rc = json_dumpf(doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
	json_decref(doc);
	if (rc)
		return -EIO;
	fputc('\n', f);
	return 0;
}

int ct_report_print_json(FILE *f, const struct ct_report *rep, const char *command)
{
	return dump(f, document(command),
		    rep->kind == CT_REPORT_NUMBERS ? numbers_json(rep) : runs_json(rep));
}

int ct_report_sessions_json(FILE *f, const struct ct_session_rec *recs, size_t n)
{
	json_t *body = json_object(), *arr = json_array();

	for (size_t i = 0; i < n; i++) {
		const struct ct_session_rec *r = &recs[i];

		json_array_append_new(
			arr, json_pack("{s:I, s:o, s:o, s:o, s:o, s:s, s:I, s:o, s:i, s:i, s:o, "
				       "s:o, s:o, s:o}",
				       "id", (json_int_t)r->id, "label", jstr(r->label), "workload",
				       jstr(r->workload), "profile",
				       r->profile[0] ? jstr(r->profile) : json_null(), "argv",
				       jstr(r->argv), "status", ct_session_status_name(r->status),
				       "started_at_ns", (json_int_t)r->started_at, "ended_at_ns",
				       r->ended_at ? jint(r->ended_at) : json_null(), "runs",
				       (int)r->nruns, "failed", (int)r->nfailed, "group_id",
				       r->group_id ? jint(r->group_id) : json_null(), "order",
				       r->order[0] ? jstr(r->order) : json_null(), "order_seed",
				       r->order[0] ? jint((int64_t)r->order_seed) : json_null(),
				       "config_id", jint(r->config_id)));
		json_object_set_new(json_array_get(arr, i), "uuid",
				    r->uuid[0] ? jstr(r->uuid) : json_null());
		json_object_set_new(json_array_get(arr, i), "hostname",
				    r->owner.host[0] ? jstr(r->owner.host) : json_null());
		json_object_set_new(json_array_get(arr, i), "machine_id",
				    r->owner.machine[0] ? jstr(r->owner.machine) : json_null());
	}
	json_object_set_new(body, "sessions", arr);
	return dump(f, document("list"), body);
}

int ct_report_sysinfo_json(FILE *f, const struct ct_sysinfo *si, const char *dir)
{
	json_t *sys = json_object(), *body = json_object(), *ctl = json_object();

	json_object_set_new(sys, "kernel_release", jstr(si->kernel_release));
	json_object_set_new(sys, "kernel_version", jstr(si->kernel_version));
	json_object_set_new(sys, "cmdline", jstr(si->cmdline));
	json_object_set_new(sys, "preemption", jstr(si->preempt));
	json_object_set_new(sys, "cpu", jstr(si->cpu_model));
	json_object_set_new(sys, "cpus", json_integer(si->ncpus));
	json_object_set_new(sys, "ram_bytes", json_integer((json_int_t)si->ram_bytes));
	json_object_set_new(sys, "swap_bytes", json_integer((json_int_t)si->swap_bytes));
	json_object_set_new(sys, "work_dir", jstr(dir));
	json_object_set_new(sys, "filesystem", jstr(si->fs_type));
	json_object_set_new(sys, "filesystem_source", jstr(si->fs_source));
	json_object_set_new(sys, "block_device",
			    si->block_dev[0] ? jstr(si->block_dev) : json_null());
	json_object_set_new(sys, "io_scheduler", si->iosched[0] ? jstr(si->iosched) : json_null());
	for (unsigned i = 0; i < si->nsysctl; i++)
		json_object_set_new(ctl, si->sysctl[i].name, jstr(si->sysctl[i].value));
	json_object_set_new(sys, "sysctls", ctl);
	json_object_set_new(sys, "fingerprint", jstr(si->fingerprint));
	json_object_set_new(body, "sysinfo", sys);
	return dump(f, document("sysinfo"), body);
}

static json_t *history_point_json(const struct ct_history_point *pt)
{
	return json_pack("{s:I, s:o, s:o, s:o, s:I, s:o, s:o, s:I, s:o, s:o, s:o}", "session",
			 (json_int_t)pt->session_id, "uuid", jstr(pt->uuid), "label",
			 jstr(pt->label), "commit", pt->commit[0] ? jstr(pt->commit) : json_null(),
			 "started_at_ns", (json_int_t)pt->started_at, "commit_time_ns",
			 pt->commit_time ? jint(pt->commit_time) : json_null(), "machine",
			 jstr(pt->machine), "runs", (json_int_t)pt->n, "median", jnum(pt->median),
			 "low", jnum(pt->low), "high", jnum(pt->high));
}

static json_t *history_change_json(const struct ct_history_series *s,
				   const struct ct_history_change *c)
{
	json_t *facts = json_array(), *o;

	for (size_t i = 0; i < c->nfacts; i++)
		json_array_append_new(facts,
				      json_pack("{s:o, s:o, s:o}", "name", jstr(c->facts[i].name),
						"before", jstr(c->facts[i].before), "after",
						jstr(c->facts[i].after)));
	o = json_pack("{s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:b, s:b, s:o}", "index",
		      (json_int_t)c->at, "session", (json_int_t)s->points[c->at].session_id,
		      "sessions_before", (json_int_t)c->nbefore, "sessions_after",
		      (json_int_t)c->nafter, "p", jnum(c->p), "effect", jnum(c->effect), "low",
		      c->have_effect ? jnum(c->low) : json_null(), "high",
		      c->have_effect ? jnum(c->high) : json_null(), "worse", c->worse,
		      "acknowledged", c->acked, "facts", facts);
	if (o && c->why)
		json_object_set_new(o, "why", why_json(c->why));
	if (o) {
		json_t *host = json_null();

		if (c->host_largest >= 0) {
			host = json_object();
			for (int i = 0; i < CT_REF_NFIGS; i++)
				json_object_set_new(host, ct_ref_fig_keys[i], jnum(c->host_pct[i]));
			json_object_set_new(host, "moved", json_boolean(c->host_moved));
		}
		json_object_set_new(o, "host", host);
	}
	return o;
}

int ct_history_print_json(FILE *f, const struct ct_history *h)
{
	json_t *body = json_object(), *series = json_array(), *pcs = json_array();

	json_object_set_new(body, "workload", jstr(h->workload));
	json_object_set_new(body, "figure", jstr(h->figure));
	json_object_set_new(body, "unit", jstr(h->unit));
	json_object_set_new(body, "higher_better", json_boolean(h->higher_better));
	json_object_set_new(body, "order", jstr(h->by_commit ? "commit" : "time"));
	json_object_set_new(body, "confidence", json_real(h->confidence));
	json_object_set_new(body, "sessions", jint((int64_t)h->nsessions));
	for (size_t i = 0; i < h->nseries; i++) {
		const struct ct_history_series *s = &h->series[i];
		json_t *pts = json_array(), *chs = json_array();

		for (size_t p = 0; p < s->npoints; p++)
			json_array_append_new(pts, history_point_json(&s->points[p]));
		for (size_t c = 0; c < s->nchanges; c++)
			json_array_append_new(chs, history_change_json(s, &s->changes[c]));
		json_array_append_new(series,
				      json_pack("{s:o, s:o, s:o, s:o, s:o}", "load", jstr(s->load),
						"machine", jstr(s->machine), "params",
						jstr(s->params), "points", pts, "changes", chs));
	}
	json_object_set_new(body, "series", series);
	for (size_t i = 0; i < h->nparam_changes; i++) {
		const struct ct_history_param_change *c = &h->param_changes[i];

		json_array_append_new(pcs, json_pack("{s:o, s:o, s:I, s:I, s:o, s:o}", "load",
						     jstr(c->load), "machine", jstr(c->machine),
						     "session", (json_int_t)c->session_id,
						     "started_at_ns", (json_int_t)c->started_at,
						     "before", jstr(c->before), "after",
						     jstr(c->after)));
	}
	json_object_set_new(body, "param_changes", pcs);
	return dump(f, document("history"), body);
}

static json_t *fleet_row_json(const struct ct_fleet *fl, const struct ct_fleet_row *w)
{
	const struct ct_fleet_row *b = w->base >= 0 ? &fl->rows[w->base] : NULL;
	json_t *loads = json_array();

	for (size_t l = 0; l < fl->nloads; l++) {
		const struct ct_fleet_cell *c = &w->cells[l];
		struct ct_report_cell d = { .paired = c->paired, .scope = c->scope };
		json_t *cmp = json_null();

		if (!c->n)
			continue;
		if (c->compared) {
			snprintf(d.label, sizeof(d.label), "%s", w->label);
			cmp = comparison_json(b->label, &d, &c->cmp, c->verdict);
		}
		json_t *o = json_pack("{s:o, s:I, s:o, s:o}", "load", jstr(fl->loads[l]), "runs",
				      (json_int_t)c->n, "mean", jnum(c->mean), "comparison", cmp);

		if (o && c->why)
			json_object_set_new(o, "why", why_json(c->why));
		json_array_append_new(loads, o);
	}
	return json_pack("{s:o, s:o, s:o, s:o, s:I, s:o, s:I, s:I, s:I, s:o, s:b, s:o}", "machine",
			 jstr(w->machine), "hostname", jstr(w->host), "machine_id",
			 jstr(w->machine_id), "label", jstr(w->label), "session",
			 (json_int_t)w->session_id, "uuid", jstr(w->uuid), "started_at_ns",
			 (json_int_t)w->started_at, "sessions", (json_int_t)w->nsessions, "runs",
			 (json_int_t)w->nruns, "baseline_session",
			 b ? json_integer((json_int_t)b->session_id) : json_null(), "other_machine",
			 (int)w->other_machine, "loads", loads);
}

int ct_fleet_print_json(FILE *f, const struct ct_fleet *fl)
{
	static const char *const modes[] = { [CT_FLEET_BASE_FIRST] = "first",
					     [CT_FLEET_BASE_MACHINE] = "machine",
					     [CT_FLEET_BASE_LABEL] = "label" };
	json_t *body = json_object(), *rows = json_array(), *loads = json_array();

	for (size_t l = 0; l < fl->nloads; l++)
		json_array_append_new(loads, jstr(fl->loads[l]));
	for (size_t k = 0; k < fl->nrows; k++)
		json_array_append_new(rows, fleet_row_json(fl, &fl->rows[k]));
	json_object_set_new(body, "workload", jstr(fl->workload));
	json_object_set_new(body, "params", jstr(fl->params));
	json_object_set_new(body, "figure", jstr(fl->figure));
	json_object_set_new(body, "unit", jstr(fl->unit));
	json_object_set_new(body, "higher_better", json_boolean(fl->higher_better));
	json_object_set_new(body, "confidence", json_real(fl->confidence));
	json_object_set_new(body, "within_session", json_boolean(fl->within_session));
	json_object_set_new(body, "baseline",
			    json_pack("{s:s, s:o, s:o}", "mode", modes[fl->mode], "machine",
				      fl->base_machine[0] ? jstr(fl->base_machine) : json_null(),
				      "label",
				      fl->base_label[0] ? jstr(fl->base_label) : json_null()));
	json_object_set_new(body, "machines", jint((int64_t)fl->nmachines));
	json_object_set_new(body, "other_params_sessions", jint((int64_t)fl->nother_params));
	json_object_set_new(body, "loads", loads);
	json_object_set_new(body, "rows", rows);
	return dump(f, document("fleet summary"), body);
}
