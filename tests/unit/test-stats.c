/*
 * src/stats checked against values computed elsewhere: the io_load figures
 * of seed 001 (worked by hand in the 2002 thread and in issue 3), and R's
 * t.test, wilcox.test, p.adjust, median and mad through
 * fixtures/stats/reference.txt, which fixtures/stats/reference.R writes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "contend/stats.h"
#include "contend/util.h"

#include "../../src/stats/internal.h"

#include <errno.h>
#include <float.h>

#include <gsl/gsl_cdf.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const stats_fixture_files[] = { "reference", "sessions", NULL };
#include "stats-fixture.h"

/* Locations (mean, median, CI ends) are judged against the spread: for a
 * 1e12-scale sample relative 1e-6 of the value would hide any cancellation. */
static void check_loc(const char *what, double got, double want, double spread)
{
	double tol = 1e-6 * spread + 4 * DBL_EPSILON * fabs(want);

	if (fabs(got - want) <= tol)
		return;
	fail_msg("%s: got %.17g, R says %.17g (tolerance %.3g)", what, got, want, tol);
}

static void check_summary(const char *name, const char *side, const double *x, size_t n)
{
	static const int confs[] = { 95, 80 };
	struct ct_stats_summary s;
	char key[32];
	const struct rec *r;
	double sd;
	bool flags[MAXV];
	size_t nflag;

#define V(k) (snprintf(key, sizeof(key), "%s.%s", side, k), val(name, key))
	sd = V("sd")->v[0];
	for (size_t c = 0; c < CT_ARRAY_SIZE(confs); c++) {
		assert_int_equal(ct_stats_summarize(x, n, confs[c], &s), 0);
		assert_int_equal(s.n, n);
		check_loc("mean", s.mean, V("mean")->v[0], sd);
		check("sd", s.sd, sd, REL_STAT);
		check_loc("median", s.median, V("median")->v[0], sd);
		check("mad_raw", s.mad_raw, V("mad_raw")->v[0], REL_STAT);
		check("mad", s.mad, V("mad")->v[0], REL_STAT);
		check_loc("min", s.min, V("min")->v[0], 0);
		check_loc("max", s.max, V("max")->v[0], 0);
		check("cov", s.cov, V("cov")->v[0], REL_STAT);
		check("aad", s.aad_median, V("aad")->v[0], REL_STAT);
		snprintf(key, sizeof(key), "%s.ci%d", side, confs[c]);
		r = val(name, key);
		check_loc("ci_low", s.ci_low, r->v[0], sd);
		check_loc("ci_high", s.ci_high, r->v[1], sd);
		snprintf(key, sizeof(key), "%s.mci%d", side, confs[c]);
		r = val(name, key);
		check_loc("median_ci_low", s.median_ci_low, r->v[0], 0);
		check_loc("median_ci_high", s.median_ci_high, r->v[1], 0);
		check("median_ci_level", s.median_ci_level, r->v[2], 1e-12);
		assert_int_equal(s.median_ci_ok, r->v[3] != 0);
	}

	r = V("outliers");
	assert_int_equal(ct_stats_outliers(x, n, flags, &nflag), 0);
	assert_int_equal(nflag, (size_t)r->v[0]);
	for (size_t i = 1; i < r->n; i++)
		assert_true(flags[(size_t)r->v[i]]);
#undef V
}

static const struct rec *data(const char *name, const char *side)
{
	const struct rec *r = find("data", name, side);

	assert_non_null(r);
	return r;
}

static void check_ttest(const char *name, const char *key, const struct ct_stats_ttest *t)
{
	const struct rec *r = val(name, key);

	check("t", t->t, r->v[0], REL_STAT);
	check("df", t->df, r->v[1], REL_STAT);
	check("p", t->p, r->v[2], REL_P);
}

static void check_fieller(const char *name, const char *key, const struct rec *x,
			  const struct rec *y, int conf)
{
	struct ct_stats_ratio q;
	const struct rec *r = val(name, key);

	assert_int_equal(ct_stats_fieller(x->v, x->n, y->v, y->n, conf, &q), 0);
	check("ratio", q.ratio, r->v[0], REL_STAT);
	check("ratio df", q.df, r->v[1], REL_STAT);
	assert_int_equal(q.bounded, r->v[2] != 0);
	if (q.bounded) {
		check("fieller low", q.low, r->v[3], REL_STAT);
		check("fieller high", q.high, r->v[4], REL_STAT);
	} else {
		assert_true(isinf(q.low) && q.low < 0);
		assert_true(isinf(q.high) && q.high > 0);
	}
}

static void check_two_sample(const char *name)
{
	const struct rec *x = data(name, "x"), *y = data(name, "y"), *r;
	struct ct_stats_ttest t;
	struct ct_stats_rank u;

	print_message("case %s (n = %zu, %zu)\n", name, x->n, y->n);
	check_summary(name, "x", x->v, x->n);
	check_summary(name, "y", y->v, y->n);

	assert_int_equal(ct_stats_welch(x->v, x->n, y->v, y->n, &t), 0);
	check_ttest(name, "welch", &t);
	assert_int_equal(ct_stats_student(x->v, x->n, y->v, y->n, &t), 0);
	check_ttest(name, "student", &t);
	check_fieller(name, "fieller95", x, y, 95);
	check_fieller(name, "fieller90", x, y, 90);

	r = find("val", name, "mw_exact");
	assert_int_equal(ct_stats_mann_whitney(x->v, x->n, y->v, y->n, CT_STATS_AUTO, &u), 0);
	if (r) {
		assert_true(u.exact);
		check("U", u.stat, r->v[0], REL_STAT);
		check("exact p", u.p, r->v[1], REL_P);
		assert_int_equal(ct_stats_mann_whitney(x->v, x->n, y->v, y->n, CT_STATS_EXACT, &u),
				 0);
		check("exact p", u.p, r->v[1], REL_P);
	} else {
		/* ties or n > 50: AUTO must fall back to the approximation */
		assert_false(u.exact);
		assert_int_equal(ct_stats_mann_whitney(x->v, x->n, y->v, y->n, CT_STATS_EXACT, &u),
				 -EINVAL);
	}
	r = val(name, "mw_normal");
	assert_int_equal(ct_stats_mann_whitney(x->v, x->n, y->v, y->n, CT_STATS_NORMAL, &u), 0);
	assert_false(u.exact);
	check("U", u.stat, r->v[0], REL_STAT);
	check("normal p", u.p, r->v[1], REL_P);
}

