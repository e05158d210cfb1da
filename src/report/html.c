/*
 * The HTML printer: one self-contained page over the report model - no
 * network, no script, no external font; inline CSS and SVG, so it reads
 * the same with JavaScript off and can be mailed or archived as one file.
 * Native <title> elements carry the tooltips (a flagged run's evidence, a
 * run's interference). It shows:
 *   - the summary per load: means, Ratio, the effect against the baseline
 *     with its interval, Holm's p and the verdict, coloured only when
 *     significant;
 *   - per load, every run of every config as a dot (flagged runs ringed),
 *     with the mean and its confidence interval;
 *   - a forest plot: each config's effect per load with its interval;
 *   - oltp: tps per second of every run after its ramp-up (shaded; the
 *     engine records no series during it), and the latency percentiles
 *     on a log axis;
 *   - the host's reference of each config and its drift from the
 *     baseline's, with a warning where the drift is at least half of an
 *     effect;
 *   - the session timeline: which config and load ran when (the
 *     interleaving), each run's PSI, steal and foreign CPU in its title,
 *     and each reference the host gave (a mark, its figures in its
 *     title), with every session's reference below;
 *   - the system facts in which the configs differ.
 * Every string from the user or the store is escaped; the model computed
 * every figure, this file only places them.
 */
#include "internal.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define W	 760 /* plot width, px */
#define RIGHT	 20
#define ROW	 26
#define AXIS	 34
#define NCOLOURS 8

static const char *const colours[NCOLOURS] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd",
					       "#ff7f0e", "#17becf", "#8c564b", "#e377c2" };

/* Room for row labels of up to n characters, px. */
static double label_room(size_t n)
{
	double px = 6.8 * (double)n + 20;

	return px < 90 ? 90 : px > 330 ? 330 : px;
}

/* The widest row label of a block, in characters. */
static size_t widest(const struct ct_report_block *b)
{
	size_t n = 0;

	for (size_t j = 0; j < b->ncells; j++)
		if (strlen(b->cells[j].label) > n)
			n = strlen(b->cells[j].label);
	return n;
}

static void esc(FILE *f, const char *s)
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

/* An axis over [lo, hi]: ticks at 1, 2 or 5 times a power of ten. */
struct axis {
	double lo, hi;
	double x0, x1; /* pixels */
	bool log;
};

static double to_px(const struct axis *a, double v)
{
	double t = a->log ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo))
			  : (v - a->lo) / (a->hi - a->lo);

	return a->x0 + t * (a->x1 - a->x0);
}

static double clamp(const struct axis *a, double px)
{
	double lo = a->x0 < a->x1 ? a->x0 : a->x1, hi = a->x0 < a->x1 ? a->x1 : a->x0;

	return px < lo ? lo : px > hi ? hi : px;
}

static void axis_range(struct axis *a, double lo, double hi, double x0, double x1)
{
	double pad;

	if (!isfinite(lo) || !isfinite(hi)) {
		lo = 0;
		hi = 1;
	}
	if (hi <= lo) {
		pad = fabs(lo) > 0 ? fabs(lo) * 0.05 : 0.5;
		lo -= pad;
		hi += pad;
	}
	pad = (hi - lo) * 0.06;
	a->lo = lo - pad;
	a->hi = hi + pad;
	a->x0 = x0;
	a->x1 = x1;
	a->log = false;
}

