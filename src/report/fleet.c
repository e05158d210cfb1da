/*
 * The fleet's summary (include/contend/fleet.h): every complete session
 * of the workload with the baseline's parameters, the newest of each
 * machine and label kept as a row, each row's baseline chosen as the query
 * says, and each row's figures and verdicts taken from the report model
 * of the two sessions - the one-session-a-side comparison compare makes,
 * with the same scope rules (docs/statistics.md, "One session a side").
 */
#include "contend/fleet.h"
#include "contend/report.h"
#include "contend/util.h"
#include "model.h"
#include "internal.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A session's runs of the workload, found once. */
struct fsess {
	const struct ct_session_rec *rec;
	size_t nruns;	/* its ok runs with the fleet's parameters */
	unsigned loads; /* bit i: it ran fleet load i */
};

/* Whether any session answers f (of the store's: a mistake's message
 * names what is missing). */
static int any_session(struct ct_store *st, struct ct_session_filter f, bool *any, char *err,
		       size_t len)
{
	struct ct_session_rec *recs = NULL;
	size_t n = 0;
	int rc;

	f.limit = 1;
	rc = ct_store_sessions(st, &f, &recs, &n, err, len);
	free(recs);
	*any = n > 0;
	return rc;
}

/* The session the baseline is taken from (the machine's, the label's),
 * or for neither the newest complete session with ok runs: it names the
 * workload. *out malloc'd. */
static int base_session(struct ct_store *st, const struct ct_fleet_query *q,
			struct ct_session_rec *out, char *err, size_t len)
{
	struct ct_session_filter f = {
		.machine = q->base_machine,
		.label = q->base_label,
		.label_glob = q->base_machine || q->base_label ? NULL : q->label_glob,
		.workload = q->workload,
		.status = CT_SESSION_ONLY(CT_SESSION_COMPLETE),
		.with_ok_runs = true,
	};
	struct ct_session_rec *recs = NULL;
	size_t n = 0, best = 0;
	bool any = true;
	int rc = ct_store_sessions(st, &f, &recs, &n, err, len);

	for (size_t i = 1; !rc && i < n; i++)
		if (ct_store_session_newer(&recs[i], &recs[best]))
			best = i;
	if (!rc && n)
		*out = recs[best];
	free(recs);
	if (rc || n)
		return rc;
	if (q->base_machine &&
	    !(rc = any_session(st, (struct ct_session_filter){ .machine = q->base_machine }, &any,
			       err, len)) &&
	    !any)
		return ct_err(err, len, -ENOENT,
			      "no session of machine '%s' in the results store (a host name, or 4 "
			      "or more digits of its machine id)",
			      q->base_machine);
	if (!rc && q->base_label &&
	    !(rc = any_session(st,
			       (struct ct_session_filter){ .machine = q->base_machine,
							   .label = q->base_label },
			       &any, err, len)) &&
	    !any)
		return ct_err(err, len, -ENOENT,
			      "no session labelled '%s'%s%s in the results store", q->base_label,
			      q->base_machine ? " of machine " : "",
			      q->base_machine ? q->base_machine : "");
	if (rc)
		return rc;
	return ct_err(err, len, -ENOENT,
		      "no complete session with ok runs%s%s%s%s%s%s%s in the results store",
		      q->workload ? " of workload " : "", q->workload ? q->workload : "",
		      q->base_label ? " labelled '" : "", q->base_label ? q->base_label : "",
		      q->base_label ? "'" : "", q->base_machine ? " of machine " : "",
		      q->base_machine ? q->base_machine : "");
}

static long load_index(const struct ct_fleet *fl, const char *load)
{
	for (size_t i = 0; i < fl->nloads; i++)
		if (!strcmp(fl->loads[i], load))
			return (long)i;
	return -1;
}

static int add_load(struct ct_fleet *fl, const char *load, char *err, size_t len)
{
	if (load_index(fl, load) >= 0)
		return 0;
	if (fl->nloads == CT_FLEET_MAX_LOADS)
		return ct_err(err, len, -EINVAL, "at most %d loads", CT_FLEET_MAX_LOADS);
	if (strlen(load) >= sizeof(fl->loads[0]))
		return ct_err(err, len, -EINVAL, "no load has so long a name: '%.40s...'", load);
	snprintf(fl->loads[fl->nloads++], sizeof(fl->loads[0]), "%s", load);
	return 0;
}

