/*
 * Everything one run measures lands in struct ct_run: raw times, the load's
 * work and CPU, the monitors and the status. The store keeps it verbatim;
 * printers derive CPU%, Loads, LCPU% and Ratio from it (ct_run_derive), so
 * no output format ever measures anything.
 */
#ifndef CONTEND_RUN_H
#define CONTEND_RUN_H

#include "contend/common.h"
#include "contend/counters.h"
#include "contend/hist.h"
#include "contend/monitor.h"

enum ct_run_status {
	CT_RUN_OK = 0,
	CT_RUN_FAILED = 1, /* foreground exited non-zero, load died, ... */
	CT_RUN_INTERRUPTED = 2,
	CT_RUN_NSTATUS
};
/* their words, as stored ("ok", "failed", "interrupted") */
extern const char *const ct_run_status_names[CT_RUN_NSTATUS];

#define CT_RUN_MAX_METRICS 64
#define CT_METRIC_NAME	   24
#define CT_RUN_MAX_HISTS   6
#define CT_HIST_NAME	   16
#define CT_RUN_MAX_FIGS	   16
#define CT_FIGURE_UNIT	   16

struct ct_metric {
	char name[CT_METRIC_NAME]; /* [a-z0-9_], as JSON keys and SQL paths take them */
	double value;		   /* finite */
};

/* What a figure a command printed is (--figure): its metric's name, its
 * unit ("ops/s", "" for none) and its direction. */
struct ct_figure_def {
	char name[CT_METRIC_NAME];
	char unit[CT_FIGURE_UNIT]; /* [A-Za-z0-9/%_.-], as JSON takes it unescaped */
	bool higher_better;
};

/* A latency distribution kept with a run: the wakeup probe's ("probe"),
 * each latency task's ("audio"...), in nanoseconds. */
struct ct_run_hist {
	char name[CT_HIST_NAME]; /* [a-z0-9_] */
	const struct ct_hist *h; /* not owned */
};

struct ct_run {
	int64_t id;
	int64_t session_id;
	int64_t config_id;
	char label[128]; /* config label, filled on read */
	char workload[32];
	char load[32];
	unsigned seq;	/* 1..n within (session, load) */
	unsigned block; /* the block of an interleaved schedule (= seq), 0 when none:
			 * runs of one block pair up */
	enum ct_run_status status;
	char reason[CT_ERRLEN];
	int64_t started_at;		   /* unix ns */
	int64_t wall_ns;		   /* foreground wall time, CLOCK_MONOTONIC */
	int64_t user_us, sys_us;	   /* foreground process tree */
	int exit_code;			   /* foreground exit status, or 128+signal */
	uint64_t load_work;		   /* raw units done during the foreground */
	double load_unit_scale;		   /* raw / scale = displayed Loads */
	int64_t load_user_us, load_sys_us; /* load CPU during the foreground */
	char workload_params[256];
	char load_params[1024]; /* a --load-cmd's command is kept here */
	struct ct_monitors mon;
	/* a workload's own figures (oltp: tps, lat_p99_us...); none for timed
	 * workloads */
	struct ct_metric metrics[CT_RUN_MAX_METRICS];
	unsigned nmetrics;
	/* what its metrics are when a command's output gave them (--figure):
	 * the first is the figure it is judged by, the others are reported
	 * beside it; none for a workload's own (ct_run_figure knows them) */
	struct ct_figure_def figs[CT_RUN_MAX_FIGS];
	unsigned nfigs;
	/* written with the run, read back with ct_store_run_series(): a
	 * per-second series (oltp's tps); not owned, NULL when none */
	const double *series;
	unsigned nseries;
	/* written with the run, read back one by one with ct_store_run_hist() */
	struct ct_run_hist hists[CT_RUN_MAX_HISTS];
	unsigned nhists;
	/* written with the run, read back with ct_store_run_counters(): what
	 * its foreground's tasks did with their time, what its cgroup and
	 * the machine did (contend why); not owned, NULL when none */
	const struct ct_counters *counters;
};

#define CT_METRIC_TPS "tps"
/* the latency workload's judged figure: its first task's p99 wakeup
 * latency in microseconds (lower is better) */
#define CT_METRIC_LATENCY "p99_us"

/* Sets metric name (replacing an earlier value); -EINVAL for a name that
 * is empty, too long or not [a-z0-9_], or a value that is not finite;
 * -ENOSPC when the run holds CT_RUN_MAX_METRICS already. */
int ct_run_metric_set(struct ct_run *r, const char *name, double value);
/* The value of metric name; -ENOENT when absent. */
int ct_run_metric(const struct ct_run *r, const char *name, double *value);
/* Declares what metric name is (appended to r->figs; the first declared is
 * the judged one): -EINVAL for a name or unit that is not one, -EEXIST
 * when declared already, -ENOSPC past CT_RUN_MAX_FIGS. */
int ct_run_figure_add(struct ct_run *r, const char *name, const char *unit, bool higher_better);
/* Whether unit is one a figure can have: at most CT_FIGURE_UNIT - 1 of
 * [A-Za-z0-9/%_.-] (empty: none). */
bool ct_figure_unit_ok(const char *unit);

/* A figure a run is judged by other than its Time: its key among the
 * run's metrics, its name and unit in reports, its direction. */
struct ct_figure {
	const char *key, *name, *unit;
	bool higher_better;
};
/* The figure r is judged by: the first it declares (r->figs: a command's
 * --figure), else the first of tps (oltp), p99_us (latency), iops, bw_kib,
 * clat_p50_us, clat_p99_us (an imported fio job) that it has; NULL: its
 * Time in seconds (lower is better). A declared figure is interned: the
 * pointer stays valid after r is gone, for the process's life. */
const struct ct_figure *ct_run_figure(const struct ct_run *r);
/* The judged figure's value and direction. */
double ct_run_value(const struct ct_run *r);
bool ct_run_higher_better(const struct ct_run *r);

const char *ct_run_status_name(enum ct_run_status s);
int ct_run_status_parse(const char *s, enum ct_run_status *out);

/* Derived figures of one run. */
double ct_run_time_s(const struct ct_run *r);
double ct_run_cpu_pct(const struct ct_run *r);	/* (user+sys)/wall*100 */
double ct_run_loads(const struct ct_run *r);	/* load_work / load_unit_scale; NAN: not counted */
double ct_run_lcpu_pct(const struct ct_run *r); /* load cpu / wall * 100 */

/* Mean figures of a group of runs (only CT_RUN_OK ones count). */
struct ct_run_group {
	unsigned n, nfailed;
	double time_s, cpu_pct, loads, lcpu_pct; /* means */
};
void ct_run_group(const struct ct_run *runs, size_t n, struct ct_run_group *g);

#endif
