/*
 * The arithmetic behind contend's verdicts. Everything here is checked
 * against R (tests/fixtures/stats/reference.R), so each rule follows what R
 * does and says so where R offers a choice. GSL supplies the t, normal and
 * binomial distributions. Here: summaries, outliers, the t tests, Yuen's,
 * Fieller's ratio, Holm; the rank tests are in rank.c.
 * GSL aborts on a domain error by default, so inputs are validated first.
 */
#include "contend/stats.h"

#include "internal.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

bool stats_all_finite(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return false;
	return true;
}

bool stats_conf_ok(double confidence)
{
	return isfinite(confidence) && confidence > 0 && confidence < 100;
}

/* Two-pass mean with the compensation term of Chan, Golub and LeVeque, so
 * 1e12-scale samples with a spread of 1 keep their digits. */
static void mean_var(const double *x, size_t n, double *mean, double *var)
{
	double sum = 0, ss = 0, comp = 0, m;

	for (size_t i = 0; i < n; i++)
		sum += x[i];
	m = sum / (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = x[i] - m;

		ss += d * d;
		comp += d;
	}
	m += comp / (double)n;
	*mean = m;
	*var = n > 1 ? (ss - comp * comp / (double)n) / (double)(n - 1) : 0;
	if (*var < 0)
		*var = 0;
}

static double sorted_median(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/*
 * The median of |s[i] - med| (the raw MAD) and their mean, s sorted. The
 * deviations of the values above med rise to the right of the split, those
 * of the others to the left: walking both runs outwards, smallest first,
 * reaches the middle deviation in n / 2 steps.
 */
static void sorted_mad(const double *s, size_t n, double med, double *mad, double *aad)
{
	size_t lo = 0, hi = n, l, r, want = n / 2;
	double sum = 0, prev = 0, cur = 0;

	for (size_t i = 0; i < n; i++)
		sum += fabs(s[i] - med);
	*aad = sum / (double)n;
	while (lo < hi) { /* the first value above med */
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid] > med)
			hi = mid;
		else
			lo = mid + 1;
	}
	l = lo; /* s[l - 1] is the next left, s[r] the next right */
	r = lo;
	for (size_t k = 0; k <= want; k++) {
		prev = cur;
		if (r >= n || (l > 0 && med - s[l - 1] <= s[r] - med))
			cur = med - s[--l];
		else
			cur = s[r++] - med;
	}
	*mad = n % 2 ? cur : (prev + cur) / 2;
}

/* Median, raw MAD and mean absolute deviation of x; scratch holds n. */
static void median_mad(const double *x, size_t n, double *scratch, double *med, double *mad,
		       double *aad)
{
	memcpy(scratch, x, n * sizeof(*x));
	stats_sort(scratch, n);
	*med = sorted_median(scratch, n);
	sorted_mad(scratch, n, *med, mad, aad);
}

/* Coverage of [x(k), x(n+1-k)] for the median: 1 - 2 P(B <= k-1). */
static double median_coverage(size_t n, size_t k)
{
	return 1 - 2 * gsl_cdf_binomial_P((unsigned)(k - 1), 0.5, (unsigned)n);
}

