/*
 * perf's counters on the foreground, as `perf stat` counts a command: each
 * event opened on the foreground's first process before it is let go,
 * inherited by every task it forks, and read once the tree is gone (an
 * exited task's counts are added to its parent's event). The software
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

struct ct_perf {
	int fd[CT_PERF_EVENTS]; /* -1: not counted */
};

/* The events' counter names (pf_*), in the order of ct_perf's fds. */
const char *ct_perf_name(unsigned i);

/* Nothing open. */
void ct_perf_init(struct ct_perf *p);
/* Opens every event this machine offers on pid (a process that has not
 * yet run its work: counting starts now), inherited by its children.
 * Returns how many opened; an event that cannot be opened is left out. */
unsigned ct_perf_open(struct ct_perf *p, pid_t pid);
/* Reads the events into out (scaled when the PMU multiplexed one) and
 * closes them. Call once every task of the tree has exited. */
void ct_perf_read(struct ct_perf *p, struct ct_counters *out);
void ct_perf_close(struct ct_perf *p);

/* Whether this machine counts hardware events for contend: a probe on the
 * calling process; errno's code in *why when not. */
bool ct_perf_hardware(int *why);

#endif
