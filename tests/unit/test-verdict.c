/*
 * ct_stats_verdict(), contend's verdict between two sides, without a
 * store: each scope it can judge in - one sitting's runs paired by key or
 * not, the sessions deciding, the machine's spread standing in, the runs
 * across sessions - checked against R (fixtures/stats/verdict.R and
 * sessions.R), the machine's spread at a comparison's gap
 * (ct_stats_spread_at(), fixtures/stats/spread.R), and the regression rule
 * ct_stats_differs().
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "contend/stats.h"
#include "contend/util.h"

static const char *const stats_fixture_files[] = { "sessions", "verdict", "spread", NULL };
#include "stats-fixture.h"

/* A side of a fixture's case: its values, and its sessions (SIDE.s) and
 * pair keys (SIDE.k) when R wrote them. */
struct fside {
	struct ct_stats_side s;
	int64_t sess[MAXV], keys[MAXV];
};

static void fside_load(struct fside *f, const char *name, const char *side)
{
	const struct rec *x, *s, *k;
	char key[32];

	snprintf(key, sizeof(key), "%s.x", side);
	x = find("data", name, key);
	assert_non_null(x);
	snprintf(key, sizeof(key), "%s.s", side);
	s = find("data", name, key);
	snprintf(key, sizeof(key), "%s.k", side);
	k = find("data", name, key);
	memset(f, 0, sizeof(*f));
	f->s.v = x->v;
	f->s.n = x->n;
	for (size_t i = 0; i < x->n; i++) {
		f->sess[i] = s ? (int64_t)s->v[i] : 1;
		f->keys[i] = k ? (int64_t)k->v[i] : 0;
	}
	f->s.session = f->sess;
	f->s.pair = k ? f->keys : NULL;
}

/* One sitting whose runs pair by key: the signed-rank test of the logs of
 * the matched values decides (nine of ten keys match); without the keys
 * the rank test of all the values does. */
static void test_sitting(void **state)
{
	const struct rec *w = val("pair", "signed"), *u = val("pair", "rank");
	struct ct_stats_rule rule = { .confidence = 95, .one_sitting = true };
	struct ct_stats_comparison c;
	struct fside b, o;

	(void)state;
	fside_load(&b, "pair", "b");
	fside_load(&o, "pair", "o");
	o.sess[0] = 2; /* the other config's session of the same --vary run */
	for (size_t i = 1; i < o.s.n; i++)
		o.sess[i] = 2;
	assert_int_equal(ct_stats_verdict(&b.s, &o.s, &rule, &c), 0);
	assert_int_equal(c.scope, CT_SCOPE_SESSION);
	assert_int_equal(c.decided_by, CT_TEST_SIGNED_RANK);
	assert_int_equal(c.npairs, (size_t)w->v[0]);
	check("signed-rank p", c.p, w->v[2], REL_P);
	assert_true(c.higher);
	assert_int_equal(c.outcome, CT_OUTCOME_HIGHER);
	check("p_adj, a family of one", c.p_adj, c.p, 1e-12);

	b.s.pair = o.s.pair = NULL;
	assert_int_equal(ct_stats_verdict(&b.s, &o.s, &rule, &c), 0);
	assert_int_equal(c.decided_by, CT_TEST_RANK);
	assert_int_equal(c.npairs, 0);
	check("rank p", c.p, u->v[1], REL_P);

	/* not one sitting, and no machine spread: the runs across sessions */
	rule.one_sitting = false;
	assert_int_equal(ct_stats_verdict(&b.s, &o.s, &rule, &c), 0);
	assert_int_equal(c.scope, CT_SCOPE_ACROSS);
	check("rank p across", c.p, u->v[1], REL_P);
}

/* Two sessions or more a side: Welch's t on the sessions' medians of logs
 * decides, whatever the rule is told of the machine. */
