/*
 * The oltp workload: WimMark's database workload without a database. The
 * engine (src/oltp) runs in the forked foreground; its result comes back
 * through a shared mapping and becomes the run's metrics, with tps as the
 * figure the run is judged by. With --buffered each run gets a fresh
 * memory-limited cgroup, so the kernel's reclaim is what is measured.
 */
#include "contend/oltp.h"
#include "contend/proc.h"
#include "contend/run.h"
#include "contend/util.h"
#include "contend/workload.h"
#include "workloads.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct oltp_wl {
	struct ct_oltp_params p;
	struct ct_oltp_result *res; /* MAP_SHARED with the foreground */
	struct ct_memcg cg;
	unsigned nrun;
};

static int check_memcg(struct oltp_wl *o, char *err, size_t len)
{
	struct ct_memcg cg;
	char name[64], why[CT_ERRLEN];
	int rc;

	snprintf(name, sizeof(name), "contend-oltp-%d-check", (int)getpid());
	rc = ct_memcg_create(&cg, name, o->p.mem_limit, why, sizeof(why));
	if (rc)
		return ct_err(err, len, rc == -ENOTSUP ? -ENOTSUP : -EPERM,
			      "oltp --buffered needs a memory cgroup: %s", why);
	ct_memcg_destroy(&cg);
	return 0;
}

static int oltp_check(const struct ct_env *env, const struct ct_workload_opts *wo, const char *dir,
		      char *err, size_t len)
{
	static const struct ct_oltp_opts none;
	struct ct_oltp_params p;

	return ct_oltp_resolve(env->oltp ? env->oltp : &none, dir, env->ncpus, env->quick, false,
			       &p, err, len);
}

/* The parameters without the data file, which takes minutes to make. */
static int oltp_describe(const struct ct_env *env, const struct ct_workload_opts *wo,
			 const char *dir, char *params, size_t plen, char *err, size_t len)
{
	static const struct ct_oltp_opts none;
	struct ct_oltp_params p;
	int rc;

	(void)wo;
	rc = ct_oltp_resolve(env->oltp ? env->oltp : &none, dir, env->ncpus, env->quick, false, &p,
			     err, len);
	if (!rc)
		ct_oltp_describe(&p, params, plen);
	return rc;
}

static int oltp_prepare(struct ct_workload *w, char *err, size_t len)
{
	static const struct ct_oltp_opts none;
	const struct ct_oltp_opts *opts = w->env->oltp ? w->env->oltp : &none;
	struct oltp_wl *o = calloc(1, sizeof(*o));
	int rc;

	if (!o)
		return ct_err(err, len, -ENOMEM, "out of memory");
	rc = ct_oltp_resolve(opts, w->dir, w->env->ncpus, w->env->quick, false, &o->p, err, len);
	if (!rc && o->p.buffered)
		rc = check_memcg(o, err, len);
	if (!rc)
		rc = ct_oltp_create(&o->p, err, len);
	if (rc) {
		free(o);
		return rc;
	}
	o->res = mmap(NULL, sizeof(*o->res), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
		      0);
	if (o->res == MAP_FAILED) {
		rc = -errno;
		ct_oltp_remove(&o->p);
		free(o);
		return ct_err(err, len, rc, "cannot map the oltp result: %s", strerror(-rc));
	}
	ct_oltp_describe(&o->p, w->params, sizeof(w->params));
	w->priv = o;
	return 0;
}

static int oltp_reset(struct ct_workload *w, char *err, size_t len)
{
	struct oltp_wl *o = w->priv;
	char name[64];

	memset(o->res, 0, sizeof(*o->res));
	ct_memcg_destroy(&o->cg);
	if (!o->p.buffered)
		return 0;
	ct_oltp_uncache(&o->p);
	snprintf(name, sizeof(name), "contend-oltp-%d-%u", (int)getpid(), ++o->nrun);
	return ct_memcg_create(&o->cg, name, o->p.mem_limit, err, len);
}

static void print_result(const struct ct_oltp_result *r)
{
	static const char *const cls[] = { "page read", "DB write", "log write" };

	printf("tps %.2f over %.1f s (%llu transactions), ramp-up %.1f s (%s)\n", r->tps,
	       (double)r->measured_ns / 1e9, (unsigned long long)r->txns, (double)r->ramp_ns / 1e9,
	       r->ramp_steady ? "steady" : "capped");
	printf("latency ms: p50 %.3f p90 %.3f p99 %.3f p99.9 %.3f max %.3f\n", r->lat_p50 / 1e6,
	       r->lat_p90 / 1e6, r->lat_p99 / 1e6, r->lat_p999 / 1e6, r->lat_max / 1e6);
	for (int c = 0; c < CT_OLTP_NCLASS; c++)
		printf("%-9s: %.0f IOPS %.1f MB/s p50 %.3f p99 %.3f ms\n", cls[c], r->cls[c].iops,
		       r->cls[c].mbps, r->cls[c].p50 / 1e6, r->cls[c].p99 / 1e6);
	fflush(stdout);
}

