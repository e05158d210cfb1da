/*
 * The simulation study that chooses the machine's spread of sessions a
 * one-session-a-side comparison is weighed against (docs/statistics.md,
 * "The spread at the comparison's gap"). A host whose sessions move apart
 * as time passes: a session's level is the host's level when it runs - a
 * drift (an Ornstein-Uhlenbeck process or a random walk) and a jump at
 * each reboot - plus a level of its own, and its runs scatter around it:
 * value = 100 exp(drift(t) + jump(boot) + b + e). A calibration (K = 4
 * sessions of one config, back to back or `--every E` apart, in one boot
 * or each in its own) measures the spread; then two sessions of another
 * config, `gap` apart (in two boots on the rebooting host), are compared
 * one a side by ct_stats_compare_across() with the spread each rule gives:
 *
 *   pooled     every pair of the calibration (contend's estimate until
 *              6 December: how far sessions move, whatever the gap);
 *   floor      the same, at least a 3% between-session CoV;
 *   gap        the pairs at least as far apart as the comparison (across
 *              a reboot when it crosses one), refused when there are none
 *              (ct_stats_spread_at(): contend's rule);
 *   envelope   the same pairs, but the largest spread of any gap class up
 *              to the comparison's if that is larger.
 *
 * For each: how often it calls two sessions of the same work different
 * (A/A) among the comparisons it judges, how often it refuses (its pairs do
 * not cover the gap), and how often it finds a true +15%. Criteria (the
 * chosen rule; --check exits 1 when missed): A/A at most 5% (plus three
 * standard errors over its judged trials) in every cell where it judged,
 * and it judges every comparison whose gap its calibration's pairs span.
 *
 * usage: drift-sim [--trials N] [--check]
 *   --trials N: comparisons a cell (2,000); --check: make check's reduced
 *   study (the A/A cells and their criteria, no power).
 */
#include "contend/stats.h"
#include "contend/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED  0x64726966747369ULL
#define ALPHA 0.05
#define K     4 /* calibration sessions */
#define RUNS  5 /* runs a session */
#define SEC   1000000000LL
#define MIN   (60 * SEC)
#define HOUR  (60 * MIN)

static double unif(uint64_t *st)
{
	return ((double)(ct_rand64(st) >> 11) + 0.5) / 9007199254740992.0;
}

static double norm(uint64_t *st)
{
	return sqrt(-2 * log(unif(st))) * cos(2 * M_PI * unif(st));
}

/* log-scale sd of a CoV */
static double lsd(double cov)
{
	return sqrt(log1p(cov * cov));
}

/* A host: a session's own level (sd own), a drift - mean-reverting with
 * stationary sd ou and time constant tau, or a random walk of sd rw per
 * square root of an hour - and a jump of sd jump at each reboot. */
struct host {
	const char *name;
	double own, ou, tau_min, rw, jump;
	bool reboots; /* the compared sessions lie in two boots */
};

static const struct host hosts[] = {
	{ "steady: sessions 2% apart, no drift", 0.02, 0, 1, 0, 0, false },
	{ "drifting within the hour (8%, 20 min)", 0.01, 0.08, 20, 0, 0, false },
	{ "a random walk (4% an hour)", 0.01, 0, 1, 0.04, 0, false },
	{ "a 5% jump at each reboot", 0.01, 0.02, 30, 0, 0.05, true },
};
static const double wcovs[] = { 0.01, 0.03 };

/* the calibration: K sessions every `every` apart, in one boot or each in
 * a boot of its own */
struct design {
	const char *name;
	int64_t every;
	bool boots;
};
static const struct design designs[] = {
	{ "back to back (1 min)", MIN, false },
	{ "--every 5m", 5 * MIN, false },
	{ "--every 20m", 20 * MIN, false },
	{ "--every 1h", HOUR, false },
	{ "a boot each, 10 min apart", 10 * MIN, true },
};
static const int64_t gaps[] = { 20 * SEC, MIN, 5 * MIN, 20 * MIN, HOUR, 6 * HOUR };

enum rule { POOLED, FLOOR, GAP, ENVELOPE, NRULES };
static const char *const rule_names[NRULES] = { "pooled", "floor 3%", "gap (contend)", "envelope" };
#define CHOSEN GAP

#define NH CT_ARRAY_SIZE(hosts)
#define NW CT_ARRAY_SIZE(wcovs)
#define ND CT_ARRAY_SIZE(designs)
#define NG CT_ARRAY_SIZE(gaps)

/* The host's level along a timeline of sessions: the drift at each start
 * (the process stepped from one start to the next), a jump per boot. */
struct timeline {
	double drift; /* at the last start */
	int64_t last;
	uint64_t boot;
	double jump;
};

