/*
 * The history model (include/contend/history.h): the matching sessions in
 * order, one series per load and machine with a point per session, the
 * change points ct_changepoints() finds in each series (the sessions'
 * medians of the logs of their runs), each change's effect from the runs
 * of the sessions either side (the sessions decide, as compare's do), the
 * facts that differ across it, and whether it was acknowledged.
 */
#include "contend/history.h"
#include "contend/report.h"
#include "contend/stats.h"
#include "contend/util.h"
#include "model.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What building one history reads more than once. */
struct hctx {
	struct ct_store *st;
	const struct ct_history_query *q;
	struct ct_history *h;
	const struct ct_session_rec **sess; /* matched, in order */
	size_t nsess;
	struct ct_run *runs; /* every ok run of the workload */
	size_t nruns;
	long *sess_of;	/* per run: its session's index in sess, -1 when not matched */
	long *point_of; /* per session: its point in the series being built, -1 */
	struct ct_history_ack *acks;
	size_t nacks;
};

static const struct ct_history_query *sort_q;

static int cmp_rec(const void *a, const void *b)
{
	const struct ct_session_rec *x = *(const struct ct_session_rec *const *)a;
	const struct ct_session_rec *y = *(const struct ct_session_rec *const *)b;

	if (sort_q->by_commit && x->commit_time != y->commit_time)
		return x->commit_time < y->commit_time ? -1 : 1;
	if (x->started_at != y->started_at)
		return x->started_at < y->started_at ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* The filter of the query's sessions (of one workload once known). */
static struct ct_session_filter filter_of(const struct ct_history_query *q, const char *workload)
{
	return (struct ct_session_filter){
		.status = CT_SESSION_ONLY(CT_SESSION_COMPLETE),
		.label_glob = q->label_glob,
		.since = q->since,
		.machine = q->machine && strcmp(q->machine, "all") ? q->machine : NULL,
		.workload = workload,
		.with_commit = q->by_commit,
		/* a bisection's steps measure commits, not the nights */
		.no_bisect = true,
	};
}

/* The sessions that match, in order, and the workload. */
static int select_sessions(struct hctx *x, struct ct_session_rec *recs, size_t nrecs, char *err,
			   size_t len)
{
	const struct ct_history_query *q = x->q;
	const struct ct_session_rec *newest = NULL;

	for (size_t i = 0; i < nrecs; i++)
		if (!newest || ct_store_session_newer(&recs[i], newest))
			newest = &recs[i];
	if (!newest && q->machine && strcmp(q->machine, "all")) {
		struct ct_session_filter m = { .machine = q->machine, .limit = 1 };
		struct ct_session_rec *any = NULL;
		size_t n = 0;
		int rc = ct_store_sessions(x->st, &m, &any, &n, err, len);

		free(any);
		if (rc)
			return rc;
		if (!n)
			return ct_err(err, len, -ENOENT,
				      "no session of machine '%s' in the results store",
				      q->machine);
	}
	if (!newest)
		return ct_err(err, len, -ENOENT, "no complete session%s%s%s%s%s matches%s",
			      q->workload ? " of workload " : "", q->workload ? q->workload : "",
			      q->label_glob ? " labelled '" : "",
			      q->label_glob ? q->label_glob : "", q->label_glob ? "'" : "",
			      q->by_commit ? " with a commit (run --commit REV)" : "");
	snprintf(x->h->workload, sizeof(x->h->workload), "%s", newest->workload);
	x->sess = malloc(nrecs * sizeof(*x->sess));
	if (!x->sess)
		return ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t i = 0; i < nrecs; i++)
		if (!strcmp(recs[i].workload, x->h->workload))
			x->sess[x->nsess++] = &recs[i];
	if (x->nsess < 2)
		return ct_err(err, len, -EDOM,
			      "one session of workload %s matches (session %lld): a history needs "
			      "two or more",
			      x->h->workload, (long long)x->sess[0]->id);
	sort_q = q;
	qsort(x->sess, x->nsess, sizeof(*x->sess), cmp_rec);
	x->h->nsessions = x->nsess;
	return 0;
}

/* The ok runs of the matched sessions, read session by session (a
 * fleet's store holds millions of runs of the workload), and each one's
 * session in sess (x->sess_of). */
