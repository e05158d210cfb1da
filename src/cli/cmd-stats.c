/*
 * `contend stats`: ministat's job done right. Each file holds numbers, one
 * per line; the first file is the baseline and every other one is compared
 * with it (Welch's t and Mann-Whitney U side by side, the ratio of means
 * with Fieller's interval, a verdict at the stated confidence). Text with
 * an ASCII dot plot, or JSON with fixed keys for other tools.
 */
#include "cli.h"
#include "contend/stats.h"
#include "contend/util.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_WIDTH 72

static const char symbols[] = "x+*%#@O";

struct dataset {
	const char *name;
	double *v;
	size_t n, cap;
	struct ct_stats_summary s;
	bool *outlier;
	size_t noutliers;
};

struct comparison {
	struct ct_stats_ttest t; /* Welch, or paired t */
	struct ct_stats_rank u;	 /* Mann-Whitney, or signed-rank */
	struct ct_stats_ratio ratio;
	bool have_ratio;
	const char *verdict;
};

static void stats_usage(FILE *f)
{
	fputs("usage: contend stats [--format text|json] [--confidence PCT] [--paired] FILE...\n"
	      "\n"
	      "  each FILE holds numbers, one per line (blank lines and # comments ignored);\n"
	      "  the first is the baseline every other one is compared with\n"
	      "      --format F        text (default) or json\n"
	      "      --confidence PCT  confidence level in percent (default 95)\n"
	      "      --paired          the files are paired line by line (same length): paired t\n"
	      "                        and Wilcoxon signed-rank instead of Welch and "
	      "Mann-Whitney\n",
	      f);
}

/* Reads one file; prints the error and returns the exit code on bad input. */
static int read_dataset(struct dataset *d)
{
	FILE *f = fopen(d->name, "re");
	char *line = NULL, *p, *end;
	size_t cap = 0;
	unsigned lineno = 0;
	int ex = 0;

	if (!f) {
		cli_error("cannot read '%s': %s", d->name, strerror(errno));
		return CT_EXIT_USAGE;
	}
	while (getline(&line, &cap, f) > 0) {
		double v;

		lineno++;
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		end = p + strcspn(p, "#\r\n");
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if (end == p)
			continue;
		*end = '\0';
		errno = 0;
		v = strtod(p, &end);
		if (*end || end == p || errno == ERANGE || !isfinite(v)) {
			cli_error("'%s' line %u: '%s' is not a number", d->name, lineno, p);
			ex = CT_EXIT_USAGE;
			break;
		}
		if (d->n == d->cap) {
			size_t ncap = d->cap ? d->cap * 2 : 1024;
			double *nv = realloc(d->v, ncap * sizeof(*nv));

			if (!nv) {
				cli_error("out of memory reading '%s'", d->name);
				ex = CT_EXIT_ENV;
				break;
			}
			d->v = nv;
			d->cap = ncap;
		}
		d->v[d->n++] = v;
	}
	if (!ex && ferror(f)) {
		cli_error("cannot read '%s': %s", d->name, strerror(errno));
		ex = CT_EXIT_USAGE;
	}
	free(line);
	fclose(f);
	if (!ex && d->n == 0) {
		cli_error("'%s' holds no numbers", d->name);
		ex = CT_EXIT_USAGE;
	} else if (!ex && d->n == 1) {
		cli_error("'%s' holds one number; at least two are needed for a spread", d->name);
		ex = CT_EXIT_USAGE;
	}
	return ex;
}

static int analyse(struct dataset *d, double confidence)
{
	d->outlier = calloc(d->n, sizeof(*d->outlier));
	if (!d->outlier)
		return -ENOMEM;
	if (ct_stats_summarize(d->v, d->n, confidence, &d->s) ||
	    ct_stats_outliers(d->v, d->n, d->outlier, &d->noutliers))
		return -EINVAL;
	return 0;
}

static void compare(const struct dataset *base, const struct dataset *o, double confidence,
		    bool paired, struct comparison *c)
{
	double alpha = 1 - confidence / 100;
	int rt, ru;

	memset(c, 0, sizeof(*c));
	c->t.p = c->u.p = NAN;
	c->t.t = c->t.df = c->u.stat = NAN;
	/* baseline first, as R's t.test(baseline, other): t < 0 when other is larger */
	if (paired) {
		rt = ct_stats_paired_t(base->v, o->v, o->n, &c->t);
		ru = ct_stats_signed_rank(base->v, o->v, o->n, CT_STATS_AUTO, &c->u);
	} else {
		rt = ct_stats_welch(base->v, base->n, o->v, o->n, &c->t);
		ru = ct_stats_mann_whitney(base->v, base->n, o->v, o->n, CT_STATS_AUTO, &c->u);
	}
	if (rt)
		c->t.p = c->t.t = c->t.df = NAN;
	if (ru)
		c->u.p = c->u.stat = NAN;
	c->have_ratio = !ct_stats_fieller(o->v, o->n, base->v, base->n, confidence, &c->ratio);
	if (isnan(c->t.p))
		c->verdict = o->s.mean == base->s.mean ? "no significant difference"
						       : "no test possible (no spread)";
	else if (c->t.p < alpha)
		c->verdict = o->s.mean > base->s.mean ? "larger" : "smaller";
	else
		c->verdict = "no significant difference";
}

