/*
 * Log-linear histogram; see include/contend/hist.h for the scheme.
 */
#include "contend/hist.h"

#include <math.h>
#include <string.h>

void ct_hist_reset(struct ct_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned ct_hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < CT_HIST_LINEAR)
		return (unsigned)v;
	msb = 63 - (unsigned)__builtin_clzll(v);
	if (msb >= CT_HIST_MAX_BITS)
		return CT_HIST_BUCKETS - 1;
	shift = msb - CT_HIST_SUB_BITS; /* v >> shift is in [64, 127] */
	return CT_HIST_LINEAR + (msb - 7) * CT_HIST_SUB + (unsigned)((v >> shift) - CT_HIST_SUB);
}

void ct_hist_bounds(unsigned i, uint64_t *lo, uint64_t *hi)
{
	unsigned msb, shift;
	uint64_t sub;

	if (i < CT_HIST_LINEAR) {
		*lo = *hi = i;
		return;
	}
	msb = 7 + (i - CT_HIST_LINEAR) / CT_HIST_SUB;
	sub = CT_HIST_SUB + (i - CT_HIST_LINEAR) % CT_HIST_SUB;
	shift = msb - CT_HIST_SUB_BITS;
	*lo = sub << shift;
	*hi = i == CT_HIST_BUCKETS - 1 ? UINT64_MAX : ((sub + 1) << shift) - 1;
}

void ct_hist_add(struct ct_hist *h, uint64_t v)
{
	h->b[ct_hist_index(v)]++;
	h->count++;
	h->sum += (double)v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void ct_hist_merge(struct ct_hist *into, const struct ct_hist *h)
{
	if (!h->count)
		return;
	for (unsigned i = 0; i < CT_HIST_BUCKETS; i++)
		into->b[i] += h->b[i];
	into->count += h->count;
	into->sum += h->sum;
	if (h->min < into->min)
		into->min = h->min;
	if (h->max > into->max)
		into->max = h->max;
}

uint64_t ct_hist_pct(const struct ct_hist *h, double p)
{
	uint64_t rank, seen = 0, lo, hi, mid;

	if (!h->count)
		return 0;
	if (p <= 0)
		return h->min;
	if (p >= 100)
		return h->max;
	/* nearest rank: the smallest value with at least p% at or below it */
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < CT_HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen < rank)
			continue;
		ct_hist_bounds(i, &lo, &hi);
		mid = lo + (hi - lo) / 2;
		if (mid < h->min)
			mid = h->min;
		if (mid > h->max)
			mid = h->max;
		return mid;
	}
	return h->max;
}

double ct_hist_mean(const struct ct_hist *h)
{
	return h->count ? h->sum / (double)h->count : 0;
}
