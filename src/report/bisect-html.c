/*
 * The page of a bisection (contend bisect report): one self-contained HTML
 * file, as the report's page is. A plot places each step's effect and its
 * interval at its commit along the range (parents left, bad right),
 * coloured by its answer, with no change and the regression's size as
 * dashed lines and the culprit marked; below it, the probability the
 * search gives each commit. Then every step in a table.
 */
#include "internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define W     900.0
#define H     260.0
#define LEFT  60.0
#define RIGHT 20.0
#define TOP   14.0
#define BOT   58.0 /* the commits' labels, slanted */
#define PH    70.0 /* the probability strip's height */

static const char *colour(enum ct_bisect_answer a)
{
	return a == CT_ANSWER_BAD ? "#c0392b" : a == CT_ANSWER_GOOD ? "#27ae60" : "#888888";
}

static const char *role_name(enum ct_bisect_role r)
{
	return ct_enum_name(ct_bisect_role_names, CT_ROLE_NROLES, r);
}

static const char *answer_name(enum ct_bisect_answer a)
{
	return ct_enum_name(ct_bisect_answer_names, CT_ANSWER_NANSWERS, a);
}

/* x of commit i (-1: the good end, left of the range). */
static double xof(const struct ct_report_bisect *b, long i)
{
	double w = (W - LEFT - RIGHT) / ((double)b->ncommits + 1);

	return LEFT + w * ((double)i + 1.5);
}

/* Each commit's label under the plot, slanted (every stride-th where
 * they would crowd; the culprit's always), and the good end's. */
static void commit_labels(FILE *f, const struct ct_report_bisect *b)
{
	size_t stride = b->ncommits > 30 ? (b->ncommits + 29) / 30 : 1;
	double y = H - BOT + 12;

	for (long i = -1; i < (long)b->ncommits; i++) {
		double x = xof(b, i);
		const char *l = i < 0 ? b->good : b->commits[i].label;

		if (i >= 0 && (size_t)i % stride && i != b->culprit)
			continue;
		fprintf(f,
			"<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
			"transform=\"rotate(-35 %.1f %.1f)\">%.7s",
			i == b->culprit ? "name" : "tick", x, y, x, y, l);
		fprintf(f, "%s</text>\n", i < 0 ? " good" : "");
	}
}

/* The effects' plot; its y range covers every interval, 0 and the
 * regression. */
static void plot(FILE *f, const struct ct_report_bisect *b)
{
	double lo = 0, hi = 0, y0, k, step;

	if (b->have_regression) {
		lo = fmin(lo, b->regression);
		hi = fmax(hi, b->regression);
	}
	for (size_t i = 0; i < b->nsteps; i++)
		if (b->steps[i].have_effect) {
			lo = fmin(lo, b->steps[i].low);
			hi = fmax(hi, b->steps[i].high);
		}
	if (hi - lo < 0.01)
		hi = lo + 0.01;
	/* the axis from a round tick below the lowest to one above the highest */
	step = rp_tick_step(hi - lo, 5);
	lo = floor(lo / step - 1e-9) * step;
	hi = ceil(hi / step + 1e-9) * step;
	k = (H - TOP - BOT) / (hi - lo);
	y0 = TOP + hi * k;
#define Y(v) (y0 - (v)*k)
	fprintf(f,
		"<figure><svg width=\"%.0f\" height=\"%.0f\" role=\"img\" "
		"aria-label=\"each step's effect along the range\">\n",
		W, H + PH);
	for (double v = lo; v <= hi + step * 1e-6; v += step) {
		double shown = fabs(v) < step * 1e-6 ? 0 : v;

		fprintf(f,
			"<line class=\"grid\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tick\" x=\"%.0f\" y=\"%.1f\" "
			"text-anchor=\"end\">%+g%%</text>\n",
			LEFT, W - RIGHT, Y(shown), Y(shown), LEFT - 4, Y(shown) + 4, shown * 100);
	}
	commit_labels(f, b);
	fprintf(f, "<line class=\"zero\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\"/>\n", LEFT,
		W - RIGHT, Y(0), Y(0));
	if (b->have_regression)
		fprintf(f,
			"<line class=\"zero\" style=\"stroke:#c0392b\" x1=\"%.0f\" x2=\"%.0f\" "
			"y1=\"%.1f\" y2=\"%.1f\"><title>the regression, good..bad: %+.1f%%</title>"
			"</line>\n",
			LEFT, W - RIGHT, Y(b->regression), Y(b->regression), b->regression * 100);
	if (b->culprit >= 0) {
		double x = xof(b, b->culprit);

		fprintf(f,
			"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" "
			"style=\"stroke:#c0392b;stroke-width:2\"/>"
			"<text class=\"name\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">",
			x, x, TOP, H - BOT, x, TOP - 3);
		rp_html_esc(f, b->commits[b->culprit].label);
		fputs(" first bad</text>\n", f);
	}
	for (size_t i = 0; i < b->nsteps; i++) {
		const struct ct_report_bisect_step *s = &b->steps[i];
		/* the across step is the culprit against its parent: beside it */
		double x = xof(b, s->commit) + (s->role == CT_ROLE_ACROSS ? 4 : 0);

		if (!s->have_effect || !s->answer)
			continue;
		fprintf(f, "<g><title>step %u, %s ", s->seq, role_name(s->role));
		rp_html_esc(f, s->label);
		fputs(" against ", f);
		rp_html_esc(f, s->base);
		fprintf(f, ": %s, %+.1f%% [%+.1f%%, %+.1f%%], %u runs a side</title>",
			answer_name(s->answer), s->effect * 100, s->low * 100, s->high * 100,
			s->runs);
		fprintf(f,
			"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
			"style=\"stroke:%s;stroke-width:2\"/>"
			"<circle class=\"run\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/></g>\n",
			x, x, Y(s->low), Y(s->high), colour(s->answer), x, Y(s->effect),
			colour(s->answer));
	}
#undef Y
	fprintf(f,
		"<text class=\"unit\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">effect "
		"against the base, with its %g%% interval; the commits of the range, parents "
		"left</text>\n",
		W - RIGHT, H - 4, b->confidence > 0 ? b->confidence : 95);
	/* the probability of each commit being the first bad one */
	for (size_t i = 0; i < b->ncommits; i++) {
		double p = b->commits[i].prob, h = isfinite(p) ? p * (PH - 16) : 0,
		       w = (W - LEFT - RIGHT) / ((double)b->ncommits + 1);

		fprintf(f,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"%s\"><title>",
			xof(b, (long)i) - w * 0.4, H + PH - 4 - h, w * 0.8, h,
			(long)i == b->culprit ? "#c0392b" : "#5577aa");
		rp_html_esc(f, b->commits[i].label);
		fputc(' ', f);
		rp_html_esc(f, b->commits[i].subject);
		fprintf(f, ": %.3f</title></rect>\n", isfinite(p) ? p : 0);
	}
	fprintf(f,
		"<text class=\"unit\" x=\"%.0f\" y=\"%.0f\">the probability that each is the "
		"first bad commit</text>\n</svg>\n",
		LEFT, H + 10);
	fputs("<figcaption class=\"legend\"><span><i style=\"background:#c0392b\"></i>bad</span>"
	      "<span><i style=\"background:#27ae60\"></i>good</span><span><i "
	      "style=\"background:#888\"></i>no answer</span></figcaption></figure>\n",
	      f);
}

