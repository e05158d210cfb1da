/*
 * Per-run monitors (docs/architecture.md, "Measurement rules"): snapshots
 * of cumulative system counters taken when the foreground starts and ends,
 * and their deltas - the evidence that a slow run was disturbed by
 * something else.
 */
#ifndef CONTEND_MONITOR_H
#define CONTEND_MONITOR_H

#include "contend/common.h"

struct ct_snapshot {
	bool have_psi;
	uint64_t psi_us[3][2];	 /* [cpu, io, memory][some, full] total= in us */
	uint64_t cpu_busy_ticks; /* /proc/stat cpu: user+nice+system+irq+softirq+steal */
	uint64_t cpu_total_ticks;
	uint64_t steal_ticks;
	uint64_t pgmajfault, pswpin;		/* /proc/vmstat */
	uint64_t sectors_read, sectors_written; /* /proc/diskstats for the device */
	uint64_t dirty_bytes, writeback_bytes;	/* /proc/vmstat nr_dirty, nr_writeback */
	int64_t self_cpu_us;			/* contend's own CPU (RUSAGE_SELF) */
};

struct ct_monitors {
	bool have_psi;
	int64_t psi_us[3][2];
	int64_t steal_us;
	int64_t foreign_cpu_us; /* busy CPU not used by contend, the foreground or loads */
	int64_t majflt;
	int64_t pswpin;
	int64_t sectors_read, sectors_written;
	/* the state the run started from (snapshot a): page cache waiting to
	 * be written and being written, in bytes; -1 when unknown (a run
	 * stored before contend recorded them) */
	int64_t start_dirty_bytes, start_writeback_bytes;
	/* the CPU's speed before the load started (ct_cpu_speed()), loop
	 * steps per microsecond; -1 when unknown */
	double start_cpu_speed;
};

/* root: "" or a fixture dir; dev: block device name for diskstats or "". */
int ct_monitor_snap(struct ct_snapshot *s, const char *root, const char *dev) CT_WUR;
/* Deltas b - a; ours_us is the CPU of the foreground plus loads during the
 * interval, subtracted (with contend's own) to give foreign CPU. */
void ct_monitor_delta(const struct ct_snapshot *a, const struct ct_snapshot *b, int64_t ours_us,
		      struct ct_monitors *out);
/* The speed of this CPU now: the fastest of five slices of window_ns / 5
 * of a dependent integer loop, in steps per microsecond. The fastest, so a
 * preemption in one slice does not count: a lower figure on the same
 * machine means a slower CPU (a busy host, a lower clock), which steal
 * time does not always show. */
double ct_cpu_speed(int64_t window_ns);
/* The busy CPU outside this process and the children it has reaped, over
 * a window that costs no wait of its own: from ct_window_begin to
 * ct_window_end, whatever the caller did meanwhile (a session's
 * preparation, warm-up and first runs), provided every child that ran in
 * it has been reaped by the end. *cpus is a fraction of one CPU,
 * *elapsed_ns the window's length. */
struct ct_window {
	struct ct_snapshot a;
	int64_t t0;
	int64_t children_us; /* RUSAGE_CHILDREN at the start */
};
int ct_window_begin(struct ct_window *w, const char *root) CT_WUR;
/* helper_us: the CPU used over the window by what contend started and has
 * not reaped (a workload's server), not foreign either. */
int ct_window_end(const struct ct_window *w, const char *root, int64_t helper_us, double *cpus,
		  int64_t *elapsed_ns) CT_WUR;
/* The same over interval_ns of sleep. */
int ct_monitor_foreign(const char *root, int64_t interval_ns, double *cpus) CT_WUR;

#endif
