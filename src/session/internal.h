/*
 * What the files of the session layer share and nothing else sees: the
 * running session's state, and the steps each file owns - the run
 * (runner.c), the guard process (guard.c), the order of runs (schedule.c)
 * and the stored session (session.c).
 */
#ifndef CONTEND_SESSION_INTERNAL_H
#define CONTEND_SESSION_INTERNAL_H

#include "contend/counters.h"
#include "contend/knob.h"
#include "contend/load.h"
#include "contend/reference.h"
#include "contend/session.h"
#include "contend/taskacct.h"

#include <limits.h>
#include <sys/types.h>

struct guard_shm;

struct session_rt {
	struct ct_session *s;
	struct ct_store *st;
	struct ct_journal *journal;
	char cg_session[PATH_MAX]; /* "" when no cgroup v2 */
	char cg_fg[PATH_MAX];
	char fg_tmp[PATH_MAX + 16]; /* its TMPDIR, in the work directory */
	bool warned_short;	    /* said once that a foreground runs under 5 ms */
	unsigned reconnects;	    /* the store's reconnects the user was told of */
	pid_t guard;
	struct guard_shm *guard_shm;
	unsigned done, total;
	long cur_cfg;	 /* the config whose knobs are in force, -1 none */
	bool journalled; /* knobs are in the journal: restore at the end */
	/* the wakeup probe (--probe): its histogram, shared with it (mapped
	 * at its first run), and its pid while it runs */
	struct ct_hist *probe_hist;
	pid_t probe_pid;
	/* the host's references taken (their seq), and the start's, held
	 * until the sessions are stored */
	unsigned nrefs;
	struct ct_ref start_ref;
	bool start_ref_held;
	/* the quietness check's window, open from the session's start */
	struct ct_window quiet;
	bool quiet_open;
	struct ct_workload *wl; /* once prepared: its server's CPU is not foreign */
	/* each run's counters (opts.counters): the foreground's delay
	 * accounting (NULL when it cannot be read), kernel.task_delayacct as
	 * the session turned it on (in the journal), the run's counters */
	struct ct_taskacct *taskacct;
	struct ct_knob delayacct;
	bool delayacct_set;
	struct ct_counters counters;
};

/* session.c */
void sess_emit(struct session_rt *rt, enum ct_event_kind kind, const char *load, unsigned run,
	       const struct ct_run *result, const char *msg);
void sess_warn(struct session_rt *rt, const char *fmt, ...) CT_PRINTF(2, 3);
/* Stores run r of config c as run seq (the block of an interleaved
 * schedule), storing the sessions first if they are not yet. */
int sess_store_run(struct session_rt *rt, struct ct_session_config *c, struct ct_run *r,
		   unsigned seq, char *err, size_t len) CT_WUR;
/* Stores every config's session that is not stored yet (and the start's
 * reference, held until then). */
int sess_begin_sessions(struct session_rt *rt, char *err, size_t len) CT_WUR;
/* Takes the host's reference (docs/statistics.md, "The host's drift") of
 * phase, untimed, and stores it with every config's session - the start's
 * once they are stored. -EINTR when a signal came meanwhile (but at the
 * end). */
int sess_reference(struct session_rt *rt, enum ct_ref_phase phase, char *err, size_t len) CT_WUR;
/* Warns when the machine was busy outside contend over the session's
 * first second: at the end of a run once that second has passed (every
 * child of the session reaped), or at the end (last). */
void sess_quiet_check(struct session_rt *rt, bool last);
/* What w keeps running beside the foreground has used so far (us, 0 when
 * nothing or unknown). */
int64_t sess_helper_cpu_us(struct ct_workload *w);

/* runner.c */
/* One run. Returns 0 when the run produced a result (ok or failed, in *r),
 * -EINTR when a signal arrived (everything killed and reaped), or another
 * -errno when the session cannot go on. */
int sess_run_one(struct session_rt *rt, struct ct_workload *w, struct ct_load *l, struct ct_run *r,
		 char *err, size_t len) CT_WUR;
void sess_cgroups_setup(struct session_rt *rt);
void sess_cgroups_teardown(struct session_rt *rt);
/* The runs' counters: delay accounting on for the session (the journal
 * keeps the original) and its listener opened; what cannot be had is
 * left out, said by contend why. Teardown closes and restores. */
void sess_counters_setup(struct session_rt *rt);
void sess_counters_teardown(struct session_rt *rt);
void sess_reap_orphans(void);
/* Unmaps the probe's histogram at the session's end. */
void sess_probe_release(struct session_rt *rt);

/* guard.c */
int sess_guard_start(struct session_rt *rt) CT_WUR;
void sess_guard_stop(struct session_rt *rt);
/* Tells the guard the foreground's process group (0 between runs). */
void sess_guard_foreground(struct session_rt *rt, pid_t pgid);

/* schedule.c */
/* Prepares the loads and runs their schedules - under each, every config
 * n times, in interleaved blocks or config by config, or adaptively - the
 * loads in rounds or one after the other (opts.load_order). */
int sess_run_loads(struct session_rt *rt, struct ct_workload *w, char *err, size_t len) CT_WUR;

#endif