static double tick_step(double span)
{
	double raw = span / 6, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* Ticks and their labels along y (horizontal axis) or x (vertical). */
static void draw_axis(FILE *f, const struct axis *a, bool horizontal, double at, double from,
		      double to, const char *unit)
{
	double step, v;

	if (a->log) {
		for (v = pow(10, floor(log10(a->lo))); v <= a->hi * 1.0001; v *= 10) {
			double p;

			if (v < a->lo)
				continue;
			p = to_px(a, v);
			fprintf(f,
				"<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\"/><text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
				"text-anchor=\"end\">%g %s</text>\n",
				from, p, to, p, from - 4, p + 4, v, unit);
		}
		return;
	}
	step = tick_step(a->hi - a->lo);
	for (v = ceil(a->lo / step) * step; v <= a->hi + step * 1e-9; v += step) {
		double p = to_px(a, v), shown = fabs(v) < step * 1e-6 ? 0 : v;

		if (horizontal)
			fprintf(f,
				"<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\"/><text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
				"text-anchor=\"middle\">%g</text>\n",
				p, from, p, to, p, at + 14, shown);
		else
			fprintf(f,
				"<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\"/><text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
				"text-anchor=\"end\">%g</text>\n",
				from, p, to, p, from - 4, p + 4, shown);
	}
	if (horizontal && unit)
		fprintf(f,
			"<text class=\"unit\" x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"end\">%s</text>\n",
			a->x1, at + 28, unit);
}

static const char *unit_of(const struct ct_report *rep)
{
	return rep->unit;
}

static bool significant(const struct ct_report_cell *c)
{
	return c->compared &&
	       (c->cmp.outcome == CT_OUTCOME_LOWER || c->cmp.outcome == CT_OUTCOME_HIGHER);
}

static void head(FILE *f, const struct ct_report *rep, const char *command)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>contend report: ",
	      f);
	esc(f, rep->workload);
	fputs("</title>\n<style>\n"
	      "body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:66em;"
	      "padding:0 1em;color:#222;background:#fff}\n"
	      "h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:2em;"
	      "border-bottom:1px solid #ccc}h3{font-size:1em}\n"
	      "table{border-collapse:collapse;margin:.5em 0}th,td{padding:.2em .6em;"
	      "border-bottom:1px solid #e4e4e4;text-align:right}th{background:#f4f4f4}\n"
	      "td.l,th.l{text-align:left}tr.better td{background:#e3f4e1}"
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
	      "</style>\n</head>\n<body>\n<h1>contend report</h1>\n<p class=\"note\">workload <b>",
	      f);
	esc(f, rep->workload);
	fputs("</b> (", f);
	esc(f, rep->params);
	fputs("), baseline <b>", f);
	esc(f, rep->base_label);
	fprintf(f, "</b>, %g%% confidence; made by <code>contend ", rep->confidence);
	esc(f, command);
	fprintf(f, "</code> %s</p>\n", CT_VERSION);
}

static void summary_row(FILE *f, const struct ct_report *rep, const struct ct_report_block *b,
			const struct ct_report_cell *c)
{
	const struct ct_stats_comparison *v = &c->cmp;
	char t[32], note[256];

	fprintf(f, "<tr class=\"%s\" data-load=\"",
		significant(c) ? ct_report_verdict(rep, c) : "");
	esc(f, b->load);
	fputs("\" data-config=\"", f);
	esc(f, c->label);
	fputs("\"><td class=\"l\">", f);
	esc(f, b->load);
	fputs("</td><td class=\"l\">", f);
	esc(f, c->label);
	fprintf(f, "</td><td>%u</td>", c->g.n);
	if (!c->g.n) {
		fputs("<td colspan=\"8\" class=\"l\">no ok runs</td></tr>\n", f);
		return;
	}
	if (strcmp(rep->figure_key, "time_s")) /* tps, p99, IOPS: the figure's mean */
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
	esc(f, ct_report_verdict(rep, c));
	if (v->decided_by != CT_TEST_NONE && rp_scope_note(rep, b, c, note, sizeof(note))[0]) {
		fputs(" <span class=\"note\">(", f);
		esc(f, note);
		fputs(")</span>", f);
	}
	fputs("</td></tr>\n", f);
}

