/*
 * The statistics of docs/statistics.md: what one sample set says about
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
/* A value within this fraction of the median is never flagged: with tight
 * runs the MAD is tiny and deviations of a percent score far over 3.5, yet
 * a run so near its siblings is no fluke, whatever its monitors saw (a
 * 0.089 s run of a config whose mean is 0.088 s was called one at 1%). */
#define CT_STATS_OUTLIER_FLOOR 0.03

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
 * and none is flagged. A value within CT_STATS_OUTLIER_FLOOR of the median
 * (3%) is never flagged. Needs n >= 1. nflagged may be NULL.
 */
int ct_stats_outliers(const double *x, size_t n, bool *flags, size_t *nflagged) CT_WUR;
/* The same flags for the s->n values of x, from its summary's median, MAD
 * and AAD: no second sort. */
int ct_stats_outliers_of(const double *x, const struct ct_stats_summary *s, bool *flags,
			 size_t *nflagged) CT_WUR;

/* Two-sided t tests of mean(x) - mean(y). */
struct ct_stats_ttest {
	double diff; /* mean(x) - mean(y); for paired data mean(x - y) */
	double se;   /* of diff */
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

/*
 * Yuen's test (Yuen 1974): Welch's t on trimmed means, gamma of the values
 * cut from each end (floor(gamma * n)), the variance from the winsorized
 * sample; diff is trimmed mean(x) - trimmed mean(y). A few disturbed runs
 * move a trimmed mean little. -EINVAL when fewer than two values are left
 * after trimming or there is no spread. gamma 0 is Welch's test.
 */
int ct_stats_yuen(const double *x, size_t nx, const double *y, size_t ny, double gamma,
		  struct ct_stats_ttest *r) CT_WUR;
/* The paired form (Tukey and McLaughlin 1963): the trimmed mean of
 * x[i] - y[i] against 0, SE from the winsorized differences, df = h - 1. */
int ct_stats_yuen_paired(const double *x, const double *y, size_t n, double gamma,
			 struct ct_stats_ttest *r) CT_WUR;
/*
 * A shift with its interval from inverting a test (Hodges and Lehmann):
 * the values of the shift the test does not reject at the confidence asked.
 * low and high may be -inf and +inf when even a far shift is not rejected.
 */
struct ct_stats_shift {
	double estimate;
	double low, high;
	double p;   /* of the shift 0 */
	bool exact; /* every permutation counted, not a sample of them */
};

/*
 * The Hodges-Lehmann shift of x against y - the median of the nx * ny
 * differences x[i] - y[j] - with the interval of R's wilcox.test(x, y,
 * conf.int = TRUE): inverted from the exact Mann-Whitney test when it is
 * exact (no ties, 50 values a side at most), else from its normal
 * approximation. p is the Mann-Whitney test's.
 */
int ct_stats_hodges_lehmann(const double *x, size_t nx, const double *y, size_t ny,
			    double confidence, struct ct_stats_shift *r) CT_WUR;

/*
 * The paired Hodges-Lehmann shift of x against y - the median of the Walsh
 * averages of the differences x[i] - y[i] - with the interval of R's
 * wilcox.test(x, y, paired = TRUE, conf.int = TRUE): inverted from the
 * exact signed-rank test when it is exact (no zero or tied differences,
 * fewer than 50), else from its normal approximation. p is the test's.
 */
int ct_stats_hl_paired(const double *x, const double *y, size_t n, double confidence,
		       struct ct_stats_shift *r) CT_WUR;

/* Student's t quantile: P(T <= q) = p at df. */
double ct_stats_t_quantile(double p, double df);

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
 * correct = TRUE). Needs nx, ny >= 1. When every value of both samples is
 * the same, p is 1 (R gives NaN): nothing tells them apart.
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

/* The ranks of x[0..n-1] into r (1-based, ties the mean of the ranks
 * they span), as R's rank(x). */
int ct_stats_ranks(const double *x, size_t n, double *r) CT_WUR;
/*
 * The rank correlation of x and y within groups: the values are ranked
 * within each group (sizes[g] consecutive values), centred on the group's
 * mean rank, and correlated over all the groups (Pearson's r of the
 * centred ranks) - Spearman's rho when there is one group. *rho is NaN
 * when either has no spread within any group.
 */
