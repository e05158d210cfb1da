/*
 * What stats.c, rank.c and compare.c share and nobody else needs: input
 * checks, sorting and selecting doubles fast enough for a million values, and the order
 * statistics of the implicit sets of pairwise differences and Walsh
 * averages the Hodges-Lehmann estimates need (select.c).
 */
#ifndef CONTEND_STATS_INTERNAL_H
#define CONTEND_STATS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every value finite; a confidence level in (0, 100), as on the command
 * line (stats.c). */
bool stats_all_finite(const double *x, size_t n);
bool stats_conf_ok(double confidence);

/* Sorts x ascending (x holds no NaN): a radix sort above a few hundred
 * values, falling back to qsort when it cannot allocate. */
void stats_sort(double *x, size_t n);

/* The k-th smallest (0-based, k < n) of x, reordering x. */
double stats_select(double *x, size_t n, size_t k);

/* The median of x, reordering x; n >= 1. */
double stats_median_inplace(double *x, size_t n);

/*
 * a and b sorted: the sum of the mid-ranks (1-based, ties averaged) the
 * values of a take among the na + nb values, and sum(t^3 - t) over the
 * groups of t tied values.
 */
void stats_rank_merge(const double *a, size_t na, const double *b, size_t nb, double *rank_sum,
		      double *ties);

/* The exact two-sided p of every U = 0..m*n of the Mann-Whitney test of
 * m against n values without ties, as ct_stats_mann_whitney gives it;
 * *out malloc'd. */
int stats_mw_exact_table(size_t m, size_t n, double **out);

/*
 * An implicit sorted set of pairs: the differences a[i] - b[j] of two
 * sorted arrays (walsh false; na * nb of them), or the Walsh averages
 * (a[i] + a[j]) / 2, i <= j, of one sorted array (walsh true; b unused).
 */
struct stats_pairs {
	const double *a, *b;
	size_t na, nb;
	bool walsh;
};

uint64_t stats_pairs_count(const struct stats_pairs *p);

/* The k-th smallest (0-based) of the set, without building it: counting
 * passes narrow a value bracket until it holds few enough to collect and
 * select. -ENOMEM, else 0. */
int stats_pairs_kth(const struct stats_pairs *p, uint64_t k, double *out);

/* The (k + 1)-th smallest, given v, the k-th. */
int stats_pairs_next(const struct stats_pairs *p, double v, uint64_t k, double *out);

#endif
