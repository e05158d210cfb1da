/*
 * store-bench TARGET WRITERS RUNS: WRITERS processes each open the store
 * TARGET (a SQLite path or a PostgreSQL URI), store a config and a session,
 * then RUNS runs one transaction each, as contend run does - a kbuild run's
 * columns, with a 60-value series on every tenth - and end the session.
 * Prints the seconds from the first open to the last commit and the runs
 * stored per second. bench/store.sh runs it against both backends.
 */
#include "contend/store.h"
#include "contend/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int writer(const char *target, int w, long runs)
{
	static double series[60];
	char err[CT_ERRLEN] = "", label[32];
	struct ct_session_rec rec;
	struct ct_sysinfo si;
	struct ct_store *st;
	struct ct_run r;
	int64_t cfg;

	if (ct_store_open(&st, target, CT_STORE_CREATE, err, sizeof(err)))
		goto fail;
	memset(&si, 0, sizeof(si));
	snprintf(si.kernel_release, sizeof(si.kernel_release), "6.1.0-bench");
	snprintf(si.fingerprint, sizeof(si.fingerprint), "%016x", w + 1);
	snprintf(label, sizeof(label), "bench-%d", w);
	if (ct_store_config_put(st, label, &si, &cfg, err, sizeof(err)))
		goto fail;
	memset(&rec, 0, sizeof(rec));
	rec.config_id = cfg;
	snprintf(rec.argv, sizeof(rec.argv), "contend run -L %s", label);
	snprintf(rec.workload, sizeof(rec.workload), "kbuild");
	snprintf(rec.profile, sizeof(rec.profile), "full");
	if (ct_store_session_begin(st, &rec, err, sizeof(err)))
		goto fail;
	for (size_t i = 0; i < 60; i++)
		series[i] = 1000.0 + (double)i;
	for (long i = 0; i < runs; i++) {
		memset(&r, 0, sizeof(r));
		r.session_id = rec.id;
		r.config_id = cfg;
		snprintf(r.workload, sizeof(r.workload), "kbuild");
		snprintf(r.load, sizeof(r.load), "io");
		snprintf(r.workload_params, sizeof(r.workload_params), "files=16 scale=1 jobs=8");
		snprintf(r.load_params, sizeof(r.load_params), "file=23.5GiB");
		r.seq = (unsigned)i + 1;
		r.status = CT_RUN_OK;
		r.started_at = ct_wall_ns();
		r.wall_ns = 19000000000LL + i;
		r.user_us = 30000000;
		r.sys_us = 4000000;
		r.load_work = 40000000000ULL;
		r.load_unit_scale = 1e6;
		r.mon.have_psi = true;
		r.mon.psi_us[1][0] = 1234567;
		r.mon.start_cpu_speed = 480.5;
		if (i % 10 == 9) {
			r.series = series;
			r.nseries = 60;
		}
		if (ct_store_run_put(st, &r, err, sizeof(err)))
			goto fail;
	}
	if (ct_store_session_end(st, rec.id, CT_SESSION_COMPLETE, err, sizeof(err)))
		goto fail;
	ct_store_close(st);
	return 0;
fail:
	fprintf(stderr, "store-bench: writer %d: %s\n", w, err);
	return 1;
}

int main(int argc, char **argv)
{
	int writers, bad = 0, status;
	long runs;
	double t0, t;

	if (argc != 4 || (writers = atoi(argv[2])) < 1 || (runs = atol(argv[3])) < 1) {
		fprintf(stderr, "usage: store-bench TARGET WRITERS RUNS\n");
		return 2;
	}
	t0 = now();
	for (int w = 0; w < writers; w++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(writer(argv[1], w, runs));
		if (pid < 0) {
			perror("store-bench: fork");
			return 1;
		}
	}
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			bad++;
	t = now() - t0;
	if (bad)
		return 1;
	printf("%.3f s %.1f runs/s\n", t, (double)writers * (double)runs / t);
	return 0;
}
