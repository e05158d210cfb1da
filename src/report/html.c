/*
 * The HTML printer: one self-contained page over the report model - no
 * network, no script, no external font; inline CSS and SVG, so it reads
 * the same with JavaScript off and can be mailed or archived as one file.
 * Native <title> elements carry the tooltips (a flagged run's evidence, a
 * run's interference). It shows:
 *   - the summary per load: means, Ratio, the effect against the baseline
 *     with its interval, Holm's p and the verdict, coloured only when
 *     significant;
 *   - the plots of src/report/html-plots.c: every run, the effects, oltp's
 *     tps and latency, the session timeline;
 *   - the host's reference of each config and its drift from the
 *     baseline's, with a warning where the drift is at least half of an
 *     effect, and every session's reference below the timeline;
 *   - the latency workload's tasks;
 *   - the system facts in which the configs differ.
 * Every string from the user or the store is escaped; the model computed
 * every figure, this file only places them.
 */
#include "internal.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <string.h>

void rp_html_esc(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*s, f);
		}
}

static bool significant(const struct ct_report_cell *c)
{
	return c->compared &&
	       (c->cmp.outcome == CT_OUTCOME_LOWER || c->cmp.outcome == CT_OUTCOME_HIGHER);
}

void rp_html_page_start(FILE *f, const char *title, const char *what)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>",
	      f);
	rp_html_esc(f, title);
	fputs(": ", f);
	rp_html_esc(f, what);
	fputs("</title>\n<style>\n"
	      "body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:66em;"
	      "padding:0 1em;color:#222;background:#fff}\n"
	      "h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:2em;"
	      "border-bottom:1px solid #ccc}h3{font-size:1em}\n"
	      "table{border-collapse:collapse;margin:.5em 0}th,td{padding:.2em .6em;"
	      "border-bottom:1px solid #e4e4e4;text-align:right}th{background:#f4f4f4}\n"
	      "td.l,th.l{text-align:left}td.n{white-space:nowrap}td.w{overflow-wrap:anywhere}"
	      "tr.better td{background:#e3f4e1}"
	      "tr.worse td{background:#fbe3e1}\n"
	      "figure{margin:1em 0}svg{display:block;margin:.5em "
	      "0;font-size:11px}.grid{stroke:#e6e6e6}"
	      ".tick,.unit{fill:#666}.name{fill:#222}\n"
	      ".run{fill-opacity:.75}.flagged{stroke:#000;stroke-width:1.5}"
	      ".mean{stroke:#000;stroke-width:2}.ci{fill:#000;fill-opacity:.08}\n"
	      ".zero{stroke:#888;stroke-dasharray:3 3}.ramp{fill:#999;fill-opacity:.15}\n"
	      ".warning{color:#a00}.ref{fill:#000}\n"
	      ".note{color:#555}.legend span{display:inline-block;margin-right:1em}"
	      ".legend i{display:inline-block;width:.8em;height:.8em;margin-right:.3em}\n"
	      "</style>\n</head>\n<body>\n<h1>",
	      f);
	rp_html_esc(f, title);
	fputs("</h1>\n", f);
}

static void head(FILE *f, const struct ct_report *rep, const char *command)
{
	rp_html_page_start(f, "contend report", rep->workload);
	fputs("<p class=\"note\">workload <b>", f);
	rp_html_esc(f, rep->workload);
	fputs("</b> (", f);
	rp_html_esc(f, rep->params);
	fputs("), baseline <b>", f);
	rp_html_esc(f, rep->base_label);
	fprintf(f, "</b>, %g%% confidence; made by <code>contend ", rep->confidence);
	rp_html_esc(f, command);
	fprintf(f, "</code> %s</p>\n", ct_version);
}

static const char *ratio_text(double r, char buf[32])
{
	snprintf(buf, 32, "%.2f", r);
	return buf;
}

/* A command's other figures under its config's row: each one's mean and
 * unit, and its comparison (Holm-adjusted among the figures, never
 * deciding the verdict of the row above). */
