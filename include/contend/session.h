/*
 * A session is one invocation of `contend run`: prepare the workload, run
 * it once unrecorded (contest's cacherun), then n times under each load
 * and config, storing every run as it completes. The session layer
 * (src/session) is the only place that knows the order of a run: reset,
 * start load, verify it works, snapshot, fork the foreground, wait,
 * snapshot, stop the load, store.
 */
#ifndef CONTEND_SESSION_H
#define CONTEND_SESSION_H

#include "contend/common.h"
#include "contend/env.h"
#include "contend/journal.h"
#include "contend/run.h"
#include "contend/store.h"
#include "contend/sysinfo.h"
#include "contend/workload.h"

struct ct_knob;
struct ct_knob_config;

#define CT_SESSION_MAX_LOADS   16
#define CT_ADAPTIVE_MIN_RUNS   5
#define CT_SESSION_MAX_CONFIGS 16

enum ct_load_order { CT_LOAD_ORDER_AUTO, CT_LOAD_ORDER_ROUNDS, CT_LOAD_ORDER_GROUPED };

/* One config of the session: with knobs (--vary) a session runs several,
 * each stored as its own session row with its own config and label. */
struct ct_session_config {
	char label[128];
	const struct ct_knob_config *knobs; /* NULL: none */
	const char *cwd;		    /* where the workload's commands run; NULL: here */
	struct ct_sysinfo si;		    /* captured with its knobs applied */
	struct ct_session_rec rec;
};

/* What adaptive repetition reached for one load. */
struct ct_cell_outcome {
	char load[32];
	unsigned runs;	      /* ok runs */
	double halfwidth_pct; /* 95% CI half-width of the mean, % of the mean; NaN if n < 2 */
	bool precise;
};

struct ct_session;

struct ct_session_opts {
	const char *workload; /* "kbuild" */
	struct ct_workload_opts wopts;
	const char *loads[CT_SESSION_MAX_LOADS];
	size_t nloads;
	unsigned runs;	   /* per load */
	const char *label; /* NULL: kernel release */
	const char *dir;   /* parent of the work dir; NULL: /var/tmp */
	int64_t delay_ns;  /* the load works this long before the foreground */
	int64_t stall_ns;  /* load without progress this long fails the run */
	bool warmup;
	/* adaptive repetition: after CT_ADAPTIVE_MIN_RUNS runs a load stops once
	 * the CI half-width of its mean Time is within precision_pct of the
	 * mean, or at max_runs / max_time_ns (then it is reported imprecise);
	 * never because of a p-value */
	bool adaptive;
	double precision_pct;
	unsigned max_runs;
	int64_t max_time_ns; /* per load; 0 = none */
	bool drop_caches;
	bool use_cgroups;
	/* each run's counters (contend why): its foreground's time budget
	 * (delay accounting, kernel.task_delayacct on for the session through
	 * the journal), its cgroup's and the machine's counters */
	bool counters;
	/* the wakeup probe beside every foreground: its period (0: none) and
	 * whether it runs SCHED_FIFO */
	int64_t probe_ns;
	bool probe_rt;
	/* knobs (--set/--vary), resolved and checked by the caller; kconfigs
	 * are the configs to run (one per --vary value combination), the
	 * journal the machine's, where their originals go first */
	const struct ct_knob *knobs;
	size_t nknobs;
	const struct ct_knob_config *kconfigs;
	size_t nkconfigs;
	struct ct_journal *journal;
	/* order of the runs of several configs: interleaved in randomized
	 * blocks (ABBA for two), or all of one config then the next */
	bool sequential;
	uint64_t order_seed;
	/* order of the loads: auto (rounds with one config, grouped with
	 * several), rounds (run i of every load, then run i+1) or grouped
	 * (every run of one load, then the next) */
	enum ct_load_order load_order;
	unsigned knob_warmup; /* unrecorded runs after each knob change */
	/* configs that differ by where the workload's commands run (bisect:
	 * each commit's work tree) instead of by knobs: ndirs labels and
	 * directories; knobs, when given, are one config (--set), in force
	 * for all of them */
	const char *const *dir_labels;
	const char *const *dirs;
	size_t ndirs;
	/* called when a load has run a block (a run of every config), with
	 * the blocks it has run: *stop ends the load's runs there (bisect's
	 * three-outcome step); -errno with one line in err ends the session */
	int (*block_done)(void *ctx, struct ct_session *s, const char *load, unsigned blocks,
			  bool *stop, char *err, size_t len);
	void *block_ctx;
	char argv[1024]; /* for the session record */
	/* the commit measured (run --commit): full sha and committer time */
	char commit[41];
	int64_t commit_time;
	/* called once the workload is ready (s->workload_params known),
	 * before the warm-up and before anything is stored: it may set runs
	 * (run --target-effect); -errno with one line in err ends the session
	 * there, leaving nothing behind */
	int (*plan)(void *ctx, struct ct_session *s, char *err, size_t len);
	void *plan_ctx;
};

