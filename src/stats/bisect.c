/*
 * A bisection's search (docs/statistics.md, "Bisection"), numbers only:
 * the commits of a range good..bad as a graph, the probability that each
 * one is the first bad commit, and the candidate whose answer splits that
 * probability most evenly - a probabilistic bisection of the Horstein /
 * Karp-Kleinberg family, generalised to a graph as git's bisection is.
 *
 * Every answer "c is bad" is taken to be wrong with probability eps: the
 * commits that answer clears are weighed down by eps / (1 - eps), those it
 * keeps are not. So an answer that was a fluke is outvoted later instead
 * of sealing the wrong half away, and a commit is asked about again when
 * its answer still matters. With eps = 0 it is plain halving: a cleared
 * commit's weight is 0, and the search ends when one commit is left.
 *
 * A commit's weight depends only on how many answers it disagrees with
 * (the same number of answers weighs on every commit), so the commits are
 * kept in classes by that count; the mass of a candidate's ancestors is a
 * sum over the few classes that still weigh, one popcount a word.
 */
#include "contend/stats.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Classes lighter than this, relative to the heaviest, are left out of
 * masses: their commits cannot change which candidate splits best. */
#define NEGLIGIBLE 1e-9

struct ct_bisect {
	size_t n, words;
	uint64_t *anc;	   /* n rows of words: the ancestors of commit i in the range, i included */
	unsigned *against; /* answers each commit disagrees with */
	bool *skipped;
	unsigned *unsure; /* steps of each that gave no answer */
	double eps;
	uint64_t *cls; /* scratch: a class's members */
};

static uint64_t *row(const struct ct_bisect *b, size_t i)
{
	return b->anc + i * b->words;
}

static bool has(const uint64_t *set, size_t i)
{
	return set[i / 64] >> (i % 64) & 1;
}

int ct_bisect_new(size_t n, const size_t *nparents, const size_t *parents, double eps,
		  struct ct_bisect **out)
{
	struct ct_bisect *b;
	size_t k = 0;

	*out = NULL;
	if (!n || !nparents || !(eps >= 0 && eps < 0.5))
		return -EINVAL;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->n = n;
	b->words = (n + 63) / 64;
	b->eps = eps;
	b->anc = calloc(n * b->words, sizeof(*b->anc));
	b->against = calloc(n, sizeof(*b->against));
	b->skipped = calloc(n, sizeof(*b->skipped));
	b->unsure = calloc(n, sizeof(*b->unsure));
	b->cls = calloc(b->words, sizeof(*b->cls));
	if (!b->anc || !b->against || !b->skipped || !b->unsure || !b->cls) {
		ct_bisect_free(b);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t *r = row(b, i);

		r[i / 64] |= 1ULL << (i % 64);
		for (size_t j = 0; j < nparents[i]; j++, k++) {
			const uint64_t *p;

			if (parents[k] >= i) { /* not in topological order */
				ct_bisect_free(b);
				return -EINVAL;
			}
			p = row(b, parents[k]);
			for (size_t w = 0; w < b->words; w++)
				r[w] |= p[w];
		}
	}
	/* the last commit is the bad end: every commit of the range is its ancestor */
	for (size_t i = 0; i < n; i++)
		if (!has(row(b, n - 1), i)) {
			ct_bisect_free(b);
			return -EINVAL;
		}
	*out = b;
	return 0;
}

void ct_bisect_free(struct ct_bisect *b)
{
	if (!b)
		return;
	free(b->anc);
	free(b->against);
	free(b->skipped);
	free(b->unsure);
	free(b->cls);
	free(b);
}

bool ct_bisect_is_ancestor(const struct ct_bisect *b, size_t a, size_t c)
{
	return a < b->n && c < b->n && has(row(b, c), a);
}

int ct_bisect_answer(struct ct_bisect *b, size_t c, bool bad)
{
	const uint64_t *r;

	if (c >= b->n)
		return -EINVAL;
	r = row(b, c);
	/* "c is bad" says the first bad commit is an ancestor of c */
	for (size_t x = 0; x < b->n; x++)
		if (has(r, x) != bad)
			b->against[x]++;
	return 0;
}

int ct_bisect_skip(struct ct_bisect *b, size_t c)
{
	if (c >= b->n)
		return -EINVAL;
	b->skipped[c] = true;
	return 0;
}

int ct_bisect_unsure(struct ct_bisect *b, size_t c)
{
	if (c >= b->n)
		return -EINVAL;
	b->unsure[c]++;
	return 0;
}

/* The binary entropy of p, in bits. */
static double entropy(double p)
{
	return p <= 0 || p >= 1 ? 0 : -(p * log2(p) + (1 - p) * log2(1 - p));
}

/* The fewest answers any commit disagrees with. */
static unsigned least_against(const struct ct_bisect *b)
{
	unsigned m = UINT32_MAX;

	for (size_t x = 0; x < b->n; x++)
		if (b->against[x] < m)
			m = b->against[x];
	return m;
}

/* The weight of one disagreement more: eps / (1 - eps), 0 for plain
 * halving. */
static double ratio(const struct ct_bisect *b)
{
	return b->eps / (1 - b->eps);
}