static void secondary_rows(FILE *f, const struct ct_report *rep, const struct ct_report_cell *c)
{
	for (unsigned k = 0; k < rep->nextra; k++) {
		const struct ct_report_extra *x = &rep->extra[k];
		const struct ct_stats_comparison *v = &c->extra_cmp[k];
		double m = rp_metric(c, x->metric);

		if (!x->secondary || isnan(m))
			continue;
		fputs("<tr class=\"secondary\"><td></td><td class=\"l\">&nbsp;&nbsp;", f);
		rp_html_esc(f, x->metric);
		fprintf(f, "</td><td></td><td>%.6g ", m);
		rp_html_esc(f, x->unit);
		fprintf(f, "</td><td colspan=\"4\" class=\"l\">%s is better</td><td>",
			x->higher_better ? "higher" : "lower");
		if (c->compared && v->decided_by != CT_TEST_NONE) {
			ct_report_print_effect(f, v);
			fprintf(f, "</td><td>%.2g</td><td class=\"l\">", v->p_adj);
			rp_html_esc(f, ct_report_outcome(rep, v, x->higher_better));
			fputs(" <span class=\"note\">(secondary: never gates)</span></td></tr>\n",
			      f);
		} else {
			fputs("-</td><td>-</td><td class=\"l\">-</td></tr>\n", f);
		}
	}
}

static void summary_row(FILE *f, const struct ct_report *rep, const struct ct_report_block *b,
			const struct ct_report_cell *c)
{
	const struct ct_stats_comparison *v = &c->cmp;
	char t[32], note[1536];

	fprintf(f, "<tr class=\"%s\" data-load=\"",
		significant(c) ? ct_report_verdict(rep, c) : "");
	rp_html_esc(f, b->load);
	fputs("\" data-config=\"", f);
	rp_html_esc(f, c->label);
	fputs("\"><td class=\"l\">", f);
	rp_html_esc(f, b->load);
	fputs("</td><td class=\"l\">", f);
	rp_html_esc(f, c->label);
	fprintf(f, "</td><td>%u</td>", c->g.n);
	if (!c->g.n) {
		fputs("<td colspan=\"8\" class=\"l\">no ok runs</td></tr>\n", f);
		return;
	}
	if (rep->figure_kind == CT_FIGURE_OTHER) /* IOPS, a command's: mean and Ratio */
		fprintf(f, "<td>%.6g</td><td>-</td><td>-</td><td>-</td><td>%s</td>",
			c->n ? c->sum.mean : NAN, isnan(c->ratio) ? "-" : ratio_text(c->ratio, t));
	else if (rep->figure_kind != CT_FIGURE_TIME) /* tps, p99: the figure's mean */
		fprintf(f, "<td>%.1f</td><td>-</td><td>-</td><td>-</td><td>-</td>",
			c->n ? c->sum.mean : NAN);
	else if (!strcmp(b->load, "none"))
		fprintf(f, "<td>%s</td><td>%.0f%%</td><td>-</td><td>-</td><td>%.2f</td>",
			rp_fmt_time(c->g.time_s, t, sizeof(t)), c->g.cpu_pct, c->ratio);
	else if (isnan(c->g.loads)) /* a --load-cmd that counts no work */
		fprintf(f, "<td>%s</td><td>%.0f%%</td><td>-</td><td>%.0f%%</td><td>%.2f</td>",
			rp_fmt_time(c->g.time_s, t, sizeof(t)), c->g.cpu_pct, c->g.lcpu_pct,
			c->ratio);
	else
		fprintf(f, "<td>%s</td><td>%.0f%%</td><td>%.0f</td><td>%.0f%%</td><td>%.2f</td>",
			rp_fmt_time(c->g.time_s, t, sizeof(t)), c->g.cpu_pct, c->g.loads,
			c->g.lcpu_pct, c->ratio);
	if (!c->compared) {
		fputs("<td class=\"l\" colspan=\"3\">baseline</td></tr>\n", f);
		return;
	}
	fputs("<td>", f);
	if (v->decided_by != CT_TEST_NONE) {
		ct_report_print_effect(f, v);
		fprintf(f, "</td><td>%.2g</td>", v->p_adj);
	} else {
		fputs("-</td><td>-</td>", f);
	}
	fputs("<td class=\"l\">", f);
	rp_html_esc(f, ct_report_verdict(rep, c));
	if (v->decided_by != CT_TEST_NONE && rp_scope_note(rep, b, c, note, sizeof(note))[0]) {
		fputs(" <span class=\"note\">(", f);
		rp_html_esc(f, note);
		fputs(")</span>", f);
	}
	fputs("</td></tr>\n", f);
}