static double level_at(const struct host *h, struct timeline *tl, int64_t t, uint64_t boot,
		       uint64_t *st)
{
	double dt = (double)(t - tl->last) / (double)MIN;

	if (h->ou > 0) {
		double a = exp(-dt / h->tau_min), s = lsd(h->ou);

		tl->drift = tl->drift * a + s * sqrt(1 - a * a) * norm(st);
	}
	if (h->rw > 0)
		tl->drift += lsd(h->rw) * sqrt(dt / 60) * norm(st);
	tl->last = t;
	if (boot != tl->boot) {
		tl->boot = boot;
		tl->jump = lsd(h->jump) * norm(st);
	}
	return tl->drift + tl->jump;
}

/* One session's runs around its level. */
static void session(struct ct_stats_sitting *s, double *x, double level, double own, double wsd,
		    double shift, uint64_t *st)
{
	double b = lsd(own) * norm(st);

	for (size_t i = 0; i < RUNS; i++)
		x[i] = 100 * shift * exp(level + b + wsd * norm(st));
	if (ct_stats_sitting_of(x, RUNS, s))
		abort();
}

/* The spread rule r gives for a comparison gap apart; false when it
 * refuses. */
static bool spread(enum rule r, const struct ct_stats_sitting *cal, int64_t gap, bool reboot,
		   struct ct_stats_between *bw)
{
	static const int64_t edges[] = { 0, MIN, 5 * MIN, 20 * MIN, HOUR, 6 * HOUR, 24 * HOUR };
	struct ct_stats_spread_class cls[CT_ARRAY_SIZE(edges) + 1];

	if (ct_stats_spread_at(cal, K, r == POOLED || r == FLOOR ? 0 : gap,
			       r == POOLED || r == FLOOR ? false : reboot, bw))
		abort();
	if (!(bw->df > 0))
		return false;
	if (r == FLOOR)
		bw->var = fmax(bw->var, log1p(0.03 * 0.03) + bw->within / bw->runs);
	if (r == GAP || r == ENVELOPE) {
		if (!bw->covers)
			return false;
	}
	if (r == ENVELOPE) {
		if (ct_stats_spread_classes(cal, K, edges, CT_ARRAY_SIZE(edges), cls))
			abort();
		for (size_t k = 0; k <= CT_ARRAY_SIZE(edges); k++)
			if (cls[k].npairs && (cls[k].reboot ? reboot : cls[k].from_ns < gap))
				bw->var = fmax(bw->var, cls[k].var);
	}
	return true;
}

struct tally {
	unsigned judged, rejected, refused;
};

/* One cell: trials comparisons of host h (within sd w), calibration d, gap
 * g, other side shifted by shift; tallies per rule. */
static void cell(size_t h, size_t w, size_t d, size_t g, double shift, unsigned trials,
		 struct tally *t)
{
	const struct host *ho = &hosts[h];
	uint64_t st = SEED ^
		      (uint64_t)(((h * NW + w) * ND + d) * NG + g + 1) * 0x9e3779b97f4a7c15ULL ^
		      (shift > 1 ? 0x5151ULL : 0);
	double wsd = lsd(wcovs[w]);

	memset(t, 0, NRULES * sizeof(*t));
	for (unsigned k = 0; k < trials; k++) {
		struct timeline tl = { .last = 0, .boot = 0 };
		struct ct_stats_sitting cal[K], a, b;
		double xa[RUNS], xb[RUNS], x[RUNS];
		int64_t sa[RUNS], sb[RUNS], t0 = 0;
		uint64_t boot = 1;

		/* the host before the calibration: its stationary drift */
		tl.drift = ho->ou > 0 ? lsd(ho->ou) * norm(&st) : 0;
		tl.boot = 1;
		tl.jump = lsd(ho->jump) * norm(&st);
		for (size_t i = 0; i < K; i++) {
			int64_t at = t0 + (int64_t)i * designs[d].every;

			if (designs[d].boots && i)
				boot++;
			session(&cal[i], x, level_at(ho, &tl, at, boot, &st), ho->own, wsd, 1, &st);
			cal[i].config = 1;
			cal[i].session = (int64_t)i + 1;
			cal[i].group = 0;
			cal[i].start_ns = at;
			cal[i].boot = boot;
		}
		/* the compared sessions, some time after the calibration */
		t0 = (int64_t)K * designs[d].every + (int64_t)(unif(&st) * 2 * HOUR);
		session(&a, xa, level_at(ho, &tl, t0, boot, &st), ho->own, wsd, 1, &st);
		if (ho->reboots)
			boot++;
		session(&b, xb, level_at(ho, &tl, t0 + gaps[g], boot, &st), ho->own, wsd, shift,
			&st);
		for (size_t i = 0; i < RUNS; i++) {
			sa[i] = 100;
			sb[i] = 101;
		}
		for (int r = 0; r < NRULES; r++) {
			struct ct_stats_between bw;
			struct ct_stats_comparison c = { 0 };

			if (!spread((enum rule)r, cal, gaps[g], ho->reboots, &bw)) {
				t[r].refused++;
				continue;
			}
			if (ct_stats_compare_across(xa, sa, RUNS, xb, sb, RUNS, &bw,
						    100 * (1 - ALPHA), &c))
				continue;
			t[r].judged++;
			t[r].rejected += c.p < ALPHA;
		}
	}
}

