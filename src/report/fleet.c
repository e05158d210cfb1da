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

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A session's runs of the workload, found once. */
struct fsess {
	const struct ct_session_rec *rec;
	const char *params; /* of its first ok run */
	size_t nruns;	    /* its ok runs with the fleet's parameters */
	unsigned loads;	    /* bit i: it ran fleet load i */
};

/* Machines compare by their machine id, by host name when neither has one. */
static bool same_machine(const char *ida, const char *hosta, const char *idb, const char *hostb)
{
	return ida[0] || idb[0] ? !strcmp(ida, idb) : !strcmp(hosta, hostb);
}

static bool newer(const struct ct_session_rec *a, const struct ct_session_rec *b)
{
	return a->started_at != b->started_at ? a->started_at > b->started_at : a->id > b->id;
}

/* The session the baseline is taken from (the machine's, the label's),
 * or for neither the newest complete session: it names the workload. */
static int base_session(const struct ct_fleet_query *q, const struct ct_session_rec *recs, size_t n,
			const struct ct_session_rec **out, char *err, size_t len)
{
	bool any_machine = false, any_label = false;

	*out = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct ct_session_rec *r = &recs[i];

		if (q->base_machine && !rp_machine_named(&r->owner, q->base_machine))
			continue;
		any_machine = true;
		if (q->base_label && strcmp(r->label, q->base_label))
			continue;
		any_label = true;
		if (strcmp(r->status, "complete") || r->nruns <= r->nfailed ||
		    (q->workload && strcmp(r->workload, q->workload)))
			continue;
		if (!q->base_machine && !q->base_label && q->label_glob &&
		    fnmatch(q->label_glob, r->label, 0))
			continue;
		if (!*out || newer(r, *out))
			*out = r;
	}
	if (*out)
		return 0;
	if (q->base_machine && !any_machine)
		return ct_err(err, len, -ENOENT,
			      "no session of machine '%s' in the results store (a host name, or 4 "
			      "or more digits of its machine id)",
			      q->base_machine);
	if (q->base_label && !any_label)
		return ct_err(err, len, -ENOENT,
			      "no session labelled '%s'%s%s in the results store", q->base_label,
			      q->base_machine ? " of machine " : "",
			      q->base_machine ? q->base_machine : "");
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

/* Each session's ok runs with the fleet's parameters: how many, and which
 * loads (every load run with them joins fl->loads unless -l chose). */
static int index_runs(struct ct_fleet *fl, const struct ct_fleet_query *q, struct fsess *ss,
		      size_t nss, const struct ct_run *runs, size_t nruns, char *err, size_t len)
{
	int rc = 0;

	for (size_t i = 0; !rc && i < nruns; i++) {
		const struct ct_run *r = &runs[i];
		struct fsess *s = NULL;
		long l;

		for (size_t k = 0; k < nss && !s; k++)
			if (ss[k].rec->id == r->session_id)
				s = &ss[k];
		if (!s)
			continue;
		if (!s->params)
			s->params = r->workload_params;
		if (strcmp(r->workload_params, fl->params))
			continue;
		if (!q->nloads)
			rc = add_load(fl, r->load, err, len);
		l = load_index(fl, r->load);
		if (l >= 0) {
			s->loads |= 1u << l;
			s->nruns++;
		}
	}
	return rc;
}

