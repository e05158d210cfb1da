/*
 * A run's counters (include/contend/counters.h): one catalogue says each
 * counter's name, unit, words and floor, and where a cumulative one is
 * read; the snapshots read each file once.
 */
#include "contend/counters.h"
#include "contend/util.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MIB (1024.0 * 1024.0)

enum src {
	SRC_TREE,    /* set by ct_counters_tree */
	SRC_DERIVED, /* computed in ct_counters_delta */
	SRC_VMSTAT,  /* /proc/vmstat KEY, or the sum of KEY* */
	SRC_STAT,    /* /proc/stat: a line's first number, or the cpu line's field */
	SRC_DISK,    /* /proc/diskstats: the work disk's field (1 = reads) */
	SRC_PSI,     /* /proc/pressure/KEY: some or full */
	SRC_CGROUP,  /* FILE KEY in the foreground's cgroup (summed over lines) */
};

struct entry {
	struct ct_counter_info info;
	enum src src;
	const char *file, *key;
	double scale; /* the raw value times this is the counter's */
};

#define E(n, u, w, f, g, s, fi, k, sc)          \
	{                                       \
		{ n, u, w, f, g }, s, fi, k, sc \
	}
#define TREE(n, u, w, f, g)	  E(n, u, w, f, g, SRC_TREE, NULL, NULL, 1)
#define VM(n, u, w, f, k, sc)	  E(n, u, w, f, CT_CG_MACHINE, SRC_VMSTAT, NULL, k, sc)
#define CG(n, u, w, f, fi, k, sc) E(n, u, w, f, CT_CG_CGROUP, SRC_CGROUP, fi, k, sc)

