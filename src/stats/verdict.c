/*
 * contend's verdict between two sides, written once (docs/statistics.md):
 * the runs of one sitting paired by block when the schedule paired them,
 * the sessions deciding with two or more a side, the machine's spread of
 * sessions standing in with one a side. Report, fleet summary, bisect,
 * history and calibrate call it over the runs they hold; none builds a
 * report to get one verdict.
 */
#include "contend/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* How many sessions a side's values come from: 0 without values, 1, or
 * 2 for two or more (all the rule asks). */
static size_t count_sessions(const struct ct_stats_side *s)
{
	if (!s->n)
		return 0;
	for (size_t i = 1; s->session && i < s->n; i++)
		if (s->session[i] != s->session[0])
			return 2;
	return 1;
}

enum ct_stats_scope ct_stats_scope_of(const struct ct_stats_side *base,
				      const struct ct_stats_side *other,
				      const struct ct_stats_rule *rule)
{
	size_t kb = count_sessions(base), ko = count_sessions(other);

	if (kb >= CT_STATS_SESSIONS_MIN && ko >= CT_STATS_SESSIONS_MIN)
		return CT_SCOPE_SESSIONS;
	if (kb == 1 && ko == 1 &&
	    (rule->one_sitting ||
	     (base->session && other->session && base->session[0] == other->session[0])))
		return CT_SCOPE_SESSION;
	if (!rule->within_session && rule->between && rule->between->df > 0 && base->n && other->n)
		return CT_SCOPE_MACHINE;
	return CT_SCOPE_ACROSS;
}

struct keyed {
	int64_t key;
	size_t at; /* its place in the side: the first of a key is kept */
	double v;
};

static int by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->key != y->key)
		return (x->key > y->key) - (x->key < y->key);
	return (x->at > y->at) - (x->at < y->at);
}

/* The values of a side with a pair key (not 0), sorted by it: a key
 * given twice pairs only once, by its first value. */
static size_t keyed(const struct ct_stats_side *s, struct keyed *out)
{
	size_t n = 0, m = 0;

	for (size_t i = 0; i < s->n; i++)
		if (s->pair[i])
			out[n++] = (struct keyed){ s->pair[i], i, s->v[i] };
	qsort(out, n, sizeof(*out), by_key);
	for (size_t i = 0; i < n; i++)
		if (!m || out[m - 1].key != out[i].key)
			out[m++] = out[i];
	return m;
}

/* The pairs of base and other: the values of equal keys. */
static int pair_up(const struct ct_stats_side *base, const struct ct_stats_side *other, double **pb,
		   double **po, size_t *np)
{
	struct keyed *kb = malloc((base->n ? base->n : 1) * sizeof(*kb));
	struct keyed *ko = malloc((other->n ? other->n : 1) * sizeof(*ko));
	size_t nb, no, cap = base->n < other->n ? base->n : other->n, i = 0, j = 0;
	int rc = 0;

	*pb = malloc((cap ? cap : 1) * sizeof(**pb));
	*po = malloc((cap ? cap : 1) * sizeof(**po));
	*np = 0;
	if (!kb || !ko || !*pb || !*po) {
		rc = -ENOMEM;
		goto out;
	}
	nb = keyed(base, kb);
	no = keyed(other, ko);
	while (i < nb && j < no) {
		if (kb[i].key < ko[j].key) {
			i++;
		} else if (kb[i].key > ko[j].key) {
			j++;
		} else {
			(*pb)[*np] = kb[i++].v;
			(*po)[(*np)++] = ko[j++].v;
		}
	}
out:
	free(kb);
	free(ko);
	return rc;
}

int ct_stats_verdict(const struct ct_stats_side *base, const struct ct_stats_side *other,
		     const struct ct_stats_rule *rule, struct ct_stats_comparison *c)
{
	double *pb = NULL, *po = NULL, conf = rule->confidence > 0 ? rule->confidence : 95;
	enum ct_stats_scope scope = ct_stats_scope_of(base, other, rule);
	size_t np = 0;
	int rc = 0;

	if (base->pair && other->pair)
		rc = pair_up(base, other, &pb, &po, &np);
	if (rc)
		goto out;
	ct_stats_compare(base->v, base->n, other->v, other->n, np ? pb : NULL, np ? po : NULL, np,
			 conf, c);
	if (scope == CT_SCOPE_SESSIONS)
		rc = ct_stats_compare_sessions(base->v, base->session, base->n, other->v,
					       other->session, other->n, conf, c);
	else if (scope == CT_SCOPE_MACHINE)
		rc = ct_stats_compare_across(base->v, base->session, base->n, other->v,
					     other->session, other->n, rule->between, conf, c);
	/* a rule that could not run (a value not positive, sessions of one
	 * run): the runs decided */
	if (rc == -EINVAL)
		rc = 0;
	if (rc)
		goto out;
	/* the machine's spread could not stand in: the spread of sessions
	 * stays unknown */
	if (scope == CT_SCOPE_MACHINE && c->decided_by != CT_TEST_ACROSS)
		scope = CT_SCOPE_ACROSS;
	c->scope = scope;
	/* a family of one: its own p decides */
	if (c->decided_by != CT_TEST_NONE) {
		struct ct_stats_comparison *fam = c;

		rc = ct_stats_decide(&fam, 1, conf);
	}
out:
	free(pb);
	free(po);
	return rc;
}

bool ct_stats_differs(const struct ct_stats_comparison *c, double confidence)
{
	return c->decided_by != CT_TEST_NONE && c->p < (100 - confidence) / 100;
}
