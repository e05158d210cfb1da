/*
 * A log-linear latency histogram (fio's scheme): values below 128 have a
 * bucket each; above, every power of two is split into 64 linear
 * sub-buckets, so a bucket is at most 1/64 of its value wide and its
 * midpoint is within 0.8% of anything in it. Percentiles are clamped to
 * the observed minimum and maximum, so p0 and p100 are exact.
 *
 * Fixed size, no allocation: one per thread and class, merged at the end.
 */
#ifndef CONTEND_HIST_H
#define CONTEND_HIST_H

#include "contend/common.h"

#define CT_HIST_SUB_BITS 6
#define CT_HIST_SUB	 (1u << CT_HIST_SUB_BITS) /* 64 sub-buckets */
#define CT_HIST_LINEAR	 (2 * CT_HIST_SUB)	  /* 0..127 exact */
#define CT_HIST_MAX_BITS 48			  /* values < 2^48 (78 h in ns) */
#define CT_HIST_BUCKETS	 (CT_HIST_LINEAR + (CT_HIST_MAX_BITS - 7) * CT_HIST_SUB)

struct ct_hist {
	uint64_t count;
	uint64_t min, max;
	double sum;
	uint64_t b[CT_HIST_BUCKETS];
};

void ct_hist_reset(struct ct_hist *h);
void ct_hist_add(struct ct_hist *h, uint64_t v);
void ct_hist_merge(struct ct_hist *into, const struct ct_hist *h);
/* Nearest-rank percentile (p in [0, 100]) as the bucket's midpoint, clamped
 * to [min, max]; 0 when empty. */
uint64_t ct_hist_pct(const struct ct_hist *h, double p);
double ct_hist_mean(const struct ct_hist *h);

/* Bucket index of v and the bounds [lo, hi] of bucket i (for tests). */
unsigned ct_hist_index(uint64_t v);
void ct_hist_bounds(unsigned i, uint64_t *lo, uint64_t *hi);

#endif