static const struct entry catalogue[] = {
	/* the tree's time, summed over its tasks (delay accounting) */
	TREE("t_oncpu", "s", "on CPU", 0.01, CT_CG_BUDGET),
	TREE("t_cpu_wait", "s", "waiting for a CPU", 0.01, CT_CG_BUDGET),
	TREE("t_blkio", "s", "blocked on block I/O", 0.01, CT_CG_BUDGET),
	TREE("t_sleep", "s", "asleep otherwise (children, pipes, locks, timers)", 0.01,
	     CT_CG_BUDGET),
	TREE("t_reclaim", "s", "in direct reclaim", 0.01, CT_CG_BUDGET),
	TREE("t_thrashing", "s", "thrashing (waiting for refaulted pages)", 0.01, CT_CG_BUDGET),
	TREE("t_compact", "s", "in direct compaction", 0.01, CT_CG_BUDGET),
	TREE("t_swapin", "s", "swapping in", 0.01, CT_CG_BUDGET),
	TREE("t_wpcopy", "s", "copying write-protected pages", 0.01, CT_CG_BUDGET),
	TREE("t_lifetime", "s", "task lifetimes, summed", 0.01, CT_CG_BUDGET),
	/* the tree's counts */
	TREE("t_tasks", "tasks", "tasks (threads) run", 2, CT_CG_TREE),
	TREE("t_clamped", "tasks", "tasks whose kernel delays were cut to their lifetime", 1,
	     CT_CG_TREE),
	TREE("t_vcsw", "switches", "voluntary context switches", 100, CT_CG_TREE),
	TREE("t_ivcsw", "switches", "involuntary context switches (preempted)", 100, CT_CG_TREE),
	TREE("t_minflt", "faults", "minor page faults", 1000, CT_CG_TREE),
	TREE("t_majflt", "faults", "major page faults", 10, CT_CG_TREE),
	TREE("t_blkio_waits", "waits", "waits for block I/O", 10, CT_CG_TREE),
	TREE("t_read_bytes", "bytes", "bytes read from storage", MIB, CT_CG_TREE),
	TREE("t_write_bytes", "bytes", "bytes written to storage", MIB, CT_CG_TREE),
	/* perf's counts on the tree (contend/perfcount.h): software events
	 * everywhere, hardware ones where the PMU offers them */
	TREE("pf_task_clock", "s", "CPU time, as perf counts it (task-clock)", 0.01, CT_CG_TREE),
	TREE("pf_cs", "switches", "context switches, as perf counts them", 100, CT_CG_TREE),
	TREE("pf_migrations", "migrations", "migrations between CPUs", 10, CT_CG_TREE),
	TREE("pf_faults", "faults", "page faults, as perf counts them", 1000, CT_CG_TREE),
	TREE("pf_cycles", "cycles", "CPU cycles", 1e7, CT_CG_TREE),
	TREE("pf_instructions", "instructions", "instructions retired", 1e7, CT_CG_TREE),
	TREE("pf_cache_misses", "misses", "last-level cache misses", 1e4, CT_CG_TREE),
	TREE("pf_branch_misses", "misses", "branches mispredicted", 1e4, CT_CG_TREE),
	/* the foreground's cgroup (v2): pressure is in every cgroup, the rest
	 * where its controller is enabled */
	CG("cg_cpu_some", "s", "time the foreground's cgroup stalled on CPU", 0.01, "cpu.pressure",
	   "some", 1e-6),
	CG("cg_io_some", "s", "time the foreground's cgroup stalled on I/O (some)", 0.01,
	   "io.pressure", "some", 1e-6),
	CG("cg_io_full", "s", "time the foreground's cgroup stalled on I/O (full)", 0.01,
	   "io.pressure", "full", 1e-6),
	CG("cg_mem_some", "s", "time the foreground's cgroup stalled on memory (some)", 0.01,
	   "memory.pressure", "some", 1e-6),
	CG("cg_mem_full", "s", "time the foreground's cgroup stalled on memory (full)", 0.01,
	   "memory.pressure", "full", 1e-6),
	CG("cg_throttled", "s", "time the foreground was throttled by cpu.max", 0.01, "cpu.stat",
	   "throttled_usec", 1e-6),
	CG("cg_pgscan", "pages", "pages the foreground's cgroup scanned to reclaim", 1000,
	   "memory.stat", "pgscan", 1),
	CG("cg_pgsteal", "pages", "pages reclaimed from the foreground's cgroup", 1000,
	   "memory.stat", "pgsteal", 1),
	CG("cg_refault", "pages", "pages of the foreground's cgroup refaulted", 100, "memory.stat",
	   "workingset_refault_*", 1),
	CG("cg_mem_high", "events", "memory.high breaches", 1, "memory.events", "high", 1),
	CG("cg_mem_max", "events", "memory.max hits", 1, "memory.events", "max", 1),
	CG("cg_oom_kill", "kills", "OOM kills in the foreground's cgroup", 1, "memory.events",
	   "oom_kill", 1),
	CG("cg_rbytes", "bytes", "bytes the foreground's cgroup read", MIB, "io.stat", "rbytes", 1),
	CG("cg_wbytes", "bytes", "bytes the foreground's cgroup wrote", MIB, "io.stat", "wbytes",
	   1),
	/* the machine: /proc/vmstat */
	VM("vm_pgfault", "faults", "page faults", 1000, "pgfault", 1),
	VM("vm_pgmajfault", "faults", "major page faults", 10, "pgmajfault", 1),
	VM("vm_pgpgin", "bytes", "bytes paged in", MIB, "pgpgin", 1024),
	VM("vm_pgpgout", "bytes", "bytes paged out", MIB, "pgpgout", 1024),
	VM("vm_pswpin", "pages", "pages swapped in", 10, "pswpin", 1),
	VM("vm_pswpout", "pages", "pages swapped out", 10, "pswpout", 1),
	VM("vm_pgalloc", "pages", "pages allocated", 10000, "pgalloc_*", 1),
	VM("vm_pgfree", "pages", "pages freed", 10000, "pgfree", 1),
	VM("vm_pgactivate", "pages", "pages activated", 1000, "pgactivate", 1),
	VM("vm_pgdeactivate", "pages", "pages deactivated", 1000, "pgdeactivate", 1),
	VM("vm_pgscan_kswapd", "pages", "pages kswapd scanned", 1000, "pgscan_kswapd", 1),
	VM("vm_pgscan_direct", "pages", "pages scanned in direct reclaim", 1000, "pgscan_direct",
	   1),
	VM("vm_pgsteal_kswapd", "pages", "pages kswapd reclaimed", 1000, "pgsteal_kswapd", 1),
	VM("vm_pgsteal_direct", "pages", "pages reclaimed directly", 1000, "pgsteal_direct", 1),
	VM("vm_allocstall", "stalls", "allocations stalled in direct reclaim", 1, "allocstall_*",
	   1),
	VM("vm_refault_anon", "pages", "anonymous pages refaulted", 100, "workingset_refault_anon",
	   1),
	VM("vm_refault_file", "pages", "file pages refaulted", 100, "workingset_refault_file", 1),
	VM("vm_compact_stall", "stalls", "allocations stalled in compaction", 1, "compact_stall",
	   1),
	VM("vm_compact_fail", "failures", "compactions that failed", 1, "compact_fail", 1),
	VM("vm_thp_fault_alloc", "faults", "huge pages faulted in", 1, "thp_fault_alloc", 1),
	VM("vm_thp_fault_fallback", "faults", "huge page faults that fell back", 1,
	   "thp_fault_fallback", 1),
	VM("vm_nr_dirtied", "pages", "pages dirtied", 1000, "nr_dirtied", 1),
	VM("vm_nr_written", "pages", "pages written back", 1000, "nr_written", 1),
	VM("vm_pgrotated", "pages", "pages rotated to the LRU's tail", 100, "pgrotated", 1),
	VM("vm_oom_kill", "kills", "OOM kills", 1, "oom_kill", 1),
	/* /proc/stat */
	E("st_ctxt", "switches", "context switches on the machine", 1000, CT_CG_MACHINE, SRC_STAT,
	  NULL, "ctxt", 1),
	E("st_intr", "interrupts", "interrupts", 1000, CT_CG_MACHINE, SRC_STAT, NULL, "intr", 1),
	E("st_softirq", "softirqs", "softirqs", 1000, CT_CG_MACHINE, SRC_STAT, NULL, "softirq", 1),
	E("st_forks", "forks", "processes forked on the machine", 10, CT_CG_MACHINE, SRC_STAT, NULL,
	  "processes", 1),
	E("st_iowait", "s", "idle CPU time with I/O outstanding", 0.01, CT_CG_MACHINE, SRC_STAT,
	  NULL, "cpu 5", 0),
	E("st_irq", "s", "CPU time in interrupts", 0.01, CT_CG_MACHINE, SRC_STAT, NULL, "cpu 6", 0),
	E("st_softirq_time", "s", "CPU time in softirqs", 0.01, CT_CG_MACHINE, SRC_STAT, NULL,
	  "cpu 7", 0),
	E("st_steal", "s", "CPU time stolen by the hypervisor", 0.01, CT_CG_MACHINE, SRC_STAT, NULL,
	  "cpu 8", 0),
	/* the work disk */
	E("dk_reads", "I/Os", "reads completed on the work disk", 100, CT_CG_MACHINE, SRC_DISK,
	  NULL, "1", 1),
	E("dk_writes", "I/Os", "writes completed on the work disk", 100, CT_CG_MACHINE, SRC_DISK,
	  NULL, "5", 1),
	E("dk_read_bytes", "bytes", "bytes read from the work disk", MIB, CT_CG_MACHINE, SRC_DISK,
	  NULL, "3", 512),
	E("dk_write_bytes", "bytes", "bytes written to the work disk", MIB, CT_CG_MACHINE, SRC_DISK,
	  NULL, "7", 512),
	E("dk_io_ms", "ms", "I/O time on the work disk (reads and writes)", 10, CT_CG_MACHINE,
	  SRC_DISK, NULL, "4+8", 1),
	E("dk_busy_ms", "ms", "busy time of the work disk", 10, CT_CG_MACHINE, SRC_DISK, NULL, "10",
	  1),
	E("dk_queue_ms", "ms", "weighted time in the work disk's queue", 10, CT_CG_MACHINE,
	  SRC_DISK, NULL, "11", 1),
	E("dk_await", "ms", "wait per I/O on the work disk", 0.1, CT_CG_MACHINE, SRC_DERIVED, NULL,
	  NULL, 1),
	E("dk_util", "%", "utilisation of the work disk", 1, CT_CG_MACHINE, SRC_DERIVED, NULL, NULL,
	  1),
	/* PSI */
	E("psi_cpu_some", "s", "time the machine stalled on CPU", 0.01, CT_CG_MACHINE, SRC_PSI,
	  "cpu", "some", 1e-6),
	E("psi_io_some", "s", "time the machine stalled on I/O (some)", 0.01, CT_CG_MACHINE,
	  SRC_PSI, "io", "some", 1e-6),
	E("psi_io_full", "s", "time the machine stalled on I/O (full)", 0.01, CT_CG_MACHINE,
	  SRC_PSI, "io", "full", 1e-6),
	E("psi_mem_some", "s", "time the machine stalled on memory (some)", 0.01, CT_CG_MACHINE,
	  SRC_PSI, "memory", "some", 1e-6),
	E("psi_mem_full", "s", "time the machine stalled on memory (full)", 0.01, CT_CG_MACHINE,
	  SRC_PSI, "memory", "full", 1e-6),
};

