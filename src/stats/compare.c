/*
 * The verdict rule (docs/statistics.md, chosen by the simulation study in
 * tests/sim): runs paired by the schedule's blocks, when there are enough
 * of them, by Wilcoxon's signed-rank test; else the Mann-Whitney test; each
 * with its Hodges-Lehmann shift of the logs and the interval inverted from
 * the test. Rank tests survive a disturbed run, are exact where they can
 * be, and keep their false-verdict rate whatever the distribution. Welch's
 * t, the paired t and Fieller's interval are computed to be printed beside.
 * Numbers in, numbers out; the words a reader sees are the report's.
 */
#include "contend/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The smallest n a side whose exact rank test can reach p < alpha: the
 * least p of Mann-Whitney with m and n values is 2 / C(m + n, m). */
static bool rank_can_decide(size_t m, size_t n, double alpha)
{
	double lc = lgamma((double)(m + n + 1)) - lgamma((double)(m + 1)) - lgamma((double)(n + 1));

	return m >= 2 && n >= 2 && log(2) - lc < log(alpha);
}

size_t ct_stats_runs_needed(double confidence)
{
	size_t k = 2;

	while (!rank_can_decide(k, k, 1 - confidence / 100) && k < 1000)
		k++;
	return k;
}

static bool positive(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return false;
	return true;
}

/* The tests printed beside the verdict: Welch, U, Fieller; paired t and
 * signed-rank when paired. */
static void classic_tests(struct ct_stats_comparison *c, const double *base, size_t nb,
			  const double *other, size_t no, const double *pbase, const double *pother,
			  size_t npairs, double confidence)
{
	struct ct_stats_ttest t;
	struct ct_stats_rank u;

	if (nb >= 2 && no >= 2) {
		c->have_t = !ct_stats_welch(base, nb, other, no, &t);
		if (c->have_t)
			c->t = t;
		c->have_u = !ct_stats_mann_whitney(base, nb, other, no, CT_STATS_AUTO, &u);
		if (c->have_u)
			c->u = u;
		c->have_ratio = !ct_stats_fieller(other, no, base, nb, confidence, &c->ratio);
	}
	if (npairs >= 2 && pbase && pother) {
		c->npairs = npairs;
		c->have_pt = !ct_stats_paired_t(pbase, pother, npairs, &t);
		if (c->have_pt)
			c->pt = t;
		c->have_w = !ct_stats_signed_rank(pbase, pother, npairs, CT_STATS_AUTO, &u);
		if (c->have_w)
			c->w = u;
	}
}

/* The effect of the shift: a ratio other/base from logs, else a
 * difference. */
static void set_effect(struct ct_stats_comparison *c, bool logs)
{
	c->ratio_scale = logs;
	c->effect = logs ? exp(c->shift.estimate) : c->shift.estimate;
	c->effect_low = logs ? exp(c->shift.low) : c->shift.low;
	c->effect_high = logs ? exp(c->shift.high) : c->shift.high;
}

/* The logs of x (when logs), else x itself, in out (malloc'd). */
static double *scale(const double *x, size_t n, bool logs)
{
	double *out = malloc((n ? n : 1) * sizeof(*out));

	for (size_t i = 0; out && i < n; i++)
		out[i] = logs ? log(x[i]) : x[i];
	return out;
}

/* Paired by block: Wilcoxon's signed-rank test, the paired Hodges-Lehmann
 * shift of other against base; 0 when it decided. */
static int paired_rule(struct ct_stats_comparison *c, const double *pbase, const double *pother,
		       size_t npairs, double confidence)
{
	bool logs = positive(pbase, npairs) && positive(pother, npairs);
	double *b, *o;
	int rc;

	if (npairs < CT_STATS_PAIRED_MIN)
		return -EINVAL;
	b = scale(pbase, npairs, logs);
	o = scale(pother, npairs, logs);
	rc = b && o ? ct_stats_hl_paired(o, b, npairs, confidence, &c->shift) : -ENOMEM;
	/* the signed-rank test printed is the one that decides: of the logs */
	if (!rc)
		c->have_w = !ct_stats_signed_rank(b, o, npairs, CT_STATS_AUTO, &c->w);
	free(b);
	free(o);
	if (rc)
		return rc;
	c->decided_by = CT_TEST_SIGNED_RANK;
	c->p = c->shift.p;
	c->higher = c->shift.estimate > 0;
	set_effect(c, logs);
	return 0;
}

/* Independent samples: Mann-Whitney, the Hodges-Lehmann shift (of the
 * logs when every value is positive) with its inverted interval. */
static int rank_rule(struct ct_stats_comparison *c, const double *base, size_t nb,
		     const double *other, size_t no, double confidence)
{
	bool logs = positive(base, nb) && positive(other, no);
	double *b, *o;
	int rc;

	if (!c->have_u || !rank_can_decide(nb, no, 1 - confidence / 100))
		return -EINVAL;
	b = scale(base, nb, logs);
	o = scale(other, no, logs);
	rc = b && o ? ct_stats_hodges_lehmann(o, no, b, nb, confidence, &c->shift) : -ENOMEM;
	free(b);
	free(o);
	if (rc)
		return rc;
	c->decided_by = CT_TEST_RANK;
	c->p = c->u.p;
	/* U counts base > other: under half of the pairs, other is higher */
	c->higher = c->u.stat < (double)nb * (double)no / 2;
	set_effect(c, logs);
	return 0;
}

void ct_stats_compare(const double *base, size_t nb, const double *other, size_t no,
		      const double *pbase, const double *pother, size_t npairs, double confidence,
		      struct ct_stats_comparison *c)
{
	memset(c, 0, sizeof(*c));
	c->t.diff = c->t.t = c->t.df = c->t.p = c->t.se = NAN;
	c->pt = c->t;
	c->u.stat = c->u.p = c->w.stat = c->w.p = NAN;
	c->p = c->p_adj = c->effect = c->effect_low = c->effect_high = NAN;
	c->decided_by = CT_TEST_NONE;
	c->outcome = CT_OUTCOME_NOT_ENOUGH;
	c->need = ct_stats_runs_needed(confidence);
	classic_tests(c, base, nb, other, no, pbase, pother, npairs, confidence);
	/* the rule: the paired test when the schedule paired enough runs,
	 * else the rank test when the runs are enough for it to decide */
	if (npairs && pbase && pother && !paired_rule(c, pbase, pother, npairs, confidence))
		c->outcome = CT_OUTCOME_NO_DIFFERENCE;
	else if (!rank_rule(c, base, nb, other, no, confidence))
		c->outcome = CT_OUTCOME_NO_DIFFERENCE;
	else if (nb >= c->need && no >= c->need)
		c->outcome = CT_OUTCOME_NO_SPREAD; /* enough runs, every value tied */
}

static void decide(struct ct_stats_comparison *c, double p_adj, double confidence)
{
	c->p_adj = p_adj;
	if (p_adj >= (100 - confidence) / 100)
		c->outcome = CT_OUTCOME_NO_DIFFERENCE;
	else
		c->outcome = c->higher ? CT_OUTCOME_HIGHER : CT_OUTCOME_LOWER;
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
