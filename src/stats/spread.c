/*
 * How far a machine's sessions move apart as time passes (docs/statistics.md,
 * "The spread at the comparison's gap"). Sessions taken back to back see the
 * same hour of the host; their spread says how far a session moves in two
 * minutes, not in the hour or the reboot between kernel A and kernel B. So
 * the spread a one-session-a-side comparison is weighed against comes from
 * pairs of sessions of one config at least as far apart as the two compared
 * (and in different boots when a reboot lies between them): half the mean
 * squared difference of their means of logs, the semivariogram past the
 * comparison's gap. Chosen by tests/sim/drift-sim.c.
 */
#include "contend/stats.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int ct_stats_sitting_of(const double *x, size_t n, struct ct_stats_sitting *s)
{
	double sum = 0, ss = 0;

	if (!n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0) || !isfinite(x[i]))
			return -EINVAL;
		sum += log(x[i]);
	}
	s->n = n;
	s->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (log(x[i]) - s->mean) * (log(x[i]) - s->mean);
	s->ss = ss;
	return 0;
}

static int64_t gap_of(const struct ct_stats_sitting *a, const struct ct_stats_sitting *b)
{
	int64_t g = a->start_ns - b->start_ns;

	return g < 0 ? -g : g;
}

/* Whether a pair of two sittings of one config counts for a comparison
 * gap_ns apart (across a reboot when reboot): as far apart or farther, in
 * two boots when the comparison crosses one; min_gap_ns instead of gap_ns
 * when the comparison's gap is not covered (the farthest pairs stand in). */
static bool counts(const struct ct_stats_sitting *a, const struct ct_stats_sitting *b,
		   int64_t min_gap, bool reboot)
{
	if (a->config != b->config || a->session == b->session)
		return false;
	/* two configs of one --vary sitting are no pair; one config's
	 * sessions of one group cannot be */
	if (a->group && a->group == b->group)
		return false;
	if (reboot && (!a->boot || !b->boot || a->boot == b->boot))
		return false;
	return gap_of(a, b) >= min_gap;
}

