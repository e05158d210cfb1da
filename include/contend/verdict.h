/*
 * One comparison of a config's runs with the baseline's (DESIGN.md section
 * 5): Welch's t with the exact Mann-Whitney U beside it, the ratio of means
 * with Fieller's interval, and - only when the schedule paired the runs
 * (interleaved blocks) - the paired t and Wilcoxon signed-rank tests, which
 * then decide. The verdict word is given after Holm's adjustment across the
 * loads of one comparison, by the caller.
 */
#ifndef CONTEND_VERDICT_H
#define CONTEND_VERDICT_H

#include "contend/common.h"
#include "contend/run.h"
#include "contend/stats.h"

#include <stdio.h>

struct ct_verdict {
	bool ok;		 /* the deciding test could be run */
	bool higher_better;	 /* tps: more is better; Time: less is */
	struct ct_stats_ttest t; /* Welch, baseline - other */
	struct ct_stats_rank u;
	struct ct_stats_ratio ratio; /* mean(other) / mean(baseline) */
	bool have_ratio, have_u;
	/* paired analysis, over npairs blocks */
	size_t npairs;
	struct ct_stats_ttest pt;
	struct ct_stats_rank w;
	bool have_pt, have_w;
	const char *test; /* the test whose p decides: "Welch" or "paired t" */
	double p;	  /* its p, before Holm */
	double holm_p;
	const char *word; /* "better", "worse", "no significant difference", or why no test */
};

/*
 * Runs the tests. base/other: the ok values of each side. pbase/pother:
 * npairs values paired by the schedule (NULL/0 when it did not pair them).
 */
void ct_verdict_tests(struct ct_verdict *v, const double *base, size_t nb, const double *other,
		      size_t no, const double *pbase, const double *pother, size_t npairs,
		      bool higher_better, double confidence);
/* Pairs the ok runs of a and b that share a seq (the block of an
 * interleaved schedule), writing their values to pa and pb (room for
 * min(na, nb) each). Returns the number of pairs. */
size_t ct_verdict_pair(const struct ct_run *a, size_t na, const struct ct_run *b, size_t nb,
		       double *pa, double *pb);

/* Holm-adjusts the p of every verdict that ran its test - v[0], v[stride],
 * ... v[(n-1) * stride], the loads of one comparison - and sets holm_p and
 * the word of each. -ENOMEM, or -EINVAL for a p outside [0, 1]. */
int ct_verdict_holm(struct ct_verdict *v, size_t n, size_t stride, double confidence) CT_WUR;
/* True when other is significantly worse than the baseline. */
bool ct_verdict_worse(const struct ct_verdict *v);

/* "load  other vs base: +10.6% [-4.4%, +26.3%]  p=0.14 (Welch), 0.13 (U) ..." */
void ct_verdict_print(FILE *f, const char *load, const char *label, const char *base,
		      const struct ct_verdict *v);

#endif
