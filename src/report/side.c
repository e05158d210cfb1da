/*
 * Runs as one side of a verdict (ct_stats_verdict()): the values the
 * report judges them by, their sessions and their pair keys, gathered by
 * whoever holds the runs - a fleet's rows, a bisection's sittings, an A/A
 * pair - without building a report.
 */
#include "contend/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Room for n values more. */
static int grow(struct ct_report_side *sd, size_t n)
{
	size_t need = sd->s.n + n;

	if (need > sd->cap) {
		size_t cap = need > 2 * sd->cap ? need : 2 * sd->cap;
		double *v = realloc(sd->v, cap * sizeof(*v));
		int64_t *s = v ? realloc(sd->session, cap * sizeof(*s)) : NULL;
		int64_t *p = s ? realloc(sd->pair, cap * sizeof(*p)) : NULL;

		if (v)
			sd->v = v;
		if (s)
			sd->session = s;
		if (!p)
			return -ENOMEM;
		sd->pair = p;
		sd->cap = cap;
	}
	return 0;
}

/* The side's arrays as its stats side. */
static void point(struct ct_report_side *sd)
{
	sd->s.v = sd->v;
	sd->s.session = sd->session;
	sd->s.pair = sd->paired ? sd->pair : NULL;
}

int ct_report_side_value(struct ct_report_side *sd, double value, int64_t session, int64_t key)
{
	if (!(value > 0))
		return 0;
	if (grow(sd, 1))
		return -ENOMEM;
	sd->v[sd->s.n] = value;
	sd->session[sd->s.n] = session;
	sd->pair[sd->s.n++] = key;
	sd->paired |= key != 0;
	point(sd);
	return 0;
}

int ct_report_side_add(struct ct_report_side *sd, const struct ct_run *runs, size_t n,
		       int64_t key_base)
{
	if (grow(sd, n))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct ct_run *r = &runs[i];
		double x = ct_run_value(r);

		if (r->status != CT_RUN_OK || !(x > 0))
			continue;
		sd->v[sd->s.n] = x;
		sd->session[sd->s.n] = r->session_id;
		sd->pair[sd->s.n++] = key_base >= 0 && r->block ? key_base + r->block : 0;
		sd->paired |= key_base >= 0;
	}
	point(sd);
	return 0;
}

void ct_report_side_release(struct ct_report_side *sd)
{
	free(sd->v);
	free(sd->session);
	free(sd->pair);
	memset(sd, 0, sizeof(*sd));
}
