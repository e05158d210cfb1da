/*
 * `contend stats`' printers over the report model of plain numbers:
 * ministat's picture (a dot plot, then N, min, max, median, mean, sd and
 * the CI of the mean per dataset, outliers flagged, never dropped), each
 * comparison with the baseline, and JSON with fixed keys for other tools.
 */
#include "contend/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_WIDTH 72

static const char symbols[] = "x+*%#@O";

/* Effects print with one decimal, or as many more as a narrow interval
 * needs to show its ends apart. */
static void print_pct(FILE *f, double r, int decimals)
{
	fprintf(f, "%+.*f%%", decimals, (r - 1) * 100);
}

static int pct_decimals(const struct ct_stats_ratio *q)
{
	double w = q->bounded ? (q->high - q->low) * 100 : 1;
	int d = 1;

	while (d < 6 && w > 0 && w < pow(10, 1 - d))
		d++;
	return d;
}

static void rule(FILE *f)
{
	fputc('+', f);
	for (int i = 0; i < PLOT_WIDTH; i++)
		fputc('-', f);
	fputs("+\n", f);
}

#define COL(v) ((size_t)lround(((v)-lo) / span * (PLOT_WIDTH - 1)))

/* ministat's picture: each value a symbol on a shared axis (stacked where
 * they collide), then per dataset the mean (A), median (M) and +-1 sd. */
static void plot(FILE *f, const struct ct_report_cell *d, size_t nd)
{
	double lo = d[0].sum.min, hi = d[0].sum.max, span;
	char *rows = NULL;
	size_t nrows = 0, height[PLOT_WIDTH] = { 0 };

	for (size_t i = 1; i < nd; i++) {
		lo = fmin(lo, d[i].sum.min);
		hi = fmax(hi, d[i].sum.max);
	}
	span = hi > lo ? hi - lo : 1;
	for (size_t i = 0; i < nd; i++) {
		for (size_t k = 0; k < d[i].n; k++) {
			/* a column fills from the bottom up, without gaps */
			size_t c = COL(d[i].values[k]), r = height[c];

			if (r == nrows) {
				char *nr;

				if (nrows >= 40) /* a big sample: the top rows say enough */
					continue;
				nr = realloc(rows, (nrows + 1) * PLOT_WIDTH);
				if (!nr)
					break;
				rows = nr;
				memset(rows + nrows * PLOT_WIDTH, ' ', PLOT_WIDTH);
				nrows++;
			}
			rows[r * PLOT_WIDTH + c] = symbols[i % (sizeof(symbols) - 1)];
			height[c]++;
		}
	}
	rule(f);
	for (size_t r = nrows; r-- > 0;)
		fprintf(f, "|%.*s|\n", PLOT_WIDTH, rows + r * PLOT_WIDTH);
	for (size_t i = 0; i < nd; i++) {
		const struct ct_stats_summary *s = &d[i].sum;
		double a = fmax(lo, s->mean - s->sd), b = fmin(hi, s->mean + s->sd);
		char line[PLOT_WIDTH];

		memset(line, ' ', sizeof(line));
		for (size_t c = COL(a); c <= COL(b); c++)
			line[c] = '_';
		line[COL(a)] = line[COL(b)] = '|';
		line[COL(s->median)] = 'M';
		line[COL(s->mean)] = 'A';
		fprintf(f, "|%.*s|\n", PLOT_WIDTH, line);
	}
	rule(f);
	free(rows);
}

#undef COL

/* The rule's effect with the decimals a narrow interval needs. */
static void print_effect(FILE *f, const struct ct_stats_comparison *c)
{
	struct ct_stats_ratio q = { .low = c->effect_low, .high = c->effect_high };

	if (c->decided_by == CT_TEST_NONE) {
		fputs("no effect estimated", f);
	} else if (c->ratio_scale) {
		int dec;

		q.bounded = isfinite(q.low) && isfinite(q.high);
		dec = pct_decimals(&q);
		print_pct(f, c->effect, dec);
		fputs(" [", f);
		if (isfinite(c->effect_low))
			print_pct(f, c->effect_low, dec);
		else
			fputs("-inf", f);
		fputs(", ", f);
		if (isfinite(c->effect_high))
			print_pct(f, c->effect_high, dec);
		else
			fputs("+inf", f);
		fputs("]", f);
	} else {
		fprintf(f, "%+.6g [%+.6g, %+.6g]", c->effect, c->effect_low, c->effect_high);
	}
}

/* The deciding test as JSON names it, NULL when none decided. */
static const char *decided(const struct ct_stats_comparison *c)
{
	return c->decided_by == CT_TEST_SIGNED_RANK ? "signed-rank"
	       : c->decided_by == CT_TEST_RANK	    ? "mann-whitney"
						    : NULL;
}