int ct_stats_summarize(const double *x, size_t n, double confidence, struct ct_stats_summary *s)
{
	double *sorted, var, tq, half;
	double want = confidence / 100;
	size_t k, best = 0;

	if (!x || !s || n < 2 || !stats_conf_ok(confidence) || !stats_all_finite(x, n) ||
	    (uint64_t)n > UINT32_MAX)
		return -EINVAL;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;

	memset(s, 0, sizeof(*s));
	s->n = n;
	s->confidence = confidence;
	mean_var(x, n, &s->mean, &var);
	s->sd = sqrt(var);
	memcpy(sorted, x, n * sizeof(*x));
	stats_sort(sorted, n);
	s->median = sorted_median(sorted, n);
	sorted_mad(sorted, n, s->median, &s->mad_raw, &s->aad_median);
	s->mad = s->mad_raw * 1.4826;
	s->cov = s->mean != 0 ? s->sd / s->mean : NAN;

	tq = gsl_cdf_tdist_Pinv(1 - (1 - want) / 2, (double)(n - 1));
	half = tq * s->sd / sqrt((double)n);
	s->ci_low = s->mean - half;
	s->ci_high = s->mean + half;

	s->min = sorted[0];
	s->max = sorted[n - 1];
	/* Coverage shrinks as k grows: find the narrowest interval that still
	 * covers, by bisection (best is the largest k that covers, 0 if none). */
	{
		size_t lo = 1, hi = (n + 1) / 2;

		while (lo <= hi) {
			k = lo + (hi - lo) / 2;
			if (median_coverage(n, k) >= want) {
				best = k;
				lo = k + 1;
			} else {
				hi = k - 1;
			}
		}
	}
	s->median_ci_ok = best > 0;
	if (!best)
		best = 1;
	s->median_ci_low = sorted[best - 1];
	s->median_ci_high = sorted[n - best];
	s->median_ci_level = 100 * median_coverage(n, best);
	free(sorted);
	return 0;
}

/* Flags by the modified z-score around med, MAD (raw) and AAD. */
static size_t flag(const double *x, size_t n, double med, double mad, double aad, bool *flags)
{
	/* 0.6745 * d / MAD > 3.5 is d / (MAD / 0.6745) > 3.5. */
	double scale = mad > 0 ? mad / 0.6745 : 1.253314 * aad;
	size_t count = 0;

	for (size_t i = 0; i < n; i++) {
		flags[i] = scale > 0 && fabs(x[i] - med) / scale > CT_STATS_OUTLIER_Z &&
			   fabs(x[i] - med) > CT_STATS_OUTLIER_FLOOR * fabs(med);
		count += flags[i];
	}
	return count;
}

int ct_stats_outliers(const double *x, size_t n, bool *flags, size_t *nflagged)
{
	double *scratch, med, mad, aad;
	size_t count;

	if (!x || !flags || n < 1 || !stats_all_finite(x, n))
		return -EINVAL;
	scratch = malloc(n * sizeof(*scratch));
	if (!scratch)
		return -ENOMEM;
	median_mad(x, n, scratch, &med, &mad, &aad);
	free(scratch);
	count = flag(x, n, med, mad, aad, flags);
	if (nflagged)
		*nflagged = count;
	return 0;
}

int ct_stats_outliers_of(const double *x, const struct ct_stats_summary *s, bool *flags,
			 size_t *nflagged)
{
	size_t count;

	if (!x || !s || !flags || s->n < 1)
		return -EINVAL;
	count = flag(x, s->n, s->median, s->mad_raw, s->aad_median, flags);
	if (nflagged)
		*nflagged = count;
	return 0;
}

static double two_sided_t(double t, double df)
{
	return 2 * gsl_cdf_tdist_Q(fabs(t), df);
}

static double welch_df(double vx, size_t nx, double vy, size_t ny)
{
	double a = vx / (double)nx, b = vy / (double)ny;

	return (a + b) * (a + b) / (a * a / (double)(nx - 1) + b * b / (double)(ny - 1));
}

int ct_stats_welch(const double *x, size_t nx, const double *y, size_t ny, struct ct_stats_ttest *r)
{
	double mx, vx, my, vy, se;

	if (!x || !y || !r || nx < 2 || ny < 2 || !stats_all_finite(x, nx) ||
	    !stats_all_finite(y, ny))
		return -EINVAL;
	mean_var(x, nx, &mx, &vx);
	mean_var(y, ny, &my, &vy);
	se = sqrt(vx / (double)nx + vy / (double)ny);
	if (!(se > 0))
		return -EINVAL;
	r->diff = mx - my;
	r->se = se;
	r->t = r->diff / se;
	r->df = welch_df(vx, nx, vy, ny);
	r->p = two_sided_t(r->t, r->df);
	return 0;
}

int ct_stats_student(const double *x, size_t nx, const double *y, size_t ny,
		     struct ct_stats_ttest *r)
{
	double mx, vx, my, vy, sp2, se;