int ct_stats_spearman_within(const double *x, const double *y, const size_t *sizes, size_t ngroups,
			     double *rho) CT_WUR;
/* The median of x (the mean of the two middle values for even n),
 * reordering x in place; NaN when n is 0. */
double ct_stats_median(double *x, size_t n);

/* exp(mean(log x)); -EINVAL unless n >= 1 and every x > 0. */
int ct_stats_geomean(const double *x, size_t n, double *gm) CT_WUR;

/*
 * One comparison of a sample with a baseline (docs/statistics.md). The rule
 * that decides, on the logs of the values: when the schedule paired at
 * least CT_STATS_PAIRED_MIN runs (interleaved blocks), Wilcoxon's
 * signed-rank test with the paired Hodges-Lehmann shift; else the
 * Mann-Whitney test with the Hodges-Lehmann shift; both exact where they
 * can be, each interval inverted from its test. Printed
 * beside:
 * Welch's t, the U statistic, the ratio of means with Fieller's interval,
 * and for paired values the paired t and the signed-rank test.
 * ct_stats_decide() gives the outcome after Holm's adjustment across the
 * comparisons of one family.
 */
enum ct_stats_test {
	CT_TEST_NONE,
	CT_TEST_RANK,	     /* Mann-Whitney U, Hodges-Lehmann's shift */
	CT_TEST_SIGNED_RANK, /* Wilcoxon signed-rank, the Walsh averages' shift */
	CT_TEST_SESSIONS,    /* Welch's t on the sessions' medians of logs */
	CT_TEST_ACROSS,	     /* t on the sessions' means of logs, the machine's
			      * between-session variance added */
};

/* Paired blocks the signed-rank test needs to decide (the least p of 6 is
 * 2/64); with fewer the rank test of the two sides decides. */
#define CT_STATS_PAIRED_MIN 6

enum ct_stats_outcome {
	CT_OUTCOME_NOT_ENOUGH,	  /* too few values for the rule to decide */
	CT_OUTCOME_NO_SPREAD,	  /* no test possible: no spread in the values */
	CT_OUTCOME_NO_DIFFERENCE, /* the deciding test's adjusted p >= alpha */
	CT_OUTCOME_LOWER,	  /* the other sample is significantly lower */
	CT_OUTCOME_HIGHER,	  /* ... higher */
};

/*
 * The machine's spread of sessions of one workload under one load, on the
 * logs, from the configs it measured in two sessions or more: var, the
 * variance of a session's mean (sessions of `runs` runs: the harmonic
 * mean of their sizes), pooled over those configs with df the sum of their
 * sessions less one; within, the variance of runs inside a session, pooled
 * likewise. The between-session part alone is var - within / runs
 * (ct_stats_between_cov). var is NaN while df is 0.
 */
struct ct_stats_between {
	double var, df, runs, within, within_df;
	size_t nconfigs, nsessions;
	double sum_v, sum_inv_n, sum_w; /* accumulators */
	/* ct_stats_spread_at(): the comparison it was estimated for - its
	 * gap and whether a reboot lies between its sessions - whether its
	 * pairs cover that (pairs at least that far apart, across a reboot
	 * when the comparison crosses one; else the farthest pairs stood in),
	 * the gaps of the pairs it used, how many, and whether any of them
	 * crossed a reboot */
	int64_t gap_ns;
	bool reboot, covers;
	int64_t min_gap_ns, max_gap_ns;
	size_t npairs;
	bool across_boots;
};
/* The between-session CoV var - within / runs stands for, 0 when that is
 * not positive, NaN without an estimate. */
double ct_stats_between_cov(const struct ct_stats_between *b);

/*
 * A session of one config on the machine, summarized for the spread of
 * sessions at a gap (docs/statistics.md, "The spread at the comparison's
 * gap"): the config it measured (pairs are of one config), its --vary
 * group (0 none: two sessions of one group are one sitting), when it
 * started, a key of its boot (0 unknown), and the mean and the sum of
 * squared deviations of the logs of its n runs.
 */
struct ct_stats_sitting {
	int64_t config, session, group;
	int64_t start_ns;
	uint64_t boot;
	size_t n;
	double mean, ss;
};
/* The n, mean and ss of s from the runs x[0..n-1] (the rest is the
 * caller's); -EINVAL unless n >= 1 and every value is positive. */
