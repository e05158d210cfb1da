/*
 * Foreground workloads: the job that is timed. Each is one file in
 * src/workloads/ ending in a const ct_workload_ops; src/workloads/workloads.h
 * registers them. The session forks the foreground in its own process group
 * and calls ops->exec() in the child, so a workload is either an execvp()
 * (kbuild, cmd) or a function that does its work and _exit()s (selftest).
 */
#ifndef CONTEND_WORKLOAD_H
#define CONTEND_WORKLOAD_H

#include "contend/common.h"
#include "contend/env.h"
#include "contend/option.h"
#include <limits.h>
#include <sys/types.h>

struct ct_workload;
struct ct_run;

enum {
	/* warms itself up (oltp's ramp-up): no unrecorded warm-up run, and
	 * none after a knob change unless asked */
	CT_WL_OWN_WARMUP = 1 << 0,
	/* times the command given after "--" (and needs one) */
	CT_WL_ARGV = 1 << 1,
	/* judged in tps and reported as scores against a reference config
	 * (WimMark's layout) */
	CT_WL_SCORED = 1 << 2,
	/* sized by the profile (--quick) */
	CT_WL_PROFILED = 1 << 3,
};

struct ct_workload_opts {
	const char *tree;	   /* kbuild: build this tree instead of generating */
	const char *make_args;	   /* kbuild: extra make arguments, split on spaces */
	char *const *argv;	   /* cmd: the command (NULL-terminated) */
	double scale;		   /* kbuild: generated tree scale; selftest: seconds */
	const char *mode;	   /* selftest: "spin" (default), "sleep", "fail" */
	const char *prepare;	   /* cmd: run before each run, untimed */
	const char *cleanup;	   /* cmd: run after each run, untimed */
	bool shell;		   /* cmd: the command and those two go through /bin/sh -c */
	const char *tasks;	   /* latency: "audio,video" (default audio) */
	double task_cpu;	   /* latency custom: percent of a CPU */
	int64_t task_period_ns;	   /* latency custom: its period */
	int64_t duration_ns;	   /* latency: each task's time in a run (0: profile's) */
	struct ct_optlist figures; /* cmd: --figure and --figure-json, in order */
	const char *figure_from;   /* cmd: "stdout" (default), "stderr" or a file */
	const char *judge;	   /* cmd: the figure judged (default the first) */
	const char *suite;	   /* run -f's job, "FILE/JOB#HASH": in the parameters */
	const char *first_cwd;	   /* the first config's directory when configs are
				    * directories (a bisection's trees), else NULL */
	const char *pg_bin;	   /* pgbench: the server's programs (NULL: the newest;
				    * relative: in each config's directory) */
	unsigned pg_scale;	   /* pgbench: -i's scale (0: the default) */
	uint64_t pg_shared;	   /* pgbench: shared_buffers in bytes (0: the default) */
	uint64_t pg_mem_limit;	   /* pgbench: the server's memory.max (0: the default) */
	unsigned pg_clients;	   /* pgbench: clients and threads (0: 4 x CPUs) */
	bool pg_select;		   /* pgbench: -S */
	const char *pg_script;	   /* pgbench: -f FILE */
};

struct ct_workload_ops {
	const char *name;
	const char *summary;
	unsigned flags;
	const struct ct_option *options; /* the options it takes; NULL: none */
	const char *default_loads; /* its suite without -l ("none"); NULL: every default load */
	/* Before anything is made (the session's first step, and --dry-run):
	 * what the user gave exists and fits dir, where the work directory will
	 * be (-ENOENT, -ENOTDIR, -ENOSPC, -EINVAL). May be NULL. */
	int (*check)(const struct ct_env *env, const struct ct_workload_opts *o, const char *dir,
		     char *err, size_t len);
	/* The w->params prepare would fill, without making anything (--dry-run
	 * plans --target-effect by them). May be NULL: --dry-run then prepares
	 * the workload in a temporary directory and removes it. */
	int (*describe)(const struct ct_env *env, const struct ct_workload_opts *o, const char *dir,
			char *params, size_t plen, char *err, size_t len);
	/* Before the session's runs: generate or check the tree, fill w->params.
	 * Untimed. May be NULL. */
	int (*prepare)(struct ct_workload *w, char *err, size_t len);
	/* Before each run (and the warm-up): e.g. make clean. Untimed. May be NULL. */
	int (*reset)(struct ct_workload *w, char *err, size_t len);
	/* In the forked child: exec or work then _exit(). Never returns. */
	void (*exec)(struct ct_workload *w) __attribute__((noreturn));
	/* In contend after the foreground was reaped: add the workload's own
	 * figures to the run (r->metrics, r->series; its output is in
	 * w->out_log and w->err_log). May be NULL. */
	void (*collect)(struct ct_workload *w, struct ct_run *r);
	/* The CPU (us) used so far by what the workload keeps running beside
	 * the foreground, outside its process tree (a database server): not
	 * foreign CPU, in the run's monitors and the quietness check. Its
	 * processes are contend's children (a subreaper) once their starter
	 * exits; what contend reaps counts as its children's. May be NULL. */
	int64_t (*helper_cpu_us)(struct ct_workload *w);
	/* The process whose children forked while a run is measured serve
	 * the foreground (a server's backends): their delay accounting is the
	 * run's too. 0: none. May be NULL. */
	pid_t (*helper_root)(struct ct_workload *w);
	/* After the foreground ends, before the run's counters are read:
	 * waits (bounded) until what it set off there is done - the server's
	 * backends gone, their records sent. May be NULL. */
	void (*settle)(struct ct_workload *w);
	/* At the end. May be NULL. */
	void (*cleanup)(struct ct_workload *w);
};

struct ct_workload {
	const struct ct_workload_ops *ops;
	const struct ct_env *env;
	struct ct_workload_opts opts;
	char dir[PATH_MAX]; /* own directory under env->dir */
	char params[256];   /* stored per run: "files=160 scale=1.00 jobs=8" */
	const char *cwd;    /* the config's directory its commands run in; NULL: here */
	/* where each run's stdout and stderr go, in the session's work
	 * directory (each run's replaces the last's) */
	char out_log[PATH_MAX + 16], err_log[PATH_MAX + 16];
	void *priv;
};

const struct ct_workload_ops *ct_workload_find(const char *name);
size_t ct_workload_count(void);
const struct ct_workload_ops *ct_workload_at(size_t i);

int ct_workload_init(struct ct_workload *w, const struct ct_workload_ops *ops,
		     const struct ct_env *env, const struct ct_workload_opts *opts, char *err,
		     size_t len) CT_WUR;
void ct_workload_release(struct ct_workload *w);
/* Appends " suite=TAG" to params (len bytes) when o names a suite job, so
 * that sessions of a job that changed are other workloads. */
void ct_workload_params_suite(const struct ct_workload_opts *o, char *params, size_t len);

#endif
