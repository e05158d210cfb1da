/*
 * The simulation study that chooses contend bisect's search
 * (docs/statistics.md, "Bisection"). A commit range of N commits with
 * merged side branches (so a culprit is often not on the first-parent
 * line), one culprit drawn uniformly from the range; a run of a commit
 * takes 100 exp(s z) x (1 + effect when the culprit is among its
 * ancestors), s from the within-candidate CoV, and with the fluke rate a
 * run is x1.5. The regression is measured first (good against bad,
 * interleaved, 10, 20, 40, 80 runs a side until its verdict); each step then
 * measures the candidate interleaved with good (A/B/B/A: a block is a run
 * of each) and the runs are paired by block; the regression takes up to
 * 80 runs a side, a step up to 40 (contend bisect's ladders). Searches:
 *
 *   fixed     plain halving, 5 runs a side a step, bad when the verdict is
 *             "worse" (the one-verdict judge git bisect run gets);
 *   halving   plain halving, each step three-outcome (ct_bisect_judge):
 *             5, 10, 20, 40 runs a side until it is good or bad, a skip
 *             when still not;
 *   pba-skip  the probabilistic bisection (ct_bisect_*, eps = 0.1) with the
 *             same three-outcome steps, until one commit holds 99% of the
 *             probability (or 4 log2 N + 20 steps); a commit that gave no
 *             answer is never asked again (contend's rule until 6
 *             December);
 *   pba       the same, a commit that gave no answer asked again, less
 *             readily each time (ct_bisect_unsure): contend's search.
 *
 * Criteria (--check exits 1 when missed): the chosen search (pba) names
 * the culprit in at least 95% of bisections in every cell whose effect is
 * at least 3 times the CoV, and ends without an answer in at most 2% of
 * them, each less (more) three standard errors of the rate over the
 * trials; every search's runs are reported. One line a cell:
 * tab-separated N, effect, CoV, fluke rate, off-first-parent share, and per
 * search: correct, no answer, mean runs.
 *
 * usage: bisect-sim [--trials N] [--check] [--quick]
 *   --trials N: bisections a cell (200); --quick: N of 16 and 256, the
 *   cells make check runs (with --check).
 */
#include "contend/stats.h"
#include "contend/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED	 0x6269736563740aULL
#define FLUKE_X	 1.5
#define MAX_RUNS 40 /* a side, a step */
#define CONF	 95.0
#define PBA_EPS	 0.1
#define PBA_STOP 0.99

enum search { FIXED, HALVING, PBA_SKIP, PBA, NSEARCH };
static const char *const names[NSEARCH] = { "fixed", "halving", "pba-skip", "pba" };

static double unif(uint64_t *st)
{
	return ((double)(ct_rand64(st) >> 11) + 0.5) / 9007199254740992.0;
}

static double norm(uint64_t *st)
{
	return sqrt(-2 * log(unif(st))) * cos(2 * M_PI * unif(st));
}

/* ------------------------------------------------------------------ */
/* A range with side branches merged into the main line.               */

struct range {
	size_t n;
	size_t *np, *parents, *first; /* first: on the first-parent line */
};

static void range_free(struct range *g)
{
	free(g->np);
	free(g->parents);
	free(g->first);
}

static int range_make(struct range *g, size_t n, uint64_t *st)
{
	size_t i = 0, k = 0, tip = SIZE_MAX;

	g->n = n;
	g->np = calloc(n, sizeof(*g->np));
	g->parents = calloc(2 * n, sizeof(*g->parents));
	g->first = calloc(n, sizeof(*g->first));
	if (!g->np || !g->parents || !g->first)
		return -1;
#define ADD(c, p)                              \
	do {                                   \
		if ((p) != SIZE_MAX) {         \
			g->parents[k++] = (p); \
			g->np[c]++;            \
		}                              \
	} while (0)
	while (i < n) {
		size_t len = 1 + ct_rand64(st) % 6, mainlen = ct_rand64(st) % 4;

		if (unif(st) < 0.2 && i + len + mainlen + 2 <= n) {
			size_t btip = tip;

			for (size_t j = 0; j < len; j++, i++) {
				ADD(i, btip);
				btip = i;
			}
			for (size_t j = 0; j < mainlen; j++, i++) {
				ADD(i, tip);
				g->first[i] = 1;
				tip = i;
			}
			ADD(i, tip); /* the merge: first parent the main line */
			ADD(i, btip);
			g->first[i] = 1;
			tip = i++;
		} else {
			ADD(i, tip);
			g->first[i] = 1;
			tip = i++;
		}
	}
#undef ADD
	return 0;
}