/* Effects print with one decimal, or as many more as a narrow interval
 * needs to show its ends apart. */
static void print_pct(double r, int decimals)
{
	printf("%+.*f%%", decimals, (r - 1) * 100);
}

static int pct_decimals(const struct ct_stats_ratio *q)
{
	double w = q->bounded ? (q->high - q->low) * 100 : 1;
	int d = 1;

	while (d < 6 && w > 0 && w < pow(10, 1 - d))
		d++;
	return d;
}

/* ministat's picture: each value a symbol on a shared axis (stacked where
 * they collide), then per dataset the mean (A), median (M) and +-1 sd. */
static void plot(const struct dataset *d, size_t nd)
{
	double lo = d[0].s.min, hi = d[0].s.max, span;
	char *rows = NULL;
	size_t nrows = 0;

	for (size_t i = 1; i < nd; i++) {
		lo = fmin(lo, d[i].s.min);
		hi = fmax(hi, d[i].s.max);
	}
	span = hi > lo ? hi - lo : 1;
#define COL(v) ((size_t)lround(((v)-lo) / span * (PLOT_WIDTH - 1)))
	for (size_t i = 0; i < nd; i++) {
		for (size_t k = 0; k < d[i].n; k++) {
			size_t c = COL(d[i].v[k]), r = 0;

			while (r < nrows && rows[r * PLOT_WIDTH + c] != ' ')
				r++;
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
		}
	}
	printf("+");
	for (int i = 0; i < PLOT_WIDTH; i++)
		putchar('-');
	printf("+\n");
	for (size_t r = nrows; r-- > 0;)
		printf("|%.*s|\n", PLOT_WIDTH, rows + r * PLOT_WIDTH);
	for (size_t i = 0; i < nd; i++) {
		char line[PLOT_WIDTH];
		double a = fmax(lo, d[i].s.mean - d[i].s.sd), b = fmin(hi, d[i].s.mean + d[i].s.sd);

		memset(line, ' ', sizeof(line));
		for (size_t c = COL(a); c <= COL(b); c++)
			line[c] = '_';
		line[COL(a)] = line[COL(b)] = '|';
		line[COL(d[i].s.median)] = 'M';
		line[COL(d[i].s.mean)] = 'A';
		printf("|%.*s|\n", PLOT_WIDTH, line);
	}
	printf("+");
	for (int i = 0; i < PLOT_WIDTH; i++)
		putchar('-');
	printf("+\n");
#undef COL
	free(rows);
}

