/*
 * Two levels of repetition (Kalibera and Jones, "Rigorous benchmarking in
 * reasonable time", ISMM 2013): runs within sessions, sessions within a
 * config. A reboot, a new day, another hour move a session as a whole; a
 * verdict across sessions must take the session as the unit that varies,
 * or two sessions of the same kernel get a confident "worse". The rule
 * (docs/statistics.md, chosen by tests/sim/session-sim.c) and the variance
 * of each level, from which the sessions and runs an effect needs follow.
 */
#include "contend/stats.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The distinct sessions of x, in order of first appearance: each one's
 * first index into sorted order. *order is a permutation of 0..n-1 that
 * groups equal sessions, *starts[k] where session k begins in it
 * (*starts[nk] == n). malloc'd; -ENOMEM. */
static int group(const int64_t *session, size_t n, size_t **order, size_t **starts, size_t *nk)
{
	size_t *o = malloc((n ? n : 1) * sizeof(*o)), *s = malloc((n + 1) * sizeof(*s)), k = 0;
	bool *used = calloc(n ? n : 1, sizeof(*used));
	size_t at = 0;

	if (!o || !s || !used) {
		free(o);
		free(s);
		free(used);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if (used[i])
			continue;
		s[k++] = at;
		for (size_t j = i; j < n; j++)
			if (!used[j] && session[j] == session[i]) {
				used[j] = true;
				o[at++] = j;
			}
	}
	s[k] = n;
	free(used);
	*order = o;
	*starts = s;
	*nk = k;
	return 0;
}

/* The logs of the runs of session k, into buf (reordered). */
static size_t session_logs(const double *x, const size_t *order, const size_t *starts, size_t k,
			   double *buf)
{
	size_t m = 0;

	for (size_t i = starts[k]; i < starts[k + 1]; i++)
		buf[m++] = log(x[order[i]]);
	return m;
}

int ct_stats_levels(const double *x, const int64_t *session, size_t n, struct ct_stats_levels *l)
{
	size_t *order = NULL, *starts = NULL, k = 0;
	double *buf = NULL, grand = 0, ssw = 0, ssb = 0, sum_n2 = 0;
	int rc;

	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0) || !isfinite(x[i]))
			return -EINVAL;
	if (!n)
		return -EINVAL;
	rc = group(session, n, &order, &starts, &k);
	if (rc)
		return rc;
	buf = malloc(n * sizeof(*buf));
	if (!buf) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		grand += log(x[i]);
	grand /= (double)n;
	for (size_t s = 0; s < k; s++) {
		size_t m = session_logs(x, order, starts, s, buf);
		double mean = 0;

		for (size_t i = 0; i < m; i++)
			mean += buf[i];
		mean /= (double)m;
		for (size_t i = 0; i < m; i++)
			ssw += (buf[i] - mean) * (buf[i] - mean);
		ssb += (double)m * (mean - grand) * (mean - grand);
		sum_n2 += (double)m * (double)m;
	}
	l->nsessions = k;
	l->nruns = n;
	l->mean = grand;
	/* one-way random effects by the method of moments (ANOVA): MSW, and
	 * (MSB - MSW) / n0 with n0 the unbalanced design's mean session size */
	l->within_var = n > k ? ssw / (double)(n - k) : NAN;
	if (k >= 2 && n > k) {
		double msb = ssb / (double)(k - 1);
		double n0 = ((double)n - sum_n2 / (double)n) / (double)(k - 1);

		l->between_var = fmax(0, (msb - l->within_var) / n0);
	} else {
		l->between_var = NAN;
	}
	l->within_cov = sqrt(expm1(l->within_var));
	l->between_cov = sqrt(expm1(l->between_var));
out:
	free(order);
	free(starts);
	free(buf);
	return rc;
}

/* The summary of each session of x: the median of the logs of its runs,
 * which a disturbed run moves little. *out malloc'd, *k of them. */
