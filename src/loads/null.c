/*
 * A load that does nothing but tick, for testing the harness itself (start,
 * readiness, stall detection, stop) without disk or CPU noise. Hidden from
 * listings and default suites.
 */
#include "loads.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define NULL_TICK_NS (10 * 1000000LL)

static int null_prepare(struct ct_load *l, char *err, size_t len)
{
	int64_t tick = l->env->null_tick_ns > 0 ? l->env->null_tick_ns : NULL_TICK_NS;

	l->nworkers = 1;
	l->size = (uint64_t)tick;
	snprintf(l->params, sizeof(l->params), "tick=%.3gms", (double)tick / 1e6);
	return 0;
}

static int null_work(struct ct_load *l, unsigned i)
{
	int64_t tick = (int64_t)l->size;
	struct timespec ts = { tick / 1000000000LL, tick % 1000000000LL };

	for (;;) {
		if (nanosleep(&ts, NULL) && errno != EINTR)
			return ct_load_fail(l, "null: cannot sleep: %s", strerror(errno));
		ct_load_add(l, 1);
	}
}

const struct ct_load_ops ct_load_null = {
	.name = "null",
	.summary = "ticks and does nothing else; tests the load harness",
	.work_unit = "ticks",
	.unit_scale = 1,
	.flags = CT_LOAD_HIDDEN,
	.prepare = null_prepare,
	.work = null_work,
};
