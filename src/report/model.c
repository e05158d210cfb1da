/*
 * The report model built from the store (include/contend/report.h), step
 * by step: the stored sessions, the references (Ratio's, the oltp
 * score's), each cell's runs (fetch.c), the judged figure, every config
 * compared with the baseline (judge.c), the configs and their differences
 * (configs.c), the host's drift (drift.c) - and the model of plain
 * numbers, and the words every printer uses for its outcomes.
 */
#include "contend/report.h"
#include "model.h"
#include "internal.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct ct_run *first_ok(const struct ct_report *rep)
{
	for (size_t i = 0; i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].ncells; j++)
			if (rep->blocks[i].cells[j].n)
				return rep->blocks[i].cells[j].ok[0];
	return NULL;
}

static bool ends_with(const char *s, const char *end)
{
	size_t a = strlen(s), b = strlen(end);

	return a > b && !strcmp(s + a - b, end);
}

enum ct_report_figure_kind rp_figure_of(const struct ct_run *r, const char **name,
					const char **unit, const char **key)
{
	const struct ct_figure *fig = r ? ct_run_figure(r) : NULL;

	*name = fig ? fig->name : "Time";
	*unit = fig ? fig->unit : "s";
	*key = fig ? fig->key : "time_s";
	/* a command's declared figure is its own, whatever its name: one
	 * called tps is no oltp's */
	return !fig				      ? CT_FIGURE_TIME
	       : r->nfigs			      ? CT_FIGURE_OTHER
	       : !strcmp(fig->key, CT_METRIC_TPS)     ? CT_FIGURE_TPS
	       : !strcmp(fig->key, CT_METRIC_LATENCY) ? CT_FIGURE_LATENCY
						      : CT_FIGURE_OTHER;
}

/* The judged figure's name, and for the latency workload the figures
 * judged beside it: each task's deadlines met, and the p99 of every task
 * but the first (whose p99 is the main figure). */
static void name_figure(struct ct_report *rep)
{
	const struct ct_run *r = first_ok(rep);
	char first[CT_METRIC_NAME] = "", task[1][16];
	double main;

	rep->figure_kind = rp_figure_of(r, &rep->figure, &rep->unit, &rep->figure_key);
	/* a command's figures after its judged one: reported beside it */
	for (unsigned i = 1; r && i < r->nfigs && rep->nextra < CT_REPORT_MAX_EXTRA; i++) {
		struct ct_report_extra *e = &rep->extra[rep->nextra++];

		snprintf(e->metric, sizeof(e->metric), "%s", r->figs[i].name);
		snprintf(e->unit, sizeof(e->unit), "%s", r->figs[i].unit);
		e->higher_better = r->figs[i].higher_better;
		e->secondary = true;
	}
	if (rep->figure_kind != CT_FIGURE_LATENCY || ct_run_metric(r, CT_METRIC_LATENCY, &main))
		return;
	if (rp_tasks_of(rep, task, 1))
		snprintf(first, sizeof(first), "%s_p99_us", task[0]);
	for (unsigned i = 0; i < r->nmetrics && rep->nextra < CT_REPORT_MAX_EXTRA; i++) {
		const struct ct_metric *m = &r->metrics[i];
		bool met = ends_with(m->name, "_met_pct");

		if (!met && (!ends_with(m->name, "_p99_us") || !strncmp(m->name, "probe_", 6) ||
			     !strcmp(m->name, first) || (!*first && m->value == main)))
			continue;
		snprintf(rep->extra[rep->nextra].metric, CT_METRIC_NAME, "%s", m->name);
		rep->extra[rep->nextra++].higher_better = met;
	}
}

int ct_report_build(struct ct_report *rep, struct ct_store *st, const struct ct_report_query *q,
		    char *err, size_t len)
{
	struct rp_ctx x = { .st = st, .q = q };
	int rc;

	memset(rep, 0, sizeof(*rep));
	rep->kind = CT_REPORT_RUNS;
	if (!q->nsrc || q->nsrc > CT_REPORT_MAX_ROWS)
		return ct_err(err, len, -EINVAL, "a report needs 1 to %d configs",
			      CT_REPORT_MAX_ROWS);
	snprintf(rep->workload, sizeof(rep->workload), "%s", q->workload);
	snprintf(rep->params, sizeof(rep->params), "%s", q->params ? q->params : "");
	rep->confidence = q->confidence > 0 ? q->confidence : 95;
	rep->blocks = calloc(q->nloads ? q->nloads : 1, sizeof(*rep->blocks));
	if (!rep->blocks)
		return ct_err(err, len, -ENOMEM, "out of memory");
	rc = ct_store_sessions(st, NULL, &x.recs, &x.nrecs, err, len);
	if (!rc)
		rc = rp_references(rep, &x, err, len);
	/* the baseline: as asked, else the score reference, else the first */
	if (!rc)
		snprintf(rep->base_label, sizeof(rep->base_label), "%s",
			 q->base_label	       ? q->base_label
			 : rep->score_label[0] ? rep->score_label
					       : q->src[0].label);
	if (!rc)
		rc = rp_build_blocks(rep, &x, err, len);
	for (size_t i = 0; !rc && i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].ncells; j++)
			if (rep->blocks[i].cells[j].n &&
			    ct_run_higher_better(rep->blocks[i].cells[j].ok[0]))
				rep->higher_better = true;
	if (!rc)
		name_figure(rep);
	if (!rc)
		rc = rp_figure_refs(rep, &x, err, len);
	if (!rc)
		rc = rp_compare_all(rep, &x, err, len);
	if (!rc)
		rc = rp_load_configs(rep, &x, err, len);
	if (!rc && rp_config_diffs(rep))
		rc = ct_err(err, len, -ENOMEM, "out of memory");
	if (!rc)
		rep->row_heading = rp_row_heading(rep);
	if (!rc)
		rc = rp_drift_build(rep, st, err, len);
	free(x.recs);
	if (rc)
		ct_report_release(rep);
	return rc;
}

