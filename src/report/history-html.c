/*
 * The history as one self-contained page (contend history -o FILE.html):
 * per series an inline SVG plot of each session's median with its
 * interval (cut at the axis, which is the medians') in the order the
 * sessions ran, the change points as lines
 * between the sessions they fall between, each series' level between
 * them, and a table of the changes with the facts that changed across
 * each. No script, no network.
 */
#include "contend/history.h"
#include "internal.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define W    880.0
#define H    260.0
#define PADL 64.0
#define PADR 16.0
#define PADT 28.0
#define PADB 64.0 /* the sessions' labels, slanted */

static double xpos(size_t i, size_t n)
{
	return PADL +
	       (n > 1 ? (W - PADL - PADR) * (double)i / (double)(n - 1) : (W - PADL - PADR) / 2);
}

static double ypos(double v, double lo, double hi)
{
	return PADT + (H - PADT - PADB) * (hi - v) / (hi - lo);
}

/* An interval's end cut at the axis: a caret pointing where it goes on,
 * up (dir -1) or down (1). */
static void caret(FILE *f, double x, double y, int dir)
{
	fprintf(f, "<path d=\"M%.1f %.1fl-3.5 %.1fh7z\" fill=\"#888\"/>", x, y, -6.0 * dir);
}

/* The y axis: grid lines and ticks at round values inside [lo, hi]. */
static void y_axis(FILE *f, double lo, double hi)
{
	double step = rp_tick_step(hi - lo, 5);

	for (double v = ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
		double y = ypos(v, lo, hi);
		char b[32];

		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
			PADL, W - PADR, y, y);
		fprintf(f,
			"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"end\">%s</text>\n",
			PADL - 4, y + 4, rp_fmt_time(fabs(v) < step * 1e-6 ? 0 : v, b, sizeof(b)));
	}
}

/* The x axis: each session's label, slanted, every stride-th where they
 * would crowd. */
static void x_labels(FILE *f, const struct ct_history_series *s)
{
	size_t n = s->npoints, stride = n > 24 ? (n + 23) / 24 : 1;

	for (size_t i = 0; i < n; i += stride) {
		double x = xpos(i, n), y = H - PADB + 12;

		fprintf(f,
			"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
			"transform=\"rotate(-35 %.1f %.1f)\">",
			x, y, x, y);
		rp_html_esc(f, s->points[i].label);
		fputs("</text>\n", f);
	}
}

static void plot(FILE *f, const struct ct_history *h, const struct ct_history_series *s)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t n = s->npoints;

	/* the axis is the medians' (a session's interval of five runs can
	 * reach a fluke ten times the level): an interval past it is cut at
	 * its edge, with a caret */
	for (size_t i = 0; i < n; i++) {
		lo = fmin(lo, s->points[i].median);
		hi = fmax(hi, s->points[i].median);
	}
	{
		double pad = fmax(0.25 * (hi - lo), 0.05 * fabs(hi + lo) / 2);

		lo -= pad > 0 ? pad : 1;
		hi += pad > 0 ? pad : 1;
	}
	fprintf(f,
		"<figure><svg viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
		"role=\"img\">\n",
		W, H, W, H);
	y_axis(f, lo, hi);
	x_labels(f, s);
	fprintf(f, "<text class=\"unit\" x=\"4\" y=\"11\">");
	rp_html_esc(f, h->figure);
	fprintf(f, " (");
	rp_html_esc(f, h->unit);
	fprintf(f,
		")</text>\n<text class=\"unit\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">"
		"sessions in order (%zu), by label</text>\n",
		W - PADR, H - 4, n);
	/* the level of each stretch between change points: its sessions' median */
	for (size_t c = 0; c <= s->nchanges; c++) {
		size_t a = c ? s->changes[c - 1].at : 0, b = c < s->nchanges ? s->changes[c].at : n;
		double m[CT_HISTORY_WINDOW * 40];
		size_t k = 0;

		for (size_t i = a; i < b && k < CT_ARRAY_SIZE(m); i++)
			m[k++] = s->points[i].median;
		if (!k)
			continue;
		fprintf(f,
			"<line class=\"mean\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n",
			xpos(a, n), xpos(b - 1, n), ypos(ct_stats_median(m, k), lo, hi),
			ypos(ct_stats_median(m, k), lo, hi));
	}
	for (size_t c = 0; c < s->nchanges; c++) {
		const struct ct_history_change *ch = &s->changes[c];
		double x = (xpos(ch->at - 1, n) + xpos(ch->at, n)) / 2;

		fprintf(f, "<line class=\"zero\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
			x, x, PADT, H - PADB);
		fprintf(f,
			"<text class=\"name\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
			"fill=\"%s\">%+.1f%%</text>\n",
			x, PADT - 6, ch->worse ? "#a00" : "#070", 100 * ch->effect);
	}
	for (size_t i = 0; i < n; i++) {
		const struct ct_history_point *p = &s->points[i];
		double x = xpos(i, n);
		char b[32], l[32], u[32];

		fprintf(f, "<g><title>session %lld (", (long long)p->session_id);
		rp_html_esc(f, p->label);
		fprintf(f, "), %s: median %s [%s, %s]</title>",
			ct_history_date(p->started_at, b, sizeof(b)),
			rp_fmt_time(p->median, (char[32]){ 0 }, 32),
			rp_fmt_time(p->low, l, sizeof(l)), rp_fmt_time(p->high, u, sizeof(u)));
		if (isfinite(p->low) && isfinite(p->high)) {
			fprintf(f,
				"<line stroke=\"#888\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
				"y2=\"%.1f\"/>",
				x, x, ypos(fmax(p->low, lo), lo, hi),
				ypos(fmin(p->high, hi), lo, hi));
			if (p->high > hi)
				caret(f, x, PADT, -1);
			if (p->low < lo)
				caret(f, x, H - PADB, 1);
		}
		fprintf(f,
			"<circle class=\"run\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
			"fill=\"#1f5fa8\"/></g>\n",
			x, ypos(p->median, lo, hi));
	}
	fprintf(f, "</svg></figure>\n");
}

