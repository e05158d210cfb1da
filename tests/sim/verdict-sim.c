/*
 * The simulation study that chooses contend's verdict rule
 * (docs/statistics.md): thousands of simulated comparisons, from fixed
 * seeds, for each candidate rule - how often it calls a difference when
 * there is none (A/A: normal, lognormal, shifted exponential and
 * contaminated runs, n = 5, 6, 8, 10, 20) and how often it finds a true
 * +5% slowdown (n = 5, 10, 20; CoV 2% and 3%, clean and with 7% of runs
 * disturbed x1.5; paired blocks also under a drift of 4%) - for
 * independent samples and for runs paired by block. The chosen rule's
 * interval is checked against its own test: it leaves out "no change"
 * exactly when the test rejects.
 *
 * usage: verdict-sim [--trials N] [--paired-trials N] [--judge RULE] [--check]
 *   --judge RULE: judge the rule of that index in rules[] (0 is Welch's t,
 *   as contend decided until now) instead of contend's.
 *   The criteria (docs/statistics.md) allow three standard errors of the
 *   Monte Carlo error of N trials; exits 1 when the chosen rule misses one
 *   and --check is given. --check is the reduced study of make check: it
 *   leaves out paired n = 20.
 */
#include "contend/stats.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALPHA	  0.05
#define MAX_N	  20
#define SEED	  0x636f6e74656e64ULL
#define TRIM	  0.2
#define DISTURB_P 0.07
#define DISTURB_X 1.5

/* ------------------------------------------------------------------ */
/* Random numbers: xorshift64* (core/util.c), Box-Muller normals.      */

static double unif(uint64_t *st)
{
	return ((double)(ct_rand64(st) >> 11) + 0.5) / 9007199254740992.0;
}

static double norm(uint64_t *st)
{
	return sqrt(-2 * log(unif(st))) * cos(2 * M_PI * unif(st));
}

enum dist { D_NORMAL, D_LOGNORMAL, D_SHIFTEXP, D_CONTAM, D__N };
static const char *const dist_name[] = {
	"normal (CoV 2%)",
	"lognormal (sigma 0.25)",
	"shifted exponential (100 + Exp(mean 5))",
	"normal CoV 2%, 7% of runs x1.5",
};

/* One run's value: around 100, the distribution's spread, times shift;
 * cov for the normal ones. */
static double draw(enum dist d, double cov, double shift, uint64_t *st)
{
	double v;

	switch (d) {
	case D_LOGNORMAL:
		v = 100 * exp(0.25 * norm(st));
		break;
	case D_SHIFTEXP:
		v = 100 - 5 * log(unif(st));
		break;
	case D_CONTAM:
		v = 100 * (1 + cov * norm(st));
		if (unif(st) < DISTURB_P)
			v *= DISTURB_X;
		break;
	default:
		v = 100 * (1 + cov * norm(st));
		break;
	}
	return v * shift;
}

/* ------------------------------------------------------------------ */
/* The rules. Each returns whether it calls a difference, and whether  */
/* its interval (of the ratio other/base) leaves out 1.                */

struct outcome {
	bool reject;
	bool ci_excludes; /* the rule's interval leaves out "no change" */
	bool ci_checked;  /* the interval is the test's own, to be checked */
	bool ok;	  /* the rule could be applied */
};

typedef struct outcome (*rule_fn)(const double *b, const double *o, size_t n, bool paired);

static void logs(const double *x, double *lx, size_t n)
{
	for (size_t i = 0; i < n; i++)
		lx[i] = log(x[i]);
}

/* t statistic, its interval diff +- q * se: consistent by construction */
static struct outcome t_outcome(int rc, const struct ct_stats_ttest *t)
{
	struct outcome r = { 0 };
	double q;

	if (rc)
		return r;
	q = ct_stats_t_quantile(1 - ALPHA / 2, t->df);
	r.ok = true;
	r.reject = t->p < ALPHA;
	r.ci_excludes = t->diff - q * t->se > 0 || t->diff + q * t->se < 0;
	r.ci_checked = true;
	return r;
}

static struct outcome welch_raw(const double *b, const double *o, size_t n, bool paired)
{
	struct ct_stats_ttest t;
	struct ct_stats_ratio q;
	struct outcome r;
	int rc = paired ? ct_stats_paired_t(b, o, n, &t) : ct_stats_welch(b, n, o, n, &t);

	r = t_outcome(rc, &t);
	/* the interval contend printed until now: Fieller's, unpaired */
	if (r.ok && !ct_stats_fieller(o, n, b, n, 95, &q))
		r.ci_excludes = q.bounded && (q.low > 1 || q.high < 1);
	r.ci_checked = false; /* it never came from the test that decided */
	return r;
}

