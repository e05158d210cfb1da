/*
 * The Markdown printers: the tables as contest and mmtests lay them out,
 * ready for a mailing list or a pull request - a table per load (a row per
 * config), the verdicts in one table, the flagged runs as a list; WimMark's
 * scores for oltp; ministat's summaries for `stats`; the sessions and the
 * system facts. Text from the user (labels, reasons) is escaped so it
 * cannot open a link, an emphasis or an HTML tag, nor split a cell.
 */
#include "internal.h"
#include "contend/fleet.h"
#include "contend/history.h"

#include <errno.h>
#include "contend/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '\n':
		case '\r':
		case '\t':
			fputc(' ', f);
			break;
		/* what opens code, emphasis, a link or a strike, or splits a
		 * cell; text from the user never starts a line here, so a
		 * heading's # or a list's - or + needs no escape */
		case '\\':
		case '`':
		case '*':
		case '_':
		case '[':
		case ']':
		case '|':
		case '~':
			fputc('\\', f);
			/* fall through */
		default:
			fputc(*s, f);
		}
	}
}

static void time_table(FILE *f, const struct ct_report *rep, const struct ct_report_block *b)
{
	bool noload = !strcmp(b->load, "none");
	char t[32];

	fprintf(f, "| %s | [runs] | Time(s) | CPU%% | Loads | LCPU%% | Ratio |\n", rp_heading(rep));
	fprintf(f, "|---|--:|--:|--:|--:|--:|--:|\n");
	for (size_t j = 0; j < b->ncells; j++) {
		const struct ct_report_cell *r = &b->cells[j];

		fprintf(f, "| ");
		text(f, r->label);
		if (!r->g.n) {
			fprintf(f, " | 0 | %s | | | | |\n",
				r->g.nfailed ? "every run failed" : "no runs");
			continue;
		}
		fprintf(f, " | %u | %s | %.0f%% | ", r->g.n, rp_fmt_time(r->g.time_s, t, sizeof(t)),
			r->g.cpu_pct);
		if (noload)
			fprintf(f, "- | - | ");
		else if (isnan(r->g.loads))
			fprintf(f, "- | %.0f%% | ", r->g.lcpu_pct);
		else
			fprintf(f, "%.0f | %.0f%% | ", r->g.loads, r->g.lcpu_pct);
		if (isnan(r->ratio))
			fprintf(f, "- |\n");
		else
			fprintf(f, "%.2f |\n", r->ratio);
	}
}

static void score_table(FILE *f, const struct ct_report_block *b)
{
	fprintf(f, "| Config | [runs] | %s | tps | p99 latency ms |\n",
		b->ncells && b->cells[0].scores ? "Scores" : "tps of each run");
	fprintf(f, "|---|--:|---|--:|--:|\n");
	for (size_t j = 0; j < b->ncells; j++) {
		const struct ct_report_cell *r = &b->cells[j];
		double tps = NAN, p99 = NAN;

		for (unsigned i = 0; i < r->nmetric_means; i++) {
			if (!strcmp(r->metric_means[i].name, CT_METRIC_TPS))
				tps = r->metric_means[i].value;
			if (!strcmp(r->metric_means[i].name, "lat_p99_us"))
				p99 = r->metric_means[i].value / 1e3;
		}
		fprintf(f, "| ");
		text(f, r->label);
		fprintf(f, " | %zu |", r->n);
		for (size_t i = 0; i < r->n; i++)
			fprintf(f, " %.2f", r->scores ? r->scores[i] : r->values[i]);
		fprintf(f, " | %.1f | %.2f |\n", tps, p99);
	}
}

/* Runs judged by a figure of their own (an imported fio job's IOPS). */
/* A command's other figures, each a row under its config's: its mean,
 * unit and which way is better. */