/* The number of classes that weigh: 1 + the disagreements past the least
 * whose weight is not negligible. */
static unsigned levels(const struct ct_bisect *b)
{
	double r = ratio(b);
	unsigned l = 1;

	if (r <= 0)
		return 1;
	while (pow(r, l) > NEGLIGIBLE && l < 64)
		l++;
	return l;
}

/* The weight of a class d disagreements past the least: r^d, 0 past the
 * nl classes that weigh. */
static double weight(double r, unsigned d, unsigned nl)
{
	return d >= nl ? 0 : d ? pow(r, d) : 1;
}

double ct_bisect_prob(const struct ct_bisect *b, size_t c)
{
	unsigned m = least_against(b), nl = levels(b);
	double r = ratio(b), z = 0;

	if (c >= b->n)
		return NAN;
	for (size_t x = 0; x < b->n; x++)
		z += weight(r, b->against[x] - m, nl);
	return weight(r, b->against[c] - m, nl) / z;
}

/* The probability that each commit is bad (the first bad commit is among
 * its ancestors), in mass[0..n-1]. */
static int masses(struct ct_bisect *b, double *mass)
{
	unsigned m = least_against(b), nl = levels(b);
	double r = ratio(b), z = 0;

	memset(mass, 0, b->n * sizeof(*mass));
	for (unsigned l = 0; l < nl; l++) {
		double w = weight(r, l, nl);
		size_t members = 0, lo = SIZE_MAX, hi = 0;

		memset(b->cls, 0, b->words * sizeof(*b->cls));
		for (size_t x = 0; x < b->n; x++)
			if (b->against[x] - m == l) {
				b->cls[x / 64] |= 1ULL << (x % 64);
				members++;
				lo = lo < x / 64 ? lo : x / 64;
				hi = x / 64;
			}
		if (!members)
			continue;
		z += w * (double)members;
		/* the words the class holds: near the end of a search the
		 * classes that weigh are a few commits around the culprit */
		for (size_t c = 0; c < b->n; c++) {
			const uint64_t *rc = row(b, c);
			unsigned long long k = 0;

			for (size_t i = lo; i <= hi; i++)
				k += (unsigned long long)__builtin_popcountll(rc[i] & b->cls[i]);
			mass[c] += w * (double)k;
		}
	}
	if (!(z > 0))
		return -EINVAL;
	for (size_t c = 0; c < b->n; c++)
		mass[c] /= z;
	return 0;
}

double ct_bisect_bad_prob(struct ct_bisect *b, size_t c)
{
	double *mass = malloc(b->n * sizeof(*mass)), p = NAN;

	if (mass && c < b->n && !masses(b, mass))
		p = mass[c];
	free(mass);
	return p;
}

int ct_bisect_next(struct ct_bisect *b, size_t *next)
{
	double *mass = malloc(b->n * sizeof(*mass)), best = 0;
	int rc;

	if (!mass)
		return -ENOMEM;
	rc = masses(b, mass);
	if (rc) {
		free(mass);
		return rc;
	}
	rc = -ENOENT;
	for (size_t c = 0; c < b->n; c++) {
		/* what its answer is worth, less readily asked where it gave
		 * none: a borderline commit is not asked forever while others
		 * can still tell */
		double v = entropy(mass[c]) / (1 + b->unsure[c]);

		/* a commit whose answer cannot move the weights (all of them
		 * on one side) is no candidate */
		if (b->skipped[c] || mass[c] <= NEGLIGIBLE || mass[c] >= 1 - NEGLIGIBLE)
			continue;
		/* of splits equal but for rounding, the first */
		if (v > best + 1e-12) {
			best = v;
			*next = c;
			rc = 0;
		}
	}
	free(mass);
	return rc;
}

size_t ct_bisect_best(const struct ct_bisect *b, double *prob)
{
	size_t best = 0;

	for (size_t x = 1; x < b->n; x++)
		if (b->against[x] < b->against[best])
			best = x;
	if (prob)
		*prob = ct_bisect_prob(b, best);
	return best;
}

enum ct_bisect_call ct_bisect_judge(const struct ct_stats_comparison *c, double delta)
{
	double lo = c->shift.low, hi = c->shift.high, est = c->shift.estimate;
	bool not_good, not_bad;

	if (c->decided_by == CT_TEST_NONE || !isfinite(delta) || delta == 0 || !isfinite(lo) ||
	    !isfinite(hi))
		return CT_BISECT_NOT_YET;
	if (delta < 0) { /* bad is faster: the same rule, mirrored */
		double t = lo;

		lo = -hi;
		hi = -t;
		est = -est;
		delta = -delta;
	}
	not_good = lo > 0;    /* the interval excludes no change: not as good is */
	not_bad = hi < delta; /* it excludes the regression's size: not as bad is */
	if (not_good && not_bad)
		return est > delta / 2 ? CT_BISECT_BAD : CT_BISECT_GOOD;
	if (not_good)
		return CT_BISECT_BAD;
	if (not_bad)
		return CT_BISECT_GOOD;
	return CT_BISECT_NOT_YET;
}