static void summary(FILE *f, const struct ct_report *rep)
{
	char t[32], head[48], sb[48];

	fprintf(f,
		"<h2 id=\"summary\">Summary</h2>\n<div style=\"overflow-x:auto\"><table "
		"class=\"summary\">\n<tr><th "
		"class=\"l\">Load</th><th class=\"l\">Config</th><th>runs</th><th>%s</th>"
		"<th>CPU%%</th><th>Loads</th><th>LCPU%%</th><th>Ratio</th><th>Effect "
		"[%g%% interval]</th><th>Holm p</th><th class=\"l\">Verdict</th></tr>\n",
		rp_figure_head(rep, head, sizeof(head)), rep->confidence);
	for (size_t i = 0; i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].ncells; j++)
			summary_row(f, rep, &rep->blocks[i], &rep->blocks[i].cells[j]);
	fputs("</table></div>\n<p class=\"note\">", f);
	if ((!strcmp(rep->figure_key, "time_s") || !strcmp(rep->figure_key, CT_METRIC_LATENCY)) &&
	    !isnan(rep->ref_time_s)) {
		fprintf(f, "Ratio = Time / %s s, the no-load mean of ",
			rp_fmt_time(rep->ref_time_s, t, sizeof(t)));
		esc(f, rep->ref_label);
		fprintf(f, " (%s%lld). ", rp_sessions_of(rep->ref_nsessions, sb, sizeof(sb)),
			(long long)rep->ref_session_id);
	}
	if (rep->higher_better && !isnan(rep->score_tps)) {
		fprintf(f, "Score = 1000 &times; tps / %.2f, the no-load mean tps of ",
			rep->score_tps);
		esc(f, rep->score_label);
		fputs(". ", f);
	}
	fprintf(f, "Effects and p-values come from the test that decides (Mann-Whitney, or the "
		   "signed-rank test over paired blocks), Holm-adjusted across the loads; a row "
		   "is coloured only when the difference is significant.</p>\n");
}

/* A run's title: its figure and, for a flagged one, the evidence. */
static void run_title(FILE *f, const struct ct_report *rep, const struct ct_report_cell *c,
		      size_t v)
{
	const struct ct_run *r = c->ok ? c->ok[v] : NULL;
	const struct ct_report_flag *fl = rp_flag_of(c, (long)v);

	fprintf(f, "<title>");
	esc(f, c->label);
	fprintf(f, " run %u: %.4g %s", r ? r->seq : (unsigned)v + 1, c->values[v], unit_of(rep));
	if (fl && fl->unmonitored) {
		fputs(" - flagged; imported, no monitors to say why", f);
	} else if (fl) {
		fprintf(f, " - flagged: foreign CPU %.0f%%, steal %.1f%%, PSI %s some %.0f%%",
			fl->foreign_pct, fl->steal_pct, fl->psi_resource, fl->psi_pct);
		if (!isnan(fl->load_rate))
			fprintf(f, ", load %.4g/s (median %.4g)", fl->load_rate,
				fl->load_rate_median);
		if (!isnan(fl->cpu_speed_rel))
			fprintf(f, ", CPU speed %.0f%% of the median", 100 * fl->cpu_speed_rel);
		fprintf(f, "; %s", fl->likely_fluke ? "likely fluke" : "no interference seen");
	}
	fprintf(f, "</title>");
}

