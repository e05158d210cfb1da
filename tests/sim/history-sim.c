/*
 * The simulation study that chooses contend history's change-point
 * detector (docs/statistics.md, "Change points over time"). A series of N
 * sessions of RUNS runs each; a run takes 100 exp(b u + s z) x the level
 * of its place, u one draw per session (the sessions' own spread: the
 * between-session CoV b), z one per run (the within-session CoV s); the
 * level moves by a factor 1 +- effect (sign drawn) at K places drawn so
 * that each stretch holds at least MIN sessions. With --spike, one session
 * drawn at random has every run x SPIKE_X and the series has no shift.
 *
 * Detectors (ct_changepoints on the sessions' medians of the logs of
 * their runs, each side of a split MIN sessions or more):
 *   pettitt-.01  Pettitt's rank split, p < 0.01
 *   edm-t-.05    the E-divisive split, Student's t between its sides
 *                (Otava's way), p < 0.05
 *   edm-t-.001   the same, p < 0.001
 *   edm-u-.001   the E-divisive split, the Mann-Whitney test, p < 0.001
 *   edm-tu-.001  the E-divisive split, Student's t p < 0.001 and the
 *                Mann-Whitney test p < 0.01 (contend's)
 *   runs-.001    edm-t-.001 on every run in order (the runs as the unit,
 *                the sessions' spread ignored; N <= 100)
 *
 * A change point within TOL sessions of a true one finds it (one each);
 * every other is false. Per cell and detector: the share of series with a
 * false change point, the share of true shifts found (recall), false
 * change points a series.
 *
 * Criteria (--check exits 1 when missed): for the chosen detector
 * (edm-tu-.001), at most 5% of series without a shift (with or without a
 * spike) hold a change point, plus three standard errors of the rate over
 * the trials.
 *
 * usage: history-sim [--trials N] [--check] [--quick]
 *   --trials N: series a cell (200); --quick: N of 20 and 100, the cells
 *   make check runs (with --check).
 */
#include "contend/stats.h"
#include "contend/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED	0x686973746f7279ULL
#define RUNS	5
#define MIN	3
#define TOL	2
#define SPIKE_X 1.5
#define MAXK	5

enum det { PETTITT, EDM05, EDM001, EDMU001, EDMTU, RUNLEVEL, NDET };
static const char *const names[NDET] = { "pettitt-.01", "edm-t-.05",   "edm-t-.001",
					 "edm-u-.001",	"edm-tu-.001", "runs-.001" };
static const enum ct_cp_method methods[NDET] = { CT_CP_RANK,	 CT_CP_EDM,	 CT_CP_EDM,
						 CT_CP_EDM_RANK, CT_CP_EDM_BOTH, CT_CP_EDM };
static const double alphas[NDET] = { 0.01, 0.05, 0.001, 0.001, 0.001, 0.001 };
#define CHOSEN EDMTU

static double unif(uint64_t *st)
{
	return ((double)(ct_rand64(st) >> 11) + 0.5) / 9007199254740992.0;
}

static double norm(uint64_t *st)
{
	return sqrt(-2 * log(unif(st))) * cos(2 * M_PI * unif(st));
}

struct cell {
	size_t n, k;
	double effect, within, between;
	bool spike;
};

struct tally {
	unsigned series_false, found, shifts;
	unsigned long nfalse;
};

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* K change places (the first session after each), each stretch at least
 * MIN sessions: drawn again until they fit */
static void draw_places(uint64_t *st, size_t n, size_t k, size_t *at)
{
	for (;;) {
		bool ok = true;

		for (size_t i = 0; i < k; i++)
			at[i] = MIN + (size_t)(unif(st) * (double)(n - 2 * MIN + 1));
		qsort(at, k, sizeof(*at), cmp_size);
		for (size_t i = 1; i < k; i++)
			ok &= at[i] - at[i - 1] >= MIN;
		if (ok)
			return;
	}
}

/* Counts what cps found of the true places at[0..k-1]. */
static void score(const struct ct_cp *cp, size_t ncp, const size_t *at, size_t k, struct tally *t)
{
	bool used[MAXK] = { false };
	unsigned nfalse = 0;

	for (size_t c = 0; c < ncp; c++) {
		size_t best = k;

		for (size_t i = 0; i < k; i++) {
			size_t d = cp[c].at > at[i] ? cp[c].at - at[i] : at[i] - cp[c].at;

			if (!used[i] && d <= TOL &&
			    (best == k ||
			     d < (cp[c].at > at[best] ? cp[c].at - at[best] : at[best] - cp[c].at)))
				best = i;
		}
		if (best < k)
			used[best] = true;
		else
			nfalse++;
	}
	for (size_t i = 0; i < k; i++)
		t->found += used[i];
	t->shifts += (unsigned)k;
	t->series_false += nfalse > 0;
	t->nfalse += nfalse;
}

