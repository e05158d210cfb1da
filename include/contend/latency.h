/*
 * Interactive latency, interbench's heir: simulated tasks that wake every
 * period, burn a calibrated share of a CPU and are judged by how late they
 * wake and whether each period's work ends by its deadline; and the wakeup
 * probe, a cyclictest-like sleeper beside any foreground. Everything is
 * timed with CLOCK_MONOTONIC; latencies land in the log-linear histogram
 * (contend/hist.h) in nanoseconds.
 *
 * Where interbench went wrong, and what this does instead: it timed with
 * CLOCK_REALTIME (a clock step is a latency here never); its SD used
 * sum(x^2) - avg^2/n and integer means (the histogram keeps an exact sum;
 * the statistics of part 2 compare repeated runs); its calibration was
 * cached across kernels (here it is measured before every run and checked
 * to within CT_LAT_CALIB_TOL).
 */
#ifndef CONTEND_LATENCY_H
#define CONTEND_LATENCY_H

#include "contend/common.h"
#include "contend/hist.h"

#define CT_LAT_MAX_TASKS 5
#define CT_LAT_CALIB_TOL 0.02 /* a calibration is checked to +-2% */
#define CT_LAT_X_STEPS	 11   /* x: 0, 10, ..., 100% of its period */
#define CT_LAT_NAME	 8

struct ct_lat_task {
	char name[CT_LAT_NAME]; /* audio, video, x, gaming, custom */
	int64_t period_ns;
	double cpu;    /* share of the period burnt, 0..1 (x: its largest) */
	bool cycle;    /* x: 0, 10, ..., 100% of the period over successive periods */
	bool deadline; /* false for gaming: frames back to back, latency = overrun */
};

/* The tasks of a comma-separated list ("audio,video"); custom takes cpu
 * (percent, 0 < cpu <= 100) and period (ns). 0, or -EINVAL with one line in
 * err naming the task. */
int ct_lat_tasks_parse(const char *list, double cpu_pct, int64_t period_ns, struct ct_lat_task *out,
		       size_t *n, char *err, size_t len) CT_WUR;

/* Burns n iterations of the calibrated loop. */
void ct_lat_burn(uint64_t n);

/* Loops per microsecond of this thread's CPU time: the best of several
 * timed bursts, then checked by burning a known time (CT_LAT_CALIB_TOL);
 * tried up to 20 times, 100 ms apart. 0 with *loops_per_us, or -EAGAIN (the machine would
 * not hold still) with one line in err. */
int ct_lat_calibrate(double *loops_per_us, double *check_err, char *err, size_t len) CT_WUR;

/* What one task measured over its run. */
struct ct_lat_result {
	struct ct_hist lat; /* wakeup latency (gaming: overrun), ns */
	uint64_t periods;   /* periods that began (intended start passed) */
	uint64_t met;	    /* of those, finished by their deadline */
	uint64_t dropped;   /* began after their deadline: no work done */
	double desired_us;  /* CPU work asked for, microseconds */
	double done_us;	    /* CPU work done */
	int64_t elapsed_ns;
};

/* Per-period accounting, apart from the clock so tests can script it.
 * intended: when the period should have begun; woke: when it began; done:
 * when its work ended (== woke when dropped); work_us its CPU work. */
void ct_lat_account(struct ct_lat_result *r, const struct ct_lat_task *t, int64_t intended,
		    int64_t woke, int64_t done, double work_us, bool dropped);

/* The work of a period: burns work_us at loops_per_us unless a test
 * replaces it (sleeps scripted to overrun). */
struct ct_lat_work {
	void (*fn)(void *arg, uint64_t period, double work_us);
	void *arg;
};

/* Runs task t for duration_ns: sleep to each period's start with
 * clock_nanosleep(TIMER_ABSTIME), record the wakeup latency, burn the
 * period's share, account the deadline. A period whose deadline passed
 * before it could begin is dropped (missed, its latency still recorded).
 * work may be NULL. */
void ct_lat_run(const struct ct_lat_task *t, double loops_per_us, int64_t duration_ns,
		const struct ct_lat_work *work, struct ct_lat_result *r);

/* Share of the desired CPU done (gaming: of the wall time) and of
 * deadlines met, in percent (NaN when nothing was asked for, or the task
 * has no deadlines). */
double ct_lat_cpu_pct(const struct ct_lat_result *r, const struct ct_lat_task *t);
double ct_lat_met_pct(const struct ct_lat_result *r, const struct ct_lat_task *t);

/* The wakeup probe: sleeps to every period_ns with TIMER_ABSTIME and adds
 * each wakeup's lateness to h until *stop is set (a signal handler's flag);
 * a wakeup later than a whole period skips the periods it missed.
 * realtime: SCHED_FIFO (cyclictest's -p) at priority 98. Memory is locked
 * first (cyclictest -m). 0, or -errno when SCHED_FIFO was refused. */
int ct_lat_probe(int64_t period_ns, bool realtime, struct ct_hist *h, volatile int *stop) CT_WUR;

#endif