/* Every run of one load, a row per config. */
static void dotplot(FILE *f, const struct ct_report *rep, const struct ct_report_block *b)
{
	double lo = INFINITY, hi = -INFINITY;
	double h = (double)b->ncells * ROW + AXIS, left = label_room(widest(b));
	struct axis a;

	for (size_t j = 0; j < b->ncells; j++)
		for (size_t v = 0; v < b->cells[j].n; v++) {
			lo = fmin(lo, b->cells[j].values[v]);
			hi = fmax(hi, b->cells[j].values[v]);
		}
	axis_range(&a, lo, hi, left, W - RIGHT);
	fputs("<figure>\n<figcaption><b>", f);
	esc(f, b->load);
	fprintf(f,
		"</b>: every run (%s); the bar is the mean with its %g%% interval, a ring "
		"marks a flagged run</figcaption>\n",
		unit_of(rep), rep->confidence);
	fputs("<svg class=\"dotplot\" data-load=\"", f);
	esc(f, b->load);
	fprintf(f, "\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" role=\"img\">\n", W, h,
		W, h);
	draw_axis(f, &a, true, h - AXIS + 4, 0, h - AXIS, unit_of(rep));
	for (size_t j = 0; j < b->ncells; j++) {
		const struct ct_report_cell *c = &b->cells[j];
		double y = (double)j * ROW + ROW / 2.0;

		fputs("<g class=\"config\" data-config=\"", f);
		esc(f, c->label);
		fprintf(f, "\"><text class=\"name\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">",
			left - 8, y + 4);
		esc(f, c->label);
		fputs("</text>\n", f);
		if (c->have_summary && isfinite(c->sum.ci_low))
			fprintf(f,
				"<rect class=\"ci\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%d\"/><line class=\"mean\" x1=\"%.1f\" y1=\"%.1f\" "
				"x2=\"%.1f\" y2=\"%.1f\"/>\n",
				clamp(&a, to_px(&a, c->sum.ci_low)), y - 9,
				fmax(1, clamp(&a, to_px(&a, c->sum.ci_high)) -
						clamp(&a, to_px(&a, c->sum.ci_low))),
				18, to_px(&a, c->sum.mean), y - 10, to_px(&a, c->sum.mean), y + 10);
		for (size_t v = 0; v < c->n; v++) {
			/* a small fixed jitter so equal values stay visible */
			double dy = ((double)(v % 5) - 2) * 2.5;

			fprintf(f,
				"<circle class=\"run%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
				"fill=\"%s\">",
				rp_flag_of(c, (long)v) ? " flagged" : "", to_px(&a, c->values[v]),
				y + dy, colours[j % NCOLOURS]);
			run_title(f, rep, c, v);
			fputs("</circle>\n", f);
		}
		fputs("</g>\n", f);
	}
	fputs("</svg>\n</figure>\n", f);
}

/* The effect as a percentage change (ratio scale) or a difference. */
static double effect_shown(const struct ct_stats_comparison *v, double x)
{
	return v->ratio_scale ? (x - 1) * 100 : x;
}

/* Each compared config's effect per load, with its interval. */
static void forest(FILE *f, const struct ct_report *rep)
{
	double lo = 0, hi = 0, h, left;
	size_t rows = 0, row = 0, wide = 0;
	bool ratio = true;
	struct axis a;

	for (size_t i = 0; i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].ncells; j++) {
			const struct ct_report_cell *c = &rep->blocks[i].cells[j];
			double l, u;

			if (!c->compared || c->cmp.decided_by == CT_TEST_NONE)
				continue;
			rows++;
			if (strlen(c->label) + strlen(rep->blocks[i].load) + 3 > wide)
				wide = strlen(c->label) + strlen(rep->blocks[i].load) + 3;
			ratio &= c->cmp.ratio_scale;
			l = effect_shown(&c->cmp, c->cmp.effect_low);
			u = effect_shown(&c->cmp, c->cmp.effect_high);
			if (isfinite(l))
				lo = fmin(lo, l);
			if (isfinite(u))
				hi = fmax(hi, u);
		}
	if (!rows) {
		for (size_t j = 0; rep->nblocks && j < rep->blocks[0].ncells; j++)
			rows += rep->blocks[0].cells[j].compared;
		if (rows)
			fputs("<h2 id=\"effects\">Effects against the baseline</h2>\n<p "
			      "class=\"note\">No comparison could decide (see the verdicts above): "
			      "nothing to plot.</p>\n",
			      f);
		return;
	}
	h = (double)rows * ROW + AXIS;
	left = label_room(wide);
	axis_range(&a, lo, hi, left, W - RIGHT);
	fprintf(f, "<h2 id=\"effects\">Effects against the baseline</h2>\n<figure>\n<figcaption>"
		   "each config against ");
	esc(f, rep->base_label);
	fprintf(f, ", per load: the estimate and its %g%% interval (%s)</figcaption>\n",
		rep->confidence, ratio ? "% change" : "difference");
	fprintf(f,
		"<svg class=\"forest\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" "
		"role=\"img\">\n",
		W, h, W, h);
	draw_axis(f, &a, true, h - AXIS + 4, 0, h - AXIS, ratio ? "%" : NULL);
	fprintf(f, "<line class=\"zero\" x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%.0f\"/>\n",
		to_px(&a, 0), to_px(&a, 0), h - AXIS);
	for (size_t i = 0; i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].ncells; j++) {
			const struct ct_report_cell *c = &rep->blocks[i].cells[j];
			const struct ct_stats_comparison *v = &c->cmp;
			double y = (double)row * ROW + ROW / 2.0;
			double l, u, e;

			if (!c->compared || v->decided_by == CT_TEST_NONE)
				continue;
			row++;
			l = effect_shown(v, v->effect_low);
			u = effect_shown(v, v->effect_high);
			e = effect_shown(v, v->effect);
			l = isfinite(l) ? l : a.lo;
			u = isfinite(u) ? u : a.hi;
			fputs("<g class=\"effect\" data-load=\"", f);
			esc(f, rep->blocks[i].load);
			fputs("\" data-config=\"", f);
			esc(f, c->label);
			fprintf(f,
				"\"><text class=\"name\" x=\"%.0f\" y=\"%.1f\" "
				"text-anchor=\"end\">",
				left - 8, y + 4);
			esc(f, c->label);
			fputs(" &middot; ", f);
			esc(f, rep->blocks[i].load);
			fprintf(f,
				"</text><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"%s\" stroke-width=\"2\"/><circle cx=\"%.1f\" cy=\"%.1f\" "
				"r=\"5\" fill=\"%s\"><title>",
				to_px(&a, l), y, to_px(&a, u), y, colours[j % NCOLOURS],
				to_px(&a, e), y, colours[j % NCOLOURS]);
			ct_report_print_effect(f, v);
			fprintf(f, ", Holm p %.2g: ", v->p_adj);
			esc(f, ct_report_verdict(rep, c));
			fputs("</title></circle></g>\n", f);
		}
	fputs("</svg>\n</figure>\n", f);
}

