/*
 * The report model built from the store (include/contend/report.h): each
 * cell's runs fetched once, every figure the printers show computed here -
 * means, Ratio, scores, summaries, flagged runs with their evidence - and
 * every config compared with the baseline load by load, Holm-adjusted
 * across the loads of each config.
 */
#include "contend/report.h"
#include "internal.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Interference that makes an outlier a likely fluke, as a share of its
 * run's wall time: CPU used outside contend, and steal. */
#define FLUKE_FOREIGN 0.10
#define FLUKE_STEAL   0.02

/* What building one model reads more than once: the store, the query,
 * the stored sessions (their status and group). */
struct ctx {
	struct ct_store *st;
	const struct ct_report_query *q;
	struct ct_session_rec *recs;
	size_t nrecs;
};

/* A session that was interrupted: pooled only when asked. One still
 * running counts (its runs so far are whole); one whose contend is gone
 * is marked interrupted by `contend list` and at the next run. */
static bool unfinished(const struct ctx *x, int64_t id)
{
	const struct ct_session_rec *r = ct_store_session_of(x->recs, x->nrecs, id);

	return r && !strcmp(r->status, "interrupted");
}

/* Whether the pool takes session id (latest: the newest usable one). */
static bool pooled(const struct ctx *x, int64_t id, int64_t latest)
{
	if (unfinished(x, id) && !x->q->include_unfinished)
		return false;
	if (x->q->pool == CT_POOL_LATEST)
		return id == latest;
	for (size_t i = 0; x->q->pool == CT_POOL_LISTED && i < x->q->npool_ids; i++)
		if (x->q->pool_ids[i] == id)
			return true;
	return x->q->pool != CT_POOL_LISTED;
}

/* The sessions of c's runs, newest first, and its newest. */
static int list_sessions(struct ct_report_cell *c, const struct ctx *x)
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
		c->nunfinished += unfinished(x, id);
		if (id > c->session_id)
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

/* Loads per second of a run that counted work, else NaN. */
static double load_rate(const struct ct_run *r)
{
	return r && r->load_work && r->wall_ns > 0 ? ct_run_loads(r) / ct_run_time_s(r) : NAN;
}

/* The CPU speed a run started with, NaN when unknown. */
static double cpu_speed(const struct ct_run *r)
{
	return r && r->mon.start_cpu_speed > 0 ? r->mon.start_cpu_speed : NAN;
}

/* The median of what of() gives for the cell's ok runs, over the runs
 * where it is known; NaN when none. */
static double cell_median(const struct ct_report_cell *c, double (*of)(const struct ct_run *))
{
	double *v = c->n && c->ok ? malloc(c->n * sizeof(*v)) : NULL, m;
	size_t k = 0;

	if (!v)
		return NAN;
	for (size_t i = 0; i < c->n; i++) {
		double x = of(c->ok[i]);

		if (!isnan(x))
			v[k++] = x;
	}
	m = ct_stats_median(v, k);
	free(v);
	return m;
}

static void flag_evidence(struct ct_report_flag *fl, double rate_median, double speed_median)
{
	static const char *const res[] = { "cpu", "io", "memory" };
	const struct ct_run *r = fl->run;
	double wall = r ? (double)r->wall_ns / 1e3 : 0, psi = 0;

	fl->psi_resource = res[0];
	fl->start_dirty_bytes = r ? r->mon.start_dirty_bytes : -1;
	fl->start_writeback_bytes = r ? r->mon.start_writeback_bytes : -1;
	fl->load_rate = load_rate(r);
	fl->load_rate_median = isnan(fl->load_rate) ? NAN : rate_median;
	fl->cpu_speed_rel = cpu_speed(r) / speed_median;
	fl->unmonitored = r && !strncmp(r->load_params, "imported=", 9);
	if (!r || wall <= 0 || fl->unmonitored)
		return;
	for (int k = 0; k < 3 && r->mon.have_psi; k++)
		if ((double)r->mon.psi_us[k][0] > psi) {
			psi = (double)r->mon.psi_us[k][0];
			fl->psi_resource = res[k];
		}
	fl->foreign_pct = 100 * (double)r->mon.foreign_cpu_us / wall;
	fl->steal_pct = 100 * (double)r->mon.steal_us / wall;
	fl->psi_pct = 100 * psi / wall;
	fl->likely_fluke = (double)r->mon.foreign_cpu_us > FLUKE_FOREIGN * wall ||
			   (double)r->mon.steal_us > FLUKE_STEAL * wall;
}

