/*
 * The report model's statistics: each cell described (summary, outliers
 * with the interference their runs recorded, the means of the runs'
 * metrics) and each config compared with the baseline load by load, on
 * every judged figure, its sessions' relation to the baseline's deciding
 * the test, Holm-adjusted across the loads of each config. It reads the
 * store only for the machine's spread of sessions (across.c).
 */
#include "model.h"
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

/* Summary, outliers and their evidence, and the mean without them. */
int rp_describe_values(struct ct_report_cell *c, double confidence)
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
void rp_metric_means(struct ct_report_cell *c)
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

/* The group of a session (--vary's sessions of one run), 0 when it is
 * not part of one; interleaved: only a group whose runs alternate. */
static int64_t group_of(const struct rp_ctx *x, int64_t id, bool interleaved)
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
static enum ct_report_scope scope_of(const struct rp_ctx *x, const struct ct_report_block *blk,
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
			const struct rp_ctx *x)
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

/* The block's machine spread of sessions, when one of its configs is
 * compared across sessions with one session a side: from the sessions of
 * the machine the baseline's newest session ran on. */
static int block_between(struct ct_report *rep, struct ct_report_block *b,
			 const struct ct_report_cell *base, const struct rp_ctx *x, char *err,
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

/* Every compared cell of every block, then Holm across the loads of each
 * config. */
int rp_compare_all(struct ct_report *rep, const struct rp_ctx *x, char *err, size_t len)
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
