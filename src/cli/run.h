/*
 * What `contend run` and `contend calibrate` share: one arguments struct
 * and option table (cmd-run.c), and the calibration, target-effect and
 * A/A steps around the session (calibrate.c).
 */
#ifndef CONTEND_CLI_RUN_H
#define CONTEND_CLI_RUN_H

#include "contend/knob.h"
#include "contend/oltp.h"
#include "contend/load.h"
#include "contend/session.h"
#include "contend/store.h"
#include "cli.h"

/* The power calibrate reports the smallest effect for, and the runs a
 * side --target-effect picks for, and the simulation's size. */
#define RUN_POWER	 0.8
#define RUN_POWER_TRIALS 1000
#define RUN_TARGET_MAX	 200
#define CALIBRATE_RUNS	 10
#define RUN_AA_PAIRS_MAX 1000

struct run_args {
	const char *cmd; /* "run" or "calibrate", for messages */
	struct ct_session s;
	struct ct_oltp_opts oltp;
	const char *workload, *loads, *db, *baseline, *profile, *order, *load_order, *engine;
	const char *format, *output, *progress;
	struct cli_out out; /* run: where the session's report goes */
	bool quick, quiet, keep, no_warmup, no_cgroup, ignore_failures, dry_run;
	struct ct_knob knobs[CT_KNOB_MAX];
	size_t nknobs;
	struct ct_knob_config *kconfigs;
	char loadbuf[512];
	/* --load-cmd NAME=COMMAND, --load-work/--load-total NAME=REGEX as given */
	const char *load_cmd[CT_LOAD_MAX_CMDS], *load_work[CT_LOAD_MAX_CMDS];
	bool load_total[CT_LOAD_MAX_CMDS];
	size_t nload_cmd, nload_work;
	/* run */
	bool aa;
	unsigned aa_pairs;
	double target_effect; /* percent; 0: not asked */
	struct ct_store *st;  /* open while the session runs, for the plan */
	/* calibrate */
	bool calibrate;
	const char *from;
	unsigned cal_sessions; /* --sessions K: K sessions, then their spread */
	double effect;	       /* percent; 0: not asked */
};

/* calibrate: computes, stores and prints the calibration of each load from
 * the runs of the session just run (a->s), or from --from's stored runs.
 * Returns the exit code. */
int calibrate_session(struct run_args *a, struct ct_store *st);
int calibrate_from(struct run_args *a, struct ct_store *st);
/* calibrate --sessions K: the spread of the K sessions just run (ids),
 * load by load, within and between them; printed (their runs are stored
 * as the config's sessions, which compare then weighs). */
int calibrate_spread(struct run_args *a, struct ct_store *st, const int64_t *ids, size_t k);

/* run --target-effect: every load has a calibration of this config
 * (checked before the session; the exit code), and the session's plan
 * hook, which picks -n once the workload's parameters are known. */
int target_check(struct run_args *a, struct ct_store *st);
int target_plan(void *ctx, struct ct_session *s, char *err, size_t len);

/* run --aa: the outcome of one A/A pair just run, printed, added to the
 * tally; the tally's rate and interval at the end (the exit code). */
struct aa_tally {
	unsigned pairs, called;
};
int aa_pair(struct run_args *a, struct ct_store *st, struct aa_tally *t);
int aa_summary(const struct run_args *a, const struct aa_tally *t);

/* The value a run is judged by: tps for a scored workload, else its
 * ct_run_value() (seconds; the latency workload's p99). */
bool run_value(const struct ct_run *r, bool scored, double *v);

#endif