	if (!x || !y || !r || nx < 2 || ny < 2 || !stats_all_finite(x, nx) ||
	    !stats_all_finite(y, ny))
		return -EINVAL;
	mean_var(x, nx, &mx, &vx);
	mean_var(y, ny, &my, &vy);
	r->df = (double)(nx + ny - 2);
	sp2 = ((double)(nx - 1) * vx + (double)(ny - 1) * vy) / r->df;
	se = sqrt(sp2 * (1.0 / (double)nx + 1.0 / (double)ny));
	if (!(se > 0))
		return -EINVAL;
	r->diff = mx - my;
	r->se = se;
	r->t = r->diff / se;
	r->p = two_sided_t(r->t, r->df);
	return 0;
}

int ct_stats_paired_t(const double *x, const double *y, size_t n, struct ct_stats_ttest *r)
{
	double *d, m, v, se;

	if (!x || !y || !r || n < 2 || !stats_all_finite(x, n) || !stats_all_finite(y, n))
		return -EINVAL;
	d = malloc(n * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		d[i] = x[i] - y[i];
	mean_var(d, n, &m, &v);
	free(d);
	se = sqrt(v / (double)n);
	if (!(se > 0))
		return -EINVAL;
	r->diff = m;
	r->se = se;
	r->t = m / se;
	r->df = (double)(n - 1);
	r->p = two_sided_t(r->t, r->df);
	return 0;
}

/* The trimmed mean and winsorized variance (n - 1 denominator) of x with
 * g values cut from each end; s is scratch of n. */
static void trim(const double *x, size_t n, size_t g, double *s, double *tm, double *wv)
{
	double m = 0, w = 0, lo, hi;
	size_t h = n - 2 * g;

	memcpy(s, x, n * sizeof(*s));
	stats_sort(s, n);
	for (size_t i = g; i < n - g; i++)
		m += s[i];
	*tm = m / (double)h;
	lo = s[g];
	hi = s[n - 1 - g];
	m = 0;
	for (size_t i = 0; i < n; i++)
		m += s[i] < lo ? lo : s[i] > hi ? hi : s[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double v = (s[i] < lo ? lo : s[i] > hi ? hi : s[i]) - m;

		w += v * v;
	}
	*wv = w / (double)(n - 1);
}

static size_t trim_count(size_t n, double gamma)
{
	return (size_t)floor(gamma * (double)n);
}

int ct_stats_yuen(const double *x, size_t nx, const double *y, size_t ny, double gamma,
		  struct ct_stats_ttest *r)
{
	size_t gx, gy, hx, hy;
	double tx, wx, ty, wy, dx, dy, *s;

	if (!x || !y || !r || nx < 2 || ny < 2 || !(gamma >= 0 && gamma < 0.5) ||
	    !stats_all_finite(x, nx) || !stats_all_finite(y, ny))
		return -EINVAL;
	gx = trim_count(nx, gamma);
	gy = trim_count(ny, gamma);
	hx = nx - 2 * gx;
	hy = ny - 2 * gy;
	if (hx < 2 || hy < 2)
		return -EINVAL;
	s = malloc((nx > ny ? nx : ny) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	trim(x, nx, gx, s, &tx, &wx);
	trim(y, ny, gy, s, &ty, &wy);
	free(s);
	dx = (double)(nx - 1) * wx / ((double)hx * (double)(hx - 1));
	dy = (double)(ny - 1) * wy / ((double)hy * (double)(hy - 1));
	if (!(dx + dy > 0))
		return -EINVAL;
	r->diff = tx - ty;
	r->se = sqrt(dx + dy);
	r->t = r->diff / r->se;
	r->df = (dx + dy) * (dx + dy) / (dx * dx / (double)(hx - 1) + dy * dy / (double)(hy - 1));
	r->p = two_sided_t(r->t, r->df);
	return 0;
}

int ct_stats_yuen_paired(const double *x, const double *y, size_t n, double gamma,
			 struct ct_stats_ttest *r)
{
	size_t g, h;
	double *d, *s, tm, wv;

	if (!x || !y || !r || n < 2 || !(gamma >= 0 && gamma < 0.5) || !stats_all_finite(x, n) ||
	    !stats_all_finite(y, n))
		return -EINVAL;
	g = trim_count(n, gamma);
	h = n - 2 * g;
	if (h < 2)
		return -EINVAL;
	d = malloc(2 * n * sizeof(*d));
	if (!d)
		return -ENOMEM;
	s = d + n;
	for (size_t i = 0; i < n; i++)
		d[i] = x[i] - y[i];
	trim(d, n, g, s, &tm, &wv);
	free(d);
	/* Tukey and McLaughlin: the trimmed mean's SE from the winsorized sd */
	r->se = sqrt(wv) / ((1 - 2 * (double)g / (double)n) * sqrt((double)n));
	if (!(r->se > 0))
		return -EINVAL;
	r->diff = tm;
	r->t = tm / r->se;
	r->df = (double)(h - 1);
	r->p = two_sided_t(r->t, r->df);
	return 0;
}

double ct_stats_t_quantile(double p, double df)
{
	return gsl_cdf_tdist_Pinv(p, df);
}

int ct_stats_fieller(const double *num, size_t nn, const double *den, size_t nd, double confidence,
		     struct ct_stats_ratio *r)
{
	double mx, vx, my, vy, v11, v22, t, g, q, disc;

	if (!num || !den || !r || nn < 2 || nd < 2 || !stats_conf_ok(confidence) ||
	    !stats_all_finite(num, nn) || !stats_all_finite(den, nd))
		return -EINVAL;
	mean_var(num, nn, &mx, &vx);
	mean_var(den, nd, &my, &vy);
	v11 = vx / (double)nn;
	v22 = vy / (double)nd;
	if (!(v11 + v22 > 0))
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->ratio = my != 0 ? mx / my : NAN;
	r->df = welch_df(vx, nn, vy, nd);
	r->low = -INFINITY;
	r->high = INFINITY;
	t = gsl_cdf_tdist_Pinv(1 - (1 - confidence / 100) / 2, r->df);
	/* g >= 1: the denominator's CI holds 0, so the set of ratios is not a
	 * finite interval. */
	if (my == 0)
		return 0;
	g = t * t * v22 / (my * my);
	if (g >= 1)
		return 0;
	q = r->ratio;
	disc = v11 + q * q * v22 - g * v11;
	disc = (t / fabs(my)) * sqrt(disc > 0 ? disc : 0);
	r->low = (q - disc) / (1 - g);
	r->high = (q + disc) / (1 - g);
	r->bounded = true;
	return 0;
}

struct pidx {
	double p;
	size_t idx;
};

static int cmp_pidx(const void *a, const void *b)
{
	const struct pidx *x = a, *y = b;

	if (x->p != y->p)
		return (x->p > y->p) - (x->p < y->p);
	return (x->idx > y->idx) - (x->idx < y->idx);
}

int ct_stats_holm(const double *p, size_t n, double *adj)
{
	struct pidx *s;
	double run = 0;

	if (!p || !adj || n < 1)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!(p[i] >= 0 && p[i] <= 1))
			return -EINVAL;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		s[i].p = p[i];
		s[i].idx = i;
	}
	qsort(s, n, sizeof(*s), cmp_pidx);
	/* Step-down: the i-th smallest is multiplied by n - i and the adjusted
	 * values are kept monotone, as R's p.adjust("holm"). */
	for (size_t i = 0; i < n; i++) {
		double a = fmin(1, (double)(n - i) * s[i].p);

		run = fmax(run, a);
		adj[s[i].idx] = run;
	}
	free(s);
	return 0;
}

int ct_stats_geomean(const double *x, size_t n, double *gm)
{
	double sum = 0;

	if (!x || !gm || n < 1)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0) || !isfinite(x[i]))
			return -EINVAL;
		sum += log(x[i]);
	}
	*gm = exp(sum / (double)n);
	return 0;
}