static double metric_of(const struct ct_run *r, const char *name)
{
	double v;

	return ct_run_metric(r, name, &v) ? NAN : v;
}

/* oltp: tps per second of every run, after a shaded ramp-up. */
static void tps_series(FILE *f, const struct ct_report_block *b)
{
	double hi = 0, ramp = 0, len = 0, h = 220;
	struct axis x, y;

	for (size_t j = 0; j < b->ncells; j++)
		for (size_t v = 0; v < b->cells[j].n; v++) {
			const struct ct_run *r = b->cells[j].ok[v];
			double rs = metric_of(r, "ramp_s");

			for (unsigned k = 0; k < r->nseries; k++)
				hi = fmax(hi, r->series[k]);
			len = fmax(len, r->nseries);
			if (isfinite(rs))
				ramp = fmax(ramp, rs);
		}
	if (len == 0)
		return;
	axis_range(&x, -ramp, len, 60, W - RIGHT);
	axis_range(&y, 0, hi, h - AXIS, 10);
	fputs("<figure>\n<figcaption><b>", f);
	esc(f, b->load);
	fprintf(f,
		"</b>: tps each second of each run; the shaded part is the ramp-up (up to "
		"%.1f s), which is not measured</figcaption>\n",
		ramp);
	fputs("<svg class=\"tps\" data-load=\"", f);
	esc(f, b->load);
	fprintf(f, "\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" role=\"img\">\n", W, h,
		W, h);
	draw_axis(f, &x, true, h - AXIS + 4, 10, h - AXIS, "s");
	draw_axis(f, &y, false, 0, 60, W - RIGHT, NULL);
	fprintf(f, "<rect class=\"ramp\" x=\"%.1f\" y=\"10\" width=\"%.1f\" height=\"%.0f\"/>\n",
		to_px(&x, -ramp), to_px(&x, 0) - to_px(&x, -ramp), h - AXIS - 10);
	for (size_t j = 0; j < b->ncells; j++) {
		const struct ct_report_cell *c = &b->cells[j];

		fputs("<g class=\"config\" data-config=\"", f);
		esc(f, c->label);
		fputs("\">", f);
		for (size_t v = 0; v < c->n; v++) {
			const struct ct_run *r = c->ok[v];

			fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" points=\"",
				colours[j % NCOLOURS]);
			for (unsigned k = 0; k < r->nseries; k++)
				fprintf(f, "%.1f,%.1f ", to_px(&x, k + 1), to_px(&y, r->series[k]));
			fputs("\"><title>", f);
			esc(f, c->label);
			fprintf(f, " run %u</title></polyline>\n", r->seq);
			/* a short run's seconds as dots, or a line of one point is lost */
			for (unsigned k = 0; r->nseries < 20 && k < r->nseries; k++)
				fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>",
					to_px(&x, k + 1), to_px(&y, r->series[k]),
					colours[j % NCOLOURS]);
		}
		fputs("</g>\n", f);
	}
	fputs("</svg>\n</figure>\n", f);
}

