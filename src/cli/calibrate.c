/*
 * The steps around a session that say what its noise allows: contend
 * calibrate (the noise floor of each load and the smallest slowdown the
 * verdict rule finds through it, stored with the config), run
 * --target-effect (-n from that calibration) and run --aa (one config
 * against itself, the verdict rule's false-verdict rate measured on this
 * machine). The statistics are src/stats/calibrate.c's.
 */
#include "cli.h"
#include "opts.h"
#include "run.h"
#include "contend/load.h"
#include "contend/report.h"
#include "contend/signals.h"
#include "contend/util.h"
#include "contend/workload.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

static const size_t mde_runs[] = { 3, 5, 10, 20 };

bool run_value(const struct ct_run *r, bool scored, double *v)
{
	if (r->status != CT_RUN_OK)
		return false;
	if (scored)
		return !ct_run_metric(r, CT_METRIC_TPS, v) && *v > 0;
	*v = ct_run_value(r); /* Time, or the latency workload's p99 */
	return *v > 0;
}

static bool scored_workload(const char *workload)
{
	const struct ct_workload_ops *w = ct_workload_find(workload);

	return w && (w->flags & CT_WL_SCORED);
}

/* One load's calibration, computed and stored. */
struct calib_row {
	char load[32];
	struct ct_stats_noise nz;
	double mean;
	/* the figure the runs are judged by (ct_run_figure); NULL: Time */
	const struct ct_figure *fig;
	double mde[CT_ARRAY_SIZE(mde_runs)];
	size_t need; /* runs a side for --effect; 0: more than RUN_TARGET_MAX */
	int64_t id;
};

/* The ok runs of session under load, in the order they ran: their values
 * (*out malloc'd), the config and parameters they ran with. */
