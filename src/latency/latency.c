/*
 * The latency engine: the tasks of the latency workload, their calibrated
 * CPU burn, and the wakeup probe. See include/contend/latency.h.
 */
#include "contend/latency.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define MS	    1000000LL
#define CALIB_TRIES 20

/* interbench's tasks, with the shares the issue sets */
static const struct ct_lat_task known[] = {
	{ "audio", 50 * MS, 0.05, false, true },
	{ "video", 16666667LL, 0.40, false, true },
	{ "x", 100 * MS, 1.00, true, true },
	{ "gaming", 100 * MS, 1.00, false, false },
};

int ct_lat_tasks_parse(const char *list, double cpu_pct, int64_t period_ns, struct ct_lat_task *out,
		       size_t *n, char *err, size_t len)
{
	const char *p = list, *end;

	*n = 0;
	do {
		struct ct_lat_task t = { 0 };
		size_t w;
		bool found = false;

		end = strchrnul(p, ',');
		w = (size_t)(end - p);
		for (size_t i = 0; i < CT_ARRAY_SIZE(known) && !found; i++)
			if (strlen(known[i].name) == w && !strncmp(p, known[i].name, w)) {
				t = known[i];
				found = true;
			}
		if (!found && w == 6 && !strncmp(p, "custom", 6)) {
			if (!(cpu_pct > 0 && cpu_pct <= 100) || period_ns <= 0)
				return ct_err(err, len, -EINVAL,
					      "task custom needs --cpu PCT and --period D");
			snprintf(t.name, sizeof(t.name), "custom");
			t.period_ns = period_ns;
			t.cpu = cpu_pct / 100;
			t.deadline = true;
			found = true;
		}
		if (!found)
			return ct_err(err, len, -EINVAL,
				      "unknown task '%.*s' (audio, video, x, gaming, custom)",
				      (int)(w > 32 ? 32 : w), p);
		for (size_t i = 0; i < *n; i++)
			if (!strcmp(out[i].name, t.name))
				return ct_err(err, len, -EINVAL, "task %s is given twice", t.name);
		if (*n == CT_LAT_MAX_TASKS)
			return ct_err(err, len, -EINVAL, "at most %d tasks", CT_LAT_MAX_TASKS);
		out[(*n)++] = t;
		p = end + 1;
	} while (*end);
	return 0;
}

void ct_lat_burn(uint64_t n)
{
	uint64_t x = n;

	/* a chain of multiplies in a register: the same few cycles per loop
	 * whatever the build; the empty asm makes x opaque, so the compiler
	 * can neither drop the loop nor fold it (a loop through memory ran
	 * three times faster for 2 ms than for 20 ms here: store forwarding) */
	for (uint64_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ volatile("" : "+r"(x));
	}
}

static int64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The CPU time of n loops, the least of k tries (a preempted try is only
 * ever slower). */
static int64_t time_loops(uint64_t n, int k)
{
	int64_t best = INT64_MAX;

	for (int i = 0; i < k; i++) {
		int64_t t0 = cpu_ns();

		ct_lat_burn(n);
		int64_t t = cpu_ns() - t0;
		if (t > 0 && t < best)
			best = t;
	}
	return best;
}

int ct_lat_calibrate(double *loops_per_us, double *check_err, char *err, size_t len)
{
	uint64_t n = 1000;
	double lpu = 0, e = 0;

	/* grow a burst to ~20 ms of CPU */
	while (time_loops(n, 1) < 20 * MS && n < (1ull << 40))
		n *= 2;
	for (int attempt = 0; attempt < CALIB_TRIES; attempt++) {
		lpu = (double)n / ((double)time_loops(n, 5) / 1e3);
		/* check: 10 ms asked for must take 10 ms (+-2%) */
		double want_ns = 10e6;
		double got = (double)time_loops((uint64_t)(lpu * want_ns / 1e3), 5);

		e = got / want_ns - 1;
		if (fabs(e) <= CT_LAT_CALIB_TOL) {
			*loops_per_us = lpu;
			*check_err = e;
			return 0;
		}
		/* a host that steals the vCPU steals it in spells: wait one out */
		struct timespec pause = { 0, 100 * MS };
		nanosleep(&pause, NULL);
	}
	return ct_err(err, len, -EAGAIN,
		      "calibration of the CPU burn did not hold still: 10 ms asked for took "
		      "%+.1f%% (%d tries; limit +-%.0f%%)",
		      e * 100, CALIB_TRIES, CT_LAT_CALIB_TOL * 100);
}