static void summary(FILE *f, const struct ct_report *rep)
{
	char t[32], head[48], sb[48], note[512];

	fprintf(f,
		"<h2 id=\"summary\">Summary</h2>\n<div style=\"overflow-x:auto\"><table "
		"class=\"summary\">\n<tr><th "
		"class=\"l\">Load</th><th class=\"l\">Config</th><th>runs</th><th>%s</th>"
		"<th>CPU%%</th><th>Loads</th><th>LCPU%%</th><th>Ratio</th><th>Effect "
		"[%g%% interval]</th><th>Holm p</th><th class=\"l\">Verdict</th></tr>\n",
		rp_figure_head(rep, head, sizeof(head)), rep->confidence);
	for (size_t i = 0; i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].ncells; j++) {
			summary_row(f, rep, &rep->blocks[i], &rep->blocks[i].cells[j]);
			secondary_rows(f, rep, &rep->blocks[i].cells[j]);
		}
	fputs("</table></div>\n<p class=\"note\">", f);
	if ((rep->figure_kind == CT_FIGURE_TIME || rep->figure_kind == CT_FIGURE_LATENCY) &&
	    !isnan(rep->ref_time_s)) {
		fprintf(f, "Ratio = Time / %s s, the no-load mean of ",
			rp_fmt_time(rep->ref_time_s, t, sizeof(t)));
		rp_html_esc(f, rep->ref_label);
		fprintf(f, " (%s%lld). ", rp_sessions_of(rep->ref_nsessions, sb, sizeof(sb)),
			(long long)rep->ref_session_id);
	}
	if (rep->figure_kind == CT_FIGURE_OTHER) {
		fputs("Ratio = ", f);
		rp_html_esc(f, rp_ratio_note(rep, note, sizeof(note)));
		fputs(". ", f);
	}
	if (rep->scored && !isnan(rep->score_tps)) {
		fputs("Score = ", f);
		rp_html_esc(f, rp_score_formula(rep, note, sizeof(note)));
		fputs(" of ", f);
		rp_html_esc(f, rep->score_label);
		fputs(". ", f);
	}
	fprintf(f, "Effects and p-values come from the test that decides (Mann-Whitney, or the "
		   "signed-rank test over paired blocks), Holm-adjusted across the loads; a row "
		   "is coloured only when the difference is significant.</p>\n");
}

/* Every session shown with the median of the references it took. */
static void session_refs_table(FILE *f, const struct ct_report *rep)
{
	char b[32];

	if (!rep->have_refs)
		return;
	fputs("<table class=\"refs\">\n<tr><th>Session</th><th class=\"l\">Config</th>"
	      "<th>References</th><th>cpu steps/us</th><th>mem GB/s</th><th>disk "
	      "MB/s</th></tr>\n",
	      f);
	for (size_t i = 0; i < rep->nsession_refs; i++) {
		const struct ct_report_session_ref *s = &rep->session_refs[i];

		fprintf(f, "<tr><td>%lld</td><td class=\"l\">", (long long)s->session_id);
		rp_html_esc(f, s->label);
		fprintf(f, "</td><td>%zu</td>", s->nrefs);
		for (int k = 0; k < CT_REF_NFIGS; k++)
			fprintf(f, "<td>%s</td>", rp_ref_fig(s->ref.median[k], k, b, sizeof(b)));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<p class=\"note\">The host's reference per session: the median of "
	      "the references it took at its start, between rounds and at its end (a mark on "
	      "the timeline each, its figures in its title); - where it took none.</p>\n",
	      f);
}