static int read_runs(struct hctx *x, char *err, size_t len)
{
	size_t cap = 0;
	int rc = 0;

	x->point_of = malloc((x->nsess ? x->nsess : 1) * sizeof(*x->point_of));
	if (!x->point_of)
		return ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t k = 0; !rc && k < x->nsess; k++) {
		struct ct_run_filter f = { .session_id = x->sess[k]->id, .ok_only = true };
		struct ct_run *runs = NULL, *grown;
		long *of;
		size_t n = 0;

		rc = ct_store_runs(x->st, &f, &runs, &n, err, len);
		if (!rc && x->nruns + n > cap) {
			cap = (x->nruns + n) * 2;
			grown = realloc(x->runs, cap * sizeof(*grown));
			of = grown ? realloc(x->sess_of, cap * sizeof(*of)) : NULL;
			if (grown)
				x->runs = grown;
			if (of)
				x->sess_of = of;
			if (!grown || !of)
				rc = ct_err(err, len, -ENOMEM, "out of memory");
		}
		for (size_t i = 0; !rc && i < n; i++) {
			x->sess_of[x->nruns] = (long)k;
			x->runs[x->nruns++] = runs[i];
		}
		free(runs);
	}
	return rc;
}

static bool load_wanted(const struct ct_history_query *q, const char *load)
{
	for (size_t i = 0; i < q->nloads; i++)
		if (!strcmp(q->loads[i], load))
			return true;
	return !q->nloads;
}

/* The series to build: each load (the order first run) and machine. */
static int make_series(struct hctx *x, char *err, size_t len)
{
	struct ct_history *h = x->h;
	bool pooled = x->q->machine && !strcmp(x->q->machine, "all");

	for (size_t i = 0; i < x->nruns; i++) {
		const struct ct_run *r = &x->runs[i];
		long k = x->sess_of[i];
		const struct ct_session_rec *rec;
		struct ct_history_series *s;
		size_t j;

		if (k < 0 || !load_wanted(x->q, r->load))
			continue;
		rec = x->sess[k];
		for (j = 0; j < h->nseries; j++)
			if (!strcmp(h->series[j].load, r->load) &&
			    !strcmp(h->series[j].params, r->workload_params) &&
			    (pooled || !strcmp(h->series[j].machine_id, rec->owner.machine)))
				break;
		if (j < h->nseries)
			continue;
		s = realloc(h->series, (h->nseries + 1) * sizeof(*s));
		if (!s)
			return ct_err(err, len, -ENOMEM, "out of memory");
		h->series = s;
		s = &h->series[h->nseries++];
		memset(s, 0, sizeof(*s));
		snprintf(s->load, sizeof(s->load), "%s", r->load);
		snprintf(s->params, sizeof(s->params), "%s", r->workload_params);
		h->mixed_params |= strcmp(s->params, h->series[0].params) != 0;
		if (pooled) {
			snprintf(s->machine, sizeof(s->machine), "all");
		} else {
			snprintf(s->machine_id, sizeof(s->machine_id), "%s", rec->owner.machine);
			ct_report_machine(&rec->owner, s->machine, sizeof(s->machine));
		}
	}
	for (size_t i = 0; i < x->q->nloads; i++) {
		size_t j = 0;

		while (j < h->nseries && strcmp(h->series[j].load, x->q->loads[i]))
			j++;
		if (j == h->nseries)
			return ct_err(err, len, -ENOENT,
				      "no matching session of workload %s ran load '%s'",
				      h->workload, x->q->loads[i]);
	}
	return 0;
}

/* Whether run i belongs to series s. */
static bool in_series(const struct hctx *x, const struct ct_history_series *s, size_t i)
{
	const struct ct_run *r = &x->runs[i];
	long k = x->sess_of[i];

	return k >= 0 && !strcmp(r->load, s->load) && !strcmp(r->workload_params, s->params) &&
	       (!s->machine_id[0] || !strcmp(x->sess[k]->owner.machine, s->machine_id)) &&
	       ct_run_value(r) > 0;
}

/* A point per session with two ok runs or more, in order; logmed[i] the
 * median of the logs of point i's runs. */