static void secondary_rows(FILE *f, const struct ct_report *rep, const struct ct_report_cell *c)
{
	for (unsigned k = 0; k < rep->nextra; k++) {
		const struct ct_report_extra *x = &rep->extra[k];
		double v = rp_metric(c, x->metric);

		if (!x->secondary || isnan(v))
			continue;
		fprintf(f, "| &nbsp; ");
		text(f, x->metric);
		fprintf(f, " | | %.6g", v);
		if (*x->unit) {
			fputc(' ', f);
			text(f, x->unit);
		}
		fprintf(f, " (%s is better) | | | | | |\n", x->higher_better ? "higher" : "lower");
	}
}

static void figure_table(FILE *f, const struct ct_report *rep, const struct ct_report_block *b)
{
	char head[48];

	fprintf(f, "| Config | [runs] | %s | Median | Min | Max | Ratio | Score |\n",
		rp_figure_head(rep, head, sizeof(head)));
	fprintf(f, "|---|--:|--:|--:|--:|--:|--:|--:|\n");
	for (size_t j = 0; j < b->ncells; j++) {
		const struct ct_report_cell *c = &b->cells[j];
		double sc;

		fprintf(f, "| ");
		text(f, c->label);
		if (!c->n) {
			fprintf(f, " | 0 | %s | | | | | |\n",
				c->g.nfailed ? "every run failed" : "no runs");
			continue;
		}
		if (!c->have_summary) /* one run */
			fprintf(f, " | 1 | %.6g | %.6g | %.6g | %.6g |", c->values[0], c->values[0],
				c->values[0], c->values[0]);
		else
			fprintf(f, " | %zu | %.6g | %.6g | %.6g | %.6g |", c->n, c->sum.mean,
				c->sum.median, c->sum.min, c->sum.max);
		sc = rp_cell_score(rep, c);
		if (isnan(c->ratio))
			fprintf(f, " - |");
		else
			fprintf(f, " %.2f |", c->ratio);
		if (!isnan(sc))
			fprintf(f, " %.0f |\n", sc);
		else
			fprintf(f, " - |\n");
		secondary_rows(f, rep, c);
	}
}

/* A failed or interrupted run, with its reason, under its table. */
static void failures(FILE *f, const struct ct_report_block *b)
{
	bool any = false;

	for (size_t j = 0; j < b->ncells; j++)
		for (size_t k = 0; k < b->cells[j].nruns; k++) {
			const struct ct_run *r = &b->cells[j].runs[k];

			if (r->status == CT_RUN_OK)
				continue;
			fprintf(f, "%s- ", any ? "" : "\n");
			text(f, b->cells[j].label);
			fprintf(f, " run %u %s: ", r->seq, ct_run_status_name(r->status));
			text(f, r->reason);
			fputc('\n', f);
			any = true;
		}
}

static void md_num(FILE *f, double v, double scale, int decimals)
{
	if (isnan(v))
		fprintf(f, " - |");
	else
		fprintf(f, " %.*f |", decimals, v / scale);
}

struct md_rows {
	FILE *f;
	bool heading;
};

static void md_latency_row(void *ctx, const char *load, const char *label, const char *task,
			   const double v[6])
{
	struct md_rows *m = ctx;

	if (!m->heading)
		fprintf(m->f,
			"\n### Latency\n\n| Load | Config | Task | Mean ms | p50 ms | p99 ms "
			"| Max ms | CPU%% | Met%% |\n|---|---|---|--:|--:|--:|--:|--:|--:|\n");
	m->heading = true;
	fprintf(m->f, "| ");
	text(m->f, load);
	fprintf(m->f, " | ");
	text(m->f, label);
	fprintf(m->f, " | %s |", task);
	for (int k = 0; k < 4; k++)
		md_num(m->f, v[k], 1e3, 3);
	md_num(m->f, v[4], 1, 1);
	md_num(m->f, v[5], 1, 1);
	fputc('\n', m->f);
}

/* The latency workload's tasks and the wakeup probe, in ms. */
static void latency_md(FILE *f, const struct ct_report *rep)
{
	struct md_rows m = { f, false };

	rp_latency_rows(rep, md_latency_row, &m);
}

