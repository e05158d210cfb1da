/*
 * Sorting and selecting for the statistics of a million values: a radix
 * sort of the doubles' bit patterns (qsort's callback per comparison made
 * contend stats several times slower than ministat), quickselect for the
 * medians that need no full order, mid-ranks by merging two sorted arrays,
 * and the k-th of the n^2 pairwise differences or Walsh averages by
 * counting, never building the set (Johnson and Mitzenmacher's idea,
 * with interpolation on the counts to narrow the bracket).
 */
#include "internal.h"
#include "contend/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RADIX_MIN     256
#define RADIX_BITS    11
#define RADIX_BUCKETS (1u << RADIX_BITS)
#define RADIX_PASSES  6 /* 6 * 11 >= 64 */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The bit pattern of a double as an unsigned key in the same order:
 * negatives have every bit flipped, positives only the sign bit. */
static uint64_t key_of(double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	return u >> 63 ? ~u : u | 1ULL << 63;
}

static double double_of(uint64_t k)
{
	uint64_t u = k >> 63 ? k & ~(1ULL << 63) : ~k;
	double v;

	memcpy(&v, &u, sizeof(v));
	return v;
}

void stats_sort(double *x, size_t n)
{
	uint64_t *k, *tmp, *src, *dst;
	uint32_t(*hist)[RADIX_BUCKETS];

	if (n < RADIX_MIN)
		goto fallback;
	k = malloc(2 * n * sizeof(*k));
	hist = calloc(RADIX_PASSES, sizeof(*hist));
	if (!k || !hist) {
		free(k);
		free(hist);
		goto fallback;
	}
	tmp = k + n;
	for (size_t i = 0; i < n; i++) {
		k[i] = key_of(x[i]);
		for (unsigned p = 0; p < RADIX_PASSES; p++)
			hist[p][k[i] >> (p * RADIX_BITS) & (RADIX_BUCKETS - 1)]++;
	}
	src = k;
	dst = tmp;
	for (unsigned p = 0; p < RADIX_PASSES; p++) {
		uint32_t sum = 0;
		unsigned shift = p * RADIX_BITS;

		/* a digit every key shares moves nothing */
		if (hist[p][src[0] >> shift & (RADIX_BUCKETS - 1)] == n)
			continue;
		for (unsigned b = 0; b < RADIX_BUCKETS; b++) {
			uint32_t c = hist[p][b];

			hist[p][b] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[hist[p][src[i] >> shift & (RADIX_BUCKETS - 1)]++] = src[i];
		uint64_t *t = src;

		src = dst;
		dst = t;
	}
	for (size_t i = 0; i < n; i++)
		x[i] = double_of(src[i]);
	free(k);
	free(hist);
	return;
fallback:
	qsort(x, n, sizeof(*x), cmp_double);
}

static void swap(double *a, double *b)
{
	double t = *a;

	*a = *b;
	*b = t;
}

double stats_select(double *x, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (hi > lo) {
		size_t mid = lo + (hi - lo) / 2, lt = lo, gt = hi, i = lo;
		double pivot;

		/* median of three, then a three-way partition: ties cannot
		 * make it quadratic */
		if (x[mid] < x[lo])
			swap(&x[mid], &x[lo]);
		if (x[hi] < x[lo])
			swap(&x[hi], &x[lo]);
		if (x[hi] < x[mid])
			swap(&x[hi], &x[mid]);
		pivot = x[mid];
		while (i <= gt) {
			if (x[i] < pivot)
				swap(&x[lt++], &x[i++]);
			else if (x[i] > pivot)
				swap(&x[i], &x[gt--]);
			else
				i++;
		}
		/* x[lo..lt-1] < pivot, x[lt..gt] == pivot, x[gt+1..hi] > pivot */
		if (k < lt)
			hi = lt - 1;
		else if (k > gt)
			lo = gt + 1;
		else
			return pivot;
	}
	return x[k];
}

double stats_median_inplace(double *x, size_t n)
{
	double hi = stats_select(x, n, n / 2), lo = hi;

	if (n % 2 == 0) {
		/* the largest of the lower half, which select left below */
		lo = x[0];
		for (size_t i = 1; i < n / 2; i++)
			if (x[i] > lo)
				lo = x[i];
	}
	return n % 2 ? hi : (lo + hi) / 2;
}

double ct_stats_median(double *x, size_t n)
{
	return n ? stats_median_inplace(x, n) : NAN;
}

void stats_rank_merge(const double *a, size_t na, const double *b, size_t nb, double *rank_sum,
		      double *ties)
{
	size_t i = 0, j = 0, pos = 0;

	*rank_sum = 0;
	*ties = 0;
	while (i < na || j < nb) {
		double v = j >= nb || (i < na && a[i] <= b[j]) ? a[i] : b[j];
		size_t ca = 0, cb = 0;
		double t;

		while (i < na && a[i] == v) {
			i++;
			ca++;
		}
		while (j < nb && b[j] == v) {
			j++;
			cb++;
		}
		t = (double)(ca + cb);
		*rank_sum += (double)ca * ((double)pos + (t + 1) / 2);
		*ties += t * t * t - t;
		pos += ca + cb;
	}
}

uint64_t stats_pairs_count(const struct stats_pairs *p)
{
	return p->walsh ? (uint64_t)p->na * (p->na + 1) / 2 : (uint64_t)p->na * p->nb;
}

static double pair_value(const struct stats_pairs *p, size_t i, size_t j)
{
	return p->walsh ? (p->a[i] + p->a[j]) / 2 : p->a[i] - p->b[j];
}

/* How many of the set are <= t. Differences fall as j rises, Walsh
 * averages rise; either way the boundary moves one way as i rises. */
static uint64_t count_le(const struct stats_pairs *p, double t)
{
	uint64_t c = 0;

	if (!p->walsh) {
		size_t j = 0;

		for (size_t i = 0; i < p->na; i++) {
			while (j < p->nb && pair_value(p, i, j) > t)
				j++;
			c += p->nb - j;
		}
		return c;
	}
	/* j is one past the last index whose average with a[i] is <= t */
	size_t j = p->na;

	for (size_t i = 0; i < p->na; i++) {
		while (j > i && pair_value(p, i, j - 1) > t)
			j--;
		if (j <= i)
			break;
		c += j - i;
	}
	return c;
}

/* The members in (lo, hi] into out, which holds cap; their number. */
static size_t collect(const struct stats_pairs *p, double lo, double hi, double *out, size_t cap)
{
	size_t n = 0;

	if (!p->walsh) {
		size_t js = 0, je = 0; /* [js, je): lo < value <= hi */

		for (size_t i = 0; i < p->na; i++) {
			while (js < p->nb && pair_value(p, i, js) > hi)
				js++;
			if (je < js)
				je = js;
			while (je < p->nb && pair_value(p, i, je) > lo)
				je++;
			for (size_t j = js; j < je && n < cap; j++)
				out[n++] = pair_value(p, i, j);
		}
		return n;
	}
	size_t jh = p->na, jl = p->na; /* (jl, jh] as one-past indices */

	for (size_t i = 0; i < p->na; i++) {
		while (jh > i && pair_value(p, i, jh - 1) > hi)
			jh--;
		while (jl > i && pair_value(p, i, jl - 1) > lo)
			jl--;
		for (size_t j = jl > i ? jl : i; j < jh && n < cap; j++)
			out[n++] = pair_value(p, i, j);
	}
	return n;
}

/* The smallest member above t, +inf when none. */
static double next_above(const struct stats_pairs *p, double t)
{
	double best = INFINITY;

	if (!p->walsh) {
		size_t j = 0;

		/* a[i] - b[j] falls as j rises: the last j above t */
		for (size_t i = 0; i < p->na; i++) {
			while (j < p->nb && pair_value(p, i, j) > t)
				j++;
			if (j > 0 && pair_value(p, i, j - 1) < best)
				best = pair_value(p, i, j - 1);
		}
		return best;
	}
	size_t j = p->na; /* one past the last index whose average is <= t */

	for (size_t i = 0; i < p->na; i++) {
		while (j > i && pair_value(p, i, j - 1) > t)
			j--;
		size_t first = j > i ? j : i;

		if (first < p->na && pair_value(p, i, first) < best)
			best = pair_value(p, i, first);
	}
	return best;
}

/* The value whose count, by linear interpolation between the bracket's
 * ends, is want. */
static double interpolate(double lo, double hi, uint64_t clo, uint64_t chi, double want)
{
	double f = (want - (double)clo) / (double)(chi - clo), mid;

	f = fmin(fmax(f, 0), 1);
	mid = lo + (hi - lo) * f;
	return isfinite(mid) ? mid : lo / 2 + hi / 2;
}

struct bracket {
	double lo, hi; /* count(lo) < target <= count(hi) */
	uint64_t clo, chi;
	uint64_t target; /* k + 1 */
};

/* Narrows the bracket with a count at t, when t is inside it. */
static void probe(const struct stats_pairs *p, struct bracket *b, double t)
{
	uint64_t c;

	if (!(t > b->lo && t < b->hi))
		return;
	c = count_le(p, t);
	if (c >= b->target) {
		b->hi = t;
		b->chi = c;
	} else {
		b->lo = t;
		b->clo = c;
	}
}

#define SAMPLE 16384

/* A first bracket from a sample of the set, with a fixed seed: the sample
 * quantiles four standard errors either side of the target's. */
static int sample_bracket(const struct stats_pairs *p, struct bracket *b)
{
	double *s = malloc(SAMPLE * sizeof(*s)), f, margin;
	uint64_t st = 0x9e3779b97f4a7c15ULL;
	long pos, lo, hi;

	if (!s)
		return -ENOMEM;
	for (size_t k = 0; k < SAMPLE; k++) {
		size_t i, j;

		/* splitmix64 */
		st += 0x9e3779b97f4a7c15ULL;
		uint64_t z = st;

		z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ z >> 27) * 0x94d049bb133111ebULL;
		z ^= z >> 31;
		i = (size_t)((z >> 32) % p->na);
		j = (size_t)((z & 0xffffffffu) % (p->walsh ? p->na : p->nb));
		if (p->walsh && j < i) {
			size_t t = i;

			i = j;
			j = t;
		}
		s[k] = pair_value(p, i, j);
	}
	stats_sort(s, SAMPLE);
	f = ((double)b->target - 0.5) / (double)stats_pairs_count(p);
	margin = 4 * sqrt(SAMPLE * f * (1 - f)) + 2;
	pos = (long)(f * SAMPLE);
	lo = pos - (long)margin;
	hi = pos + (long)margin;
	if (lo >= 0)
		probe(p, b, s[lo]);
	if (hi < SAMPLE)
		probe(p, b, s[hi]);
	free(s);
	return 0;
}