void ct_report_print_numbers(FILE *f, const struct ct_report *rep)
{
	const struct ct_report_cell *d = rep->blocks[0].cells;
	size_t nd = rep->blocks[0].ncells;

	plot(f, d, nd);
	fprintf(f, "    %-6s %-12s %-12s %-12s %-12s %-12s %g%% CI of the mean\n", "N", "Min",
		"Max", "Median", "Mean", "Stddev", rep->confidence);
	for (size_t i = 0; i < nd; i++) {
		const struct ct_stats_summary *s = &d[i].sum;

		fprintf(f, "%c   %-6zu %-12.6g %-12.6g %-12.6g %-12.6g %-12.6g %.6g - %.6g   %s\n",
			symbols[i % (sizeof(symbols) - 1)], d[i].n, s->min, s->max, s->median,
			s->mean, s->sd, s->ci_low, s->ci_high, d[i].label);
		if (d[i].nflags) {
			fprintf(f, "    outliers (modified z-score > %.1f):", CT_STATS_OUTLIER_Z);
			for (size_t k = 0; k < d[i].nflags; k++)
				fprintf(f, " %.6g", d[i].values[d[i].flags[k].value]);
			fprintf(f, "\n");
		}
	}
	for (size_t i = 1; i < nd; i++) {
		const struct ct_stats_comparison *c = &d[i].cmp;
		bool paired = d[i].paired;

		fprintf(f, "%c vs %c: ", symbols[i % (sizeof(symbols) - 1)], symbols[0]);
		print_effect(f, c);
		if (paired)
			fprintf(f, "  p=%.3g (paired t), %.3g (signed-rank%s)", c->pt.p, c->w.p,
				c->w.exact ? ", exact" : "");
		else
			fprintf(f, "  p=%.3g (Welch)", c->t.p);
		fprintf(f, ", %.3g (U%s)", c->u.p, c->u.exact ? ", exact" : "");
		if (c->decided_by != CT_TEST_NONE)
			fprintf(f, "  %s decides", ct_report_test_name(c));
		fprintf(f, ": %s\n", ct_report_verdict(rep, &d[i]));
	}
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void json_num(FILE *f, const char *key, double v, bool comma)
{
	fprintf(f, "\"%s\": ", key);
	if (isfinite(v))
		fprintf(f, "%.17g", v);
	else
		fprintf(f, "null");
	if (comma)
		fprintf(f, ", ");
}

static void json_dataset(FILE *f, const struct ct_report_cell *d)
{
	const struct ct_stats_summary *s = &d->sum;

	fprintf(f, "{\"name\": ");
	json_str(f, d->label);
	fprintf(f, ", \"n\": %zu, ", s->n);
	json_num(f, "mean", s->mean, true);
	json_num(f, "sd", s->sd, true);
	json_num(f, "median", s->median, true);
	json_num(f, "mad", s->mad, true);
	json_num(f, "min", s->min, true);
	json_num(f, "max", s->max, true);
	json_num(f, "cov", s->cov, true);
	json_num(f, "ci_low", s->ci_low, true);
	json_num(f, "ci_high", s->ci_high, true);
	json_num(f, "median_ci_low", s->median_ci_low, true);
	json_num(f, "median_ci_high", s->median_ci_high, true);
	json_num(f, "aad_median", s->aad_median, true);
	fprintf(f, "\"outliers\": [");
	for (size_t k = 0; k < d->nflags; k++) {
		fprintf(f, "%s{\"index\": %zu, ", k ? ", " : "", d->flags[k].value);
		json_num(f, "value", d->values[d->flags[k].value], false);
		fprintf(f, "}");
	}
	fprintf(f, "]}");
}

static void json_comparison(FILE *f, const struct ct_report *rep, const struct ct_report_cell *b,
			    const struct ct_report_cell *d)
{
	const struct ct_stats_comparison *c = &d->cmp;
	bool ok = c->have_ratio && c->ratio.bounded;

	fprintf(f, "{\"baseline\": ");
	json_str(f, b->label);
	fprintf(f, ", \"other\": ");
	json_str(f, d->label);
	/* the same keys with and without --paired: the paired tests are
	 * their own keys, null when the values were not paired */
	fprintf(f, ", ");
	json_num(f, "welch_t", c->t.t, true);
	json_num(f, "welch_df", c->t.df, true);
	json_num(f, "welch_p", c->t.p, true);
	json_num(f, "mann_whitney_u", c->u.stat, true);
	json_num(f, "mann_whitney_p", c->u.p, true);
	json_num(f, "paired_t", d->paired ? c->pt.t : NAN, true);
	json_num(f, "paired_df", d->paired ? c->pt.df : NAN, true);
	json_num(f, "paired_p", d->paired ? c->pt.p : NAN, true);
	json_num(f, "wilcoxon_v", d->paired ? c->w.stat : NAN, true);
	json_num(f, "wilcoxon_p", d->paired ? c->w.p : NAN, true);
	json_num(f, "ratio", c->have_ratio ? c->ratio.ratio : NAN, true);
	json_num(f, "ratio_ci_low", ok ? c->ratio.low : NAN, true);
	json_num(f, "ratio_ci_high", ok ? c->ratio.high : NAN, true);
	/* the deciding rule's effect: a ratio other/base, or a difference */
	fprintf(f, "\"effect_scale\": \"%s\", ", c->ratio_scale ? "ratio" : "difference");
	json_num(f, "effect", c->effect, true);
	json_num(f, "effect_ci_low", c->effect_low, true);
	json_num(f, "effect_ci_high", c->effect_high, true);
	json_num(f, "decided_p", c->p, true);
	fprintf(f, "\"decided_by\": ");
	if (decided(c))
		json_str(f, decided(c));
	else
		fprintf(f, "null");
	fprintf(f, ", \"verdict\": ");
	json_str(f, ct_report_verdict(rep, d));
	fprintf(f, "}");
}

void ct_report_print_numbers_json(FILE *f, const struct ct_report *rep)
{
	const struct ct_report_cell *d = rep->blocks[0].cells;
	size_t nd = rep->blocks[0].ncells;

	fprintf(f, "{\"confidence\": %.17g,\n \"datasets\": [", rep->confidence);
	for (size_t i = 0; i < nd; i++) {
		fprintf(f, "%s\n  ", i ? "," : "");
		json_dataset(f, &d[i]);
	}
	fprintf(f, "],\n \"comparisons\": [");
	for (size_t i = 1; i < nd; i++) {
		fprintf(f, "%s\n  ", i > 1 ? "," : "");
		json_comparison(f, rep, &d[0], &d[i]);
	}
	fprintf(f, "]}\n");
}
