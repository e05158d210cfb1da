/*
 * The report model's reads of the store: each cell's runs fetched once -
 * of the session a config names, or of the sessions the query's pool
 * takes - with their per-second series, and the no-load runs Ratio and
 * the oltp score are taken against. Apart from the statistics (judge.c)
 * so that what is read and what is computed from it are each in one place.
 */
#include "model.h"
#include "internal.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A session that was interrupted: pooled only when asked. One still
 * running counts (its runs so far are whole); one whose contend is gone
 * is marked interrupted by `contend list` and at the next run. */
bool rp_unfinished(const struct rp_ctx *x, int64_t id)
{
	const struct ct_session_rec *r = ct_store_session_of(x->recs, x->nrecs, id);

	return r && r->status == CT_SESSION_INTERRUPTED;
}

bool rp_newer(const struct rp_ctx *x, int64_t a, int64_t b)
{
	const struct ct_session_rec *ra = ct_store_session_of(x->recs, x->nrecs, a);
	const struct ct_session_rec *rb = ct_store_session_of(x->recs, x->nrecs, b);

	return ra && rb ? ct_store_session_newer(ra, rb) : a > b;
}

/* Whether the pool takes session id (latest: the newest usable one). */
static bool pooled(const struct rp_ctx *x, int64_t id, int64_t latest)
{
	if (rp_unfinished(x, id) && !x->q->include_unfinished)
		return false;
	if (x->q->pool == CT_POOL_LATEST)
		return id == latest;
	for (size_t i = 0; x->q->pool == CT_POOL_LISTED && i < x->q->npool_ids; i++)
		if (x->q->pool_ids[i] == id)
			return true;
	return x->q->pool != CT_POOL_LISTED;
}

/* The sessions of c's runs, newest first, and its newest. */
static int list_sessions(struct ct_report_cell *c, const struct rp_ctx *x)
{
	c->sessions = malloc((c->nruns ? c->nruns : 1) * sizeof(*c->sessions));
	if (!c->sessions)
		return -ENOMEM;
	for (size_t i = c->nruns; i-- > 0;) {
		int64_t id = c->runs[i].session_id;
		size_t k = 0;

		while (k < c->nsessions && c->sessions[k] != id)
			k++;
		if (k < c->nsessions)
			continue;
		c->sessions[c->nsessions++] = id;
		c->nunfinished += rp_unfinished(x, id);
		if (!c->session_id || rp_newer(x, id, c->session_id))
			c->session_id = id;
	}
	return 0;
}

static double mean_of(const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	return n ? s / (double)n : NAN;
}

/* A scored workload's per-second series, for the plots. */
static int load_series(struct ct_report_cell *c, struct ct_store *st, char *err, size_t len)
{
	for (size_t i = 0; i < c->n; i++) {
		struct ct_run *r = (struct ct_run *)c->ok[i];
		double *s = NULL;
		size_t n = 0;
		int rc;

		if (!ct_run_higher_better(r))
			continue;
		rc = ct_store_run_series(st, r->id, &s, &n, err, len);
		if (rc)
			return rc;
		r->series = s;
		r->nseries = (unsigned)n;
	}
	return 0;
}

/* The runs of one cell: of session, or (0) of the sessions the query's
 * pool takes; every run of them, the values of the ok ones. */
static int fetch_cell(struct ct_report_cell *c, const struct rp_ctx *x, const struct ct_report *rep,
		      const char *label, int64_t session, const char *load, char *err, size_t len)
{
	struct ct_run_filter f = {
		.session_id = session,
		.label = label,
		.workload = rep->workload,
		.load = load,
		.workload_params = rep->params[0] ? rep->params : NULL,
	};
	int64_t latest = 0;
	size_t kept = 0;
	int rc;

	snprintf(c->label, sizeof(c->label), "%s", label);
	c->ratio = NAN;
	c->mean_unflagged = NAN;
	rc = ct_store_runs(x->st, &f, &c->runs, &c->nruns, err, len);
	if (rc)
		return rc;
	for (size_t i = 0; !session && i < c->nruns; i++)
		if (c->runs[i].status == CT_RUN_OK &&
		    (!latest || rp_newer(x, c->runs[i].session_id, latest)) &&
		    (!rp_unfinished(x, c->runs[i].session_id) || x->q->include_unfinished))
			latest = c->runs[i].session_id;
	for (size_t i = 0; i < c->nruns; i++)
		if (session || pooled(x, c->runs[i].session_id, latest))
			c->runs[kept++] = c->runs[i];
	c->nruns = kept;
	if (list_sessions(c, x))
		return ct_err(err, len, -ENOMEM, "out of memory");
	c->values = malloc((c->nruns ? c->nruns : 1) * sizeof(*c->values));
	c->ok = malloc((c->nruns ? c->nruns : 1) * sizeof(*c->ok));
	if (!c->values || !c->ok)
		return ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t i = 0; i < c->nruns; i++) {
		if (c->runs[i].status != CT_RUN_OK)
			continue;
		c->ok[c->n] = &c->runs[i];
		c->values[c->n++] = ct_run_value(&c->runs[i]);
	}
	ct_run_group(c->runs, c->nruns, &c->g);
	rp_metric_means(c);
	rc = load_series(c, x->st, err, len);
	if (rc)
		return rc;
	return rp_describe_values(c, rep->confidence) ? ct_err(err, len, -ENOMEM, "out of memory")
						      : 0;
}