static void drift_row(FILE *f, const char *label, const struct ct_report_ref *r,
		      const struct ct_report_drift *d)
{
	char b[32];

	fputs("<tr><td class=\"l\">", f);
	rp_html_esc(f, label);
	fputs("</td>", f);
	for (int i = 0; i < CT_REF_NFIGS; i++)
		fprintf(f, "<td>%s</td>", rp_ref_fig(r->median[i], i, b, sizeof(b)));
	fprintf(f, "<td>%zu</td><td>%zu</td>", r->nsessions, r->nrefs);
	for (int i = 0; i < CT_REF_NFIGS; i++)
		fprintf(f, "<td>%s</td>",
			!d	      ? (i ? "" : "baseline")
			: d->compared ? rp_drift_pct(d->pct[i], b, sizeof(b))
				      : "-");
	fputs("</tr>\n", f);
}

/* The host's reference of each config, its drift from the baseline's and
 * the loads whose effect the drift is at least half of. */
static void drift_html(FILE *f, const struct ct_report *rep)
{
	long base = rep->nblocks ? rep->blocks[0].base_cell : -1;
	char p[32];

	if (!rep->have_refs || !rep->drift)
		return;
	fputs("<h2 id=\"drift\">Host reference and drift</h2>\n<table class=\"drift\">\n<tr><th "
	      "class=\"l\">Config</th><th>cpu steps/us</th><th>mem GB/s</th><th>disk "
	      "MB/s</th><th>Sessions</th><th>References</th><th>cpu drift</th><th>mem "
	      "drift</th><th>disk drift</th></tr>\n",
	      f);
	if (base < 0)
		drift_row(f, rep->base_label, &rep->base_ref, NULL);
	for (size_t k = 0; k < rep->nconfigs; k++)
		drift_row(f, rep->drift[k].label, &rep->drift[k].ref,
			  (long)k == base ? NULL : &rep->drift[k]);
	fputs("</table>\n", f);
	for (size_t k = 0; k < rep->nconfigs; k++) {
		const struct ct_report_drift *d = &rep->drift[k];

		for (size_t i = 0; i < d->nwarnings; i++) {
			fputs("<p class=\"warning\"><b>warning</b>: ", f);
			rp_html_esc(f, d->warnings[i].load);
			fputs(" ", f);
			rp_html_esc(f, d->label);
			fputs(" vs ", f);
			rp_html_esc(f, rep->base_label);
			fprintf(f,
				": the host's %s drifted %s between their sessions, at least half "
				"the effect %+.1f%%</p>\n",
				ct_ref_fig_names[d->largest],
				rp_drift_pct(d->pct[d->largest], p, sizeof(p)),
				d->warnings[i].effect_pct);
		}
	}
	fputs("<p class=\"note\">The median over each config's sessions of the references "
	      "each took (CPU speed, memcpy bandwidth, a small synced write in the work "
	      "directory), and how far a config's moved from the baseline's: a drift at least "
	      "half of a significant effect is warned of, as it could account for it.</p>\n",
	      f);
}