void ct_report_release(struct ct_report *rep)
{
	rp_drift_release(rep);
	for (size_t i = 0; i < rep->nblocks; i++) {
		for (size_t j = 0; j < rep->blocks[i].ncells; j++)
			rp_cell_release(&rep->blocks[i].cells[j]);
		free(rep->blocks[i].cells);
		rp_cell_release(&rep->blocks[i].base);
		free(rep->blocks[i].sittings);
	}
	free(rep->blocks);
	rep->blocks = NULL;
	rep->nblocks = 0;
	free(rep->configs);
	rep->configs = NULL;
	rep->nconfigs = 0;
	free(rep->diffs);
	rep->diffs = NULL;
	rep->ndiffs = 0;
}

int ct_report_from_numbers(struct ct_report *rep, const char *const *names,
			   const double *const *values, const size_t *counts, size_t n,
			   double confidence, bool paired, char *err, size_t len)
{
	struct ct_report_block *b;
	int rc = 0;

	memset(rep, 0, sizeof(*rep));
	rep->kind = CT_REPORT_NUMBERS;
	rep->figure = "Time";
	rep->unit = "s";
	rep->figure_key = "time_s";
	rep->figure_kind = CT_FIGURE_TIME;
	rep->confidence = confidence;
	rep->paired = paired;
	rep->ref_time_s = rep->ref_value = rep->score_tps = NAN;
	rep->blocks = calloc(1, sizeof(*rep->blocks));
	if (!rep->blocks || !n)
		return rep->blocks ? ct_err(err, len, -EINVAL, "no numbers to compare")
				   : ct_err(err, len, -ENOMEM, "out of memory");
	rep->nblocks = 1;
	b = rep->blocks;
	b->cells = calloc(n, sizeof(*b->cells));
	if (!b->cells)
		return ct_err(err, len, -ENOMEM, "out of memory");
	b->ncells = n;
	snprintf(rep->base_label, sizeof(rep->base_label), "%s", names[0]);
	for (size_t j = 0; !rc && j < n; j++) {
		struct ct_report_cell *c = &b->cells[j];

		snprintf(c->label, sizeof(c->label), "%s", names[j]);
		c->ratio = NAN;
		c->values = malloc((counts[j] ? counts[j] : 1) * sizeof(*c->values));
		if (!c->values)
			return ct_err(err, len, -ENOMEM, "out of memory");
		memcpy(c->values, values[j], counts[j] * sizeof(*c->values));
		c->n = counts[j];
		if (rp_describe_values(c, confidence))
			rc = ct_err(err, len, -ENOMEM, "out of memory");
		else if (!c->have_summary)
			rc = ct_err(err, len, -EINVAL, "cannot summarise '%s'", names[j]);
	}
	for (size_t j = 1; !rc && j < n; j++) {
		struct ct_report_cell *c = &b->cells[j], *base = &b->cells[0];
		struct ct_stats_comparison *one = &c->cmp;
		bool pair = paired && c->n == base->n;

		c->compared = true;
		rep->compared = true;
		c->paired = pair;
		ct_stats_compare(base->values, base->n, c->values, c->n, pair ? base->values : NULL,
				 pair ? c->values : NULL, pair ? c->n : 0, confidence, one);
		/* each comparison on its own: stats makes no family */
		if (ct_stats_decide(&one, 1, confidence))
			rc = ct_err(err, len, -EINVAL, "cannot judge '%s'", names[j]);
	}
	if (rc)
		ct_report_release(rep);
	return rc;
}

const char *ct_report_outcome(const struct ct_report *rep, const struct ct_stats_comparison *v,
			      bool higher_better)
{
	return rp_outcome_word(v, rep->kind == CT_REPORT_NUMBERS, higher_better);
}

const char *rp_outcome_word(const struct ct_stats_comparison *v, bool numbers, bool higher_better)
{
	switch (v->outcome) {
	case CT_OUTCOME_NOT_ENOUGH:
		return v->need <= 4 ? "not enough runs for a verdict (4 a side needed)"
				    : "not enough runs for a verdict at this confidence";
	case CT_OUTCOME_NO_SPREAD:
		return "no spread in the values: no test possible";
	case CT_OUTCOME_NO_DIFFERENCE:
		return "no significant difference";
	case CT_OUTCOME_LOWER:
		return numbers ? "smaller" : higher_better ? "worse" : "better";
	case CT_OUTCOME_HIGHER:
		return numbers ? "larger" : higher_better ? "better" : "worse";
	}
	return "?";
}

const char *ct_report_verdict(const struct ct_report *rep, const struct ct_report_cell *c)
{
	if (c->cmp.outcome == CT_OUTCOME_NO_SPREAD && rep->kind == CT_REPORT_NUMBERS)
		return rep->blocks[0].cells[0].sum.mean == c->sum.mean
			       ? "no significant difference"
			       : "no test possible (no spread)";
	return ct_report_outcome(rep, &c->cmp, rep->higher_better);
}

void ct_report_machine(const struct ct_owner *o, char *buf, size_t len)
{
	if (o->host[0] && o->machine[0])
		snprintf(buf, len, "%s (%.8s)", o->host, o->machine);
	else if (o->machine[0])
		snprintf(buf, len, "%.8s", o->machine);
	else
		snprintf(buf, len, "%s", o->host);
}

const char *const ct_report_format_names[] = { "text", "json", "csv", "md", "html", NULL };