void rp_cell_release(struct ct_report_cell *c)
{
	for (size_t i = 0; c->runs && i < c->nruns; i++)
		free((double *)c->runs[i].series);
	free(c->runs);
	free(c->sessions);
	free(c->values);
	free(c->ok);
	free(c->scores);
	free(c->outlier);
	free(c->flags);
	ct_why_free(c->why);
	memset(c, 0, sizeof(*c));
}

/* Each value as a score against the reference's mean: 1000 x value /
 * ref when more is better (tps), 1000 x ref / value when less is (a
 * latency), so that a higher score is better whatever the figure. */
static int score(struct ct_report_cell *c, double ref, bool higher_better, char *err, size_t len)
{
	free(c->scores);
	c->scores = malloc((c->n ? c->n : 1) * sizeof(*c->scores));
	if (!c->scores)
		return ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t i = 0; i < c->n; i++)
		c->scores[i] =
			higher_better ? 1000 * c->values[i] / ref : 1000 * ref / c->values[i];
	return 0;
}

/* The no-load mean of label: from its session among the sources, else
 * (or when that has none) from its sessions in the pool. */
static int noload_mean(const struct rp_ctx *x, const struct ct_report *rep, const char *label,
		       bool tps, double *mean, int64_t *session, size_t *nsessions, char *err,
		       size_t len)
{
	struct ct_report_cell c = { 0 };
	int64_t sess = 0;
	int rc;

	*mean = NAN;
	*session = 0;
	*nsessions = 0;
	for (size_t i = 0; i < x->q->nsrc; i++)
		if (!strcmp(x->q->src[i].label, label) && x->q->src[i].session_id)
			sess = x->q->src[i].session_id;
	rc = fetch_cell(&c, x, rep, label, sess, "none", err, len);
	if (!rc && !c.n && sess) {
		rp_cell_release(&c);
		rc = fetch_cell(&c, x, rep, label, 0, "none", err, len);
	}
	if (!rc && c.n) {
		*mean = tps ? mean_of(c.values, c.n) : c.g.time_s;
		*session = c.session_id;
		*nsessions = c.nsessions;
	}
	rp_cell_release(&c);
	return rc;
}

/* The first config stored with no-load runs of these parameters: the
 * default score reference. */
static int first_config(struct ct_store *st, const struct ct_report *rep, char *label, size_t llen,
			char *err, size_t len)
{
	struct ct_run_filter f = { .workload = rep->workload,
				   .load = "none",
				   .workload_params = rep->params,
				   .ok_only = true };
	struct ct_run *runs = NULL;
	size_t n = 0;
	int rc = ct_store_runs(st, &f, &runs, &n, err, len);

	label[0] = '\0';
	if (!rc && n)
		snprintf(label, llen, "%s", runs[0].label);
	free(runs);
	return rc;
}

int rp_references(struct ct_report *rep, const struct rp_ctx *x, char *err, size_t len)
{
	const struct ct_report_query *q = x->q;
	double mean;
	int rc;

	rep->ref_time_s = NAN;
	rep->score_tps = NAN;
	snprintf(rep->ref_label, sizeof(rep->ref_label), "%s",
		 q->ref_label	 ? q->ref_label
		 : q->base_label ? q->base_label
				 : q->src[0].label);
	rc = noload_mean(x, rep, rep->ref_label, false, &mean, &rep->ref_session_id,
			 &rep->ref_nsessions, err, len);
	if (rc)
		return rc;
	rep->ref_time_s = mean;
	if (!q->score)
		return 0;
	rep->scored = true;
	rep->score_default = !q->score_label;
	if (q->score_label)
		snprintf(rep->score_label, sizeof(rep->score_label), "%s", q->score_label);
	else
		rc = first_config(x->st, rep, rep->score_label, sizeof(rep->score_label), err, len);
	if (rc || !rep->score_label[0])
		return rc;
	return noload_mean(x, rep, rep->score_label, true, &rep->score_tps, &rep->score_session_id,
			   &rep->score_nsessions, err, len);
}