static bool row_same_machine(const struct ct_fleet_row *a, const struct ct_fleet_row *b)
{
	return same_machine(a->machine_id, a->host, b->machine_id, b->host);
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
			if (same_machine(pick[k]->rec->owner.machine, pick[k]->rec->owner.host,
					 r->owner.machine, r->owner.host) &&
			    !strcmp(pick[k]->rec->label, r->label))
				break;
		if (k == n)
			pick[n++] = &ss[i];
		else if (newer(r, pick[k]->rec))
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

/* The report of row w - with b, its baseline, or alone (NULL) - over the
 * fleet's loads in mask; its cells fill w's. */
static int judge_row(struct ct_fleet *fl, struct ct_store *st, const struct ct_fleet_query *q,
		     struct ct_fleet_row *w, const struct ct_fleet_row *b, unsigned mask, char *err,
		     size_t len)
{
	struct ct_report_source src[2];
	const char *loads[CT_FLEET_MAX_LOADS];
	size_t idx[CT_FLEET_MAX_LOADS], nl = 0, me = b ? 1 : 0;
	struct ct_report_query rq = {
		.workload = fl->workload,
		.params = fl->params,
		.src = src,
		.nsrc = b ? 2 : 1,
		.loads = loads,
		.confidence = q->confidence,
		.pool = CT_POOL_LISTED,
		.within_session = q->within_session,
	};
	struct ct_report rep;
	int rc;

	if (b)
		src[0] = (struct ct_report_source){ b->label, b->session_id };
	src[me] = (struct ct_report_source){ w->label, w->session_id };
	for (size_t l = 0; l < fl->nloads; l++)
		if ((mask >> l) & 1) {
			idx[nl] = l;
			loads[nl++] = fl->loads[l];
		}
	rq.nloads = nl;
	if (!nl)
		return 0;
	rc = ct_report_build(&rep, st, &rq, err, len);
	if (rc)
		return rc;
	if (!fl->figure) {
		fl->figure = rep.figure;
		fl->unit = rep.unit;
		fl->figure_kind = rep.figure_kind;
		fl->higher_better = rep.higher_better;
	}
	for (size_t i = 0; i < rep.nblocks && i < nl; i++) {
		const struct ct_report_cell *c = &rep.blocks[i].cells[me];
		struct ct_fleet_cell *o = &w->cells[idx[i]];

		o->n = c->n;
		o->mean = c->have_summary ? c->sum.mean : c->n ? c->values[0] : NAN;
		o->compared = c->compared;
		o->paired = c->paired;
		o->scope = c->scope;
		o->cmp = c->cmp;
		snprintf(o->verdict, sizeof(o->verdict), "%s",
			 c->compared ? ct_report_verdict(&rep, c) : "");
	}
	ct_report_release(&rep);
	return 0;
}

/* Each row against its baseline over the loads both ran, and alone over
 * the loads only it ran (a baseline: every load it ran). */
static int judge_all(struct ct_fleet *fl, struct ct_store *st, const struct ct_fleet_query *q,
		     char *err, size_t len)
{
	int rc = 0;

	for (size_t k = 0; !rc && k < fl->nrows; k++) {
		struct ct_fleet_row *w = &fl->rows[k];
		const struct ct_fleet_row *b = w->base >= 0 ? &fl->rows[w->base] : NULL;
		unsigned both = b ? w->ran & b->ran : 0;

		rc = judge_row(fl, st, q, w, b, both, err, len);
		if (!rc)
			rc = judge_row(fl, st, q, w, NULL, w->ran & ~both, err, len);
	}
	if (!rc && !fl->figure)
		fl->figure = "Time", fl->unit = "s", fl->figure_kind = CT_FIGURE_TIME;
	return rc;
}

int ct_fleet_build(struct ct_fleet *fl, struct ct_store *st, const struct ct_fleet_query *q,
		   char *err, size_t len)
{
	struct ct_session_rec *recs = NULL;
	const struct ct_session_rec *base;
	struct ct_run_filter f = { .ok_only = true };
	struct ct_run *runs = NULL;
	struct fsess *ss = NULL;
	size_t nrecs = 0, nruns = 0, nss = 0;
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
	rc = ct_store_sessions(st, 0, &recs, &nrecs, err, len);
	if (!rc)
		rc = base_session(q, recs, nrecs, &base, err, len);
	if (rc)
		goto out;
	snprintf(fl->workload, sizeof(fl->workload), "%s", base->workload);
	f.workload = fl->workload;
	rc = ct_store_runs(st, &f, &runs, &nruns, err, len);
	if (rc)
		goto out;
	/* the baseline's parameters are the fleet's */
	for (size_t i = 0; i < nruns && !fl->params[0]; i++)
		if (runs[i].session_id == base->id)
			snprintf(fl->params, sizeof(fl->params), "%s", runs[i].workload_params);
	ss = calloc(nrecs ? nrecs : 1, sizeof(*ss));
	if (!ss) {
		rc = ct_err(err, len, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < nrecs; i++)
		if (!strcmp(recs[i].status, "complete") && !strcmp(recs[i].workload, fl->workload))
			ss[nss++].rec = &recs[i];
	rc = index_runs(fl, q, ss, nss, runs, nruns, err, len);
	if (rc)
		goto out;
	for (size_t i = 0; i < nss; i++)
		fl->nother_params +=
			ss[i].params && !ss[i].nruns && strcmp(ss[i].params, fl->params);
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
	rc = make_rows(fl, q, ss, nss, base, err, len);
	if (rc)
		goto out;
	b = row_of(fl, base->id);
	if (fl->mode == CT_FLEET_BASE_FIRST)
		b = 0;
	if (b < 0) {
		rc = ct_err(
			err, len, -ENOENT,
			"the baseline, session %lld (%s, '%s'), ran none of the loads asked for",
			(long long)base->id, base->owner.host, base->label);
		goto out;
	}
	assign_bases(fl, b);
	rc = judge_all(fl, st, q, err, len);
out:
	free(ss);
	free(runs);
	free(recs);
	if (rc)
		ct_fleet_release(fl);
	return rc;
}

void ct_fleet_release(struct ct_fleet *fl)
{
	free(fl->rows);
	fl->rows = NULL;
	fl->nrows = 0;
}