/* Issue 3's reference values, to the precision it states. */
static void test_seed(void **state)
{
	static const double nopre[] = { 176.52, 181.21, 189.31, 198.59, 198.96, 204.19 };
	static const double pre[] = { 190.04, 195.49, 199.44, 200.14, 221.99, 263.03 };
	struct ct_stats_summary s;
	struct ct_stats_ttest t;
	struct ct_stats_rank u;
	bool flags[6];
	size_t nflag;

	assert_int_equal(ct_stats_summarize(nopre, 6, 95, &s), 0);
	assert_true(fabs(s.mean - 191.463) < 0.0005);
	assert_true(fabs(s.ci_low - 179.948) < 0.0005);
	assert_true(fabs(s.ci_high - 202.979) < 0.0005);
	assert_true(fabs(s.sd - 10.973) < 0.0005);
	assert_true(fabs(s.median - 193.95) < 1e-9);
	assert_true(fabs(s.aad_median - 9.117) < 0.0005);

	assert_int_equal(ct_stats_summarize(pre, 6, 95, &s), 0);
	assert_true(fabs(s.mean - 211.688) < 0.0005);
	assert_true(fabs(s.ci_low - 182.92) < 0.005);
	assert_true(fabs(s.ci_high - 240.45) < 0.005);
	assert_true(fabs(s.sd - 27.410) < 0.0005);
	assert_true(fabs(s.median - 199.79) < 1e-9);
	assert_true(fabs(s.aad_median - 16.698) < 0.0005);
	assert_int_equal(ct_stats_outliers(pre, 6, flags, &nflag), 0);
	assert_int_equal(nflag, 1);
	assert_true(flags[5]);
	assert_int_equal(ct_stats_outliers(nopre, 6, flags, &nflag), 0);
	assert_int_equal(nflag, 0);

	assert_int_equal(ct_stats_welch(nopre, 6, pre, 6, &t), 0);
	assert_true(fabs(t.t - -1.678) < 0.0005);
	assert_true(fabs(t.df - 6.56) < 0.005);
	assert_true(fabs(t.p - 0.140) < 0.0005);
	assert_int_equal(ct_stats_mann_whitney(nopre, 6, pre, 6, CT_STATS_AUTO, &u), 0);
	assert_true(u.exact);
	assert_true(fabs(u.p - 0.132) < 0.0005);
}

static void test_two_sample(void **state)
{
	static const char *const cases[] = { "io",	"ties",	 "n2",	 "huge",  "tiny",
					     "unequal", "large", "mad0", "tight", "unbounded" };

	for (size_t i = 0; i < CT_ARRAY_SIZE(cases); i++)
		check_two_sample(cases[i]);
}

/* Constant samples: the summary is exact (sd 0, CI a point); the tests that
 * divide by a standard error refuse, as R's t.test does; the rank test of
 * two identical constant samples gives p = 1 (R: NaN), nothing tells them
 * apart, and the signed-rank test has no difference left to rank. */
static void test_identical(void **state)
{
	const struct rec *x = data("ident", "x"), *y = data("ident", "y");
	struct ct_stats_ttest t;
	struct ct_stats_rank u;
	struct ct_stats_ratio q;

	check_summary("ident", "x", x->v, x->n);
	assert_int_equal(ct_stats_welch(x->v, x->n, y->v, y->n, &t), -EINVAL);
	assert_int_equal(ct_stats_student(x->v, x->n, y->v, y->n, &t), -EINVAL);
	assert_int_equal(ct_stats_fieller(x->v, x->n, y->v, y->n, 95, &q), -EINVAL);
	assert_int_equal(ct_stats_paired_t(x->v, y->v, x->n, &t), -EINVAL);
	assert_int_equal(ct_stats_mann_whitney(x->v, x->n, y->v, y->n, CT_STATS_AUTO, &u), 0);
	assert_true(u.p == 1);
	assert_int_equal(ct_stats_signed_rank(x->v, y->v, x->n, CT_STATS_AUTO, &u), -EINVAL);
}

static void check_paired(const char *name)
{
	const struct rec *x = data(name, "x"), *y = data(name, "y"), *r;
	struct ct_stats_ttest t;
	struct ct_stats_rank w;

	assert_int_equal(x->n, y->n);
	r = val(name, "paired_t");
	assert_int_equal(ct_stats_paired_t(x->v, y->v, x->n, &t), 0);
	check("mean diff", t.diff, r->v[0], REL_STAT);
	check("t", t.t, r->v[1], REL_STAT);
	check("df", t.df, r->v[2], REL_STAT);
	check("p", t.p, r->v[3], REL_P);

	r = find("val", name, "sr_exact");
	assert_int_equal(ct_stats_signed_rank(x->v, y->v, x->n, CT_STATS_AUTO, &w), 0);
	if (r) {
		assert_true(w.exact);
		check("V", w.stat, r->v[0], REL_STAT);
		check("exact p", w.p, r->v[1], REL_P);
	} else {
		assert_false(w.exact);
		assert_int_equal(ct_stats_signed_rank(x->v, y->v, x->n, CT_STATS_EXACT, &w),
				 -EINVAL);
	}
	r = val(name, "sr_normal");
	assert_int_equal(ct_stats_signed_rank(x->v, y->v, x->n, CT_STATS_NORMAL, &w), 0);
	assert_false(w.exact);
	check("V", w.stat, r->v[0], REL_STAT);
	check("normal p", w.p, r->v[1], REL_P);
	assert_int_equal(w.n, (size_t)r->v[2]);
}

static void test_paired(void **state)
{
	check_paired("pair");
	check_paired("pairties");
	check_paired("pairzero");
}