__attribute__((noreturn)) static void oltp_exec(struct ct_workload *w)
{
	struct oltp_wl *o = w->priv;
	char err[CT_ERRLEN];
	int rc;

	if (o->cg.version && ct_memcg_attach(&o->cg, getpid())) {
		fprintf(stderr, "oltp: cannot join memory cgroup '%s'\n", o->cg.path);
		_exit(3);
	}
	rc = ct_oltp_run(&o->p, o->res, NULL, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "%s\n", err);
		_exit(1);
	}
	print_result(o->res);
	_exit(0);
}

static void metric(struct ct_run *r, const char *name, double v)
{
	if (isfinite(v))
		(void)ct_run_metric_set(r, name, v);
}

static void oltp_collect(struct ct_workload *w, struct ct_run *r)
{
	static const char *const cls[] = { "read", "dbw", "log" };
	struct oltp_wl *o = w->priv;
	const struct ct_oltp_result *res = o->res;
	char name[32];

	if (o->cg.version) {
		int64_t peak = ct_memcg_peak(&o->cg);

		if (peak >= 0)
			metric(r, "mem_peak", (double)peak);
		metric(r, "mem_limit", (double)o->p.mem_limit);
		ct_memcg_destroy(&o->cg);
	}
	if (!res->done)
		return;
	metric(r, CT_METRIC_TPS, res->tps);
	metric(r, "txns", (double)res->txns);
	metric(r, "measured_s", (double)res->measured_ns / 1e9);
	metric(r, "ramp_s", (double)res->ramp_ns / 1e9);
	metric(r, "ramp_steady", res->ramp_steady);
	metric(r, "lat_p50_us", (double)res->lat_p50 / 1e3);
	metric(r, "lat_p90_us", (double)res->lat_p90 / 1e3);
	metric(r, "lat_p99_us", (double)res->lat_p99 / 1e3);
	metric(r, "lat_p999_us", (double)res->lat_p999 / 1e3);
	metric(r, "lat_max_us", (double)res->lat_max / 1e3);
	metric(r, "lat_mean_us", res->lat_mean / 1e3);
	for (int c = 0; c < CT_OLTP_NCLASS; c++) {
		const struct ct_oltp_class *k = &res->cls[c];

		snprintf(name, sizeof(name), "%s_iops", cls[c]);
		metric(r, name, k->iops);
		snprintf(name, sizeof(name), "%s_mbps", cls[c]);
		metric(r, name, k->mbps);
		snprintf(name, sizeof(name), "%s_p50_us", cls[c]);
		metric(r, name, (double)k->p50 / 1e3);
		snprintf(name, sizeof(name), "%s_p99_us", cls[c]);
		metric(r, name, (double)k->p99 / 1e3);
		snprintf(name, sizeof(name), "%s_p999_us", cls[c]);
		metric(r, name, (double)k->p999 / 1e3);
	}
	metric(r, "hit_ratio", res->hit_ratio);
	metric(r, "group_mean", res->group_mean);
	metric(r, "stall_s", (double)res->stall_ns / 1e9);
	metric(r, "client_writes", (double)res->client_writes);
	metric(r, "user_s", (double)res->user_us / 1e6);
	metric(r, "sys_s", (double)res->sys_us / 1e6);
	r->series = res->series;
	r->nseries = res->nseries;
}

static void oltp_cleanup(struct ct_workload *w)
{
	struct oltp_wl *o = w->priv;

	if (!o)
		return;
	ct_memcg_destroy(&o->cg);
	if (!w->env->keep_files)
		ct_oltp_remove(&o->p);
	munmap(o->res, sizeof(*o->res));
	free(o);
	w->priv = NULL;
}

const struct ct_workload_ops ct_workload_oltp = {
	.name = "oltp",
	.summary = "WimMark-style OLTP engine: O_DIRECT pages, buffer pool, group commit (tps)",
	.flags = CT_WL_OWN_WARMUP | CT_WL_SCORED | CT_WL_PROFILED,
	.options = ct_oltp_options,
	/* WimMark measured the database alone; loads on request */
	.default_loads = "none",
	.check = oltp_check,
	.describe = oltp_describe,
	.prepare = oltp_prepare,
	.reset = oltp_reset,
	.exec = oltp_exec,
	.collect = oltp_collect,
	.cleanup = oltp_cleanup,
};
