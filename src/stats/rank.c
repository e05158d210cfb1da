/*
 * The rank tests behind contend's verdicts: Mann-Whitney and Wilcoxon's
 * signed-rank test with their exact null distributions (counted here by
 * dynamic programming, as R's wilcox.test does up to 50 values a side),
 * their normal approximations with R's tie and continuity corrections,
 * and the Hodges-Lehmann shifts with the intervals inverted from the same
 * tests. Checked against R (tests/fixtures/stats/reference.R).
 */
#include "contend/stats.h"

#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

/* Upper or lower tail of a counted null distribution, R's two-sided rule:
 * above the centre take P(S >= s), else P(S <= s); p = min(1, 2 * that). */
static double exact_two_sided(const double *count, size_t max, double stat, double centre)
{
	double total = 0, tail = 0;
	size_t s = (size_t)llround(stat);

	for (size_t u = 0; u <= max; u++)
		total += count[u];
	if (stat > centre) {
		for (size_t u = s; u <= max; u++)
			tail += count[u];
	} else {
		for (size_t u = 0; u <= s; u++)
			tail += count[u];
	}
	tail /= total;
	return fmin(1, 2 * tail);
}

/* The null distribution of U with m x's and n y's: counts[u] = the number
 * of arrangements with U = u, U counting (x > y) pairs, u = 0..m*n; the
 * largest of i + j values is an x (adding j pairs) or a y. *out malloc'd. */
static int mw_counts_make(size_t m, size_t n, double **out)
{
	size_t umax = m * n, w = umax + 1;
	double *prev = calloc((n + 1) * w, sizeof(double));
	double *cur = calloc((n + 1) * w, sizeof(double));

	*out = NULL;
	if (!prev || !cur) {
		free(prev);
		free(cur);
		return -ENOMEM;
	}
	for (size_t j = 0; j <= n; j++)
		prev[j * w] = 1; /* i = 0: U = 0 whatever j */
	for (size_t i = 1; i <= m; i++) {
		double *tmp;

		memset(cur, 0, (n + 1) * w * sizeof(double));
		cur[0] = 1; /* j = 0 */
		for (size_t j = 1; j <= n; j++) {
			double *c = cur + j * w, *left = cur + (j - 1) * w, *up = prev + j * w;

			for (size_t k = 0; k <= i * j; k++)
				c[k] = left[k] + (k >= j ? up[k - j] : 0);
		}
		tmp = prev;
		prev = cur;
		cur = tmp;
	}
	memmove(prev, prev + n * w, w * sizeof(double));
	free(cur);
	*out = prev;
	return 0;
}

/* The tables made last, kept: a fleet's summary or a report judges many
 * pairs of sides of the same sizes, and one table of 50 against 50 is
 * 6 million additions. Guarded for callers on other threads. */
#define MW_CACHE 4
static struct {
	size_t m, n;
	double *c;
} mw_cache[MW_CACHE];
static unsigned mw_next;
static pthread_mutex_t mw_lock = PTHREAD_MUTEX_INITIALIZER;

/* mw_counts_make()'s table, from the cache when made before; *out
 * malloc'd (the caller's copy). */
static int mw_counts(size_t m, size_t n, double **out)
{
	size_t bytes = (m * n + 1) * sizeof(double);
	double *c = NULL;
	int rc = 0;

	*out = malloc(bytes);
	if (!*out)
		return -ENOMEM;
	pthread_mutex_lock(&mw_lock);
	for (unsigned i = 0; i < MW_CACHE && !c; i++)
		if (mw_cache[i].c && mw_cache[i].m == m && mw_cache[i].n == n)
			c = mw_cache[i].c;
	if (!c) {
		rc = mw_counts_make(m, n, &c);
		if (!rc) {
			free(mw_cache[mw_next].c);
			mw_cache[mw_next].m = m;
			mw_cache[mw_next].n = n;
			mw_cache[mw_next].c = c;
			mw_next = (mw_next + 1) % MW_CACHE;
		}
	}
	if (!rc)
		memcpy(*out, c, bytes);
	pthread_mutex_unlock(&mw_lock);
	if (rc) {
		free(*out);
		*out = NULL;
	}
	return rc;
}

int stats_mw_exact_table(size_t m, size_t n, double **out)
{
	double *c, *p;
	int rc = mw_counts(m, n, &c);

	*out = NULL;
	if (rc)
		return rc;
	p = malloc((m * n + 1) * sizeof(*p));
	if (!p) {
		free(c);
		return -ENOMEM;
	}
	for (size_t u = 0; u <= m * n; u++)
		p[u] = exact_two_sided(c, m * n, (double)u, (double)(m * n) / 2);
	free(c);
	*out = p;
	return 0;
}