static void configs(FILE *f, const struct ct_report *rep)
{
	fputs("<h2 id=\"configs\">Configs</h2>\n", f);
	if (!rep->ndiffs) {
		fprintf(f, "<p class=\"note\">%s</p>\n",
			rep->nconfigs > 1 ? "The configs' captured system facts are the same "
					    "(kernel, cmdline, CPU, memory, filesystem, "
					    "scheduler, sysctls)."
					  : "One config.");
	} else {
		fputs("<table class=\"diff\">\n<tr><th class=\"l\">differs in</th>", f);
		for (size_t k = 0; k < rep->nconfigs; k++) {
			fputs("<th class=\"l\">", f);
			rp_html_esc(f, rep->configs[k].label);
			fputs("</th>", f);
		}
		fputs("</tr>\n", f);
		for (size_t d = 0; d < rep->ndiffs; d++) {
			fputs("<tr><td class=\"l\">", f);
			rp_html_esc(f, rep->diffs[d].name);
			fputs("</td>", f);
			for (size_t k = 0; k < rep->nconfigs; k++) {
				fputs("<td class=\"l\">", f);
				rp_html_esc(f, rep->diffs[d].values[k][0] ? rep->diffs[d].values[k]
									  : "-");
				fputs("</td>", f);
			}
			fputs("</tr>\n", f);
		}
		fputs("</table>\n", f);
	}
	fputs("<p class=\"note\">fingerprints:", f);
	for (size_t k = 0; k < rep->nconfigs; k++) {
		fputs(" ", f);
		rp_html_esc(f, rep->configs[k].label);
		fprintf(f, " %s", rep->configs[k].config_id ? rep->configs[k].si.fingerprint : "-");
	}
	fputs("</p>\n", f);
}

static void html_num(FILE *f, double v, double scale, int decimals)
{
	if (isnan(v))
		fputs("<td>-</td>", f);
	else
		fprintf(f, "<td>%.*f</td>", decimals, v / scale);
}

struct html_rows {
	FILE *f;
	bool heading;
};

static void html_latency_row(void *ctx, const char *load, const char *label, const char *task,
			     const double v[6])
{
	struct html_rows *m = ctx;

	if (!m->heading)
		fputs("<h2 id=\"latency\">Latency</h2>\n<div style=\"overflow-x:auto\"><table "
		      "class=\"summary\">\n<tr><th class=\"l\">Load</th><th "
		      "class=\"l\">Config</th><th class=\"l\">Task</th><th>Mean ms</th><th>p50 "
		      "ms</th><th>p99 ms</th><th>Max ms</th><th>CPU%</th><th>Met%</th></tr>\n",
		      m->f);
	m->heading = true;
	fputs("<tr><td class=\"l\">", m->f);
	rp_html_esc(m->f, load);
	fputs("</td><td class=\"l\">", m->f);
	rp_html_esc(m->f, label);
	fputs("</td><td class=\"l\">", m->f);
	rp_html_esc(m->f, task);
	fputs("</td>", m->f);
	for (int k = 0; k < 4; k++)
		html_num(m->f, v[k], 1e3, 3);
	html_num(m->f, v[4], 1, 1);
	html_num(m->f, v[5], 1, 1);
	fputs("</tr>\n", m->f);
}

/* The latency workload's tasks and the wakeup probe: the means over the
 * runs of each run's figures, in ms. */
static void latency_tables(FILE *f, const struct ct_report *rep)
{
	struct html_rows m = { f, false };

	rp_latency_rows(rep, html_latency_row, &m);
	if (m.heading)
		fputs("</table></div>\n<p class=\"note\">Means over the runs of each run's "
		      "figures. Latency: how late a period began (gaming: a frame's overrun; the "
		      "wakeup probe: how late it woke). CPU%: of the share asked for. Met%: "
		      "periods done by their deadline.</p>\n",
		      f);
}

/* One why's tables, below its heading: the time budget and the counters
 * that ranked; or why there is nothing to say. */