/* ------------------------------------------------------------------ */
/* Measuring: a candidate interleaved with good.                       */

struct world {
	double s, effect, fluke;
	uint64_t st;
	unsigned long runs;
};

static double run(struct world *w, bool bad)
{
	double v = 100 * exp(w->s * norm(&w->st)) * (bad ? 1 + w->effect : 1);

	if (unif(&w->st) < w->fluke)
		v *= FLUKE_X;
	w->runs++;
	return v;
}

/* Adds runs a side until there are n, paired by block. */
static void measure(struct world *w, bool bad, double *g, double *c, size_t have, size_t n)
{
	for (size_t i = have; i < n; i++) {
		if (i % 2) {
			c[i] = run(w, bad);
			g[i] = run(w, false);
		} else {
			g[i] = run(w, false);
			c[i] = run(w, bad);
		}
	}
}

static void compare(const double *g, const double *c, size_t n, struct ct_stats_comparison *cmp)
{
	ct_stats_compare(g, n, c, n, g, c, n, CONF, cmp);
}

/* The regression's size (the log shift of bad against good), NAN when no
 * verdict after twice MAX_RUNS a side: from 10 runs a side, as contend
 * bisect measures it (every step is read against it). */
static double regression(struct world *w)
{
	double g[2 * MAX_RUNS], c[2 * MAX_RUNS];
	struct ct_stats_comparison cmp;

	for (size_t have = 0, n = 10; n <= 2 * MAX_RUNS; have = n, n *= 2) {
		measure(w, true, g, c, have, n);
		compare(g, c, n, &cmp);
		if (cmp.decided_by != CT_TEST_NONE && cmp.p < 1 - CONF / 100)
			return cmp.shift.estimate;
	}
	return NAN;
}

/* One step's answer: 1 bad, 0 good, -1 no answer. */
static int step(struct world *w, enum search s, bool bad, double delta)
{
	double g[MAX_RUNS], c[MAX_RUNS];
	struct ct_stats_comparison cmp;

	if (s == FIXED) {
		measure(w, bad, g, c, 0, 5);
		compare(g, c, 5, &cmp);
		return cmp.decided_by != CT_TEST_NONE && cmp.p < 1 - CONF / 100 && cmp.higher;
	}
	for (size_t have = 0, n = 5; n <= MAX_RUNS; have = n, n *= 2) {
		enum ct_bisect_call call;

		measure(w, bad, g, c, have, n);
		compare(g, c, n, &cmp);
		call = ct_bisect_judge(&cmp, delta);
		if (call != CT_BISECT_NOT_YET)
			return call == CT_BISECT_BAD;
	}
	return -1;
}

/* One bisection: 1 when it named the culprit, 0 wrong, -1 no answer. */
static int bisect(const struct range *g, size_t culprit, enum search s, struct world *w)
{
	struct ct_bisect *b;
	double delta = regression(w), p = 0;
	size_t next, steps = 0, cap = 20;
	int ans = -1;

	if (!isfinite(delta))
		return -1;
	for (size_t m = g->n; m > 1; m /= 2)
		cap += 4;
	bool pba = s == PBA || s == PBA_SKIP;

	if (ct_bisect_new(g->n, g->np, g->parents, pba ? PBA_EPS : 0, &b))
		abort();
	while (steps++ < cap) {
		int a, rc;

		if (pba) {
			(void)ct_bisect_best(b, &p);
			if (p >= PBA_STOP)
				break;
		}
		if (ct_bisect_next(b, &next))
			break;
		a = step(w, s, ct_bisect_is_ancestor(b, culprit, next), delta);
		if (a >= 0)
			rc = ct_bisect_answer(b, next, a);
		else
			rc = s == PBA ? ct_bisect_unsure(b, next) : ct_bisect_skip(b, next);
		if (rc)
			abort();
	}
	{
		size_t best = ct_bisect_best(b, &p);

		if (pba ? p >= PBA_STOP : p >= 1 - 1e-9)
			ans = best == culprit;
	}
	ct_bisect_free(b);
	return ans;
}

/* ------------------------------------------------------------------ */