/* Summary, outliers and their evidence, and the mean without them. */
/* Outliers among the runs of each session: a session that ran slower as
 * a whole is how sessions vary, which the verdict weighs, not a fluke
 * run. One session (or plain numbers): among all the values. */
static int flag_outliers(struct ct_report_cell *c, size_t *nflag)
{
	double *v;
	size_t *idx;
	bool *o;
	int rc = 0;

	if (c->nsessions <= 1 || !c->ok)
		return c->have_summary ? ct_stats_outliers_of(c->values, &c->sum, c->outlier, nflag)
				       : ct_stats_outliers(c->values, c->n, c->outlier, nflag);
	v = malloc(c->n * sizeof(*v));
	idx = malloc(c->n * sizeof(*idx));
	o = malloc(c->n * sizeof(*o));
	*nflag = 0;
	for (size_t s = 0; v && idx && o && s < c->nsessions; s++) {
		size_t m = 0, k = 0;

		for (size_t i = 0; i < c->n; i++)
			if (c->ok[i]->session_id == c->sessions[s]) {
				idx[m] = i;
				v[m++] = c->values[i];
			}
		if (m < 3 || ct_stats_outliers(v, m, o, &k))
			continue;
		for (size_t j = 0; j < m; j++)
			c->outlier[idx[j]] = o[j];
		*nflag += k;
	}
	if (!v || !idx || !o)
		rc = -ENOMEM;
	free(v);
	free(idx);
	free(o);
	return rc;
}

static int describe_values(struct ct_report_cell *c, double confidence)
{
	size_t nflag = 0;
	double kept = 0, rate_median, speed_median;

	c->mean_unflagged = NAN;
	c->have_summary = c->n >= 2 && !ct_stats_summarize(c->values, c->n, confidence, &c->sum);
	if (c->n < 3)
		return 0;
	c->outlier = calloc(c->n, sizeof(*c->outlier));
	if (!c->outlier)
		return -ENOMEM;
	if (flag_outliers(c, &nflag) == -ENOMEM)
		return -ENOMEM;
	if (!nflag)
		return 0;
	c->flags = calloc(nflag, sizeof(*c->flags));
	if (!c->flags)
		return -ENOMEM;
	rate_median = cell_median(c, load_rate);
	speed_median = cell_median(c, cpu_speed);
	for (size_t i = 0; i < c->n; i++) {
		struct ct_report_flag *fl;

		if (!c->outlier[i]) {
			kept += c->values[i];
			continue;
		}
		fl = &c->flags[c->nflags++];
		fl->value = i;
		fl->run = c->ok ? c->ok[i] : NULL;
		flag_evidence(fl, rate_median, speed_median);
	}
	c->mean_unflagged = kept / (double)(c->n - c->nflags);
	return 0;
}

/* The mean of every metric over the ok runs that have it. */
static void metric_means(struct ct_report_cell *c)
{
	unsigned cnt[CT_RUN_MAX_METRICS] = { 0 };

	for (size_t i = 0; i < c->n; i++) {
		const struct ct_run *r = c->ok[i];

		for (unsigned m = 0; m < r->nmetrics; m++) {
			unsigned k = 0;

			while (k < c->nmetric_means &&
			       strcmp(c->metric_means[k].name, r->metrics[m].name))
				k++;
			if (k == c->nmetric_means) {
				if (k == CT_RUN_MAX_METRICS)
					continue;
				c->metric_means[k] = r->metrics[m];
				c->metric_means[k].value = 0;
				c->nmetric_means++;
			}
			c->metric_means[k].value += r->metrics[m].value;
			cnt[k]++;
		}
	}
	for (unsigned k = 0; k < c->nmetric_means; k++)
		c->metric_means[k].value /= cnt[k];
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
static int fetch_cell(struct ct_report_cell *c, const struct ctx *x, const struct ct_report *rep,
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
		if (c->runs[i].status == CT_RUN_OK && c->runs[i].session_id > latest &&
		    (!unfinished(x, c->runs[i].session_id) || x->q->include_unfinished))
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
	metric_means(c);
	rc = load_series(c, x->st, err, len);
	if (rc)
		return rc;
	return describe_values(c, rep->confidence) ? ct_err(err, len, -ENOMEM, "out of memory") : 0;
}

static void release_cell(struct ct_report_cell *c)
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
	memset(c, 0, sizeof(*c));
}