static void print_text(const struct dataset *d, size_t nd, const struct comparison *c,
		       double confidence, bool paired)
{
	plot(d, nd);
	printf("    %-6s %-12s %-12s %-12s %-12s %-12s %g%% CI of the mean\n", "N", "Min", "Max",
	       "Median", "Mean", "Stddev", confidence);
	for (size_t i = 0; i < nd; i++) {
		printf("%c   %-6zu %-12.6g %-12.6g %-12.6g %-12.6g %-12.6g %.6g - %.6g   %s\n",
		       symbols[i % (sizeof(symbols) - 1)], d[i].n, d[i].s.min, d[i].s.max,
		       d[i].s.median, d[i].s.mean, d[i].s.sd, d[i].s.ci_low, d[i].s.ci_high,
		       d[i].name);
		if (d[i].noutliers) {
			printf("    outliers (modified z-score > %.1f):", CT_STATS_OUTLIER_Z);
			for (size_t k = 0; k < d[i].n; k++)
				if (d[i].outlier[k])
					printf(" %.6g", d[i].v[k]);
			printf("\n");
		}
	}
	for (size_t i = 1; i < nd; i++) {
		const struct comparison *ci = &c[i - 1];

		printf("%c vs %c: ", symbols[i % (sizeof(symbols) - 1)], symbols[0]);
		int dec = pct_decimals(&ci->ratio);

		if (ci->have_ratio && ci->ratio.bounded) {
			print_pct(ci->ratio.ratio, dec);
			printf(" [");
			print_pct(ci->ratio.low, dec);
			printf(", ");
			print_pct(ci->ratio.high, dec);
			printf("]");
		} else if (ci->have_ratio) {
			print_pct(ci->ratio.ratio, dec);
			printf(" [unbounded]");
		} else {
			printf("ratio undefined");
		}
		printf("  p=%.3g (%s), %.3g (%s%s)  %s\n", ci->t.p, paired ? "paired t" : "Welch",
		       ci->u.p, paired ? "signed-rank" : "U", ci->u.exact ? ", exact" : "",
		       ci->verdict);
	}
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

static void json_num(const char *key, double v, bool comma)
{
	printf("\"%s\": ", key);
	if (isfinite(v))
		printf("%.17g", v);
	else
		printf("null");
	if (comma)
		printf(", ");
}

static void print_json(const struct dataset *d, size_t nd, const struct comparison *c,
		       double confidence, bool paired)
{
	printf("{\"confidence\": %.17g,\n \"datasets\": [", confidence);
	for (size_t i = 0; i < nd; i++) {
		const struct ct_stats_summary *s = &d[i].s;
		bool first = true;

		printf("%s\n  {\"name\": ", i ? "," : "");
		json_str(d[i].name);
		printf(", \"n\": %zu, ", s->n);
		json_num("mean", s->mean, true);
		json_num("sd", s->sd, true);
		json_num("median", s->median, true);
		json_num("mad", s->mad, true);
		json_num("min", s->min, true);
		json_num("max", s->max, true);
		json_num("cov", s->cov, true);
		json_num("ci_low", s->ci_low, true);
		json_num("ci_high", s->ci_high, true);
		json_num("median_ci_low", s->median_ci_low, true);
		json_num("median_ci_high", s->median_ci_high, true);
		json_num("aad_median", s->aad_median, true);
		printf("\"outliers\": [");
		for (size_t k = 0; k < d[i].n; k++)
			if (d[i].outlier[k]) {
				printf("%s%zu", first ? "" : ", ", k);
				first = false;
			}
		printf("]}");
	}
	printf("],\n \"comparisons\": [");
	for (size_t i = 1; i < nd; i++) {
		const struct comparison *ci = &c[i - 1];
		bool ok = ci->have_ratio && ci->ratio.bounded;

		printf("%s\n  {\"baseline\": ", i > 1 ? "," : "");
		json_str(d[0].name);
		printf(", \"other\": ");
		json_str(d[i].name);
		printf(", ");
		if (paired) {
			json_num("paired_t", ci->t.t, true);
			json_num("paired_df", ci->t.df, true);
			json_num("paired_p", ci->t.p, true);
			json_num("wilcoxon_v", ci->u.stat, true);
			json_num("wilcoxon_p", ci->u.p, true);
		} else {
			json_num("welch_t", ci->t.t, true);
			json_num("welch_df", ci->t.df, true);
			json_num("welch_p", ci->t.p, true);
			json_num("mann_whitney_u", ci->u.stat, true);
			json_num("mann_whitney_p", ci->u.p, true);
		}
		json_num("ratio", ci->have_ratio ? ci->ratio.ratio : NAN, true);
		json_num("ratio_ci_low", ok ? ci->ratio.low : NAN, true);
		json_num("ratio_ci_high", ok ? ci->ratio.high : NAN, true);
		printf("\"verdict\": ");
		json_str(ci->verdict);
		printf("}");
	}
	printf("]}\n");
}

int cmd_stats(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "confidence", required_argument, NULL, 'c' },
		{ "paired", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct dataset *d = NULL;
	struct comparison *c = NULL;
	double confidence = 95;
	bool json = false, paired = false;
	size_t nd;
	int ch, ex = 0;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json")) {
				cli_error("invalid value '%s' for --format (text or json)", optarg);
				return CT_EXIT_USAGE;
			}
			json = !strcmp(optarg, "json");
			break;
		case 'c':
			if (cli_parse_confidence(optarg, &confidence))
				return CT_EXIT_USAGE;
			break;
		case 'p':
			paired = true;
			break;
		case 'h':
			stats_usage(stdout);
			return 0;
		default:
			stats_usage(stderr);
			return CT_EXIT_USAGE;
		}
	}
	nd = (size_t)(argc - optind);
	if (!nd) {
		cli_error("stats needs at least one file");
		return CT_EXIT_USAGE;
	}
	if (nd > 64) {
		cli_error("stats takes at most 64 files");
		return CT_EXIT_USAGE;
	}
	d = calloc(nd, sizeof(*d));
	c = calloc(nd, sizeof(*c));
	if (!d || !c) {
		cli_error("out of memory");
		ex = CT_EXIT_ENV;
		goto out;
	}
	for (size_t i = 0; i < nd && !ex; i++) {
		d[i].name = argv[optind + (int)i];
		ex = read_dataset(&d[i]);
		if (!ex && paired && d[i].n != d[0].n) {
			cli_error("--paired: '%s' holds %zu numbers, '%s' %zu", d[i].name, d[i].n,
				  d[0].name, d[0].n);
			ex = CT_EXIT_USAGE;
		}
		if (!ex && analyse(&d[i], confidence)) {
			cli_error("cannot summarise '%s'", d[i].name);
			ex = CT_EXIT_USAGE;
		}
	}
	if (ex)
		goto out;
	for (size_t i = 1; i < nd; i++)
		compare(&d[0], &d[i], confidence, paired, &c[i - 1]);
	if (json)
		print_json(d, nd, c, confidence, paired);
	else
		print_text(d, nd, c, confidence, paired);
out:
	for (size_t i = 0; d && i < nd; i++) {
		free(d[i].v);
		free(d[i].outlier);
	}
	free(d);
	free(c);
	return ex;
}
