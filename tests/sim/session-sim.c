/*
 * The simulation study that chooses contend's rule across sessions
 * (docs/statistics.md, "Across sessions"): each config measured in S
 * sessions of n runs, every session moved as a whole by a random effect -
 * value = 100 exp(mu + b + e), b ~ N(0, sb) one draw a session, e ~ N(0,
 * sw) one a run, sb and sw from a between-session CoV of 0, 2, 5, 10, 20%
 * and a within-session CoV of 1, 3, 10%, clean or with 7% of runs x1.5 -
 * for S = 1 to 6 sessions a side and n = 3, 5, 10, 20 runs a session, and
 * with the last session of one side cut short (n / 4 runs, at least 1).
 * For each candidate rule: how often it calls a difference when there is
 * none (A/A), and how often it finds a true +5% and +10% slowdown; and,
 * reported without a criterion, A/A with sides unlike in sessions and in
 * their spread. Thousands of comparisons a cell, each cell from its own
 * fixed seed. The criteria: (a) A/A at most alpha in every cell of 2 to 6
 * sessions a side, (c) every verdict's interval agrees with its test; of
 * the rules meeting (a), the best mean power is the one to choose.
 *
 * usage: session-sim [--trials N] [--boot-trials N] [--pooled-trials N]
 *   [--judge RULE] [--check] [--cells]
 *   --trials N: comparisons a cell (10,000); --boot-trials N: of those,
 *   how many the hierarchical bootstrap judges (1,000; it resamples 499
 *   times); --pooled-trials N: how many the rule that pools the runs
 *   judges, A/A only (200; its exact U costs up to 25 ms at 40 to 50 runs
 *   a side); 0 leaves either out;
 *   --judge RULE: judge the rule of that index in rules[] (0 is the rule
 *   that ignores sessions) instead of contend's;
 *   --check: the reduced study of make check: the A/A cells and +5%, no
 *   +10%; exits 1 when the judged rule misses a criterion;
 *   --cells: every cell's rates too, one tab-separated line each;
 *   --across: only the study of one session a side with the machine's
 *   estimate.
 * A rate over N trials is off by sqrt(p (1 - p) / N): the A/A criterion
 * allows three of those standard errors over alpha, as verdict-sim does.
 */
#include "contend/stats.h"
#include "contend/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALPHA	  0.05
#define SEED	  0x73657373696f6eULL
#define MAX_S	  6
#define MAX_RUNS  (MAX_S * 20)
#define DISTURB_P 0.07
#define DISTURB_X 1.5
#define BOOT_B	  499

/* ------------------------------------------------------------------ */
/* Random numbers: xorshift64* (core/util.c), Box-Muller normals.      */

static double unif(uint64_t *st)
{
	return ((double)(ct_rand64(st) >> 11) + 0.5) / 9007199254740992.0;
}

static double norm(uint64_t *st)
{
	return sqrt(-2 * log(unif(st))) * cos(2 * M_PI * unif(st));
}

/* an index in [0, m), m small */
static size_t pick(uint64_t *st, size_t m)
{
	return (size_t)(((ct_rand64(st) >> 32) * (uint64_t)m) >> 32);
}

/* ------------------------------------------------------------------ */
/* The design.                                                         */

static const size_t ses[] = { 1, 2, 3, 4, 5, 6 }; /* sessions a side */
static const size_t runs[] = { 3, 5, 10, 20 };	  /* runs a session */
static const double bcov[] = { 0, 0.02, 0.05, 0.10, 0.20 };
static const double wcov[] = { 0.01, 0.03, 0.10 };
static const double effect[] = { 1, 1.05, 1.10 };
#define NS    CT_ARRAY_SIZE(ses)
#define NN    CT_ARRAY_SIZE(runs)
#define NB    CT_ARRAY_SIZE(bcov)
#define NW    CT_ARRAY_SIZE(wcov)
#define NE    CT_ARRAY_SIZE(effect)
#define CUT_W 1 /* the cut-short cells: within CoV 3% only */

struct design {
	size_t s, n;
	double sb, sw; /* sd of the logs */
	size_t so;     /* the other side's sessions and between sd */
	double sbo;
	bool flukes;
	bool cut; /* the other side's last session cut to n / 4 runs */
	double shift;
};

/* One side's runs and the session of each; session j holds the runs
 * start[j] .. start[j + 1] - 1. */
struct side {
	size_t k, n;
	size_t start[MAX_S + 1];
	double x[MAX_RUNS], lx[MAX_RUNS];
	int64_t sess[MAX_RUNS];
};

