/*
 * The order of a session's runs: under each load, every config n times -
 * interleaved in randomized blocks (ABBA for two configs) so drift hits
 * every config alike, or config by config - or, adaptively, until the mean
 * is precise enough; the loads take turns, a block each per round, or
 * follow one another. A knob change is followed by unrecorded warm-ups.
 */
#include "internal.h"
#include "contend/signals.h"
#include "contend/stats.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Updates the cell's precision; true once it is precise enough to stop. */
static bool adaptive_done(struct ct_session *s, struct ct_cell_outcome *cell, const double *times)
{
	struct ct_stats_summary sum;

	if (cell->runs < 2 || ct_stats_summarize(times, cell->runs, 95, &sum) || sum.mean <= 0)
		return false;
	cell->halfwidth_pct = (sum.ci_high - sum.ci_low) / 2 / sum.mean * 100;
	cell->precise =
		cell->runs >= CT_ADAPTIVE_MIN_RUNS && cell->halfwidth_pct <= s->opts.precision_pct;
	return cell->precise;
}

/* Puts config k's knobs in force, then runs the unrecorded warm-ups a
 * change calls for. */
static int switch_config(struct session_rt *rt, struct ct_workload *w, struct ct_load *l, size_t k,
			 char *err, size_t len)
{
	struct ct_session *s = rt->s;
	char msg[CT_ERRLEN + 64];
	int rc;

	w->cwd = s->cfg[k].cwd;
	if (!s->cfg[k].knobs)
		return 0;
	/* the knobs in force already (configs of directories share --set's) */
	if (rt->cur_cfg >= 0 && s->cfg[rt->cur_cfg].knobs == s->cfg[k].knobs) {
		rt->cur_cfg = (long)k;
		return 0;
	}
	rc = ct_knob_apply_config(s->cfg[k].knobs, err, len);
	if (rc)
		return rc;
	rt->cur_cfg = (long)k;
	snprintf(msg, sizeof(msg), "config %s", s->cfg[k].label);
	sess_emit(rt, CT_EV_INFO, l->ops->name, 0, NULL, msg);
	for (unsigned i = 0; i < s->opts.knob_warmup; i++) {
		struct ct_run r;

		memset(&r, 0, sizeof(r));
		sess_emit(rt, CT_EV_RUN_START, "warm-up", 0, NULL, NULL);
		rc = sess_run_one(rt, w, l, &r, err, len);
		if (rc)
			return rc;
	}
	return 0;
}

/* The order of the configs in block b (1-based): two configs alternate as
 * AB BA AB ..., starting with a seeded coin; more are shuffled per block. */
static void block_order(const struct ct_session *s, unsigned b, size_t *order)
{
	uint64_t st = s->opts.order_seed ^ (0x9e3779b97f4a7c15ULL * b);

	for (size_t k = 0; k < s->ncfg; k++)
		order[k] = k;
	if (s->ncfg == 2) {
		uint64_t first = s->opts.order_seed & 1;

		if (((b - 1) + first) % 2) {
			order[0] = 1;
			order[1] = 0;
		}
		return;
	}
	for (size_t k = s->ncfg - 1; k > 0; k--) {
		size_t j = (size_t)(ct_rand64(&st) % (k + 1)), t = order[k];

		order[k] = order[j];
		order[j] = t;
	}
}

/* One load of the session and where its schedule stands. */
struct load_slot {
	struct ct_load l;
	const char *name;
	struct ct_cell_outcome *cell; /* adaptive only */
	double *times;		      /* adaptive: its runs' figures */
	size_t next, nsched;	      /* the next (config, run) pair, and how many */
	int64_t spent_ns;	      /* time its runs took (--max-time) */
	bool ready, done;
};

/* Prepares load name into ls. */
static int load_open(struct session_rt *rt, const char *name, struct load_slot *ls, char *err,
		     size_t len)
{
	struct ct_session *s = rt->s;
	unsigned cap = s->opts.adaptive ? s->opts.max_runs : s->opts.runs;
	char msg[CT_ERRLEN + 64];
	int rc;

	memset(ls, 0, sizeof(*ls));
	ls->name = name;
	ls->nsched = (size_t)cap * s->ncfg;
	snprintf(msg, sizeof(msg), "preparing load '%s'", name);
	sess_emit(rt, CT_EV_INFO, name, 0, NULL, msg);
	rc = ct_load_init(&ls->l, ct_load_find(name), &s->env, err, len);
	if (rc)
		return rc;
	ls->ready = true;
	if (ct_signals_pending())
		return -EINTR;
	if (s->opts.adaptive) {
		ls->times = calloc(cap, sizeof(*ls->times));
		if (!ls->times)
			return ct_err(err, len, -ENOMEM, "out of memory");
		ls->cell = &s->cells[s->ncells++];
		memset(ls->cell, 0, sizeof(*ls->cell));
		snprintf(ls->cell->load, sizeof(ls->cell->load), "%s", name);
		ls->cell->halfwidth_pct = NAN;
	}
	return 0;
}

static void load_close(struct load_slot *ls)
{
	free(ls->times);
	ls->times = NULL;
	if (ls->ready)
		ct_load_release(&ls->l);
	ls->ready = false;
}

/* Runs the next (config, run) pair of ls's schedule, block by block or
 * config by config, and stores it; marks ls done when its schedule is
 * through or, adaptively, precise enough or out of time. */
