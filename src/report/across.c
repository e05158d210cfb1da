/*
 * The machine's spread of sessions (docs/statistics.md, "One session a
 * side"): when a config is compared with the baseline across sessions and
 * a side has one session, the two cannot say how far sessions move on
 * their own; every other config this machine measured in two sessions or
 * more, under the same workload, parameters and load, can. contend
 * calibrate --sessions K stores such a config on purpose.
 */
#include "internal.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Whether a run's session counts: finished whole, on the machine */
static bool counts(const struct ct_session_rec *recs, size_t nrecs, int64_t id, const char *machine)
{
	const struct ct_session_rec *r = ct_store_session_of(recs, nrecs, id);

	return r && r->status == CT_SESSION_COMPLETE && !strcmp(r->owner.machine, machine);
}

static int by_config(const void *a, const void *b)
{
	const struct ct_run_value *x = *(const struct ct_run_value *const *)a,
				  *y = *(const struct ct_run_value *const *)b;

	if (x->config_id != y->config_id)
		return (x->config_id > y->config_id) - (x->config_id < y->config_id);
	return (x->run_id > y->run_id) - (x->run_id < y->run_id);
}

int rp_between_values(const struct ct_run_value *vals, size_t n, const struct ct_session_rec *recs,
		      size_t nrecs, const char *machine, struct ct_stats_between *out)
{
	const struct ct_run_value **keep = malloc((n ? n : 1) * sizeof(*keep));
	double *v = malloc((n ? n : 1) * sizeof(*v));
	int64_t *sess = malloc((n ? n : 1) * sizeof(*sess));
	size_t nk = 0;
	int rc = keep && v && sess ? 0 : -ENOMEM;

	memset(out, 0, sizeof(*out));
	out->var = NAN;
	for (size_t i = 0; !rc && i < n; i++)
		if (vals[i].value > 0 && counts(recs, nrecs, vals[i].session_id, machine))
			keep[nk++] = &vals[i];
	if (!rc)
		qsort(keep, nk, sizeof(*keep), by_config);
	/* config by config: the runs of its sessions that count */
	for (size_t i = 0, m = 0; !rc && i < nk; i++) {
		v[m] = keep[i]->value;
		sess[m++] = keep[i]->session_id;
		if (i + 1 < nk && keep[i + 1]->config_id == keep[i]->config_id)
			continue;
		if (ct_stats_between_add(out, v, sess, m) == -ENOMEM)
			rc = -ENOMEM;
		m = 0;
	}
	free(keep);
	free(v);
	free(sess);
	return rc;
}

int rp_between_load(const struct ct_run_value *vals, size_t n, const struct ct_session_rec *recs,
		    size_t nrecs, const char *load, const char *machine,
		    struct ct_stats_between *out)
{
	struct ct_run_value *of = malloc((n ? n : 1) * sizeof(*of));
	size_t m = 0;
	int rc;

	if (!of)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(vals[i].load, load))
			of[m++] = vals[i];
	rc = rp_between_values(of, m, recs, nrecs, machine, out);
	free(of);
	return rc;
}

int ct_report_between(struct ct_store *st, const struct ct_session_rec *recs, size_t nrecs,
		      const char *workload, const char *params, const char *load,
		      const char *machine, struct ct_stats_between *out, char *err, size_t len)
{
	struct ct_run_filter f = {
		.workload = workload,
		.load = load,
		.workload_params = params && params[0] ? params : NULL,
		.ok_only = true,
	};
	struct ct_run_value *vals = NULL;
	size_t n = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	out->var = NAN;
	rc = ct_store_run_values(st, &f, &vals, &n, err, len);
	if (!rc && rp_between_values(vals, n, recs, nrecs, machine, out))
		rc = ct_err(err, len, -ENOMEM, "out of memory");
	free(vals);
	return rc;
}