static void verdict_row(FILE *f, const struct ct_report *rep, const struct ct_report_block *b,
			const struct ct_report_cell *c, const char *figure,
			const struct ct_stats_comparison *v, const char *verdict)
{
	char note[1536];

	fprintf(f, "| ");
	text(f, b->load);
	fprintf(f, " | ");
	text(f, c->label);
	if (figure) {
		fprintf(f, " (");
		text(f, figure);
		fputc(')', f);
	}
	fprintf(f, " | ");
	if (v->decided_by == CT_TEST_NONE)
		fprintf(f, "- | - | - | - | ");
	else {
		rp_effect(f, v, " | [");
		fprintf(f, " | %.2g | %s | ", v->p_adj, ct_report_test_name(v));
	}
	text(f, verdict);
	if (v->decided_by != CT_TEST_NONE && rp_scope_note(rep, b, c, note, sizeof(note))[0]) {
		fprintf(f, " (");
		text(f, note);
		fputc(')', f);
	}
	fprintf(f, " |\n");
}

static void verdicts(FILE *f, const struct ct_report *rep)
{
	size_t ncells = rep->nblocks ? rep->blocks[0].ncells : 0;
	bool heading = false;

	for (size_t j = 0; j < ncells; j++) {
		if (!rep->blocks[0].cells[j].compared)
			continue;
		if (!heading) {
			fprintf(f, "\n### %s against ", rep->figure);
			text(f, rep->base_label);
			fprintf(f,
				"\n\nHolm-adjusted across %zu load%s, %g%% confidence.\n\n"
				"| Load | Config | Effect | %g%% interval | Holm p | Test | "
				"Verdict |\n|---|---|--:|---|--:|---|---|\n",
				rep->nblocks, rep->nblocks == 1 ? "" : "s", rep->confidence,
				rep->confidence);
		}
		heading = true;
		for (size_t i = 0; i < rep->nblocks; i++) {
			const struct ct_report_cell *c = &rep->blocks[i].cells[j];

			verdict_row(f, rep, &rep->blocks[i], c, NULL, &c->cmp,
				    ct_report_verdict(rep, c));
			for (unsigned k = 0; k < rep->nextra; k++)
				verdict_row(f, rep, &rep->blocks[i], c, rep->extra[k].metric,
					    &c->extra_cmp[k],
					    ct_report_outcome(rep, &c->extra_cmp[k],
							      rep->extra[k].higher_better));
		}
	}
}

static void flagged(FILE *f, const struct ct_report *rep)
{
	bool heading = false;

	for (size_t i = 0; i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].ncells; j++) {
			const struct ct_report_cell *c = &rep->blocks[i].cells[j];

			for (size_t k = 0; k < c->nflags; k++) {
				const struct ct_report_flag *fl = &c->flags[k];

				if (!heading)
					fprintf(f, "\n### Flagged runs\n\n");
				heading = true;
				fprintf(f, "- ");
				text(f, rep->blocks[i].load);
				fprintf(f, " ");
				text(f, c->label);
				if (fl->unmonitored) {
					fprintf(f,
						" run %u: %.4g %s; imported, no monitors to say "
						"why\n",
						fl->run ? fl->run->seq : 0, c->values[fl->value],
						rep->unit);
					continue;
				}
				fprintf(f,
					" run %u: %.4g %s; foreign CPU %.0f%%, steal %.1f%%, PSI "
					"%s some %.0f%%: %s\n",
					fl->run ? fl->run->seq : 0, c->values[fl->value], rep->unit,
					fl->foreign_pct, fl->steal_pct, fl->psi_resource,
					fl->psi_pct,
					fl->likely_fluke ? "likely fluke" : "no interference seen");
			}
		}
}