static int make_points(struct hctx *x, struct ct_history_series *s, double **logmed, char *err,
		       size_t len)
{
	double *v = malloc((x->nruns ? x->nruns : 1) * sizeof(*v));
	int rc = 0;

	*logmed = malloc(x->nsess * sizeof(**logmed));
	s->points = calloc(x->nsess, sizeof(*s->points));
	if (!v || !*logmed || !s->points) {
		free(v);
		return ct_err(err, len, -ENOMEM, "out of memory");
	}
	for (size_t k = 0; k < x->nsess && !rc; k++) {
		const struct ct_session_rec *rec = x->sess[k];
		struct ct_history_point *pt = &s->points[s->npoints];
		struct ct_stats_summary sum;
		size_t n = 0;

		x->point_of[k] = -1;
		for (size_t i = 0; i < x->nruns; i++)
			if (x->sess_of[i] == (long)k && in_series(x, s, i))
				v[n++] = ct_run_value(&x->runs[i]);
		if (n < 2)
			continue;
		if (ct_stats_summarize(v, n, x->q->confidence, &sum)) {
			rc = ct_err(err, len, -EINVAL,
				    "session %lld: runs that cannot be summed up",
				    (long long)rec->id);
			break;
		}
		pt->session_id = rec->id;
		snprintf(pt->uuid, sizeof(pt->uuid), "%s", rec->uuid);
		snprintf(pt->label, sizeof(pt->label), "%s", rec->label);
		snprintf(pt->commit, sizeof(pt->commit), "%s", rec->commit);
		pt->started_at = rec->started_at;
		pt->commit_time = rec->commit_time;
		pt->config_id = rec->config_id;
		ct_report_machine(&rec->owner, pt->machine, sizeof(pt->machine));
		pt->n = n;
		pt->median = sum.median;
		pt->low = sum.median_ci_low;
		pt->high = sum.median_ci_high;
		for (size_t i = 0; i < n; i++)
			v[i] = log(v[i]);
		x->point_of[k] = (long)s->npoints;
		(*logmed)[s->npoints++] = ct_stats_median(v, n);
	}
	free(v);
	return rc;
}

/* The runs of points [lo, hi) of s, with their sessions (or, for
 * --why, their run ids). */
static size_t side_runs(const struct hctx *x, const struct ct_history_series *s, size_t lo,
			size_t hi, double *v, int64_t *sid, bool run_ids)
{
	size_t n = 0;

	for (size_t i = 0; i < x->nruns; i++) {
		long p = in_series(x, s, i) ? x->point_of[x->sess_of[i]] : -1;

		if (p >= (long)lo && p < (long)hi) {
			v[n] = ct_run_value(&x->runs[i]);
			sid[n++] = run_ids ? x->runs[i].id : x->runs[i].session_id;
		}
	}
	return n;
}

/* --why: the runs of the nearest sessions after change c against those
 * before it (v, w, sv, sw: scratch of x->nruns each). */
static int change_why(struct hctx *x, const struct ct_history_series *s,
		      struct ct_history_change *c, double *v, double *w, int64_t *sv, int64_t *sw,
		      char *err, size_t len)
{
	size_t k = CT_HISTORY_WHY_SESSIONS;
	struct ct_why_side b, a;

	if (k > c->nbefore)
		k = c->nbefore;
	if (k > c->nafter)
		k = c->nafter;
	b = (struct ct_why_side){ sv, v, side_runs(x, s, c->at - k, c->at, v, sv, true) };
	a = (struct ct_why_side){ sw, w, side_runs(x, s, c->at, c->at + k, w, sw, true) };
	c->why_from[0] = s->points[c->at - k].session_id;
	c->why_to[0] = s->points[c->at - 1].session_id;
	c->why_from[1] = s->points[c->at].session_id;
	c->why_to[1] = s->points[c->at + k - 1].session_id;
	c->why = calloc(1, sizeof(*c->why));
	if (!c->why)
		return ct_err(err, len, -ENOMEM, "out of memory");
	return ct_why_runs(x->st, &b, &a, x->q->confidence, c->why, err, len);
}

/* The median of each host reference over the sessions of points [lo,
 * hi), each session's the median of its own (NaN: none took one). */