int ct_stats_sitting_of(const double *x, size_t n, struct ct_stats_sitting *s) CT_WUR;

/*
 * The machine's spread of sessions for a comparison of sessions gap_ns
 * apart (across a reboot when reboot), as ct_stats_compare_across() takes
 * it: from the pairs of sittings of one config at least gap_ns apart (in
 * two boots when reboot), var = half their mean squared difference of
 * means (a session mean's variance, its runs' noise at `runs` included),
 * within pooled over their sessions, df Satterthwaite's for pairs that
 * share sessions (4 P^2 / (2 P + the sum of the squares of how many pairs
 * use each session): K - 1 for all the pairs of K sessions of one config,
 * 1 for one pair). out->covers says whether such pairs exist;
 * when none does, the pairs from half the farthest gap on give the estimate
 * and covers is false (df 0 and var NaN without any pair). -ENOMEM.
 */
int ct_stats_spread_at(const struct ct_stats_sitting *s, size_t n, int64_t gap_ns, bool reboot,
		       struct ct_stats_between *out) CT_WUR;

/* The spread by gap: one class of pairs in one boot per [edges[k],
 * edges[k + 1]) (the last to no end), then the pairs across a reboot; var
 * as ct_stats_spread_at() gives it, NaN for a class without pairs, runs
 * the harmonic mean of their sessions' runs. out holds nedges + 1. */
struct ct_stats_spread_class {
	int64_t from_ns, to_ns;
	bool reboot;
	size_t npairs;
	double var, runs;
};
int ct_stats_spread_classes(const struct ct_stats_sitting *s, size_t n, const int64_t *edges,
			    size_t nedges, struct ct_stats_spread_class *out) CT_WUR;

/* How the other side's runs relate to the baseline's (docs/statistics.md). */
enum ct_stats_scope {
	CT_SCOPE_NONE,	   /* not compared */
	CT_SCOPE_SESSION,  /* one session, or the sessions of one --vary run */
	CT_SCOPE_SESSIONS, /* two sessions or more a side: the sessions decide */
	CT_SCOPE_ACROSS,   /* other sessions, too few to know how sessions vary */
	/* other sessions, too few a side: the machine's spread of sessions
	 * decided */
	CT_SCOPE_MACHINE,
};

struct ct_stats_comparison {
	struct ct_stats_ttest t; /* Welch, baseline - other */
	struct ct_stats_rank u;
	struct ct_stats_ratio ratio; /* mean(other) / mean(baseline) */
	bool have_t, have_u, have_ratio;
	size_t npairs;
	struct ct_stats_ttest pt; /* paired, over npairs */
	struct ct_stats_rank w;	  /* signed-rank; of the logs when the rule decided by it */
	bool have_pt, have_w;
	enum ct_stats_test decided_by; /* NONE when the rule cannot decide */
	double p;		       /* the deciding test's p, before adjustment */
	double p_adj;		       /* after Holm; NaN until ct_stats_decide() */
	enum ct_stats_outcome outcome;
	/* the effect the deciding test estimates, with its interval inverted
	 * from that test: a ratio other/base when ratio_scale (the values
	 * were positive), else a difference other - base */
	struct ct_stats_shift shift; /* of other against base; on the logs when ratio_scale */
	bool ratio_scale;
	double effect, effect_low, effect_high;
	bool higher; /* the other sample is the higher one */
	size_t need; /* runs a side the rank test needs to decide */
	/* when the sessions decided: Welch's t on their summaries (logs,
	 * other - base) and the sessions of each side */
	struct ct_stats_ttest sessions_t;
	size_t nsessions_base, nsessions_other;
	/* CT_TEST_ACROSS: the machine's between-session variance it added */
	struct ct_stats_between between;
	enum ct_stats_scope scope; /* set by ct_stats_verdict() */
};

/* Runs every test the values allow. base/other: the values of each side;
 * pbase/pother: npairs values the schedule paired (NULL/0 when it did
 * not). The outcome is NOT_ENOUGH or NO_SPREAD when the rule cannot
 * decide, else NO_DIFFERENCE until ct_stats_decide(). */
void ct_stats_compare(const double *base, size_t nb, const double *other, size_t no,
		      const double *pbase, const double *pother, size_t npairs, double confidence,
		      struct ct_stats_comparison *c);