void rp_why_html(FILE *f, const struct ct_why *w, double confidence)
{
	const struct ct_why_row *r;
	struct rp_why_text t;

	if (!w->ntested) {
		fputs("<p>Nothing to say: ", f);
		rp_html_esc(f, w->none);
		fputs(".</p>\n", f);
		return;
	}
	if (w->budget) {
		fprintf(f,
			"<table class=\"why\"><tr><th>the tasks' time per run (median)</th>"
			"<th>baseline</th><th>this</th><th>shift [%g%% "
			"CI]</th><th>ranked</th></tr>\n",
			confidence);
		for (size_t k = 0; (r = rp_why_next(w, true, &k));) {
			rp_why_text(r, &t);
			fputs("<tr><td>", f);
			rp_html_esc(f, r->info->what);
			fprintf(f,
				"</td><td>%s</td><td>%s</td><td>%s [%s, %s]</td><td>%s</td></tr>\n",
				t.base, t.other, t.shift, t.low, t.high, r->ranked ? "yes" : "");
		}
		fputs("</table>\n", f);
	}
	{
		size_t k = 0;

		if (!rp_why_next(w, false, &k)) {
			fprintf(f, "<p>No counter outside the budget ranked (%zu tested).</p>\n",
				w->ntested);
			return;
		}
	}
	fprintf(f,
		"<table class=\"why\"><tr><th>#</th><th>counter</th><th>what</th><th>shift per "
		"run [%g%% CI]</th><th>effect</th><th>p (Holm, %zu tested)</th></tr>\n",
		confidence, w->ntested);
	for (size_t k = 0, n = 0; n < CT_WHY_SHOWN && (r = rp_why_next(w, false, &k));) {
		rp_why_text(r, &t);
		fprintf(f, "<tr><td>%zu</td><td>%s</td><td>%s ", ++n, r->info->name,
			ct_counter_direction(r->info, r->shift));
		rp_html_esc(f, r->info->what);
		fprintf(f, "</td><td>%s [%s, %s]</td><td>%.1f</td><td>%.2g</td></tr>\n", t.shift,
			t.low, t.high, r->effect, r->p_adj);
	}
	fputs("</table>\n", f);
}

/* contend why, compare --why: each cell's time budget and the counters
 * that ranked, as tables. */
static void why_html(FILE *f, const struct ct_report *rep)
{
	bool any = false;

	for (size_t i = 0; i < rep->nblocks; i++) {
		const struct ct_report_block *b = &rep->blocks[i];
		const char *base = b->base_cell >= 0 ? b->cells[b->base_cell].label : b->base.label;

		for (size_t j = 0; j < b->ncells; j++) {
			const struct ct_why *w = b->cells[j].why;

			if (!w)
				continue;
			if (!any)
				fputs("<h2 id=\"why\">Why</h2>\n", f);
			any = true;
			fputs("<h3>", f);
			rp_html_esc(f, b->cells[j].label);
			fputs(*w->base_load ? " under " : " against ", f);
			rp_html_esc(f, *w->base_load ? b->load : base);
			fputs(*w->base_load ? " against its runs under " : " under ", f);
			rp_html_esc(f, *w->base_load ? w->base_load : b->load);
			fputs("</h3>\n", f);
			rp_why_html(f, w, rep->confidence);
		}
	}
}

int ct_report_print_html(FILE *f, const struct ct_report *rep, const char *command)
{
	if (rep->kind != CT_REPORT_RUNS)
		return -EINVAL;
	head(f, rep, command);
	summary(f, rep);
	fputs("<h2 id=\"runs\">Every run</h2>\n", f);
	for (size_t i = 0; i < rep->nblocks; i++)
		rp_html_dotplot(f, rep, &rep->blocks[i]);
	rp_html_forest(f, rep);
	why_html(f, rep);
	drift_html(f, rep);
	latency_tables(f, rep);
	if (rep->figure_kind == CT_FIGURE_TPS) {
		fputs("<h2 id=\"oltp\">tps and latency</h2>\n", f);
		for (size_t i = 0; i < rep->nblocks; i++) {
			rp_html_tps_series(f, &rep->blocks[i]);
			rp_html_latency(f, &rep->blocks[i]);
		}
	}
	if (rp_html_timeline(f, rep))
		session_refs_table(f, rep);
	configs(f, rep);
	fputs("</body>\n</html>\n", f);
	return ferror(f) ? -EIO : 0;
}