static struct outcome yuen20(const double *b, const double *o, size_t n, bool paired)
{
	double lb[MAX_N], lo[MAX_N];
	struct ct_stats_ttest t;

	logs(b, lb, n);
	logs(o, lo, n);
	return t_outcome(paired ? ct_stats_yuen_paired(lb, lo, n, TRIM, &t)
				: ct_stats_yuen(lb, n, lo, n, TRIM, &t),
			 &t);
}

static struct outcome rank(const double *b, const double *o, size_t n, bool paired)
{
	struct ct_stats_rank w;
	struct outcome r = { 0 };
	int rc = paired ? ct_stats_signed_rank(b, o, n, CT_STATS_AUTO, &w)
			: ct_stats_mann_whitney(b, n, o, n, CT_STATS_AUTO, &w);

	if (rc)
		return r;
	r.ok = true;
	r.reject = w.p < ALPHA;
	r.ci_excludes = r.reject;
	r.ci_checked = false; /* no interval of its own here */
	return r;
}

/* Mann-Whitney whether or not the runs were paired. */
static struct outcome mw(const double *b, const double *o, size_t n, bool paired)
{
	(void)paired;
	return rank(b, o, n, false);
}

static void sort_d(double *s, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && s[j - 1] > s[j]; j--) {
			double t = s[j];

			s[j] = s[j - 1];
			s[j - 1] = t;
		}
}

/* Paired: Fisher's sign-flip test of bounded scores, min(1.5, |d| / median
 * |d|) with d's sign, d the log ratio - valid for any symmetric d, and a
 * disturbed block weighs no more than a typical one. No interval of its
 * own (inverting it is not monotone). */
static struct outcome hflip(const double *b, const double *o, size_t n, bool paired)
{
	struct outcome r = { 0 };
	double d[MAX_N], a[MAX_N], s[MAX_N], sc, obs = 0;
	size_t ext = 0, pats;
	uint64_t st = 12345;

	if (!paired || n < 6)
		return rank(b, o, n, false);
	for (size_t i = 0; i < n; i++) {
		d[i] = log(o[i]) - log(b[i]);
		s[i] = fabs(d[i]);
	}
	sort_d(s, n);
	sc = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	if (!(sc > 0))
		return r;
	for (size_t i = 0; i < n; i++) {
		a[i] = fmin(1.5, fabs(d[i]) / sc);
		obs += d[i] < 0 ? -a[i] : a[i];
	}
	obs = fabs(obs);
	pats = n <= 12 ? (size_t)1 << n : 4000;
	for (size_t k = 0; k < pats; k++) {
		uint64_t bits = n <= 12 ? k : ct_rand64(&st);
		double t = 0;

		for (size_t i = 0; i < n; i++)
			t += bits >> i & 1 ? -a[i] : a[i];
		ext += fabs(t) >= obs - 1e-9;
	}
	r.ok = true;
	r.reject = r.ci_excludes = (double)ext / (double)pats < ALPHA;
	return r;
}

/* Paired: the signed-rank test on the log ratios, the blocks whose ratio
 * is an outlier among the ratios (modified z-score, 1% floor) left out. */
static struct outcome srd(const double *b, const double *o, size_t n, bool paired)
{
	struct outcome r = { 0 };
	double d[MAX_N], zb[MAX_N], zo[MAX_N], med, s[MAX_N];
	bool flag[MAX_N];
	size_t k = 0;
	struct ct_stats_rank w;

	if (!paired || n < 6)
		return rank(b, o, n, false);
	for (size_t i = 0; i < n; i++)
		d[i] = log(o[i]) - log(b[i]);
	memcpy(s, d, n * sizeof(*s));
	sort_d(s, n);
	med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	if (ct_stats_outliers(d, n, flag, NULL))
		memset(flag, 0, sizeof(flag));
	for (size_t i = 0; i < n; i++)
		if (!flag[i] || fabs(d[i] - med) <= 0.01) {
			zb[k] = 0;
			zo[k++] = d[i];
		}
	if (ct_stats_signed_rank(zb, zo, k, CT_STATS_AUTO, &w))
		return r;
	r.ok = true;
	r.reject = r.ci_excludes = w.p < ALPHA;
	return r;
}

/* Runs far from the rest - modified z-score over 3.5 and more than 1% off
 * the median (ct_stats_outliers) - left out, then Welch's t on the logs of
 * the others (paired: the blocks where neither run is flagged, paired t). */