struct tally {
	unsigned correct, none;
	unsigned long runs;
};

int main(int argc, char **argv)
{
	static const size_t ns_all[] = { 16, 256, 4096 }, ns_quick[] = { 16, 256 };
	static const double effects[] = { 0.02, 0.05, 0.10, 0.20 }, covs[] = { 0.01, 0.03, 0.10 },
			    flukes[] = { 0, 0.05, 0.10 };
	unsigned trials = 200, missed = 0;
	bool check = false, quick = false;
	const size_t *ns = ns_all;
	size_t nns = 3;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--trials") && i + 1 < argc)
			trials = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--check"))
			check = true;
		else if (!strcmp(argv[i], "--quick"))
			quick = true;
		else {
			fprintf(stderr, "usage: bisect-sim [--trials N] [--check] [--quick]\n");
			return 2;
		}
	}
	if (quick) {
		ns = ns_quick;
		nns = 2;
	}
	if (!trials)
		trials = 1;
	printf("# N\teffect\tcov\tfluke\toff-first\t");
	for (int s = 0; s < NSEARCH; s++)
		printf("%s:correct\t%s:none\t%s:runs%s", names[s], names[s], names[s],
		       s + 1 < NSEARCH ? "\t" : "\n");
	for (size_t a = 0; a < nns; a++)
		for (size_t e = 0; e < CT_ARRAY_SIZE(effects); e++)
			for (size_t c = 0; c < CT_ARRAY_SIZE(covs); c++)
				for (size_t f = 0; f < CT_ARRAY_SIZE(flukes); f++) {
					bool judged = effects[e] >= 3 * covs[c];
					struct tally t[NSEARCH] = { 0 };
					unsigned off = 0;
					uint64_t st = SEED ^ (a << 24 | e << 16 | c << 8 | f);

					/* the cells make check runs: those with a criterion */
					if (quick && !judged)
						continue;
					for (unsigned k = 0; k < trials; k++) {
						struct range g;
						size_t culprit;

						if (range_make(&g, ns[a], &st))
							return 3;
						culprit = ct_rand64(&st) % g.n;
						off += !g.first[culprit];
						for (int s = 0; s < NSEARCH; s++) {
							struct world w = {
								.s = sqrt(log1p(covs[c] * covs[c])),
								.effect = effects[e],
								.fluke = flukes[f],
								.st = st ^
								      (uint64_t)(s + 1) *
									      0x9e3779b97f4a7c15ULL,
							};
							int r = bisect(&g, culprit, (enum search)s,
								       &w);

							t[s].correct += r == 1;
							t[s].none += r < 0;
							t[s].runs += w.runs;
						}
						st ^= ct_rand64(&st);
						range_free(&g);
					}
					printf("%zu\t%.0f%%\t%.0f%%\t%.0f%%\t%.0f%%", ns[a],
					       100 * effects[e], 100 * covs[c], 100 * flukes[f],
					       100.0 * off / trials);
					for (int s = 0; s < NSEARCH; s++)
						printf("\t%.1f%%\t%.1f%%\t%.0f",
						       100.0 * t[s].correct / trials,
						       100.0 * t[s].none / trials,
						       (double)t[s].runs / trials);
					printf("%s\n", judged ? "\t*" : "");
					if (judged) {
						double none = (double)t[PBA].none / trials,
						       sen = sqrt(0.02 * 0.98 / trials);

						if (none > 0.02 + 3 * sen) {
							missed++;
							fprintf(stderr,
								"bisect-sim: pba gave no answer "
								"in %.1f%% of N=%zu effect %.0f%% "
								"CoV %.0f%% fluke %.0f%%\n",
								100 * none, ns[a], 100 * effects[e],
								100 * covs[c], 100 * flukes[f]);
						}
					}
					if (judged) {
						double rate = (double)t[PBA].correct / trials,
						       se = sqrt(0.95 * 0.05 / trials);

						if (rate < 0.95 - 3 * se) {
							missed++;
							fprintf(stderr,
								"bisect-sim: pba named the culprit "
								"in %.1f%% of N=%zu effect %.0f%% "
								"CoV %.0f%% fluke %.0f%%\n",
								100 * rate, ns[a], 100 * effects[e],
								100 * covs[c], 100 * flukes[f]);
						}
					}
					fflush(stdout);
				}
	return check && missed ? 1 : 0;
}
