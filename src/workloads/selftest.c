/*
 * A foreground for testing contend itself: a fixed amount of CPU work, a
 * sleep, or an immediate failure, with no compiler or files involved, so the
 * harness's own tests are quick and their outcome is known in advance.
 */
#include "contend/workload.h"
#include "contend/option.h"
#include "workloads.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SELFTEST_SECONDS 0.2
#define SELFTEST_FAIL	 3

enum { MODE_SPIN, MODE_SLEEP, MODE_FAIL };

static const char *const modes[] = {
	[MODE_SPIN] = "spin", [MODE_SLEEP] = "sleep", [MODE_FAIL] = "fail"
};

static const struct ct_option_choice mode_words[] = {
	{ "spin", MODE_SPIN },
	{ "sleep", MODE_SLEEP },
	{ "fail", MODE_FAIL },
	{ NULL, 0 },
};

static const struct ct_option selftest_options[] = {
	{ .type = CT_OPTION_DOUBLE,
	  .name = "scale",
	  .in = CT_OPTION_IN_WORKLOAD,
	  .off = offsetof(struct ct_workload_opts, scale),
	  .argh = "X",
	  .help = "seconds a run takes (default 0.2; %R)",
	  .min = 0,
	  .max = 1000,
	  .flags = CT_OPTION_MIN_OPEN },
	{ .type = CT_OPTION_WORD,
	  .name = "selftest-mode",
	  .in = CT_OPTION_IN_WORKLOAD,
	  .off = offsetof(struct ct_workload_opts, mode),
	  .argh = "M",
	  .help = "spin (default), sleep or fail",
	  .choices = mode_words },
	CT_OPTION_DONE,
};

static int selftest_prepare(struct ct_workload *w, char *err, size_t len)
{
	const char *mode = w->opts.mode ? w->opts.mode : modes[MODE_SPIN];
	double s = w->opts.scale ? w->opts.scale : SELFTEST_SECONDS;
	int m;

	for (m = 0; m < (int)CT_ARRAY_SIZE(modes); m++)
		if (!strcmp(mode, modes[m]))
			break;
	if (m == (int)CT_ARRAY_SIZE(modes))
		return ct_err(err, len, -EINVAL, "selftest: unknown mode '%s'", mode);
	if (!isfinite(s) || s < 0 || s > 86400)
		return ct_err(err, len, -EINVAL, "selftest: bad duration %g", s);
	/* Two plain fields rather than a malloc'd priv: nothing to free. */
	w->opts.mode = modes[m];
	w->opts.scale = s;
	snprintf(w->params, sizeof(w->params), "mode=%s seconds=%.2f", modes[m], s);
	return 0;
}

static int64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Burns a fixed amount of CPU time rather than of wall time, so that under
 * a CPU load the run takes longer, as real work would. */
static void spin(double seconds)
{
	int64_t end = clock_ns(CLOCK_PROCESS_CPUTIME_ID) + (int64_t)(seconds * 1e9);
	volatile uint64_t sink;
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	do {
		for (int i = 0; i < 20000; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
		sink = x;
	} while (clock_ns(CLOCK_PROCESS_CPUTIME_ID) < end);
	(void)sink;
}

static void nap(double seconds)
{
	int64_t end = clock_ns(CLOCK_MONOTONIC) + (int64_t)(seconds * 1e9);
	struct timespec ts = { .tv_sec = end / 1000000000, .tv_nsec = end % 1000000000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

__attribute__((noreturn)) static void selftest_exec(struct ct_workload *w)
{
	const char *mode = w->opts.mode ? w->opts.mode : modes[MODE_SPIN];
	double s = w->opts.scale ? w->opts.scale : SELFTEST_SECONDS;

	if (!strcmp(mode, modes[MODE_FAIL]))
		_exit(SELFTEST_FAIL);
	if (!strcmp(mode, modes[MODE_SLEEP]))
		nap(s);
	else
		spin(s);
	_exit(0);
}

const struct ct_workload_ops ct_workload_selftest = {
	.name = "selftest",
	.summary = "harness self-test: spin, sleep or fail (opts.scale seconds)",
	.options = selftest_options,
	.prepare = selftest_prepare,
	.exec = selftest_exec,
};