static void test_holm_geomean(void **state)
{
	const struct rec *p = data("holm", "x"), *want = val("holm", "adj");
	const struct rec *g = data("geomean", "x");
	double adj[MAXV], gm;

	assert_int_equal(ct_stats_holm(p->v, p->n, adj), 0);
	for (size_t i = 0; i < p->n; i++)
		check("holm", adj[i], want->v[i], 1e-12);
	/* in place */
	memcpy(adj, p->v, p->n * sizeof(double));
	assert_int_equal(ct_stats_holm(adj, p->n, adj), 0);
	for (size_t i = 0; i < p->n; i++)
		check("holm in place", adj[i], want->v[i], 1e-12);

	assert_int_equal(ct_stats_geomean(g->v, g->n, &gm), 0);
	check("geomean", gm, val("geomean", "gm")->v[0], 1e-12);
}

static void test_errors(void **state)
{
	static const double x[] = { 1, 2, 3, 4 }, bad[] = { 1, NAN, 3 };
	static const double neg[] = { 1, -2 }, p[] = { 0.5, 1.5 };
	double big[60], other[60], out[2];
	struct ct_stats_summary s;
	struct ct_stats_ttest t;
	struct ct_stats_rank u;
	struct ct_stats_ratio q;
	bool flags[4];

	assert_int_equal(ct_stats_summarize(x, 1, 95, &s), -EINVAL);
	assert_int_equal(ct_stats_summarize(x, 4, 0, &s), -EINVAL);
	assert_int_equal(ct_stats_summarize(x, 4, 100, &s), -EINVAL);
	assert_int_equal(ct_stats_summarize(x, 4, NAN, &s), -EINVAL);
	assert_int_equal(ct_stats_summarize(bad, 3, 95, &s), -EINVAL);
	assert_int_equal(ct_stats_summarize(NULL, 3, 95, &s), -EINVAL);
	assert_int_equal(ct_stats_outliers(x, 0, flags, NULL), -EINVAL);
	assert_int_equal(ct_stats_welch(x, 1, x, 4, &t), -EINVAL);
	assert_int_equal(ct_stats_student(x, 4, x, 1, &t), -EINVAL);
	assert_int_equal(ct_stats_paired_t(x, x, 1, &t), -EINVAL);
	assert_int_equal(ct_stats_fieller(x, 4, x, 4, 100, &q), -EINVAL);
	assert_int_equal(ct_stats_mann_whitney(x, 0, x, 4, CT_STATS_AUTO, &u), -EINVAL);
	/* x against itself is all ties: exact is refused */
	assert_int_equal(ct_stats_mann_whitney(x, 4, x, 4, CT_STATS_EXACT, &u), -EINVAL);
	for (int i = 0; i < 60; i++) {
		big[i] = i;
		other[i] = i + 0.5;
	}
	assert_int_equal(ct_stats_mann_whitney(big, 60, other, 60, CT_STATS_EXACT, &u), -EINVAL);
	assert_int_equal(ct_stats_mann_whitney(big, 60, other, 60, CT_STATS_AUTO, &u), 0);
	assert_false(u.exact);
	assert_int_equal(ct_stats_holm(p, 2, out), -EINVAL);
	assert_int_equal(ct_stats_holm(p, 0, out), -EINVAL);
	assert_int_equal(ct_stats_geomean(neg, 2, out), -EINVAL);
	assert_int_equal(ct_stats_geomean(neg, 0, out), -EINVAL);
}

/* Calibration's noise against R: the CoV, robust CoV, outliers, the
 * Theil-Sen drift per run and the Mann-Kendall p (with ties). */
static void test_noise(void **state)
{
	static const char *const cases[] = { "drift", "flat", "tied" };

	(void)state;
	for (size_t i = 0; i < CT_ARRAY_SIZE(cases); i++) {
		const struct rec *x = data(cases[i], "x"), *r = val(cases[i], "noise");
		struct ct_stats_noise nz;

		assert_int_equal(ct_stats_noise(x->v, x->n, &nz), 0);
		check("cov", nz.cov, r->v[0], 1e-12);
		check("robust cov", nz.robust_cov, r->v[1], 1e-12);
		assert_int_equal(nz.outliers, (size_t)r->v[2]);
		check("drift", nz.drift, r->v[3], 1e-12);
		check("drift p", nz.drift_p, r->v[4], 1e-9);
	}
	{
		const double bad[] = { 1, -1, 2 };
		struct ct_stats_noise nz;

		assert_int_equal(ct_stats_noise(bad, 3, &nz), -EINVAL);
		assert_int_equal(ct_stats_noise(bad, 2, &nz), -EINVAL);
	}
}

/* The power calibration simulates, on runs log-normal with sd 0.03 (2,000
 * normal quantiles), against R's own wilcox.test in 20,000 simulated
 * pairs of 10 a side; then the effect and the n it finds for 80% power
 * must sit where R's power curve says. */