#define NCAT CT_ARRAY_SIZE(catalogue)
_Static_assert(CT_ARRAY_SIZE(catalogue) <= CT_MAX_COUNTERS, "the catalogue fits a run");

static struct ct_counter_info infos[NCAT];
static pthread_once_t infos_once = PTHREAD_ONCE_INIT;

static void infos_fill(void)
{
	for (size_t i = 0; i < NCAT; i++)
		infos[i] = catalogue[i].info;
}

const struct ct_counter_info *ct_counter_catalogue(size_t *n)
{
	pthread_once(&infos_once, infos_fill);
	*n = NCAT;
	return infos;
}

const struct ct_counter_info *ct_counter_info(const char *name)
{
	size_t n;
	const struct ct_counter_info *cat = ct_counter_catalogue(&n);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(cat[i].name, name))
			return &cat[i];
	return NULL;
}

const char *ct_counter_direction(const struct ct_counter_info *ci, double shift)
{
	bool amount = ci && (!strcmp(ci->unit, "s") || !strcmp(ci->unit, "ms") ||
			     !strcmp(ci->unit, "bytes") || !strcmp(ci->unit, "%"));

	if (shift >= 0)
		return "more";
	return amount ? "less" : "fewer";
}

int ct_counters_set(struct ct_counters *c, const char *name, double value)
{
	if (!ct_ident_ok(name, CT_COUNTER_NAME) || !isfinite(value))
		return -EINVAL;
	for (unsigned i = 0; i < c->n; i++)
		if (!strcmp(c->c[i].name, name)) {
			c->c[i].value = value;
			return 0;
		}
	if (c->n >= CT_MAX_COUNTERS)
		return -ENOSPC;
	snprintf(c->c[c->n].name, sizeof(c->c[c->n].name), "%s", name);
	c->c[c->n++].value = value;
	return 0;
}

