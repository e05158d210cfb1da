/*
 * The HTML page's plots, inline SVG placed by hand (no script, no font),
 * apart from the page's tables in html.c because the axes, scales and
 * layout are a concern of their own:
 *   - per load, every run of every config as a dot (flagged runs ringed),
 *     with the mean and its confidence interval;
 *   - a forest plot: each config's effect per load with its interval;
 *   - oltp: tps per second of every run after its ramp-up (shaded; the
 *     engine records no series during it), and the latency percentiles
 *     on a log axis;
 *   - the session timeline: which config and load ran when (the
 *     interleaving), each run's PSI, steal and foreign CPU in its title,
 *     and each reference the host gave (a mark, its figures in its title).
 * The model computed every figure; this file only scales and places them.
 */
#include "internal.h"

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

double rp_tick_step(double span, int want)
{
	double raw = span / want, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

static double tick_step(double span)
{
	return rp_tick_step(span, 6);
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

/* A run's title: its figure and, for a flagged one, the evidence. */
static void run_title(FILE *f, const struct ct_report *rep, const struct ct_report_cell *c,
		      size_t v)
{
	const struct ct_run *r = c->ok ? c->ok[v] : NULL;
	const struct ct_report_flag *fl = rp_flag_of(c, (long)v);

	fprintf(f, "<title>");
	rp_html_esc(f, c->label);
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
void rp_html_dotplot(FILE *f, const struct ct_report *rep, const struct ct_report_block *b)
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
	rp_html_esc(f, b->load);
	fprintf(f,
		"</b>: every run (%s); the bar is the mean with its %g%% interval, a ring "
		"marks a flagged run</figcaption>\n",
		unit_of(rep), rep->confidence);
	fputs("<svg class=\"dotplot\" data-load=\"", f);
	rp_html_esc(f, b->load);
	fprintf(f, "\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" role=\"img\">\n", W, h,
		W, h);
	draw_axis(f, &a, true, h - AXIS + 4, 0, h - AXIS, unit_of(rep));
	for (size_t j = 0; j < b->ncells; j++) {
		const struct ct_report_cell *c = &b->cells[j];
		double y = (double)j * ROW + ROW / 2.0;

		fputs("<g class=\"config\" data-config=\"", f);
		rp_html_esc(f, c->label);
		fprintf(f, "\"><text class=\"name\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">",
			left - 8, y + 4);
		rp_html_esc(f, c->label);
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
void rp_html_forest(FILE *f, const struct ct_report *rep)
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
	rp_html_esc(f, rep->base_label);
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
			rp_html_esc(f, rep->blocks[i].load);
			fputs("\" data-config=\"", f);
			rp_html_esc(f, c->label);
			fprintf(f,
				"\"><text class=\"name\" x=\"%.0f\" y=\"%.1f\" "
				"text-anchor=\"end\">",
				left - 8, y + 4);
			rp_html_esc(f, c->label);
			fputs(" &middot; ", f);
			rp_html_esc(f, rep->blocks[i].load);
			fprintf(f,
				"</text><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"%s\" stroke-width=\"2\"/><circle cx=\"%.1f\" cy=\"%.1f\" "
				"r=\"5\" fill=\"%s\"><title>",
				to_px(&a, l), y, to_px(&a, u), y, colours[j % NCOLOURS],
				to_px(&a, e), y, colours[j % NCOLOURS]);
			ct_report_print_effect(f, v);
			fprintf(f, ", Holm p %.2g: ", v->p_adj);
			rp_html_esc(f, ct_report_verdict(rep, c));
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
void rp_html_tps_series(FILE *f, const struct ct_report_block *b)
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
	rp_html_esc(f, b->load);
	fprintf(f,
		"</b>: tps each second of each run; the shaded part is the ramp-up (up to "
		"%.1f s), which is not measured</figcaption>\n",
		ramp);
	fputs("<svg class=\"tps\" data-load=\"", f);
	rp_html_esc(f, b->load);
	fprintf(f, "\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" role=\"img\">\n", W, h,
		W, h);
	draw_axis(f, &x, true, h - AXIS + 4, 10, h - AXIS, "s");
	draw_axis(f, &y, false, 0, 60, W - RIGHT, NULL);
	fprintf(f, "<rect class=\"ramp\" x=\"%.1f\" y=\"10\" width=\"%.1f\" height=\"%.0f\"/>\n",
		to_px(&x, -ramp), to_px(&x, 0) - to_px(&x, -ramp), h - AXIS - 10);
	for (size_t j = 0; j < b->ncells; j++) {
		const struct ct_report_cell *c = &b->cells[j];

		fputs("<g class=\"config\" data-config=\"", f);
		rp_html_esc(f, c->label);
		fputs("\">", f);
		for (size_t v = 0; v < c->n; v++) {
			const struct ct_run *r = c->ok[v];

			fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" points=\"",
				colours[j % NCOLOURS]);
			for (unsigned k = 0; k < r->nseries; k++)
				fprintf(f, "%.1f,%.1f ", to_px(&x, k + 1), to_px(&y, r->series[k]));
			fputs("\"><title>", f);
			rp_html_esc(f, c->label);
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
void rp_html_latency(FILE *f, const struct ct_report_block *b)
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
	rp_html_esc(f, b->load);
	fputs("</b>: latency percentiles, the mean over the runs (ms, log axis)</figcaption>\n"
	      "<svg class=\"latency\" data-load=\"",
	      f);
	rp_html_esc(f, b->load);
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
		rp_html_esc(f, b->cells[j].label);
		fprintf(f, "\"><polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
			colours[j % NCOLOURS]);
		for (size_t k = 0; k < 5; k++)
			if (val[j][k] > 0)
				fprintf(f, "%.1f,%.1f ", 90 + (double)k * (W - 90 - RIGHT - 30) / 4,
					to_px(&y, val[j][k]));
		fputs("\"><title>", f);
		rp_html_esc(f, b->cells[j].label);
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

/* Which config and load ran when, each run's interference in its title. */
bool rp_html_timeline(FILE *f, const struct ct_report *rep)
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
		return false;
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
		rp_html_esc(f, rep->blocks[i].load);
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
		rp_html_esc(f, rep->configs[k].label);
		fprintf(f, "\"><text class=\"name\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">",
			left - 8, y + 13);
		rp_html_esc(f, rep->configs[k].label);
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
					rp_html_esc(f, c->label);
					fputs(" / ", f);
					rp_html_esc(f, rep->blocks[i].load);
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
	return true;
}