static int by_config(const void *a, const void *b, void *ctx)
{
	const struct ct_stats_sitting *s = ctx, *x = &s[*(const size_t *)a],
				      *y = &s[*(const size_t *)b];

	if (x->config != y->config)
		return (x->config > y->config) - (x->config < y->config);
	return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

/* The sittings' indices grouped by config (pairs are of one config: a
 * fleet's store holds thousands of sessions of hundreds of configs, and
 * only the pairs within each are looked at); *ends[k] where group k ends.
 * malloc'd; NULL for -ENOMEM. */
static size_t *groups(const struct ct_stats_sitting *s, size_t n, size_t **ends, size_t *ng)
{
	size_t *ord = malloc((n ? n : 1) * sizeof(*ord)), *e = malloc((n + 1) * sizeof(*e));

	*ng = 0;
	if (!ord || !e) {
		free(ord);
		free(e);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	qsort_r(ord, n, sizeof(*ord), by_config, (void *)s);
	for (size_t i = 0; i < n; i++)
		if (i + 1 == n || s[ord[i + 1]].config != s[ord[i]].config)
			e[(*ng)++] = i + 1;
	*ends = e;
	return ord;
}

/* The largest gap of a pair that counts (0 when none does, -1 with no
 * pair at all). */
static int64_t farthest(const struct ct_stats_sitting *s, const size_t *ord, const size_t *ends,
			size_t ng, bool reboot)
{
	int64_t far = -1;

	for (size_t k = 0, lo = 0; k < ng; lo = ends[k++])
		for (size_t i = lo; i < ends[k]; i++)
			for (size_t j = i + 1; j < ends[k]; j++) {
				const struct ct_stats_sitting *a = &s[ord[i]], *b = &s[ord[j]];

				if (counts(a, b, 0, reboot) && gap_of(a, b) > far)
					far = gap_of(a, b);
			}
	return far;
}

int ct_stats_spread_at(const struct ct_stats_sitting *s, size_t n, int64_t gap_ns, bool reboot,
		       struct ct_stats_between *out)
{
	size_t *deg = calloc(n ? n : 1, sizeof(*deg)), *ends = NULL, ng = 0;
	size_t *ord = deg ? groups(s, n, &ends, &ng) : NULL;
	int64_t far, from;
	double d2 = 0, inv = 0, ss = 0, wdf = 0, deg2 = 0;
	size_t pairs = 0, sessions = 0, configs = 0;

	if (!ord) {
		free(deg);
		return -ENOMEM;
	}
	memset(out, 0, sizeof(*out));
	out->var = NAN;
	out->gap_ns = gap_ns;
	out->reboot = reboot;
	out->min_gap_ns = INT64_MAX;
	far = farthest(s, ord, ends, ng, reboot);
	out->covers = far >= gap_ns;
	/* not covered: the pairs farthest apart, a class of their own (from
	 * half the farthest gap), stand in for what is unknown */
	from = out->covers ? gap_ns : far / 2;
	for (size_t k = 0, lo = 0; far >= 0 && k < ng; lo = ends[k++]) {
		bool used = false;

		for (size_t i = lo; i < ends[k]; i++)
			for (size_t j = i + 1; j < ends[k]; j++) {
				const struct ct_stats_sitting *a = &s[ord[i]], *b = &s[ord[j]];
				double d = a->mean - b->mean;
				int64_t g = gap_of(a, b);

				if (!counts(a, b, from, reboot))
					continue;
				d2 += d * d;
				inv += (1 / (double)a->n + 1 / (double)b->n) / 2;
				pairs++;
				deg[ord[i]]++;
				deg[ord[j]]++;
				used = true;
				out->min_gap_ns = g < out->min_gap_ns ? g : out->min_gap_ns;
				out->max_gap_ns = g > out->max_gap_ns ? g : out->max_gap_ns;
				out->across_boots |= a->boot && b->boot && a->boot != b->boot;
			}
		configs += used;
	}
	for (size_t i = 0; i < n; i++) {
		if (!deg[i])
			continue;
		sessions++;
		ss += s[i].ss;
		wdf += (double)s[i].n - 1;
		deg2 += (double)deg[i] * (double)deg[i];
	}
	free(deg);
	free(ord);
	free(ends);
	if (!pairs) {
		out->min_gap_ns = 0;
		return 0;
	}
	out->npairs = pairs;
	out->nsessions = sessions;
	out->nconfigs = configs;
	out->var = d2 / (2 * (double)pairs);
	out->runs = 1 / (inv / (double)pairs);
	out->within_df = wdf;
	out->within = wdf > 0 ? ss / wdf : 0;
	/* the pairs share sessions, so their squares are correlated: the
	 * degrees of freedom are Satterthwaite's for sessions that move
	 * independently, 4 P^2 / (2 P + the sum over sessions of the square
	 * of how many pairs use each) - the sessions less one for every pair
	 * of one config, 1 for one pair, 2.25 for the three pairs of four
	 * sessions 20 min apart and more */
	out->df = 4 * (double)pairs * (double)pairs / (2 * (double)pairs + deg2);
	return 0;
}

int ct_stats_spread_classes(const struct ct_stats_sitting *s, size_t n, const int64_t *edges,
			    size_t nedges, struct ct_stats_spread_class *out)
{
	size_t *ends = NULL, ng = 0, *ord = groups(s, n, &ends, &ng);
	double *d2 = calloc(nedges + 1, sizeof(*d2)), *inv = calloc(nedges + 1, sizeof(*inv));

	if (!ord || !d2 || !inv) {
		free(ord);
		free(ends);
		free(d2);
		free(inv);
		return -ENOMEM;
	}
	/* classes [edges[k], edges[k + 1]) of pairs in one boot (the last to
	 * no end), then one class of the pairs across a reboot, whatever
	 * their gap */
	for (size_t k = 0; k <= nedges; k++) {
		memset(&out[k], 0, sizeof(out[k]));
		out[k].reboot = k == nedges;
		out[k].from_ns = out[k].reboot ? 0 : edges[k];
		out[k].to_ns = out[k].reboot || k + 1 == nedges ? INT64_MAX : edges[k + 1];
		out[k].var = NAN;
	}
	for (size_t g = 0, lo = 0; g < ng; lo = ends[g++])
		for (size_t i = lo; i < ends[g]; i++)
			for (size_t j = i + 1; j < ends[g]; j++) {
				const struct ct_stats_sitting *a = &s[ord[i]], *b = &s[ord[j]];
				int64_t gap = gap_of(a, b);
				size_t k = nedges;
				double d = a->mean - b->mean;

				if (!counts(a, b, 0, false))
					continue;
				if (!(a->boot && b->boot && a->boot != b->boot)) {
					/* in one boot: the class of its gap, none below
					 * the first edge */
					if (!nedges || gap < edges[0])
						continue;
					for (k = 0; k + 1 < nedges && gap >= edges[k + 1]; k++)
						;
				}
				d2[k] += d * d;
				inv[k] += (1 / (double)a->n + 1 / (double)b->n) / 2;
				out[k].npairs++;
			}
	for (size_t k = 0; k <= nedges; k++)
		if (out[k].npairs) {
			out[k].var = d2[k] / (2 * (double)out[k].npairs);
			out[k].runs = (double)out[k].npairs / inv[k];
		}
	free(ord);
	free(ends);
	free(d2);
	free(inv);
	return 0;
}