static int mw_exact(size_t m, size_t n, double u, double *p)
{
	double *c;
	int rc = mw_counts(m, n, &c);

	if (rc)
		return rc;
	*p = exact_two_sided(c, m * n, u, (double)(m * n) / 2);
	free(c);
	return 0;
}

/* R's qwilcox(p, m, n): the smallest u with P(U <= u) >= p. */
static int mw_quantile(size_t m, size_t n, double p, size_t *q)
{
	double *c, total = 0, cum = 0;
	int rc = mw_counts(m, n, &c);

	if (rc)
		return rc;
	for (size_t u = 0; u <= m * n; u++)
		total += c[u];
	*q = m * n;
	for (size_t u = 0; u <= m * n; u++) {
		cum += c[u];
		if (cum / total >= p * (1 - 64 * DBL_EPSILON)) {
			*q = u;
			break;
		}
	}
	free(c);
	return 0;
}

/* The set's k-th and (k + 1)-th averaged when half, else its k-th. */
static int pairs_at(const struct stats_pairs *p, uint64_t k, bool half, double *out)
{
	double a, b;
	int rc = stats_pairs_kth(p, k, &a);

	if (rc || !half) {
		*out = a;
		return rc;
	}
	rc = stats_pairs_next(p, a, k, &b);
	*out = (a + b) / 2;
	return rc;
}

/* The median of the set and the interval between its q-th smallest and
 * q-th largest (1-based); unbounded when q is past the middle. */
static int shift_from_ranks(const struct stats_pairs *p, size_t q, struct ct_stats_shift *r)
{
	uint64_t n = stats_pairs_count(p);
	int rc = pairs_at(p, n % 2 ? n / 2 : n / 2 - 1, n % 2 == 0, &r->estimate);

	if (rc)
		return rc;
	if (q > n / 2 + 1) {
		r->low = -INFINITY;
		r->high = INFINITY;
		return 0;
	}
	rc = stats_pairs_kth(p, q - 1, &r->low);
	return rc ? rc : stats_pairs_kth(p, n - q, &r->high);
}

static int mw_sorted(const double *x, size_t nx, const double *y, size_t ny,
		     enum ct_stats_method method, struct ct_stats_rank *r);
static int sorted_pair(const double *x, size_t nx, const double *y, size_t ny, double **out);

int ct_stats_hodges_lehmann(const double *x, size_t nx, const double *y, size_t ny,
			    double confidence, struct ct_stats_shift *r)
{
	double *s, alpha;
	uint64_t mn = (uint64_t)nx * ny;
	size_t q;
	struct ct_stats_rank u;
	int rc;

	if (!x || !y || !r || nx < 1 || ny < 1 || !stats_conf_ok(confidence) ||
	    !stats_all_finite(x, nx) || !stats_all_finite(y, ny))
		return -EINVAL;
	rc = sorted_pair(x, nx, y, ny, &s);
	if (!rc)
		rc = mw_sorted(s, nx, s + nx, ny, CT_STATS_AUTO, &u);
	if (rc)
		goto out;
	memset(r, 0, sizeof(*r));
	r->p = u.p;
	r->exact = u.exact;
	alpha = 1 - confidence / 100;
	if (u.exact) {
		/* R's wilcox.test: qu = qwilcox(alpha / 2), [d(qu), d(mn - qu + 1)] */
		rc = mw_quantile(nx, ny, alpha / 2, &q);
		if (rc)
			goto out;
		if (!q)
			q = 1;
	} else {
		/* the normal approximation's rank of the bound */
		double z = gsl_cdf_ugaussian_Pinv(1 - alpha / 2);
		double k = (double)mn / 2 - z * sqrt((double)mn * (double)(nx + ny + 1) / 12);

		q = k < 1 ? 1 : (size_t)floor(k);
	}
	rc = shift_from_ranks(&(struct stats_pairs){ .a = s, .na = nx, .b = s + nx, .nb = ny }, q,
			      r);
out:
	free(s);
	return rc;
}

/* z-test with R's continuity correction: |z| shrunk by 0.5 towards 0. */
static double normal_two_sided(double z, double sigma)
{
	double c = z > 0 ? 0.5 : z < 0 ? -0.5 : 0;

	z = (z - c) / sigma;
	return 2 * fmin(gsl_cdf_ugaussian_P(z), gsl_cdf_ugaussian_Q(z));
}

/* The Mann-Whitney test of sorted x and y. */
static int mw_sorted(const double *x, size_t nx, const double *y, size_t ny,
		     enum ct_stats_method method, struct ct_stats_rank *r)
{
	double ties, sumx, dnx = (double)nx, dny = (double)ny, dn = (double)(nx + ny);
	bool exact;