static void changes_table(FILE *f, const struct ct_history_series *s)
{
	if (!s->nchanges) {
		fprintf(f, "<p class=\"note\">No change point: the sessions' level did not "
			   "move.</p>\n");
		return;
	}
	fprintf(f, "<table><tr><th>change</th><th>at session</th><th class=\"l\">started</th>"
		   "<th>effect</th><th>p</th><th>before / after</th><th class=\"l\">what "
		   "changed</th></tr>\n");
	for (size_t c = 0; c < s->nchanges; c++) {
		const struct ct_history_change *ch = &s->changes[c];
		const struct ct_history_point *p = &s->points[ch->at];
		char d[32];

		fprintf(f,
			"<tr class=\"%s\"><td>%zu</td><td>%lld</td><td class=\"l n\">%s</td>"
			"<td class=\"n\">",
			ch->worse ? "worse" : "better", c + 1, (long long)p->session_id,
			ct_history_date(p->started_at, d, sizeof(d)));
		rp_history_effect(f, ch);
		fprintf(f,
			"%s</td><td class=\"n\">%.2g</td><td class=\"n\">%zu / %zu</td>"
			"<td class=\"l w\">",
			ch->acked ? "<br>(acknowledged)" : "", ch->p, ch->nbefore, ch->nafter);
		for (size_t k = 0; k < ch->nfacts; k++) {
			fprintf(f, "%s", k ? "; " : "");
			rp_html_esc(f, ch->facts[k].name);
			fprintf(f, ": ");
			rp_html_esc(f, ch->facts[k].before);
			fprintf(f, " &rarr; ");
			rp_html_esc(f, ch->facts[k].after);
		}
		if (!ch->nfacts)
			fprintf(f, "no recorded fact");
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table>\n");
}

int ct_history_print_html(FILE *f, const struct ct_history *h)
{
	rp_html_page_start(f, "contend history", h->workload);
	fprintf(f, "<p class=\"note\">workload <b>");
	rp_html_esc(f, h->workload);
	fprintf(f, "</b>: %zu sessions by %s; %s in %s, %s is better; intervals at %g%%.</p>\n",
		h->nsessions, h->by_commit ? "commit time" : "start time", h->figure, h->unit,
		h->higher_better ? "higher" : "lower", h->confidence);
	if (h->mixed_params)
		fprintf(f,
			"<p class=\"note\">The sessions ran the workload with other parameters: a "
			"series for each set.</p>\n");
	for (size_t i = 0; i < h->nparam_changes; i++) {
		const struct ct_history_param_change *pc = &h->param_changes[i];
		char d[32];

		fprintf(f, "<p class=\"note\">");
		rp_html_esc(f, pc->load);
		fprintf(f, " on ");
		rp_html_esc(f, pc->machine);
		fprintf(f, ": the parameters changed at session %lld (%s): <code>",
			(long long)pc->session_id, ct_history_date(pc->started_at, d, sizeof(d)));
		rp_html_esc(f, pc->before);
		fprintf(f, "</code> &rarr; <code>");
		rp_html_esc(f, pc->after);
		fprintf(f, "</code></p>\n");
	}
	for (size_t i = 0; i < h->nseries; i++) {
		const struct ct_history_series *s = &h->series[i];

		fprintf(f, "<h2>");
		rp_html_esc(f, s->load);
		fprintf(f, " <span class=\"note\">machine ");
		rp_html_esc(f, s->machine);
		if (h->mixed_params) {
			fprintf(f, ", parameters <code>");
			rp_html_esc(f, s->params);
			fprintf(f, "</code>");
		}
		fprintf(f, ", %zu sessions</span></h2>\n", s->npoints);
		plot(f, h, s);
		changes_table(f, s);
		for (size_t c = 0; c < s->nchanges; c++) {
			const struct ct_history_change *ch = &s->changes[c];

			if (!ch->why)
				continue;
			fprintf(f,
				"<h3>Why change %zu: sessions %lld-%lld against sessions "
				"%lld-%lld</h3>\n",
				c + 1, (long long)ch->why_from[1], (long long)ch->why_to[1],
				(long long)ch->why_from[0], (long long)ch->why_to[0]);
			rp_why_html(f, ch->why, h->confidence);
		}
	}
	fputs("</body>\n</html>\n", f);
	return ferror(f) ? -EIO : 0;
}
