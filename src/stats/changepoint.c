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
 *   edm-rank  the same split judged by the Mann-Whitney test between its
 *         sides (exact up to 50 a side): a spiking value is one rank.
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

/* The E-divisive split of x[0..m-1], judged by Student's t between its
 * sides or (rank) by the Mann-Whitney test. */
static int split_edm(const double *x, size_t m, size_t min, bool rank, struct seg_split *out)
{
	double sll = 0, srr = 0, slr = 0, best = -INFINITY;
	struct ct_stats_ttest tt;

	for (size_t i = 0; i < m; i++)
		for (size_t j = i + 1; j < m; j++)
			srr += fabs(x[i] - x[j]);
	/* move x[t - 1] from the right side to the left, t = 1..m-1 */
	for (size_t t = 1; t < m; t++) {
		double a = 0, b = 0, q, ml = (double)t, mr = (double)(m - t);

		for (size_t i = 0; i + 1 < t; i++)
			a += fabs(x[t - 1] - x[i]);
		for (size_t j = t; j < m; j++)
			b += fabs(x[t - 1] - x[j]);
		sll += a;
		slr += b - a;
		srr -= b;
		if (t < min || m - t < min || t < 2 || m - t < 2)
			continue;
		q = 2 * slr / (ml * mr) - sll / (ml * (ml - 1) / 2) - srr / (mr * (mr - 1) / 2);
		q *= ml * mr / (double)m;
		if (q > best) {
			best = q;
			out->at = t;
		}
	}
	if (best == -INFINITY)
		return -EINVAL;
	if (rank) {
		struct ct_stats_rank u;

		out->p = ct_stats_mann_whitney(x, out->at, x + out->at, m - out->at, CT_STATS_AUTO,
					       &u)
				 ? 1.0
				 : u.p;
	} else {
		out->p = ct_stats_student(x, out->at, x + out->at, m - out->at, &tt) ? 1.0 : tt.p;
	}
	return 0;
}

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
	    (method != CT_CP_RANK && method != CT_CP_EDM && method != CT_CP_EDM_RANK))
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
		rc = method == CT_CP_RANK
			     ? split_rank(x + lo, hi - lo, min, &s)
			     : split_edm(x + lo, hi - lo, min, method == CT_CP_EDM_RANK, &s);
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