static void draw_side(struct side *sd, const struct design *d, bool other, uint64_t *st)
{
	size_t at = 0;

	sd->k = other ? d->so : d->s;
	for (size_t j = 0; j < sd->k; j++) {
		size_t m = d->n;
		double b = (other ? d->sbo : d->sb) * norm(st);

		if (other && d->cut && j == sd->k - 1)
			m = d->n / 4 ? d->n / 4 : 1;
		sd->start[j] = at;
		for (size_t i = 0; i < m; i++, at++) {
			double v = 100 * exp(b + d->sw * norm(st));

			if (d->flukes && unif(st) < DISTURB_P)
				v *= DISTURB_X;
			sd->x[at] = other ? v * d->shift : v;
			sd->lx[at] = log(sd->x[at]);
			sd->sess[at] = (int64_t)j;
		}
	}
	sd->start[sd->k] = at;
	sd->n = at;
}

/* ------------------------------------------------------------------ */
/* The rules. Each returns whether it calls a difference, and whether  */
/* its interval (of the ratio other/base) leaves out 1.                */

struct outcome {
	bool reject;
	bool ci_excludes; /* the rule's interval leaves out "no change" */
	bool ok;	  /* the rule could be applied */
};

typedef struct outcome (*rule_fn)(const struct side *b, const struct side *o, uint64_t *st);

/* t statistic, its interval diff +- q * se: consistent by construction */
static struct outcome t_outcome(int rc, const struct ct_stats_ttest *t)
{
	struct outcome r = { 0 };
	double q;

	if (rc)
		return r;
	q = ct_stats_t_quantile(1 - ALPHA / 2, t->df);
	r.ok = true;
	r.reject = t->p < ALPHA;
	r.ci_excludes = t->diff - q * t->se > 0 || t->diff + q * t->se < 0;
	return r;
}

/* contend's verdict as ct_stats_decide() gives it */
static struct outcome verdict(struct ct_stats_comparison *c)
{
	struct outcome r = { 0 };

	if (c->decided_by == CT_TEST_NONE || ct_stats_decide(&c, 1, 100 * (1 - ALPHA)))
		return r;
	r.ok = true;
	r.reject = c->outcome == CT_OUTCOME_HIGHER || c->outcome == CT_OUTCOME_LOWER;
	r.ci_excludes = c->effect_low > 1 || c->effect_high < 1;
	return r;
}

/* R0: contend's rule for one session a side, every run pooled:
 * Mann-Whitney U and Hodges-Lehmann's interval (ct_stats_compare). */
static struct outcome pooled(const struct side *b, const struct side *o, uint64_t *st)
{
	struct ct_stats_comparison c;

	(void)st;
	ct_stats_compare(b->x, b->n, o->x, o->n, NULL, NULL, 0, 100 * (1 - ALPHA), &c);
	return verdict(&c);
}

static void session_means(const struct side *sd, double *out)
{
	for (size_t j = 0; j < sd->k; j++) {
		double s = 0;

		for (size_t i = sd->start[j]; i < sd->start[j + 1]; i++)
			s += sd->lx[i];
		out[j] = s / (double)(sd->start[j + 1] - sd->start[j]);
	}
}

static void session_medians(const struct side *sd, double *out)
{
	double buf[MAX_RUNS];

	for (size_t j = 0; j < sd->k; j++) {
		size_t m = sd->start[j + 1] - sd->start[j];

		memcpy(buf, sd->lx + sd->start[j], m * sizeof(*buf));
		out[j] = ct_stats_median(buf, m);
	}
}

/* R1: Welch's t on the sessions' means of logs (Kalibera and Jones's
 * interval: the variance from the top level) */
static struct outcome welch_means(const struct side *b, const struct side *o, uint64_t *st)
{
	double mb[MAX_S], mo[MAX_S];
	struct ct_stats_ttest t;

	(void)st;
	session_means(b, mb);
	session_means(o, mo);
	return t_outcome(ct_stats_welch(mo, o->k, mb, b->k, &t), &t);
}

/* R2: contend's, ct_stats_compare_sessions(): Welch's t on the sessions'
 * medians of logs. contend calls ct_stats_compare() first, but nothing it
 * sets survives when the sessions decide; left out here, as its exact U
 * costs up to 25 ms a comparison at 40 to 50 runs a side. */
static struct outcome contend_rule(const struct side *b, const struct side *o, uint64_t *st)
{
	struct ct_stats_comparison c = { 0 };
	struct outcome r = { 0 };

	(void)st;
	if (ct_stats_compare_sessions(b->x, b->sess, b->n, o->x, o->sess, o->n, 100 * (1 - ALPHA),
				      &c) ||
	    c.decided_by != CT_TEST_SESSIONS)
		return r;
	return verdict(&c);
}

/* R3: Student's pooled-variance t on the sessions' medians of logs */
static struct outcome student_medians(const struct side *b, const struct side *o, uint64_t *st)
{
	double mb[MAX_S], mo[MAX_S];
	struct ct_stats_ttest t;