/* Each value as a score: 1000 x tps / the reference's mean tps. */
static int score(struct ct_report_cell *c, double ref_tps, char *err, size_t len)
{
	c->scores = malloc(c->n * sizeof(*c->scores));
	if (!c->scores)
		return ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t i = 0; i < c->n; i++)
		c->scores[i] = 1000 * c->values[i] / ref_tps;
	return 0;
}

/* The no-load mean of label: from its session among the sources, else
 * (or when that has none) from its sessions in the pool. */
static int noload_mean(const struct ctx *x, const struct ct_report *rep, const char *label,
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
		release_cell(&c);
		rc = fetch_cell(&c, x, rep, label, 0, "none", err, len);
	}
	if (!rc && c.n) {
		*mean = tps ? mean_of(c.values, c.n) : c.g.time_s;
		*session = c.session_id;
		*nsessions = c.nsessions;
	}
	release_cell(&c);
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

static int references(struct ct_report *rep, const struct ctx *x, char *err, size_t len)
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

/* The group of a session (--vary's sessions of one run), 0 when it is
 * not part of one; interleaved: only a group whose runs alternate. */
static int64_t group_of(const struct ctx *x, int64_t id, bool interleaved)
{
	const struct ct_session_rec *r = ct_store_session_of(x->recs, x->nrecs, id);

	if (!r || (interleaved && strcmp(r->order, "interleaved")))
		return 0;
	return r->group_id;
}

/* A run's value of the judged figure (k < 0) or of extra figure k; NaN
 * when it has none. */
static double value_of(const struct ct_report *rep, const struct ct_run *r, long k)
{
	double v;

	if (k < 0)
		return ct_run_value(r);
	return ct_run_metric(r, rep->extra[k].metric, &v) ? NAN : v;
}

/* The values of figure k of a cell's ok runs (NaN ones left out), and
 * the session of each. */
static size_t values_of(const struct ct_report *rep, const struct ct_report_cell *c, long k,
			double *out, int64_t *sess)
{
	size_t n = 0;

	for (size_t i = 0; i < c->n; i++) {
		double v = k < 0 ? c->values[i] : value_of(rep, c->ok[i], k);

		if (isnan(v))
			continue;
		sess[n] = c->ok ? c->ok[i]->session_id : 0;
		out[n++] = v;
	}
	return n;
}

/* Figure k of c against the baseline b into out; the runs of sessions of
 * one interleaved group (paired) pair by block, and with two sessions or
 * more a side the sessions decide. */
static int compare_figure(struct ct_report *rep, const struct ct_report_block *blk,
			  const struct ct_report_cell *b, const struct ct_report_cell *c, long k,
			  bool paired, struct ct_stats_comparison *out)
{
	size_t cap = (b->n > c->n ? b->n : c->n) + 1, nb, nc, np = 0;
	double *vb = malloc(cap * sizeof(double)), *vc = malloc(cap * sizeof(double));
	double *pb = malloc(cap * sizeof(double)), *pc = malloc(cap * sizeof(double));
	int64_t *sb = malloc(cap * sizeof(int64_t)), *sc = malloc(cap * sizeof(int64_t));
	int rc = 0;

	if (!vb || !vc || !pb || !pc || !sb || !sc) {
		rc = -ENOMEM;
		goto out;
	}
	nb = values_of(rep, b, k, vb, sb);
	nc = values_of(rep, c, k, vc, sc);
	for (size_t i = 0; paired && i < b->n; i++)
		for (size_t j = 0; j < c->n; j++)
			if (b->ok[i]->block && c->ok[j]->block == b->ok[i]->block) {
				double x = value_of(rep, b->ok[i], k),
				       y = value_of(rep, c->ok[j], k);

				if (!isnan(x) && !isnan(y)) {
					pb[np] = x;
					pc[np++] = y;
				}
				break;
			}
	ct_stats_compare(vb, nb, vc, nc, np ? pb : NULL, np ? pc : NULL, np, rep->confidence, out);
	if (c->scope == CT_SCOPE_SESSIONS &&
	    ct_stats_compare_sessions(vb, sb, nb, vc, sc, nc, rep->confidence, out) == -ENOMEM)
		rc = -ENOMEM;
	/* one session a side: the machine's spread of sessions stands in */
	if (c->scope == CT_SCOPE_MACHINE &&
	    ct_stats_compare_across(vb, sb, nb, vc, sc, nc, &blk->between, rep->confidence, out) ==
		    -ENOMEM)
		rc = -ENOMEM;
out:
	free(vb);
	free(vc);
	free(pb);
	free(pc);
	free(sb);
	free(sc);
	return rc;
}