static void test_sessions(void **state)
{
	static const char *const cases[] = { "bal", "bal6", "unbal", "fluke" };
	struct ct_stats_between bw = { .var = 0.01, .df = 3, .runs = 5, .within = 0.001 };

	(void)state;
	for (size_t i = 0; i < CT_ARRAY_SIZE(cases); i++) {
		const struct rec *w = val(cases[i], "welch");
		struct ct_stats_rule rule = { .confidence = 95, .between = &bw };
		struct ct_stats_comparison c;
		struct fside b, o;

		fside_load(&b, cases[i], "b");
		fside_load(&o, cases[i], "o");
		assert_int_equal(ct_stats_verdict(&b.s, &o.s, &rule, &c), 0);
		assert_int_equal(c.scope, CT_SCOPE_SESSIONS);
		assert_int_equal(c.decided_by, CT_TEST_SESSIONS);
		check("sessions p", c.p, w->v[3], REL_P);
		check("sessions effect", c.effect, exp(w->v[0]), REL_STAT);
		assert_int_equal(c.outcome, w->v[3] < 0.05 ? (w->v[0] > 0 ? CT_OUTCOME_HIGHER
									  : CT_OUTCOME_LOWER)
							   : CT_OUTCOME_NO_DIFFERENCE);
		/* --within-session does not change what the sessions decide */
		rule.within_session = true;
		assert_int_equal(ct_stats_verdict(&b.s, &o.s, &rule, &c), 0);
		assert_int_equal(c.decided_by, CT_TEST_SESSIONS);
	}
}

/* One session a side: the machine's spread stands in when it is known and
 * the runs are not to decide alone; else the rank test of the runs. */
static void test_machine(void **state)
{
	const struct rec *m = val("across", "machine"), *w = val("across", "across"),
			 *u = val("across", "rank");
	struct ct_stats_between bw = { .var = NAN };
	struct ct_stats_rule rule = { .confidence = 95, .between = &bw };
	struct ct_stats_comparison c;
	struct fside b, o, cal;

	(void)state;
	fside_load(&cal, "across", "c1");
	assert_int_equal(ct_stats_between_add(&bw, cal.s.v, cal.s.session, cal.s.n), 0);
	check("machine var", bw.var, m->v[0], REL_STAT);
	fside_load(&b, "across", "b");
	fside_load(&o, "across", "o");
	assert_int_equal(ct_stats_scope_of(&b.s, &o.s, &rule), CT_SCOPE_MACHINE);
	assert_int_equal(ct_stats_verdict(&b.s, &o.s, &rule, &c), 0);
	assert_int_equal(c.scope, CT_SCOPE_MACHINE);
	assert_int_equal(c.decided_by, CT_TEST_ACROSS);
	check("across p", c.p, w->v[3], REL_P);
	check("across low", c.effect_low, exp(w->v[4]), REL_STAT);

	rule.within_session = true;
	assert_int_equal(ct_stats_verdict(&b.s, &o.s, &rule, &c), 0);
	assert_int_equal(c.scope, CT_SCOPE_ACROSS);
	assert_int_equal(c.decided_by, CT_TEST_RANK);
	check("runs alone p", c.p, u->v[1], REL_P);

	rule.within_session = false;
	rule.between = NULL;
	assert_int_equal(ct_stats_verdict(&b.s, &o.s, &rule, &c), 0);
	assert_int_equal(c.scope, CT_SCOPE_ACROSS);
	check("no spread known p", c.p, u->v[1], REL_P);

	/* a session of one run has no within-session variance: the machine's
	 * spread cannot stand in, and the scope says the runs decided */
	rule.between = &bw;
	o.s.n = 1;
	assert_int_equal(ct_stats_verdict(&b.s, &o.s, &rule, &c), 0);
	assert_int_equal(c.scope, CT_SCOPE_ACROSS);
	assert_int_equal(c.decided_by, CT_TEST_NONE);
	assert_int_equal(c.outcome, CT_OUTCOME_NOT_ENOUGH);
}

/* Keys that pair: equal keys only, a key given twice pairing once, 0
 * pairing with nothing; too few pairs leave the rank test to decide. */
static void test_pairing(void **state)
{
	double b[8] = { 10, 11, 12, 13, 14, 15, 16, 17 }, o[8];
	int64_t kb[8] = { 1, 2, 3, 4, 5, 6, 0, 0 }, ko[8] = { 6, 5, 4, 3, 2, 1, 1, 0 };
	struct ct_stats_side sb = { .v = b, .pair = kb, .n = 8 },
			     so = { .v = o, .pair = ko, .n = 8 };
	struct ct_stats_rule rule = { .one_sitting = true };
	struct ct_stats_comparison c;

	(void)state;
	for (int i = 0; i < 8; i++)
		o[i] = b[7 - i] * 1.01;
	assert_int_equal(ct_stats_verdict(&sb, &so, &rule, &c), 0);
	/* keys 1..6 pair, o's second key 1 and both 0s with nothing */
	assert_int_equal(c.npairs, 6);
	assert_int_equal(c.decided_by, CT_TEST_SIGNED_RANK);
	/* o higher in every pair: the exact signed-rank p of 6 positive pairs */
	check("six positive pairs", c.p, 2.0 / 64, 1e-12);
	kb[5] = 0;
	assert_int_equal(ct_stats_verdict(&sb, &so, &rule, &c), 0);
	assert_int_equal(c.npairs, 5);
	assert_int_equal(c.decided_by, CT_TEST_RANK);
}

