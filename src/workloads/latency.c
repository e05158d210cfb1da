/*
 * The latency workload: interbench's question - does audio skip, does
 * video drop frames while the load runs? - asked with repeated runs. The
 * forked foreground runs each task of --task in turn for --duration; the
 * results come back through a shared mapping and become the run's metrics
 * (per task: mean, p50, p90, p99, p99.9 and max latency, desired CPU and
 * deadlines met) and histograms. The burn loop is calibrated in contend
 * before every run, before its load starts, so a change of config, CPU
 * frequency or kernel is never burnt with a stale calibration.
 */
#include "contend/latency.h"
#include "contend/run.h"
#include "contend/util.h"
#include "contend/workload.h"
#include "contend/option.h"
#include "workloads.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define FULL_NS	 10000000000LL /* each task's time in a run */
#define QUICK_NS 3000000000LL

struct lat_shared {
	struct ct_lat_result res[CT_LAT_MAX_TASKS];
	unsigned ndone;
};

struct lat_wl {
	struct ct_lat_task tasks[CT_LAT_MAX_TASKS];
	size_t ntasks;
	int64_t duration_ns;
	double loops_per_us, calib_err;
	struct lat_shared *sh; /* MAP_SHARED with the foreground */
};

static int resolve(const struct ct_env *env, const struct ct_workload_opts *o, struct lat_wl *l,
		   char *err, size_t len)
{
	int rc = ct_lat_tasks_parse(o->tasks ? o->tasks : "audio", o->task_cpu, o->task_period_ns,
				    l->tasks, &l->ntasks, err, len);

	if (rc)
		return rc;
	if ((o->task_cpu || o->task_period_ns) && !(o->tasks && strstr(o->tasks, "custom")))
		return ct_err(err, len, -EINVAL, "--cpu and --period describe --task custom");
	l->duration_ns = o->duration_ns ? o->duration_ns : env->quick ? QUICK_NS : FULL_NS;
	for (size_t i = 0; i < l->ntasks; i++)
		if (l->duration_ns < 2 * l->tasks[i].period_ns)
			return ct_err(err, len, -EINVAL,
				      "--duration %.3f s is under two periods of task %s",
				      (double)l->duration_ns / 1e9, l->tasks[i].name);
	return 0;
}

static int lat_check(const struct ct_env *env, const struct ct_workload_opts *o, const char *dir,
		     char *err, size_t len)
{
	struct lat_wl l;

	(void)dir;
	return resolve(env, o, &l, err, len);
}

