/*
 * The bisection's state machine (include/contend/bisection.h): from the
 * stored steps, what to measure next or how it ended - one rule for the
 * interleaved loop and the per-boot loop alike, so both have the same
 * budget, the same answers and the same check of the culprit against its
 * parent.
 */
#include "internal.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long ct_bisector_found(const struct ct_bisector *c)
{
	double p = 0;
	size_t best;

	if (!c->search || !isfinite(c->delta))
		return -1;
	best = ct_bisect_best(c->search, &p);
	return p >= CT_BISECT_DONE_PROB ? (long)best : -1;
}

const struct ct_bisect_step *ct_bisector_last(const struct ct_bisector *c, enum ct_bisect_role role,
					      bool answered)
{
	for (size_t i = c->nsteps; i-- > 0;)
		if (c->steps[i].role == role && (!answered || c->steps[i].answer))
			return &c->steps[i];
	return NULL;
}

int ct_bisector_apply(struct ct_bisector *c, const struct ct_bisect_step *p)
{
	long i = ct_git_range_find(&c->range, p->sha);

	if (p->role == CT_ROLE_REGRESSION && p->answer) {
		c->delta = p->answer == CT_ANSWER_BAD && p->have_effect ? log1p(p->effect) : NAN;
		return 0;
	}
	if (p->role != CT_ROLE_CANDIDATE || i < 0)
		return 0;
	/* measured without an answer: asked again later; a build that
	 * failed: never */
	if (p->answer == CT_ANSWER_SKIP)
		return p->runs ? ct_bisect_unsure(c->search, (size_t)i)
			       : ct_bisect_skip(c->search, (size_t)i);
	if (p->answer == CT_ANSWER_GOOD || p->answer == CT_ANSWER_BAD)
		return ct_bisect_answer(c->search, (size_t)i, p->answer == CT_ANSWER_BAD);
	return 0;
}

int ct_bisector_load(struct ct_bisector *c, char *err, size_t len)
{
	int rc;

	ct_bisector_release(c);
	c->delta = NAN;
	rc = ct_store_bisect_steps(c->st, c->b.id, &c->steps, &c->nsteps, err, len);
	if (!rc)
		rc = ct_git_range(c->b.repo, c->b.good, c->b.bad, &c->range, err, len);
	if (!rc &&
	    ct_bisect_new(c->range.n, c->range.np, c->range.parents, CT_BISECT_EPS, &c->search))
		rc = ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < c->nsteps; i++)
		if (ct_bisector_apply(c, &c->steps[i]))
			rc = ct_err(err, len, -ENOMEM, "out of memory");
	return rc;
}

void ct_bisector_release(struct ct_bisector *c)
{
	free(c->steps);
	c->steps = NULL;
	c->nsteps = 0;
	ct_bisect_free(c->search);
	c->search = NULL;
	ct_git_range_free(&c->range);
}

/* The steps of the search so far: every candidate, answered or not, once
 * per seq. */
static size_t candidates(const struct ct_bisector *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nsteps; i++)
		n += c->steps[i].role == CT_ROLE_CANDIDATE &&
		     (!i || c->steps[i - 1].seq != c->steps[i].seq);
	return n;
}

/* The most steps of the search before it ends without an answer: 20 and
 * 4 more for each halving of the range. */
static size_t budget(const struct ct_bisector *c)
{
	size_t b = 20;

	for (size_t k = c->range.n; k > 1; k >>= 1)
		b += 4;
	return b;
}

/* The answered row of seq, NULL while none is. */
static const struct ct_bisect_step *answer_of(const struct ct_bisector *c, unsigned seq)
{
	for (size_t i = 0; i < c->nsteps; i++)
		if (c->steps[i].seq == seq && c->steps[i].answer)
			return &c->steps[i];
	return NULL;
}

unsigned bisect_max(const struct ct_bisector *c, enum ct_bisect_role role)
{
	return role == CT_ROLE_REGRESSION ? 2 * c->max_runs : c->max_runs;
}

unsigned bisect_runs_in(const struct ct_bisector *c, unsigned seq, const char *sha)
{
	unsigned n = 0;

	for (size_t i = 0; i < c->nsteps; i++)
		if (c->steps[i].seq == seq && !strcmp(c->steps[i].sha, sha) &&
		    c->steps[i].session_id)
			n += c->steps[i].runs;
	return n;
}

static void plan_measure(const struct ct_bisector *c, struct ct_bisect_plan *p,
			 enum ct_bisect_role role, unsigned seq, const char *base, const char *sha)
{
	p->end = false;
	p->role = role;
	p->seq = seq;
	snprintf(p->base, sizeof(p->base), "%s", base);
	snprintf(p->sha, sizeof(p->sha), "%s", sha);
	/* one boot is one side: of a step whose two sides are both booted,
	 * the one with fewer runs */
	if (c->b.mode == CT_BISECTION_STEP && role != CT_ROLE_CANDIDATE &&
	    bisect_runs_in(c, seq, base) <= bisect_runs_in(c, seq, sha))
		snprintf(p->sha, sizeof(p->sha), "%s", base);
}

static void plan_end(struct ct_bisect_plan *p, enum ct_bisection_status status, long culprit,
		     const char *note)
{
	p->end = true;
	p->status = status;
	p->culprit = culprit;
	snprintf(p->note, sizeof(p->note), "%s", note ? note : "");
}

/* The parent of commit i of the range, into parent. */
static int parent_of(const struct ct_bisector *c, long i, char *parent, char *err, size_t len)
{
	char rev[CT_GIT_SHA_LEN + 4];

	snprintf(rev, sizeof(rev), "%s^", c->range.sha[i]);
	return ct_git_resolve(c->b.repo, rev, parent, err, len);
}