static int session_values(struct ct_store *st, int64_t session, const char *load, bool scored,
			  double **out, size_t *n, int64_t *config, const struct ct_figure **fig,
			  char *params, size_t plen, char *err, size_t len)
{
	struct ct_run_filter f = { .session_id = session, .load = load, .ok_only = true };
	struct ct_run *runs = NULL;
	size_t nruns = 0;
	int rc = ct_store_runs(st, &f, &runs, &nruns, err, len);

	*out = NULL;
	*n = 0;
	if (rc)
		return rc;
	*out = malloc((nruns ? nruns : 1) * sizeof(**out));
	if (!*out) {
		free(runs);
		return ct_err(err, len, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < nruns; i++)
		if (run_value(&runs[i], scored, &(*out)[*n])) {
			(*n)++;
			*config = runs[i].config_id;
			*fig = ct_run_figure(&runs[i]);
			snprintf(params, plen, "%s", runs[i].workload_params);
		}
	free(runs);
	return 0;
}

/* Noise, the smallest effects, the runs --effect needs; stored. */
static int calibrate_load(struct run_args *a, struct ct_store *st, int64_t session,
			  const char *load, struct calib_row *row, char *params, size_t plen,
			  char *err, size_t len)
{
	struct ct_calibration c = { .session_id = session };
	bool scored = scored_workload(a->s.opts.workload);
	double *v = NULL;
	size_t n = 0;
	int rc;

	memset(row, 0, sizeof(*row));
	snprintf(row->load, sizeof(row->load), "%s", load);
	rc = session_values(st, session, load, scored, &v, &n, &c.config_id, &row->fig, params,
			    plen, err, len);
	if (!rc && n < 5)
		rc = ct_err(err, len, -EINVAL,
			    "load %s: %zu ok runs in session %lld; a calibration needs 5", load, n,
			    (long long)session);
	if (!rc)
		rc = ct_stats_noise(v, n, &row->nz);
	for (size_t k = 0; !rc && k < CT_ARRAY_SIZE(mde_runs); k++)
		rc = ct_stats_mde(v, n, mde_runs[k], 95, RUN_POWER, RUN_POWER_TRIALS, &row->mde[k]);
	if (!rc && a->effect) {
		rc = ct_stats_runs_for(v, n, a->effect / 100, 95, RUN_POWER, RUN_POWER_TRIALS,
				       RUN_TARGET_MAX, &row->need);
		if (rc == -ERANGE) {
			row->need = 0;
			rc = 0;
		}
	}
	if (rc) {
		free(v);
		return rc == -EINVAL || rc == -ENOMEM ? rc : ct_err(err, len, rc, "load %s", load);
	}
	row->mean = 0;
	for (size_t i = 0; i < n; i++)
		row->mean += v[i] / (double)n;
	snprintf(c.workload, sizeof(c.workload), "%s", a->s.opts.workload);
	snprintf(c.workload_params, sizeof(c.workload_params), "%s", params);
	snprintf(c.load, sizeof(c.load), "%s", load);
	c.created_at = ct_wall_ns();
	c.higher_better = row->fig && row->fig->higher_better;
	c.values = v;
	c.n = n;
	rc = ct_store_calibration_put(st, &c, err, len);
	row->id = c.id;
	free(v);
	return rc;
}

/* The noise table, the smallest effects, the runs --effect needs; in the
 * figure the runs are judged by: Time ("mean s", a slowdown), tps ("mean
 * tps", a tps drop), the latency workload's p99 ("mean p99 us", a p99 rise). */
static void print_calibration(const struct run_args *a, const char *label, const char *params,
			      const struct calib_row *r, size_t n)
{
	const struct ct_figure *fig = r[0].fig;
	bool unit = fig && strcmp(fig->name, fig->unit);
	char head[32], change[32];
	int w;

	snprintf(head, sizeof(head), "mean %s%s%s", fig ? fig->name : "s", unit ? " " : "",
		 unit ? fig->unit : "");
	w = strlen(head) > 10 ? (int)strlen(head) : 10; /* the value column */
	if (fig)
		snprintf(change, sizeof(change), "%s %s", fig->name,
			 fig->higher_better ? "drop" : "rise");
	else
		snprintf(change, sizeof(change), "slowdown");
	printf("\ncalibration of '%s', workload %s (%s):\n\n", label, a->s.opts.workload, params);
	printf("%-9s %-5s %-*s %-7s %-11s %-9s %s\n", "load", "runs", w, head, "CoV", "robust CoV",
	       "outliers", "drift a run (trend p)");
	for (size_t i = 0; i < n; i++) {
		char cov[16], rcov[16];

		snprintf(cov, sizeof(cov), "%.2f%%", 100 * r[i].nz.cov);
		snprintf(rcov, sizeof(rcov), "%.2f%%", 100 * r[i].nz.robust_cov);
		printf("%-9s %-5zu %-*.*f %-7s %-11s %-9zu %+.3f%% (%.2g)\n", r[i].load, r[i].nz.n,
		       w, fig ? 1 : 3, r[i].mean, cov, rcov, r[i].nz.outliers, 100 * r[i].nz.drift,
		       r[i].nz.drift_p);
	}
	printf("\nthe smallest %s the verdict finds with %.0f%% power (Mann-Whitney, 95%%), runs "
	       "a side:\n\n%-9s",
	       change, 100 * RUN_POWER, "load");
	for (size_t k = 0; k < CT_ARRAY_SIZE(mde_runs); k++) {
		char h[16];

		snprintf(h, sizeof(h), "n=%zu", mde_runs[k]);
		printf(" %-8s", h);
	}
	printf("\n");
	for (size_t i = 0; i < n; i++) {
		printf("%-9s", r[i].load);
		for (size_t k = 0; k < CT_ARRAY_SIZE(mde_runs); k++) {
			char c[16];
			double f = r[i].mde[k];

			if (isnan(f))
				snprintf(c, sizeof(c), "-");
			else if (isinf(f))
				snprintf(c, sizeof(c), ">1000%%");
			else
				snprintf(c, sizeof(c), "%.2f%%", 100 * f);
			printf(" %-8s", c);
		}
		printf("\n");
	}
	printf("(n=%zu: no verdict is possible, %zu runs a side are needed)\n", mde_runs[0],
	       ct_stats_runs_needed(95));
	if (a->effect) {
		printf("\nfor a %g%% %s:", a->effect, change);
		for (size_t i = 0; i < n; i++) {
			if (r[i].need)
				printf(" %s %zu runs a side%s", r[i].load, r[i].need,
				       i + 1 < n ? "," : "");
			else
				printf(" %s more than %d%s", r[i].load, RUN_TARGET_MAX,
				       i + 1 < n ? "," : "");
		}
		printf("\n");
	}
	if (n == 1)
		printf("\nstored as calibration %lld of '%s'", (long long)r[0].id, label);
	else
		printf("\nstored as calibrations %lld-%lld of '%s'", (long long)r[0].id,
		       (long long)r[n - 1].id, label);
	printf("; contend run -L '%s' --target-effect PCT picks -n from %s\n", label,
	       n == 1 ? "it" : "them");
}

/* Calibrates each load from its session (sessions[i]), prints, stores. */
static int calibrate_sessions(struct run_args *a, struct ct_store *st, const char *label,
			      const char *const *loads, const int64_t *sessions, size_t n)
{
	struct calib_row rows[CT_SESSION_MAX_LOADS];
	char err[CT_ERRLEN], params[256] = "";
	int rc;

	rc = ct_store_begin(st, err, sizeof(err));
	for (size_t i = 0; !rc && i < n; i++)
		rc = calibrate_load(a, st, sessions[i], loads[i], &rows[i], params, sizeof(params),
				    err, sizeof(err));
	if (!rc)
		rc = ct_store_commit(st, err, sizeof(err));
	if (rc) {
		ct_store_rollback(st);
		return rc == -EINVAL ? (cli_error("%s", err), CT_EXIT_ENV) : cli_fail(rc, err);
	}
	print_calibration(a, label, params, rows, n);
	return 0;
}

int calibrate_session(struct run_args *a, struct ct_store *st)
{
	const struct ct_session *s = &a->s;
	int64_t sessions[CT_SESSION_MAX_LOADS];

	for (size_t i = 0; i < s->opts.nloads; i++)
		sessions[i] = s->cfg[0].rec.id;
	return calibrate_sessions(a, st, s->cfg[0].label, s->opts.loads, sessions, s->opts.nloads);
}

int calibrate_from(struct run_args *a, struct ct_store *st)
{
	const struct ct_session_opts *o = &a->s.opts;
	const char *loads[CT_SESSION_MAX_LOADS];
	int64_t sessions[CT_SESSION_MAX_LOADS], id;
	char err[CT_ERRLEN];
	size_t n = 0;
	int rc;

	/* -l: those loads, each with runs; else every load it has runs of */
	size_t nl = a->loads ? o->nloads : ct_load_count();

	for (size_t i = 0; i < nl && n < CT_SESSION_MAX_LOADS; i++) {
		const char *load = a->loads ? o->loads[i] : ct_load_at(i)->name;

		rc = ct_store_latest_session_with(st, a->from, o->workload, load, NULL, &id, err,
						  sizeof(err));
		if (rc)
			return cli_fail(rc, err);
		if (!id && a->loads)
			return cli_usage_error(
				a->cmd,
				"--from '%s' has no stored runs of workload %s under "
				"load %s",
				a->from, o->workload, load);
		if (!id)
			continue;
		loads[n] = load;
		sessions[n++] = id;
	}
	if (!n)
		return cli_usage_error(a->cmd,
				       "--from '%s' has no stored runs of workload %s (-w names "
				       "another)",
				       a->from, o->workload);
	return calibrate_sessions(a, st, a->from, loads, sessions, n);
}

/* The label a config's calibration is looked up under before the session
 * names its configs: -L, or the kernel release. */
static const char *base_label(const struct run_args *a, struct utsname *u)
{
	if (a->s.opts.label)
		return a->s.opts.label;
	return uname(u) ? "" : u->release;
}

int target_check(struct run_args *a, struct ct_store *st)
{
	const struct ct_session_opts *o = &a->s.opts;
	struct ct_calibration c;
	struct utsname u;
	const char *label = base_label(a, &u);
	char err[CT_ERRLEN];

	/* with --set, the config's label composes, and the plan looks it up */
	if (a->nknobs)
		return 0;
	for (size_t i = 0; i < o->nloads; i++) {
		int rc = ct_store_calibration_get(st, label, o->workload, NULL, o->loads[i], &c,
						  err, sizeof(err));

		if (rc == -ENOENT)
			return cli_usage_error(
				a->cmd,
				"--target-effect: '%s' has no calibration of workload "
				"%s under load %s; run: contend calibrate -L '%s' -w %s "
				"-l %s",
				label, o->workload, o->loads[i], label, o->workload, o->loads[i]);
		if (rc)
			return cli_fail(rc, err);
		free(c.values);
	}
	return 0;
}

/* The runs a side one load needs: from the calibration of the config's
 * label, else of the session's (a --set or --aa config's own label may
 * have none), made with the session's workload parameters. */
static int target_load(struct run_args *a, struct ct_session *s, const char *load, size_t *need,
		       int64_t *id, char *err, size_t len)
{
	const char *labels[2] = { s->cfg[0].label, s->label };
	struct ct_calibration c;
	int rc = -ENOENT;

	for (size_t k = 0; k < 2 && rc == -ENOENT; k++)
		rc = ct_store_calibration_get(a->st, labels[k], s->opts.workload,
					      s->workload_params, load, &c, err, len);
	if (rc == -ENOENT) {
		rc = ct_store_calibration_get(a->st, s->label, s->opts.workload, NULL, load, &c,
					      err, len);
		if (!rc) {
			free(c.values);
			return ct_err(
				err, len, -EINVAL,
				"--target-effect: the calibration of '%s' under load %s ran "
				"with %s, this session runs %s; calibrate with the same options",
				s->label, load, c.workload_params, s->workload_params);
		}
		return ct_err(err, len, -EINVAL,
			      "--target-effect: '%s' has no calibration of workload %s under load "
			      "%s; run: contend calibrate -L '%s'",
			      s->label, s->opts.workload, load, s->label);
	}
	if (rc)
		return rc;
	*id = c.id;
	rc = ct_stats_runs_for(c.values, c.n, a->target_effect / 100, 95, RUN_POWER,
			       RUN_POWER_TRIALS, RUN_TARGET_MAX, need);
	free(c.values);
	if (rc == -ERANGE)
		return ct_err(err, len, -EINVAL,
			      "--target-effect: a %g%% change needs more than %d runs a side under "
			      "load %s here (calibration %lld); aim for a larger effect",
			      a->target_effect, RUN_TARGET_MAX, load, (long long)c.id);
	return rc ? ct_err(err, len, rc, "--target-effect: load %s", load) : 0;
}

int target_plan(void *ctx, struct ct_session *s, char *err, size_t len)
{
	struct run_args *a = ctx;
	size_t most = 0, need[CT_SESSION_MAX_LOADS];
	int64_t id[CT_SESSION_MAX_LOADS];

	for (size_t i = 0; i < s->opts.nloads; i++) {
		int rc = target_load(a, s, s->opts.loads[i], &need[i], &id[i], err, len);

		if (rc)
			return rc;
		if (need[i] > most)
			most = need[i];
	}
	s->opts.runs = (unsigned)most;
	printf("--target-effect %g%%: %zu runs a load for %.0f%% power (", a->target_effect, most,
	       100 * RUN_POWER);
	for (size_t i = 0; i < s->opts.nloads; i++)
		printf("%s%s %zu, calibration %lld", i ? "; " : "", s->opts.loads[i], need[i],
		       (long long)id[i]);
	printf(")\n");
	fflush(stdout);
	return 0;
}

/* The runs of session id under load as a side, paired by block. */
static int aa_side(struct ct_store *st, int64_t id, const char *load, struct ct_report_side *sd,
		   char *err, size_t len)
{
	struct ct_run_filter f = { .session_id = id, .load = load, .ok_only = true };
	struct ct_run *runs = NULL;
	size_t n = 0;
	int rc = ct_store_runs(st, &f, &runs, &n, err, len);

	if (!rc && ct_report_side_add(sd, runs, n, 0))
		rc = ct_err(err, len, -ENOMEM, "out of memory");
	free(runs);
	return rc;
}

/* The A/A pair just run: the second config against the first, per load,
 * Holm across the loads. */
int aa_pair(struct run_args *a, struct ct_store *st, struct aa_tally *t)
{
	const struct ct_session *s = &a->s;
	const struct ct_stats_rule rule = { .confidence = 95, .one_sitting = true };
	struct ct_stats_comparison cmp[CT_SESSION_MAX_LOADS], *fam[CT_SESSION_MAX_LOADS];
	char err[CT_ERRLEN], called[256] = "";
	size_t off = 0;
	bool any = false, decided = true;
	int rc = 0;

	for (size_t i = 0; !rc && i < s->opts.nloads; i++) {
		struct ct_report_side b = { 0 }, o = { 0 };

		rc = aa_side(st, s->cfg[0].rec.id, s->opts.loads[i], &b, err, sizeof(err));
		if (!rc)
			rc = aa_side(st, s->cfg[1].rec.id, s->opts.loads[i], &o, err, sizeof(err));
		if (!rc && ct_stats_verdict(&b.s, &o.s, &rule, &cmp[i]))
			rc = ct_err(err, sizeof(err), -ENOMEM, "out of memory");
		fam[i] = &cmp[i];
		ct_report_side_release(&b);
		ct_report_side_release(&o);
	}
	if (!rc && ct_stats_decide(fam, s->opts.nloads, rule.confidence))
		rc = ct_err(err, sizeof(err), -EINVAL, "cannot adjust the p-values");
	if (rc)
		return cli_fail(rc, err);
	for (size_t i = 0; i < s->opts.nloads; i++) {
		const struct ct_stats_comparison *c = &cmp[i];

		decided &= c->decided_by != CT_TEST_NONE;
		if (c->outcome == CT_OUTCOME_HIGHER || c->outcome == CT_OUTCOME_LOWER) {
			any = true;
			off += (size_t)snprintf(called + off, sizeof(called) - off,
						"%s%s (Holm p=%.2g)", off ? ", " : "",
						s->opts.loads[i], c->p_adj);
		}
	}
	t->pairs++;
	t->called += any;
	if (!decided)
		cli_warn("A/A pair %u: some loads had too few runs for a verdict", t->pairs);
	if (a->aa_pairs > 1)
		printf("A/A pair %u (sessions %lld-%lld): %s%s\n", t->pairs,
		       (long long)s->cfg[0].rec.id, (long long)s->cfg[1].rec.id,
		       any ? "difference called under " : "no difference called", called);
	else if (any)
		printf("\nA/A check: a difference was called under %s between two configs that "
		       "differ in nothing. With no true difference the rule calls one in at most "
		       "5%% of pairs; more pairs (--aa-pairs) tell a fluke from a machine that "
		       "drifts.\n",
		       called);
	else
		printf("\nA/A check: no difference called between '%s' and '%s' under %zu "
		       "load%s, as expected.\n",
		       s->cfg[0].label, s->cfg[1].label, s->opts.nloads,
		       s->opts.nloads == 1 ? "" : "s");
	return 0;
}

int aa_summary(const struct run_args *a, const struct aa_tally *t)
{
	double lo, hi;

	if (a->aa_pairs <= 1)
		return 0;
	if (ct_stats_binom_ci(t->called, t->pairs, 95, &lo, &hi))
		return cli_fail(-EINVAL, "no A/A pairs");
	printf("\nA/A: %u of %u pairs called a difference: %.1f%% (95%% interval %.1f%%-%.1f%%); "
	       "the verdict rule calls one in at most 5%% when nothing differs\n",
	       t->called, t->pairs, 100.0 * t->called / t->pairs, 100 * lo, 100 * hi);
	if (lo > 0.05) {
		cli_error("A/A: the false-verdict rate is significantly above 5%%: the machine or "
			  "the harness is not steady (see: contend calibrate)");
		return CT_EXIT_REGRESSION;
	}
	return 0;
}

/* One load's spread over the K sessions: within and between them. */
static int spread_load(struct run_args *a, struct ct_store *st, const int64_t *ids, size_t k,
		       const char *load, struct ct_stats_levels *lv, struct ct_stats_between *bw,
		       char *err, size_t len)
{
	bool scored = scored_workload(a->s.opts.workload);
	const struct ct_figure *fig = NULL;
	double *all = NULL, *v = NULL;
	int64_t *sess = NULL, config = 0;
	char params[256];
	size_t n = 0, m = 0;
	int rc = 0;

	memset(bw, 0, sizeof(*bw));
	for (size_t i = 0; !rc && i < k; i++) {
		double *grown;
		int64_t *sgrown;

		rc = session_values(st, ids[i], load, scored, &v, &m, &config, &fig, params,
				    sizeof(params), err, len);
		grown = rc ? NULL : realloc(all, (n + m + 1) * sizeof(*all));
		sgrown = grown ? realloc(sess, (n + m + 1) * sizeof(*sess)) : NULL;
		if (grown)
			all = grown;
		if (sgrown)
			sess = sgrown;
		if (!rc && (!grown || !sgrown))
			rc = ct_err(err, len, -ENOMEM, "out of memory");
		for (size_t j = 0; !rc && j < m; j++) {
			all[n] = v[j];
			sess[n++] = ids[i];
		}
		free(v);
		v = NULL;
	}
	if (!rc && ct_stats_levels(all, sess, n, lv))
		rc = ct_err(err, len, -EINVAL, "load %s: no ok runs to calibrate from", load);
	if (!rc && (ct_stats_between_add(bw, all, sess, n) || !(bw->df > 0)))
		rc = ct_err(err, len, -EINVAL,
			    "load %s: too few ok runs in its sessions for their spread (two a "
			    "session, in two sessions or more)",
			    load);
	free(all);
	free(sess);
	return rc;
}

/* The spread of the K sessions just run: all their pairs (the gaps they
 * span), and what a comparison they cover is. */
static int session_pairs(struct run_args *a, struct ct_store *st, const int64_t *ids, size_t k,
			 const char *load, struct ct_stats_between *bw, char *err, size_t len)
{
	bool scored = scored_workload(a->s.opts.workload);
	const struct ct_figure *fig = NULL;
	struct ct_stats_sitting *s = calloc(k ? k : 1, sizeof(*s));
	struct ct_session_rec *recs = NULL;
	size_t nrecs = 0, ns = 0;
	char params[256];
	int rc = s ? ct_store_sessions(st, NULL, &recs, &nrecs, err, len)
		   : ct_err(err, len, -ENOMEM, "out of memory");

	for (size_t i = 0; !rc && i < k; i++) {
		const struct ct_session_rec *r = ct_store_session_of(recs, nrecs, ids[i]);
		double *v = NULL;
		int64_t config = 0;
		size_t m = 0;

		rc = session_values(st, ids[i], load, scored, &v, &m, &config, &fig, params,
				    sizeof(params), err, len);
		if (!rc && r && m && !ct_stats_sitting_of(v, m, &s[ns])) {
			s[ns].config = 1; /* one config: its sessions */
			s[ns].session = ids[i];
			s[ns].start_ns = r->started_at;
			s[ns].boot = ct_report_boot_key(r->owner.boot);
			ns++;
		}
		free(v);
	}
	if (!rc && ct_stats_spread_at(s, ns, 0, false, bw))
		rc = ct_err(err, len, -ENOMEM, "out of memory");
	free(s);
	free(recs);
	return rc;
}

int calibrate_spread(struct run_args *a, struct ct_store *st, const int64_t *ids, size_t k)
{
	const struct ct_session_opts *o = &a->s.opts;
	char err[CT_ERRLEN], w[32], b[48], g[32];
	int64_t span = 0;
	bool few = false;

	printf("\ncontend calibrate: %zu sessions of '%s' (%lld to %lld), how far they move\n\n"
	       "%-9s %-8s %-6s %-11s %-12s %s\n",
	       k, a->s.label, (long long)ids[0], (long long)ids[k - 1], "load", "sessions", "runs",
	       "within CoV", "between CoV", "pairs");
	for (size_t i = 0; i < o->nloads; i++) {
		struct ct_stats_levels lv;
		struct ct_stats_between bw, pw;
		int rc = spread_load(a, st, ids, k, o->loads[i], &lv, &bw, err, sizeof(err));

		if (!rc)
			rc = session_pairs(a, st, ids, k, o->loads[i], &pw, err, sizeof(err));
		if (rc)
			return rc == -EINVAL ? (cli_error("%s", err), CT_EXIT_ENV)
					     : cli_fail(rc, err);
		snprintf(w, sizeof(w), "%.1f%%", 100 * lv.within_cov);
		/* one pair's difference, truncated at zero as often as not,
		 * is no estimate of a spread */
		if (pw.df >= 2)
			snprintf(b, sizeof(b), "%.1f%%", 100 * ct_stats_between_cov(&pw));
		else
			snprintf(b, sizeof(b), "? (no estimate: %.0f df)", pw.df);
		few |= pw.df < 2;
		span = pw.max_gap_ns > span ? pw.max_gap_ns : span;
		printf("%-9s %-8zu %-6zu %-11s %-12s %zu\n", o->loads[i], lv.nsessions, lv.nruns, w,
		       b, pw.npairs);
	}
	printf("\nstored as sessions of '%s'. compare weighs this machine's spread when it judges "
	       "one\nsession a side of this workload: these sessions cover comparisons up to %s "
	       "apart%s\n(contend calibrate --show: the spread by gap; sessions further apart "
	       "in time, and\nacross reboots, cover more)\n",
	       a->s.label, ct_report_fmt_gap(span, g, sizeof(g)), " in one boot");
	if (few)
		printf("two sessions give one degree of freedom, too few to tell how far sessions "
		       "move:\ncompare and plan do not use it alone (--sessions 4 or more)\n");
	return 0;
}

/* --every: wait until session i may start, i every apart after the
 * first; -EINTR when a signal came. */
int calibrate_wait(const struct run_args *a, int64_t first, unsigned i)
{
	int64_t at = first + (int64_t)i * a->cal_every;

	while (ct_wall_ns() < at) {
		/* at most a second at a time, so that a signal is seen */
		int64_t left = at - ct_wall_ns();
		struct timespec ts;

		left = left < 0 ? 0 : left > 1000000000 ? 1000000000 : left;
		ts.tv_sec = left / 1000000000;
		ts.tv_nsec = left % 1000000000;

		if (ct_signals_pending())
			return -EINTR;
		nanosleep(&ts, NULL);
	}
	return ct_signals_pending() ? -EINTR : 0;
}

static const int64_t show_edges[] = { 0,
				      60 * 1000000000LL,
				      5 * 60 * 1000000000LL,
				      20 * 60 * 1000000000LL,
				      3600 * 1000000000LL,
				      6 * 3600 * 1000000000LL,
				      86400 * 1000000000LL };

/* A class's row: its gaps, pairs, the spread of a session's mean (its
 * runs' noise in it) and the between-session part. */
static void show_row(const struct ct_stats_spread_class *c, const struct ct_stats_between *all)
{
	char from[32], to[32], what[48], sp[16] = "-", bt[16] = "-";

	if (c->reboot)
		snprintf(what, sizeof(what), "across a reboot");
	else if (c->to_ns == INT64_MAX)
		snprintf(what, sizeof(what), "%s or more", ct_report_fmt_gap(c->from_ns, from, 32));
	else
		snprintf(what, sizeof(what), "%s to %s", ct_report_fmt_gap(c->from_ns, from, 32),
			 ct_report_fmt_gap(c->to_ns, to, 32));
	if (c->npairs) {
		snprintf(sp, sizeof(sp), "%.1f%%", 100 * sqrt(expm1(c->var)));
		snprintf(bt, sizeof(bt), "%.1f%%",
			 100 * sqrt(expm1(fmax(0, c->var - all->within / c->runs))));
	}
	printf("  %-22s %6zu  %-9s %s\n", what, c->npairs, sp, bt);
}

int calibrate_show(struct run_args *a, const char *params)
{
	struct ct_stats_spread_class cls[CT_ARRAY_SIZE(show_edges) + 1];
	struct ct_session_rec *recs = NULL;
	struct ct_store *st = NULL;
	struct ct_owner me;
	char err[CT_ERRLEN], g[32];
	int64_t far = 0;
	size_t nrecs = 0, pairs = 0;
	bool reboots = false;
	int ex = cli_read_store(a->db, &st), rc = 0;

	if (ex)
		return ex;
	ct_owner_self(&me);
	rc = ct_store_sessions(st, NULL, &recs, &nrecs, err, sizeof(err));
	printf("contend calibrate --show: workload %s (%s) on this machine, how far its sessions "
	       "move\napart by the gap between them: pairs of sessions of one config; spread, "
	       "the CoV of a\nsession's mean; between, less its runs' noise\n",
	       a->s.opts.workload, params);
	for (size_t l = 0; !rc && l < a->s.opts.nloads; l++) {
		struct ct_stats_between all;

		rc = ct_report_spread_classes(
			st, recs, nrecs, a->s.opts.workload, params, a->s.opts.loads[l], me.machine,
			show_edges, CT_ARRAY_SIZE(show_edges), cls, &all, err, sizeof(err));
		if (rc)
			break;
		printf("\n%s: %zu sessions of %zu config%s\n  %-22s %6s  %-9s %s\n",
		       a->s.opts.loads[l], all.nsessions, all.nconfigs,
		       all.nconfigs == 1 ? "" : "s", "gap", "pairs", "spread", "between");
		for (size_t k = 0; k <= CT_ARRAY_SIZE(show_edges); k++) {
			show_row(&cls[k], &all);
			pairs += cls[k].npairs;
			reboots |= cls[k].reboot && cls[k].npairs;
		}
		far = all.max_gap_ns > far ? all.max_gap_ns : far;
	}
	free(recs);
	ct_store_close(st);
	if (rc)
		return cli_fail(rc, err);
	if (!pairs)
		printf("\nno config of this workload has two sessions on this machine: how far "
		       "its sessions\nmove is unknown (contend calibrate --sessions 4 --every D "
		       "measures it)\n");
	else if (far < 5 * 60 * 1000000000LL)
		printf("\nthis machine's sessions are all within %s of each other: a comparison of "
		       "sessions\nfurther apart is not covered (contend calibrate --sessions 4 "
		       "--every D, D a\nthird of the gap to cover)\n",
		       ct_report_fmt_gap(far, g, sizeof(g)));
	if (pairs && !reboots)
		printf("%sno pair of sessions lies across a reboot: a comparison of two boots "
		       "(kernel "
		       "A, then\nB) is not covered until a config is measured in two boots\n",
		       far < 5 * 60 * 1000000000LL ? "" : "\n");
	return 0;
}