static int summaries(const double *x, const int64_t *session, size_t n, double **out, size_t *k)
{
	size_t *order = NULL, *starts = NULL;
	double *buf = malloc((n ? n : 1) * sizeof(*buf)), *sum = NULL;
	int rc = buf ? group(session, n, &order, &starts, k) : -ENOMEM;

	if (!rc && !(sum = malloc((*k ? *k : 1) * sizeof(*sum))))
		rc = -ENOMEM;
	for (size_t s = 0; !rc && s < *k; s++)
		sum[s] = ct_stats_median(buf, session_logs(x, order, starts, s, buf));
	free(order);
	free(starts);
	free(buf);
	if (rc) {
		free(sum);
		return rc;
	}
	*out = sum;
	return 0;
}

static bool all_positive(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0) || !isfinite(x[i]))
			return false;
	return true;
}

/* The sessions decided c by t (on the logs, other - base): its interval
 * diff +- q se, the ratio's by exp. */
static void sessions_decide(struct ct_stats_comparison *c, const struct ct_stats_ttest *t,
			    size_t kb, size_t ko, double confidence, enum ct_stats_test by)
{
	double q = ct_stats_t_quantile(1 - (1 - confidence / 100) / 2, t->df);

	c->sessions_t = *t;
	c->nsessions_base = kb;
	c->nsessions_other = ko;
	c->shift.estimate = t->diff;
	c->shift.low = t->diff - q * t->se;
	c->shift.high = t->diff + q * t->se;
	c->shift.p = t->p;
	c->shift.exact = false;
	c->decided_by = by;
	c->p = t->p;
	c->higher = t->diff > 0;
	c->ratio_scale = true;
	c->effect = exp(c->shift.estimate);
	c->effect_low = exp(c->shift.low);
	c->effect_high = exp(c->shift.high);
	c->outcome = CT_OUTCOME_NO_DIFFERENCE;
}

int ct_stats_compare_sessions(const double *base, const int64_t *bsess, size_t nb,
			      const double *other, const int64_t *osess, size_t no,
			      double confidence, struct ct_stats_comparison *c)
{
	double *sb = NULL, *so = NULL;
	size_t kb = 0, ko = 0;
	struct ct_stats_ttest t;
	int rc;

	if (!all_positive(base, nb) || !all_positive(other, no))
		return -EINVAL;
	rc = summaries(base, bsess, nb, &sb, &kb);
	if (!rc)
		rc = summaries(other, osess, no, &so, &ko);
	if (!rc && (kb < CT_STATS_SESSIONS_MIN || ko < CT_STATS_SESSIONS_MIN))
		rc = -EINVAL;
	/* Welch's t on the sessions' summaries: the session is the unit */
	if (!rc)
		rc = ct_stats_welch(so, ko, sb, kb, &t);
	if (!rc) {
		sessions_decide(c, &t, kb, ko, confidence, CT_TEST_SESSIONS);
	}
	free(sb);
	free(so);
	return rc;
}

/* One side of the rule across sessions: the mean over its sessions of
 * each one's mean of logs, its within-session variance (pooled over its
 * sessions, df runs less sessions) and sum(1 / n_s) / k^2, which turns
 * that variance into the variance of the side's mean. */
struct across_side {
	size_t k;
	double mean, within, df, scale;
	double means_var; /* of the sessions' means, k >= 2 */
};

static int across_side(const double *x, const int64_t *session, size_t n, struct across_side *a)
{
	size_t *order = NULL, *starts = NULL, k = 0;
	double *buf = malloc((n ? n : 1) * sizeof(*buf)), ss = 0, sum = 0, sum2 = 0, inv = 0;
	int rc = buf ? group(session, n, &order, &starts, &k) : -ENOMEM;

	for (size_t s = 0; !rc && s < k; s++) {
		size_t m = session_logs(x, order, starts, s, buf);
		double mean = 0;

		for (size_t i = 0; i < m; i++)
			mean += buf[i];
		mean /= (double)m;
		for (size_t i = 0; i < m; i++)
			ss += (buf[i] - mean) * (buf[i] - mean);
		sum += mean;
		sum2 += mean * mean;
		inv += 1 / (double)m;
	}
	if (!rc && (!k || n <= k))
		rc = -EINVAL; /* no session of two runs: no within-session variance */
	if (!rc) {
		a->k = k;
		a->mean = sum / (double)k;
		a->df = (double)(n - k);
		a->within = ss / a->df;
		a->scale = inv / ((double)k * (double)k);
		a->means_var =
			k >= 2 ? fmax(0, (sum2 - sum * sum / (double)k) / (double)(k - 1)) : NAN;
	}
	free(order);
	free(starts);
	free(buf);
	return rc;
}

