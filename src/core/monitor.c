/*
 * Interference monitors (docs/architecture.md, "Measurement rules"):
 * cumulative kernel counters read when the foreground starts and ends.
 * Their deltas - pressure stall time, steal, CPU burnt by processes that
 * are not ours, major faults, swap-ins, disk sectors - are the evidence
 * that an outlying run was disturbed rather than slow. Paths are relative
 * to a root so fixture trees stand in for /proc in tests.
 *
 * Sources and their units: /proc/pressure/{cpu,io,memory} "total=" is in
 * microseconds (Documentation/accounting/psi.rst; cpu has no "full" line
 * before 5.13 and reads 0 then); /proc/stat's first "cpu" line is in
 * USER_HZ ticks (sysconf(_SC_CLK_TCK)); /proc/diskstats' 6th and 10th
 * columns (major minor name are 1-3) are sectors read and written in
 * 512-byte units (Documentation/admin-guide/iostats.rst, fields 3 and 7).
 * For a partition the counts are that partition's, not its disk's.
 */
#include "contend/monitor.h"
#include "contend/util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static bool is_live(const char *root)
{
	return !root || !*root;
}

static FILE *open_at(const char *root, const char *rel, int *rc)
{
	size_t rl = root ? strlen(root) : 0, n = strlen(rel);
	char path[PATH_MAX];
	FILE *f;

	while (rl > 0 && root[rl - 1] == '/')
		rl--;
	if (rl + n >= sizeof(path)) {
		*rc = -ENAMETOOLONG;
		return NULL;
	}
	memcpy(path, root, rl);
	memcpy(path + rl, rel, n + 1);
	f = fopen(path, "re");
	*rc = f ? 0 : -errno;
	return f;
}

/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=4219087" lines. */
static int read_psi(const char *root, const char *res, uint64_t us[2])
{
	char rel[64], *line = NULL;
	size_t cap = 0;
	FILE *f;
	int rc;

	snprintf(rel, sizeof(rel), "/proc/pressure/%s", res);
	f = open_at(root, rel, &rc);
	if (!f)
		return rc;
	us[0] = us[1] = 0;
	while (getline(&line, &cap, f) > 0) {
		const char *t = strstr(line, " total=");
		int which;

		if (!strncmp(line, "some ", 5))
			which = 0;
		else if (!strncmp(line, "full ", 5))
			which = 1;
		else
			continue;
		if (t)
			us[which] = strtoull(t + 7, NULL, 10);
	}
	free(line);
	fclose(f);
	return 0;
}