static int side_host(struct hctx *x, const struct ct_history_series *s, size_t lo, size_t hi,
		     double out[CT_REF_NFIGS], char *err, size_t len)
{
	size_t np = hi - lo;
	double *per = malloc((np * CT_REF_NFIGS + 1) * sizeof(*per)), *v = NULL;
	size_t have[CT_REF_NFIGS] = { 0 };
	int rc = per ? 0 : ct_err(err, len, -ENOMEM, "out of memory");

	for (size_t p = lo; !rc && p < hi; p++) {
		struct ct_ref *refs = NULL;
		size_t n = 0;

		rc = ct_store_refs(x->st, s->points[p].session_id, &refs, &n, err, len);
		if (!rc && n && !(v = realloc(v, n * sizeof(*v))))
			rc = ct_err(err, len, -ENOMEM, "out of memory");
		for (int f = 0; !rc && f < CT_REF_NFIGS; f++) {
			size_t k = 0;

			for (size_t i = 0; i < n; i++)
				if (!isnan(refs[i].fig[f]))
					v[k++] = refs[i].fig[f];
			if (k)
				per[f * np + have[f]++] = ct_stats_median(v, k);
		}
		free(refs);
	}
	for (int f = 0; !rc && f < CT_REF_NFIGS; f++)
		out[f] = have[f] ? ct_stats_median(per + f * np, have[f]) : NAN;
	free(per);
	free(v);
	return rc;
}

/* How far the host's references moved across change c, judged on the
 * sessions [lo, hi) its effect was. */
static int change_host(struct hctx *x, const struct ct_history_series *s,
		       struct ct_history_change *c, size_t lo, size_t hi, char *err, size_t len)
{
	double before[CT_REF_NFIGS], after[CT_REF_NFIGS], big = -1;
	int rc = side_host(x, s, lo, c->at, before, err, len);

	if (!rc)
		rc = side_host(x, s, c->at, hi, after, err, len);
	c->host_largest = -1;
	for (int f = 0; !rc && f < CT_REF_NFIGS; f++) {
		c->host_pct[f] =
			before[f] > 0 && after[f] > 0 ? (after[f] / before[f] - 1) * 100 : NAN;
		if (!isnan(c->host_pct[f]) && fabs(c->host_pct[f]) > big) {
			big = fabs(c->host_pct[f]);
			c->host_largest = f;
		}
	}
	c->host_moved = !rc && c->host_largest >= 0 && big >= 0.5 * fabs(c->effect * 100);
	return rc;
}

/* The facts that differ between the configs of the points either side. */
static int change_facts(struct hctx *x, const struct ct_history_series *s,
			struct ct_history_change *c, char *err, size_t len)
{
	const struct ct_history_point *pt[2] = { &s->points[c->at - 1], &s->points[c->at] };
	struct ct_report_config cfg[2];
	struct ct_report rep = { .configs = cfg, .nconfigs = 2 };
	char label[128];
	int rc = 0;

	memset(cfg, 0, sizeof(cfg));
	for (int k = 0; k < 2 && !rc; k++) {
		snprintf(cfg[k].label, sizeof(cfg[k].label), "%s", pt[k]->label);
		snprintf(cfg[k].machine, sizeof(cfg[k].machine), "%s", pt[k]->machine);
		cfg[k].config_id = pt[k]->config_id;
		if (pt[k]->config_id)
			rc = ct_store_config_get(x->st, pt[k]->config_id, label, sizeof(label),
						 &cfg[k].si, err, len);
	}
	if (!rc && rp_config_diffs(&rep))
		rc = ct_err(err, len, -ENOMEM, "out of memory");
	if (!rc && rep.ndiffs && !(c->facts = calloc(rep.ndiffs, sizeof(*c->facts))))
		rc = ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < rep.ndiffs; i++) {
		struct ct_history_fact *f = &c->facts[c->nfacts++];

		snprintf(f->name, sizeof(f->name), "%s", rep.diffs[i].name);
		snprintf(f->before, sizeof(f->before), "%s", rep.diffs[i].values[0]);
		snprintf(f->after, sizeof(f->after), "%s", rep.diffs[i].values[1]);
	}
	free(rep.diffs);
	return rc;
}

/* Whether an acknowledgement names a session within the tolerance of
 * change c of s. */
static bool acked(const struct hctx *x, const struct ct_history_series *s, size_t at)
{
	for (size_t a = 0; a < x->nacks; a++) {
		const struct ct_history_ack *k = &x->acks[a];

		if ((k->load[0] && strcmp(k->load, s->load)) ||
		    (k->machine[0] && s->machine_id[0] && strcmp(k->machine, s->machine_id)))
			continue;
		for (size_t p = at >= CT_HISTORY_ACK_TOL ? at - CT_HISTORY_ACK_TOL : 0;
		     p < s->npoints && p <= at + CT_HISTORY_ACK_TOL; p++)
			if (!strcmp(s->points[p].uuid, k->session_uuid))
				return true;
	}
	return false;
}

