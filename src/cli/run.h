/*
 * What `contend run` and `contend calibrate` share: one arguments struct
 * and option table (run-opts.c), the checks before anything runs
 * (run-check.c), the dry run (run-dry.c), the session's report
 * (run-print.c), the flow both commands follow (cmd-run.c), and the
 * calibration, target-effect and A/A steps around the session
 * (calibrate.c).
 */
#ifndef CONTEND_CLI_RUN_H
#define CONTEND_CLI_RUN_H

#include "contend/knob.h"
#include "contend/oltp.h"
#include "contend/load.h"
#include "contend/session.h"
#include "contend/store.h"
#include "cli.h"
#include "opts.h"

/* The power calibrate reports the smallest effect for, and the runs a
 * side --target-effect picks for, and the simulation's size. */
#define RUN_POWER	 0.8
#define RUN_POWER_TRIALS 1000
#define RUN_TARGET_MAX	 200
#define RUN_AA_PAIRS_MAX 1000

/* The values of the choice options (run-opts.c's tables). */
enum run_profile { RUN_PROFILE_FULL, RUN_PROFILE_QUICK };
enum run_order { RUN_ORDER_INTERLEAVED, RUN_ORDER_SEQUENTIAL };

struct run_args {
	const char *cmd; /* "run" or "calibrate", for messages */
	struct ct_session s;
	struct ct_oltp_opts oltp;
	const char *workload, *loads, *db, *baseline;
	int profile;  /* enum run_profile */
	int order;    /* enum run_order */
	int progress; /* enum cli_progress_mode */
	int format;   /* enum ct_report_format; CLI_FORMAT_AUTO: not given */
	const char *output;
	const char *commit; /* run --commit REV, as given */
	struct cli_out out; /* run: where the session's report goes */
	bool quick, quiet, keep, no_warmup, no_cgroup, no_counters, ignore_failures, dry_run,
		man_options;
	const char *suite_file; /* run -f FILE */
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
	int64_t cal_every;     /* --every D: ns between their starts; 0 back to back */
	bool cal_show;	       /* --show: the machine's spread by gap, nothing run */
	double effect;	       /* percent; 0: not asked */
	/* bisect (cmd-bisect.c): the range, the repository, the build, the
	 * kernel loop's identity and hook, judge's labels, the runs a side a
	 * step may take; a relative command after -- is the candidate's own,
	 * found in its work tree, not here */
	const char *good, *bad, *repo, *build, *id_cmd, *next_cmd, *good_label, *bad_label;
	bool step;
	unsigned bisect_max;
	double confidence; /* of every step's verdict */
	bool cmd_in_tree;
};

/* The options of run, calibrate and bisect: parser, checks and --help in
 * one table (run-opts.c), without the workloads' and loads' own. */
extern const struct cli_opt run_base_opts[];
/* That table and the options the workloads and loads declare, under
 * headings naming who takes them (run-plugins.c); built once. */
const struct cli_opt *run_opts_table(void);
/* A given workload's or load's option that neither the workload nor a
 * chosen load takes: one line, CT_EXIT_USAGE; else 0. */
int run_check_plugins(const struct run_args *a, const struct cli_parsed *p,
		      const struct ct_workload_ops *w);
/* Whether w declares the option name. */
bool run_takes(const struct ct_workload_ops *w, const char *name);
/* The man page's list of the workloads' and loads' options, in roff. */
void run_man_options(FILE *f);
/* The words of --progress (for messages). */
extern const struct ct_option_choice run_progress_modes[];

/* Everything the table cannot say alone, checked before anything runs: the
 * workload and its command, the loads, the options' scopes, the knobs; the
 * session's options filled in (run-check.c). 0, or the exit code after one
 * line. */
int run_check(struct run_args *a, const struct cli_parsed *p, int argc, char **argv);
/* Whether prog runs: a path that is executable, or a name found in $PATH. */
bool run_runnable(const char *prog);
/* A --baseline names a config with stored runs of the workload. */
int run_check_baseline(const struct run_args *a, struct ct_store *st);
/* --dry-run: every check the session makes before its first run, then the
 * plan printed; nothing is made (run-dry.c). The exit code. */
int run_dry(struct run_args *a);
/* The report of the session just stored, in --format (run-print.c). */
int run_print(struct run_args *a, struct ct_store *st);

/* -f FILE: every job of the suite file checked (each mistake one line
 * FILE:LINE, CT_EXIT_USAGE, nothing run), then each run as cmd with argv
 * extra (the options given beside -f) after its own (suite.c). The first
 * job's exit code that is not 0; an interrupted job ends the suite. */
struct run_cmd;
int run_suite(const struct run_cmd *cmd, const char *path, char *const *extra, int nextra);
/* The text of the suite file the jobs run_main runs next come from (NULL:
 * none), stored in the results store by each job's tag. */
void run_suite_text(const char *text);
/* The checks run makes before anything runs, of argv, nothing run
 * (cmd-run.c): 0, or the exit code after one line. */
int run_check_only(const struct run_cmd *cmd, int argc, char **argv);

/* What one command of the two adds to the flow they share (cmd-run.c). */
struct run_cmd {
	const char *name, *synopsis, *intro;
	bool calibrate; /* the checks of calibrate (run_args.calibrate) */
	/* the sessions and what follows each: sets *ex, returns the
	 * session's rc */
	int (*sessions)(struct run_args *a, struct ct_store *st, struct cli_progress *prog, int *ex,
			char *err, size_t len);
	/* calibrate --from: stored runs instead of a session; NULL: none */
	int (*from)(struct run_args *a);
	/* calibrate --show: read the store, run nothing; NULL: none */
	int (*show)(struct run_args *a);
};
/* Parses, checks, opens the store and the journal, runs cmd's sessions,
 * reports: the exit code. */
int run_main(const struct run_cmd *cmd, int argc, char **argv);
/* One session run and its report printed; *ex its exit code. */
int run_session(struct run_args *a, struct ct_store *st, struct cli_progress *prog, int *ex,
		char *err, size_t len);
/* The machine's knob journal opened on st and checked (knobs a crashed
 * contend left changed come back first), the session's from now: 0, or
 * the exit code after one line. */
int run_open_journal(struct run_args *a, struct ct_store *st, struct ct_journal *j);

/* calibrate: computes, stores and prints the calibration of each load from
 * the runs of the session just run (a->s), or from --from's stored runs.
 * Returns the exit code. */
int calibrate_session(struct run_args *a, struct ct_store *st);
int calibrate_from(struct run_args *a, struct ct_store *st);
/* calibrate --sessions K: the spread of the K sessions just run (ids),
 * load by load, within and between them; printed (their runs are stored
 * as the config's sessions, which compare then weighs). */
int calibrate_spread(struct run_args *a, struct ct_store *st, const int64_t *ids, size_t k);
/* --every: waits until session i (from 0) may start, first the start of
 * the first; -EINTR on a signal. */
int calibrate_wait(const struct run_args *a, int64_t first, unsigned i);
/* --show: the machine's spread of sessions of the workload (params) and
 * loads by gap, nothing run; the exit code. */
int calibrate_show(struct run_args *a, const char *params);
/* The workload's parameters as a session of a would store them (run-dry.c). */
int run_params(const struct run_args *a, char *params, size_t plen, char *err, size_t len);

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