static void drift_row(FILE *f, const char *label, const struct ct_report_ref *r,
		      const struct ct_report_drift *d)
{
	char b[32];

	fprintf(f, "| ");
	text(f, label);
	for (int i = 0; i < CT_REF_NFIGS; i++)
		fprintf(f, " | %s", rp_ref_fig(r->median[i], i, b, sizeof(b)));
	fprintf(f, " | %zu | %zu | ", r->nsessions, r->nrefs);
	if (!d)
		fprintf(f, "baseline");
	else if (!d->compared)
		fprintf(f, "-");
	for (int i = 0; d && d->compared && i < CT_REF_NFIGS; i++)
		fprintf(f, "%s%s %s", i ? ", " : "", ct_ref_fig_names[i],
			rp_drift_pct(d->pct[i], b, sizeof(b)));
	fprintf(f, " |\n");
}

/* The host's reference of each config, its drift from the baseline's, and
 * the loads whose effect the drift is at least half of. */
static void drift_md(FILE *f, const struct ct_report *rep)
{
	long base = rep->nblocks ? rep->blocks[0].base_cell : -1;
	bool first = true;
	char p[32];

	if (!rep->have_refs || !rep->drift)
		return;
	fprintf(f, "\n### Host reference\n\nThe median over each config's sessions, and its drift "
		   "against ");
	text(f, rep->base_label);
	fprintf(f, ".\n\n| Config | cpu steps/us | mem GB/s | disk MB/s | Sessions | References | "
		   "Drift |\n|---|--:|--:|--:|--:|--:|---|\n");
	if (base < 0)
		drift_row(f, rep->base_label, &rep->base_ref, NULL);
	for (size_t k = 0; k < rep->nconfigs; k++)
		drift_row(f, rep->drift[k].label, &rep->drift[k].ref,
			  (long)k == base ? NULL : &rep->drift[k]);
	for (size_t k = 0; k < rep->nconfigs; k++) {
		const struct ct_report_drift *d = &rep->drift[k];

		for (size_t i = 0; i < d->nwarnings; i++) {
			fprintf(f, "%s- **warning**: ", first ? "\n" : "");
			first = false;
			text(f, d->warnings[i].load);
			fputc(' ', f);
			text(f, d->label);
			fprintf(f, " vs ");
			text(f, rep->base_label);
			fprintf(f,
				": the host's %s drifted %s between their sessions, at least half "
				"the effect %+.1f%%\n",
				ct_ref_fig_names[d->largest],
				rp_drift_pct(d->pct[d->largest], p, sizeof(p)),
				d->warnings[i].effect_pct);
		}
	}
}

static void numbers_md(FILE *f, const struct ct_report *rep)
{
	const struct ct_report_block *b = &rep->blocks[0];

	fprintf(f, "| Dataset | N | Mean | SD | Median | Min | Max | CoV | %g%% CI of the mean |\n",
		rep->confidence);
	fprintf(f, "|---|--:|--:|--:|--:|--:|--:|--:|---|\n");
	for (size_t i = 0; i < b->ncells; i++) {
		const struct ct_stats_summary *s = &b->cells[i].sum;

		fprintf(f, "| ");
		text(f, b->cells[i].label);
		fprintf(f, " | %zu | %.6g | %.4g | %.6g | %.6g | %.6g | %.2f%% | [%.6g, %.6g] |\n",
			s->n, s->mean, s->sd, s->median, s->min, s->max, s->cov * 100, s->ci_low,
			s->ci_high);
	}
	if (b->ncells < 2)
		return;
	fprintf(f, "\n| Dataset | against | Effect | %g%% interval | p | Test | Verdict |\n",
		rep->confidence);
	fprintf(f, "|---|---|--:|---|--:|---|---|\n");
	for (size_t i = 1; i < b->ncells; i++) {
		const struct ct_report_cell *c = &b->cells[i];

		fprintf(f, "| ");
		text(f, c->label);
		fprintf(f, " | ");
		text(f, b->cells[0].label);
		fprintf(f, " | ");
		if (c->cmp.decided_by == CT_TEST_NONE)
			fprintf(f, "- | - | - | - | ");
		else {
			rp_effect(f, &c->cmp, " | [");
			fprintf(f, " | %.3g | %s | ", c->cmp.p, ct_report_test_name(&c->cmp));
		}
		text(f, ct_report_verdict(rep, c));
		fprintf(f, " |\n");
	}
}

