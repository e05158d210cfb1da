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
