/*
 * What a machine's noise allows (docs/statistics.md, "Calibration"): the
 * spread and drift of one config's runs, and the power of the verdict rule
 * against an effect, simulated by drawing runs from that config's own
 * spread - a smoothed bootstrap of the log residuals, so a future run is as
 * noisy, as skewed and as often disturbed as the measured ones were.
 */
#include "contend/stats.h"

#include "internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#define POWER_SEED 0x63616c6962726174ULL /* "calibrat" */
#define MAX_EFFECT 10.0			 /* +1000%: past it, "not reachable" */

int ct_stats_binom_ci(unsigned x, unsigned n, double confidence, double *lo, double *hi)
{
	double a = 1 - confidence / 100;

	if (!n || x > n || !(confidence > 0 && confidence < 100))
		return -EINVAL;
	/* Clopper and Pearson: the beta quantiles, as R's binom.test */
	*lo = x == 0 ? 0 : gsl_cdf_beta_Pinv(a / 2, x, n - x + 1);
	*hi = x == n ? 1 : gsl_cdf_beta_Pinv(1 - a / 2, x + 1, n - x);
	return 0;
}

static bool positive_finite(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0) || !isfinite(x[i]))
			return false;
	return true;
}

/* Mann-Kendall: S over the pairs in run order, its variance with x's ties
 * (R's cor.test(order, x, method = "kendall", exact = FALSE)). */
static double trend_p(const double *x, size_t n)
{
	double s = 0, v, *sorted = malloc(n * sizeof(*sorted)), dn = (double)n;

	if (!sorted)
		return NAN;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			s += (x[j] > x[i]) - (x[j] < x[i]);
	memcpy(sorted, x, n * sizeof(*sorted));
	stats_sort(sorted, n);
	v = dn * (dn - 1) * (2 * dn + 5);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		double t;

		while (j < n && sorted[j] == sorted[i])
			j++;
		t = (double)(j - i);
		v -= t * (t - 1) * (2 * t + 5);
		i = j;
	}
	free(sorted);
	v /= 18;
	if (!(v > 0))
		return 1;
	return 2 * gsl_cdf_ugaussian_Q(fabs(s) / sqrt(v));
}

int ct_stats_noise(const double *x, size_t n, struct ct_stats_noise *r)
{
	struct ct_stats_summary s;
	double *slopes;
	size_t k = 0;
	bool *flags;
	int rc;

	if (!x || !r || n < 3 || !positive_finite(x, n))
		return -EINVAL;
	rc = ct_stats_summarize(x, n, 95, &s);
	if (rc)
		return rc;
	memset(r, 0, sizeof(*r));
	r->n = n;
	r->cov = s.cov;
	r->robust_cov = s.mad / s.median;
	flags = malloc(n * sizeof(*flags));
	slopes = malloc(n * (n - 1) / 2 * sizeof(*slopes));
	if (!flags || !slopes) {
		free(flags);
		free(slopes);
		return -ENOMEM;
	}
	rc = ct_stats_outliers_of(x, &s, flags, &r->outliers);
	/* Theil-Sen: the median of the slopes of log x between every two runs */
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			slopes[k++] = (log(x[j]) - log(x[i])) / (double)(j - i);
	r->drift = expm1(stats_median_inplace(slopes, k));
	r->drift_p = trend_p(x, n);
	free(flags);
	free(slopes);
	return isnan(r->drift_p) ? -ENOMEM : rc;
}

/* The residuals log(x) - median(log x), and the bandwidth of the smoothed
 * bootstrap: Silverman's rule, 0.9 min(sd, IQR / 1.34) n^(-1/5). */
struct model {
	double *res;
	size_t n;
	double h, shrink; /* draw (res + h z) * shrink: the residuals' variance kept */
};

static int model_init(struct model *m, const double *x, size_t n)
{
	double med, mean = 0, var = 0, iqr, spread;

	m->res = malloc(n * sizeof(*m->res));
	if (!m->res)
		return -ENOMEM;
	m->n = n;
	for (size_t i = 0; i < n; i++)
		m->res[i] = log(x[i]);
	stats_sort(m->res, n);
	med = n % 2 ? m->res[n / 2] : (m->res[n / 2 - 1] + m->res[n / 2]) / 2;
	for (size_t i = 0; i < n; i++) {
		m->res[i] -= med;
		mean += m->res[i];
	}
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		var += (m->res[i] - mean) * (m->res[i] - mean);
	var /= (double)(n - 1);
	iqr = m->res[(3 * n) / 4] - m->res[n / 4];
	spread = fmin(sqrt(var), iqr > 0 ? iqr / 1.34 : sqrt(var));
	m->h = 0.9 * spread * pow((double)n, -0.2);
	m->shrink = var > 0 ? 1 / sqrt(1 + m->h * m->h / var) : 1;
	return 0;
}

static double unif(uint64_t *st)
{
	/* splitmix64, its top 53 bits */
	uint64_t z = (*st += 0x9e3779b97f4a7c15ULL);

	z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ z >> 27) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

/* One run drawn from the model: exp of a smoothed residual. */
static double draw(const struct model *m, uint64_t *st)
{
	size_t i = (size_t)(unif(st) * (double)m->n);
	double z = sqrt(-2 * log(unif(st))) * cos(2 * M_PI * unif(st));

	return exp((m->res[i < m->n ? i : m->n - 1] + m->h * z) * m->shrink);
}