/* One why's tables, below its heading: the time budget (bn's and on's
 * medians) and the counters that ranked; or why there is nothing to say. */
void rp_why_md(FILE *f, const struct ct_why *w, const char *bn, const char *on, double confidence)
{
	const struct ct_why_row *r;
	struct rp_why_text t;

	if (!w->ntested) {
		fprintf(f, "Nothing to say: ");
		text(f, w->none);
		fprintf(f, ".\n");
		return;
	}
	if (w->budget) {
		fprintf(f, "| the tasks' time per run (median) | ");
		text(f, bn);
		fprintf(f, " | ");
		text(f, on);
		fprintf(f, " | shift [%g%% CI] | ranked |\n|---|---|---|---|---|\n", confidence);
		for (size_t k = 0; (r = rp_why_next(w, true, &k));) {
			rp_why_text(r, &t);
			fprintf(f, "| %s | %s | %s | %s [%s, %s] | %s |\n", r->info->what, t.base,
				t.other, t.shift, t.low, t.high, r->ranked ? "yes" : "");
		}
		fputc('\n', f);
	}
	{
		size_t k = 0;

		if (!rp_why_next(w, false, &k)) {
			fprintf(f, "No counter outside the budget ranked (%zu tested).\n",
				w->ntested);
			return;
		}
	}
	fprintf(f,
		"| # | counter | what | shift per run [%g%% CI] | effect | p "
		"(Holm, %zu tested) |\n|---|---|---|---|---|---|\n",
		confidence, w->ntested);
	for (size_t k = 0, n = 0; n < CT_WHY_SHOWN && (r = rp_why_next(w, false, &k));) {
		rp_why_text(r, &t);
		fprintf(f, "| %zu | `%s` | %s %s | %s [%s, %s] | %.1f | %.2g |\n", ++n,
			r->info->name, ct_counter_direction(r->info, r->shift), r->info->what,
			t.shift, t.low, t.high, r->effect, r->p_adj);
	}
}

/* contend why, compare --why: per cell that has one, its time budget and
 * the counters that ranked, as tables. */
static void why_md(FILE *f, const struct ct_report *rep)
{
	for (size_t i = 0; i < rep->nblocks; i++) {
		const struct ct_report_block *b = &rep->blocks[i];
		const char *base = b->base_cell >= 0 ? b->cells[b->base_cell].label : b->base.label;

		for (size_t j = 0; j < b->ncells; j++) {
			const struct ct_why *w = b->cells[j].why;

			if (!w)
				continue;
			fprintf(f, "\n### Why ");
			text(f, b->cells[j].label);
			if (*w->base_load) {
				fprintf(f, " under ");
				text(f, b->load);
				fprintf(f, " differs from its runs under ");
				text(f, w->base_load);
			} else {
				fprintf(f, " differs from ");
				text(f, base);
				fprintf(f, " under ");
				text(f, b->load);
			}
			fprintf(f, "\n\n");
			rp_why_md(f, w, *w->base_load ? w->base_load : base,
				  *w->base_load ? b->load : b->cells[j].label, rep->confidence);
		}
	}
}

