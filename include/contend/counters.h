/*
 * A run's counters (contend why): what the foreground's process tree did
 * with its time - its tasks' delay accounting (contend/taskacct.h), or
 * its rusage where that cannot be read - and what its cgroup and the
 * machine did meanwhile: the cgroup's pressure, reclaim and I/O, about 25
 * fields of /proc/vmstat, /proc/stat, the work disk's diskstats and PSI.
 * Each has a name, stored with the run, a unit, the words a reader is
 * told, and a floor: the smallest shift of a run's value that may rank.
 */
#ifndef CONTEND_COUNTERS_H
#define CONTEND_COUNTERS_H

#include "contend/common.h"
#include "contend/taskacct.h"
#include <sys/resource.h>

#define CT_COUNTER_NAME 24
#define CT_MAX_COUNTERS 96

struct ct_counter {
	char name[CT_COUNTER_NAME]; /* [a-z0-9_] */
	double value;
};

struct ct_counters {
	unsigned n;
	struct ct_counter c[CT_MAX_COUNTERS];
};

enum ct_counter_group {
	CT_CG_BUDGET, /* the tree's time: on CPU, waiting, blocked... */
	CT_CG_TREE,   /* the tree's other counts: switches, faults, bytes */
	CT_CG_CGROUP, /* the foreground's cgroup */
	CT_CG_MACHINE /* /proc/vmstat, /proc/stat, diskstats, PSI */
};

struct ct_counter_info {
	const char *name, *unit, *what;
	double floor; /* a shift smaller than this never ranks */
	enum ct_counter_group group;
};

/* What contend knows of a counter; NULL for a name it does not. */
const struct ct_counter_info *ct_counter_info(const char *name);
/* The catalogue, in the order reports list it. */
const struct ct_counter_info *ct_counter_catalogue(size_t *n);
/* "more" or "fewer" (a count), "more" or "less" (an amount), by its unit. */
const char *ct_counter_direction(const struct ct_counter_info *ci, double shift);

/* Sets (or replaces) name's value: -EINVAL for a bad name or a value that
 * is not finite, -ENOSPC when full. */
int ct_counters_set(struct ct_counters *c, const char *name, double value);
/* -ENOENT when absent. */
int ct_counters_get(const struct ct_counters *c, const char *name, double *value);

/* Cumulative counters read at the start and the end of a run. */
struct ct_counters_snap {
	double v[CT_MAX_COUNTERS]; /* by catalogue index */
	bool have[CT_MAX_COUNTERS];
	int64_t at_ns; /* CLOCK_MONOTONIC */
};

/* root: "" (the live machine) or a fixture directory in front of /proc
 * paths; dev: the work disk's name in diskstats, or ""; cg: the
 * foreground's cgroup v2 directory, or "". What cannot be read is left
 * out, never an error. */
void ct_counters_snap(struct ct_counters_snap *s, const char *root, const char *dev,
		      const char *cg);
/* The machine's and the cgroup's counters over a..b into out, the disk's
 * derived figures (await, utilisation, queue) included. */
void ct_counters_delta(const struct ct_counters_snap *a, const struct ct_counters_snap *b,
		       struct ct_counters *out);
/* The tree's: its time budget and counts from delay accounting (when b is
 * not NULL and nothing was lost), else its rusage's counts. */
void ct_counters_tree(const struct ct_task_budget *b, const struct rusage *ru,
		      struct ct_counters *out);

/* As stored: a JSON object of name: value ("" when none). */
int ct_counters_encode(const struct ct_counters *c, char *buf, size_t len) CT_WUR;
int ct_counters_decode(const char *text, struct ct_counters *c) CT_WUR;

#endif