static int load_step(struct session_rt *rt, struct ct_workload *w, struct load_slot *ls,
		     size_t *order, char *err, size_t len)
{
	struct ct_session *s = rt->s;
	size_t i = ls->next++, cap = ls->nsched / s->ncfg, k;
	int64_t t0 = ct_now_ns();
	unsigned run;
	struct ct_run r;
	int rc;

	if (s->opts.sequential || s->ncfg == 1) {
		k = i / cap;
		run = (unsigned)(i % cap) + 1;
	} else {
		run = (unsigned)(i / s->ncfg) + 1;
		if (i % s->ncfg == 0)
			block_order(s, run, order);
		k = order[i % s->ncfg];
	}
	rc = switch_config(rt, w, &ls->l, k, err, len);
	if (rc)
		return rc;
	memset(&r, 0, sizeof(r));
	sess_emit(rt, CT_EV_RUN_START, ls->name, run, NULL, NULL);
	rc = sess_run_one(rt, w, &ls->l, &r, err, len);
	if (rc)
		return rc;
	rc = sess_store_run(rt, &s->cfg[k], &r, run, err, len);
	if (rc)
		return rc;
	rt->done++;
	sess_emit(rt, CT_EV_RUN_DONE, ls->name, run, &r, NULL);
	ls->spent_ns += ct_now_ns() - t0;
	if (ls->cell && r.status == CT_RUN_OK) {
		ls->times[ls->cell->runs++] = ct_run_value(&r);
		if (adaptive_done(s, ls->cell, ls->times))
			ls->done = true;
	}
	if (ls->cell && s->opts.max_time_ns && ls->spent_ns >= s->opts.max_time_ns)
		ls->done = true;
	if (ls->next == ls->nsched)
		ls->done = true;
	if (!ls->done && s->opts.block_done && s->ncfg > 1 && !s->opts.sequential &&
	    ls->next % s->ncfg == 0) {
		bool stop = false;

		rc = s->opts.block_done(s->opts.block_ctx, s, ls->name,
					(unsigned)(ls->next / s->ncfg), &stop, err, len);
		if (rc)
			return rc;
		ls->done = stop;
	}
	return 0;
}

/* Grouped: each load is prepared, run through and released before the
 * next. */
static int run_grouped(struct session_rt *rt, struct ct_workload *w, struct load_slot *ls,
		       char *err, size_t len)
{
	struct ct_session *s = rt->s;
	size_t order[CT_SESSION_MAX_CONFIGS];
	int rc = 0;

	for (size_t j = 0; !rc && j < s->opts.nloads; j++) {
		rc = load_open(rt, s->opts.loads[j], ls, err, len);
		if (!rc)
			rc = sess_begin_sessions(rt, err, len);
		while (!rc && !ls->done)
			rc = load_step(rt, w, ls, order, err, len);
		load_close(ls);
		/* the host's reference between one load's runs and the next's */
		if (!rc && j + 1 < s->opts.nloads)
			rc = sess_reference(rt, CT_REF_ROUND, err, len);
	}
	return rc;
}

/* Rounds: every load is prepared first; then each round gives every load
 * that is not done one block (a run of each config), in the order the
 * loads were given, so a load's runs and the no-load runs share the
 * session's minutes and a Ratio does not carry the host's drift. */
static int run_rounds(struct session_rt *rt, struct ct_workload *w, struct load_slot *ls, char *err,
		      size_t len)
{
	struct ct_session *s = rt->s;
	size_t n = s->opts.nloads, opened = 0;
	size_t order[CT_SESSION_MAX_LOADS][CT_SESSION_MAX_CONFIGS];
	bool more = true;
	int rc = 0;

	while (!rc && opened < n) {
		rc = load_open(rt, s->opts.loads[opened], &ls[opened], err, len);
		opened++;
	}
	if (!rc)
		rc = sess_begin_sessions(rt, err, len);
	while (!rc && more) {
		more = false;
		for (size_t j = 0; !rc && j < n; j++)
			for (size_t b = 0; !rc && b < s->ncfg && !ls[j].done; b++)
				rc = load_step(rt, w, &ls[j], order[j], err, len);
		for (size_t j = 0; j < n; j++)
			more = more || !ls[j].done;
		/* the host's reference between rounds (after the last: the
		 * session's end) */
		if (!rc && more)
			rc = sess_reference(rt, CT_REF_ROUND, err, len);
	}
	for (size_t j = 0; j < opened; j++)
		load_close(&ls[j]);
	return rc;
}

bool ct_session_in_rounds(const struct ct_session_opts *o, size_t nconfigs)
{
	return o->nloads > 1 && (o->load_order == CT_LOAD_ORDER_ROUNDS ||
				 (o->load_order == CT_LOAD_ORDER_AUTO && nconfigs < 2));
}

int sess_run_loads(struct session_rt *rt, struct ct_workload *w, char *err, size_t len)
{
	struct ct_session *s = rt->s;
	bool rounds = ct_session_in_rounds(&s->opts, s->ncfg);
	struct load_slot *ls = calloc(rounds ? s->opts.nloads : 1, sizeof(*ls));
	int rc;

	if (!ls)
		return ct_err(err, len, -ENOMEM, "out of memory");
	rc = rounds ? run_rounds(rt, w, ls, err, len) : run_grouped(rt, w, ls, err, len);
	free(ls);
	return rc;
}