int ct_report_print_md(FILE *f, const struct ct_report *rep)
{
	char t[32], sb[48], note[512];

	if (rep->kind == CT_REPORT_NUMBERS) {
		numbers_md(f, rep);
		return 0;
	}
	fprintf(f, "## contend: workload ");
	text(f, rep->workload);
	fprintf(f, " (");
	text(f, rep->params);
	fprintf(f, ")\n");
	for (size_t i = 0; i < rep->nblocks; i++) {
		fprintf(f, "\n### ");
		text(f, rep->blocks[i].load);
		fprintf(f, "\n\n");
		if (rep->figure_kind == CT_FIGURE_TPS)
			score_table(f, &rep->blocks[i]);
		else if (rep->figure_kind == CT_FIGURE_TIME ||
			 rep->figure_kind == CT_FIGURE_LATENCY)
			time_table(f, rep, &rep->blocks[i]);
		else
			figure_table(f, rep, &rep->blocks[i]);
		failures(f, &rep->blocks[i]);
	}
	fputc('\n', f);
	if (rep->scored && !isnan(rep->score_tps)) {
		fprintf(f, "Score = ");
		text(f, rp_score_formula(rep, note, sizeof(note)));
		fprintf(f, " of ");
		text(f, rep->score_label);
		fprintf(f, " (%s%lld).\n", rp_sessions_of(rep->score_nsessions, sb, sizeof(sb)),
			(long long)rep->score_session_id);
	}
	if (rep->figure_kind == CT_FIGURE_OTHER) {
		fprintf(f, "Ratio = ");
		text(f, rp_ratio_note(rep, note, sizeof(note)));
		fprintf(f, ".\n");
	} else if ((rep->figure_kind == CT_FIGURE_TIME || rep->figure_kind == CT_FIGURE_LATENCY) &&
		   !isnan(rep->ref_time_s)) {
		fprintf(f, "Ratio = Time / %s s, the no-load mean of ",
			rp_fmt_time(rep->ref_time_s, t, sizeof(t)));
		text(f, rep->ref_label);
		fprintf(f, " (%s%lld).", rp_sessions_of(rep->ref_nsessions, sb, sizeof(sb)),
			(long long)rep->ref_session_id);
		for (size_t i = 0, n = 0; i < rep->nblocks; i++)
			if (rep->blocks[i].work_unit && strcmp(rep->blocks[i].load, "none"))
				fprintf(f, "%s%s = %s",
					n++ ? ", " : " Loads: ", rep->blocks[i].load,
					rep->blocks[i].work_unit);
		fprintf(f, ".\n");
	}
	latency_md(f, rep);
	verdicts(f, rep);
	why_md(f, rep);
	flagged(f, rep);
	drift_md(f, rep);
	if (rep->ndiffs) {
		fprintf(f, "\n### Configs differ in\n\n| fact |");
		for (size_t k = 0; k < rep->nconfigs; k++) {
			fputc(' ', f);
			text(f, rep->configs[k].label);
			fprintf(f, " |");
		}
		fprintf(f, "\n|---|");
		for (size_t k = 0; k < rep->nconfigs; k++)
			fprintf(f, "---|");
		fputc('\n', f);
		for (size_t d = 0; d < rep->ndiffs; d++) {
			fprintf(f, "| ");
			text(f, rep->diffs[d].name);
			fprintf(f, " |");
			for (size_t k = 0; k < rep->nconfigs; k++) {
				fputc(' ', f);
				text(f, rep->diffs[d].values[k]);
				fprintf(f, " |");
			}
			fputc('\n', f);
		}
	}
	return 0;
}

int ct_report_sessions_md(FILE *f, const struct ct_session_rec *recs, size_t n)
{
	fprintf(f, "| id | started | label | workload | profile | status | runs | failed |\n");
	fprintf(f, "|--:|---|---|---|---|---|--:|--:|\n");
	for (size_t i = 0; i < n; i++) {
		char when[32];
		time_t t = (time_t)(recs[i].started_at / 1000000000);
		struct tm tm;

		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", localtime_r(&t, &tm));
		fprintf(f, "| %lld | %s | ", (long long)recs[i].id, when);
		text(f, recs[i].label);
		fprintf(f, " | ");
		text(f, recs[i].workload);
		fprintf(f, " | %s | %s | %u | %u |\n", recs[i].profile[0] ? recs[i].profile : "-",
			ct_session_status_name(recs[i].status), recs[i].nruns, recs[i].nfailed);
	}
	return 0;
}