/* How c's sessions relate to b's: one session or one --vary run, enough
 * sessions a side for the sessions to decide, or too few - the machine's
 * spread of sessions deciding when the block knows it and the query did
 * not ask for the runs alone. */
static enum ct_report_scope scope_of(const struct ctx *x, const struct ct_report_block *blk,
				     const struct ct_report_cell *b, const struct ct_report_cell *c)
{
	int64_t g;

	if (b->nsessions >= CT_STATS_SESSIONS_MIN && c->nsessions >= CT_STATS_SESSIONS_MIN)
		return CT_SCOPE_SESSIONS;
	if (b->nsessions == 1 && c->nsessions == 1 &&
	    (b->session_id == c->session_id ||
	     ((g = group_of(x, b->session_id, false)) && g == group_of(x, c->session_id, false))))
		return CT_SCOPE_SESSION;
	if (!x->q->within_session && blk->between.df > 0 && b->n && c->n)
		return CT_SCOPE_MACHINE;
	return CT_SCOPE_ACROSS;
}

/* c against the baseline b on every judged figure; the runs of sessions
 * of one interleaved group pair by block. */
static int compare_cell(struct ct_report *rep, const struct ct_report_block *blk,
			const struct ct_report_cell *b, struct ct_report_cell *c,
			const struct ctx *x)
{
	int64_t gb = b->n ? group_of(x, b->session_id, true) : 0;
	bool paired = gb && c->n && b->session_id != c->session_id &&
		      group_of(x, c->session_id, true) == gb;
	int rc;

	c->compared = true;
	rep->compared = true;
	c->scope = scope_of(x, blk, b, c);
	if (paired) {
		c->paired = true;
		rep->paired = true;
	}
	rc = compare_figure(rep, blk, b, c, -1, paired, &c->cmp);
	/* the rule across sessions could not run (sessions of one run): the
	 * runs decided, and the spread of sessions stays unknown */
	if (!rc && c->scope == CT_SCOPE_MACHINE && c->cmp.decided_by != CT_TEST_ACROSS)
		c->scope = CT_SCOPE_ACROSS;
	for (unsigned k = 0; !rc && k < rep->nextra; k++)
		rc = compare_figure(rep, blk, b, c, (long)k, paired, &c->extra_cmp[k]);
	return rc;
}

/* Holm across the loads (and figures) of each config. */
static int decide_all(struct ct_report *rep, size_t nsrc, char *err, size_t len)
{
	size_t per = 1 + rep->nextra, n;
	struct ct_stats_comparison **fam = calloc(rep->nblocks * per + 1, sizeof(*fam));
	int rc = 0;

	if (!fam)
		return ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t j = 0; !rc && j < nsrc; j++) {
		n = 0;
		for (size_t i = 0; i < rep->nblocks; i++) {
			fam[n++] = &rep->blocks[i].cells[j].cmp;
			for (unsigned k = 0; k < rep->nextra; k++)
				fam[n++] = &rep->blocks[i].cells[j].extra_cmp[k];
		}
		if (ct_stats_decide(fam, n, rep->confidence))
			rc = ct_err(err, len, -EINVAL, "cannot adjust the p-values");
	}
	free(fam);
	return rc;
}

/* Every compared cell of every block, then Holm across the loads of each
 * config. */
/* The block's machine spread of sessions, when one of its configs is
 * compared across sessions with one session a side: from the sessions of
 * the machine the baseline's newest session ran on. */