static void pct(unsigned a, unsigned b)
{
	if (b)
		printf(" %.1f%% |", 100.0 * a / b);
	else
		printf(" - |");
}

static const char *fmt_gap(int64_t g, char *buf, size_t len)
{
	if (g < MIN)
		snprintf(buf, len, "%lld s", (long long)(g / SEC));
	else if (g < HOUR)
		snprintf(buf, len, "%lld min", (long long)(g / MIN));
	else
		snprintf(buf, len, "%lld h", (long long)(g / HOUR));
	return buf;
}

int main(int argc, char **argv)
{
	unsigned trials = 2000, missed = 0;
	bool check = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--trials") && i + 1 < argc)
			trials = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--check"))
			check = true;
		else {
			fprintf(stderr, "usage: drift-sim [--trials N] [--check]\n");
			return 2;
		}
	}
	if (!trials)
		trials = 1;
	printf("# The spread at the comparison's gap: the simulation study\n\nSeed %#llx; %u "
	       "comparisons a cell; K = %d calibration sessions and one session a side of %d "
	       "runs. Each rule: A/A, the share of the comparisons it judged that it called "
	       "different; refused, the share it did not judge (its pairs do not cover the "
	       "gap)%s.\n",
	       (unsigned long long)SEED, trials, K, RUNS, check ? "" : "; +15%, the share found");
	for (size_t h = 0; h < NH; h++) {
		printf("\n## %s\n\n| within | calibration | gap |", hosts[h].name);
		for (int r = 0; r < NRULES; r++)
			printf(" %s: A/A | refused |%s", rule_names[r], check ? "" : " +15% |");
		printf("\n|---|---|---|");
		for (int r = 0; r < NRULES; r++)
			printf("---|---|%s", check ? "" : "---|");
		printf("\n");
		for (size_t w = 0; w < NW; w++)
			for (size_t d = 0; d < ND; d++)
				for (size_t g = 0; g < NG; g++) {
					struct tally aa[NRULES], pw[NRULES];
					char b[32];
					/* the calibration's pairs span the gap (and
					 * a reboot when the comparison crosses one) */
					bool spans =
						(int64_t)(K - 1) * designs[d].every >= gaps[g] &&
						(!hosts[h].reboots || designs[d].boots);
					double lim;

					cell(h, w, d, g, 1, trials, aa);
					if (!check)
						cell(h, w, d, g, 1.15, trials, pw);
					printf("| %.0f%% | %s | %s |", 100 * wcovs[w],
					       designs[d].name, fmt_gap(gaps[g], b, sizeof(b)));
					for (int r = 0; r < NRULES; r++) {
						pct(aa[r].rejected, aa[r].judged);
						pct(aa[r].refused, trials);
						if (!check)
							pct(pw[r].rejected, pw[r].judged);
					}
					printf("\n");
					lim = aa[CHOSEN].judged
						      ? ALPHA + 3 * sqrt(ALPHA * (1 - ALPHA) /
									 aa[CHOSEN].judged)
						      : 1;
					if (aa[CHOSEN].judged &&
					    (double)aa[CHOSEN].rejected / aa[CHOSEN].judged > lim) {
						missed++;
						fprintf(stderr,
							"drift-sim: %s called %.1f%% of A/A "
							"different: "
							"%s, within %.0f%%, %s, gap %s\n",
							rule_names[CHOSEN],
							100.0 * aa[CHOSEN].rejected /
								aa[CHOSEN].judged,
							hosts[h].name, 100 * wcovs[w],
							designs[d].name, b);
					}
					if (spans && aa[CHOSEN].refused) {
						missed++;
						fprintf(stderr,
							"drift-sim: %s refused %u comparisons its "
							"calibration spans: %s, %s, gap %s\n",
							rule_names[CHOSEN], aa[CHOSEN].refused,
							hosts[h].name, designs[d].name, b);
					}
					fflush(stdout);
				}
	}
	return check && missed ? 1 : 0;
}
