/*
 * Change points in a series of sessions (docs/statistics.md, "Change
 * points over time"): binary segmentation, each segment split where a
 * statistic is largest and the split kept when its test says so, then
 * each half searched again. Two statistics, chosen between by
 * tests/sim/history-sim.c:
 *
 *   rank  Pettitt's (1979) rank statistic K = max |2 sum(r_i, i <= t) -
 *         t (m + 1)| over the segment's mid-ranks, p = 2 exp(-6 K^2 /
 *         (m^3 + m^2)) - distribution-free for exchangeable values, and
 *         one spiking value moves each partial sum by one rank at most;
 *   edm   the E-divisive means split (Matteson and James 2014, alpha 1:
 *         the energy distance of the two sides, times m1 m2 / m), judged
 *         by Student's t between the two sides, as Apache Otava does;
 *         when it keeps none, the split with an end (a stretch that moves
 *         and comes back: neither end of the segment tells it), its p
 *         times the segment's length;
 *   edm-rank  the same split judged by the Mann-Whitney test between its
 *         sides (exact up to 50 a side): a spiking value is one rank;
 *   edm-both  Student's t, the split kept only when the Mann-Whitney test
 *         agrees at ten times the level: the t's resolution with few
 *         values a side (ranks of 6 against 6 cannot go below p 0.0022),
 *         the ranks' indifference to one spiking value.
 */
#include "contend/stats.h"

#include "internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct seg_split {
	size_t at; /* first value of the right side */
	double p;
};

struct idx_val {
	double v;
	size_t i;
};

static int cmp_idx_val(const void *a, const void *b)
{
	const struct idx_val *x = a, *y = b;

	return (x->v > y->v) - (x->v < y->v);
}

/* Pettitt's split of x[0..m-1], each side at least min values. */
static int split_rank(const double *x, size_t m, size_t min, struct seg_split *out)
{
	struct idx_val *iv = malloc(m * sizeof(*iv));
	double *rank = malloc(m * sizeof(*rank));
	double sum = 0, best = -1, md = (double)m;

	if (!iv || !rank) {
		free(iv);
		free(rank);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m; i++)
		iv[i] = (struct idx_val){ x[i], i };
	qsort(iv, m, sizeof(*iv), cmp_idx_val);
	for (size_t i = 0; i < m;) {
		size_t j = i;

		while (j < m && iv[j].v == iv[i].v)
			j++;
		for (size_t k = i; k < j; k++)
			rank[iv[k].i] = (double)(i + j + 1) / 2.0; /* mid-rank, 1-based */
		i = j;
	}
	for (size_t t = 1; t < m; t++) {
		double u;

		sum += rank[t - 1];
		u = fabs(2 * sum - (double)t * (md + 1));
		if (t >= min && m - t >= min && u > best) {
			best = u;
			out->at = t;
		}
	}
	out->p = fmin(1.0, 2 * exp(-6 * best * best / (md * md * md + md * md)));
	free(iv);
	free(rank);
	return 0;
}

/* The p of x[0..a) against x[a..m) by the method's test; both: the t's,
 * kept only when the ranks agree at ten times the level alpha (1 when
 * they do not). */
static double judge(const double *x, size_t a, size_t m, enum ct_cp_method method, double alpha)
{
	struct ct_stats_ttest t;
	struct ct_stats_rank u;
	double pt = 1, pu = 1;

	if (method != CT_CP_EDM_RANK && !ct_stats_student(x, a, x + a, m - a, &t))
		pt = t.p;
	if (method != CT_CP_EDM && !ct_stats_mann_whitney(x, a, x + a, m - a, CT_STATS_AUTO, &u))
		pu = u.p;
	if (method == CT_CP_EDM)
		return pt;
	if (method == CT_CP_EDM_RANK)
		return pu;
	return pu < 10 * alpha ? pt : 1.0;
}

#define P(k, j) p[(k) * ((k) + 1) / 2 + (j)]

/*
 * The E-divisive statistic (Matteson and James 2014) between x[0..t) and
 * x[t..k), times m1 m2 / (m1 + m2), from p[k][j], the sum of |x_k - x_i|
 * over i < j <= k: its largest over every place t with the end k = m
 * (stretch false), or over every t and k (true), each side min values or
 * more. -INFINITY when no split has sides that large.
 */