	stats_rank_merge(x, nx, y, ny, &sumx, &ties);
	memset(r, 0, sizeof(*r));
	r->stat = sumx - dnx * (dnx + 1) / 2;
	exact = ties == 0 && nx <= CT_STATS_EXACT_MAX && ny <= CT_STATS_EXACT_MAX;
	if (method == CT_STATS_EXACT && !exact)
		return -EINVAL;
	if (ties == dn * dn * dn - dn) {
		/* every value the same: nothing tells the samples apart */
		r->p = 1;
		return 0;
	}
	if (method == CT_STATS_NORMAL)
		exact = false;
	r->exact = exact;
	if (exact)
		return mw_exact(nx, ny, r->stat, &r->p);

	double sigma = sqrt(dnx * dny / 12 * ((dn + 1) - ties / (dn * (dn - 1))));

	if (!(sigma > 0))
		return -EINVAL;
	r->p = normal_two_sided(r->stat - dnx * dny / 2, sigma);
	return 0;
}

/* Sorted copies of x and y, in one block *out (y's at nx); -ENOMEM. */
static int sorted_pair(const double *x, size_t nx, const double *y, size_t ny, double **out)
{
	double *s = malloc((nx + ny) * sizeof(*s));

	*out = s;
	if (!s)
		return -ENOMEM;
	memcpy(s, x, nx * sizeof(*s));
	memcpy(s + nx, y, ny * sizeof(*s));
	stats_sort(s, nx);
	stats_sort(s + nx, ny);
	return 0;
}

int ct_stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
			  enum ct_stats_method method, struct ct_stats_rank *r)
{
	double *s;
	int rc;

	if (!x || !y || !r || nx < 1 || ny < 1 || !stats_all_finite(x, nx) ||
	    !stats_all_finite(y, ny))
		return -EINVAL;
	rc = sorted_pair(x, nx, y, ny, &s);
	if (!rc)
		rc = mw_sorted(s, nx, s + nx, ny, method, r);
	free(s);
	return rc;
}

/* counts[v] = the number of subsets of {1..n} with rank sum v. *out malloc'd. */
static int sr_counts(size_t n, double **out)
{
	size_t vmax = n * (n + 1) / 2;
	double *c = calloc(vmax + 1, sizeof(double));

	*out = c;
	if (!c)
		return -ENOMEM;
	c[0] = 1;
	for (size_t k = 1; k <= n; k++)
		for (size_t s = k * (k + 1) / 2; s >= k; s--)
			c[s] += c[s - k];
	return 0;
}

static int sr_exact(size_t n, double v, double *p)
{
	double *c;
	int rc = sr_counts(n, &c);

	if (rc)
		return rc;
	*p = exact_two_sided(c, n * (n + 1) / 2, v, (double)(n * (n + 1) / 2) / 2);
	free(c);
	return 0;
}

/* R's qsignrank(p, n): the smallest v with P(V <= v) >= p. */
static int sr_quantile(size_t n, double p, size_t *q)
{
	size_t vmax = n * (n + 1) / 2;
	double *c, total = 0, cum = 0;
	int rc = sr_counts(n, &c);

	if (rc)
		return rc;
	for (size_t v = 0; v <= vmax; v++)
		total += c[v];
	*q = vmax;
	for (size_t v = 0; v <= vmax; v++) {
		cum += c[v];
		if (cum / total >= p * (1 - 64 * DBL_EPSILON)) {
			*q = v;
			break;
		}
	}
	free(c);
	return 0;
}

int ct_stats_hl_paired(const double *x, const double *y, size_t n, double confidence,
		       struct ct_stats_shift *r)
{
	struct ct_stats_rank w;
	double *d, alpha;
	size_t m = 0, q;
	uint64_t nw;
	int rc;

	if (!x || !y || !r || n < 1 || !stats_conf_ok(confidence) || !stats_all_finite(x, n) ||
	    !stats_all_finite(y, n))
		return -EINVAL;
	rc = ct_stats_signed_rank(x, y, n, CT_STATS_AUTO, &w);
	if (rc)
		return rc;
	d = malloc(n * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i]) /* zero differences are dropped, as by the test */
			d[m++] = x[i] - y[i];
	stats_sort(d, m);
	nw = (uint64_t)m * (m + 1) / 2;
	memset(r, 0, sizeof(*r));
	r->p = w.p;
	r->exact = w.exact;
	alpha = 1 - confidence / 100;
	if (w.exact) {
		/* R's wilcox.test: qu = qsignrank(alpha / 2), [w(qu), w(nw - qu + 1)] */
		rc = sr_quantile(m, alpha / 2, &q);
		if (rc)
			goto out;
		if (!q)
			q = 1;
	} else {
		double z = gsl_cdf_ugaussian_Pinv(1 - alpha / 2);
		double dm = (double)m;
		double k = (double)nw / 2 - z * sqrt(dm * (dm + 1) * (2 * dm + 1) / 24);

		q = k < 1 ? 1 : (size_t)floor(k);
	}
	/* the Walsh averages (d[i] + d[j]) / 2, i <= j, counted, never built */
	rc = shift_from_ranks(&(struct stats_pairs){ .a = d, .na = m, .walsh = true }, q, r);