int ct_counters_get(const struct ct_counters *c, const char *name, double *value)
{
	for (unsigned i = 0; i < c->n; i++)
		if (!strcmp(c->c[i].name, name)) {
			*value = c->c[i].value;
			return 0;
		}
	return -ENOENT;
}

static FILE *open_at(const char *root, const char *dir, const char *rel)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s%s%s", root ? root : "", dir, rel) >=
	    sizeof(path))
		return NULL;
	return fopen(path, "re");
}

/* KEY or KEY* (a prefix: the sum of every key it starts) matches word. */
static bool key_matches(const char *key, const char *word)
{
	size_t n = strlen(key);

	if (n && key[n - 1] == '*')
		return !strncmp(word, key, n - 1);
	return !strcmp(word, key);
}

static void add(struct ct_counters_snap *s, size_t i, double raw)
{
	s->v[i] += raw * catalogue[i].scale;
	s->have[i] = true;
}

static void read_vmstat(struct ct_counters_snap *s, const char *root)
{
	FILE *f = open_at(root, "", "/proc/vmstat");
	char key[64];
	double v;

	if (!f)
		return;
	while (fscanf(f, "%63s %lf", key, &v) == 2)
		for (size_t i = 0; i < NCAT; i++)
			if (catalogue[i].src == SRC_VMSTAT && key_matches(catalogue[i].key, key))
				add(s, i, v);
	fclose(f);
}