/*
 * Two levels (docs/statistics.md): runs within sessions, sessions within a
 * config. When both sides hold CT_STATS_SESSIONS_MIN sessions or more, the
 * session is the unit that varies: each is summarized by the median of the
 * logs of its runs, and Welch's t on those summaries decides, its interval
 * the ratio's (exp of the difference of their means). Called after
 * ct_stats_compare() on the same runs, with each run's session; c is
 * changed only when the sessions decide (0). -EINVAL when a side has
 * fewer sessions or a value is not positive, -ENOMEM.
 */
#define CT_STATS_SESSIONS_MIN 2
int ct_stats_compare_sessions(const double *base, const int64_t *bsess, size_t nb,
			      const double *other, const int64_t *osess, size_t no,
			      double confidence, struct ct_stats_comparison *c) CT_WUR;

/*
 * The variance of each level of one config's runs, on the logs: one-way
 * random effects by the method of moments (the ANOVA estimator, which
 * REML gives too when the design is balanced and the between-session mean
 * square exceeds the within's). between_var is 0 when the sessions vary no
 * more than their runs do, NaN with one session; the CoVs are
 * sqrt(exp(var) - 1). -EINVAL unless n >= 1 and every value is positive.
 */
struct ct_stats_levels {
	size_t nsessions, nruns;
	double mean; /* of the logs */
	double within_var, between_var;
	double within_cov, between_cov;
};
int ct_stats_levels(const double *x, const int64_t *session, size_t n,
		    struct ct_stats_levels *l) CT_WUR;

/* Adds one config's runs to the machine's estimate (a config with one
 * session, or whose sessions hold one run each, adds nothing); -EINVAL
 * for a value that is not positive. */
int ct_stats_between_add(struct ct_stats_between *b, const double *x, const int64_t *session,
			 size_t n) CT_WUR;

/*
 * One session a side (or one side of several against one): the sessions'
 * level cannot be estimated from the two configs, so the machine's
 * estimate bw stands in for it (docs/statistics.md, chosen by
 * tests/sim/session-sim.c). Each session is summarized by the mean of the
 * logs of its runs; the variance of the difference of the sides' means is
 * bw->var (1/kb + 1/ko) - the sessions' spread as the machine showed it,
 * its own runs' noise included - plus, for a side whose sessions are
 * noisier than that holds (fewer runs, or a noisier config), the excess of
 * its within-session part; a t with the degrees of freedom of the
 * machine's estimate decides, its interval the ratio's. Called after
 * ct_stats_compare() on the same runs; c changes only on success (0).
 * -EINVAL when a side has no session of two runs, bw has no df or a value
 * is not positive, -ENOMEM.
 */
int ct_stats_compare_across(const double *base, const int64_t *bsess, size_t nb,
			    const double *other, const int64_t *osess, size_t no,
			    const struct ct_stats_between *bw, double confidence,
			    struct ct_stats_comparison *c) CT_WUR;

/* The sessions a side a two-sample t on sessions needs to find a change
 * of effect (a ratio, 1.05 for +5%) at confidence with power (0.8), when
 * a session's mean of logs varies by session_var: the smallest k with
 * 2 (t(1 - alpha/2, 2k - 2) + t(power, 2k - 2))^2 session_var <=
 * log(effect)^2, at least 2 (Kalibera and Jones's plan with the session as
 * the unit; R's power.t.test, exact by the noncentral t, gave the same
 * counts in tests/unit/test-stats.c). 0 when more than max are needed or an argument is out of
 * range. */
size_t ct_stats_sessions_needed(double session_var, double effect, double confidence, double power,
				size_t max);

/* The runs a side the rank test needs to be able to decide at confidence
 * (4 at 95%: the least p of 3 against 3 is 0.1). */
size_t ct_stats_runs_needed(double confidence);

/*
 * One side of a verdict: the values of a config's runs (the judged
 * figure), the session each came from (NULL: all of one) and the key each
 * pairs by (NULL: none): a value pairs with the other side's value of the
 * same key, 0 pairing with nothing - a block of an interleaved sitting,
 * told from the blocks of other sittings by the caller.
 */
struct ct_stats_side {
	const double *v;
	const int64_t *session;
	const int64_t *pair;
	size_t n;
};