static int block_between(struct ct_report *rep, struct ct_report_block *b,
			 const struct ct_report_cell *base, const struct ctx *x, char *err,
			 size_t len)
{
	const struct ct_session_rec *r = ct_store_session_of(x->recs, x->nrecs, base->session_id);
	bool need = false;

	b->between.var = NAN;
	for (size_t j = 0; !x->q->within_session && j < b->ncells; j++) {
		const struct ct_report_cell *c = &b->cells[j];

		need |= c != base && c->n && base->n &&
			(c->nsessions < CT_STATS_SESSIONS_MIN ||
			 base->nsessions < CT_STATS_SESSIONS_MIN) &&
			scope_of(x, b, base, c) == CT_SCOPE_ACROSS;
	}
	if (!need || !r || !b->load[0])
		return 0;
	return ct_report_between(x->st, x->recs, x->nrecs, rep->workload, rep->params, b->load,
				 r->owner.machine, &b->between, err, len);
}

static int compare_all(struct ct_report *rep, const struct ctx *x, char *err, size_t len)
{
	int rc = 0;

	rep->within_session = x->q->within_session;
	for (size_t i = 0; !rc && i < rep->nblocks; i++) {
		struct ct_report_block *b = &rep->blocks[i];
		const struct ct_report_cell *base =
			b->base_cell >= 0 ? &b->cells[b->base_cell] : &b->base;

		rc = block_between(rep, b, base, x, err, len);
		for (size_t j = 0; !rc && j < b->ncells; j++) {
			if ((long)j == b->base_cell ||
			    (b->base_cell < 0 && !strcmp(b->cells[j].label, base->label)))
				continue;
			if (compare_cell(rep, b, base, &b->cells[j], x))
				rc = ct_err(err, len, -ENOMEM, "out of memory");
		}
	}
	return rc ? rc : decide_all(rep, x->q->nsrc, err, len);
}

/* The cells of every block, Ratio, scores, and the baseline of each. */
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

static int build_blocks(struct ct_report *rep, const struct ctx *x, char *err, size_t len)
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
				rc = score(c, rep->score_tps, err, len);
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

/* The facts of each config shown, from its newest run found, and the
 * sessions and runs shown of it over every load. */
static int load_configs(struct ct_report *rep, const struct ctx *x, char *err, size_t len)
{
	char label[128];
	int rc = 0;

	rep->configs = calloc(x->q->nsrc, sizeof(*rep->configs));
	if (!rep->configs)
		return ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t k = 0; k < x->q->nsrc && !rc; k++) {
		struct ct_report_config *c = &rep->configs[rep->nconfigs++];
		int64_t seen[256], newest = 0;
		const struct ct_session_rec *r;

		snprintf(c->label, sizeof(c->label), "%s", x->q->src[k].label);
		for (size_t i = 0; i < rep->nblocks; i++) {
			const struct ct_report_cell *cell = &rep->blocks[i].cells[k];

			c->nruns += cell->n;
			if (cell->nruns && cell->session_id >= newest) {
				newest = cell->session_id;
				c->config_id = cell->runs[cell->nruns - 1].config_id;
			}
			for (size_t s = 0; s < cell->nsessions; s++) {
				size_t m = 0;

				while (m < c->nsessions && seen[m] != cell->sessions[s])
					m++;
				if (m < c->nsessions || m == CT_ARRAY_SIZE(seen))
					continue;
				seen[c->nsessions++] = cell->sessions[s];
				c->nunfinished += unfinished(x, cell->sessions[s]);
			}
		}
		if ((r = ct_store_session_of(x->recs, x->nrecs, newest)))
			ct_report_machine(&r->owner, c->machine, sizeof(c->machine));
		if (c->config_id)
			rc = ct_store_config_get(x->st, c->config_id, label, sizeof(label), &c->si,
						 err, len);
	}
	return rc;
}