int ct_report_sysinfo_md(FILE *f, const struct ct_sysinfo *si, const char *dir)
{
	const char *rows[12][2];
	char bufs[3][32];
	size_t n = rp_sysinfo_rows(si, dir, si->fs_type, rows, bufs);

	fprintf(f, "| fact | value |\n|---|---|\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "| %s | ", rows[i][0]);
		text(f, rows[i][1]);
		fprintf(f, " |\n");
	}
	for (unsigned i = 0; i < si->nsysctl; i++) {
		fprintf(f, "| ");
		text(f, si->sysctl[i].name);
		fprintf(f, " | ");
		text(f, si->sysctl[i].value);
		fprintf(f, " |\n");
	}
	fprintf(f, "| fingerprint | %s |\n", si->fingerprint);
	return 0;
}

/* Per series a table of points, each change point as a row of its own
 * before the session that starts it. */
int ct_history_print_md(FILE *f, const struct ct_history *h)
{
	fprintf(f, "# History of %s\n\n%zu sessions by %s; %s in %s, %s is better.\n", h->workload,
		h->nsessions, h->by_commit ? "commit time" : "start time", h->figure, h->unit,
		h->higher_better ? "higher" : "lower");
	if (h->mixed_params)
		fprintf(f,
			"\nThe sessions ran the workload with other parameters: a series for each "
			"set.\n");
	for (size_t i = 0; i < h->nparam_changes; i++) {
		const struct ct_history_param_change *pc = &h->param_changes[i];
		char d[32];

		fprintf(f, "%s- ", i ? "" : "\n");
		text(f, pc->load);
		fprintf(f, " on ");
		text(f, pc->machine);
		fprintf(f, ": the parameters changed at session %lld (%s): `",
			(long long)pc->session_id, ct_history_date(pc->started_at, d, sizeof(d)));
		text(f, pc->before);
		fprintf(f, "` → `");
		text(f, pc->after);
		fprintf(f, "`\n");
	}
	for (size_t i = 0; i < h->nseries; i++) {
		const struct ct_history_series *s = &h->series[i];
		size_t c = 0;

		fprintf(f, "\n## ");
		text(f, s->load);
		fprintf(f, " (machine ");
		text(f, s->machine);
		if (h->mixed_params) {
			fprintf(f, ", parameters `");
			text(f, s->params);
			fprintf(f, "`");
		}
		fprintf(f,
			")\n\n| # | session | started | commit | label | runs | median | interval "
			"|\n|---:|---:|---|---|---|---:|---:|---|\n");
		for (size_t p = 0; p < s->npoints; p++) {
			const struct ct_history_point *pt = &s->points[p];
			char d[32], m[32], lo[32], hi[32];

			for (; c < s->nchanges && s->changes[c].at == p; c++) {
				const struct ct_history_change *ch = &s->changes[c];

				fprintf(f, "| | **change %zu** | | | ", c + 1);
				rp_history_effect(f, ch);
				fprintf(f, ", %s, p %.2g%s | | | ", rp_history_word(ch), ch->p,
					ch->acked ? ", acknowledged" : "");
				for (size_t k = 0; k < ch->nfacts; k++) {
					fprintf(f, "%s", k ? "; " : "");
					text(f, ch->facts[k].name);
					fprintf(f, ": ");
					text(f, ch->facts[k].before);
					fprintf(f, " → ");
					text(f, ch->facts[k].after);
				}
				fprintf(f, " |\n");
			}
			fprintf(f, "| %zu | %lld | %s | %.12s | ", p + 1, (long long)pt->session_id,
				ct_history_date(pt->started_at, d, sizeof(d)),
				pt->commit[0] ? pt->commit : "-");
			text(f, pt->label);
			fprintf(f, " | %zu | %s | [%s, %s] |\n", pt->n,
				rp_fmt_time(pt->median, m, sizeof(m)),
				rp_fmt_time(pt->low, lo, sizeof(lo)),
				rp_fmt_time(pt->high, hi, sizeof(hi)));
		}
		for (c = 0; c < s->nchanges; c++) {
			const struct ct_history_change *ch = &s->changes[c];
			char a[64], b[64];

			if (!ch->why)
				continue;
			snprintf(a, sizeof(a), "sessions %lld-%lld", (long long)ch->why_from[1],
				 (long long)ch->why_to[1]);
			snprintf(b, sizeof(b), "sessions %lld-%lld", (long long)ch->why_from[0],
				 (long long)ch->why_to[0]);
			fprintf(f, "\n### Why change %zu: %s against %s\n\n", c + 1, a, b);
			rp_why_md(f, ch->why, b, a, h->confidence);
		}
	}
	return ferror(f) ? -EIO : 0;
}