/* What the rule is told beside the values. */
struct ct_stats_rule {
	double confidence; /* percent; 0 is 95 */
	/* the sides ran in one sitting (one session, or the sessions of one
	 * --vary run): their runs decide, however many sessions */
	bool one_sitting;
	/* judge sides of other sessions by their runs alone, as if sessions
	 * did not move (--within-session) */
	bool within_session;
	/* the machine's spread of sessions, for one session a side (NULL, or
	 * df 0: unknown) */
	const struct ct_stats_between *between;
};

/* The scope the rule judges base and other in: sessions deciding with two
 * or more a side, one sitting's runs, the machine's spread standing in for
 * one session a side when known, else the runs across sessions. */
enum ct_stats_scope ct_stats_scope_of(const struct ct_stats_side *base,
				      const struct ct_stats_side *other,
				      const struct ct_stats_rule *rule);

/*
 * contend's verdict between two sides: ct_stats_compare() on the values
 * (the pairs of equal keys deciding when there are enough of them), then
 * by the scope ct_stats_scope_of() gives, ct_stats_compare_sessions() or
 * ct_stats_compare_across() - a rule that cannot run (a value not
 * positive, sessions of one run) leaving the runs to decide, and the scope
 * ACROSS when the machine's spread could not stand in. c->scope says which;
 * c->outcome is decided as a family of one (ct_stats_decide() over several
 * verdicts adjusts them again). -ENOMEM.
 */
int ct_stats_verdict(const struct ct_stats_side *base, const struct ct_stats_side *other,
		     const struct ct_stats_rule *rule, struct ct_stats_comparison *c) CT_WUR;

/* Whether the verdict c tells the sides apart at confidence: a test
 * decided and its p (unadjusted) is below 1 - confidence / 100 - the
 * rule of a bisection's regression (good and bad differ). */
bool ct_stats_differs(const struct ct_stats_comparison *c, double confidence);

/* Holm-adjusts the p of every comparison of c[0..n-1] that ran a test -
 * one family: the loads of one config against the baseline - and sets each
 * one's p_adj and outcome at the confidence level. -ENOMEM, or -EINVAL for
 * a p outside [0, 1]. */
int ct_stats_decide(struct ct_stats_comparison *const *c, size_t n, double confidence) CT_WUR;

/*
 * Calibration (docs/statistics.md): the noise of one config's runs, in the
 * order they ran, and what the verdict rule can find through it.
 */
struct ct_stats_noise {
	size_t n;
	double cov;	   /* sd / mean */
	double robust_cov; /* MAD (x 1.4826) / median */
	size_t outliers;   /* flagged as ct_stats_outliers() flags */
	double drift;	   /* Theil-Sen slope of log x on the run's place: a fraction per run */
	double drift_p;	   /* Mann-Kendall test of a trend (R's cor.test, Kendall, exact = FALSE) */
};

/* The exact (Clopper-Pearson) interval of a rate of x in n, as R's
 * binom.test(x, n)$conf.int. */
int ct_stats_binom_ci(unsigned x, unsigned n, double confidence, double *lo, double *hi) CT_WUR;

/* Needs n >= 3 values, every one positive. */
int ct_stats_noise(const double *x, size_t n, struct ct_stats_noise *r) CT_WUR;

/*
 * The power of the verdict rule for independent runs (Mann-Whitney at the
 * confidence, 4 a side at least) to call a slowdown other = base x (1 +
 * effect) with n runs a side, both sides drawn from the spread of x (at
 * least 3 positive values): a smoothed bootstrap of log(x) - median(log
 * x), trials comparisons from a fixed seed, the same draws for every
 * effect. 0 for an n the rule cannot decide with.
 */
int ct_stats_power(const double *x, size_t nx, size_t n, double effect, double confidence,
		   unsigned trials, double *power) CT_WUR;
/* The smallest effect found with at least the power asked (0 < power <
 * 1), to 1% of itself: NaN when n is too few for any verdict, +inf past
 * +1000%. */
int ct_stats_mde(const double *x, size_t nx, size_t n, double confidence, double power,
		 unsigned trials, double *effect) CT_WUR;
/* The least n a side that finds effect with the power; -ERANGE when even
 * max runs do not. */
int ct_stats_runs_for(const double *x, size_t nx, double effect, double confidence, double power,
		      unsigned trials, size_t max, size_t *n) CT_WUR;