/* Adds fact name to the diffs when the configs' values differ. */
static int diff_fact(struct ct_report *rep, const char *name, const char *const *vals)
{
	struct ct_report_diff *d;
	bool differ = false;

	for (size_t k = 1; k < rep->nconfigs; k++)
		differ |= strcmp(vals[k], vals[0]) != 0;
	if (!differ)
		return 0;
	d = realloc(rep->diffs, (rep->ndiffs + 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	rep->diffs = d;
	d = &rep->diffs[rep->ndiffs++];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	for (size_t k = 0; k < rep->nconfigs; k++)
		snprintf(d->values[k], sizeof(d->values[k]), "%s", vals[k]);
	return 0;
}

static const char *sysctl_of(const struct ct_sysinfo *si, const char *name)
{
	for (unsigned i = 0; i < si->nsysctl; i++)
		if (!strcmp(si->sysctl[i].name, name))
			return si->sysctl[i].value;
	return "";
}

/* The facts in which the configs shown differ, in sysinfo's order, then
 * every sysctl any of them recorded. */
static int config_diffs(struct ct_report *rep)
{
	static const char *const names[] = { "kernel release",
					     "kernel version",
					     "cmdline",
					     "preemption",
					     "cpu",
					     "cpus",
					     "ram",
					     "swap",
					     "filesystem",
					     "block device",
					     "io scheduler" };
	char num[CT_REPORT_MAX_ROWS][3][32];
	const char *vals[CT_REPORT_MAX_ROWS];
	int rc = 0;

	if (rep->nconfigs < 2)
		return 0;
	/* the machine first: configs of a fleet's store may come from many */
	for (size_t k = 0; k < rep->nconfigs; k++)
		vals[k] = rep->configs[k].machine;
	rc = diff_fact(rep, "machine", vals);
	for (size_t f = 0; f < CT_ARRAY_SIZE(names) && !rc; f++) {
		for (size_t k = 0; k < rep->nconfigs; k++) {
			const struct ct_sysinfo *si = &rep->configs[k].si;
			const char *const v[] = {
				si->kernel_release, si->kernel_version, si->cmdline, si->preempt,
				si->cpu_model,	    num[k][0],		num[k][1],   num[k][2],
				si->fs_type,	    si->block_dev,	si->iosched
			};

			snprintf(num[k][0], sizeof(num[k][0]), "%u", si->ncpus);
			ct_fmt_size(si->ram_bytes, num[k][1], sizeof(num[k][1]));
			ct_fmt_size(si->swap_bytes, num[k][2], sizeof(num[k][2]));
			vals[k] = rep->configs[k].config_id ? v[f] : "";
		}
		rc = diff_fact(rep, names[f], vals);
	}
	for (size_t k = 0; k < rep->nconfigs && !rc; k++)
		for (unsigned i = 0; i < rep->configs[k].si.nsysctl && !rc; i++) {
			const char *name = rep->configs[k].si.sysctl[i].name;
			bool seen = false;

			for (size_t d = 0; d < rep->ndiffs && !seen; d++)
				seen = !strcmp(rep->diffs[d].name, name);
			for (size_t m = 0; m < k && !seen; m++)
				seen = *sysctl_of(&rep->configs[m].si, name) != '\0';
			if (seen)
				continue;
			for (size_t m = 0; m < rep->nconfigs; m++)
				vals[m] = sysctl_of(&rep->configs[m].si, name);
			rc = diff_fact(rep, name, vals);
		}
	return rc;
}

static const struct ct_run *first_ok(const struct ct_report *rep)
{
	for (size_t i = 0; i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].ncells; j++)
			if (rep->blocks[i].cells[j].n)
				return rep->blocks[i].cells[j].ok[0];
	return NULL;
}

static bool ends_with(const char *s, const char *end)
{
	size_t a = strlen(s), b = strlen(end);

	return a > b && !strcmp(s + a - b, end);
}

/* The judged figure's name, and for the latency workload the figures
 * judged beside it: each task's deadlines met, and the p99 of every task
 * but the first (whose p99 is the main figure). */
static void name_figure(struct ct_report *rep)
{
	const struct ct_run *r = first_ok(rep);
	char first[CT_METRIC_NAME] = "", task[1][16];
	double main;

	const struct ct_figure *fig = r ? ct_run_figure(r) : NULL;

	rep->figure = fig ? fig->name : "Time";
	rep->unit = fig ? fig->unit : "s";
	rep->figure_key = fig ? fig->key : "time_s";
	rep->figure_kind = !fig					  ? CT_FIGURE_TIME
			   : !strcmp(fig->key, CT_METRIC_TPS)	  ? CT_FIGURE_TPS
			   : !strcmp(fig->key, CT_METRIC_LATENCY) ? CT_FIGURE_LATENCY
								  : CT_FIGURE_OTHER;
	if (rep->figure_kind != CT_FIGURE_LATENCY || ct_run_metric(r, CT_METRIC_LATENCY, &main))
		return;
	if (rp_tasks_of(rep, task, 1))
		snprintf(first, sizeof(first), "%s_p99_us", task[0]);
	for (unsigned i = 0; i < r->nmetrics && rep->nextra < CT_REPORT_MAX_EXTRA; i++) {
		const struct ct_metric *m = &r->metrics[i];
		bool met = ends_with(m->name, "_met_pct");

		if (!met && (!ends_with(m->name, "_p99_us") || !strncmp(m->name, "probe_", 6) ||
			     !strcmp(m->name, first) || (!*first && m->value == main)))
			continue;
		snprintf(rep->extra[rep->nextra].metric, CT_METRIC_NAME, "%s", m->name);
		rep->extra[rep->nextra++].higher_better = met;
	}
}

int ct_report_build(struct ct_report *rep, struct ct_store *st, const struct ct_report_query *q,
		    char *err, size_t len)
{
	struct ctx x = { .st = st, .q = q };
	int rc;

	memset(rep, 0, sizeof(*rep));
	rep->kind = CT_REPORT_RUNS;
	if (!q->nsrc || q->nsrc > CT_REPORT_MAX_ROWS)
		return ct_err(err, len, -EINVAL, "a report needs 1 to %d configs",
			      CT_REPORT_MAX_ROWS);
	snprintf(rep->workload, sizeof(rep->workload), "%s", q->workload);
	snprintf(rep->params, sizeof(rep->params), "%s", q->params ? q->params : "");
	rep->confidence = q->confidence > 0 ? q->confidence : 95;
	rep->blocks = calloc(q->nloads ? q->nloads : 1, sizeof(*rep->blocks));
	if (!rep->blocks)
		return ct_err(err, len, -ENOMEM, "out of memory");
	rc = ct_store_sessions(st, 0, &x.recs, &x.nrecs, err, len);
	if (!rc)
		rc = references(rep, &x, err, len);
	/* the baseline: as asked, else the score reference, else the first */
	if (!rc)
		snprintf(rep->base_label, sizeof(rep->base_label), "%s",
			 q->base_label	       ? q->base_label
			 : rep->score_label[0] ? rep->score_label
					       : q->src[0].label);
	if (!rc)
		rc = build_blocks(rep, &x, err, len);
	for (size_t i = 0; !rc && i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].ncells; j++)
			if (rep->blocks[i].cells[j].n &&
			    ct_run_higher_better(rep->blocks[i].cells[j].ok[0]))
				rep->higher_better = true;
	if (!rc)
		name_figure(rep);
	if (!rc)
		rc = compare_all(rep, &x, err, len);
	if (!rc)
		rc = load_configs(rep, &x, err, len);
	if (!rc && config_diffs(rep))
		rc = ct_err(err, len, -ENOMEM, "out of memory");
	if (!rc)
		rc = rp_drift_build(rep, st, err, len);
	free(x.recs);
	if (rc)
		ct_report_release(rep);
	return rc;
}

