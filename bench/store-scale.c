/*
 * store-scale TARGET LABELS SESSIONS RUNS [MACHINES]: a fleet-sized store
 * written through contend's store layer (ct_store_*), so it holds what
 * contend itself would: LABELS configs spread over MACHINES machines
 * (default 20), each with SESSIONS complete sessions a day apart, each of
 * RUNS runs of `-w cmd` under load none - a Time around 2.5 s with 2% of
 * noise, a session's own level moving 1%, and every fortieth label 10%
 * slower from its sessions' middle on. One transaction a session. Prints
 * the seconds it took and the runs stored per second. bench/store-scale.sh
 * times contend's readers on what it makes.
 */
#include "contend/store.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A normal deviate (Box-Muller) from rand_r's state. */
static double gauss(unsigned *seed)
{
	double u = (rand_r(seed) + 1.0) / ((double)RAND_MAX + 2.0);
	double v = (rand_r(seed) + 1.0) / ((double)RAND_MAX + 2.0);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* One complete session of label on machine m, started at t. */
static int put_session(struct ct_store *st, int64_t cfg, const char *label, long m, int64_t t,
		       long runs, double level, unsigned *seed, char *err, size_t len)
{
	struct ct_session_rec rec = { .config_id = cfg, .started_at = t };
	struct ct_run r;
	int rc;

	snprintf(rec.argv, sizeof(rec.argv), "contend run -w cmd -l none -n %ld -L %s -- ./bench",
		 runs, label);
	snprintf(rec.workload, sizeof(rec.workload), "cmd");
	snprintf(rec.profile, sizeof(rec.profile), "full");
	snprintf(rec.owner.host, sizeof(rec.owner.host), "host%02ld", m);
	snprintf(rec.owner.machine, sizeof(rec.owner.machine), "%08lx%024d", 0xc0ffee00L + m, 0);
	rc = ct_store_begin(st, err, len);
	if (!rc)
		rc = ct_store_session_begin(st, &rec, err, len);
	for (long i = 0; !rc && i < runs; i++) {
		memset(&r, 0, sizeof(r));
		r.session_id = rec.id;
		r.config_id = cfg;
		snprintf(r.workload, sizeof(r.workload), "cmd");
		snprintf(r.load, sizeof(r.load), "none");
		snprintf(r.workload_params, sizeof(r.workload_params), "argv=./bench");
		r.seq = (unsigned)i + 1;
		r.status = CT_RUN_OK;
		r.started_at = t + i * 3000000000LL;
		r.wall_ns = (int64_t)(2.5e9 * level * (1 + 0.02 * gauss(seed)));
		r.user_us = r.wall_ns / 2000;
		r.sys_us = r.wall_ns / 20000;
		r.mon.start_cpu_speed = 480.5;
		rc = ct_store_run_put(st, &r, err, len);
	}
	if (!rc)
		rc = ct_store_commit(st, err, len);
	else
		ct_store_rollback(st);
	if (!rc)
		rc = ct_store_session_end(st, rec.id, CT_SESSION_COMPLETE, err, len);
	return rc;
}

int main(int argc, char **argv)
{
	char err[CT_ERRLEN] = "", label[32];
	long labels, sessions, runs, machines = 20;
	const int64_t day = 86400LL * 1000000000LL, t0 = 1767225600LL * 1000000000LL;
	unsigned seed = 20261206;
	int64_t *cfg = NULL;
	struct ct_store *st;
	double start;
	int rc = 0;

	if (argc < 5 || argc > 6) {
		fprintf(stderr, "usage: store-scale TARGET LABELS SESSIONS RUNS [MACHINES]\n");
		return 2;
	}
	labels = atol(argv[2]);
	sessions = atol(argv[3]);
	runs = atol(argv[4]);
	if (argc == 6)
		machines = atol(argv[5]);
	if (labels < 1 || sessions < 1 || runs < 1 || machines < 1) {
		fprintf(stderr,
			"store-scale: LABELS, SESSIONS, RUNS and MACHINES are at least 1\n");
		return 2;
	}
	start = now();
	if (ct_store_open(&st, argv[1], CT_STORE_CREATE, err, sizeof(err))) {
		fprintf(stderr, "store-scale: %s\n", err);
		return 3;
	}
	cfg = calloc((size_t)labels, sizeof(*cfg));
	if (!cfg)
		rc = ct_err(err, sizeof(err), -ENOMEM, "out of memory");
	for (long l = 0; !rc && l < labels; l++) {
		struct ct_sysinfo si;

		memset(&si, 0, sizeof(si));
		snprintf(si.kernel_release, sizeof(si.kernel_release), "6.18.%ld", l);
		snprintf(si.fingerprint, sizeof(si.fingerprint), "%016lx", 0xfeed0000L + l);
		snprintf(label, sizeof(label), "L%ld", l + 1);
		rc = ct_store_config_put(st, label, &si, &cfg[l], err, sizeof(err));
	}
	/* a night at a time, every label's session in turn: the ids
	 * interleave as a fleet's nightly writes do */
	for (long k = 0; !rc && k < sessions; k++)
		for (long l = 0; !rc && l < labels; l++) {
			double level = exp(0.01 * gauss(&seed));

			if (l % 40 == 39 && k >= sessions / 2)
				level *= 1.10;
			snprintf(label, sizeof(label), "L%ld", l + 1);
			rc = put_session(st, cfg[l], label, l % machines,
					 t0 + k * day + l * 60000000000LL, runs, level, &seed, err,
					 sizeof(err));
		}
	free(cfg);
	ct_store_close(st);
	if (rc) {
		fprintf(stderr, "store-scale: %s\n", err);
		return 3;
	}
	printf("%ld runs in %ld sessions stored in %.1f s (%.0f runs/s)\n",
	       labels * sessions * runs, labels * sessions, now() - start,
	       (double)(labels * sessions * runs) / (now() - start));
	return 0;
}
