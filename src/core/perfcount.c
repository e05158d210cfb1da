/*
 * perf's counters on the foreground (include/contend/perfcount.h), read as
 * perf stat reads them: one event a file descriptor, each with the time it
 * was enabled and running, so a hardware event the PMU multiplexed is
 * scaled by enabled/running.
 */
#include "contend/perfcount.h"

#include <errno.h>
#include <linux/perf_event.h>
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

static int open_event(const struct event *e, pid_t pid, bool inherit)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = e->type;
	a.config = e->config;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a.inherit = inherit;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

void ct_perf_init(struct ct_perf *p)
{
	for (unsigned i = 0; i < CT_PERF_EVENTS; i++)
		p->fd[i] = -1;
}

unsigned ct_perf_open(struct ct_perf *p, pid_t pid)
{
	unsigned n = 0;

	for (unsigned i = 0; i < CT_PERF_EVENTS; i++) {
		p->fd[i] = open_event(&events[i], pid, true);
		if (p->fd[i] < 0)
			p->fd[i] = -1;
		else
			n++;
	}
	return n;
}

void ct_perf_read(struct ct_perf *p, struct ct_counters *out)
{
	for (unsigned i = 0; i < CT_PERF_EVENTS; i++) {
		uint64_t v[3]; /* value, time enabled, time running */

		if (p->fd[i] < 0)
			continue;
		/* an event that never ran (no PMU slot the whole run) counts
		 * nothing that can be told: left out */
		if (read(p->fd[i], v, sizeof(v)) == (ssize_t)sizeof(v) && v[2] > 0) {
			double c = (double)v[0];

			if (v[2] < v[1])
				c *= (double)v[1] / (double)v[2];
			(void)ct_counters_set(out, events[i].name, c * events[i].scale);
		}
	}
	ct_perf_close(p);
}

void ct_perf_close(struct ct_perf *p)
{
	for (unsigned i = 0; i < CT_PERF_EVENTS; i++) {
		if (p->fd[i] >= 0)
			close(p->fd[i]);
		p->fd[i] = -1;
	}
}

bool ct_perf_hardware(int *why)
{
	int fd = open_event(&events[4], 0, false);

	if (fd < 0) {
		if (why)
			*why = errno;
		return false;
	}
	close(fd);
	return true;
}