/*
 * Bisection (docs/statistics.md, "Bisection"): the search over the commits
 * of a range good..bad, numbers only. The n commits are given in
 * topological order (each parent before its children), each with its
 * parents inside the range (nparents[i] of them, listed in turn in
 * parents); commit n - 1 is the bad end and every other commit its
 * ancestor. eps is the probability that an answer is wrong (0 <= eps <
 * 0.5; 0 is plain halving). -EINVAL for a graph not so ordered.
 */
struct ct_bisect;

int ct_bisect_new(size_t n, const size_t *nparents, const size_t *parents, double eps,
		  struct ct_bisect **out) CT_WUR;
void ct_bisect_free(struct ct_bisect *b);
/* Whether commit a is an ancestor of c (or c itself). */
bool ct_bisect_is_ancestor(const struct ct_bisect *b, size_t a, size_t c);
/* Records that commit c was judged bad (or good). */
int ct_bisect_answer(struct ct_bisect *b, size_t c, bool bad) CT_WUR;
/* Commit c cannot be tested (its build failed): never asked again. */
int ct_bisect_skip(struct ct_bisect *b, size_t c) CT_WUR;
/* Commit c was measured and gave no answer (its runs a side could not tell
 * good from bad): asked again, less readily each time - a busy machine
 * costs runs, not the answer. */
int ct_bisect_unsure(struct ct_bisect *b, size_t c) CT_WUR;
/* The commit to test next: of those not skipped whose answer can move the
 * weights, the one whose answer is worth most - the entropy of its being
 * bad (greatest when that probability is one half), divided by one more
 * than the times it gave no answer. -ENOENT when none is left (with eps =
 * 0: one commit remains, or only skipped commits could tell the rest
 * apart), -ENOMEM. */
int ct_bisect_next(struct ct_bisect *b, size_t *next) CT_WUR;
/* The probability that c is the first bad commit. */
double ct_bisect_prob(const struct ct_bisect *b, size_t c);
/* The probability that c is bad: the first bad commit is an ancestor. */
double ct_bisect_bad_prob(struct ct_bisect *b, size_t c);
/* The likeliest first bad commit, and its probability in *prob. */
size_t ct_bisect_best(const struct ct_bisect *b, double *prob);

/* What a candidate's comparison against good says of it: bad when its
 * interval excludes no change, good when it excludes the regression's size
 * delta (the shift of bad against good, on the comparison's scale: a log
 * ratio when ratio_scale), the nearer when it excludes both; not yet when
 * it excludes neither (more runs) or there is no interval. */
enum ct_bisect_call { CT_BISECT_NOT_YET, CT_BISECT_GOOD, CT_BISECT_BAD };
enum ct_bisect_call ct_bisect_judge(const struct ct_stats_comparison *c, double delta);

/*
 * Change points over time (docs/statistics.md, "Change points over
 * time"): where the level of a series moves - one value a session, in the
 * order the sessions ran. Binary segmentation: each segment of at least
 * 2 min values is split where the method's statistic is largest, each side
 * holding min values or more, and the split is kept when its p < alpha;
 * both sides are then searched again. CT_CP_RANK: Pettitt's rank statistic
 * and its approximate p; CT_CP_EDM: the E-divisive means split judged by
 * Student's t between its sides (Apache Otava's way), CT_CP_EDM_RANK by the
 * Mann-Whitney test, CT_CP_EDM_BOTH (contend's, the choice of
 * tests/sim/history-sim.c) by both; an E-divisive segment with no split
 * kept to its end is searched for a stretch that moves and comes back.
 * *out (malloc'd,
 * NULL when none) holds the change points by place: at is the first value
 * after the change. -EINVAL for min < 2, alpha outside (0, 1) or a value
 * that is not finite; -ENOMEM.
 */
/* CT_CP_EDM_BOTH: the E-divisive split kept when Student's t gives p <
 * alpha and the Mann-Whitney test p < 10 alpha (p is the t's) */
enum ct_cp_method { CT_CP_RANK, CT_CP_EDM, CT_CP_EDM_RANK, CT_CP_EDM_BOTH };
struct ct_cp {
	size_t at;
	double p; /* of the split, when it was found */
};
int ct_changepoints(const double *x, size_t n, enum ct_cp_method method, double alpha, size_t min,
		    struct ct_cp **out, size_t *nout) CT_WUR;

#endif
