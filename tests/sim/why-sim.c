/*
 * The simulation study of contend why's rule (docs/statistics.md, "Why"):
 * A/A comparisons of generated counters - as many as contend stores, each
 * of a kind real counters are (normal, lognormal, small counts with ties,
 * mostly zero with rare bursts, a disturbed run now and then, constant) -
 * judged by ct_why_judge() with no counter's own floor, only the rule's:
 * how often any counter ranks when nothing changed (the family-wise rate,
 * which Holm's adjustment holds at the level), and how often one counter
 * that did move by a given shift ranks (its power).
 *
 * usage: why-sim [--trials N] [--check]
 *   --check: exit 1 when the family-wise rate of any cell exceeds the
 *   level by more than three standard errors of its Monte Carlo error.
 */
#include "contend/report.h"
#include "contend/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALPHA  0.05
#define NCOUNT 88 /* the catalogue held 88 when the study ran */
#define MAX_N  20
#define SEED   0x7768792d73696dULL

static double unif(uint64_t *st)
{
	return ((double)(ct_rand64(st) >> 11) + 0.5) / 9007199254740992.0;
}

static double norm(uint64_t *st)
{
	return sqrt(-2 * log(unif(st))) * cos(2 * M_PI * unif(st));
}

static double poisson(double mean, uint64_t *st)
{
	double l = exp(-mean), p = 1;
	int k = 0;

	do {
		k++;
		p *= unif(st);
	} while (p > l);
	return k - 1;
}

enum kind { K_NORMAL, K_LOGNORMAL, K_COUNTS, K_BURSTS, K_DISTURBED, K_CONSTANT, K__N };
static const char *const kind_name[] = {
	"normal, CoV 5%",	 "lognormal, sigma 0.5",   "small counts, Poisson(3)",
	"mostly 0, rare bursts", "normal, 1 run in 10 x3", "constant",
};

/* One run's value of a counter of kind k, times shift. */
static double draw(enum kind k, double shift, uint64_t *st)
{
	switch (k) {
	case K_NORMAL:
		return shift * 100 * (1 + 0.05 * norm(st));
	case K_LOGNORMAL:
		return shift * 100 * exp(0.5 * norm(st));
	case K_COUNTS:
		return shift * poisson(3, st);
	case K_BURSTS:
		return unif(st) < 0.1 ? shift * 1000 * unif(st) : 0;
	case K_DISTURBED:
		return shift * 100 * (1 + 0.05 * norm(st)) * (unif(st) < 0.1 ? 3 : 1);
	default:
		return shift * 7;
	}
}

struct cell {
	size_t n;
	double any, moved; /* trials where any counter ranked; the moved one ranked */
};

/* A trial: NCOUNT counters of kinds in turn, counter 0 moved by shift. */
static int trial(size_t n, double shift, uint64_t *st, bool *any, bool *moved)
{
	static struct ct_counter_info infos[NCOUNT];
	static double a[NCOUNT][MAX_N], b[NCOUNT][MAX_N];
	struct ct_why_input in[NCOUNT];
	struct ct_why w = { 0 };
	int rc;

	for (size_t c = 0; c < NCOUNT; c++) {
		enum kind k = (enum kind)(c % K__N);

		infos[c] = (struct ct_counter_info){ "c", "s", "a counter", 0, CT_CG_MACHINE };
		for (size_t i = 0; i < n; i++) {
			a[c][i] = draw(k, 1, st);
			b[c][i] = draw(k, c == 0 ? shift : 1, st);
		}
		in[c] = (struct ct_why_input){ &infos[c], a[c], b[c], n, n, NULL, NULL };
	}
	rc = ct_why_judge(&w, in, NCOUNT, 100 * (1 - ALPHA));
	if (!rc) {
		*any = w.nranked > 0;
		*moved = w.rows[0].ranked;
	}
	free(w.rows);
	free(w.ranked);
	return rc;
}

int main(int argc, char **argv)
{
	static const size_t ns[] = { 3, 5, 10, 20 };
	static const double shifts[] = { 1.10, 1.25, 1.50 };
	unsigned long trials = 2000;
	bool check = false, fail = false;
	uint64_t st = SEED;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--trials") && i + 1 < argc)
			trials = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--check"))
			check = true;
		else {
			fprintf(stderr, "usage: why-sim [--trials N] [--check]\n");
			return 2;
		}
	}
	printf("why-sim: %d counters a trial (%d kinds in turn: ", NCOUNT, K__N);
	for (int k = 0; k < K__N; k++)
		printf("%s%s", k ? "; " : "", kind_name[k]);
	printf("), %lu trials a cell, level %.2f, no floors but the rule's 1%%\n\n", trials, ALPHA);
	printf("A/A: trials where any counter ranked (the family-wise rate)\n");
	printf("  %4s  %8s  %s\n", "n", "rate", "limit (level + 3 se)");
	for (size_t i = 0; i < CT_ARRAY_SIZE(ns); i++) {
		unsigned long hits = 0;
		double rate, limit;

		for (unsigned long t = 0; t < trials; t++) {
			bool any = false, moved = false;

			if (trial(ns[i], 1, &st, &any, &moved)) {
				fprintf(stderr, "why-sim: the rule failed\n");
				return 1;
			}
			hits += any;
		}
		rate = (double)hits / (double)trials;
		limit = ALPHA + 3 * sqrt(ALPHA * (1 - ALPHA) / (double)trials);
		printf("  %4zu  %8.4f  %.4f%s\n", ns[i], rate, limit,
		       rate > limit ? "  MISSED" : "");
		fail |= rate > limit;
	}
	printf("\npower: trials where a normal counter (CoV 5%%) moved by the shift ranked\n");
	printf("  %4s", "n");
	for (size_t s = 0; s < CT_ARRAY_SIZE(shifts); s++)
		printf("  %+7.0f%%", 100 * (shifts[s] - 1));
	printf("\n");
	for (size_t i = 0; i < CT_ARRAY_SIZE(ns); i++) {
		printf("  %4zu", ns[i]);
		for (size_t s = 0; s < CT_ARRAY_SIZE(shifts); s++) {
			unsigned long hits = 0, pt = trials / 4 ? trials / 4 : 1;

			for (unsigned long t = 0; t < pt; t++) {
				bool any = false, moved = false;

				if (trial(ns[i], shifts[s], &st, &any, &moved))
					return 1;
				hits += moved;
			}
			printf("  %8.3f", (double)hits / (double)pt);
		}
		printf("\n");
	}
	if (check && fail) {
		printf("\nwhy-sim: a family-wise rate is over its limit\n");
		return 1;
	}
	return 0;
}