/* The fleet's session of id (ss is by id descending, as the store gives
 * sessions), NULL when it is none of them. */
static struct fsess *fsess_of(struct fsess *ss, size_t nss, int64_t id)
{
	size_t lo = 0, hi = nss;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ss[mid].rec->id > id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nss && ss[lo].rec->id == id ? &ss[lo] : NULL;
}

/* Each session's ok runs with the fleet's parameters (vals): how many,
 * and which loads (every load run with them joins fl->loads unless -l
 * chose). */
static int index_values(struct ct_fleet *fl, const struct ct_fleet_query *q, struct fsess *ss,
			size_t nss, const struct ct_run_value *vals, size_t nvals, char *err,
			size_t len)
{
	int rc = 0;

	for (size_t i = 0; !rc && i < nvals; i++) {
		struct fsess *f = fsess_of(ss, nss, vals[i].session_id);
		long l;

		if (!f)
			continue;
		if (!q->nloads)
			rc = add_load(fl, vals[i].load, err, len);
		l = load_index(fl, vals[i].load);
		if (l >= 0) {
			f->loads |= 1u << l;
			f->nruns++;
		}
	}
	return rc;
}

static bool row_same_machine(const struct ct_fleet_row *a, const struct ct_fleet_row *b)
{
	struct ct_owner x = { 0 }, y = { 0 };

	snprintf(x.machine, sizeof(x.machine), "%s", a->machine_id);
	snprintf(x.host, sizeof(x.host), "%s", a->host);
	snprintf(y.machine, sizeof(y.machine), "%s", b->machine_id);
	snprintf(y.host, sizeof(y.host), "%s", b->host);
	return ct_owner_same_machine(&x, &y);
}

static int cmp_row(const void *a, const void *b)
{
	const struct ct_fleet_row *x = a, *y = b;
	int c = strcmp(x->host, y->host);

	if (!c)
		c = strcmp(x->machine_id, y->machine_id);
	return c ? c : strverscmp(x->label, y->label);
}

/* The newest session of each machine and label among ss (those with runs
 * of the fleet's loads), sorted. */