void ct_report_release(struct ct_report *rep)
{
	rp_drift_release(rep);
	for (size_t i = 0; i < rep->nblocks; i++) {
		for (size_t j = 0; j < rep->blocks[i].ncells; j++)
			release_cell(&rep->blocks[i].cells[j]);
		free(rep->blocks[i].cells);
		release_cell(&rep->blocks[i].base);
	}
	free(rep->blocks);
	rep->blocks = NULL;
	rep->nblocks = 0;
	free(rep->configs);
	rep->configs = NULL;
	rep->nconfigs = 0;
	free(rep->diffs);
	rep->diffs = NULL;
	rep->ndiffs = 0;
}

int ct_report_from_numbers(struct ct_report *rep, const char *const *names,
			   const double *const *values, const size_t *counts, size_t n,
			   double confidence, bool paired, char *err, size_t len)
{
	struct ct_report_block *b;
	int rc = 0;

	memset(rep, 0, sizeof(*rep));
	rep->kind = CT_REPORT_NUMBERS;
	rep->figure = "Time";
	rep->unit = "s";
	rep->figure_key = "time_s";
	rep->figure_kind = CT_FIGURE_TIME;
	rep->confidence = confidence;
	rep->paired = paired;
	rep->ref_time_s = rep->score_tps = NAN;
	rep->blocks = calloc(1, sizeof(*rep->blocks));
	if (!rep->blocks || !n)
		return rep->blocks ? ct_err(err, len, -EINVAL, "no numbers to compare")
				   : ct_err(err, len, -ENOMEM, "out of memory");
	rep->nblocks = 1;
	b = rep->blocks;
	b->cells = calloc(n, sizeof(*b->cells));
	if (!b->cells)
		return ct_err(err, len, -ENOMEM, "out of memory");
	b->ncells = n;
	snprintf(rep->base_label, sizeof(rep->base_label), "%s", names[0]);
	for (size_t j = 0; !rc && j < n; j++) {
		struct ct_report_cell *c = &b->cells[j];

		snprintf(c->label, sizeof(c->label), "%s", names[j]);
		c->ratio = NAN;
		c->values = malloc((counts[j] ? counts[j] : 1) * sizeof(*c->values));
		if (!c->values)
			return ct_err(err, len, -ENOMEM, "out of memory");
		memcpy(c->values, values[j], counts[j] * sizeof(*c->values));
		c->n = counts[j];
		if (describe_values(c, confidence))
			rc = ct_err(err, len, -ENOMEM, "out of memory");
		else if (!c->have_summary)
			rc = ct_err(err, len, -EINVAL, "cannot summarise '%s'", names[j]);
	}
	for (size_t j = 1; !rc && j < n; j++) {
		struct ct_report_cell *c = &b->cells[j], *base = &b->cells[0];
		struct ct_stats_comparison *one = &c->cmp;
		bool pair = paired && c->n == base->n;

		c->compared = true;
		rep->compared = true;
		c->paired = pair;
		ct_stats_compare(base->values, base->n, c->values, c->n, pair ? base->values : NULL,
				 pair ? c->values : NULL, pair ? c->n : 0, confidence, one);
		/* each comparison on its own: stats makes no family */
		if (ct_stats_decide(&one, 1, confidence))
			rc = ct_err(err, len, -EINVAL, "cannot judge '%s'", names[j]);
	}
	if (rc)
		ct_report_release(rep);
	return rc;
}

