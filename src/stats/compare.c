/*
 * The tests of one comparison and the decision across a family of them:
 * which test decides (the paired t when the schedule paired the values,
 * else Welch), Holm's adjustment, and the outcome. Numbers in, numbers
 * out; the words a reader sees are the report's.
 */
#include "contend/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void ct_stats_compare(const double *base, size_t nb, const double *other, size_t no,
		      const double *pbase, const double *pother, size_t npairs, double confidence,
		      struct ct_stats_comparison *c)
{
	memset(c, 0, sizeof(*c));
	c->t.diff = c->t.t = c->t.df = c->t.p = NAN;
	c->pt = c->t;
	c->u.stat = c->u.p = c->w.stat = c->w.p = NAN;
	c->p = c->p_adj = NAN;
	c->decided_by = CT_TEST_NONE;
	c->outcome = CT_OUTCOME_NOT_ENOUGH;
	if (nb >= 2 && no >= 2) {
		struct ct_stats_ttest t;

		struct ct_stats_rank u;

		c->have_t = !ct_stats_welch(base, nb, other, no, &t);
		if (c->have_t) {
			c->t = t;
			c->decided_by = CT_TEST_WELCH;
			c->p = c->t.p;
		} else {
			c->outcome = CT_OUTCOME_NO_SPREAD;
		}
		c->have_u = !ct_stats_mann_whitney(base, nb, other, no, CT_STATS_AUTO, &u);
		if (c->have_u)
			c->u = u;
		c->have_ratio = !ct_stats_fieller(other, no, base, nb, confidence, &c->ratio);
	}
	if (npairs >= 2 && pbase && pother) {
		c->npairs = npairs;
		struct ct_stats_ttest pt;
		struct ct_stats_rank w;

		c->have_pt = !ct_stats_paired_t(pbase, pother, npairs, &pt);
		c->have_w = !ct_stats_signed_rank(pbase, pother, npairs, CT_STATS_AUTO, &w);
		if (c->have_pt)
			c->pt = pt;
		if (c->have_w)
			c->w = w;
		if (c->have_pt) {
			/* the schedule paired the runs: the paired test decides */
			c->decided_by = CT_TEST_PAIRED_T;
			c->p = c->pt.p;
		}
	}
	if (c->decided_by != CT_TEST_NONE)
		c->outcome = CT_OUTCOME_NO_DIFFERENCE;
}

static void decide(struct ct_stats_comparison *c, double p_adj, double confidence)
{
	double diff = c->decided_by == CT_TEST_PAIRED_T ? c->pt.diff : c->t.diff; /* base - other */

	c->p_adj = p_adj;
	if (p_adj >= 1 - confidence / 100)
		c->outcome = CT_OUTCOME_NO_DIFFERENCE;
	else
		c->outcome = diff > 0 ? CT_OUTCOME_LOWER : CT_OUTCOME_HIGHER;
}

int ct_stats_decide(struct ct_stats_comparison *const *c, size_t n, double confidence)
{
	size_t m = n ? n : 1, np = 0;
	double *p = malloc(m * sizeof(*p)), *adj = malloc(m * sizeof(*adj));
	size_t *idx = malloc(m * sizeof(*idx));
	int rc = 0;

	if (!p || !adj || !idx) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (c[i]->decided_by != CT_TEST_NONE) {
			p[np] = c[i]->p;
			idx[np++] = i;
		}
	if (np && ct_stats_holm(p, np, adj)) {
		rc = -EINVAL;
		goto out;
	}
	for (size_t k = 0; k < np; k++)
		decide(c[idx[k]], adj[k], confidence);
out:
	free(p);
	free(adj);
	free(idx);
	return rc;
}