int ct_stats_between_add(struct ct_stats_between *b, const double *x, const int64_t *session,
			 size_t n)
{
	struct across_side a;
	int rc;

	if (!all_positive(x, n))
		return -EINVAL;
	rc = across_side(x, session, n, &a);
	if (rc == -EINVAL || (!rc && a.k < 2))
		return 0;
	if (rc)
		return rc;
	b->sum_v += (double)(a.k - 1) * a.means_var;
	b->sum_inv_n += (double)(a.k - 1) * a.scale * (double)a.k;
	b->sum_w += a.df * a.within;
	b->df += (double)(a.k - 1);
	b->within_df += a.df;
	b->nconfigs++;
	b->nsessions += a.k;
	b->var = b->sum_v / b->df;
	b->runs = b->df / b->sum_inv_n;
	b->within = b->sum_w / b->within_df;
	return 0;
}

double ct_stats_between_cov(const struct ct_stats_between *b)
{
	if (!(b->df > 0))
		return NAN;
	return sqrt(expm1(fmax(0, b->var - b->within / b->runs)));
}

int ct_stats_compare_across(const double *base, const int64_t *bsess, size_t nb,
			    const double *other, const int64_t *osess, size_t no,
			    const struct ct_stats_between *bw, double confidence,
			    struct ct_stats_comparison *c)
{
	struct across_side b, o;
	struct ct_stats_ttest t;
	double vb, vo, vs, v;
	int rc;

	if (!bw || !(bw->df > 0) || !(bw->var >= 0) || !all_positive(base, nb) ||
	    !all_positive(other, no))
		return -EINVAL;
	rc = across_side(base, bsess, nb, &b);
	if (!rc)
		rc = across_side(other, osess, no, &o);
	if (rc)
		return rc;
	/* the sessions' spread as the machine showed it (its sessions' own
	 * runs' noise, at bw->runs a session, included), and what a side's
	 * within-session part adds beyond that much noise */
	vs = bw->var * (1 / (double)b.k + 1 / (double)o.k);
	vb = fmax(0, b.within * b.scale - bw->within / bw->runs / (double)b.k);
	vo = fmax(0, o.within * o.scale - bw->within / bw->runs / (double)o.k);
	v = vb + vo + vs;
	if (!(v > 0))
		return -EINVAL;
	t.diff = o.mean - b.mean;
	t.se = sqrt(v);
	t.t = t.diff / t.se;
	/* the degrees of freedom of the machine's estimate, the fewest of the
	 * components': Satterthwaite's over all three, which the runs' many
	 * raise, called up to 6 to 9% of A/A pairs in tests/sim/session-sim.c */
	t.df = bw->df;
	t.p = 2 * gsl_cdf_tdist_Q(fabs(t.t), t.df);
	c->between = *bw;
	sessions_decide(c, &t, b.k, o.k, confidence, CT_TEST_ACROSS);
	return 0;
}

size_t ct_stats_sessions_needed(double session_var, double effect, double confidence, double power,
				size_t max)
{
	double d = fabs(log(effect));

	if (!(session_var >= 0) || !(d > 0) || !isfinite(d) || !(confidence > 0) ||
	    !(confidence < 100) || !(power > 0) || !(power < 1))
		return 0;
	for (size_t k = 2; k <= max; k++) {
		double df = 2 * (double)k - 2;
		double q = ct_stats_t_quantile(1 - (1 - confidence / 100) / 2, df) +
			   ct_stats_t_quantile(power, df);

		if (2 * q * q * session_var / (double)k <= d * d)
			return k;
	}
	return 0;
}