int stats_pairs_kth(const struct stats_pairs *p, uint64_t k, double *out)
{
	size_t limit = p->na + p->nb > 32768 ? p->na + p->nb : 32768, n;
	struct bracket b = {
		.hi = p->walsh ? p->a[p->na - 1] : p->a[p->na - 1] - p->b[0],
		.lo = nextafter(p->walsh ? p->a[0] : p->a[0] - p->b[p->nb - 1], -INFINITY),
		.chi = stats_pairs_count(p),
		.target = k + 1,
	};
	unsigned stalls = 0;
	bool bisect = false;
	double *buf;

	if (b.chi > limit && sample_bracket(p, &b))
		return -ENOMEM;
	while (b.chi - b.clo > limit) {
		uint64_t span = b.chi - b.clo,
			 delta = span / 32 > limit / 4 ? span / 32 : limit / 4;
		double mid = b.lo + (b.hi - b.lo) / 2;

		if (!(mid > b.lo && mid < b.hi)) {
			/* adjacent doubles: every member in (lo, hi] is hi */
			*out = b.hi;
			return 0;
		}
		if (stalls >= 2) {
			/* a tie group too large to split: step over the
			 * smallest value in the bracket, or stop on it */
			double v = next_above(p, b.lo);
			uint64_t c = count_le(p, v);

			if (c >= b.target) {
				*out = v;
				return 0;
			}
			b.lo = v;
			b.clo = c;
			stalls = 0;
			continue;
		}
		if (bisect) {
			probe(p, &b, mid);
		} else {
			/* aim either side of the target, to move both ends */
			probe(p, &b,
			      interpolate(b.lo, b.hi, b.clo, b.chi,
					  (double)b.target - (double)delta));
			probe(p, &b,
			      interpolate(b.lo, b.hi, b.clo, b.chi,
					  (double)b.target + (double)delta));
		}
		/* interpolation that does not halve the bracket gives way to
		 * one bisection */
		bisect = !bisect && b.chi - b.clo > span / 2;
		stalls = b.chi - b.clo > span / 2 ? stalls + 1 : 0;
	}
	buf = malloc((b.chi - b.clo ? b.chi - b.clo : 1) * sizeof(*buf));
	if (!buf)
		return -ENOMEM;
	n = collect(p, b.lo, b.hi, buf, b.chi - b.clo);
	*out = stats_select(buf, n, k - b.clo);
	free(buf);
	return 0;
}

int stats_pairs_next(const struct stats_pairs *p, double v, uint64_t k, double *out)
{
	*out = count_le(p, v) >= k + 2 ? v : next_above(p, v);
	return 0;
}