enum ct_event_kind {
	CT_EV_INFO, /* a line of information: msg */
	CT_EV_NOTE, /* a line the user sees in every progress mode but quiet: msg */
	CT_EV_WARN, /* a warning: msg */
	CT_EV_RUN_START,
	CT_EV_RUN_DONE,
};

struct ct_event {
	enum ct_event_kind kind;
	const char *msg;
	const char *load;
	unsigned run, runs;	     /* run i of n for this load; 0 = warm-up */
	unsigned done, total;	     /* runs done/total in the session */
	int64_t elapsed_ns, eta_ns;  /* eta -1 when unknown */
	const struct ct_run *result; /* RUN_DONE */
};

typedef void (*ct_event_fn)(void *ctx, const struct ct_event *ev);

struct ct_session {
	struct ct_session_opts opts;
	struct ct_env env;
	struct ct_sysinfo si;
	struct ct_session_rec rec; /* config 0's, for callers of one config */
	char label[128];
	struct ct_session_config cfg[CT_SESSION_MAX_CONFIGS];
	size_t ncfg;
	char workload_params[256];
	struct ct_cell_outcome cells[CT_SESSION_MAX_LOADS]; /* adaptive only */
	size_t ncells;
	ct_event_fn on_event;
	void *ctx;
	int64_t t0;
};

/* Whether a session of these options and nconfigs configs runs its loads
 * in rounds (opts.load_order, auto: with one config). */
bool ct_session_in_rounds(const struct ct_session_opts *o, size_t nconfigs);

/* What can be checked before anything is made or changed: the workload,
 * the runs, every load (it runs here, what the user set for it fits the
 * work directory's disk), the workload's own inputs (--tree). -errno with
 * one line. ct_session_run() checks the same first; --dry-run only this. */
int ct_session_check(const struct ct_session *s, char *err, size_t len) CT_WUR;

/* Makes s ready to run again: what one run of it left (its configs, its
 * records) cleared, its options, environment (but the work directory,
 * made anew) and event hook kept. */
void ct_session_reset(struct ct_session *s);

/* Runs the whole session. Returns 0 when every step ran (failed runs are
 * results, not errors), -EINTR when a signal interrupted it (the session is
 * marked interrupted), or another -errno for a session that could not run.
 * env must be filled by the caller except dir, which is made here. */
int ct_session_run(struct ct_session *s, struct ct_store *st, char *err, size_t len) CT_WUR;

/* Marks sessions left "running" by a contend that no longer runs (killed,
 * or lost with a reboot) as interrupted; *closed says how many. */
int ct_session_close_orphans(struct ct_store *st, unsigned *closed, char *err, size_t len) CT_WUR;

/* The same judgement on records read from a store that cannot be written
 * (read-only, or its disk full): their status says "interrupted" in memory
 * only. Returns how many. */
unsigned ct_session_show_orphans(struct ct_session_rec *recs, size_t n);

/* Fills env from the live machine (CPUs, memory). */
int ct_env_from_machine(struct ct_env *env, char *err, size_t len) CT_WUR;

#endif