static int make_rows(struct ct_fleet *fl, const struct ct_fleet_query *q, struct fsess *ss,
		     size_t nss, const struct ct_session_rec *base, char *err, size_t len)
{
	const struct fsess **pick = calloc(nss ? nss : 1, sizeof(*pick));
	size_t *count = calloc(nss ? nss : 1, sizeof(*count)), n = 0;

	if (!pick || !count) {
		free(pick);
		free(count);
		return ct_err(err, len, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < nss; i++) {
		const struct ct_session_rec *r = ss[i].rec;
		size_t k;

		if (!ss[i].nruns ||
		    (q->label_glob && r != base && fnmatch(q->label_glob, r->label, 0) &&
		     !(fl->mode == CT_FLEET_BASE_LABEL && !strcmp(r->label, q->base_label))))
			continue;
		for (k = 0; k < n; k++)
			if (ct_owner_same_machine(&pick[k]->rec->owner, &r->owner) &&
			    !strcmp(pick[k]->rec->label, r->label))
				break;
		if (k == n)
			pick[n++] = &ss[i];
		else if (ct_store_session_newer(r, pick[k]->rec))
			pick[k] = &ss[i];
		count[k]++;
	}
	fl->rows = calloc(n ? n : 1, sizeof(*fl->rows));
	if (!fl->rows) {
		free(pick);
		free(count);
		return ct_err(err, len, -ENOMEM, "out of memory");
	}
	for (size_t k = 0; k < n; k++) {
		const struct ct_session_rec *r = pick[k]->rec;
		struct ct_fleet_row *w = &fl->rows[k];

		w->session_id = r->id;
		snprintf(w->uuid, sizeof(w->uuid), "%s", r->uuid);
		snprintf(w->label, sizeof(w->label), "%s", r->label);
		snprintf(w->host, sizeof(w->host), "%s", r->owner.host);
		snprintf(w->machine_id, sizeof(w->machine_id), "%s", r->owner.machine);
		ct_report_machine(&r->owner, w->machine, sizeof(w->machine));
		if (!w->machine[0])
			snprintf(w->machine, sizeof(w->machine), "(unknown)");
		w->started_at = r->started_at;
		w->nruns = pick[k]->nruns;
		w->nsessions = count[k];
		w->base = -1;
		for (size_t l = 0; l < CT_FLEET_MAX_LOADS; l++)
			w->cells[l].mean = NAN;
		w->ran = pick[k]->loads;
	}
	fl->nrows = n;
	free(pick);
	free(count);
	qsort(fl->rows, fl->nrows, sizeof(*fl->rows), cmp_row);
	for (size_t k = 0; k < fl->nrows; k++)
		fl->nmachines += !k || !row_same_machine(&fl->rows[k - 1], &fl->rows[k]);
	return 0;
}

static long row_of(const struct ct_fleet *fl, int64_t session_id)
{
	for (size_t k = 0; k < fl->nrows; k++)
		if (fl->rows[k].session_id == session_id)
			return (long)k;
	return -1;
}

/* Each row's baseline, as the query's mode says. */
static void assign_bases(struct ct_fleet *fl, long base)
{
	for (size_t k = 0; k < fl->nrows; k++) {
		struct ct_fleet_row *w = &fl->rows[k];

		w->base = (long)k == base ? -1 : base;
		if (fl->mode != CT_FLEET_BASE_LABEL)
			continue;
		for (size_t m = 0; m < fl->nrows; m++)
			if (row_same_machine(&fl->rows[m], w) &&
			    !strcmp(fl->rows[m].label, fl->base_label))
				w->base = m == k ? -1 : (long)m;
	}
	for (size_t k = 0; k < fl->nrows; k++)
		if (fl->rows[k].base >= 0)
			fl->rows[k].other_machine =
				!row_same_machine(&fl->rows[k], &fl->rows[fl->rows[k].base]);
}

/* What judging the rows reads: the fleet's ok runs by session and load,
 * the sessions, and the machines' spreads of sessions looked up so far. */
struct fjudge {
	const struct ct_run_value **by; /* by session id, then id */
	size_t n;
	const struct ct_run_value *vals; /* the fleet's: its workload and parameters */
	size_t nvals;
	const struct ct_session_rec *recs;
	size_t nrecs;
	struct fspread {
		char machine[40];
		size_t load;
		struct ct_stats_sitting *s;
		size_t n;
	} * spreads;
	size_t nspreads;
};

static int by_session(const void *a, const void *b)
{
	const struct ct_run_value *x = *(const struct ct_run_value *const *)a,
				  *y = *(const struct ct_run_value *const *)b;

	if (x->session_id != y->session_id)
		return (x->session_id > y->session_id) - (x->session_id < y->session_id);
	return (x->run_id > y->run_id) - (x->run_id < y->run_id);
}

/* The runs of session id under load with the fleet's parameters, as a
 * side; the runs of an interleaved group pair by block. */
static int side_of(const struct ct_fleet *fl, const struct fjudge *j, int64_t id, const char *load,
		   bool pair, struct ct_report_side *sd)
{
	size_t lo = 0, hi = j->n;

	while (lo < hi) { /* the first run of the session */
		size_t mid = lo + (hi - lo) / 2;

		if (j->by[mid]->session_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < j->n && j->by[lo]->session_id == id; lo++) {
		const struct ct_run_value *v = j->by[lo];

		if (!strcmp(v->load, load) && ct_report_side_value(sd, v->value, v->session_id,
								   pair && v->block ? v->block : 0))
			return -ENOMEM;
	}
	return 0;
}

/* The machine's spread of sessions under load l for a comparison of
 * sessions a and b: from the machine's sittings, read once. */
static int spread_of(const struct ct_fleet *fl, struct fjudge *j, const char *machine, size_t l,
		     int64_t a, int64_t b, struct ct_stats_between *out)
{
	struct fspread *p = NULL;
	int64_t gap;
	bool reboot;

	for (size_t i = 0; i < j->nspreads && !p; i++)
		if (j->spreads[i].load == l && !strcmp(j->spreads[i].machine, machine))
			p = &j->spreads[i];
	if (!p) {
		struct fspread *grown = realloc(j->spreads, (j->nspreads + 1) * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		j->spreads = grown;
		p = &j->spreads[j->nspreads++];
		memset(p, 0, sizeof(*p));
		snprintf(p->machine, sizeof(p->machine), "%s", machine);
		p->load = l;
		if (rp_sittings(j->vals, j->nvals, j->recs, j->nrecs, fl->loads[l], machine, &p->s,
				&p->n))
			return -ENOMEM;
	}
	rp_gap_of(j->recs, j->nrecs, &a, 1, &b, 1, &gap, &reboot);
	return ct_stats_spread_at(p->s, p->n, gap, reboot, out);
}

/* Row w's cell of load l: its runs' mean, and with its baseline b (NULL:
 * none) the verdict as compare gives it for two sessions. */
static int judge_cell(const struct ct_fleet *fl, struct fjudge *j, const struct ct_fleet_query *q,
		      struct ct_fleet_row *w, const struct ct_fleet_row *b, size_t l)
{
	const struct ct_session_rec *rw = ct_store_session_of(j->recs, j->nrecs, w->session_id);
	const struct ct_session_rec *rb =
		b ? ct_store_session_of(j->recs, j->nrecs, b->session_id) : NULL;
	bool group = rw && rb && rw->group_id && rw->group_id == rb->group_id;
	bool pair = group && !strcmp(rw->order, "interleaved");
	struct ct_stats_rule rule = { .confidence = q->confidence,
				      .one_sitting = group,
				      .within_session = q->within_session };
	struct ct_report_side sw = { 0 }, sb = { 0 };
	struct ct_stats_between bw = { .var = NAN };
	struct ct_fleet_cell *o = &w->cells[l];
	int rc = side_of(fl, j, w->session_id, fl->loads[l], pair, &sw);

	o->n = sw.s.n;
	o->mean = NAN;
	for (size_t i = 0; i < sw.s.n; i++)
		o->mean = (i ? o->mean : 0) + sw.s.v[i] / (double)sw.s.n;
	if (!rc && b)
		rc = side_of(fl, j, b->session_id, fl->loads[l], pair, &sb);
	if (!rc && b && rb && ct_stats_scope_of(&sb.s, &sw.s, &rule) == CT_SCOPE_ACROSS &&
	    !q->within_session)
		rc = spread_of(fl, j, rb->owner.machine, l, b->session_id, w->session_id, &bw);
	rule.between = &bw;
	if (!rc && b) {
		o->compared = true;
		o->paired = pair;
		rc = ct_stats_verdict(&sb.s, &sw.s, &rule, &o->cmp);
		o->scope = o->cmp.scope;
	}
	ct_report_side_release(&sw);
	ct_report_side_release(&sb);
	return rc;
}

/* Each row against its baseline over the loads both ran (Holm across
 * them), alone over the loads only it ran (a baseline: every load it
 * ran). */
static int judge_all(struct ct_fleet *fl, struct fjudge *j, const struct ct_fleet_query *q)
{
	int rc = 0;

	for (size_t k = 0; !rc && k < fl->nrows; k++) {
		struct ct_fleet_row *w = &fl->rows[k];
		const struct ct_fleet_row *b = w->base >= 0 ? &fl->rows[w->base] : NULL;
		unsigned both = b ? w->ran & b->ran : 0;
		struct ct_stats_comparison *fam[CT_FLEET_MAX_LOADS];
		size_t nfam = 0;

		for (size_t l = 0; !rc && l < fl->nloads; l++) {
			if (!((w->ran >> l) & 1))
				continue;
			rc = judge_cell(fl, j, q, w, (both >> l) & 1 ? b : NULL, l);
			if (w->cells[l].compared)
				fam[nfam++] = &w->cells[l].cmp;
		}
		if (!rc && ct_stats_decide(fam, nfam, q->confidence))
			rc = -EINVAL;
		for (size_t l = 0; !rc && l < fl->nloads; l++)
			if (w->cells[l].compared)
				snprintf(w->cells[l].verdict, sizeof(w->cells[l].verdict), "%s",
					 rp_outcome_word(&w->cells[l].cmp, false,
							 fl->higher_better));
	}
	return rc;
}

/* The runs of session id under load as a why side (ids, figs: room for
 * every run of the fleet). */
static struct ct_why_side why_side(const struct fjudge *j, int64_t id, const char *load,
				   int64_t *ids, double *figs)
{
	struct ct_why_side sd = { ids, figs, 0 };

	for (size_t i = 0; i < j->n; i++)
		if (j->by[i]->session_id == id && !strcmp(j->by[i]->load, load)) {
			ids[sd.n] = j->by[i]->run_id;
			figs[sd.n++] = j->by[i]->value;
		}
	return sd;
}

/* --why: each cell judged worse, explained by its runs' counters against
 * its baseline's. */
static int why_all(struct ct_fleet *fl, struct ct_store *st, const struct fjudge *j, char *err,
		   size_t len)
{
	int64_t *ids = malloc((2 * j->n + 1) * sizeof(*ids));
	double *figs = malloc((2 * j->n + 1) * sizeof(*figs));
	int rc = ids && figs ? 0 : ct_err(err, len, -ENOMEM, "out of memory");

	for (size_t k = 0; !rc && k < fl->nrows; k++) {
		struct ct_fleet_row *w = &fl->rows[k];

		for (size_t l = 0; !rc && l < fl->nloads; l++) {
			struct ct_fleet_cell *c = &w->cells[l];
			struct ct_why_side b, o;

			if (!c->compared || strcmp(c->verdict, "worse"))
				continue;
			b = why_side(j, fl->rows[w->base].session_id, fl->loads[l], ids, figs);
			o = why_side(j, w->session_id, fl->loads[l], ids + j->n, figs + j->n);
			c->why = calloc(1, sizeof(*c->why));
			rc = c->why ? ct_why_runs(st, &b, &o, fl->confidence, c->why, err, len)
				    : ct_err(err, len, -ENOMEM, "out of memory");
		}
	}
	free(ids);
	free(figs);
	return rc;
}

static int judge(struct ct_fleet *fl, const struct ct_fleet_query *q, struct ct_store *st,
		 const struct ct_run_value *vals, size_t nvals, const struct ct_session_rec *recs,
		 size_t nrecs, char *err, size_t len)
{
	struct fjudge j = {
		.by = malloc((nvals ? nvals : 1) * sizeof(*j.by)),
		.vals = vals,
		.nvals = nvals,
		.recs = recs,
		.nrecs = nrecs,
	};
	int rc = 0;

	if (!j.by)
		return ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t i = 0; i < nvals; i++)
		j.by[j.n++] = &vals[i];
	qsort(j.by, j.n, sizeof(*j.by), by_session);
	rc = judge_all(fl, &j, q);
	if (rc == -ENOMEM)
		rc = ct_err(err, len, rc, "out of memory");
	else if (rc)
		rc = ct_err(err, len, rc, "cannot adjust the p-values");
	if (!rc && q->why)
		rc = why_all(fl, st, &j, err, len);
	free(j.by);
	for (size_t i = 0; i < j.nspreads; i++)
		free(j.spreads[i].s);
	free(j.spreads);
	return rc;
}

/* The fleet's parameters and judged figure: the baseline's first ok
 * run's. */
static int fleet_params(struct ct_fleet *fl, struct ct_store *st, const struct ct_session_rec *base,
			char *err, size_t len)
{
	struct ct_run_filter f = { .session_id = base->id, .ok_only = true };
	struct ct_run *runs = NULL;
	const char *key;
	size_t n = 0;
	int rc = ct_store_runs(st, &f, &runs, &n, err, len);

	if (!rc && n) {
		snprintf(fl->params, sizeof(fl->params), "%s", runs[0].workload_params);
		fl->figure_kind = rp_figure_of(&runs[0], &fl->figure, &fl->unit, &key);
		fl->higher_better = ct_run_higher_better(&runs[0]);
	}
	free(runs);
	return rc;
}

/* How many complete sessions of the workload with ok runs hold none of
 * the fleet's parameters. */
static int other_params(struct ct_fleet *fl, struct ct_store *st, size_t with, char *err,
			size_t len)
{
	struct ct_session_filter f = { .workload = fl->workload,
				       .status = CT_SESSION_ONLY(CT_SESSION_COMPLETE),
				       .with_ok_runs = true };
	struct ct_session_rec *recs = NULL;
	size_t n = 0;
	int rc = ct_store_sessions(st, &f, &recs, &n, err, len);

	free(recs);
	fl->nother_params = !rc && n > with ? n - with : 0;
	return rc;
}

int ct_fleet_build(struct ct_fleet *fl, struct ct_store *st, const struct ct_fleet_query *q,
		   char *err, size_t len)
{
	struct ct_session_filter sf = { .status = CT_SESSION_ONLY(CT_SESSION_COMPLETE) };
	struct ct_session_rec *recs = NULL, base;
	struct ct_run_filter f = { .ok_only = true };
	struct ct_run_value *vals = NULL;
	struct fsess *ss = NULL;
	size_t nrecs = 0, nvals = 0, nss = 0;
	long b;
	int rc;

	memset(fl, 0, sizeof(*fl));
	fl->confidence = q->confidence;
	fl->within_session = q->within_session;
	fl->mode = q->base_machine ? CT_FLEET_BASE_MACHINE
		   : q->base_label ? CT_FLEET_BASE_LABEL
				   : CT_FLEET_BASE_FIRST;
	snprintf(fl->base_machine, sizeof(fl->base_machine), "%s",
		 q->base_machine ? q->base_machine : "");
	snprintf(fl->base_label, sizeof(fl->base_label), "%s", q->base_label ? q->base_label : "");
	for (size_t i = 0; i < q->nloads; i++) {
		rc = add_load(fl, q->loads[i], err, len);
		if (rc)
			return rc;
	}
	rc = base_session(st, q, &base, err, len);
	if (!rc) {
		snprintf(fl->workload, sizeof(fl->workload), "%s", base.workload);
		rc = fleet_params(fl, st, &base, err, len);
	}
	/* the complete sessions of the workload with runs of its parameters,
	 * and those runs' values */
	sf.workload = fl->workload;
	sf.params = fl->params;
	f.workload = fl->workload;
	f.workload_params = fl->params;
	if (!rc)
		rc = ct_store_sessions(st, &sf, &recs, &nrecs, err, len);
	if (!rc)
		rc = other_params(fl, st, nrecs, err, len);
	if (!rc)
		rc = ct_store_run_values(st, &f, &vals, &nvals, err, len);
	if (rc)
		goto out;
	ss = calloc(nrecs ? nrecs : 1, sizeof(*ss));
	if (!ss) {
		rc = ct_err(err, len, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < nrecs; i++)
		ss[nss++].rec = &recs[i];
	rc = index_values(fl, q, ss, nss, vals, nvals, err, len);
	if (rc)
		goto out;
	for (size_t i = 0; i < q->nloads; i++) {
		bool ran = false;

		for (size_t k = 0; k < nss && !ran; k++)
			ran = (ss[k].loads >> i) & 1;
		if (!ran) {
			rc = ct_err(err, len, -EINVAL,
				    "no complete session of workload %s (%s) ran load '%s'",
				    fl->workload, fl->params, q->loads[i]);
			goto out;
		}
	}
	rc = make_rows(fl, q, ss, nss, ct_store_session_of(recs, nrecs, base.id), err, len);
	if (rc)
		goto out;
	b = row_of(fl, base.id);
	if (fl->mode == CT_FLEET_BASE_FIRST)
		b = 0;
	if (b < 0) {
		rc = ct_err(
			err, len, -ENOENT,
			"the baseline, session %lld (%s, '%s'), ran none of the loads asked for",
			(long long)base.id, base.owner.host, base.label);
		goto out;
	}
	assign_bases(fl, b);
	rc = judge(fl, q, st, vals, nvals, recs, nrecs, err, len);
out:
	free(ss);
	free(vals);
	free(recs);
	if (rc)
		ct_fleet_release(fl);
	return rc;
}

void ct_fleet_release(struct ct_fleet *fl)
{
	for (size_t k = 0; k < fl->nrows; k++)
		for (size_t l = 0; l < fl->nloads; l++)
			ct_why_free(fl->rows[k].cells[l].why);
	free(fl->rows);
	fl->rows = NULL;
	fl->nrows = 0;
}