/* oltp: the latency percentiles of each config, on a log axis. */
static void latency(FILE *f, const struct ct_report_block *b)
{
	static const char *const names[] = { "lat_p50_us", "lat_p90_us", "lat_p99_us",
					     "lat_p999_us", "lat_max_us" };
	static const char *const shown[] = { "p50", "p90", "p99", "p99.9", "max" };
	double lo = INFINITY, hi = 0, h = 220, val[CT_REPORT_MAX_ROWS][5];
	struct axis y;

	for (size_t j = 0; j < b->ncells && j < CT_REPORT_MAX_ROWS; j++)
		for (size_t k = 0; k < 5; k++) {
			val[j][k] = NAN;
			for (unsigned m = 0; m < b->cells[j].nmetric_means; m++)
				if (!strcmp(b->cells[j].metric_means[m].name, names[k]))
					val[j][k] = b->cells[j].metric_means[m].value / 1e3;
			if (val[j][k] > 0) {
				lo = fmin(lo, val[j][k]);
				hi = fmax(hi, val[j][k]);
			}
		}
	if (!(hi > 0))
		return;
	y.lo = pow(10, floor(log10(lo)));
	y.hi = pow(10, ceil(log10(hi)));
	if (y.hi <= y.lo)
		y.hi = y.lo * 10;
	y.x0 = h - AXIS;
	y.x1 = 10;
	y.log = true;
	fputs("<figure>\n<figcaption><b>", f);
	esc(f, b->load);
	fputs("</b>: latency percentiles, the mean over the runs (ms, log axis)</figcaption>\n"
	      "<svg class=\"latency\" data-load=\"",
	      f);
	esc(f, b->load);
	fprintf(f, "\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" role=\"img\">\n", W, h,
		W, h);
	draw_axis(f, &y, false, 0, 60, W - RIGHT, "ms");
	for (size_t k = 0; k < 5; k++)
		fprintf(f,
			"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"middle\">%s</text>\n",
			90 + (double)k * (W - 90 - RIGHT - 30) / 4, h - AXIS + 18, shown[k]);
	for (size_t j = 0; j < b->ncells && j < CT_REPORT_MAX_ROWS; j++) {
		fputs("<g class=\"config\" data-config=\"", f);
		esc(f, b->cells[j].label);
		fprintf(f, "\"><polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
			colours[j % NCOLOURS]);
		for (size_t k = 0; k < 5; k++)
			if (val[j][k] > 0)
				fprintf(f, "%.1f,%.1f ", 90 + (double)k * (W - 90 - RIGHT - 30) / 4,
					to_px(&y, val[j][k]));
		fputs("\"><title>", f);
		esc(f, b->cells[j].label);
		fputs("</title></polyline></g>\n", f);
	}
	fputs("</svg>\n</figure>\n", f);
}

/* The references of the sessions shown widen the timeline's span. */
static void ref_span(const struct ct_report *rep, int64_t *t0, int64_t *t1)
{
	for (size_t i = 0; i < rep->nsession_refs; i++)
		for (size_t j = 0; j < rep->session_refs[i].nrefs; j++) {
			int64_t t = rep->session_refs[i].refs[j].taken_at;

			*t0 = t < *t0 ? t : *t0;
			*t1 = t > *t1 ? t : *t1;
		}
}