static void test_differs(void **state)
{
	struct ct_stats_comparison c = { .decided_by = CT_TEST_RANK, .p = 0.03 };

	(void)state;
	assert_true(ct_stats_differs(&c, 95));
	assert_false(ct_stats_differs(&c, 99));
	c.p = 0.05;
	assert_false(ct_stats_differs(&c, 95));
	c.p = 0.001;
	c.decided_by = CT_TEST_NONE;
	assert_false(ct_stats_differs(&c, 95));
}

/* The sittings of spread.R's case "s". */
static size_t sittings(struct ct_stats_sitting *s)
{
	const struct rec *cfg = find("data", "s", "config"), *m = find("data", "s", "mean"),
			 *n = find("data", "s", "n"), *ss = find("data", "s", "ss"),
			 *st = find("data", "s", "start"), *b = find("data", "s", "boot");

	assert_non_null(cfg);
	for (size_t i = 0; i < cfg->n; i++)
		s[i] = (struct ct_stats_sitting){ .config = (int64_t)cfg->v[i],
						  .session = (int64_t)i + 1,
						  .start_ns = (int64_t)st->v[i] * 1000000000LL,
						  .boot = (uint64_t)b->v[i],
						  .n = (size_t)n->v[i],
						  .mean = m->v[i],
						  .ss = ss->v[i] };
	return cfg->n;
}

/* The spread at a comparison's gap: the pairs at least that far apart
 * (across a reboot when it crosses one; the farthest when none is, not
 * covering), their variance, runs, within part and Satterthwaite's
 * degrees of freedom, as R computes them; and the verdict one session a
 * side then gets. */
static void test_spread(void **state)
{
	static const struct {
		const char *name;
		int64_t gap_s;
		bool reboot;
	} cases[] = { { "gap0", 0, false },
		      { "gap1000", 1000, false },
		      { "gap1000reboot", 1000, true },
		      { "gap5000", 5000, false } };
	struct ct_stats_sitting s[16];
	size_t n = sittings(s);

	(void)state;
	for (size_t k = 0; k < CT_ARRAY_SIZE(cases); k++) {
		const struct rec *r = val(cases[k].name, "spread");
		struct ct_stats_between bw;

		assert_int_equal(ct_stats_spread_at(s, n, cases[k].gap_s * 1000000000LL,
						    cases[k].reboot, &bw),
				 0);
		assert_int_equal(bw.covers, r->v[0] != 0);
		assert_int_equal(bw.npairs, (size_t)r->v[1]);
		check("var", bw.var, r->v[2], 1e-12);
		check("runs", bw.runs, r->v[3], 1e-12);
		check("within", bw.within, r->v[4], 1e-12);
		check("df", bw.df, r->v[5], 1e-12);
		assert_int_equal(bw.min_gap_ns, (int64_t)r->v[6] * 1000000000LL);
		assert_int_equal(bw.max_gap_ns, (int64_t)r->v[7] * 1000000000LL);
	}
	{
		const struct rec *b = find("data", "t", "b"), *o = find("data", "t", "o"),
				 *t = val("t", "across");
		int64_t sb[8], so[8];
		struct ct_stats_between bw;
		struct ct_stats_comparison c = { 0 };

		for (size_t i = 0; i < b->n; i++) {
			sb[i] = 100;
			so[i] = 101;
		}
		assert_int_equal(ct_stats_spread_at(s, n, 1000 * 1000000000LL, false, &bw), 0);
		assert_int_equal(
			ct_stats_compare_across(b->v, sb, b->n, o->v, so, o->n, &bw, 95, &c), 0);
		check("t", c.sessions_t.t, t->v[0], 1e-9);
		check("df", c.sessions_t.df, t->v[1], 1e-12);
		check("p", c.sessions_t.p, t->v[2], 1e-9);
	}
	/* no pair at all: no estimate */
	{
		struct ct_stats_between bw;

		assert_int_equal(ct_stats_spread_at(s, 1, 0, false, &bw), 0);
		assert_false(bw.df > 0);
		assert_false(bw.covers);
		assert_true(isnan(bw.var));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sitting), cmocka_unit_test(test_sessions),
		cmocka_unit_test(test_machine), cmocka_unit_test(test_pairing),
		cmocka_unit_test(test_differs), cmocka_unit_test(test_spread),
	};
	return cmocka_run_group_tests(tests, load_fixture, free_fixture);
}