static int run_cell(const struct cell *c, unsigned trials, uint64_t *st, struct tally *t)
{
	size_t n = c->n, at[MAXK];
	double *med = malloc(n * sizeof(*med)), *runs = malloc(n * RUNS * sizeof(*runs));
	double s = sqrt(log1p(c->within * c->within)), b = sqrt(log1p(c->between * c->between));
	int rc = 0;

	if (!med || !runs) {
		free(med);
		free(runs);
		return -1;
	}
	memset(t, 0, NDET * sizeof(*t));
	for (unsigned tr = 0; tr < trials && !rc; tr++) {
		double level = 0;
		size_t next = 0, spike = c->spike ? (size_t)(unif(st) * (double)n) : n;

		draw_places(st, n, c->k, at);
		for (size_t i = 0; i < n; i++) {
			double u = b * norm(st), v[RUNS];

			if (next < c->k && at[next] == i) {
				level += log1p(unif(st) < 0.5 ? c->effect : -c->effect);
				next++;
			}
			for (size_t r = 0; r < RUNS; r++) {
				v[r] = log(100) + level + u + s * norm(st) +
				       (i == spike ? log(SPIKE_X) : 0);
				runs[i * RUNS + r] = v[r];
			}
			med[i] = ct_stats_median(v, RUNS);
		}
		for (int d = 0; d < NDET && !rc; d++) {
			struct ct_cp *cp = NULL;
			size_t ncp = 0;

			if (d == RUNLEVEL && n > 100)
				continue; /* not run: n^2 memory of runs */
			if (d == RUNLEVEL) {
				rc = ct_changepoints(runs, n * RUNS, methods[d], alphas[d],
						     MIN * RUNS, &cp, &ncp);
				for (size_t j = 0; j < ncp; j++)
					cp[j].at = (cp[j].at + RUNS / 2) / RUNS;
			} else {
				rc = ct_changepoints(med, n, methods[d], alphas[d], MIN, &cp, &ncp);
			}
			if (!rc)
				score(cp, ncp, at, c->k, &t[d]);
			free(cp);
		}
	}
	free(med);
	free(runs);
	return rc;
}

int main(int argc, char **argv)
{
	static const size_t ns_full[] = { 20, 100, 500 }, ns_quick[] = { 20, 100 };
	static const double effects[] = { 0.02, 0.05, 0.10, 0.20 };
	static const double withins[] = { 0.01, 0.05, 0.10 };
	static const double betweens[] = { 0.005, 0.02 };
	static const size_t ks[] = { 1, 3, 5 };
	unsigned trials = 200;
	bool check = false, quick = false;
	const size_t *ns = ns_full;
	size_t nns = CT_ARRAY_SIZE(ns_full);
	uint64_t st = SEED;
	int failed = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--trials") && i + 1 < argc)
			trials = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--check"))
			check = true;
		else if (!strcmp(argv[i], "--quick"))
			quick = true;
		else {
			fprintf(stderr, "usage: history-sim [--trials N] [--check] [--quick]\n");
			return 2;
		}
	}
	if (quick) {
		ns = ns_quick;
		nns = CT_ARRAY_SIZE(ns_quick);
	}
	if (!trials) {
		fprintf(stderr, "history-sim: --trials must be at least 1\n");
		return 2;
	}
	printf("# N\tshifts\teffect\twithin\tbetween\tspike");
	for (int d = 0; d < NDET; d++)
		printf("\t%s false\t%s recall\t%s false/series", names[d], names[d], names[d]);
	printf("\n");
	for (size_t a = 0; a < nns; a++)
		for (size_t w = 0; w < CT_ARRAY_SIZE(withins); w++)
			for (size_t bt = 0; bt < CT_ARRAY_SIZE(betweens); bt++)
				for (size_t kk = 0; kk <= CT_ARRAY_SIZE(ks); kk++)
					for (size_t e = 0; e < (kk ? CT_ARRAY_SIZE(effects) : 2);
					     e++) {
						struct cell c = { .n = ns[a],
								  .within = withins[w],
								  .between = betweens[bt] };
						struct tally t[NDET];
						double rate, se;

						c.k = kk ? ks[kk - 1] : 0;
						c.effect = kk ? effects[e] : 0;
						c.spike = !kk && e == 1;
						if (c.k * MIN + MIN > c.n)
							continue;
						if (run_cell(&c, trials, &st, t)) {
							fprintf(stderr,
								"history-sim: out of memory\n");
							return 1;
						}
						printf("%zu\t%zu\t%.0f%%\t%.1f%%\t%.1f%%\t%s", c.n,
						       c.k, 100 * c.effect, 100 * c.within,
						       100 * c.between, c.spike ? "yes" : "no");
						for (int d = 0; d < NDET; d++)
							if (d == RUNLEVEL && c.n > 100)
								printf("\t-\t-\t-");
							else
								printf("\t%.1f%%\t%.1f%%\t%.3f",
								       100.0 * t[d].series_false /
									       trials,
								       t[d].shifts
									       ? 100.0 * t[d].found /
											 t[d].shifts
									       : NAN,
								       (double)t[d].nfalse /
									       trials);
						printf("\n");
						fflush(stdout);
						if (!check || c.k)
							continue;
						rate = (double)t[CHOSEN].series_false / trials;
						se = sqrt(0.05 * 0.95 / trials);
						if (rate > 0.05 + 3 * se) {
							fprintf(stderr,
								"history-sim: %s: %.1f%% of series "
								"without a shift (N %zu, within "
								"%.0f%%, "
								"between %.1f%%%s) hold a change "
								"point\n",
								names[CHOSEN], 100 * rate, c.n,
								100 * c.within, 100 * c.between,
								c.spike ? ", one spike" : "");
							failed = 1;
						}
					}
	return failed;
}