int ct_fleet_print_md(FILE *f, const struct ct_fleet *fl)
{
	char line[512], *notes;

	fprintf(f, "# Fleet summary of ");
	text(f, fl->workload);
	fprintf(f, "\n\n");
	fprintf(f,
		"%zu machine%s, %zu row%s: the newest complete session of each machine and label "
		"(",
		fl->nmachines, fl->nmachines == 1 ? "" : "s", fl->nrows, fl->nrows == 1 ? "" : "s");
	text(f, fl->params);
	fprintf(f, "); %s in %s, %s is better.\n\nBaseline: ", fl->figure, fl->unit,
		fl->higher_better ? "higher" : "lower");
	text(f, rp_fleet_baseline_str(fl, line, sizeof(line)));
	fprintf(f, "; verdicts at %g%% confidence, Holm-adjusted across each row's loads%s.\n",
		fl->confidence, fl->within_session ? ", within sessions" : "");
	fprintf(f,
		"\n| machine | label | session | started | load | runs | %s (%s) | against | "
		"verdict |\n|---|---|---:|---|---|---:|---:|---:|---|\n",
		fl->figure, fl->unit);
	for (size_t k = 0; k < fl->nrows; k++) {
		const struct ct_fleet_row *w = &fl->rows[k];

		for (size_t l = 0; l < fl->nloads; l++) {
			const struct ct_fleet_cell *c = &w->cells[l];
			char d[32], v[32];

			if (!c->n)
				continue;
			fprintf(f, "| ");
			text(f, w->machine);
			fprintf(f, " | ");
			text(f, w->label);
			fprintf(f, " | %lld | %s | ", (long long)w->session_id,
				ct_history_date(w->started_at, d, sizeof(d)));
			text(f, fl->loads[l]);
			fprintf(f, " | %zu | %s | ", c->n,
				rp_fleet_value(fl, c->mean, v, sizeof(v)));
			if (w->base >= 0)
				fprintf(f, "%lld", (long long)fl->rows[w->base].session_id);
			else
				fprintf(f, "-");
			fprintf(f, " | ");
			text(f, rp_fleet_verdict_str(fl, w, c, line, sizeof(line)));
			fprintf(f, " |\n");
		}
	}
	notes = rp_fleet_notes_str(fl);
	if (notes) {
		fputc('\n', f);
		for (char *s = notes, *e; (e = strchr(s, '\n')); s = e + 1) {
			*e = '\0';
			fputs("- ", f);
			text(f, s);
			fputc('\n', f);
		}
		free(notes);
	}
	for (size_t k = 0; k < fl->nrows; k++) {
		const struct ct_fleet_row *w = &fl->rows[k];

		for (size_t l = 0; l < fl->nloads; l++) {
			const struct ct_fleet_row *b = w->base >= 0 ? &fl->rows[w->base] : NULL;

			if (!w->cells[l].why || !b)
				continue;
			fprintf(f, "\n## Why ");
			text(f, w->label);
			fprintf(f, " on ");
			text(f, w->machine);
			fprintf(f, " (session %lld) differs from ", (long long)w->session_id);
			text(f, b->label);
			fprintf(f, " on ");
			text(f, b->machine);
			fprintf(f, " (session %lld) under ", (long long)b->session_id);
			text(f, fl->loads[l]);
			fprintf(f, "\n\n");
			rp_why_md(f, w->cells[l].why, b->label, w->label, fl->confidence);
		}
	}
	return ferror(f) ? -EIO : 0;
}