/* The verdict rule for independent runs (Mann-Whitney at the confidence,
 * once 4 a side can decide) calls other higher, trials times; the same
 * draws for every effect, so power rises with the effect. The exact p of
 * every U is counted once; draws that tie go to the test itself. */
static double power(const struct model *m, size_t n, double effect, double confidence,
		    unsigned trials, double *b, double *o)
{
	uint64_t st = POWER_SEED;
	unsigned hits = 0;
	double *table = NULL, alpha = 1 - confidence / 100, half = (double)n * (double)n / 2;

	if (n < ct_stats_runs_needed(confidence))
		return 0;
	if (n <= CT_STATS_EXACT_MAX && stats_mw_exact_table(n, n, &table))
		return NAN;
	for (unsigned t = 0; t < trials; t++) {
		struct ct_stats_rank u = { .p = 1 };
		double rank_sum, ties;

		for (size_t i = 0; i < n; i++) {
			b[i] = draw(m, &st);
			o[i] = draw(m, &st) * (1 + effect);
		}
		stats_sort(b, n);
		stats_sort(o, n);
		stats_rank_merge(b, n, o, n, &rank_sum, &ties);
		u.stat = rank_sum - (double)n * ((double)n + 1) / 2; /* pairs b > o */
		if (table && ties == 0)
			u.p = table[(size_t)llround(u.stat)];
		else if (ct_stats_mann_whitney(b, n, o, n, CT_STATS_AUTO, &u))
			u.p = 1;
		/* under half the pairs b > o: other is the higher */
		hits += u.p < alpha && u.stat < half;
	}
	free(table);
	return (double)hits / trials;
}

static int check_args(const double *x, size_t nx, size_t n, double confidence, unsigned trials)
{
	return x && nx >= 3 && positive_finite(x, nx) && n >= 1 && n <= 100000 && confidence > 0 &&
			       confidence < 100 && trials >= 1
		       ? 0
		       : -EINVAL;
}

int ct_stats_power(const double *x, size_t nx, size_t n, double effect, double confidence,
		   unsigned trials, double *out)
{
	struct model m;
	double *b, *o;
	int rc = check_args(x, nx, n, confidence, trials);

	if (rc || !(effect > -1) || !isfinite(effect))
		return -EINVAL;
	rc = model_init(&m, x, nx);
	if (rc)
		return rc;
	b = malloc(2 * n * sizeof(*b));
	if (b) {
		o = b + n;
		*out = power(&m, n, effect, confidence, trials, b, o);
	}
	free(b);
	free(m.res);
	return b ? 0 : -ENOMEM;
}

int ct_stats_mde(const double *x, size_t nx, size_t n, double confidence, double want,
		 unsigned trials, double *effect)
{
	double lo = 0, hi = 0.01, *b;
	struct model m;
	int rc = check_args(x, nx, n, confidence, trials);

	if (rc || !(want > 0 && want < 1))
		return -EINVAL;
	if (n < ct_stats_runs_needed(confidence)) {
		*effect = NAN; /* the rule cannot decide with so few */
		return 0;
	}
	rc = model_init(&m, x, nx);
	if (rc)
		return rc;
	b = malloc(2 * n * sizeof(*b));
	if (!b) {
		free(m.res);
		return -ENOMEM;
	}
	/* double until the power is reached, then bisect to 1% of the effect */
	while (hi <= MAX_EFFECT && power(&m, n, hi, confidence, trials, b, b + n) < want) {
		lo = hi;
		hi *= 2;
	}
	if (hi > MAX_EFFECT) {
		*effect = INFINITY;
	} else {
		while (hi - lo > 0.01 * hi) {
			double mid = (lo + hi) / 2;

			if (power(&m, n, mid, confidence, trials, b, b + n) >= want)
				hi = mid;
			else
				lo = mid;
		}
		*effect = hi;
	}
	free(b);
	free(m.res);
	return 0;
}

int ct_stats_runs_for(const double *x, size_t nx, double effect, double confidence, double want,
		      unsigned trials, size_t max, size_t *n)
{
	size_t lo, hi;
	double *b;
	struct model m;
	int rc = check_args(x, nx, max, confidence, trials);

	if (rc || !(effect > 0) || !isfinite(effect) || !(want > 0 && want < 1))
		return -EINVAL;
	rc = model_init(&m, x, nx);
	if (rc)
		return rc;
	b = malloc(2 * max * sizeof(*b));
	if (!b) {
		free(m.res);
		return -ENOMEM;
	}
	/* the power at n rises with n: double from the rule's least n, then
	 * bisect between the last n short of it and the first that reached it */
	lo = ct_stats_runs_needed(confidence) - 1;
	hi = lo + 1;
	while (hi < max && power(&m, hi, effect, confidence, trials, b, b + hi) < want) {
		lo = hi;
		hi = hi * 2 < max ? hi * 2 : max;
	}
	if (power(&m, hi, effect, confidence, trials, b, b + hi) < want) {
		rc = -ERANGE;
	} else {
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;

			if (power(&m, mid, effect, confidence, trials, b, b + mid) >= want)
				hi = mid;
			else
				lo = mid;
		}
		*n = hi;
	}
	free(b);
	free(m.res);
	return rc;
}
