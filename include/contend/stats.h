/*
 * The statistics of DESIGN.md section 5: what one sample set says about
 * itself and what two sets say about each other, so a verdict never depends
 * on somebody's calculator. Pure functions: no I/O, no printing, no global
 * state; distributions come from GSL. Every function returns 0, -EINVAL for
 * input it cannot judge (documented per function) or -ENOMEM.
 */
#ifndef CONTEND_STATS_H
#define CONTEND_STATS_H

#include "contend/common.h"

/* Largest sample (per side for Mann-Whitney, pairs for signed-rank) for which
 * CT_STATS_AUTO uses the exact distribution. */
#define CT_STATS_EXACT_MAX 50

/* Modified z-score threshold (Iglewicz and Hoaglin). */
#define CT_STATS_OUTLIER_Z 3.5

/*
 * Summary of one sample set. Needs n >= 2 and finite values. Confidence
 * levels are percentages in (0, 100), as on the command line.
 *
 * The median CI is the order-statistic interval [x(k), x(n+1-k)] (1-based,
 * sorted) for the largest k <= (n+1)/2 whose coverage 1 - 2*P(B <= k-1),
 * B ~ Binomial(n, 1/2), is at least the confidence asked for, as benchstat
 * does. When even [min, max] covers less (n = 5 at 95%), median_ci_ok is
 * false, the interval is [min, max] and median_ci_level is its coverage.
 */
struct ct_stats_summary {
	size_t n;
	double mean;
	double sd;	/* n-1 denominator; 0 for identical values */
	double median;	/* mean of the two middle values for even n */
	double mad_raw; /* median of |x - median| */
	double mad;	/* mad_raw * 1.4826, R's mad() default */
	double min, max;
	double cov;		/* sd / mean as a fraction; NaN when the mean is 0 */
	double aad_median;	/* mean of |x - median| */
	double confidence;	/* percent, as asked */
	double ci_low, ci_high; /* mean +- t(df = n-1) * sd / sqrt(n) */
	bool median_ci_ok;
	double median_ci_low, median_ci_high;
	double median_ci_level; /* coverage actually achieved, percent */
};

int ct_stats_summarize(const double *x, size_t n, double confidence,
		       struct ct_stats_summary *s) CT_WUR;

/*
 * Flags x[i] (flags[i] = true) when |0.6745 * (x[i] - median) / MAD| > 3.5.
 * When MAD is 0 (more than half the values equal the median) the score is
 * (x[i] - median) / (1.253314 * AAD), AAD the mean absolute deviation from
 * the median (IBM's rule: 1.253314 = sqrt(pi/2) makes both scale estimates
 * consistent for normal data); when AAD is 0 too, every value is the median
 * and none is flagged. Needs n >= 1. nflagged may be NULL.
 */
int ct_stats_outliers(const double *x, size_t n, bool *flags, size_t *nflagged) CT_WUR;

/* Two-sided t tests of mean(x) - mean(y). */
struct ct_stats_ttest {
	double diff; /* mean(x) - mean(y); for paired data mean(x - y) */
	double t, df, p;
};

/* Welch's unequal-variance t test. Needs nx, ny >= 2; -EINVAL when both
 * samples are constant (standard error 0), as R's t.test refuses them. */
int ct_stats_welch(const double *x, size_t nx, const double *y, size_t ny,
		   struct ct_stats_ttest *r) CT_WUR;
/* Pooled-variance Student t test, df = nx + ny - 2; same rules. */
int ct_stats_student(const double *x, size_t nx, const double *y, size_t ny,
		     struct ct_stats_ttest *r) CT_WUR;
/* Paired t test on x[i] - y[i]; only for runs the schedule paired. Needs
 * n >= 2; -EINVAL when all differences are equal. */
int ct_stats_paired_t(const double *x, const double *y, size_t n, struct ct_stats_ttest *r) CT_WUR;

enum ct_stats_method {
	CT_STATS_AUTO = 0, /* exact when small enough and free of ties */
	CT_STATS_EXACT,	   /* -EINVAL if ties, zero differences or too large */
	CT_STATS_NORMAL,   /* normal approximation, tie and continuity corrected */
};

struct ct_stats_rank {
	double stat; /* U = #(x > y) + #(x == y)/2 (R's W); signed-rank: V */
	double p;    /* two-sided */
	bool exact;  /* which distribution gave p */
	size_t n;    /* signed-rank: pairs left after dropping zero differences */
};

