/*
 * perf's counters on the foreground, opened before it is let go and read
 * once its tree is gone. Where the foreground has a cgroup of its own that
 * perf can count (the v2 hierarchy, unless perf_event is bound to a v1
 * one) each event is opened for that cgroup on every online CPU, as
 * `perf stat -a -G` counts: the kernel does nothing per fork. Else, as
 * `perf stat` counts a command: on the foreground's first process,
 * inherited by every task it forks (an exited task's counts are added to
 * its parent's event) - a copy of every event per task, which costs a
 * fork-bound foreground about 2% of its time (docs/benchmarks.md). The software
 * events (task-clock, context switches, CPU migrations, page faults) are in
 * every kernel with perf events; the hardware ones (cycles, instructions,
 * cache and branch misses) only where the PMU offers them to this machine -
 * a guest often has none. Needs root, or kernel.perf_event_paranoid at most
 * 1 (the counts include the kernel's side of each task).
 */
#ifndef CONTEND_PERFCOUNT_H
#define CONTEND_PERFCOUNT_H

#include "contend/common.h"
#include "contend/counters.h"
#include <sys/types.h>

#define CT_PERF_EVENTS 8
#define CT_PERF_CPUS   64 /* more online CPUs: counted per task */

struct ct_perf {
	int fd[CT_PERF_EVENTS][CT_PERF_CPUS]; /* by event, by CPU; -1: not counted */
	unsigned ncpu;			      /* CPUs of each event (1 per task) */
	bool cgroup;			      /* counted on the cgroup */
};

/* The events' counter names (pf_*), in the order of ct_perf's fds. */
const char *ct_perf_name(unsigned i);

/* Nothing open. */
void ct_perf_init(struct ct_perf *p);
/* Opens every event this machine offers on cgroup (a directory of the
 * cgroup v2 hierarchy, or NULL) when perf counts it there, else on pid
 * inherited by its children (pid: a process that has not yet run its
 * work, in cgroup when one is given; counting starts now). Returns how
 * many events opened; an event that cannot be opened is left out. */
unsigned ct_perf_open(struct ct_perf *p, pid_t pid, const char *cgroup);
/* Reads the events into out (scaled when the PMU multiplexed one) and
 * closes them. Call once every task of the tree has exited. */
void ct_perf_read(struct ct_perf *p, struct ct_counters *out);
void ct_perf_close(struct ct_perf *p);

/* Whether this machine counts hardware events for contend: a probe on the
 * calling process; errno's code in *why when not. */
bool ct_perf_hardware(int *why);

#endif
