/*
 * Background loads: the competitors a workload is timed against. Each load
 * is one file in src/loads/ ending in a const ct_load_ops; src/loads/loads.h
 * is the X-macro list that registers them.
 *
 * The harness (src/loads/load.c) owns the process side, so every load gets
 * the same guarantees: a leader process in its own process group (and its
 * own cgroup v2 where one can be made), PR_SET_PDEATHSIG so nothing outlives
 * contend, N worker processes running ops->work(), a shared counter of work
 * done, and a stop that kills, reaps and accounts every worker. A load's
 * file only says how to size itself, what one worker does, and how to clean
 * up.
 */
#ifndef CONTEND_LOAD_H
#define CONTEND_LOAD_H

#include "contend/common.h"
#include "contend/env.h"
#include "contend/option.h"
#include <limits.h>
#include <stdatomic.h>
#include <sys/types.h>

struct ct_load;

/* Shared between contend and the load's processes (MAP_SHARED). */
struct ct_load_shm {
	_Atomic uint64_t work; /* in the load's raw unit (bytes, records, ...) */
	_Atomic int failed;    /* a worker hit an error */
	char error[CT_ERRLEN]; /* first worker error, NUL-terminated */
};

enum {
	CT_LOAD_HIDDEN = 1 << 0,    /* a harness self-test (null): marked so in listings */
	CT_LOAD_OOM_FIRST = 1 << 1, /* workers get oom_score_adj=1000 */
	CT_LOAD_DEFAULT = 1 << 2,   /* in the default suite */
	CT_LOAD_PROFILED = 1 << 3,  /* sized by the profile (--quick) */
};

struct ct_load_ops {
	const char *name;
	const char *summary;
	const char *work_unit; /* what the Loads column counts: "MB written" */
	double unit_scale;     /* raw counter / unit_scale = displayed value */
	unsigned flags;
	/* the options it takes (contend/option.h), ending in CT_OPTION_DONE;
	 * NULL: none */
	const struct ct_option *options;
	const void *data; /* a load defined at run time (--load-cmd): its definition */
	/* 0, or -ENOTSUP with the reason (e.g. io_other without --other-dir) */
	int (*supported)(const struct ct_env *env, char *why, size_t len);
	/* Before anything is made (the session's first step, and --dry-run):
	 * the sizes the user set fit dir, where the work directory will be
	 * (-ENOSPC), and the options it takes make sense (-EINVAL). May be
	 * NULL. */
	int (*check)(const struct ct_env *env, const char *dir, char *err, size_t len);
	/* In contend, before any run: size the load (fill l->params, l->nworkers)
	 * and create its files in l->dir. Untimed. May be NULL. */
	int (*prepare)(struct ct_load *l, char *err, size_t len);
	/* In the leader, after it joined its cgroup and before it forks the
	 * workers, for what they must share (the process ring's pipes).
	 * Returns 0, or -1 after ct_load_fail(). May be NULL. */
	int (*leader_init)(struct ct_load *l);
	/* In worker process i (0..nworkers-1): do work forever, adding to
	 * l->shm->work. Returns only on error, after ct_load_fail(). */
	int (*work)(struct ct_load *l, unsigned i);
	/* In contend, once at the end: remove what prepare made (l->dir itself
	 * is removed by the harness unless keep_files). May be NULL. */
	void (*cleanup)(struct ct_load *l);
};

struct ct_load_result {
	uint64_t work;		 /* raw units done between mark and stop */
	int64_t user_us, sys_us; /* CPU of all its processes between mark and stop */
	int64_t wall_ns;	 /* time between mark and stop */
	bool cpu_estimated;	 /* no cgroup: CPU scaled from the whole life's rusage */
	bool failed;
	char reason[CT_ERRLEN];
};