static size_t keep_unflagged(const double *x, size_t n, bool *keep)
{
	bool flag[MAX_N];
	size_t k = 0;

	if (ct_stats_outliers(x, n, flag, NULL))
		memset(flag, 0, sizeof(flag));
	for (size_t i = 0; i < n; i++) {
		keep[i] = !flag[i];
		k += keep[i];
	}
	return k;
}

static struct outcome drop_welch(const double *b, const double *o, size_t n, bool paired)
{
	double lb[MAX_N], lo[MAX_N];
	bool kb[MAX_N], ko[MAX_N];
	struct ct_stats_ttest t;
	size_t nb = 0, no = 0;

	keep_unflagged(b, n, kb);
	keep_unflagged(o, n, ko);
	if (paired) {
		for (size_t i = 0; i < n; i++)
			if (kb[i] && ko[i]) {
				lb[nb] = log(b[i]);
				lo[nb++] = log(o[i]);
			}
		return t_outcome(ct_stats_paired_t(lb, lo, nb, &t), &t);
	}
	for (size_t i = 0; i < n; i++) {
		if (kb[i])
			lb[nb++] = log(b[i]);
		if (ko[i])
			lo[no++] = log(o[i]);
	}
	return t_outcome(ct_stats_welch(lb, nb, lo, no, &t), &t);
}

/* contend's rule as it decides: ct_stats_compare() and ct_stats_decide()
 * on one comparison, its interval the rule's own effect interval. */
static struct outcome contend_rule(const double *b, const double *o, size_t n, bool paired)
{
	struct ct_stats_comparison c, *pc = &c;
	struct outcome r = { 0 };

	ct_stats_compare(b, n, o, n, paired ? b : NULL, paired ? o : NULL, paired ? n : 0,
			 100 * (1 - ALPHA), &c);
	if (c.decided_by == CT_TEST_NONE || ct_stats_decide(&pc, 1, 100 * (1 - ALPHA)))
		return r;
	r.ok = true;
	r.reject = c.outcome == CT_OUTCOME_HIGHER || c.outcome == CT_OUTCOME_LOWER;
	r.ci_excludes = c.effect_low > 1 || c.effect_high < 1;
	r.ci_checked = true;
	return r;
}

/* The rank tests on the runs left when the flagged ones are dropped
 * (paired: the blocks where neither run is flagged). */
static struct outcome rank_drop(const double *b, const double *o, size_t n, bool paired)
{
	double xb[MAX_N], xo[MAX_N];
	bool kb[MAX_N], ko[MAX_N];
	size_t nb = 0, no = 0;

	keep_unflagged(b, n, kb);
	keep_unflagged(o, n, ko);
	for (size_t i = 0; i < n; i++) {
		if (paired) {
			if (kb[i] && ko[i]) {
				xb[nb] = b[i];
				xo[nb++] = o[i];
			}
			continue;
		}
		if (kb[i])
			xb[nb++] = b[i];
		if (ko[i])
			xo[no++] = o[i];
	}
	if (paired) {
		struct ct_stats_rank w;
		struct outcome r = { 0 };

		if (ct_stats_signed_rank(xb, xo, nb, CT_STATS_AUTO, &w))
			return r;
		r.ok = true;
		r.reject = r.ci_excludes = w.p < ALPHA;
		return r;
	}
	{
		struct ct_stats_rank w;
		struct outcome r = { 0 };

		if (ct_stats_mann_whitney(xb, nb, xo, no, CT_STATS_AUTO, &w))
			return r;
		r.ok = true;
		r.reject = r.ci_excludes = w.p < ALPHA;
		return r;
	}
}

static const struct {
	const char *name;	 /* independent samples */
	const char *paired_name; /* runs paired by block */
	rule_fn fn;
} rules[] = {
	{ "Welch t, Fieller's interval (contend until now)", "paired t (contend until now)",
	  welch_raw },
	{ "Yuen t, 20% trimmed, on logs", "trimmed paired t, 20%, on logs", yuen20 },
	{ "Welch t on logs without flagged runs", "paired t on logs without flagged blocks",
	  drop_welch },
	{ "Mann-Whitney U", "Wilcoxon signed-rank", rank },
	{ NULL, "Mann-Whitney U, blocks ignored", mw },
	{ NULL, "signed-rank without outlying ratios", srd },
	{ NULL, "sign-flip test of bounded scores", hflip },
	{ "Mann-Whitney U without flagged runs", "signed-rank without flagged blocks", rank_drop },
	{ "**contend: Mann-Whitney U, Hodges-Lehmann interval**",
	  "**contend: signed-rank, paired Hodges-Lehmann interval (6+ blocks, else U)**",
	  contend_rule },
};
#define NRULES CT_ARRAY_SIZE(rules)
/* the rule the criteria judge: contend's, unless --judge names another */
static size_t chosen = NRULES - 1;