void ct_lat_account(struct ct_lat_result *r, const struct ct_lat_task *t, int64_t intended,
		    int64_t woke, int64_t done, double work_us, bool dropped)
{
	int64_t lat;

	r->periods++;
	r->desired_us += work_us;
	if (t->deadline)
		lat = woke - intended;
	else /* gaming: how much longer the frame took than its work */
		lat = (done - woke) - (int64_t)(work_us * 1e3);
	ct_hist_add(&r->lat, (uint64_t)(lat > 0 ? lat : 0));
	if (dropped)
		r->dropped++;
	else
		r->done_us += work_us;
	if (!dropped && done <= intended + t->period_ns)
		r->met++;
}

static void sleep_until(int64_t t)
{
	struct timespec ts = { .tv_sec = t / 1000000000LL, .tv_nsec = t % 1000000000LL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static double share(const struct ct_lat_task *t, uint64_t i)
{
	if (!t->cycle)
		return t->cpu;
	return t->cpu * (double)(i % CT_LAT_X_STEPS) / (CT_LAT_X_STEPS - 1);
}

void ct_lat_run(const struct ct_lat_task *t, double loops_per_us, int64_t duration_ns,
		const struct ct_lat_work *work, struct ct_lat_result *r)
{
	int64_t start = ct_now_ns(), end = start + duration_ns, next = start, now;

	ct_hist_reset(&r->lat);
	r->periods = r->met = r->dropped = 0;
	r->desired_us = r->done_us = 0;
	for (uint64_t i = 0; next < end; i++) {
		double work_us = share(t, i) * (double)t->period_ns / 1e3;
		int64_t woke, done;
		bool dropped;

		if (t->deadline)
			sleep_until(next);
		woke = ct_now_ns();
		dropped = t->deadline && woke >= next + t->period_ns;
		if (!dropped) {
			if (work && work->fn)
				work->fn(work->arg, i, work_us);
			else
				ct_lat_burn((uint64_t)(work_us * loops_per_us));
		}
		done = ct_now_ns();
		ct_lat_account(r, t, next, woke, done, work_us, dropped);
		/* gaming's frames follow one another; the others keep their
		 * cadence, however late */
		next = t->deadline ? next + t->period_ns : done;
	}
	now = ct_now_ns();
	r->elapsed_ns = now - start;
}

double ct_lat_cpu_pct(const struct ct_lat_result *r, const struct ct_lat_task *t)
{
	/* gaming wants all the CPU it can get: its share of the wall time */
	double want = t->deadline ? r->desired_us : (double)r->elapsed_ns / 1e3 * t->cpu;

	return want > 0 ? 100 * r->done_us / want : NAN;
}

double ct_lat_met_pct(const struct ct_lat_result *r, const struct ct_lat_task *t)
{
	return t->deadline && r->periods ? 100 * (double)r->met / (double)r->periods : NAN;
}

int ct_lat_probe(int64_t period_ns, bool realtime, struct ct_hist *h, volatile int *stop)
{
	int64_t next;

	if (realtime) {
		struct sched_param sp = { .sched_priority = 98 };

		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			return -errno;
	}
	(void)mlockall(MCL_CURRENT | MCL_FUTURE);
	next = ct_now_ns() + period_ns;
	while (!*stop) {
		struct timespec ts = { .tv_sec = next / 1000000000LL,
				       .tv_nsec = next % 1000000000LL };
		int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		int64_t now = ct_now_ns();

		if (rc == EINTR)
			continue;
		ct_hist_add(h, (uint64_t)(now > next ? now - next : 0));
		next += period_ns;
		if (next <= now) /* skip what a long stall missed */
			next = now + period_ns - (now - next) % period_ns;
	}
	return 0;
}