out:
	free(d);
	return rc;
}

int ct_stats_signed_rank(const double *x, const double *y, size_t n, enum ct_stats_method method,
			 struct ct_stats_rank *r)
{
	double *d, ties, v, dm;
	size_t m, np = 0, nn = 0;
	bool exact;
	int rc;

	if (!x || !y || !r || n < 1 || !stats_all_finite(x, n) || !stats_all_finite(y, n))
		return -EINVAL;
	d = malloc(n * sizeof(*d));
	if (!d)
		return -ENOMEM;
	/* |d| of the positive differences from the front, of the negative
	 * from the back; zeros dropped. V is the positives' rank sum. */
	for (size_t i = 0; i < n; i++) {
		double di = x[i] - y[i];

		if (di > 0)
			d[np++] = di;
		else if (di < 0)
			d[n - 1 - nn++] = -di;
	}
	m = np + nn;
	rc = -EINVAL;
	if (!m)
		goto out;
	stats_sort(d, np);
	stats_sort(d + n - nn, nn);
	stats_rank_merge(d, np, d + n - nn, nn, &v, &ties);
	memset(r, 0, sizeof(*r));
	r->stat = v;
	r->n = m;
	dm = (double)m;

	exact = ties == 0 && m == n && m <= CT_STATS_EXACT_MAX;
	if (method == CT_STATS_EXACT && !exact)
		goto out;
	if (method == CT_STATS_NORMAL)
		exact = false;
	r->exact = exact;
	if (exact) {
		rc = sr_exact(m, v, &r->p);
	} else {
		double sigma = sqrt(dm * (dm + 1) * (2 * dm + 1) / 24 - ties / 48);

		if (!(sigma > 0))
			goto out;
		r->p = normal_two_sided(v - dm * (dm + 1) / 4, sigma);
		rc = 0;
	}
out:
	free(d);
	return rc;
}

struct ranked {
	double v;
	size_t at;
};

static int by_value(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->v, y = ((const struct ranked *)b)->v;

	return (x > y) - (x < y);
}

int ct_stats_ranks(const double *x, size_t n, double *r)
{
	struct ranked *s = malloc((n ? n : 1) * sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		s[i] = (struct ranked){ x[i], i };
	qsort(s, n, sizeof(*s), by_value);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && s[j + 1].v == s[i].v)
			j++;
		/* ties take the mean of the ranks they span (1-based) */
		for (size_t k = i; k <= j; k++)
			r[s[k].at] = (double)(i + j + 2) / 2;
		i = j + 1;
	}
	free(s);
	return 0;
}

int ct_stats_spearman_within(const double *x, const double *y, const size_t *sizes, size_t ngroups,
			     double *rho)
{
	size_t n = 0, at = 0;
	double *rx, *ry, sxy = 0, sxx = 0, syy = 0;
	int rc = 0;

	*rho = NAN;
	for (size_t g = 0; g < ngroups; g++)
		n += sizes[g];
	rx = malloc((n ? n : 1) * sizeof(*rx));
	ry = malloc((n ? n : 1) * sizeof(*ry));
	if (!rx || !ry) {
		free(rx);
		free(ry);
		return -ENOMEM;
	}
	for (size_t g = 0; g < ngroups && !rc; g++) {
		size_t m = sizes[g];

		rc = ct_stats_ranks(x + at, m, rx + at);
		if (!rc)
			rc = ct_stats_ranks(y + at, m, ry + at);
		/* centred within the group: only how a group's values move
		 * together counts, not where the groups lie */
		for (size_t i = at; !rc && i < at + m; i++) {
			double cx = rx[i] - (double)(m + 1) / 2, cy = ry[i] - (double)(m + 1) / 2;

			sxy += cx * cy;
			sxx += cx * cx;
			syy += cy * cy;
		}
		at += m;
	}
	free(rx);
	free(ry);
	if (!rc && sxx > 0 && syy > 0)
		*rho = sxy / sqrt(sxx * syy);
	return rc;
}