/*
 * Mann-Whitney U (Wilcoxon rank-sum) test, matching R's wilcox.test(x, y):
 * exact p by dynamic programming over the null distribution, or the normal
 * approximation with tie and continuity correction (exact = FALSE,
 * correct = TRUE). Needs nx, ny >= 1; -EINVAL when every value is tied (the
 * approximation's variance is 0).
 */
int ct_stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
			  enum ct_stats_method method, struct ct_stats_rank *r) CT_WUR;

/*
 * Wilcoxon signed-rank test on x[i] - y[i], matching R's
 * wilcox.test(x, y, paired = TRUE): zero differences are dropped; exact
 * needs no ties and no zeros. -EINVAL when no non-zero difference is left.
 */
int ct_stats_signed_rank(const double *x, const double *y, size_t n, enum ct_stats_method method,
			 struct ct_stats_rank *r) CT_WUR;

/*
 * Ratio mean(num) / mean(den) of two independent samples with Fieller's
 * confidence interval, t quantile at Welch's df. bounded is false (low and
 * high are then -inf and +inf) when mean(den) is not significantly non-zero
 * at that level, i.e. when Fieller's interval is not a finite interval.
 * Needs both n >= 2; -EINVAL when both samples are constant.
 */
struct ct_stats_ratio {
	double ratio, low, high, df;
	bool bounded;
};

int ct_stats_fieller(const double *num, size_t nn, const double *den, size_t nd, double confidence,
		     struct ct_stats_ratio *r) CT_WUR;

/* Holm-Bonferroni adjusted p-values, adj[i] for p[i] (same order; adj may
 * alias p). Needs n >= 1 and every p in [0, 1]. */
int ct_stats_holm(const double *p, size_t n, double *adj) CT_WUR;

/* exp(mean(log x)); -EINVAL unless n >= 1 and every x > 0. */
int ct_stats_geomean(const double *x, size_t n, double *gm) CT_WUR;

/*
 * One comparison of a sample with a baseline (DESIGN.md section 5):
 * Welch's t with the Mann-Whitney U beside it and the ratio of means with
 * Fieller's interval; and, only when the schedule paired the values
 * (interleaved blocks), the paired t and Wilcoxon signed-rank tests - then
 * the paired t decides. ct_stats_decide() gives the outcome after Holm's
 * adjustment across the comparisons of one family.
 */
enum ct_stats_test {
	CT_TEST_NONE,
	CT_TEST_WELCH,
	CT_TEST_PAIRED_T,
};

enum ct_stats_outcome {
	CT_OUTCOME_NOT_ENOUGH,	  /* fewer than 2 values a side */
	CT_OUTCOME_NO_SPREAD,	  /* no test possible: no spread in the values */
	CT_OUTCOME_NO_DIFFERENCE, /* the deciding test's adjusted p >= alpha */
	CT_OUTCOME_LOWER,	  /* the other sample is significantly lower */
	CT_OUTCOME_HIGHER,	  /* ... higher */
};

struct ct_stats_comparison {
	struct ct_stats_ttest t; /* Welch, baseline - other */
	struct ct_stats_rank u;
	struct ct_stats_ratio ratio; /* mean(other) / mean(baseline) */
	bool have_t, have_u, have_ratio;
	size_t npairs;
	struct ct_stats_ttest pt; /* paired, over npairs */
	struct ct_stats_rank w;
	bool have_pt, have_w;
	enum ct_stats_test decided_by; /* NONE when no test could run */
	double p;		       /* the deciding test's p, before adjustment */
	double p_adj;		       /* after Holm; NaN until ct_stats_decide() */
	enum ct_stats_outcome outcome;
};

/* Runs every test the values allow. base/other: the values of each side;
 * pbase/pother: npairs values the schedule paired (NULL/0 when it did
 * not). The outcome is NOT_ENOUGH or NO_SPREAD when no test ran, else
 * NO_DIFFERENCE until ct_stats_decide(). */
void ct_stats_compare(const double *base, size_t nb, const double *other, size_t no,
		      const double *pbase, const double *pother, size_t npairs, double confidence,
		      struct ct_stats_comparison *c);

/* Holm-adjusts the p of every comparison of c[0..n-1] that ran a test -
 * one family: the loads of one config against the baseline - and sets each
 * one's p_adj and outcome at the confidence level. -ENOMEM, or -EINVAL for
 * a p outside [0, 1]. */
int ct_stats_decide(struct ct_stats_comparison *const *c, size_t n, double confidence) CT_WUR;

#endif