static void read_stat(struct ct_counters_snap *s, const char *root)
{
	FILE *f = open_at(root, "", "/proc/stat");
	double tick = (double)sysconf(_SC_CLK_TCK);
	char *line = NULL, word[32];
	size_t cap = 0;

	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		double v[10] = { 0 };
		int n;

		if (sscanf(line, "%31s", word) != 1)
			continue;
		n = sscanf(line + strlen(word), "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &v[0],
			   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
		for (size_t i = 0; i < NCAT && n > 0; i++) {
			const char *k = catalogue[i].key;

			if (catalogue[i].src != SRC_STAT)
				continue;
			if (!strcmp(word, "cpu") && !strncmp(k, "cpu ", 4)) {
				int field = atoi(k + 4); /* 1 = user */

				if (field >= 1 && field <= n && tick > 0) {
					s->v[i] += v[field - 1] / tick;
					s->have[i] = true;
				}
			} else if (!strcmp(word, k)) {
				add(s, i, v[0]);
			}
		}
	}
	free(line);
	fclose(f);
}

static void read_disk(struct ct_counters_snap *s, const char *root, const char *dev)
{
	FILE *f = open_at(root, "", "/proc/diskstats");
	char *line = NULL, name[64];
	size_t cap = 0;

	if (!f || !dev || !*dev) {
		if (f)
			fclose(f);
		return;
	}
	while (getline(&line, &cap, f) > 0) {
		double v[11] = { 0 };
		unsigned maj, min;

		if (sscanf(line, "%u %u %63s %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &maj,
			   &min, name, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
			   &v[8], &v[9], &v[10]) != 14 ||
		    strcmp(name, dev))
			continue;
		for (size_t i = 0; i < NCAT; i++) {
			const char *k = catalogue[i].key;

			if (catalogue[i].src != SRC_DISK)
				continue;
			/* "4+8": the sum of fields 4 and 8 */
			for (const char *p = k; *p; p = strchr(p, '+') ? strchr(p, '+') + 1 : "") {
				int field = atoi(p);

				if (field >= 1 && field <= 11)
					add(s, i, v[field - 1]);
			}
		}
		break;
	}
	free(line);
	fclose(f);
}

/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=4219087" lines, of
 * /proc/pressure/RES or a cgroup's RES.pressure. */
static void read_pressure(struct ct_counters_snap *s, FILE *f, enum src src, const char *file)
{
	char *line = NULL;
	size_t cap = 0;

	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		const char *t = strstr(line, " total=");

		if (!t)
			continue;
		for (size_t i = 0; i < NCAT; i++)
			if (catalogue[i].src == src && !strcmp(catalogue[i].file, file) &&
			    !strncmp(line, catalogue[i].key, strlen(catalogue[i].key)) &&
			    line[strlen(catalogue[i].key)] == ' ')
				add(s, i, strtod(t + 7, NULL));
	}
	free(line);
	fclose(f);
}

/* A cgroup's flat-keyed file ("KEY VALUE" lines) or nested-keyed one
 * (io.stat: "8:0 rbytes=1 wbytes=2 ..."), each KEY summed over lines. */