	(void)st;
	session_medians(b, mb);
	session_medians(o, mo);
	return t_outcome(ct_stats_student(mo, o->k, mb, b->k, &t), &t);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* the mean log of one hierarchical resample: sessions with replacement,
 * then the runs of each with replacement */
static double resample_mean(const struct side *sd, uint64_t *st)
{
	double s = 0;
	size_t cnt = 0;

	for (size_t j = 0; j < sd->k; j++) {
		size_t g = pick(st, sd->k), at = sd->start[g];
		size_t m = sd->start[g + 1] - at;

		for (size_t i = 0; i < m; i++)
			s += sd->lx[at + pick(st, m)];
		cnt += m;
	}
	return s / (double)cnt;
}

/* R4: the hierarchical bootstrap's percentile interval of the difference
 * of mean logs, BOOT_B resamples; it decides when the interval leaves out
 * 0 */
static struct outcome boot(const struct side *b, const struct side *o, uint64_t *st)
{
	double d[BOOT_B];
	struct outcome r = { 0 };
	size_t lo = (size_t)((BOOT_B + 1) * ALPHA / 2) - 1;

	for (size_t i = 0; i < BOOT_B; i++)
		d[i] = resample_mean(o, st) - resample_mean(b, st);
	qsort(d, BOOT_B, sizeof(*d), cmp_d);
	r.ok = true;
	r.reject = r.ci_excludes = d[lo] > 0 || d[BOOT_B - 1 - lo] < 0;
	return r;
}

/* R5: the difference of grand means of logs, its variance from the
 * variance components (ct_stats_levels, ANOVA) - sb2 / S + sw2 / (S n) a
 * side, n the mean session size - and Satterthwaite's df with S - 1 a
 * side */
static struct outcome components(const struct side *b, const struct side *o, uint64_t *st)
{
	struct ct_stats_levels lb, lo;
	struct ct_stats_ttest t;
	double vb, vo;

	(void)st;
	if (ct_stats_levels(b->x, b->sess, b->n, &lb) || ct_stats_levels(o->x, o->sess, o->n, &lo))
		return (struct outcome){ 0 };
	vb = lb.between_var / (double)b->k + lb.within_var / (double)b->n;
	vo = lo.between_var / (double)o->k + lo.within_var / (double)o->n;
	if (!(vb + vo > 0))
		return (struct outcome){ 0 };
	t.diff = lo.mean - lb.mean;
	t.se = sqrt(vb + vo);
	t.t = t.diff / t.se;
	t.df = (vb + vo) * (vb + vo) /
	       (vb * vb / (double)(b->k - 1) + vo * vo / (double)(o->k - 1));
	/* p through the quantile: only whether it is under alpha matters */
	t.p = fabs(t.t) > ct_stats_t_quantile(1 - ALPHA / 2, t.df) ? 0 : 1;
	return t_outcome(0, &t);
}

#define R_POOLED 0
#define R_BOOT	 4
static const struct {
	const char *name;
	rule_fn fn;
} rules[] = {
	{ "R0 runs pooled, sessions ignored (Mann-Whitney U)", pooled },
	{ "R1 Welch t on session means of logs", welch_means },
	{ "**R2 contend: Welch t on session medians of logs**", contend_rule },
	{ "R3 Student t on session medians of logs", student_medians },
	{ "R4 hierarchical bootstrap, percentile", boot },
	{ "R5 variance components (ANOVA), Satterthwaite", components },
};
#define NRULES CT_ARRAY_SIZE(rules)
/* the rule the criteria judge: contend's, unless --judge names another */
static size_t chosen = 2;

/* ------------------------------------------------------------------ */
/* The study.                                                          */

/* A cell of the study, and its place in it: the index of the effect, cut
 * short or not, and of S, n, the between and within CoV, and flukes or
 * not. SIZE_MAX in a filter: any. */
struct cell {
	size_t e, c, s, n, b, w, f;
};
#define NCELLS (NE * 2 * NS * NN * NB * NW * 2)

static struct cell cell_of(size_t id)
{
	struct cell x;

