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

/* One side of figure k of a cell: its ok runs' values (NaN ones left
 * out), the session of each, and when the cell's sessions pair with the
 * baseline's (group: their interleaved --vary run) the block of each run
 * of that group; buffers of c->n + 1. */
static struct ct_stats_side side_of(const struct ct_report *rep, const struct ct_report_cell *c,
				    long k, int64_t group, const struct rp_ctx *x, double *v,
				    int64_t *sess, int64_t *pair)
{
	struct ct_stats_side s = { .v = v, .session = sess, .pair = group ? pair : NULL };

	for (size_t i = 0; i < c->n; i++) {
		double y = k < 0 ? c->values[i] : value_of(rep, c->ok[i], k);
		const struct ct_run *r = c->ok ? c->ok[i] : NULL;

		if (isnan(y))
			continue;
		sess[s.n] = r ? r->session_id : 0;
		pair[s.n] = r && group && group_of(x, r->session_id, true) == group ? r->block : 0;
		v[s.n++] = y;
	}
	return s;
}

/* What the rule is told of c against the baseline b in block blk. */
static struct ct_stats_rule rule_of(const struct ct_report *rep, const struct rp_ctx *x,
				    const struct ct_report_block *blk,
				    const struct ct_report_cell *b, const struct ct_report_cell *c)
{
	int64_t g = b->n ? group_of(x, b->session_id, false) : 0;

	return (struct ct_stats_rule){
		.confidence = rep->confidence,
		.one_sitting = g && c->n && group_of(x, c->session_id, false) == g,
		.within_session = x->q->within_session,
		.between = blk && c->between.df > 0 ? &c->between : NULL,
	};
}

/* The group whose runs of b and c pair by block: both newest sessions of
 * one interleaved --vary run, 0 when they do not. */
static int64_t paired_group(const struct rp_ctx *x, const struct ct_report_cell *b,
			    const struct ct_report_cell *c)
{
	int64_t g = b->n ? group_of(x, b->session_id, true) : 0;

	return g && c->n && b->session_id != c->session_id && group_of(x, c->session_id, true) == g
		       ? g
		       : 0;
}

/* Figure k of c against the baseline b into out (ct_stats_verdict()). */
static int compare_figure(struct ct_report *rep, const struct rp_ctx *x,
			  const struct ct_report_block *blk, const struct ct_report_cell *b,
			  const struct ct_report_cell *c, long k, struct ct_stats_comparison *out)
{
	size_t cap = (b->n > c->n ? b->n : c->n) + 1;
	double *vb = malloc(cap * sizeof(double)), *vc = malloc(cap * sizeof(double));
	int64_t *sb = malloc(cap * sizeof(int64_t)), *sc = malloc(cap * sizeof(int64_t));
	int64_t *pb = malloc(cap * sizeof(int64_t)), *pc = malloc(cap * sizeof(int64_t));
	int64_t g = paired_group(x, b, c);
	struct ct_stats_rule rule = rule_of(rep, x, blk, b, c);
	int rc = -ENOMEM;

	if (vb && vc && sb && sc && pb && pc) {
		struct ct_stats_side sideb = side_of(rep, b, k, g, x, vb, sb, pb);
		struct ct_stats_side sidec = side_of(rep, c, k, g, x, vc, sc, pc);

		rc = ct_stats_verdict(&sideb, &sidec, &rule, out);
	}
	free(vb);
	free(vc);
	free(sb);
	free(sc);
	free(pb);
	free(pc);
	return rc;
}

/* c against the baseline b on every judged figure; the runs of sessions
 * of one interleaved group pair by block. */
static int compare_cell(struct ct_report *rep, const struct ct_report_block *blk,
			const struct ct_report_cell *b, struct ct_report_cell *c,
			const struct rp_ctx *x)
{
	int rc;

	c->compared = true;
	rep->compared = true;
	if (paired_group(x, b, c)) {
		c->paired = true;
		rep->paired = true;
	}
	rc = compare_figure(rep, x, blk, b, c, -1, &c->cmp);
	c->scope = c->cmp.scope;
	for (unsigned k = 0; !rc && k < rep->nextra; k++)
		rc = compare_figure(rep, x, blk, b, c, (long)k, &c->extra_cmp[k]);
	return rc;
}

/* Holm across the loads (and figures) of each config: the main figure's
 * family holds the latency workload's extra figures, a command's other
 * figures (secondary) are a family of their own. */