/* ------------------------------------------------------------------ */
/* The study.                                                          */

struct cell {
	double rate[NRULES];
	unsigned inconsistent[NRULES];
};

struct study {
	unsigned trials, paired_trials;
	bool check; /* reduced: no paired n = 20 */
	unsigned inconsistent;
	double worst_false[2], least_power[2]; /* the chosen rule's, [paired] */
};

/* trials comparisons of n a side: base from d, other from d times shift;
 * paired: both runs of a block share a drift of drift_sd. A rule that
 * cannot decide counts as no verdict. */
static void simulate(struct cell *c, enum dist d, double cov, double drift_sd, double shift,
		     size_t n, bool paired, unsigned trials, uint64_t seed)
{
	uint64_t st = seed;
	unsigned hits[NRULES] = { 0 };

	memset(c, 0, sizeof(*c));
	for (unsigned t = 0; t < trials; t++) {
		double b[MAX_N], o[MAX_N];

		for (size_t i = 0; i < n; i++) {
			double drift = paired ? 1 + drift_sd * norm(&st) : 1;

			b[i] = draw(d, cov, 1, &st) * drift;
			o[i] = draw(d, cov, shift, &st) * drift;
		}
		for (size_t r = 0; r < NRULES; r++) {
			struct outcome out;

			if (!(paired ? rules[r].paired_name : rules[r].name))
				continue;
			out = rules[r].fn(b, o, n, paired);

			hits[r] += out.ok && out.reject;
			c->inconsistent[r] +=
				out.ok && out.ci_checked && out.reject != out.ci_excludes;
		}
	}
	for (size_t r = 0; r < NRULES; r++)
		c->rate[r] = (double)hits[r] / trials;
}

static const char *rule_name(size_t r, bool paired)
{
	return paired ? rules[r].paired_name : rules[r].name;
}

static const size_t aa_n[] = { 5, 6, 8, 10, 20 };

/* A/A: the false-verdict rate per rule, distribution and n. */
static void aa_table(struct study *sd, bool paired)
{
	unsigned trials = paired ? sd->paired_trials : sd->trials;
	size_t nn = CT_ARRAY_SIZE(aa_n) - (paired && sd->check);

	printf("\n## False verdicts on A/A samples, %s\n\n%u trials a cell; alpha %.2f.\n",
	       paired ? "runs paired by block" : "independent runs", trials, ALPHA);
	for (int d = 0; d < D__N; d++) {
		struct cell c[CT_ARRAY_SIZE(aa_n)];

		printf("\n| %s | n =", dist_name[d]);
		for (size_t k = 0; k < nn; k++)
			printf(" %zu |", aa_n[k]);
		printf("\n|---|---|");
		for (size_t k = 1; k < nn; k++)
			printf("---|");
		printf("\n");
		for (size_t k = 0; k < nn; k++)
			simulate(&c[k], (enum dist)d, 0.02, 0.01, 1, aa_n[k], paired, trials,
				 SEED + 1000 * (uint64_t)d + aa_n[k] + (paired ? 7 : 0));
		for (size_t r = 0; r < NRULES; r++) {
			if (!rule_name(r, paired))
				continue;
			printf("| %s |", rule_name(r, paired));
			for (size_t k = 0; k < nn; k++) {
				printf(" %.3f |", c[k].rate[r]);
				sd->inconsistent += r == chosen ? c[k].inconsistent[r] : 0;
				if (r == chosen && c[k].rate[r] > sd->worst_false[paired])
					sd->worst_false[paired] = c[k].rate[r];
			}
			printf("\n");
		}
	}
}

