/*
 * Derived figures of a run - CPU%, Loads, LCPU% - computed in one place so
 * the text table, JSON and later reports can never disagree about them.
 */
#include "contend/run.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const ct_run_status_names[CT_RUN_NSTATUS] = {
	[CT_RUN_OK] = "ok",
	[CT_RUN_FAILED] = "failed",
	[CT_RUN_INTERRUPTED] = "interrupted",
};

const char *ct_run_status_name(enum ct_run_status s)
{
	return ct_enum_name(ct_run_status_names, CT_RUN_NSTATUS, s);
}

int ct_run_status_parse(const char *s, enum ct_run_status *out)
{
	unsigned v;
	int rc = ct_enum_parse(ct_run_status_names, CT_RUN_NSTATUS, s, &v);

	if (!rc)
		*out = (enum ct_run_status)v;
	return rc;
}

double ct_run_time_s(const struct ct_run *r)
{
	return (double)r->wall_ns / 1e9;
}

double ct_run_cpu_pct(const struct ct_run *r)
{
	if (r->wall_ns <= 0)
		return 0;
	return (double)(r->user_us + r->sys_us) * 1e3 / (double)r->wall_ns * 100.0;
}

double ct_run_loads(const struct ct_run *r)
{
	/* no scale: the load counts no work (a --load-cmd without --load-work) */
	if (r->load_unit_scale <= 0)
		return NAN;
	return (double)r->load_work / r->load_unit_scale;
}

double ct_run_lcpu_pct(const struct ct_run *r)
{
	if (r->wall_ns <= 0)
		return 0;
	return (double)(r->load_user_us + r->load_sys_us) * 1e3 / (double)r->wall_ns * 100.0;
}

void ct_run_group(const struct ct_run *runs, size_t n, struct ct_run_group *g)
{
	memset(g, 0, sizeof(*g));
	for (size_t i = 0; i < n; i++) {
		if (runs[i].status != CT_RUN_OK) {
			g->nfailed++;
			continue;
		}
		g->n++;
		g->time_s += ct_run_time_s(&runs[i]);
		g->cpu_pct += ct_run_cpu_pct(&runs[i]);
		g->loads += ct_run_loads(&runs[i]);
		g->lcpu_pct += ct_run_lcpu_pct(&runs[i]);
	}
	if (g->n) {
		g->time_s /= g->n;
		g->cpu_pct /= g->n;
		g->loads /= g->n;
		g->lcpu_pct /= g->n;
	}
}

int ct_run_metric_set(struct ct_run *r, const char *name, double value)
{
	if (!ct_ident_ok(name, CT_METRIC_NAME) || !isfinite(value))
		return -EINVAL;
	for (unsigned i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, name)) {
			r->metrics[i].value = value;
			return 0;
		}
	if (r->nmetrics >= CT_RUN_MAX_METRICS)
		return -ENOSPC;
	snprintf(r->metrics[r->nmetrics].name, CT_METRIC_NAME, "%s", name);
	r->metrics[r->nmetrics++].value = value;
	return 0;
}

int ct_run_metric(const struct ct_run *r, const char *name, double *value)
{
	for (unsigned i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, name)) {
			*value = r->metrics[i].value;
			return 0;
		}
	return -ENOENT;
}

/* In order: a run with several is judged by the first. oltp's tps, the
 * latency workload's p99, and an imported fio job's chosen figure (stored
 * under these names only when chosen: its others carry a direction,
 * read_iops, write_clat_p99_us). */
static const struct ct_figure figures[] = {
	{ CT_METRIC_TPS, "tps", "tps", true },	    { CT_METRIC_LATENCY, "p99", "us", false },
	{ "iops", "IOPS", "IOPS", true },	    { "bw_kib", "BW", "KiB/s", true },
	{ "clat_p50_us", "clat p50", "us", false }, { "clat_p99_us", "clat p99", "us", false },
};

bool ct_figure_unit_ok(const char *unit)
{
	size_t n = strlen(unit);

	if (n >= CT_FIGURE_UNIT)
		return false;
	for (; *unit; unit++)
		if (!((*unit >= 'a' && *unit <= 'z') || (*unit >= 'A' && *unit <= 'Z') ||
		      (*unit >= '0' && *unit <= '9') || strchr("/%_.-", *unit)))
			return false;
	return true;
}

int ct_run_figure_add(struct ct_run *r, const char *name, const char *unit, bool higher_better)
{
	struct ct_figure_def *d;

	if (!ct_ident_ok(name, CT_METRIC_NAME) || !ct_figure_unit_ok(unit))
		return -EINVAL;
	for (unsigned i = 0; i < r->nfigs; i++)
		if (!strcmp(r->figs[i].name, name))
			return -EEXIST;
	if (r->nfigs >= CT_RUN_MAX_FIGS)
		return -ENOSPC;
	d = &r->figs[r->nfigs++];
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->unit, sizeof(d->unit), "%s", unit);
	d->higher_better = higher_better;
	return 0;
}

/* The declared figures met so far, each once: a run's figure pointer must
 * outlive the run (a report names its figure after its runs are freed),
 * and the runs of a store declare a handful. Reachable to the end, never
 * freed. */
struct interned {
	struct ct_figure fig;
	struct ct_figure_def def;
	struct interned *next;
};
static struct interned *interned;
static pthread_mutex_t intern_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct ct_figure *intern(const struct ct_figure_def *d)
{
	struct interned *i;

	pthread_mutex_lock(&intern_lock);
	for (i = interned; i; i = i->next)
		if (!strcmp(i->def.name, d->name) && !strcmp(i->def.unit, d->unit) &&
		    i->def.higher_better == d->higher_better)
			break;
	if (!i) {
		i = malloc(sizeof(*i));
		if (!i) {
			/* judging by Time instead would be a wrong verdict */
			fputs("contend: out of memory\n", stderr);
			abort();
		}
		i->def = *d;
		i->fig = (struct ct_figure){ i->def.name, i->def.name, i->def.unit,
					     d->higher_better };
		i->next = interned;
		interned = i;
	}
	pthread_mutex_unlock(&intern_lock);
	return &i->fig;
}

const struct ct_figure *ct_run_figure(const struct ct_run *r)
{
	double v;

	if (r->nfigs)
		return intern(&r->figs[0]);
	for (size_t i = 0; i < CT_ARRAY_SIZE(figures); i++)
		if (ct_run_metric(r, figures[i].key, &v) == 0)
			return &figures[i];
	return NULL;
}

bool ct_run_higher_better(const struct ct_run *r)
{
	const struct ct_figure *f = ct_run_figure(r);

	return f && f->higher_better;
}

double ct_run_value(const struct ct_run *r)
{
	const struct ct_figure *f = ct_run_figure(r);
	double v;

	if (f && ct_run_metric(r, f->key, &v) == 0)
		return v;
	/* a declared figure a run lacks (a failed run's) is no Time */
	return r->nfigs ? NAN : ct_run_time_s(r);
}