static int decide_all(struct ct_report *rep, size_t nsrc, char *err, size_t len)
{
	size_t per = 1 + rep->nextra, n, ns;
	struct ct_stats_comparison **fam = calloc(2 * (rep->nblocks * per + 1), sizeof(*fam));
	struct ct_stats_comparison **sec = fam ? fam + rep->nblocks * per + 1 : NULL;
	int rc = 0;

	if (!fam)
		return ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t j = 0; !rc && j < nsrc; j++) {
		n = ns = 0;
		for (size_t i = 0; i < rep->nblocks; i++) {
			fam[n++] = &rep->blocks[i].cells[j].cmp;
			for (unsigned k = 0; k < rep->nextra; k++) {
				struct ct_stats_comparison *e =
					&rep->blocks[i].cells[j].extra_cmp[k];

				if (rep->extra[k].secondary)
					sec[ns++] = e;
				else
					fam[n++] = e;
			}
		}
		if (ct_stats_decide(fam, n, rep->confidence) ||
		    (ns && ct_stats_decide(sec, ns, rep->confidence)))
			rc = ct_err(err, len, -EINVAL, "cannot adjust the p-values");
	}
	free(fam);
	return rc;
}

/* Whether c, against the baseline b, is judged across sessions with one
 * session a side: the machine's spread of sessions would stand in. */
static bool needs_between(struct ct_report *rep, const struct rp_ctx *x,
			  const struct ct_report_cell *b, const struct ct_report_cell *c)
{
	size_t cap = (b->n > c->n ? b->n : c->n) + 1;
	double *v = malloc(2 * cap * sizeof(double));
	int64_t *s = malloc(4 * cap * sizeof(int64_t));
	struct ct_stats_rule rule = rule_of(rep, x, NULL, b, c);
	bool need = false;

	if (v && s && b->n && c->n) {
		struct ct_stats_side sb = side_of(rep, b, -1, 0, x, v, s, s + 2 * cap);
		struct ct_stats_side sc = side_of(rep, c, -1, 0, x, v + cap, s + cap, s + 3 * cap);

		need = ct_stats_scope_of(&sb, &sc, &rule) == CT_SCOPE_ACROSS;
	}
	free(v);
	free(s);
	return need;
}

/* The sittings of the block's load on the machine the baseline's newest
 * session ran on, once a config of it is compared across sessions with
 * one session a side. */
static int block_sittings(struct ct_report *rep, struct ct_report_block *b,
			  const struct ct_report_cell *base, const struct rp_ctx *x, char *err,
			  size_t len)
{
	const struct ct_session_rec *r = ct_store_session_of(x->recs, x->nrecs, base->session_id);
	struct ct_run_filter f = { .workload = rep->workload,
				   .load = b->load,
				   .workload_params = rep->params[0] ? rep->params : NULL,
				   .ok_only = true };
	struct ct_run_value *vals = NULL;
	bool need = false;
	size_t n = 0;
	int rc;

	for (size_t j = 0; !x->q->within_session && !need && j < b->ncells; j++)
		need = &b->cells[j] != base && needs_between(rep, x, base, &b->cells[j]);
	if (!need || !r || !b->load[0])
		return 0;
	rc = ct_store_run_values(x->st, &f, &vals, &n, err, len);
	if (!rc && rp_sittings(vals, n, x->recs, x->nrecs, NULL, r->owner.machine, &b->sittings,
			       &b->nsittings))
		rc = ct_err(err, len, -ENOMEM, "out of memory");
	free(vals);
	return rc;
}

/* The spread of c's comparison with base: at the gap between their
 * sessions, across a reboot when one lies between; and when it does not
 * cover that, the calibration that would. */
static int cell_spread(struct ct_report *rep, const struct ct_report_block *b,
		       const struct ct_report_cell *base, struct ct_report_cell *c,
		       const struct rp_ctx *x)
{
	int64_t gap;
	bool reboot;

	c->between.var = NAN;
	c->calibrate_hint[0] = '\0';
	if (x->q->within_session || !needs_between(rep, x, base, c))
		return 0;
	rp_gap_of(x->recs, x->nrecs, base->sessions, base->nsessions, c->sessions, c->nsessions,
		  &gap, &reboot);
	if (b->nsittings && ct_stats_spread_at(b->sittings, b->nsittings, gap, reboot, &c->between))
		return -ENOMEM;
	c->between.gap_ns = gap;
	c->between.reboot = reboot;
	if (!c->between.covers || !(c->between.df > 0))
		rp_calibrate_hint(ct_store_session_of(x->recs, x->nrecs, base->session_id), b->load,
				  gap, reboot, c->calibrate_hint, sizeof(c->calibrate_hint));
	return 0;
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

		rc = block_sittings(rep, b, base, x, err, len);
		for (size_t j = 0; !rc && j < b->ncells; j++) {
			if ((long)j == b->base_cell ||
			    (b->base_cell < 0 && !strcmp(b->cells[j].label, base->label)))
				continue;
			if (cell_spread(rep, b, base, &b->cells[j], x) ||
			    compare_cell(rep, b, base, &b->cells[j], x))
				rc = ct_err(err, len, -ENOMEM, "out of memory");
		}
	}
	return rc ? rc : decide_all(rep, x->q->nsrc, err, len);
}