int rp_figure_refs(struct ct_report *rep, const struct rp_ctx *x, char *err, size_t len)
{
	const struct ct_report_query *q = x->q;
	int64_t sess;
	size_t nsess;
	int rc;

	rep->ref_value = NAN;
	if (rep->figure_kind != CT_FIGURE_OTHER)
		return 0;
	rc = noload_mean(x, rep, rep->ref_label, true, &rep->ref_value, &sess, &nsess, err, len);
	if (rc)
		return rc;
	rep->scored = true;
	rep->score_default = !q->score_label;
	if (q->score_label)
		snprintf(rep->score_label, sizeof(rep->score_label), "%s", q->score_label);
	else
		rc = first_config(x->st, rep, rep->score_label, sizeof(rep->score_label), err, len);
	if (!rc && rep->score_label[0])
		rc = noload_mean(x, rep, rep->score_label, true, &rep->score_tps,
				 &rep->score_session_id, &rep->score_nsessions, err, len);
	for (size_t i = 0; !rc && i < rep->nblocks; i++)
		for (size_t j = 0; !rc && j < rep->blocks[i].ncells; j++) {
			struct ct_report_cell *c = &rep->blocks[i].cells[j];

			c->ratio = c->n && rep->ref_value != 0
					   ? mean_of(c->values, c->n) / rep->ref_value
					   : NAN;
			if (c->n && rep->score_tps > 0)
				rc = score(c, rep->score_tps, rep->higher_better, err, len);
		}
	return rc;
}

/* A --load-cmd's command as stored with a run ("cmd=... work=..."), without
 * what the run added ("lcpu=estimated"); NULL for a built-in load. */
static size_t command_of(const struct ct_run *r, const char **cmd)
{
	const char *end = strstr(r->load_params, " lcpu=estimated");

	*cmd = strncmp(r->load_params, "cmd=", 4) ? NULL : r->load_params;
	return *cmd ? (end ? (size_t)(end - *cmd) : strlen(*cmd)) : 0;
}

/* Runs of a load defined by --load-cmd compare only when they ran the
 * same command, counted the same way: a name is the user's, not a load's
 * identity. -EINVAL naming both when they differ. */
static int same_command(const struct ct_report_block *b, char *err, size_t len)
{
	const struct ct_report_cell *first = NULL;
	const char *want = NULL, *cmd;
	size_t wn = 0, n;

	for (size_t j = 0; j <= b->ncells; j++) {
		const struct ct_report_cell *c = j < b->ncells ? &b->cells[j] : &b->base;

		for (size_t i = 0; i < c->n; i++) {
			n = command_of(c->ok[i], &cmd);
			if (!first) {
				first = c;
				want = cmd;
				wn = n;
			} else if ((!want) != (!cmd) || n != wn || (cmd && memcmp(cmd, want, n))) {
				return ct_err(err, len, -EINVAL,
					      "load '%s' ran different commands in '%s' (%.*s) and "
					      "'%s' (%.*s): not compared",
					      b->load, first->label, want ? (int)wn : 8,
					      want ? want : "built-in", c->label, cmd ? (int)n : 8,
					      cmd ? cmd : "built-in");
			}
		}
	}
	return 0;
}

/* The cells of every block, Ratio, scores, and the baseline of each. */
int rp_build_blocks(struct ct_report *rep, const struct rp_ctx *x, char *err, size_t len)
{
	const struct ct_report_query *q = x->q;
	long base = -1;
	int rc = 0;

	for (size_t j = 0; j < q->nsrc && base < 0; j++)
		if (!strcmp(q->src[j].label, rep->base_label))
			base = (long)j;
	for (size_t i = 0; !rc && i < q->nloads; i++) {
		struct ct_report_block *b = &rep->blocks[rep->nblocks++];

		snprintf(b->load, sizeof(b->load), "%s", q->loads[i]);
		b->work_unit = q->work_units ? q->work_units[i] : NULL;
		b->cells = calloc(q->nsrc, sizeof(*b->cells));
		if (!b->cells)
			return ct_err(err, len, -ENOMEM, "out of memory");
		b->ncells = q->nsrc;
		b->base_cell = base;
		for (size_t j = 0; !rc && j < q->nsrc; j++) {
			struct ct_report_cell *c = &b->cells[j];

			rc = fetch_cell(c, x, rep, q->src[j].label, q->src[j].session_id,
					q->loads[i], err, len);
			if (!rc && c->g.n && rep->ref_time_s > 0)
				c->ratio = c->g.time_s / rep->ref_time_s;
			if (!rc && c->n && rep->scored && rep->score_tps > 0)
				rc = score(c, rep->score_tps, true, err, len);
		}
		/* a baseline in no row: the score reference, its no-load runs
		 * from the session that gave the reference */
		if (!rc && base < 0)
			rc = fetch_cell(&b->base, x, rep, rep->base_label,
					!strcmp(b->load, "none") &&
							!strcmp(rep->base_label, rep->score_label)
						? rep->score_session_id
						: 0,
					b->load, err, len);
		if (!rc)
			rc = same_command(b, err, len);
	}
	return rc;
}