const char *ct_report_outcome(const struct ct_report *rep, const struct ct_stats_comparison *v,
			      bool higher_better)
{
	bool numbers = rep->kind == CT_REPORT_NUMBERS;

	switch (v->outcome) {
	case CT_OUTCOME_NOT_ENOUGH:
		return v->need <= 4 ? "not enough runs for a verdict (4 a side needed)"
				    : "not enough runs for a verdict at this confidence";
	case CT_OUTCOME_NO_SPREAD:
		return "no spread in the values: no test possible";
	case CT_OUTCOME_NO_DIFFERENCE:
		return "no significant difference";
	case CT_OUTCOME_LOWER:
		return numbers ? "smaller" : higher_better ? "worse" : "better";
	case CT_OUTCOME_HIGHER:
		return numbers ? "larger" : higher_better ? "better" : "worse";
	}
	return "?";
}

const char *ct_report_verdict(const struct ct_report *rep, const struct ct_report_cell *c)
{
	if (c->cmp.outcome == CT_OUTCOME_NO_SPREAD && rep->kind == CT_REPORT_NUMBERS)
		return rep->blocks[0].cells[0].sum.mean == c->sum.mean
			       ? "no significant difference"
			       : "no test possible (no spread)";
	return ct_report_outcome(rep, &c->cmp, rep->higher_better);
}

void ct_report_machine(const struct ct_owner *o, char *buf, size_t len)
{
	if (o->host[0] && o->machine[0])
		snprintf(buf, len, "%s (%.8s)", o->host, o->machine);
	else if (o->machine[0])
		snprintf(buf, len, "%.8s", o->machine);
	else
		snprintf(buf, len, "%s", o->host);
}

const char *const ct_report_format_names[] = { "text", "json", "csv", "md", "html", NULL };

int ct_report_format_parse(const char *name, enum ct_report_format *out)
{
	for (int i = 0; ct_report_format_names[i]; i++)
		if (!strcmp(name, ct_report_format_names[i])) {
			*out = (enum ct_report_format)i;
			return 0;
		}
	return -EINVAL;
}
