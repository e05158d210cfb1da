/*
 * perf's counters on the foreground (include/contend/perfcount.h), read as
 * perf stat reads them: one event a file descriptor, each with the time it
 * was enabled and running, so a hardware event the PMU multiplexed is
 * scaled by enabled/running. On the foreground's cgroup when it has one
 * perf can count (perf stat -a -G's way: an event a CPU, nothing done per
 * fork), else on its first process, inherited (perf stat's way).
 */
#include "contend/perfcount.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

struct event {
	const char *name;
	uint32_t type;
	uint64_t config;
	double scale; /* the count times this is the counter's */
};

static const struct event events[CT_PERF_EVENTS] = {
	{ "pf_task_clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 1e-9 },
	{ "pf_cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 1 },
	{ "pf_migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, 1 },
	{ "pf_faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 1 },
	{ "pf_cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1 },
	{ "pf_instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1 },
	{ "pf_cache_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, 1 },
	{ "pf_branch_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, 1 },
};

const char *ct_perf_name(unsigned i)
{
	return i < CT_PERF_EVENTS ? events[i].name : NULL;
}

/* pid is a process, or with cpu >= 0 a cgroup's directory fd */
static int open_event(const struct event *e, int pid, int cpu, bool inherit)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = e->type;
	a.config = e->config;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a.inherit = inherit;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, pid, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC | (cpu >= 0 ? PERF_FLAG_PID_CGROUP : 0));
}

void ct_perf_init(struct ct_perf *p)
{
	for (unsigned i = 0; i < CT_PERF_EVENTS; i++)
		for (unsigned c = 0; c < CT_PERF_CPUS; c++)
			p->fd[i][c] = -1;
	p->ncpu = 0;
	p->cgroup = false;
}

/* The online CPUs' numbers, at most CT_PERF_CPUS of them: their count, 0
 * when there are more or the list cannot be read. */
static unsigned online_cpus(int *cpu)
{
	char buf[512], *s = buf, *end;
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	unsigned n = 0;
	bool ok;

	if (!f)
		return 0;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	while (ok && *s && *s != '\n') {
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0)
			return 0;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a)
				return 0;
		}
		for (long c = a; c <= b; c++) {
			if (n == CT_PERF_CPUS)
				return 0;
			cpu[n++] = (int)c;
		}
		s = *end == ',' ? end + 1 : end;
		if (*end != ',' && *end != '\n' && *end)
			return 0;
	}
	return n;
}

/* Every event on each online CPU for the cgroup: how many events opened,
 * 0 (none left open) when task-clock cannot be. */
static unsigned open_cgroup(struct ct_perf *p, const char *cgroup)
{
	int cpu[CT_PERF_CPUS], dir;
	unsigned ncpu = online_cpus(cpu), n = 0;

	if (!ncpu || (dir = open(cgroup, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return 0;
	p->ncpu = ncpu;
	for (unsigned i = 0; i < CT_PERF_EVENTS; i++) {
		unsigned got = 0;

		for (unsigned c = 0; c < ncpu; c++) {
			p->fd[i][c] = open_event(&events[i], dir, cpu[c], false);
			if (p->fd[i][c] < 0)
				p->fd[i][c] = -1;
			else
				got++;
		}
		if (got < ncpu) { /* counted on some CPUs only: no count */
			for (unsigned c = 0; c < ncpu; c++) {
				if (p->fd[i][c] >= 0)
					close(p->fd[i][c]);
				p->fd[i][c] = -1;
			}
			if (i == 0) /* no task-clock: no cgroup events here */
				break;
		} else {
			n++;
		}
	}
	close(dir);
	if (!n)
		ct_perf_close(p);
	p->cgroup = n > 0;
	return n;
}

unsigned ct_perf_open(struct ct_perf *p, pid_t pid, const char *cgroup)
{
	unsigned n = 0;

	ct_perf_close(p);
	if (cgroup && *cgroup && (n = open_cgroup(p, cgroup)))
		return n;
	p->ncpu = 1;
	for (unsigned i = 0; i < CT_PERF_EVENTS; i++) {
		p->fd[i][0] = open_event(&events[i], pid, -1, true);
		if (p->fd[i][0] < 0)
			p->fd[i][0] = -1;
		else
			n++;
	}
	return n;
}

void ct_perf_read(struct ct_perf *p, struct ct_counters *out)
{
	for (unsigned i = 0; i < CT_PERF_EVENTS; i++) {
		double sum = 0;
		bool ran = false;

		for (unsigned c = 0; c < p->ncpu; c++) {
			uint64_t v[3]; /* value, time enabled, time running */

			/* a CPU where the event never ran (the tree never
			 * did, or no PMU slot) adds nothing */
			if (p->fd[i][c] < 0 ||
			    read(p->fd[i][c], v, sizeof(v)) != (ssize_t)sizeof(v) || !v[2])
				continue;
			ran = true;
			sum += v[2] < v[1] ? (double)v[0] * (double)v[1] / (double)v[2]
					   : (double)v[0];
		}
		/* an event that never ran anywhere counts nothing that can be
		 * told: left out */
		if (ran)
			(void)ct_counters_set(out, events[i].name, sum * events[i].scale);
	}
	ct_perf_close(p);
}

void ct_perf_close(struct ct_perf *p)
{
	for (unsigned i = 0; i < CT_PERF_EVENTS; i++)
		for (unsigned c = 0; c < CT_PERF_CPUS; c++) {
			if (p->fd[i][c] >= 0)
				close(p->fd[i][c]);
			p->fd[i][c] = -1;
		}
	p->ncpu = 0;
	p->cgroup = false;
}

bool ct_perf_hardware(int *why)
{
	int fd = open_event(&events[4], 0, -1, false);

	if (fd < 0) {
		if (why)
			*why = errno;
		return false;
	}
	close(fd);
	return true;
}