/* The change points of s and what each one is. */
static int find_changes(struct hctx *x, struct ct_history_series *s, const double *logmed,
			char *err, size_t len)
{
	struct ct_cp *cp = NULL;
	size_t ncp = 0;
	double *v = NULL, *w = NULL;
	int64_t *sv = NULL, *sw = NULL;
	int rc = ct_changepoints(logmed, s->npoints, CT_CP_EDM_BOTH, CT_HISTORY_ALPHA,
				 CT_HISTORY_MIN_SIDE, &cp, &ncp);

	if (rc)
		return ct_err(err, len, rc, "cannot find the change points of load '%s'", s->load);
	if (!ncp)
		return 0;
	s->changes = calloc(ncp, sizeof(*s->changes));
	v = malloc(x->nruns * sizeof(*v));
	w = malloc(x->nruns * sizeof(*w));
	sv = malloc(x->nruns * sizeof(*sv));
	sw = malloc(x->nruns * sizeof(*sw));
	if (!s->changes || !v || !w || !sv || !sw) {
		rc = ct_err(err, len, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < ncp && !rc; i++) {
		struct ct_history_change *c = &s->changes[s->nchanges++];
		size_t lo = i ? cp[i - 1].at : 0, hi = i + 1 < ncp ? cp[i + 1].at : s->npoints;
		struct ct_stats_comparison cmp;
		size_t nb, na;

		c->at = cp[i].at;
		c->p = cp[i].p;
		if (c->at - lo > CT_HISTORY_WINDOW)
			lo = c->at - CT_HISTORY_WINDOW;
		if (hi - c->at > CT_HISTORY_WINDOW)
			hi = c->at + CT_HISTORY_WINDOW;
		c->nbefore = c->at - lo;
		c->nafter = hi - c->at;
		nb = side_runs(x, s, lo, c->at, v, sv, false);
		na = side_runs(x, s, c->at, hi, w, sw, false);
		struct ct_stats_side sb = { .v = v, .session = sv, .n = nb },
				     sa = { .v = w, .session = sw, .n = na };
		const struct ct_stats_rule rule = { .confidence = x->q->confidence };

		rc = ct_stats_verdict(&sb, &sa, &rule, &cmp);
		if (rc) {
			rc = ct_err(err, len, rc, "out of memory");
			break;
		}
		if (cmp.decided_by == CT_TEST_SESSIONS && cmp.ratio_scale &&
		    isfinite(cmp.effect_low) && isfinite(cmp.effect_high)) {
			c->have_effect = true;
			c->effect = cmp.effect - 1;
			c->low = cmp.effect_low - 1;
			c->high = cmp.effect_high - 1;
		} else {
			double mb = 0, ma = 0;

			for (size_t p = lo; p < c->at; p++)
				mb += logmed[p] / (double)c->nbefore;
			for (size_t p = c->at; p < hi; p++)
				ma += logmed[p] / (double)c->nafter;
			c->effect = exp(ma - mb) - 1;
			c->low = c->high = NAN;
		}
		c->worse = x->h->higher_better ? c->effect < 0 : c->effect > 0;
		c->acked = acked(x, s, c->at);
		rc = change_facts(x, s, c, err, len);
		if (!rc)
			rc = change_host(x, s, c, lo, hi, err, len);
		if (!rc && x->q->why)
			rc = change_why(x, s, c, v, w, sv, sw, err, len);
	}
out:
	free(cp);
	free(v);
	free(w);
	free(sv);
	free(sw);
	return rc;
}

/* A point of a series with its session's place in the order. */
struct placed {
	size_t k, series, point;
};

static int by_place(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;

	if (x->k != y->k)
		return (x->k > y->k) - (x->k < y->k);
	return (x->series > y->series) - (x->series < y->series);
}

/* Whether series a and b are one load on one machine. */
static bool same_place(const struct ct_history_series *a, const struct ct_history_series *b)
{
	return !strcmp(a->load, b->load) && !strcmp(a->machine_id, b->machine_id) &&
	       !strcmp(a->machine, b->machine);
}

/* Where a load's parameters on a machine changed, in the sessions' order:
 * each point of every series placed by its session, and a change where a
 * load and machine's point has other parameters than the one before. */
static int param_changes(struct hctx *x, char *err, size_t len)
{
	struct ct_history *h = x->h;
	struct placed *pl;
	size_t n = 0, np = 0;
	int rc = 0;

	if (!h->mixed_params)
		return 0;
	for (size_t i = 0; i < h->nseries; i++)
		np += h->series[i].npoints;
	pl = malloc((np ? np : 1) * sizeof(*pl));
	if (!pl)
		return ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t i = 0; i < h->nseries; i++)
		for (size_t p = 0; p < h->series[i].npoints; p++)
			for (size_t k = 0; k < x->nsess; k++)
				if (x->sess[k]->id == h->series[i].points[p].session_id) {
					pl[n++] = (struct placed){ k, i, p };
					break;
				}
	qsort(pl, n, sizeof(*pl), by_place);
	for (size_t i = 0; !rc && i < n; i++) {
		const struct ct_history_series *s = &h->series[pl[i].series], *prev = NULL;
		struct ct_history_param_change *c;

		for (size_t j = i; j-- > 0 && !prev;)
			if (same_place(&h->series[pl[j].series], s))
				prev = &h->series[pl[j].series];
		if (!prev || prev == s)
			continue;
		c = realloc(h->param_changes, (h->nparam_changes + 1) * sizeof(*c));
		if (!c) {
			rc = ct_err(err, len, -ENOMEM, "out of memory");
			break;
		}
		h->param_changes = c;
		c = &h->param_changes[h->nparam_changes++];
		memset(c, 0, sizeof(*c));
		snprintf(c->load, sizeof(c->load), "%s", s->load);
		snprintf(c->machine, sizeof(c->machine), "%s", s->machine);
		c->session_id = s->points[pl[i].point].session_id;
		c->started_at = s->points[pl[i].point].started_at;
		snprintf(c->before, sizeof(c->before), "%s", prev->params);
		snprintf(c->after, sizeof(c->after), "%s", s->params);
	}
	free(pl);
	return rc;
}

