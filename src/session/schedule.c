/*
 * The order of a session's runs: under each load, every config n times -
 * interleaved in randomized blocks (ABBA for two configs) so drift hits
 * every config alike, or config by config - or, adaptively, until the mean
 * is precise enough. A knob change is followed by unrecorded warm-ups.
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

	if (rt->cur_cfg == (long)k || !s->cfg[k].knobs)
		return 0;
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

int sess_run_load(struct session_rt *rt, struct ct_workload *w, const char *name, char *err,
		  size_t len)
{
	struct ct_session *s = rt->s;
	const struct ct_load_ops *ops = ct_load_find(name);
	struct ct_load l;
	char msg[CT_ERRLEN + 64];
	int rc;

	snprintf(msg, sizeof(msg), "preparing load '%s'", name);
	sess_emit(rt, CT_EV_INFO, name, 0, NULL, msg);
	rc = ct_load_init(&l, ops, &s->env, err, len);
	if (rc)
		return rc;
	if (ct_signals_pending()) {
		ct_load_release(&l);
		return -EINTR;
	}
	rc = sess_begin_sessions(rt, err, len);
	if (rc) {
		ct_load_release(&l);
		return rc;
	}
	unsigned cap = s->opts.adaptive ? s->opts.max_runs : s->opts.runs;
	struct ct_cell_outcome *cell = s->opts.adaptive ? &s->cells[s->ncells++] : NULL;
	double *times = cell ? calloc(cap, sizeof(*times)) : NULL;
	int64_t cell_start = ct_now_ns();

	if (cell) {
		if (!times) {
			ct_load_release(&l);
			return ct_err(err, len, -ENOMEM, "out of memory");
		}
		memset(cell, 0, sizeof(*cell));
		snprintf(cell->load, sizeof(cell->load), "%s", name);
		cell->halfwidth_pct = NAN;
	}
	/* the schedule: (config, run) pairs, block by block or config by config */
	size_t nsched = (size_t)cap * s->ncfg, order[CT_SESSION_MAX_CONFIGS];
	bool stop = false;

	for (size_t i = 0; i < nsched && !stop; i++) {
		unsigned run;
		size_t k;
		struct ct_run r;

		if (s->opts.sequential || s->ncfg == 1) {
			k = i / cap;
			run = (unsigned)(i % cap) + 1;
		} else {
			run = (unsigned)(i / s->ncfg) + 1;
			if (i % s->ncfg == 0)
				block_order(s, run, order);
			k = order[i % s->ncfg];
		}
		rc = switch_config(rt, w, &l, k, err, len);
		if (rc)
			break;
		memset(&r, 0, sizeof(r));
		sess_emit(rt, CT_EV_RUN_START, name, run, NULL, NULL);
		rc = sess_run_one(rt, w, &l, &r, err, len);
		if (rc)
			break;
		rc = sess_store_run(rt, &s->cfg[k], &r, run, err, len);
		if (rc)
			break;
		rt->done++;
		sess_emit(rt, CT_EV_RUN_DONE, name, run, &r, NULL);
		if (cell && r.status == CT_RUN_OK) {
			times[cell->runs++] = ct_run_value(&r);
			if (adaptive_done(s, cell, times))
				stop = true;
		}
		if (cell && s->opts.max_time_ns && ct_now_ns() - cell_start >= s->opts.max_time_ns)
			stop = true;
	}
	free(times);
	ct_load_release(&l);
	return rc;
}