	x.f = id % 2, id /= 2;
	x.w = id % NW, id /= NW;
	x.b = id % NB, id /= NB;
	x.n = id % NN, id /= NN;
	x.s = id % NS, id /= NS;
	x.c = id % 2, id /= 2;
	x.e = id;
	return x;
}

static bool matches(const struct cell *x, const struct cell *want)
{
	const size_t *a = &x->e, *b = &want->e;

	for (size_t i = 0; i < sizeof(*x) / sizeof(size_t); i++)
		if (b[i] != SIZE_MAX && a[i] != b[i])
			return false;
	return true;
}

#define ANY SIZE_MAX

/* A/A with sides that differ in how many sessions they hold and how much
 * those move: no criterion, reported */
static const struct {
	size_t s, so;
	double cov, covo;
} spread[] = {
	{ 2, 6, 0.05, 0.05 }, { 2, 6, 0.10, 0.02 }, { 2, 6, 0.02, 0.10 },
	{ 3, 6, 0.10, 0.02 }, { 4, 4, 0.02, 0.10 },
};
#define NSPREAD CT_ARRAY_SIZE(spread)

struct study {
	unsigned trials, boot_trials, pooled_trials;
	bool check, cells;
	double rate[NCELLS][NRULES]; /* NaN: not simulated */
	double spread[NSPREAD][NRULES];
	unsigned inconsistent; /* the judged rule's verdicts whose interval disagreed */
};

static unsigned rule_trials(const struct study *sd, size_t r)
{
	return r == R_BOOT ? sd->boot_trials : r == R_POOLED ? sd->pooled_trials : sd->trials;
}

/* whether rule r judges a cell: the rule that ignores sessions A/A only
 * (it fails it), the others with 2 sessions a side or more */
static bool judges(const struct study *sd, size_t r, const struct design *d)
{
	return rule_trials(sd, r) && (r == R_POOLED ? d->shift == 1 : d->s >= 2 && d->so >= 2);
}

/* the A/A limit for a rule: alpha plus three standard errors */
static double limit(const struct study *sd, size_t r)
{
	return ALPHA + 3 * sqrt(ALPHA * (1 - ALPHA) / rule_trials(sd, r));
}

/* One cell: each rule judges the first rule_trials() comparisons; the
 * bootstrap resamples from a stream of its own so the draws do not depend
 * on it. A rule that cannot decide counts as no verdict. */
static void simulate(struct study *sd, const struct design *d, double *rate, uint64_t seed)
{
	uint64_t st = seed, bst = seed ^ 0xb00710b00710ULL;
	unsigned hits[NRULES] = { 0 }, trials = 0;

	for (size_t r = 0; r < NRULES; r++)
		if (judges(sd, r, d) && rule_trials(sd, r) > trials)
			trials = rule_trials(sd, r);
	for (unsigned t = 0; t < trials; t++) {
		struct side b, o;

		draw_side(&b, d, false, &st);
		draw_side(&o, d, true, &st);
		for (size_t r = 0; r < NRULES; r++) {
			struct outcome out;

			if (!judges(sd, r, d) || t >= rule_trials(sd, r))
				continue;
			out = rules[r].fn(&b, &o, &bst);
			hits[r] += out.ok && out.reject;
			sd->inconsistent += r == chosen && out.ok && out.reject != out.ci_excludes;
		}
	}
	for (size_t r = 0; r < NRULES; r++)
		rate[r] = judges(sd, r, d) ? (double)hits[r] / rule_trials(sd, r) : NAN;
}

static double log_sd(double cov)
{
	return sqrt(log1p(cov * cov));
}

/* Every cell: A/A and the slowdowns (--check: not +10%); one session a
 * side A/A only; cut short: 2 sessions or more, within CoV 3%. Each cell
 * from SEED and its place in the study. */
static void run_cells(struct study *sd)
{
	for (size_t id = 0; id < NCELLS; id++) {
		struct cell x = cell_of(id);
		struct design d = {
			.s = ses[x.s],
			.so = ses[x.s],
			.n = runs[x.n],
			.sb = log_sd(bcov[x.b]),
			.sbo = log_sd(bcov[x.b]),
			.sw = log_sd(wcov[x.w]),
			.flukes = x.f == 1,
			.cut = x.c == 1,
			.shift = effect[x.e],
		};

		for (size_t r = 0; r < NRULES; r++)
			sd->rate[id][r] = NAN;
		if ((sd->check && x.e == NE - 1) || (x.c && (x.w != CUT_W || !x.s)) ||
		    (x.e && !x.s))
			continue;
		simulate(sd, &d, sd->rate[id], SEED + 0x9e3779b97f4a7c15ULL * (id + 1));
	}
	for (size_t i = 0; i < NSPREAD; i++) {
		struct design d = {
			.s = spread[i].s,
			.so = spread[i].so,
			.n = 10,
			.sb = log_sd(spread[i].cov),
			.sbo = log_sd(spread[i].covo),
			.sw = log_sd(wcov[1]),
			.shift = 1,
		};

		simulate(sd, &d, sd->spread[i], SEED ^ (0x5eedULL + i));
	}
}

/* ------------------------------------------------------------------ */
/* One session a side, with the machine's estimate: a calibration     */
/* config measured in K sessions of CAL_RUNS runs on the same machine  */
/* (same between and within CoV, same flukes) gives the between-       */
/* session variance (ct_stats_between_add); then one session of n runs */
/* a side is compared by the runs alone (R0, what contend did) and by  */
/* contend's rule across sessions (ct_stats_compare_across).           */

static void rate_cell(double v);
static void header(const char *first, const char *second, const char *last);

static const size_t cal_ses[] = { 2, 3, 4, 6 };
#define NK	 CT_ARRAY_SIZE(cal_ses)
#define CAL_RUNS 5

struct across {
	/* [rule: 0 runs pooled, 1 contend][effect][K][n][between][within][flukes] */
	double rate[2][NE][NK][NN][NB][NW][2];
	unsigned inconsistent;
};

static struct outcome across_rule(const struct side *b, const struct side *o,
				  const struct ct_stats_between *bw)
{
	struct ct_stats_comparison c = { 0 };
	struct outcome r = { 0 };

	if (ct_stats_compare_across(b->x, b->sess, b->n, o->x, o->sess, o->n, bw, 100 * (1 - ALPHA),
				    &c))
		return r;
	return verdict(&c);
}

static void across_cell(const struct study *sd, struct across *ac, size_t e, size_t k, size_t n,
			size_t b, size_t w, size_t f, uint64_t seed)
{
	struct design cal = { .s = cal_ses[k],
			      .so = cal_ses[k],
			      .n = CAL_RUNS,
			      .sb = log_sd(bcov[b]),
			      .sbo = log_sd(bcov[b]),
			      .sw = log_sd(wcov[w]),
			      .flukes = f == 1,
			      .shift = 1 };
	struct design d = cal;
	uint64_t st = seed;
	unsigned hits[2] = { 0 }, pooled_n = e ? 0 : sd->pooled_trials;

	d.s = d.so = 1;
	d.n = runs[n];
	d.shift = effect[e];
	for (unsigned t = 0; t < sd->trials; t++) {
		struct side c, bs, os;
		struct ct_stats_between bw = { .var = NAN };
		struct outcome out;

		draw_side(&c, &cal, false, &st);
		draw_side(&bs, &d, false, &st);
		draw_side(&os, &d, true, &st);
		if (ct_stats_between_add(&bw, c.x, c.sess, c.n))
			continue;
		out = across_rule(&bs, &os, &bw);
		hits[1] += out.ok && out.reject;
		ac->inconsistent += out.ok && out.reject != out.ci_excludes;
		if (t < pooled_n) {
			out = pooled(&bs, &os, &st);
			hits[0] += out.ok && out.reject;
		}
	}
	ac->rate[0][e][k][n][b][w][f] = pooled_n ? (double)hits[0] / pooled_n : NAN;
	ac->rate[1][e][k][n][b][w][f] = (double)hits[1] / sd->trials;
}

static void run_across(const struct study *sd, struct across *ac)
{
	size_t id = 0;

	for (size_t e = 0; e < NE; e++)
		for (size_t k = 0; k < NK; k++)
			for (size_t n = 0; n < NN; n++)
				for (size_t b = 0; b < NB; b++)
					for (size_t w = 0; w < NW; w++)
						for (size_t f = 0; f < 2; f++, id++) {
							for (size_t r = 0; r < 2; r++)
								ac->rate[r][e][k][n][b][w][f] = NAN;
							if (sd->check && e == NE - 1)
								continue;
							across_cell(
								sd, ac, e, k, n, b, w, f,
								SEED ^ (0xacc055ULL * (id + 1)));
						}
}

/* the worst (or mean) rate of rule r over the cells of effect e that
 * match k, n, b (SIZE_MAX: any), every within CoV */
static double across_agg(const struct across *ac, size_t r, size_t e, size_t k, size_t n, size_t b,
			 size_t f, bool mean, unsigned *cells, unsigned *over, double lim)
{
	double worst = NAN, sum = 0;
	unsigned m = 0;

	for (size_t kk = 0; kk < NK; kk++)
		for (size_t nn = 0; nn < NN; nn++)
			for (size_t bb = 0; bb < NB; bb++)
				for (size_t w = 0; w < NW; w++)
					for (size_t ff = 0; ff < 2; ff++) {
						double v = ac->rate[r][e][kk][nn][bb][w][ff];

						if ((k != ANY && kk != k) ||
						    (n != ANY && nn != n) ||
						    (b != ANY && bb != b) ||
						    (f != ANY && ff != f) || isnan(v))
							continue;
						worst = isnan(worst) || v > worst ? v : worst;
						sum += v;
						m++;
						if (over)
							*over += v > lim;
					}
	if (cells)
		*cells += m;
	return mean ? (m ? sum / m : NAN) : worst;
}

/* the tables of the study across; whether contend's rule meets its
 * criteria: A/A at most the limit in every cell, intervals that agree */
static bool across_tables(const struct study *sd, const struct across *ac)
{
	unsigned cells = 0, over = 0;
	double lim = ALPHA + 3 * sqrt(ALPHA * (1 - ALPHA) / sd->trials);

	printf("\n## One session a side, with the machine's between-session estimate\n\n"
	       "A calibration config in K sessions of %d runs (same CoVs, same flukes) gives the "
	       "between-session variance; one session of n runs a side is then compared. %u "
	       "trials a cell (runs pooled: %u, A/A only); the worst over within CoV 1%%, 3%%, "
	       "10%%, clean and 7%% x1.5.\n",
	       CAL_RUNS, sd->trials, sd->pooled_trials);
	header("K", "rule", NULL);
	for (size_t k = 0; k < NK; k++)
		for (size_t r = 0; r < 3; r++) {
			if (!r && !sd->pooled_trials)
				continue;
			printf("| %zu | %s |", cal_ses[k],
			       r == 2	? "contend, clean runs"
			       : r == 1 ? "**contend: t with the machine's estimate**"
					: "R0 runs pooled (the verdict without it)");
			for (size_t b = 0; b < NB; b++)
				rate_cell(across_agg(ac, r ? 1 : 0, 0, k, ANY, b, r == 2 ? 0 : ANY,
						     false, NULL, NULL, lim));
			printf("\n");
		}
	printf("\n## Power of the rule with the machine's estimate\n\n"
	       "The mean over within CoV 1%%, 3%%, 10%%, clean and 7%% x1.5, of K = 4 "
	       "calibration sessions; by runs a session.\n");
	header("effect", "runs", NULL);
	for (size_t e = 1; e < NE - sd->check; e++)
		for (size_t n = 0; n < NN; n++) {
			printf("| +%g%% | %zu |", 100 * (effect[e] - 1), runs[n]);
			for (size_t b = 0; b < NB; b++)
				rate_cell(
					across_agg(ac, 1, e, 2, n, b, ANY, true, NULL, NULL, lim));
			printf("\n");
		}
	(void)across_agg(ac, 1, 0, ANY, ANY, ANY, ANY, false, &cells, &over, lim);
	printf("\n- A/A cells over the limit (%.3f): %u of %u\n- verdicts whose interval "
	       "disagreed with the test: %u\n",
	       lim, over, cells, ac->inconsistent);
	return !over && !ac->inconsistent;
}

/* ------------------------------------------------------------------ */
/* The tables.                                                         */

static void rate_cell(double v)
{
	if (isnan(v))
		printf(" - |");
	else
		printf(" %.3f |", v);
}

/* a table's head: two columns, one per between CoV, and last if not NULL */
static void header(const char *first, const char *second, const char *last)
{
	printf("\n| %s | %s |", first, second);
	for (size_t b = 0; b < NB; b++)
		printf(" between %g%% |", 100 * bcov[b]);
	if (last)
		printf(" %s |", last);
	printf("\n|---|---|");
	for (size_t b = 0; b < NB + !!last; b++)
		printf("---|");
	printf("\n");
}

/* Over the cells that match want, of 2 sessions a side or more unless
 * want.s says 1: rule r's worst rate, its mean rate, and how many cells
 * are over the A/A limit */
struct agg {
	double worst, mean;
	unsigned cells, over;
};

static struct agg aggregate(const struct study *sd, size_t r, struct cell want)
{
	struct agg a = { .worst = NAN, .mean = NAN };
	double sum = 0;