const struct ct_history_change *ct_history_newest(const struct ct_history_series *s)
{
	size_t first = 0;

	for (size_t i = 0; i < s->nchanges; i++)
		if (s->changes[i].acked)
			first = i + 1;
	return first < s->nchanges ? &s->changes[s->nchanges - 1] : NULL;
}

int ct_history_build(struct ct_history *h, struct ct_store *st, const struct ct_history_query *q,
		     char *err, size_t len)
{
	struct ct_session_filter sf = filter_of(q, q->workload);
	struct ct_session_rec *recs = NULL;
	struct hctx x = { .st = st, .q = q, .h = h };
	size_t nrecs = 0;
	int rc;

	memset(h, 0, sizeof(*h));
	h->by_commit = q->by_commit;
	h->confidence = q->confidence;
	rc = ct_store_sessions(st, &sf, &recs, &nrecs, err, len);
	if (!rc)
		rc = select_sessions(&x, recs, nrecs, err, len);
	if (!rc)
		rc = read_runs(&x, err, len);
	if (!rc)
		rc = ct_store_acks(st, h->workload, &x.acks, &x.nacks, err, len);
	for (size_t i = 0; !rc && i < x.nruns; i++) {
		const struct ct_figure *fig;

		if (x.sess_of[i] < 0)
			continue;
		fig = ct_run_figure(&x.runs[i]);
		h->figure = fig ? fig->name : "Time";
		h->unit = fig ? fig->unit : "s";
		h->higher_better = ct_run_higher_better(&x.runs[i]);
		break;
	}
	if (!rc)
		rc = make_series(&x, err, len);
	for (size_t i = 0; !rc && i < h->nseries; i++) {
		double *logmed = NULL;

		rc = make_points(&x, &h->series[i], &logmed, err, len);
		if (!rc)
			rc = find_changes(&x, &h->series[i], logmed, err, len);
		free(logmed);
	}
	if (!rc)
		rc = param_changes(&x, err, len);
	if (!rc && !h->figure)
		rc = ct_err(err, len, -ENOENT,
			    "the matching sessions of workload %s hold no ok run", h->workload);
	free(x.sess);
	free(x.sess_of);
	free(x.point_of);
	free(x.runs);
	free(x.acks);
	free(recs);
	if (rc)
		ct_history_release(h);
	return rc;
}

void ct_history_release(struct ct_history *h)
{
	for (size_t i = 0; i < h->nseries; i++) {
		for (size_t c = 0; c < h->series[i].nchanges; c++) {
			free(h->series[i].changes[c].facts);
			ct_why_free(h->series[i].changes[c].why);
		}
		free(h->series[i].changes);
		free(h->series[i].points);
	}
	free(h->series);
	free(h->param_changes);
	memset(h, 0, sizeof(*h));
}