/* Whether the culprit's step against its parent was answered. */
static bool across_done(const struct ct_bisector *c, const char *culprit, const char *parent)
{
	for (size_t i = 0; i < c->nsteps; i++) {
		const struct ct_bisect_step *q = &c->steps[i];

		if (q->role == CT_ROLE_ACROSS && q->answer && !strcmp(q->base, parent) &&
		    (!strcmp(q->sha, culprit) || !strcmp(q->sha, parent)))
			return true;
	}
	return false;
}

int ct_bisector_next(struct ct_bisector *c, struct ct_bisect_plan *p, char *err, size_t len)
{
	const struct ct_bisect_step *last = c->nsteps ? &c->steps[c->nsteps - 1] : NULL;
	const struct ct_bisect_step *reg = answer_of(c, 0);
	unsigned seq = last ? last->seq + 1 : 0;
	long found = ct_bisector_found(c);
	char parent[CT_GIT_SHA_LEN + 1];
	size_t next;
	int rc;

	memset(p, 0, sizeof(*p));
	p->culprit = -1;
	/* a step without its answer: a sitting a crash cut short (measured
	 * again with its runs counted in), or one more boot of the step */
	if (last && !answer_of(c, last->seq)) {
		const char *other = last->sha;

		if (c->b.mode == CT_BISECTION_STEP && last->role == CT_ROLE_REGRESSION)
			other = c->b.bad;
		else if (c->b.mode == CT_BISECTION_STEP && last->role == CT_ROLE_ACROSS &&
			 found >= 0)
			other = c->range.sha[found];
		plan_measure(c, p, last->role, last->seq, last->base, other);
		p->resume = c->b.mode == CT_BISECTION_RUN;
		return 0;
	}
	if (!reg) {
		plan_measure(c, p, CT_ROLE_REGRESSION, 0, c->b.good, c->b.bad);
		return 0;
	}
	if (reg->answer == CT_ANSWER_SAME) {
		plan_end(p, CT_BISECTION_NONE, -1, reg->why);
		return 0;
	}
	if (found >= 0) {
		const struct ct_bisect_step *across = ct_bisector_last(c, CT_ROLE_ACROSS, true);

		rc = parent_of(c, found, parent, err, len);
		if (rc)
			return rc;
		if (across_done(c, c->range.sha[found], parent))
			plan_end(p, CT_BISECTION_FOUND, found, across->why);
		else
			plan_measure(c, p, CT_ROLE_ACROSS, seq, parent, c->range.sha[found]);
		return 0;
	}
	if (candidates(c) >= budget(c)) {
		snprintf(p->note, sizeof(p->note),
			 "%zu steps and no commit holds %.0f%% of the probability", candidates(c),
			 CT_BISECT_DONE_PROB * 100);
		p->end = true;
		p->status = CT_BISECTION_NONE;
		return 0;
	}
	rc = ct_bisect_next(c->search, &next);
	if (rc == -ENOENT) {
		plan_end(p, CT_BISECTION_NONE, -1,
			 "only commits that were skipped could tell the rest apart");
		return 0;
	}
	if (rc)
		return ct_err(err, len, rc, "out of memory");
	plan_measure(c, p, CT_ROLE_CANDIDATE, seq, c->b.good, c->range.sha[next]);
	return 0;
}

int ct_bisector_end(struct ct_bisector *c, const struct ct_bisect_plan *p, char *err, size_t len)
{
	c->b.status = p->status;
	snprintf(c->b.culprit, sizeof(c->b.culprit), "%s",
		 p->culprit >= 0 ? c->range.sha[p->culprit] : "");
	snprintf(c->b.note, sizeof(c->b.note), "%s", p->note);
	c->b.ended_at = ct_wall_ns();
	return ct_store_bisection_end(c->st, &c->b, err, len);
}

/* What a step's comparison means: the effect and its interval as the row
 * keeps them (ratio - 1). */
static void step_effect(const struct ct_stats_comparison *cmp, struct ct_bisect_step *p)
{
	const struct ct_stats_shift *s = &cmp->shift;

	p->have_effect = cmp->decided_by != CT_TEST_NONE && cmp->ratio_scale &&
			 isfinite(s->estimate) && isfinite(s->low) && isfinite(s->high);
	p->effect = p->have_effect ? expm1(s->estimate) : 0;
	p->effect_low = p->have_effect ? expm1(s->low) : 0;
	p->effect_high = p->have_effect ? expm1(s->high) : 0;
}

void ct_bisector_answer(const struct ct_bisector *c, struct ct_bisect_step *p,
			const struct ct_stats_comparison *cmp, unsigned runs, bool more)
{
	enum ct_bisect_call call;

	p->runs = runs;
	step_effect(cmp, p);
	p->answer = CT_ANSWER_NONE;
	p->why[0] = '\0';
	if (p->role == CT_ROLE_REGRESSION) {
		if (ct_stats_differs(cmp, c->confidence))
			p->answer = CT_ANSWER_BAD;
		else if (!more)
			p->answer = CT_ANSWER_SAME;
		if (p->answer == CT_ANSWER_SAME)
			snprintf(p->why, sizeof(p->why),
				 "good and bad do not differ after %u runs a side", runs);
		return;
	}
	call = ct_bisect_judge(cmp, c->delta);
	if (call == CT_BISECT_BAD) {
		p->answer = CT_ANSWER_BAD;
	} else if (call == CT_BISECT_GOOD) {
		p->answer = CT_ANSWER_GOOD;
		if (p->role == CT_ROLE_ACROSS)
			snprintf(p->why, sizeof(p->why),
				 "against its parent it is not the regression's size");
	} else if (!more) {
		p->answer = CT_ANSWER_SKIP;
		snprintf(p->why, sizeof(p->why), "no answer after %u runs a side", runs);
	}
}
