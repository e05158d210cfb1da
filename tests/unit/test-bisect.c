/*
 * The bisection's driver (src/bisect/driver.c) without measuring: on a
 * real repository of 16 commits and a real store, steps are stored with
 * the answers a run would give, and the state machine must name what a
 * bisection does next - the regression first, the search's candidates,
 * the culprit against its parent, the end with its note - in both loops
 * (contend builds and measures; one step per boot), with one budget and
 * the answers of ct_bisector_answer() at the confidence asked.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "contend/bisection.h"
#include "contend/util.h"
#include "shell.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NCOMMITS 16

static char dir[256], repo[300], db[320];
static int64_t session;				    /* a stored session the steps' rows point at */
static char shas[NCOMMITS + 1][CT_GIT_SHA_LEN + 1]; /* 0 good, 1..16 the range, bad last */

static int setup(void **state)
{
	char err[CT_ERRLEN], rev[32];

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/contend-test-bisect.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(repo, sizeof(repo), "%s/repo", dir);
	snprintf(db, sizeof(db), "%s/results.db", dir);
	if (sh("set -e; export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t "
	       "GIT_COMMITTER_EMAIL=t@t; git init -q -b main '%s'; cd '%s'; "
	       "for i in $(seq 0 %d); do echo $i >f; git add f; git commit -q -m c$i; done",
	       repo, repo, NCOMMITS))
		return -1;
	for (int i = 0; i <= NCOMMITS; i++) {
		snprintf(rev, sizeof(rev), "HEAD~%d", NCOMMITS - i);
		if (ct_git_resolve(repo, rev, shas[i], err, sizeof(err)))
			return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (dir[0])
		sh("rm -rf '%s'", dir);
	return 0;
}

/* A new bisection of good..bad in mode, loaded. */
static void start(struct ct_bisector *c, enum ct_bisection_mode mode)
{
	char err[CT_ERRLEN] = "";

	memset(c, 0, sizeof(*c));
	unlink(db);
	assert_int_equal(ct_store_open(&c->st, db, CT_STORE_CREATE, err, sizeof(err)), 0);
	c->confidence = 95;
	c->max_runs = 40;
	c->delta = NAN;
	snprintf(c->b.repo, sizeof(c->b.repo), "%s", repo);
	snprintf(c->b.good, sizeof(c->b.good), "%s", shas[0]);
	snprintf(c->b.bad, sizeof(c->b.bad), "%s", shas[NCOMMITS]);
	c->b.mode = mode;
	c->b.status = CT_BISECTION_RUNNING;
	assert_int_equal(ct_store_bisection_put(c->st, &c->b, err, sizeof(err)), 0);
	{
		struct ct_session_rec rec = { 0 };

		snprintf(rec.workload, sizeof(rec.workload), "cmd");
		assert_int_equal(ct_store_session_begin(c->st, &rec, err, sizeof(err)), 0);
		session = rec.id;
	}
	assert_int_equal(ct_bisector_load(c, err, sizeof(err)), 0);
	assert_int_equal(c->range.n, NCOMMITS);
}

static void finish(struct ct_bisector *c)
{
	ct_bisector_release(c);
	ct_store_close(c->st);
}

/* Stores a step of plan p measuring sha with runs ok runs and answer a
 * (effect when bad: +10%), then loads the bisection again from the store,
 * as resume would. */
static void store_step(struct ct_bisector *c, const struct ct_bisect_plan *p, const char *sha,
		       enum ct_bisect_answer a, unsigned runs)
{
	struct ct_bisect_step s = { .bisection_id = c->b.id,
				    .seq = p->seq,
				    .role = p->role,
				    .session_id = session,
				    .answer = a,
				    .runs = runs,
				    .have_effect = a == CT_ANSWER_BAD,
				    .effect = a == CT_ANSWER_BAD ? 0.10 : 0.0 };
	char err[CT_ERRLEN] = "";

	snprintf(s.base, sizeof(s.base), "%s", p->base);
	snprintf(s.sha, sizeof(s.sha), "%s", sha);
	if (ct_store_bisect_step_put(c->st, &s, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(ct_store_bisect_step_end(c->st, &s, err, sizeof(err)), 0);
	assert_int_equal(ct_bisector_load(c, err, sizeof(err)), 0);
}

static void next(struct ct_bisector *c, struct ct_bisect_plan *p)
{
	char err[CT_ERRLEN] = "";

	assert_int_equal(ct_bisector_next(c, p, err, sizeof(err)), 0);
}

static long index_of(const char *sha)
{
	for (int i = 1; i <= NCOMMITS; i++)
		if (!strcmp(shas[i], sha))
			return i;
	return -1;
}

/* The interleaved loop over a culprit at commit 11: the regression, then
 * every candidate answered truly, then the culprit against its parent,
 * then the end. */
static void test_run_to_culprit(void **state)
{
	struct ct_bisector c;
	struct ct_bisect_plan p;
	int steps = 0;

	(void)state;
	start(&c, CT_BISECTION_RUN);
	next(&c, &p);
	assert_false(p.end);
	assert_int_equal(p.role, CT_ROLE_REGRESSION);
	assert_int_equal(p.seq, 0);
	assert_string_equal(p.base, shas[0]);
	assert_string_equal(p.sha, shas[NCOMMITS]);
	store_step(&c, &p, p.sha, CT_ANSWER_BAD, 10);
	assert_true(isfinite(c.delta));
	for (;;) {
		long i;

		next(&c, &p);
		assert_false(p.end);
		if (p.role == CT_ROLE_ACROSS)
			break;
		assert_int_equal(p.role, CT_ROLE_CANDIDATE);
		assert_string_equal(p.base, shas[0]);
		assert_int_equal(p.seq, (unsigned)steps + 1);
		i = index_of(p.sha);
		assert_true(i >= 1);
		store_step(&c, &p, p.sha, i >= 11 ? CT_ANSWER_BAD : CT_ANSWER_GOOD, 5);
		assert_true(++steps < 20);
	}
	/* halving 16 commits with a 10% chance of a wrong answer asks more
	 * than log2(16) steps before 99% */
	assert_true(steps >= 4);
	assert_string_equal(p.sha, shas[11]);
	assert_string_equal(p.base, shas[10]);
	assert_int_equal(ct_bisector_found(&c), 10);
	store_step(&c, &p, p.sha, CT_ANSWER_BAD, 10);
	next(&c, &p);
	assert_true(p.end);
	assert_int_equal(p.status, CT_BISECTION_FOUND);
	assert_int_equal(p.culprit, 10);
	finish(&c);
}

/* good and bad that do not differ end it, with the regression's why; a
 * step without its answer is measured again (resume) in the interleaved
 * loop. */
static void test_same_and_resume(void **state)
{
	struct ct_bisector c;
	struct ct_bisect_plan p;
	struct ct_bisect_step *s;
	char err[CT_ERRLEN] = "";

	(void)state;
	start(&c, CT_BISECTION_RUN);
	next(&c, &p);
	store_step(&c, &p, p.sha, CT_ANSWER_NONE, 7);
	next(&c, &p);
	assert_false(p.end);
	assert_true(p.resume);
	assert_int_equal(p.role, CT_ROLE_REGRESSION);
	assert_string_equal(p.sha, shas[NCOMMITS]);
	/* the answer written to the row the crash left */
	s = &c.steps[c.nsteps - 1];
	s->answer = CT_ANSWER_SAME;
	snprintf(s->why, sizeof(s->why), "good and bad do not differ after 40 runs a side");
	assert_int_equal(ct_store_bisect_step_end(c.st, s, err, sizeof(err)), 0);
	assert_int_equal(ct_bisector_load(&c, err, sizeof(err)), 0);
	next(&c, &p);
	assert_true(p.end);
	assert_int_equal(p.status, CT_BISECTION_NONE);
	assert_string_equal(p.note, "good and bad do not differ after 40 runs a side");
	assert_int_equal(ct_bisector_end(&c, &p, err, sizeof(err)), 0);
	{
		struct ct_bisection b;

		assert_int_equal(ct_store_bisection_get(c.st, repo, &b, err, sizeof(err)), 0);
		assert_int_equal(b.status, CT_BISECTION_NONE);
		assert_string_equal(b.culprit, "");
		assert_true(b.ended_at > 0);
	}
	finish(&c);
}

/* Every candidate skipped because it does not build (no runs): only
 * skipped commits could tell the rest apart. */
static void test_all_skipped(void **state)
{
	struct ct_bisector c;
	struct ct_bisect_plan p;

	(void)state;
	start(&c, CT_BISECTION_RUN);
	next(&c, &p);
	store_step(&c, &p, p.sha, CT_ANSWER_BAD, 10);
	for (int k = 0;; k++) {
		next(&c, &p);
		if (p.end)
			break;
		assert_int_equal(p.role, CT_ROLE_CANDIDATE);
		store_step(&c, &p, p.sha, CT_ANSWER_SKIP, 0);
		assert_true(k < NCOMMITS);
	}
	assert_int_equal(p.status, CT_BISECTION_NONE);
	assert_string_equal(p.note, "only commits that were skipped could tell the rest apart");
	finish(&c);
}

/* Every candidate measured without an answer (its runs could not tell):
 * each is asked again rather than given up - a busy machine costs runs,
 * not the answer - until the step budget ends the search, in both loops. */
static void test_no_answer_asked_again(void **state)
{
	for (int m = 0; m < 2; m++) {
		enum ct_bisection_mode mode = m ? CT_BISECTION_STEP : CT_BISECTION_RUN;
		char asked[64][CT_BISECT_SHA];
		struct ct_bisector c;
		struct ct_bisect_plan p;
		bool again = false;
		int k = 0;

		(void)state;
		start(&c, mode);
		next(&c, &p);
		store_step(&c, &p, p.sha, CT_ANSWER_BAD, 10);
		for (;; k++) {
			next(&c, &p);
			if (p.end)
				break;
			assert_int_equal(p.role, CT_ROLE_CANDIDATE);
			for (int i = 0; i < k && !again; i++)
				again = !strcmp(asked[i], p.sha);
			snprintf(asked[k], sizeof(asked[k]), "%s", p.sha);
			store_step(&c, &p, p.sha, CT_ANSWER_SKIP, 40);
			assert_true(k < 60);
		}
		assert_true(again);
		/* 20 and 4 for each halving of 16 commits */
		assert_int_equal(k, 36);
		assert_int_equal(p.status, CT_BISECTION_NONE);
		assert_string_equal(p.note, "36 steps and no commit holds 99% of the probability");
		finish(&c);
	}
}

/* Answers that contradict the search: the budget (20 steps and 4 for each
 * halving of the range: 36 for 16 commits) ends the search, in both
 * loops. */
static void test_budget(void **state)
{
	for (int m = 0; m < 2; m++) {
		enum ct_bisection_mode mode = m ? CT_BISECTION_STEP : CT_BISECTION_RUN;
		struct ct_bisector c;
		struct ct_bisect_plan p;
		int k = 0;

		(void)state;
		start(&c, mode);
		/* the regression (both of its sides, one per boot in step mode) */
		do {
			next(&c, &p);
			assert_int_equal(p.role, CT_ROLE_REGRESSION);
			store_step(&c, &p, p.sha,
				   mode == CT_BISECTION_RUN || !strcmp(p.sha, shas[NCOMMITS])
					   ? CT_ANSWER_BAD
					   : CT_ANSWER_NONE,
				   10);
		} while (!isfinite(c.delta));
		for (;; k++) {
			next(&c, &p);
			if (p.end || p.role != CT_ROLE_CANDIDATE)
				break;
			/* an adversary: each answer against what the search
			 * believes of the commit */
			store_step(&c, &p, p.sha,
				   ct_bisect_bad_prob(c.search, (size_t)index_of(p.sha) - 1) > 0.5
					   ? CT_ANSWER_GOOD
					   : CT_ANSWER_BAD,
				   5);
			assert_true(k < 100);
		}
		assert_true(p.end);
		assert_int_equal(p.status, CT_BISECTION_NONE);
		assert_int_equal(k, 36);
		assert_non_null(strstr(p.note, "36 steps and no commit holds 99%"));
		finish(&c);
	}
}

/* One step per boot: the regression's sides take turns by their runs,
 * a candidate without its answer is booted again, and the culprit's step
 * against its parent boots both. */
static void test_step_mode(void **state)
{
	struct ct_bisector c;
	struct ct_bisect_plan p;

	(void)state;
	start(&c, CT_BISECTION_STEP);
	next(&c, &p);
	assert_int_equal(p.role, CT_ROLE_REGRESSION);
	assert_string_equal(p.sha, shas[0]); /* good first: no runs either side */
	assert_false(p.resume);
	store_step(&c, &p, p.sha, CT_ANSWER_NONE, 5);
	next(&c, &p);
	assert_string_equal(p.sha, shas[NCOMMITS]); /* then bad, which has fewer */
	store_step(&c, &p, p.sha, CT_ANSWER_NONE, 5);
	next(&c, &p);
	assert_string_equal(p.sha, shas[0]); /* a tie: good again */
	store_step(&c, &p, p.sha, CT_ANSWER_BAD, 5);
	for (int k = 0;; k++) {
		long i;

		next(&c, &p);
		if (p.role != CT_ROLE_CANDIDATE)
			break;
		i = index_of(p.sha);
		/* not yet: the same commit is booted again */
		store_step(&c, &p, p.sha, CT_ANSWER_NONE, 5);
		next(&c, &p);
		assert_int_equal(p.role, CT_ROLE_CANDIDATE);
		assert_string_equal(p.sha, shas[i]);
		assert_false(p.resume);
		store_step(&c, &p, p.sha, i >= 5 ? CT_ANSWER_BAD : CT_ANSWER_GOOD, 5);
		assert_true(k < 30);
	}
	assert_int_equal(p.role, CT_ROLE_ACROSS);
	assert_string_equal(p.base, shas[4]);
	assert_string_equal(p.sha, shas[4]); /* the parent first: no runs either side */
	store_step(&c, &p, p.sha, CT_ANSWER_NONE, 5);
	next(&c, &p);
	assert_int_equal(p.role, CT_ROLE_ACROSS);
	assert_string_equal(p.sha, shas[5]);
	store_step(&c, &p, p.sha, CT_ANSWER_BAD, 5);
	next(&c, &p);
	assert_true(p.end);
	assert_int_equal(p.status, CT_BISECTION_FOUND);
	assert_int_equal(p.culprit, 4);
	finish(&c);
}

/* The answer of a step's comparison: the regression's rule at the
 * confidence asked, a candidate's interval against delta, and what is
 * said when the runs run out. */
static void test_answer(void **state)
{
	struct ct_bisector c = { .confidence = 95, .delta = log(1.10) };
	struct ct_stats_comparison cmp = {
		.decided_by = CT_TEST_SIGNED_RANK,
		.p = 0.03,
		.ratio_scale = true,
		.shift = { .estimate = log(1.1), .low = log(1.05), .high = log(1.15) }
	};
	struct ct_bisect_step s = { .role = CT_ROLE_REGRESSION };

	(void)state;
	ct_bisector_answer(&c, &s, &cmp, 10, true);
	assert_int_equal(s.answer, CT_ANSWER_BAD);
	assert_true(s.have_effect);
	assert_true(fabs(s.effect - 0.1) < 1e-12);
	assert_int_equal(s.runs, 10);
	c.confidence = 99; /* p = 0.03 differs at 95%, not at 99% */
	ct_bisector_answer(&c, &s, &cmp, 10, true);
	assert_int_equal(s.answer, CT_ANSWER_NONE);
	ct_bisector_answer(&c, &s, &cmp, 40, false);
	assert_int_equal(s.answer, CT_ANSWER_SAME);
	assert_string_equal(s.why, "good and bad do not differ after 40 runs a side");
	/* a candidate: its interval excludes no change - bad */
	s.role = CT_ROLE_CANDIDATE;
	ct_bisector_answer(&c, &s, &cmp, 5, true);
	assert_int_equal(s.answer, CT_ANSWER_BAD);
	/* excludes the regression's size - good, and for the culprit against
	 * its parent, said */
	cmp.shift = (struct ct_stats_shift){ .estimate = 0, .low = log(0.98), .high = log(1.03) };
	ct_bisector_answer(&c, &s, &cmp, 5, true);
	assert_int_equal(s.answer, CT_ANSWER_GOOD);
	s.role = CT_ROLE_ACROSS;
	ct_bisector_answer(&c, &s, &cmp, 5, true);
	assert_int_equal(s.answer, CT_ANSWER_GOOD);
	assert_string_equal(s.why, "against its parent it is not the regression's size");
	/* excludes neither: more runs, then skipped */
	s.role = CT_ROLE_CANDIDATE;
	cmp.shift = (struct ct_stats_shift){ .estimate = log(1.05),
					     .low = log(0.99),
					     .high = log(1.12) };
	ct_bisector_answer(&c, &s, &cmp, 20, true);
	assert_int_equal(s.answer, CT_ANSWER_NONE);
	ct_bisector_answer(&c, &s, &cmp, 40, false);
	assert_int_equal(s.answer, CT_ANSWER_SKIP);
	assert_string_equal(s.why, "no answer after 40 runs a side");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_to_culprit), cmocka_unit_test(test_same_and_resume),
		cmocka_unit_test(test_all_skipped),    cmocka_unit_test(test_no_answer_asked_again),
		cmocka_unit_test(test_budget),	       cmocka_unit_test(test_step_mode),
		cmocka_unit_test(test_answer),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