static int read_stat(const char *root, struct ct_snapshot *s)
{
	unsigned long long v[8] = { 0 };
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int rc, n = 0;

	f = open_at(root, "/proc/stat", &rc);
	if (!f)
		return rc;
	rc = -EINVAL;
	if (getline(&line, &cap, f) > 0 && !strncmp(line, "cpu ", 4)) {
		/* user nice system idle iowait irq softirq steal [guest guest_nice];
		 * guest time is already inside user and nice. */
		n = sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
			   &v[3], &v[4], &v[5], &v[6], &v[7]);
		if (n >= 4) {
			s->steal_ticks = v[7];
			s->cpu_busy_ticks = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
			s->cpu_total_ticks = s->cpu_busy_ticks + v[3] + v[4];
			rc = 0;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

static int read_vmstat(const char *root, struct ct_snapshot *s)
{
	const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	char *line = NULL, key[64];
	unsigned long long v;
	size_t cap = 0;
	FILE *f;
	int rc;

	f = open_at(root, "/proc/vmstat", &rc);
	if (!f)
		return rc;
	while (getline(&line, &cap, f) > 0) {
		if (sscanf(line, "%63s %llu", key, &v) != 2)
			continue;
		if (!strcmp(key, "pgmajfault"))
			s->pgmajfault = v;
		else if (!strcmp(key, "pswpin"))
			s->pswpin = v;
		else if (!strcmp(key, "nr_dirty"))
			s->dirty_bytes = v * page;
		else if (!strcmp(key, "nr_writeback"))
			s->writeback_bytes = v * page;
	}
	free(line);
	fclose(f);
	return 0;
}

static int read_diskstats(const char *root, const char *dev, struct ct_snapshot *s)
{
	unsigned long long rd, wr;
	unsigned maj, min;
	char *line = NULL, name[64];
	size_t cap = 0;
	FILE *f;
	int rc;

	f = open_at(root, "/proc/diskstats", &rc);
	if (!f)
		return rc;
	while (getline(&line, &cap, f) > 0) {
		if (sscanf(line, "%u %u %63s %*u %*u %llu %*u %*u %*u %llu", &maj, &min, name, &rd,
			   &wr) != 5)
			continue;
		if (!strcmp(name, dev)) {
			s->sectors_read = rd;
			s->sectors_written = wr;
			break;
		}
	}
	free(line);
	fclose(f);
	return 0;
}

int ct_monitor_snap(struct ct_snapshot *s, const char *root, const char *dev)
{
	static const char *const psi[3] = { "cpu", "io", "memory" };
	struct rusage ru;
	int rc, i;

	memset(s, 0, sizeof(*s));
	/* PSI is all or nothing: the directory is absent when the kernel
	 * lacks it or booted with psi=0. */
	s->have_psi = true;
	for (i = 0; i < 3; i++) {
		if (read_psi(root, psi[i], s->psi_us[i])) {
			s->have_psi = false;
			memset(s->psi_us, 0, sizeof(s->psi_us));
			break;
		}
	}
	rc = read_stat(root, s);
	if (rc)
		return rc;
	rc = read_vmstat(root, s);
	if (rc)
		return rc;
	if (dev && *dev) {
		rc = read_diskstats(root, dev, s);
		if (rc)
			return rc;
	}
	if (is_live(root) && !getrusage(RUSAGE_SELF, &ru))
		s->self_cpu_us = (int64_t)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec +
				 (int64_t)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
	return 0;
}

static int64_t ticks_to_us(int64_t ticks)
{
	long hz = sysconf(_SC_CLK_TCK);

	if (hz <= 0)
		hz = 100;
	return ticks * 1000000 / hz;
}

void ct_monitor_delta(const struct ct_snapshot *a, const struct ct_snapshot *b, int64_t ours_us,
		      struct ct_monitors *out)
{
	int64_t busy_us;
	int i, j;

	memset(out, 0, sizeof(*out));
	out->have_psi = a->have_psi && b->have_psi;
	if (out->have_psi) {
		for (i = 0; i < 3; i++) {
			for (j = 0; j < 2; j++)
				out->psi_us[i][j] = (int64_t)(b->psi_us[i][j] - a->psi_us[i][j]);
		}
	}
	out->steal_us = ticks_to_us((int64_t)(b->steal_ticks - a->steal_ticks));
	/* Busy includes steal: CPU the hypervisor gave to someone else is
	 * interference too, also reported on its own as steal_us. */
	busy_us = ticks_to_us((int64_t)(b->cpu_busy_ticks - a->cpu_busy_ticks));
	out->foreign_cpu_us = busy_us - ours_us - (b->self_cpu_us - a->self_cpu_us);
	if (out->foreign_cpu_us < 0)
		out->foreign_cpu_us = 0;
	out->majflt = (int64_t)(b->pgmajfault - a->pgmajfault);
	out->pswpin = (int64_t)(b->pswpin - a->pswpin);
	out->sectors_read = (int64_t)(b->sectors_read - a->sectors_read);
	out->sectors_written = (int64_t)(b->sectors_written - a->sectors_written);
	out->start_dirty_bytes = (int64_t)a->dirty_bytes;
	out->start_writeback_bytes = (int64_t)a->writeback_bytes;
}

double ct_cpu_speed(int64_t window_ns)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL, steps;
	double best = 0;

	for (int slice = 0; slice < 5; slice++) {
		int64_t t0 = ct_now_ns(), t;

		steps = 0;
		do {
			/* xorshift: each step needs the last, no vector unit helps */
			for (int i = 0; i < 1000; i++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
			}
			/* x escapes, so the compiler must run the loop */
			__asm__ volatile("" : "+r"(x));
			steps += 1000;
			t = ct_now_ns() - t0;
		} while (t < window_ns / 5);
		if ((double)steps * 1e3 / (double)t > best)
			best = (double)steps * 1e3 / (double)t;
	}
	return best;
}

static int64_t children_cpu_us(const char *root)
{
	struct rusage ru;

	if (!is_live(root) || getrusage(RUSAGE_CHILDREN, &ru))
		return 0;
	return (int64_t)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec +
	       (int64_t)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
}

int ct_window_begin(struct ct_window *w, const char *root)
{
	w->t0 = ct_now_ns();
	w->children_us = children_cpu_us(root);
	return ct_monitor_snap(&w->a, root, "");
}

int ct_window_end(const struct ct_window *w, const char *root, int64_t helper_us, double *cpus,
		  int64_t *elapsed_ns)
{
	struct ct_snapshot b;
	struct ct_monitors d;
	int64_t t1;
	int rc;

	rc = ct_monitor_snap(&b, root, "");
	if (rc)
		return rc;
	t1 = ct_now_ns();
	ct_monitor_delta(&w->a, &b, children_cpu_us(root) - w->children_us + helper_us, &d);
	/* Divide by the time that passed. */
	*elapsed_ns = t1 - w->t0;
	*cpus = t1 > w->t0 ? (double)d.foreign_cpu_us * 1000.0 / (double)(t1 - w->t0) : 0.0;
	return 0;
}

int ct_monitor_foreign(const char *root, int64_t interval_ns, double *cpus)
{
	struct ct_window w;
	struct timespec until;
	int64_t elapsed;
	int rc;

	if (interval_ns <= 0)
		return -EINVAL;
	rc = ct_window_begin(&w, root);
	if (rc)
		return rc;
	until.tv_sec = (w.t0 + interval_ns) / 1000000000;
	until.tv_nsec = (w.t0 + interval_ns) % 1000000000;
	/* A signal ends the wait: the caller's flag decides what happens. */
	rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
	if (rc)
		return -rc;
	return ct_window_end(&w, root, 0, cpus, &elapsed);
}
