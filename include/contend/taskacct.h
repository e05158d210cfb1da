/*
 * Where a process tree's time went: the kernel's per-task delay accounting
 * (taskstats) summed over every task of the tree, those that exited
 * included - on CPU, waiting for a CPU, blocked on block I/O, and the
 * memory stalls - as tools/accounting/getdelays.c reads it for one task.
 *
 * A task's record comes when it exits (taskstats' exit records for every
 * CPU), and which tree it belonged to is decided when it was born (the
 * process events connector's fork events): a child is in the tree when
 * its parent was, so an orphan reparented to init still counts, and a pid
 * reused by another process during the run does not. Both need root
 * (CAP_NET_ADMIN); the delays need kernel.task_delayacct = 1.
 */
#ifndef CONTEND_TASKACCT_H
#define CONTEND_TASKACCT_H

#include "contend/common.h"
#include <sys/types.h>

struct ct_task_budget {
	uint64_t tasks;	       /* tasks (threads) of the tree whose records came */
	uint64_t lifetime_ns;  /* their lifetimes, summed */
	uint64_t oncpu_ns;     /* running on a CPU */
	uint64_t cpu_wait_ns;  /* runnable, waiting for a CPU (the run queue) */
	uint64_t blkio_ns;     /* asleep on synchronous block I/O */
	uint64_t swapin_ns;    /* swapping pages in */
	uint64_t reclaim_ns;   /* in direct reclaim (freeing pages) */
	uint64_t thrashing_ns; /* waiting for a page refaulted from the working set */
	uint64_t compact_ns;   /* in direct compaction */
	uint64_t wpcopy_ns;    /* copying a write-protected page */
	uint64_t blkio_count;  /* block I/O waits */
	uint64_t cpu_count;    /* times on a CPU (timeslices) */
	uint64_t read_bytes;   /* storage I/O the tree caused */
	uint64_t write_bytes;
	uint64_t vcsw, ivcsw; /* voluntary and involuntary context switches */
	uint64_t minflt, majflt;
	uint64_t clamped; /* tasks whose delays were cut to their lifetime */
	bool lost;	  /* records were lost (a socket overran): short sums */
};

struct ct_taskacct;

/* Opens the two netlink sockets and registers for every CPU's exit
 * records. -EPERM without CAP_NET_ADMIN, -ENOENT when the kernel has no
 * taskstats or process events; err says which. */
int ct_taskacct_open(struct ct_taskacct **out, char *err, size_t len) CT_WUR;
void ct_taskacct_close(struct ct_taskacct *t);
/* The tree to account from now on: root was just forked (its fork event
 * is queued) and has not run yet. Forgets every earlier sum. */
void ct_taskacct_start(struct ct_taskacct *t, pid_t root);
/* After start: the children pid forks from now on are the tree's too (a
 * server's backends, which serve the tree); pid itself is not counted
 * unless it exits. */
void ct_taskacct_also(struct ct_taskacct *t, pid_t pid);
/* Takes what the sockets hold, without waiting: call it while the tree
 * runs (a busy tree's records would overrun the sockets otherwise). */
void ct_taskacct_drain(struct ct_taskacct *t);
/* Once every task of the tree is gone (reaped, its cgroup empty): the
 * last records, and the sums. */
void ct_taskacct_end(struct ct_taskacct *t, struct ct_task_budget *b);
/* The record of a task that exited, folded into b (exposed for tests). */
struct taskstats;
void ct_taskacct_add(struct ct_task_budget *b, const struct taskstats *ts, size_t size);

#endif