/* A mark on config label's row of the timeline for each reference its
 * sessions took, the figures in its title. */
static void ref_marks(FILE *f, const struct ct_report *rep, const char *label, const struct axis *x,
		      int64_t t0, double y)
{
	char b[CT_REF_NFIGS][32];

	for (size_t i = 0; i < rep->nsession_refs; i++) {
		const struct ct_report_session_ref *s = &rep->session_refs[i];

		if (strcmp(s->label, label))
			continue;
		for (size_t j = 0; j < s->nrefs; j++) {
			const struct ct_ref *r = &s->refs[j];
			double px = to_px(x, (double)(r->taken_at - t0) / 1e9);

			fprintf(f,
				"<path class=\"ref\" d=\"M%.1f %.1fl4 5l-4 5l-4 -5z\"><title>"
				"session %lld reference %u (%s): cpu %s steps/us, mem %s GB/s, "
				"disk %s MB/s</title></path>\n",
				px, y + 4, (long long)s->session_id, r->seq,
				ct_ref_phase_name(r->phase),
				rp_ref_fig(r->fig[CT_REF_CPU], CT_REF_CPU, b[0], sizeof(b[0])),
				rp_ref_fig(r->fig[CT_REF_MEM], CT_REF_MEM, b[1], sizeof(b[1])),
				rp_ref_fig(r->fig[CT_REF_DISK], CT_REF_DISK, b[2], sizeof(b[2])));
		}
	}
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
		esc(f, s->label);
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
	esc(f, label);
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
			esc(f, d->warnings[i].load);
			fputs(" ", f);
			esc(f, d->label);
			fputs(" vs ", f);
			esc(f, rep->base_label);
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

/* Which config and load ran when, each run's interference in its title. */
static void timeline(FILE *f, const struct ct_report *rep)
{
	int64_t t0 = INT64_MAX, t1 = INT64_MIN;
	double h = (double)rep->nconfigs * ROW + AXIS, left;
	size_t wide = 0;
	struct axis x;

	for (size_t i = 0; i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].ncells; j++)
			for (size_t k = 0; k < rep->blocks[i].cells[j].nruns; k++) {
				const struct ct_run *r = &rep->blocks[i].cells[j].runs[k];

				if (r->started_at < t0)
					t0 = r->started_at;
				if (r->started_at + r->wall_ns > t1)
					t1 = r->started_at + r->wall_ns;
			}
	if (t0 == INT64_MAX || !rep->nconfigs)
		return;
	ref_span(rep, &t0, &t1);
	for (size_t k = 0; k < rep->nconfigs; k++)
		if (strlen(rep->configs[k].label) > wide)
			wide = strlen(rep->configs[k].label);
	left = label_room(wide);
	axis_range(&x, 0, (double)(t1 - t0) / 1e9, left, W - RIGHT);
	x.lo = 0;
	fputs("<h2 id=\"timeline\">Session timeline</h2>\n<figure>\n<figcaption>when each run "
	      "ran (seconds from the first run's start, or the first reference's), coloured by "
	      "load: the interleaving of configs and loads; a run's title gives its PSI, steal "
	      "and foreign CPU, a black mark is the host's reference</figcaption>\n"
	      "<p class=\"legend\">",
	      f);
	for (size_t i = 0; i < rep->nblocks; i++) {
		fprintf(f, "<span><i style=\"background:%s\"></i>", colours[i % NCOLOURS]);
		esc(f, rep->blocks[i].load);
		fputs("</span>", f);
	}
	fprintf(f,
		"</p>\n<svg class=\"timeline\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d "
		"%.0f\" role=\"img\">\n",
		W, h, W, h);
	draw_axis(f, &x, true, h - AXIS + 4, 0, h - AXIS, "s");
	for (size_t k = 0; k < rep->nconfigs; k++) {
		double y = (double)k * ROW + 4;

		fputs("<g class=\"config\" data-config=\"", f);
		esc(f, rep->configs[k].label);
		fprintf(f, "\"><text class=\"name\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">",
			left - 8, y + 13);
		esc(f, rep->configs[k].label);
		fputs("</text>\n", f);
		for (size_t i = 0; i < rep->nblocks; i++)
			for (size_t j = 0; j < rep->blocks[i].ncells; j++) {
				const struct ct_report_cell *c = &rep->blocks[i].cells[j];

				if (strcmp(c->label, rep->configs[k].label))
					continue;
				for (size_t n = 0; n < c->nruns; n++) {
					const struct ct_run *r = &c->runs[n];
					double s = (double)(r->started_at - t0) / 1e9;
					double w = (double)r->wall_ns / 1e3;
					double psi[3] = { 0, 0, 0 };

					for (int p = 0; p < 3 && r->mon.have_psi && w > 0; p++)
						psi[p] = 100 * (double)r->mon.psi_us[p][0] / w;
					fprintf(f,
						"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
						"height=\"18\" fill=\"%s\"%s><title>",
						to_px(&x, s), y,
						fmax(1, to_px(&x, s + ct_run_time_s(r)) -
								to_px(&x, s)),
						colours[i % NCOLOURS],
						r->status == CT_RUN_OK ? ""
								       : " fill-opacity=\"0.3\"");
					esc(f, c->label);
					fputs(" / ", f);
					esc(f, rep->blocks[i].load);
					fprintf(f,
						" run %u: %.3f s %s; PSI some cpu %.0f%%, io "
						"%.0f%%, memory %.0f%%; steal %.1f%%; foreign CPU "
						"%.0f%%</title></rect>\n",
						r->seq, ct_run_time_s(r),
						ct_run_status_name(r->status), psi[0], psi[1],
						psi[2],
						w > 0 ? 100 * (double)r->mon.steal_us / w : 0,
						w > 0 ? 100 * (double)r->mon.foreign_cpu_us / w
						      : 0);
				}
			}
		ref_marks(f, rep, rep->configs[k].label, &x, t0, y);
		fputs("</g>\n", f);
	}
	fputs("</svg>\n</figure>\n", f);
	session_refs_table(f, rep);
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
			esc(f, rep->configs[k].label);
			fputs("</th>", f);
		}
		fputs("</tr>\n", f);
		for (size_t d = 0; d < rep->ndiffs; d++) {
			fputs("<tr><td class=\"l\">", f);
			esc(f, rep->diffs[d].name);
			fputs("</td>", f);
			for (size_t k = 0; k < rep->nconfigs; k++) {
				fputs("<td class=\"l\">", f);
				esc(f, rep->diffs[d].values[k][0] ? rep->diffs[d].values[k] : "-");
				fputs("</td>", f);
			}
			fputs("</tr>\n", f);
		}
		fputs("</table>\n", f);
	}
	fputs("<p class=\"note\">fingerprints:", f);
	for (size_t k = 0; k < rep->nconfigs; k++) {
		fputs(" ", f);
		esc(f, rep->configs[k].label);
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
	esc(m->f, load);
	fputs("</td><td class=\"l\">", m->f);
	esc(m->f, label);
	fputs("</td><td class=\"l\">", m->f);
	esc(m->f, task);
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

int ct_report_print_html(FILE *f, const struct ct_report *rep, const char *command)
{
	if (rep->kind != CT_REPORT_RUNS)
		return -EINVAL;
	head(f, rep, command);
	summary(f, rep);
	fputs("<h2 id=\"runs\">Every run</h2>\n", f);
	for (size_t i = 0; i < rep->nblocks; i++)
		dotplot(f, rep, &rep->blocks[i]);
	forest(f, rep);
	drift_html(f, rep);
	latency_tables(f, rep);
	if (!strcmp(rep->figure_key, CT_METRIC_TPS)) {
		fputs("<h2 id=\"oltp\">tps and latency</h2>\n", f);
		for (size_t i = 0; i < rep->nblocks; i++) {
			tps_series(f, &rep->blocks[i]);
			latency(f, &rep->blocks[i]);
		}
	}
	timeline(f, rep);
	configs(f, rep);
	fputs("</body>\n</html>\n", f);
	return ferror(f) ? -EIO : 0;
}