static void steps_table(FILE *f, const struct ct_report_bisect *b)
{
	fprintf(f,
		"<h2>Steps</h2>\n<table>\n<tr><th>step</th><th class=\"l\">role</th>"
		"<th class=\"l\">commit</th><th class=\"l\">against</th><th class=\"l\">answer"
		"</th><th>effect</th><th>%g%% interval</th><th>runs a side</th><th class=\"l\">"
		"subject, why</th></tr>\n",
		b->confidence > 0 ? b->confidence : 95);
	for (size_t i = 0; i < b->nsteps; i++) {
		const struct ct_report_bisect_step *s = &b->steps[i];

		fprintf(f, "<tr class=\"%s\"><td>%u</td><td class=\"l\">%s</td><td class=\"l\">",
			s->answer == CT_ANSWER_BAD    ? "worse"
			: s->answer == CT_ANSWER_GOOD ? "better"
						      : "",
			s->seq, role_name(s->role));
		rp_html_esc(f, s->label);
		fputs("</td><td class=\"l\">", f);
		rp_html_esc(f, s->base);
		fprintf(f, "</td><td class=\"l\">%s</td>",
			s->answer ? answer_name(s->answer) : "measuring");
		if (s->have_effect)
			fprintf(f,
				"<td class=\"n\">%+.1f%%</td><td class=\"n\">[%+.1f%%, "
				"%+.1f%%]</td>",
				s->effect * 100, s->low * 100, s->high * 100);
		else
			fputs("<td></td><td></td>", f);
		fprintf(f, "<td>%u</td><td class=\"l\">", s->runs);
		if (s->commit >= 0)
			rp_html_esc(f, b->commits[s->commit].subject);
		if (s->why[0]) {
			fputs(s->commit >= 0 ? "; " : "", f);
			rp_html_esc(f, s->why);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

int ct_report_print_bisect_html(FILE *f, const struct ct_report_bisect *b)
{
	rp_html_page_start(f, "contend bisect", b->repo);
	fputs("<p class=\"note\">repository <b>", f);
	rp_html_esc(f, b->repo);
	fputs("</b>, good <b>", f);
	rp_html_esc(f, b->good);
	fputs("</b>, bad <b>", f);
	rp_html_esc(f, b->bad);
	fprintf(f, "</b>, %zu commits; %s", b->ncommits,
		ct_enum_name(ct_bisection_status_names, CT_BISECTION_NSTATUS, b->status));
	if (b->note && *b->note) {
		fputs(": ", f);
		rp_html_esc(f, b->note);
	}
	fputs("</p>\n", f);
	if (b->culprit >= 0) {
		fputs("<p><b>", f);
		rp_html_esc(f, b->commits[b->culprit].label);
		fputs("</b> is the first bad commit: ", f);
		rp_html_esc(f, b->commits[b->culprit].subject);
		fputs("</p>\n", f);
	}
	plot(f, b);
	steps_table(f, b);
	fprintf(f,
		"<p class=\"note\">made by <code>contend bisect report</code> %s</p>\n"
		"</body>\n</html>\n",
		ct_version);
	return ferror(f) ? -EIO : 0;
}