	for (size_t id = 0; id < NCELLS; id++) {
		struct cell x = cell_of(id);
		double v = sd->rate[id][r];

		if (!matches(&x, &want) || isnan(v) || (!x.s && want.s == ANY))
			continue;
		a.worst = isnan(a.worst) || v > a.worst ? v : a.worst;
		sum += v;
		a.cells++;
		a.over += v > limit(sd, r);
	}
	if (a.cells)
		a.mean = sum / a.cells;
	return a;
}

static struct cell want(size_t e, size_t c, size_t s, size_t n, size_t b, size_t f)
{
	return (struct cell){ .e = e, .c = c, .s = s, .n = n, .b = b, .w = ANY, .f = f };
}

static void single_table(const struct study *sd)
{
	printf("\n## False verdicts on A/A, one session a side: runs pooled (R0)\n\n"
	       "%u trials a cell; the worst over within CoV 1%%, 3%%, 10%%. No rule can "
	       "estimate the between-session variance from one session a side; with 3 runs "
	       "the rule gives no verdict (it needs 4).\n",
	       sd->pooled_trials);
	header("runs", "runs x1.5", NULL);
	for (size_t n = 0; n < NN; n++)
		for (size_t f = 0; f < 2; f++) {
			printf("| %zu | %s |", runs[n], f ? "7%" : "none");
			for (size_t b = 0; b < NB; b++)
				rate_cell(aggregate(sd, R_POOLED, want(0, 0, 0, n, b, f)).worst);
			printf("\n");
		}
}

static void rules_table(const struct study *sd)
{
	printf("\n## False verdicts on A/A, 2 to 6 sessions a side, by rule\n\n"
	       "%u trials a cell (the bootstrap: %u, pooled runs: %u); the worst over 3, 5, "
	       "10 and 20 runs a session, within CoV 1%%, 3%% and 10%%, clean and with 7%% "
	       "of runs x1.5; \"over\": the cells of that row (sessions of equal sizes, and "
	       "one cut short) over the limit, alpha + 3 standard errors.\n",
	       sd->trials, sd->boot_trials, sd->pooled_trials);
	header("rule", "sessions", "over");
	for (size_t r = 0; r < NRULES; r++) {
		if (!rule_trials(sd, r))
			continue;
		for (size_t s = 1; s < NS; s++) {
			struct agg a = aggregate(sd, r, want(0, ANY, s, ANY, ANY, ANY));

			printf("| %s | %zu |", rules[r].name, ses[s]);
			for (size_t b = 0; b < NB; b++)
				rate_cell(aggregate(sd, r, want(0, 0, s, ANY, b, ANY)).worst);
			printf(" %u of %u |\n", a.over, a.cells);
		}
	}
}

static void judged_table(const struct study *sd)
{
	printf("\n## False verdicts on A/A of %s, cell by cell\n\n"
	       "%u trials a cell; the worst over within CoV 1%%, 3%%, 10%%; the between CoV "
	       "with clean runs, then with 7%% of runs x1.5.\n\n| sessions | runs |",
	       rules[chosen].name, rule_trials(sd, chosen));
	for (size_t f = 0; f < 2; f++)
		for (size_t b = 0; b < NB; b++)
			printf(" %g%%%s |", 100 * bcov[b], f ? " x1.5" : "");
	printf("\n|---|---|");
	for (size_t b = 0; b < 2 * NB; b++)
		printf("---|");
	printf("\n");
	for (size_t s = 1; s < NS; s++)
		for (size_t n = 0; n < NN; n++) {
			printf("| %zu | %zu |", ses[s], runs[n]);
			for (size_t f = 0; f < 2; f++)
				for (size_t b = 0; b < NB; b++)
					rate_cell(aggregate(sd, chosen, want(0, 0, s, n, b, f))
							  .worst);
			printf("\n");
		}
}

static void power_table(const struct study *sd, size_t e, size_t n, size_t w)
{
	printf("\n## Power against a +%g%% slowdown, %zu runs a session, within CoV %g%%\n\n"
	       "%u trials a cell (the bootstrap: %u); clean / 7%% of runs x1.5. The rule "
	       "that ignores sessions is left out: it fails A/A.\n",
	       100 * (effect[e] - 1), runs[n], 100 * wcov[w], sd->trials, sd->boot_trials);
	header("sessions", "rule", NULL);
	for (size_t s = 1; s < NS; s++)
		for (size_t r = 1; r < NRULES; r++) {
			if (!rule_trials(sd, r))
				continue;
			printf("| %zu | %s |", ses[s], rules[r].name);
			for (size_t b = 0; b < NB; b++) {
				struct cell clean = { e, 0, s, n, b, w, 0 }, flukes = clean;

				flukes.f = 1;
				printf(" %.2f / %.2f |", aggregate(sd, r, clean).worst,
				       aggregate(sd, r, flukes).worst);
			}
			printf("\n");
		}
}

static void cut_table(const struct study *sd)
{
	printf("\n## One session cut short\n\n"
	       "The other side's last session holds n / 4 runs (at least 1); within CoV %g%%, "
	       "every between CoV, runs a session, clean and 7%% x1.5: the worst A/A rate per "
	       "sessions a side, and the mean power over those cells.\n\n| rule |",
	       100 * wcov[CUT_W]);
	for (size_t s = 1; s < NS; s++)
		printf(" A/A, %zu |", ses[s]);
	for (size_t e = 1; e < NE - sd->check; e++)
		printf(" power +%g%% |", 100 * (effect[e] - 1));
	printf("\n|---|");
	for (size_t s = 1; s < NS + NE - 1 - sd->check; s++)
		printf("---|");
	printf("\n");
	for (size_t r = 0; r < NRULES; r++) {
		if (!rule_trials(sd, r))
			continue;
		printf("| %s |", rules[r].name);
		for (size_t s = 1; s < NS; s++)
			rate_cell(aggregate(sd, r, want(0, 1, s, ANY, ANY, ANY)).worst);
		for (size_t e = 1; e < NE - sd->check; e++)
			rate_cell(aggregate(sd, r, want(e, 1, ANY, ANY, ANY, ANY)).mean);
		printf("\n");
	}
}

static void spread_table(const struct study *sd)
{
	printf("\n## A/A with sides unlike in sessions and their spread\n\n"
	       "No criterion: reported. Sessions a side and between CoV of each, 10 runs a "
	       "session, within CoV %g%%, clean; %u trials a cell.\n\n| rule |",
	       100 * wcov[1], sd->trials);
	for (size_t i = 0; i < NSPREAD; i++)
		printf(" %zu at %g%%, %zu at %g%% |", spread[i].s, 100 * spread[i].cov,
		       spread[i].so, 100 * spread[i].covo);
	printf("\n|---|");
	for (size_t i = 0; i < NSPREAD; i++)
		printf("---|");
	printf("\n");
	for (size_t r = 1; r < NRULES; r++) {
		if (!rule_trials(sd, r))
			continue;
		printf("| %s |", rules[r].name);
		for (size_t i = 0; i < NSPREAD; i++)
			rate_cell(sd->spread[i][r]);
		printf("\n");
	}
}

/* the rules that meet the A/A criterion everywhere, their mean power;
 * returns whether the judged rule meets every criterion */
static bool summary(const struct study *sd)
{
	size_t best = SIZE_MAX;
	double best_power = 0;
	bool ok = false;

	printf("\n## Summary\n\n%u trials a cell (the bootstrap: %u, pooled runs: %u). A/A: "
	       "every cell of 2 to 6 sessions a side, equal sizes and one cut short. The mean "
	       "power is over the %zu cells of equal sizes (3, 5, 10, 20 runs a session x %zu "
	       "between CoVs x %zu within CoVs x clean or 7%% of runs x1.5).\n\n| rule | worst "
	       "A/A | cells over the limit | limit |",
	       sd->trials, sd->boot_trials, sd->pooled_trials, (NS - 1) * NN * NB * NW * 2, NB, NW);
	for (size_t e = 1; e < NE - sd->check; e++)
		printf(" mean power +%g%% |", 100 * (effect[e] - 1));
	printf("\n|---|---|---|---|");
	for (size_t e = 1; e < NE - sd->check; e++)
		printf("---|");
	printf("\n");
	for (size_t r = 0; r < NRULES; r++) {
		struct agg a = aggregate(sd, r, want(0, ANY, ANY, ANY, ANY, ANY));
		double p = aggregate(sd, r, want(1, 0, ANY, ANY, ANY, ANY)).mean;

		if (!rule_trials(sd, r))
			continue;
		printf("| %s | %.3f | %u of %u | %.3f |", rules[r].name, a.worst, a.over, a.cells,
		       limit(sd, r));
		for (size_t e = 1; e < NE - sd->check; e++)
			rate_cell(aggregate(sd, r, want(e, 0, ANY, ANY, ANY, ANY)).mean);
		printf("\n");
		if (r == chosen)
			ok = !a.over;
		if (!a.over && !isnan(p) && (best == SIZE_MAX || p > best_power)) {
			best = r;
			best_power = p;
		}
	}
	printf("\n- judged: %s\n", rules[chosen].name);
	printf("- verdicts whose interval disagreed with the test: %u\n", sd->inconsistent);
	if (best != SIZE_MAX)
		printf("- the best mean power at +5%% of the rules that meet the A/A criterion in "
		       "every cell: %s\n",
		       rules[best].name);
	ok = ok && !sd->inconsistent;
	printf("- the judged rule %s\n", ok ? "meets every criterion" : "misses a criterion");
	return ok;
}

static void print_cells(const struct study *sd)
{
	printf("\n## Every cell\n\neffect\tcut\tsessions\truns\tbetween\twithin\tflukes");
	for (size_t r = 0; r < NRULES; r++)
		printf("\tR%zu", r);
	printf("\n");
	for (size_t id = 0; id < NCELLS; id++) {
		struct cell x = cell_of(id);
		bool any = false;

		for (size_t r = 0; r < NRULES; r++)
			any = any || !isnan(sd->rate[id][r]);
		if (!any)
			continue;
		printf("%g\t%zu\t%zu\t%zu\t%g\t%g\t%zu", effect[x.e], x.c, ses[x.s], runs[x.n],
		       bcov[x.b], wcov[x.w], x.f);
		for (size_t r = 0; r < NRULES; r++)
			printf("\t%.4f", sd->rate[id][r]);
		printf("\n");
	}
}

int main(int argc, char **argv)
{
	static struct study sd = { .trials = 10000, .boot_trials = 1000, .pooled_trials = 200 };
	static struct across ac;
	bool ok = true, only_across = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--check"))
			sd.check = true;
		else if (!strcmp(argv[i], "--cells"))
			sd.cells = true;
		else if (!strcmp(argv[i], "--across"))
			only_across = true;
		else if (!strcmp(argv[i], "--trials") && i + 1 < argc)
			sd.trials = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--boot-trials") && i + 1 < argc)
			sd.boot_trials = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--pooled-trials") && i + 1 < argc)
			sd.pooled_trials = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--judge") && i + 1 < argc &&
			 strtoul(argv[i + 1], NULL, 10) < NRULES)
			chosen = strtoul(argv[++i], NULL, 10);
		else {
			fprintf(stderr, "usage: session-sim [--trials N] [--boot-trials N] "
					"[--pooled-trials N] [--judge RULE] [--check] [--cells] "
					"[--across]\n");
			return 2;
		}
	}
	if (!sd.trials || !rule_trials(&sd, chosen)) {
		fprintf(stderr, "session-sim: the judged rule needs trials\n");
		return 2;
	}
	printf("# contend's rule across sessions: the simulation study\n\nSeed %#llx; every "
	       "table is the same at every run.\n",
	       (unsigned long long)SEED);
	if (!only_across) {
		run_cells(&sd);
		single_table(&sd);
		rules_table(&sd);
		judged_table(&sd);
		cut_table(&sd);
		spread_table(&sd);
		for (size_t e = 1; e < NE - sd.check; e++)
			power_table(&sd, e, 2, 1);
		ok = summary(&sd);
	}
	run_across(&sd, &ac);
	ok = across_tables(&sd, &ac) && ok;
	if (sd.cells && !only_across)
		print_cells(&sd);
	return sd.check && !ok ? 1 : 0;
}