static void test_power(void **state)
{
	enum { N = 2000 };
	static double x[N];
	static const int effects[] = { 3, 4, 5 };
	double p, mde;
	size_t n;

	(void)state;
	for (size_t i = 0; i < N; i++)
		x[i] = exp(0.03 * gsl_cdf_ugaussian_Pinv(((double)i + 0.5) / N));
	for (size_t i = 0; i < CT_ARRAY_SIZE(effects); i++) {
		char key[16];

		snprintf(key, sizeof(key), "mw10_%d", effects[i]);
		assert_int_equal(ct_stats_power(x, N, 10, effects[i] / 100.0, 95, 4000, &p), 0);
		if (fabs(p - val("power", key)->v[0]) > 0.025)
			fail_msg("power at +%d%%, n = 10: %.4f, R %.4f", effects[i], p,
				 val("power", key)->v[0]);
	}
	/* R: 0.746 at +4%, 0.907 at +5% */
	assert_int_equal(ct_stats_mde(x, N, 10, 95, 0.8, 2000, &mde), 0);
	assert_true(mde > 0.04 && mde < 0.05);
	assert_int_equal(ct_stats_runs_for(x, N, 0.05, 95, 0.8, 2000, 200, &n), 0);
	assert_true(n > 4 && n <= 10);
	assert_int_equal(ct_stats_runs_for(x, N, 0.04, 95, 0.8, 2000, 200, &n), 0);
	assert_true(n > 10);
	/* 3 a side: no verdict, so no effect is detectable */
	assert_int_equal(ct_stats_mde(x, N, 3, 95, 0.8, 100, &mde), 0);
	assert_true(isnan(mde));
	assert_int_equal(ct_stats_power(x, N, 3, 0.5, 95, 100, &p), 0);
	assert_true(p == 0);
	/* a huge effect with little noise needs the rule's least n */
	assert_int_equal(ct_stats_runs_for(x, N, 0.5, 95, 0.8, 500, 200, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(ct_stats_runs_for(x, N, 0.0001, 95, 0.8, 200, 50, &n), -ERANGE);
}

/* The A/A rate's interval against R's binom.test. */
static void test_binom_ci(void **state)
{
	static const unsigned xn[][2] = { { 0, 10 }, { 1, 10 }, { 3, 40 }, { 20, 20 } };
	double lo, hi;

	(void)state;
	for (size_t i = 0; i < CT_ARRAY_SIZE(xn); i++) {
		char key[16];
		const struct rec *r;

		snprintf(key, sizeof(key), "%uof%u", xn[i][0], xn[i][1]);
		r = val("binom", key);
		assert_int_equal(ct_stats_binom_ci(xn[i][0], xn[i][1], 95, &lo, &hi), 0);
		check("binom low", lo, r->v[0], 1e-9);
		check("binom high", hi, r->v[1], 1e-9);
	}
	assert_int_equal(ct_stats_binom_ci(3, 2, 95, &lo, &hi), -EINVAL);
	assert_int_equal(ct_stats_binom_ci(0, 0, 95, &lo, &hi), -EINVAL);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The k-th of the pairwise differences and of the Walsh averages, found
 * by counting, against the whole set built and sorted: sets of 1.5 million
 * (past the size the counting narrows before collecting), with values on a
 * grid of whole numbers (ties by the hundred thousand, more than the
 * counting can split) and without. */
static void test_pairs_kth(void **state)
{
	enum { NA = 1500, NB = 1000 };
	static double a[NA], b[NB];
	double *all = malloc((size_t)NA * NA * sizeof(*all));
	uint64_t st = 7;

	(void)state;
	assert_non_null(all);
	for (int grid = 0; grid < 2; grid++) {
		for (size_t i = 0; i < NA; i++) {
			a[i] = 100 + (double)(ct_rand64(&st) % 1000000) / 1e5;
			if (grid)
				a[i] = round(a[i]);
		}
		for (size_t j = 0; j < NB; j++) {
			b[j] = 100.3 + (double)(ct_rand64(&st) % 1000000) / 1e5;
			if (grid)
				b[j] = round(b[j]);
		}
		stats_sort(a, NA);
		stats_sort(b, NB);
		for (size_t i = 1; i < NA; i++)
			assert_true(a[i - 1] <= a[i]);
		for (int walsh = 0; walsh < 2; walsh++) {
			struct stats_pairs p = {
				.a = a, .na = NA, .b = b, .nb = NB, .walsh = walsh
			};
			uint64_t n = 0;

			for (size_t i = 0; i < NA; i++)
				for (size_t j = walsh ? i : 0; j < (walsh ? NA : NB); j++)
					all[n++] = walsh ? (a[i] + a[j]) / 2 : a[i] - b[j];
			assert_true(n == stats_pairs_count(&p));
			qsort(all, n, sizeof(*all), cmp_d);
			uint64_t ks[] = { 0,	 1,	n / 2 - 1, n / 2,    n / 3,
					  n - 2, n - 1, 12345,	   n - 54321 };

			for (size_t t = 0; t < CT_ARRAY_SIZE(ks); t++) {
				double v, next;

				assert_int_equal(stats_pairs_kth(&p, ks[t], &v), 0);
				if (v != all[ks[t]])
					fail_msg("grid %d walsh %d k %llu: %.17g, sorted %.17g",
						 grid, walsh, (unsigned long long)ks[t], v,
						 all[ks[t]]);
				if (ks[t] + 1 < n) {
					assert_int_equal(stats_pairs_next(&p, v, ks[t], &next), 0);
					assert_true(next == all[ks[t] + 1]);
				}
			}
		}
	}
	free(all);
}

/* The verdict rule's effects against R: the Hodges-Lehmann ratio with
 * wilcox.test's own exact interval, unpaired and paired; then the rule's
 * choice of test, its effect and its outcome. */
static void test_rule_effects(void **state)
{
	static const char *const hl[] = { "io", "hl10" };
	struct ct_stats_shift sh;
	char what[64];

	for (size_t i = 0; i < CT_ARRAY_SIZE(hl); i++) {
		const struct rec *x = data(hl[i], "x"), *y = data(hl[i], "y");
		double lx[64], ly[64];

		for (size_t k = 0; k < x->n; k++)
			lx[k] = log(x->v[k]);
		for (size_t k = 0; k < y->n; k++)
			ly[k] = log(y->v[k]);
		for (int conf = 95; conf >= 90; conf -= 5) {
			const struct rec *r;

			snprintf(what, sizeof(what), "hl%d", conf);
			r = val(hl[i], what);
			assert_int_equal(ct_stats_hodges_lehmann(ly, y->n, lx, x->n, conf, &sh), 0);
			check(what, exp(sh.estimate), r->v[0], 1e-12);
			check(what, exp(sh.low), r->v[1], 1e-12);
			check(what, exp(sh.high), r->v[2], 1e-12);
			check(what, sh.p, r->v[3], 1e-9);
			assert_true(sh.exact);
		}
	}
	static const char *const pairs[] = { "pair10", "pair10d", "pair8" };

	for (size_t i = 0; i < CT_ARRAY_SIZE(pairs); i++) {
		const struct rec *x = data(pairs[i], "x"), *y = data(pairs[i], "y");
		struct ct_stats_comparison c;
		const struct rec *r;
		double lx[64], ly[64];

		for (size_t k = 0; k < x->n; k++) {
			lx[k] = log(x->v[k]);
			ly[k] = log(y->v[k]);
		}
		for (int conf = 95; conf >= 90; conf -= 5) {
			snprintf(what, sizeof(what), "hlp%d", conf);
			r = val(pairs[i], what);
			assert_int_equal(ct_stats_hl_paired(ly, lx, x->n, conf, &sh), 0);
			check(what, exp(sh.estimate), r->v[0], 1e-12);
			check(what, exp(sh.low), r->v[1], 1e-12);
			check(what, exp(sh.high), r->v[2], 1e-12);
			check(what, sh.p, r->v[3], 1e-12);
			assert_true(sh.exact);
		}
		/* paired by block, 6 or more: the signed-rank test decides,
		 * with its own effect and interval */
		ct_stats_compare(x->v, x->n, y->v, y->n, x->v, y->v, x->n, 95, &c);
		assert_int_equal(c.decided_by, CT_TEST_SIGNED_RANK);
		r = val(pairs[i], "hlp95");
		check("rule effect", c.effect, r->v[0], 1e-12);
		check("rule low", c.effect_low, r->v[1], 1e-12);
		check("rule high", c.effect_high, r->v[2], 1e-12);
		check("rule p", c.p, r->v[3], 1e-12);
		assert_true(c.ratio_scale);
	}
	/* independent: the rank test decides, the effect is Hodges-Lehmann's */
	{
		const struct rec *x = data("hl10", "x"), *y = data("hl10", "y");
		const struct rec *r = val("hl10", "hl95");
		struct ct_stats_comparison c, *pc = &c;

		ct_stats_compare(x->v, x->n, y->v, y->n, NULL, NULL, 0, 95, &c);
		assert_int_equal(c.decided_by, CT_TEST_RANK);
		check("rule effect", c.effect, r->v[0], 1e-12);
		check("rule high", c.effect_high, r->v[2], 1e-12);
		assert_int_equal(ct_stats_decide(&pc, 1, 95), 0);
		assert_int_equal(c.outcome, CT_OUTCOME_HIGHER);
		/* 3 against 3: no rank test reaches 0.05, so no verdict */
		ct_stats_compare(x->v, 3, y->v, 3, NULL, NULL, 0, 95, &c);
		assert_int_equal(c.decided_by, CT_TEST_NONE);
		assert_int_equal(c.outcome, CT_OUTCOME_NOT_ENOUGH);
		assert_int_equal(c.need, 4);
		/* 5 pairs: too few for the signed-rank test, the rank test decides */
		ct_stats_compare(x->v, 5, y->v, 5, x->v, y->v, 5, 95, &c);
		assert_int_equal(c.decided_by, CT_TEST_RANK);
	}
	assert_int_equal(ct_stats_runs_needed(95), 4);
	assert_int_equal(ct_stats_runs_needed(99), 5);
}

/* The two levels against R (fixtures/stats/sessions.R): each side's
 * variance components by R's ANOVA and, where the design is balanced,
 * lme4's REML fit; the cross-session rule against R's Welch t.test on the
 * sessions' medians of logs. */
static void test_sessions_r(void **state)
{
	static const char *const cases[] = { "bal", "bal6", "unbal", "fluke" };
	int64_t sid[2][MAXV];

	(void)state;
	for (size_t c = 0; c < CT_ARRAY_SIZE(cases); c++) {
		const struct rec *x[2], *w = val(cases[c], "welch");
		struct ct_stats_comparison cmp;
		char key[32];

		for (int k = 0; k < 2; k++) {
			const char *side = k ? "o" : "b";
			const struct rec *srec, *a, *l;
			struct ct_stats_levels lv;

			snprintf(key, sizeof(key), "%s.x", side);
			x[k] = find("data", cases[c], key);
			snprintf(key, sizeof(key), "%s.s", side);
			srec = find("data", cases[c], key);
			assert_non_null(x[k]);
			assert_non_null(srec);
			assert_int_equal(srec->n, x[k]->n);
			assert_true(x[k]->n >= 4);
			for (size_t i = 0; i < srec->n; i++)
				sid[k][i] = (int64_t)srec->v[i];
			assert_int_equal(ct_stats_levels(x[k]->v, sid[k], x[k]->n, &lv), 0);
			snprintf(key, sizeof(key), "%s.anova", side);
			a = val(cases[c], key);
			check("within_var", lv.within_var, a->v[0], REL_STAT);
			check("between_var", lv.between_var, a->v[1], REL_STAT);
			snprintf(key, sizeof(key), "%s.lmer", side);
			if ((l = find("val", cases[c], key))) {
				/* REML's optimizer stops near its optimum, not at it;
				 * on the boundary (MSB below MSW) REML puts all the
				 * variance in the runs, where ANOVA keeps MSW */
				if (a->v[1] > 0) {
					check("lmer within", lv.within_var, l->v[0], 1e-4);
					check("lmer between", lv.between_var, l->v[1], 1e-3);
				} else {
					assert_true(l->v[1] < 1e-8);
					assert_true(lv.between_var == 0);
				}
			}
		}
		ct_stats_compare(x[0]->v, x[0]->n, x[1]->v, x[1]->n, NULL, NULL, 0, 95, &cmp);
		assert_int_equal(ct_stats_compare_sessions(x[0]->v, sid[0], x[0]->n, x[1]->v,
							   sid[1], x[1]->n, 95, &cmp),
				 0);
		assert_int_equal(cmp.decided_by, CT_TEST_SESSIONS);
		check("diff", cmp.sessions_t.diff, w->v[0], REL_STAT);
		check("t", cmp.sessions_t.t, w->v[1], REL_STAT);
		check("df", cmp.sessions_t.df, w->v[2], REL_STAT);
		check("p", cmp.p, w->v[3], REL_P);
		check("low", cmp.effect_low, exp(w->v[4]), REL_STAT);
		check("high", cmp.effect_high, exp(w->v[5]), REL_STAT);
		check("effect", cmp.effect, exp(w->v[0]), REL_STAT);
	}
}

/* The rule for one session a side against R (fixtures/stats/sessions.R):
 * the machine's spread from calibration configs, and the t of
 * ct_stats_compare_across() computed in R from its definitions. */
static void test_across_r(void **state)
{
	static const char *const cases[] = { "across", "across2" };
	int64_t sid[MAXV], bs[MAXV], os[MAXV];

	(void)state;
	for (size_t c = 0; c < CT_ARRAY_SIZE(cases); c++) {
		const struct rec *m = val(cases[c], "machine"), *w = val(cases[c], "across");
		const struct rec *b = find("data", cases[c], "b.x"),
				 *bsr = find("data", cases[c], "b.s");
		const struct rec *o = find("data", cases[c], "o.x"),
				 *osr = find("data", cases[c], "o.s");
		struct ct_stats_between bw = { .var = NAN };
		struct ct_stats_comparison cmp;
		char key[32];

		assert_non_null(b);
		assert_non_null(o);
		assert_non_null(bsr);
		assert_non_null(osr);
		for (int i = 1;; i++) {
			const struct rec *x, *srec;

			snprintf(key, sizeof(key), "c%d.x", i);
			if (!(x = find("data", cases[c], key)))
				break;
			snprintf(key, sizeof(key), "c%d.s", i);
			srec = find("data", cases[c], key);
			assert_non_null(srec);
			for (size_t k = 0; k < srec->n; k++)
				sid[k] = (int64_t)srec->v[k];
			assert_int_equal(ct_stats_between_add(&bw, x->v, sid, x->n), 0);
		}
		check("machine var", bw.var, m->v[0], REL_STAT);
		check("machine df", bw.df, m->v[1], REL_STAT);
		check("machine runs", bw.runs, m->v[2], REL_STAT);
		check("machine within", bw.within, m->v[3], REL_STAT);
		for (size_t k = 0; k < bsr->n; k++)
			bs[k] = (int64_t)bsr->v[k];
		for (size_t k = 0; k < osr->n; k++)
			os[k] = (int64_t)osr->v[k];
		ct_stats_compare(b->v, b->n, o->v, o->n, NULL, NULL, 0, 95, &cmp);
		assert_int_equal(
			ct_stats_compare_across(b->v, bs, b->n, o->v, os, o->n, &bw, 95, &cmp), 0);
		assert_int_equal(cmp.decided_by, CT_TEST_ACROSS);
		check("diff", cmp.sessions_t.diff, w->v[0], REL_STAT);
		check("t", cmp.sessions_t.t, w->v[1], REL_STAT);
		check("df", cmp.sessions_t.df, w->v[2], REL_STAT);
		check("p", cmp.p, w->v[3], REL_P);
		check("low", cmp.effect_low, exp(w->v[4]), REL_STAT);
		check("high", cmp.effect_high, exp(w->v[5]), REL_STAT);
	}
}

/* Sessions a side for a change against R's power.t.test (the noncentral
 * t, exact), rounded up: the t-quantile plan gives the same count. */
static void test_sessions_needed_r(void **state)
{
	static const char *const keys[] = { "v0.01548_e1.05", "v0.0004_e1.02", "v0.002_e1.1",
					    "v1e-05_e1.05" };

	(void)state;
	for (size_t i = 0; i < CT_ARRAY_SIZE(keys); i++) {
		const struct rec *r = val("plan", keys[i]);
		size_t k = ct_stats_sessions_needed(r->v[0], r->v[1], 95, 0.8, 1000);

		print_message("sessions for %s: %zu (R %g)\n", keys[i], k, r->v[2]);
		assert_true(k >= 2);
		assert_true((double)k == r->v[2]);
	}
	assert_int_equal(ct_stats_sessions_needed(0.01548, 1.05, 95, 0.8, 50), 0);
	assert_int_equal(ct_stats_sessions_needed(0.01, 1, 95, 0.8, 50), 0);
}

/* Fewer than two sessions a side: the sessions cannot decide, and the
 * comparison is left as the runs decided it. */
static void test_sessions_few(void **state)
{
	const double b[] = { 10, 10.2, 9.9, 10.1 }, o[] = { 11, 11.1, 10.9, 11.2 };
	const int64_t one[] = { 7, 7, 7, 7 }, two[] = { 1, 1, 2, 2 };
	struct ct_stats_comparison c, before;

	(void)state;
	ct_stats_compare(b, 4, o, 4, NULL, NULL, 0, 95, &c);
	before = c;
	assert_int_equal(ct_stats_compare_sessions(b, one, 4, o, two, 4, 95, &c), -EINVAL);
	assert_int_equal(c.decided_by, before.decided_by);
	assert_true(c.p == before.p);
	assert_int_equal(ct_stats_compare_sessions(b, two, 4, o, two, 4, 95, &c), 0);
	assert_int_equal(c.nsessions_base, 2);
	assert_int_equal(c.nsessions_other, 2);
}

/* The bisection's weights, worked by hand: a chain 0-1-2-3 (3 the bad
 * end), eps = 0.1. Uniform, commit 1 splits evenly. "1 is bad" leaves 0
 * and 1 at weight 1, 2 and 3 at eps / (1 - eps) = 1/9: probabilities
 * 0.45, 0.45, 0.05, 0.05, and commit 0 (bad with 0.45) splits best. */
static void test_bisect_chain(void **state)
{
	const size_t np[] = { 0, 1, 1, 1 }, parents[] = { 0, 1, 2 };
	struct ct_bisect *b;
	size_t next = 99;
	double p;

	(void)state;
	assert_int_equal(ct_bisect_new(4, np, parents, 0.1, &b), 0);
	assert_int_equal(ct_bisect_next(b, &next), 0);
	assert_int_equal(next, 1);
	assert_true(fabs(ct_bisect_bad_prob(b, 2) - 0.75) < 1e-12);
	assert_int_equal(ct_bisect_answer(b, 1, true), 0);
	assert_true(fabs(ct_bisect_prob(b, 0) - 0.45) < 1e-12);
	assert_true(fabs(ct_bisect_prob(b, 1) - 0.45) < 1e-12);
	assert_true(fabs(ct_bisect_prob(b, 2) - 0.05) < 1e-12);
	assert_true(fabs(ct_bisect_prob(b, 3) - 0.05) < 1e-12);
	assert_true(fabs(ct_bisect_bad_prob(b, 1) - 0.9) < 1e-12);
	assert_true(fabs(ct_bisect_bad_prob(b, 2) - 0.95) < 1e-12);
	assert_int_equal(ct_bisect_next(b, &next), 0);
	assert_int_equal(next, 0);
	assert_int_equal(ct_bisect_best(b, &p), 0);
	assert_true(fabs(p - 0.45) < 1e-12);
	/* the answer outvoted: two answers that 1 is good move the weight past it */
	assert_int_equal(ct_bisect_answer(b, 1, false), 0);
	assert_int_equal(ct_bisect_answer(b, 1, false), 0);
	assert_int_equal(ct_bisect_best(b, &p), 2);
	assert_true(fabs(p - 0.45) < 1e-12);
	ct_bisect_free(b);
}

/* A chain of three, 2 the bad end: the probabilities that 0 and 1 are bad
 * are 1/3 and 2/3, worth alike (the first is asked). A commit that gave
 * no answer is asked again, after those that have not failed to answer -
 * never given up as a skipped one is. */
static void test_bisect_unsure(void **state)
{
	const size_t np[] = { 0, 1, 1 }, parents[] = { 0, 1 };
	struct ct_bisect *b;
	size_t next = 99;

	(void)state;
	assert_int_equal(ct_bisect_new(3, np, parents, 0.1, &b), 0);
	assert_int_equal(ct_bisect_next(b, &next), 0);
	assert_int_equal(next, 0);
	assert_int_equal(ct_bisect_unsure(b, 0), 0);
	assert_int_equal(ct_bisect_next(b, &next), 0);
	assert_int_equal(next, 1);
	assert_int_equal(ct_bisect_unsure(b, 1), 0);
	assert_int_equal(ct_bisect_next(b, &next), 0);
	assert_int_equal(next, 0); /* both once: the first again */
	assert_int_equal(ct_bisect_unsure(b, 0), 0);
	assert_int_equal(ct_bisect_next(b, &next), 0);
	assert_int_equal(next, 1);
	/* skipped (a build that failed), they are not asked */
	assert_int_equal(ct_bisect_skip(b, 0), 0);
	assert_int_equal(ct_bisect_skip(b, 1), 0);
	assert_int_equal(ct_bisect_next(b, &next), -ENOENT);
	assert_int_equal(ct_bisect_unsure(b, 3), -EINVAL);
	ct_bisect_free(b);
}

/* A merge, as git bisects it: 0; 1 and 2 on 0; 3 merges 1 and 2; 4 on 3.
 * Plain halving (eps = 0): 1 splits 2 of 5 (as 2 does; the first is
 * taken); "1 is good" clears 0 and 1; then 2 and 3 split {2, 3, 4} alike;
 * "2 is bad" leaves 2 alone, and no commit is left to ask. */
static void test_bisect_merge(void **state)
{
	const size_t np[] = { 0, 1, 1, 2, 1 }, parents[] = { 0, 0, 1, 2, 3 };
	const size_t bad_np[] = { 0, 1, 0 }, bad_parents[] = { 0 };
	const size_t late_np[] = { 0, 1 }, late_parents[] = { 1 };
	struct ct_bisect *b;
	size_t next = 99;
	double p;

	(void)state;
	assert_int_equal(ct_bisect_new(5, np, parents, 0, &b), 0);
	assert_true(ct_bisect_is_ancestor(b, 2, 3));
	assert_false(ct_bisect_is_ancestor(b, 2, 1));
	assert_int_equal(ct_bisect_next(b, &next), 0);
	assert_int_equal(next, 1);
	assert_int_equal(ct_bisect_answer(b, 1, false), 0);
	assert_true(fabs(ct_bisect_bad_prob(b, 3) - 2.0 / 3) < 1e-12);
	assert_int_equal(ct_bisect_next(b, &next), 0);
	assert_int_equal(next, 2);
	assert_int_equal(ct_bisect_answer(b, 2, true), 0);
	assert_int_equal(ct_bisect_next(b, &next), -ENOENT);
	assert_int_equal(ct_bisect_best(b, &p), 2);
	assert_true(p == 1);
	ct_bisect_free(b);
	/* a skipped commit is never asked: with 1 skipped, 2 is */
	assert_int_equal(ct_bisect_new(5, np, parents, 0, &b), 0);
	assert_int_equal(ct_bisect_skip(b, 1), 0);
	assert_int_equal(ct_bisect_next(b, &next), 0);
	assert_int_equal(next, 2);
	ct_bisect_free(b);
	/* commit 2 is no ancestor of the bad end; a parent after its child */
	assert_int_equal(ct_bisect_new(3, bad_np, bad_parents, 0, &b), -EINVAL);
	assert_int_equal(ct_bisect_new(2, late_np, late_parents, 0, &b), -EINVAL);
	assert_int_equal(ct_bisect_new(2, late_np, late_parents, 0.5, &b), -EINVAL);
}

/* A step's three outcomes against a regression of +10% (log 1.1). */
/* Change points: one shift in 12 values. R found the E-divisive split
 * (the energy statistic of each split, alpha 1, times m1 m2 / n) after the
 * 6th value, wilcox.test's exact p 0.002164502165 and t.test's (var.equal)
 * 1.080598021e-06 there, and Pettitt's K 36, p 0.0314078. */
static void test_changepoints(void **state)
{
	static const double x[] = { 10.1, 9.8,	10.3, 9.9,  10.0, 10.2,
				    11.4, 11.0, 11.3, 11.6, 11.1, 11.2 };
	/* a spike: R's split after the 8th, wilcox.test p 1, t.test 0.5234 */
	static const double spike[] = { 10.1, 9.8, 10.3, 9.9,  10.0, 20.0,
					10.2, 9.7, 10.1, 10.0, 9.9,  10.2 };
	static const struct {
		enum ct_cp_method m;
		double alpha, p;
		size_t n;
	} cases[] = {
		{ CT_CP_EDM_RANK, 0.01, 0.002164502165, 1 },
		{ CT_CP_EDM_RANK, 0.001, 0, 0 }, /* 6 against 6 cannot go below 0.0022 */
		{ CT_CP_EDM, 0.001, 1.080598021e-06, 1 },
		/* both: the t's p, when the ranks agree at ten times the level */
		{ CT_CP_EDM_BOTH, 0.001, 1.080598021e-06, 1 },
		{ CT_CP_EDM_BOTH, 0.0001, 0, 0 }, /* the ranks' 0.0022 is not below 0.001 */
		{ CT_CP_RANK, 0.05, 0.0314078, 1 },
		{ CT_CP_RANK, 0.01, 0, 0 },
	};
	struct ct_cp *cp;
	size_t n;

	(void)state;
	for (size_t i = 0; i < CT_ARRAY_SIZE(cases); i++) {
		assert_int_equal(ct_changepoints(x, 12, cases[i].m, cases[i].alpha, 3, &cp, &n), 0);
		assert_int_equal(n, cases[i].n);
		if (n) {
			assert_int_equal(cp[0].at, 6);
			assert_true(fabs(cp[0].p - cases[i].p) < 1e-6 * cases[i].p);
		}
		free(cp);
	}
	for (int m = CT_CP_RANK; m <= CT_CP_EDM_BOTH; m++) {
		assert_int_equal(ct_changepoints(spike, 12, m, 0.05, 3, &cp, &n), 0);
		assert_int_equal(n, 0);
		assert_null(cp);
	}
	/* a stretch that moves and comes back: neither split to the end is
	 * kept (R: the E-divisive split after the 12th, t.test p 0.0358), the
	 * stretch against the rest is (R: 18 x t.test's p 1.904567171e-12,
	 * 18 x wilcox.test's exact 0.001939 below 0.01), then the stretch's
	 * own end (R: t.test of 6 against 6 after it, 3.817141736e-09) */
	{
		static const double back[] = { 10.1,  9.8,  10.3,  9.9,	  10.0, 10.2,
					       12.4,  12.0, 12.3,  12.6,  12.1, 12.2,
					       10.05, 9.95, 10.25, 10.15, 9.7,	10.12 };

		assert_int_equal(ct_changepoints(back, 18, CT_CP_EDM_BOTH, 0.001, 3, &cp, &n), 0);
		assert_int_equal(n, 2);
		assert_int_equal(cp[0].at, 6);
		assert_true(fabs(cp[0].p - 1.904567171e-12) < 1e-6 * 1.904567171e-12);
		assert_int_equal(cp[1].at, 12);
		assert_true(fabs(cp[1].p - 3.817141736e-09) < 1e-6 * 3.817141736e-09);
		free(cp);
	}
	/* too short for two sides of 3: no change, no error */
	assert_int_equal(ct_changepoints(x, 5, CT_CP_EDM_RANK, 0.01, 3, &cp, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(ct_changepoints(x, 12, CT_CP_EDM_RANK, 0.01, 1, &cp, &n), -EINVAL);
	assert_int_equal(ct_changepoints(x, 12, CT_CP_EDM_RANK, 0, 3, &cp, &n), -EINVAL);
	assert_int_equal(ct_changepoints(x, 12, CT_CP_EDM_RANK, 1, 3, &cp, &n), -EINVAL);
	{
		double bad[12];

		memcpy(bad, x, sizeof(bad));
		bad[4] = NAN;
		assert_int_equal(ct_changepoints(bad, 12, CT_CP_EDM_RANK, 0.01, 3, &cp, &n),
				 -EINVAL);
	}
}

static void test_bisect_judge(void **state)
{
	const double d = log(1.1);
	const struct {
		double lo, est, hi, delta;
		enum ct_bisect_call want;
	} cases[] = {
		{ 0.05, 0.10, 0.15, d, CT_BISECT_BAD },	     /* excludes 0 */
		{ -0.02, 0.01, 0.05, d, CT_BISECT_GOOD },    /* excludes the regression */
		{ -0.05, 0.03, 0.12, d, CT_BISECT_NOT_YET }, /* excludes neither */
		{ 0.01, 0.06, 0.08, d, CT_BISECT_BAD },	     /* both: nearer bad */
		{ 0.01, 0.03, 0.08, d, CT_BISECT_GOOD },     /* both: nearer good */
		{ -0.15, -0.10, -0.05, -d, CT_BISECT_BAD },  /* bad is faster, mirrored */
		{ -0.05, -0.01, 0.02, -d, CT_BISECT_GOOD },
		{ 0.05, 0.10, 0.15, 0, CT_BISECT_NOT_YET }, /* no regression */
	};
	struct ct_stats_comparison c;

	(void)state;
	for (size_t i = 0; i < CT_ARRAY_SIZE(cases); i++) {
		memset(&c, 0, sizeof(c));
		c.decided_by = CT_TEST_RANK;
		c.ratio_scale = true;
		c.shift.low = cases[i].lo;
		c.shift.estimate = cases[i].est;
		c.shift.high = cases[i].hi;
		assert_int_equal(ct_bisect_judge(&c, cases[i].delta), cases[i].want);
	}
	c.decided_by = CT_TEST_NONE;
	c.shift.low = 0.05;
	c.shift.high = 0.15;
	assert_int_equal(ct_bisect_judge(&c, d), CT_BISECT_NOT_YET);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed),
		cmocka_unit_test(test_two_sample),
		cmocka_unit_test(test_identical),
		cmocka_unit_test(test_paired),
		cmocka_unit_test(test_holm_geomean),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_rule_effects),
		cmocka_unit_test(test_pairs_kth),
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_power),
		cmocka_unit_test(test_binom_ci),
		cmocka_unit_test(test_sessions_r),
		cmocka_unit_test(test_sessions_few),
		cmocka_unit_test(test_across_r),
		cmocka_unit_test(test_sessions_needed_r),
		cmocka_unit_test(test_changepoints),
		cmocka_unit_test(test_bisect_chain),
		cmocka_unit_test(test_bisect_unsure),
		cmocka_unit_test(test_bisect_merge),
		cmocka_unit_test(test_bisect_judge),
	};
	return cmocka_run_group_tests(tests, load_fixture, free_fixture);
}