/* Power against a true +5% slowdown. */
static void power_table(struct study *sd, bool paired)
{
	static const struct {
		enum dist d;
		double cov, drift;
		const char *name;
	} cases[] = {
		{ D_NORMAL, 0.02, 0.01, "CoV 2%" },
		{ D_NORMAL, 0.03, 0.01, "CoV 3%" },
		{ D_CONTAM, 0.02, 0.01, "CoV 2%, 7% x1.5" },
		{ D_CONTAM, 0.03, 0.01, "CoV 3%, 7% x1.5" },
		{ D_NORMAL, 0.02, 0.04, "CoV 2%, drift 4%" },
		{ D_CONTAM, 0.02, 0.04, "CoV 2%, 7% x1.5, drift 4%" },
	};
	static const size_t ns[] = { 5, 10, 20 };
	unsigned trials = paired ? sd->paired_trials : sd->trials;
	size_t nn = CT_ARRAY_SIZE(ns) - (paired && sd->check);

	printf("\n## Power against a +5%% slowdown, %s\n\n%u trials a cell.\n\n| rule | n |",
	       paired ? "runs paired by block" : "independent runs", trials);
	/* drift moves both runs of a block: only paired runs see it */
	size_t nc = CT_ARRAY_SIZE(cases) - (paired ? 0 : 2);

	for (size_t k = 0; k < nc; k++)
		printf(" %s |", cases[k].name);
	printf("\n|---|---|");
	for (size_t k = 0; k < nc; k++)
		printf("---|");
	printf("\n");
	for (size_t j = 0; j < nn; j++) {
		struct cell c[CT_ARRAY_SIZE(cases)];

		for (size_t k = 0; k < nc; k++)
			simulate(&c[k], cases[k].d, cases[k].cov, cases[k].drift, 1.05, ns[j],
				 paired, trials, SEED + 77 * k + ns[j] + (paired ? 3 : 0));
		for (size_t r = 0; r < NRULES; r++) {
			if (!rule_name(r, paired))
				continue;
			printf("| %s | %zu |", rule_name(r, paired), ns[j]);
			for (size_t k = 0; k < nc; k++) {
				printf(" %.3f |", c[k].rate[r]);
				sd->inconsistent += r == chosen ? c[k].inconsistent[r] : 0;
				/* the criterion: n = 10 at CoV 2% and 3% clean, 2% disturbed */
				if (r == chosen && ns[j] == 10 && k < 3 &&
				    c[k].rate[r] < sd->least_power[paired])
					sd->least_power[paired] = c[k].rate[r];
			}
			printf("\n");
		}
	}
}

int main(int argc, char **argv)
{
	struct study sd = { .trials = 10000, .paired_trials = 10000 };
	double tol_false, tol_pfalse, tol_power;
	bool fail;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--check"))
			sd.check = true;
		else if (!strcmp(argv[i], "--trials") && i + 1 < argc)
			sd.trials = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--paired-trials") && i + 1 < argc)
			sd.paired_trials = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--judge") && i + 1 < argc &&
			 strtoul(argv[i + 1], NULL, 10) < NRULES &&
			 rules[strtoul(argv[i + 1], NULL, 10)].name)
			chosen = strtoul(argv[++i], NULL, 10);
		else {
			fprintf(stderr, "usage: verdict-sim [--trials N] [--paired-trials N] "
					"[--judge RULE] "
					"[--check]\n");
			return 2;
		}
	}
	sd.least_power[0] = sd.least_power[1] = 1;
	printf("# contend's verdict rule: the simulation study\n\nSeed %#llx; every table is "
	       "the same at every run.\n",
	       (unsigned long long)SEED);
	aa_table(&sd, false);
	power_table(&sd, false);
	aa_table(&sd, true);
	power_table(&sd, true);
	/* a rate measured over N trials is off by sqrt(p (1 - p) / N): the
	 * criteria allow three of those standard errors */
	tol_false = 3 * sqrt(ALPHA * (1 - ALPHA) / sd.trials);
	tol_pfalse = 3 * sqrt(ALPHA * (1 - ALPHA) / sd.paired_trials);
	tol_power = 3 * sqrt(0.9 * 0.1 / sd.trials);
	printf("\n## Summary\n\n- chosen: %s; paired: %s\n", rules[chosen].name,
	       rules[chosen].paired_name);
	printf("- worst false-verdict rate: %.3f independent (criterion: at most %.2f + %.3f), "
	       "%.3f paired (at most %.2f + %.3f)\n",
	       sd.worst_false[0], ALPHA, tol_false, sd.worst_false[1], ALPHA, tol_pfalse);
	printf("- least power at n = 10 (CoV 2%% and 3%%, and 2%% with 7%% of runs x1.5): "
	       "%.3f independent (criterion: at least 0.90 - %.3f), %.3f paired (no "
	       "criterion)\n",
	       sd.least_power[0], tol_power, sd.least_power[1]);
	printf("- verdicts whose interval disagreed with the test: %u\n", sd.inconsistent);
	fail = sd.worst_false[0] > ALPHA + tol_false || sd.worst_false[1] > ALPHA + tol_pfalse ||
	       sd.least_power[0] < 0.9 - tol_power || sd.inconsistent;
	if (fail)
		printf("- the chosen rule misses a criterion\n");
	else
		printf("- the chosen rule meets every criterion\n");
	return sd.check && fail ? 1 : 0;
}
