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

	return r && !strcmp(r->status, "complete") && !strcmp(r->owner.machine, machine);
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
	struct ct_run *runs = NULL;
	size_t n = 0, m;
	double *v = NULL;
	int64_t *sess = NULL;
	bool *done = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	out->var = NAN;
	rc = ct_store_runs(st, &f, &runs, &n, err, len);
	if (rc)
		return rc;
	v = malloc((n ? n : 1) * sizeof(*v));
	sess = malloc((n ? n : 1) * sizeof(*sess));
	done = calloc(n ? n : 1, sizeof(*done));
	if (!v || !sess || !done) {
		rc = ct_err(err, len, -ENOMEM, "out of memory");
		goto out;
	}
	/* config by config: the runs of its sessions that count */
	for (size_t i = 0; !rc && i < n; i++) {
		if (done[i])
			continue;
		m = 0;
		for (size_t j = i; j < n; j++) {
			if (done[j] || runs[j].config_id != runs[i].config_id)
				continue;
			done[j] = true;
			if (runs[j].status != CT_RUN_OK || !(ct_run_value(&runs[j]) > 0) ||
			    !counts(recs, nrecs, runs[j].session_id, machine))
				continue;
			v[m] = ct_run_value(&runs[j]);
			sess[m++] = runs[j].session_id;
		}
		if (m && ct_stats_between_add(out, v, sess, m) == -ENOMEM)
			rc = ct_err(err, len, -ENOMEM, "out of memory");
	}
out:
	free(runs);
	free(v);
	free(sess);
	free(done);
	return rc;
}
