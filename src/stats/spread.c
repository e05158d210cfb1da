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

/* The largest gap of a pair that counts (0 when none does, -1 with no
 * pair at all). */
static int64_t farthest(const struct ct_stats_sitting *s, size_t n, bool reboot)
{
	int64_t far = -1;

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (counts(&s[i], &s[j], 0, reboot) && gap_of(&s[i], &s[j]) > far)
				far = gap_of(&s[i], &s[j]);
	return far;
}

int ct_stats_spread_at(const struct ct_stats_sitting *s, size_t n, int64_t gap_ns, bool reboot,
		       struct ct_stats_between *out)
{
	size_t *deg = calloc(n ? n : 1, sizeof(*deg));
	int64_t far, from;
	double d2 = 0, inv = 0, ss = 0, wdf = 0, deg2 = 0;
	size_t pairs = 0, sessions = 0, configs = 0;

	if (!deg)
		return -ENOMEM;
	memset(out, 0, sizeof(*out));
	out->var = NAN;
	out->gap_ns = gap_ns;
	out->reboot = reboot;
	out->min_gap_ns = INT64_MAX;
	far = farthest(s, n, reboot);
	out->covers = far >= gap_ns;
	/* not covered: the pairs farthest apart, a class of their own (from
	 * half the farthest gap), stand in for what is unknown */
	from = out->covers ? gap_ns : far / 2;
	for (size_t i = 0; far >= 0 && i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			double d = s[i].mean - s[j].mean;
			int64_t g = gap_of(&s[i], &s[j]);

			if (!counts(&s[i], &s[j], from, reboot))
				continue;
			d2 += d * d;
			inv += (1 / (double)s[i].n + 1 / (double)s[j].n) / 2;
			pairs++;
			deg[i]++;
			deg[j]++;
			out->min_gap_ns = g < out->min_gap_ns ? g : out->min_gap_ns;
			out->max_gap_ns = g > out->max_gap_ns ? g : out->max_gap_ns;
			out->across_boots |= s[i].boot && s[j].boot && s[i].boot != s[j].boot;
		}
	for (size_t i = 0; i < n; i++) {
		bool first = deg[i] > 0;

		if (!deg[i])
			continue;
		sessions++;
		ss += s[i].ss;
		wdf += (double)s[i].n - 1;
		deg2 += (double)deg[i] * (double)deg[i];
		for (size_t j = 0; j < i && first; j++)
			first = !(deg[j] && s[j].config == s[i].config);
		configs += first;
	}
	free(deg);
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
	/* classes [edges[k], edges[k + 1]) of pairs in one boot, then one
	 * class of the pairs across a reboot, whatever their gap */
	for (size_t k = 0; k <= nedges; k++) {
		struct ct_stats_spread_class *c = &out[k];
		double d2 = 0, inv = 0;

		memset(c, 0, sizeof(*c));
		c->reboot = k == nedges;
		c->from_ns = c->reboot ? 0 : edges[k];
		c->to_ns = c->reboot || k + 1 == nedges ? INT64_MAX : edges[k + 1];
		c->var = NAN;
		for (size_t i = 0; i < n; i++)
			for (size_t j = i + 1; j < n; j++) {
				int64_t g = gap_of(&s[i], &s[j]);
				bool across = s[i].boot && s[j].boot && s[i].boot != s[j].boot;
				double d = s[i].mean - s[j].mean;

				if (!counts(&s[i], &s[j], 0, false) || across != c->reboot ||
				    (!c->reboot && (g < c->from_ns || g >= c->to_ns)))
					continue;
				d2 += d * d;
				inv += (1 / (double)s[i].n + 1 / (double)s[j].n) / 2;
				c->npairs++;
			}
		if (c->npairs) {
			c->var = d2 / (2 * (double)c->npairs);
			c->runs = (double)c->npairs / inv;
		}
	}
	return 0;
}