static int lat_prepare(struct ct_workload *w, char *err, size_t len)
{
	struct lat_wl *l = calloc(1, sizeof(*l));
	size_t off;
	int rc;

	if (!l)
		return ct_err(err, len, -ENOMEM, "out of memory");
	rc = resolve(w->env, &w->opts, l, err, len);
	if (rc) {
		free(l);
		return rc;
	}
	l->sh = mmap(NULL, sizeof(*l->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
		     0);
	if (l->sh == MAP_FAILED) {
		rc = -errno;
		free(l);
		return ct_err(err, len, rc, "cannot map the latency results: %s", strerror(-rc));
	}
	/* what identifies the work: the tasks, their shares, the time */
	off = (size_t)snprintf(w->params, sizeof(w->params), "tasks=");
	for (size_t i = 0; i < l->ntasks && off < sizeof(w->params); i++)
		off += (size_t)snprintf(w->params + off, sizeof(w->params) - off, "%s%s",
					i ? "," : "", l->tasks[i].name);
	for (size_t i = 0; i < l->ntasks && off < sizeof(w->params); i++)
		if (!strcmp(l->tasks[i].name, "custom"))
			off += (size_t)snprintf(w->params + off, sizeof(w->params) - off,
						" cpu=%g%% period=%gms", l->tasks[i].cpu * 100,
						(double)l->tasks[i].period_ns / 1e6);
	if (off < sizeof(w->params))
		snprintf(w->params + off, sizeof(w->params) - off, " duration=%gs",
			 (double)l->duration_ns / 1e9);
	w->priv = l;
	return 0;
}

/* Before each run, before its load: the calibration this run burns by. */
static int lat_reset(struct ct_workload *w, char *err, size_t len)
{
	struct lat_wl *l = w->priv;

	memset(l->sh, 0, sizeof(*l->sh));
	return ct_lat_calibrate(&l->loops_per_us, &l->calib_err, err, len);
}

__attribute__((noreturn)) static void lat_exec(struct ct_workload *w)
{
	struct lat_wl *l = w->priv;

	for (size_t i = 0; i < l->ntasks; i++) {
		const struct ct_lat_task *t = &l->tasks[i];
		struct ct_lat_result *r = &l->sh->res[i];

		ct_lat_run(t, l->loops_per_us, l->duration_ns, NULL, r);
		l->sh->ndone = (unsigned)i + 1;
		printf("%s: %llu periods, latency us mean %.1f p50 %.1f p99 %.1f max %.1f, "
		       "cpu %.1f%%, deadlines met %.1f%% (%llu dropped)\n",
		       t->name, (unsigned long long)r->periods, ct_hist_mean(&r->lat) / 1e3,
		       (double)ct_hist_pct(&r->lat, 50) / 1e3,
		       (double)ct_hist_pct(&r->lat, 99) / 1e3, (double)r->lat.max / 1e3,
		       ct_lat_cpu_pct(r, t), ct_lat_met_pct(r, t), (unsigned long long)r->dropped);
		fflush(stdout);
	}
	_exit(0);
}

static void metric(struct ct_run *r, const char *task, const char *name, double v)
{
	char full[CT_METRIC_NAME];

	snprintf(full, sizeof(full), "%s%s%s", task, *task ? "_" : "", name);
	if (isfinite(v))
		(void)ct_run_metric_set(r, full, v);
}

static void lat_collect(struct ct_workload *w, struct ct_run *r)
{
	struct lat_wl *l = w->priv;

	metric(r, "", "loops_per_us", l->loops_per_us);
	metric(r, "", "calib_err_pct", l->calib_err * 100);
	for (unsigned i = 0; i < l->sh->ndone && i < l->ntasks; i++) {
		const struct ct_lat_task *t = &l->tasks[i];
		const struct ct_lat_result *res = &l->sh->res[i];
		const struct ct_hist *h = &res->lat;

		if (!i)
			metric(r, "", CT_METRIC_LATENCY, (double)ct_hist_pct(h, 99) / 1e3);
		metric(r, t->name, "mean_us", ct_hist_mean(h) / 1e3);
		metric(r, t->name, "p50_us", (double)ct_hist_pct(h, 50) / 1e3);
		metric(r, t->name, "p90_us", (double)ct_hist_pct(h, 90) / 1e3);
		metric(r, t->name, "p99_us", (double)ct_hist_pct(h, 99) / 1e3);
		metric(r, t->name, "p999_us", (double)ct_hist_pct(h, 99.9) / 1e3);
		metric(r, t->name, "max_us", (double)h->max / 1e3);
		metric(r, t->name, "cpu_pct", ct_lat_cpu_pct(res, t));
		metric(r, t->name, "met_pct", ct_lat_met_pct(res, t));
		if (r->nhists < CT_RUN_MAX_HISTS) {
			snprintf(r->hists[r->nhists].name, CT_HIST_NAME, "%s", t->name);
			r->hists[r->nhists++].h = h;
		}
	}
	/* a foreground that ended before its last task measured less than
	 * the others: it failed (its exit status says why) */
}

static void lat_cleanup(struct ct_workload *w)
{
	struct lat_wl *l = w->priv;

	if (!l)
		return;
	munmap(l->sh, sizeof(*l->sh));
	free(l);
	w->priv = NULL;
}

static const struct ct_option latency_options[] = {
	{ .type = CT_OPTION_STRING,
	  .name = "task",
	  .in = CT_OPTION_IN_WORKLOAD,
	  .off = offsetof(struct ct_workload_opts, tasks),
	  .argh = "LIST",
	  .help = "tasks run in turn: audio (50 ms, 5%), video (60 Hz, 40%),\nx (100 ms, "
		  "0-100%), gaming (100 ms frames, no deadline),\ncustom (--cpu, --period); "
		  "default audio",
	  .doc = "interbench's tasks: audio wakes every 50 ms and needs 5% of a CPU; x has a "
		 "100 ms period and needs from 0 to 100% in steps of 10%; gaming's latency is a "
		 "frame's overrun. Each run calibrates its CPU burn first, to within 2%, before "
		 "its load starts. Each task's wakeup latency (mean, p50, p90, p99, p99.9, max), "
		 "the share of the desired CPU it got and of its deadlines it met are kept with "
		 "the run, with its histogram; a run is judged by the first task's p99, and "
		 "compare judges each task's deadlines met (and the other tasks' p99) beside it, "
		 "in the same Holm family." },
	CT_WORKLOAD_OPTION(CT_OPTION_DOUBLE, "cpu", task_cpu, "PCT",
			   "the custom task's share of a CPU, %R", 0, 100, CT_OPTION_MIN_OPEN),
	CT_WORKLOAD_OPTION(CT_OPTION_DURATION, "period", task_period_ns, "D",
			   "the custom task's period, %R", 100000, 10000000000.0, 0),
	CT_WORKLOAD_OPTION(CT_OPTION_DURATION, "duration", duration_ns, "D",
			   "each task's time in a run (default 10s, quick 3s; %R)", 0, INFINITY,
			   CT_OPTION_MIN_OPEN),
	CT_OPTION_DONE,
};

const struct ct_workload_ops ct_workload_latency = {
	.name = "latency",
	.summary = "interactive tasks (audio, video, x, gaming, custom): wakeup latency, "
		   "deadlines met",
	.flags = CT_WL_PROFILED,
	.options = latency_options,
	.default_loads = NULL,
	.check = lat_check,
	.prepare = lat_prepare,
	.reset = lat_reset,
	.exec = lat_exec,
	.collect = lat_collect,
	.cleanup = lat_cleanup,
};