static double edm_scan(const double *p, size_t m, size_t min, bool stretch, size_t *at, size_t *end)
{
	double wl = 0, best = -INFINITY;

	for (size_t t = 1; t + 1 < m; t++) {
		double between = 0, wr = 0, ml = (double)t;

		wl += P(t - 1, t - 1);
		for (size_t k = t; k < m; k++) {
			double mr = (double)(k + 1 - t), q;

			between += P(k, t);
			wr += P(k, k) - P(k, t);
			if (t < min || k + 1 - t < min || t < 2 || k + 1 - t < 2 ||
			    (!stretch && k + 1 < m))
				continue;
			q = 2 * between / (ml * mr) - wl / (ml * (ml - 1) / 2) -
			    wr / (mr * (mr - 1) / 2);
			q *= ml * mr / (ml + mr);
			if (q > best) {
				best = q;
				*at = t;
				*end = k + 1;
			}
		}
	}
	return best;
}

/*
 * The E-divisive split of x[0..m-1]: the split to the end, judged by the
 * method's test between its sides; when it is not kept, the split with an
 * end - a stretch that moves and comes back, which neither end of the
 * segment tells -, judged as the stretch x[t..k) against the rest of the
 * segment, both tests' p times m (Bonferroni's, for the end chosen among
 * m). O(m^2).
 */
static int split_edm(const double *x, size_t m, size_t min, enum ct_cp_method method, double alpha,
		     struct seg_split *out)
{
	double *p = malloc((m * (m + 1) / 2) * sizeof(*p));
	size_t at = 0, end = 0;

	if (!p)
		return -ENOMEM;
	for (size_t k = 0; k < m; k++) {
		P(k, 0) = 0;
		for (size_t j = 1; j <= k; j++)
			P(k, j) = P(k, j - 1) + fabs(x[k] - x[j - 1]);
	}
	if (edm_scan(p, m, min, false, &out->at, &end) == -INFINITY) {
		free(p);
		return -EINVAL;
	}
	out->p = judge(x, out->at, m, method, alpha);
	if (!(out->p < alpha)) {
		edm_scan(p, m, min, true, &at, &end);
		/* the stretch x[at..end) against the rest, reusing p */
		memcpy(p, x + at, (end - at) * sizeof(*p));
		memcpy(p + (end - at), x, at * sizeof(*p));
		memcpy(p + end, x + end, (m - end) * sizeof(*p));
		out->at = at;
		out->p = fmin(1.0, judge(p, end - at, m, method, alpha / (double)m) * (double)m);
	}
	free(p);
	return 0;
}
#undef P

static int cmp_size(const void *a, const void *b)
{
	const struct ct_cp *x = a, *y = b;

	return (x->at > y->at) - (x->at < y->at);
}

int ct_changepoints(const double *x, size_t n, enum ct_cp_method method, double alpha, size_t min,
		    struct ct_cp **out, size_t *nout)
{
	size_t(*seg)[2] = NULL, nseg = 0, cap = 0;
	struct ct_cp *cp = NULL;
	size_t ncp = 0;
	int rc = 0;

	*out = NULL;
	*nout = 0;
	if (!x || min < 2 || !(alpha > 0 && alpha < 1) || !stats_all_finite(x, n) ||
	    (method != CT_CP_RANK && method != CT_CP_EDM && method != CT_CP_EDM_RANK &&
	     method != CT_CP_EDM_BOTH))
		return -EINVAL;
	if (n < 2 * min)
		return 0;
	cap = n / min + 1;
	seg = malloc(cap * sizeof(*seg));
	cp = malloc(cap * sizeof(*cp));
	if (!seg || !cp) {
		rc = -ENOMEM;
		goto fail;
	}
	seg[nseg][0] = 0;
	seg[nseg++][1] = n;
	while (nseg) {
		size_t lo = seg[nseg - 1][0], hi = seg[nseg - 1][1];
		struct seg_split s = { 0, 1.0 };

		nseg--;
		if (hi - lo < 2 * min)
			continue;
		rc = method == CT_CP_RANK ? split_rank(x + lo, hi - lo, min, &s)
					  : split_edm(x + lo, hi - lo, min, method, alpha, &s);
		if (rc == -EINVAL) {
			rc = 0;
			continue;
		}
		if (rc)
			goto fail;
		if (!(s.p < alpha))
			continue;
		cp[ncp++] = (struct ct_cp){ lo + s.at, s.p };
		seg[nseg][0] = lo;
		seg[nseg++][1] = lo + s.at;
		seg[nseg][0] = lo + s.at;
		seg[nseg++][1] = hi;
	}
	free(seg);
	qsort(cp, ncp, sizeof(*cp), cmp_size);
	if (!ncp) {
		free(cp);
		cp = NULL;
	}
	*out = cp;
	*nout = ncp;
	return 0;
fail:
	free(seg);
	free(cp);
	return rc;
}