static void read_cgroup_file(struct ct_counters_snap *s, const char *cg, const char *file)
{
	char rel[128], *line = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(rel, sizeof(rel), "/%s", file);
	f = open_at(cg, "", rel);
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		char *save = NULL, *tok[64];
		size_t n = 0;

		for (char *w = strtok_r(line, " \n", &save); w && n < CT_ARRAY_SIZE(tok);
		     w = strtok_r(NULL, " \n", &save))
			tok[n++] = w;
		for (size_t k = 0; k < n; k++) {
			char *word = tok[k], *val = strchr(word, '=');

			if (val) {
				*val++ = '\0'; /* nested keys: "8:0 rbytes=1 wbytes=2" */
			} else if (k + 1 < n && !strchr(tok[k + 1], '=')) {
				val = tok[++k]; /* flat keys: "pgscan 10" */
			} else {
				continue; /* a nested line's own key ("8:0") */
			}
			for (size_t i = 0; i < NCAT; i++)
				if (catalogue[i].src == SRC_CGROUP &&
				    !strcmp(catalogue[i].file, file) &&
				    key_matches(catalogue[i].key, word))
					add(s, i, strtod(val, NULL));
		}
	}
	free(line);
	fclose(f);
}

void ct_counters_snap(struct ct_counters_snap *s, const char *root, const char *dev, const char *cg)
{
	static const char *const psi[] = { "cpu", "io", "memory" };
	const char *done[NCAT];
	size_t ndone = 0;

	memset(s, 0, sizeof(*s));
	s->at_ns = ct_now_ns();
	read_vmstat(s, root);
	read_stat(s, root);
	read_disk(s, root, dev);
	for (size_t i = 0; i < CT_ARRAY_SIZE(psi); i++) {
		char rel[64];

		snprintf(rel, sizeof(rel), "/proc/pressure/%s", psi[i]);
		read_pressure(s, open_at(root, "", rel), SRC_PSI, psi[i]);
	}
	if (!cg || !*cg)
		return;
	for (size_t i = 0; i < NCAT; i++) {
		bool seen = false;

		if (catalogue[i].src != SRC_CGROUP)
			continue;
		for (size_t j = 0; j < ndone && !seen; j++)
			seen = !strcmp(done[j], catalogue[i].file);
		if (seen)
			continue;
		done[ndone++] = catalogue[i].file;
		if (strstr(catalogue[i].file, ".pressure")) {
			char rel[128];

			snprintf(rel, sizeof(rel), "/%s", catalogue[i].file);
			read_pressure(s, open_at(cg, "", rel), SRC_CGROUP, catalogue[i].file);
		} else {
			read_cgroup_file(s, cg, catalogue[i].file);
		}
	}
}

static ssize_t index_of(const char *name)
{
	for (size_t i = 0; i < NCAT; i++)
		if (!strcmp(catalogue[i].info.name, name))
			return (ssize_t)i;
	return -1;
}

void ct_counters_delta(const struct ct_counters_snap *a, const struct ct_counters_snap *b,
		       struct ct_counters *out)
{
	double wall_ms = (double)(b->at_ns - a->at_ns) / 1e6, d;
	ssize_t io = index_of("dk_io_ms"), rd = index_of("dk_reads"), wr = index_of("dk_writes"),
		busy = index_of("dk_busy_ms");

	for (size_t i = 0; i < NCAT; i++) {
		if (!a->have[i] || !b->have[i])
			continue;
		d = b->v[i] - a->v[i];
		/* a counter that went backwards was reset (a disk re-added, a
		 * cgroup made anew): nothing is known of this run */
		if (d >= 0)
			(void)ct_counters_set(out, catalogue[i].info.name, d);
	}
	if (io >= 0 && rd >= 0 && wr >= 0 && a->have[io] && b->have[io]) {
		double n = (b->v[rd] - a->v[rd]) + (b->v[wr] - a->v[wr]);

		if (n > 0)
			(void)ct_counters_set(out, "dk_await", (b->v[io] - a->v[io]) / n);
	}
	if (busy >= 0 && a->have[busy] && b->have[busy] && wall_ms > 0) {
		d = 100 * (b->v[busy] - a->v[busy]) / wall_ms;
		(void)ct_counters_set(out, "dk_util", d > 100 ? 100 : d < 0 ? 0 : d);
	}
}