struct ct_load {
	const struct ct_load_ops *ops;
	const struct ct_env *env;
	char dir[PATH_MAX];  /* own directory under env->dir, made by init */
	unsigned nworkers;   /* set by prepare (default 1) */
	uint64_t size;	     /* main size, set by prepare (bytes or count) */
	uint64_t ready_work; /* set by prepare: raw units done before the load counts as
			      * started (mem: one full pass); 0 = any work */
	bool slow_start;     /* set by prepare: its start-up before the first unit of
			      * work may take long (xtar removing the last run's
			      * tree, ctar truncating its archive); it gets as
			      * long as ready_work does */
	bool uncounted;	     /* set by prepare: no work counter (a --load-cmd without
			      * --load-work): ready when alive after the delay, never
			      * stalled, its Loads unknown */
	char params[1024];   /* sizes used, "file=1.0GiB", stored per run */
	void *priv;	     /* owned by the load's file */

	/* harness state */
	struct ct_load_shm *shm;
	pid_t leader;
	int pidfd;	       /* of the leader, -1 if none */
	char cgroup[PATH_MAX]; /* cgroup v2 dir, "" when not used */
	int64_t start_ns, mark_ns;
	uint64_t mark_work;
	int64_t mark_cpu_us; /* cgroup usage at mark, -1 when no cgroup */
	uint64_t last_work;
	int64_t last_progress_ns;
};

/* Registry. */
const struct ct_load_ops *ct_load_find(const char *name);
size_t ct_load_count(void);
const struct ct_load_ops *ct_load_at(size_t i);

/*
 * Loads defined at run time: --load-cmd NAME=COMMAND runs argv (exec'd, no
 * shell) as the load NAME's one worker, in the load's own directory, with
 * stdin on /dev/null and its stdout and stderr read by contend. With
 * work_regex (POSIX extended), every line of that output it matches adds
 * the number its first group (or the whole match) captures, 1 when that is
 * no number, to the load's work; with work_total the number is a running
 * total instead, so the work is its growth. NAME: [a-z][a-z0-9_-]*, at most
 * 24 characters, no built-in load's. ct_load_find() and the registry list
 * them after the built-in loads until ct_load_forget_cmds().
 */
#define CT_LOAD_MAX_CMDS 8
int ct_load_define_cmd(const char *name, char *const argv[], const char *work_regex,
		       bool work_total, char *err, size_t len) CT_WUR;
void ct_load_forget_cmds(void);

/* Makes l->dir and calls supported() and prepare(). On failure nothing is
 * left on disk. */
int ct_load_init(struct ct_load *l, const struct ct_load_ops *ops, const struct ct_env *env,
		 char *err, size_t len) CT_WUR;
/* Forks the leader and its workers. cgroup_parent: a cgroup v2 directory to
 * create the load's cgroup in, or NULL. */
int ct_load_start(struct ct_load *l, const char *cgroup_parent, char *err, size_t len) CT_WUR;
/* Waits until the load has been producing work for delay_ns (counted from
 * its first unit, so start-up that counts none does not shorten it) and has
 * done its ready_work; -EIO with the reason when it died or produced
 * nothing. */
int ct_load_wait_ready(struct ct_load *l, int64_t delay_ns, char *err, size_t len) CT_WUR;
/* Marks the start of the measured interval (foreground start). */
void ct_load_mark(struct ct_load *l);
/* Cheap check during the run: -EIO with the reason if the leader died, a
 * worker failed, or no work was done for stall_ns. */
int ct_load_check(struct ct_load *l, int64_t stall_ns, char *err, size_t len);
/* Stops the load: SIGTERM to the leader (which SIGKILLs and reaps its
 * workers), SIGKILL to the group after a grace period, reap. Fills res for
 * the interval since ct_load_mark(). Always leaves no process behind. */
void ct_load_stop(struct ct_load *l, struct ct_load_result *res);
/* Kill without accounting (signal path). Async-signal-unsafe; call from the
 * main loop only. */
void ct_load_kill(struct ct_load *l);
/* Calls cleanup and removes l->dir unless keep_files. */
void ct_load_release(struct ct_load *l);

/* For workers: record the first error and mark the load failed. Returns -1. */
int ct_load_fail(struct ct_load *l, const char *fmt, ...) CT_PRINTF(2, 3);
static inline void ct_load_add(struct ct_load *l, uint64_t n)
{
	atomic_fetch_add_explicit(&l->shm->work, n, memory_order_relaxed);
}

#endif