void ct_counters_tree(const struct ct_task_budget *b, const struct rusage *ru,
		      struct ct_counters *out)
{
	if (b && !b->lost && b->tasks) {
		double busy = (double)b->oncpu_ns + (double)b->cpu_wait_ns + (double)b->blkio_ns,
		       sleep = (double)b->lifetime_ns - busy;

		(void)ct_counters_set(out, "t_oncpu", (double)b->oncpu_ns / 1e9);
		(void)ct_counters_set(out, "t_cpu_wait", (double)b->cpu_wait_ns / 1e9);
		(void)ct_counters_set(out, "t_blkio", (double)b->blkio_ns / 1e9);
		(void)ct_counters_set(out, "t_sleep", sleep > 0 ? sleep / 1e9 : 0);
		(void)ct_counters_set(out, "t_reclaim", (double)b->reclaim_ns / 1e9);
		(void)ct_counters_set(out, "t_thrashing", (double)b->thrashing_ns / 1e9);
		(void)ct_counters_set(out, "t_compact", (double)b->compact_ns / 1e9);
		(void)ct_counters_set(out, "t_swapin", (double)b->swapin_ns / 1e9);
		(void)ct_counters_set(out, "t_wpcopy", (double)b->wpcopy_ns / 1e9);
		(void)ct_counters_set(out, "t_lifetime", (double)b->lifetime_ns / 1e9);
		(void)ct_counters_set(out, "t_tasks", (double)b->tasks);
		(void)ct_counters_set(out, "t_clamped", (double)b->clamped);
		(void)ct_counters_set(out, "t_vcsw", (double)b->vcsw);
		(void)ct_counters_set(out, "t_ivcsw", (double)b->ivcsw);
		(void)ct_counters_set(out, "t_minflt", (double)b->minflt);
		(void)ct_counters_set(out, "t_majflt", (double)b->majflt);
		(void)ct_counters_set(out, "t_blkio_waits", (double)b->blkio_count);
		(void)ct_counters_set(out, "t_read_bytes", (double)b->read_bytes);
		(void)ct_counters_set(out, "t_write_bytes", (double)b->write_bytes);
		return;
	}
	if (!ru)
		return;
	(void)ct_counters_set(out, "t_vcsw", (double)ru->ru_nvcsw);
	(void)ct_counters_set(out, "t_ivcsw", (double)ru->ru_nivcsw);
	(void)ct_counters_set(out, "t_minflt", (double)ru->ru_minflt);
	(void)ct_counters_set(out, "t_majflt", (double)ru->ru_majflt);
	(void)ct_counters_set(out, "t_read_bytes", 512.0 * (double)ru->ru_inblock);
	(void)ct_counters_set(out, "t_write_bytes", 512.0 * (double)ru->ru_oublock);
}

int ct_counters_encode(const struct ct_counters *c, char *buf, size_t len)
{
	size_t off = 0;

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	if (!c || !c->n)
		return 0;
	for (unsigned i = 0; i < c->n; i++) {
		/* names are [a-z0-9_]: nothing to escape; %.17g round-trips */
		int m = snprintf(buf + off, len - off, "%s\"%s\":%.17g", i ? "," : "{",
				 c->c[i].name, c->c[i].value);

		if (m < 0 || (size_t)m >= len - off)
			return -ENOSPC;
		off += (size_t)m;
	}
	if (off + 2 > len)
		return -ENOSPC;
	buf[off++] = '}';
	buf[off] = '\0';
	return 0;
}

int ct_counters_decode(const char *text, struct ct_counters *c)
{
	const char *key;
	json_t *obj, *v;
	int rc = 0;

	c->n = 0;
	if (!text || !*text)
		return 0;
	obj = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
	if (!obj || !json_is_object(obj)) {
		json_decref(obj);
		return -EINVAL;
	}
	json_object_foreach(obj, key, v)
	{
		if (!json_is_number(v) || ct_counters_set(c, key, json_number_value(v))) {
			rc = -EINVAL;
			break;
		}
	}
	json_decref(obj);
	return rc;
}
