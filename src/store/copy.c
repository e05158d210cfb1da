/*
 * Copying a session from one store into another (contend push: a machine's
 * SQLite file into the fleet's PostgreSQL): the session as it was, its
 * configs found or added by label and fingerprint, every run with its
 * metrics and series, the host's references it took, in one transaction
 * of the target. Only the store interface is used, so any backend copies
 * into any other.
 */
#include "contend/store.h"
#include "contend/util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CONFIGS 64

struct config_map {
	int64_t from[MAX_CONFIGS], to[MAX_CONFIGS];
	size_t n;
};

/* The target's id of the source's config id, added when it is missing. */
static int map_config(struct ct_store *from, struct ct_store *to, struct config_map *m, int64_t id,
		      int64_t *out, char *err, size_t len)
{
	struct ct_sysinfo *si;
	char label[128];
	int rc;

	for (size_t i = 0; i < m->n; i++)
		if (m->from[i] == id) {
			*out = m->to[i];
			return 0;
		}
	if (m->n == MAX_CONFIGS)
		return ct_err(err, len, -E2BIG, "a session with over %d configs", MAX_CONFIGS);
	si = calloc(1, sizeof(*si));
	if (!si)
		return ct_err(err, len, -ENOMEM, "out of memory");
	rc = ct_store_config_get(from, id, label, sizeof(label), si, err, len);
	if (!rc)
		rc = ct_store_config_put(to, label, si, out, err, len);
	free(si);
	if (!rc) {
		m->from[m->n] = id;
		m->to[m->n++] = *out;
	}
	return rc;
}

/* The runs of the source session, with their series and hists, into the target
 * session to_id. *nruns counts them; tag is the suite job they ran, or "". */
static int copy_runs(struct ct_store *from, struct ct_store *to, struct config_map *m,
		     int64_t from_id, int64_t to_id, unsigned *nruns, char *tag, size_t tagsz,
		     char *err, size_t len)
{
	struct ct_run_filter f = { .session_id = from_id };
	struct ct_run *runs = NULL;
	struct ct_counters *counters = malloc(sizeof(*counters));
	double *series = NULL;
	size_t n = 0, ns = 0;
	int rc;

	if (!counters)
		return ct_err(err, len, -ENOMEM, "out of memory");
	rc = ct_store_runs(from, &f, &runs, &n, err, len);
	for (size_t i = 0; i < n && !rc; i++) {
		struct ct_run *r = &runs[i];

		if (!tag[0])
			ct_store_suite_tag(r->workload_params, tag, tagsz);
		rc = ct_store_run_series(from, r->id, &series, &ns, err, len);
		if (!rc)
			rc = ct_store_run_hists(from, r->id, r, err, len);
		if (!rc)
			rc = ct_store_run_counters(from, r->id, counters, err, len);
		if (!rc)
			rc = map_config(from, to, m, r->config_id, &r->config_id, err, len);
		if (rc) {
			free(series);
			ct_store_hists_free(r);
			break;
		}
		r->series = series;
		r->nseries = (unsigned)ns;
		r->counters = counters->n ? counters : NULL;
		r->session_id = to_id;
		rc = ct_store_run_put(to, r, err, len);
		free(series);
		ct_store_hists_free(r);
		series = NULL;
		(*nruns)++;
	}
	free(runs);
	free(counters);
	return rc;
}

/* The suite file a job's session ran from, when the source holds it and
 * the target does not yet (a store written before schema 15 holds none:
 * nothing to copy). */
static int copy_suite(struct ct_store *from, struct ct_store *to, const char *tag, char *err,
		      size_t len)
{
	char *text = NULL;
	int rc;

	if (!tag[0])
		return 0;
	rc = ct_store_suite_get(from, tag, &text, err, len);
	if (rc == -ENOENT)
		return 0;
	if (!rc)
		rc = ct_store_suite_put(to, tag, text, err, len);
	free(text);
	return rc;
}

/* The host's references of the source session, into to_id. */
static int copy_refs(struct ct_store *from, struct ct_store *to, int64_t from_id, int64_t to_id,
		     char *err, size_t len)
{
	struct ct_ref *refs = NULL;
	size_t n = 0;
	int rc = ct_store_refs(from, from_id, &refs, &n, err, len);

	for (size_t i = 0; i < n && !rc; i++) {
		refs[i].session_id = to_id;
		rc = ct_store_ref_put(to, &refs[i], err, len);
	}
	free(refs);
	return rc;
}

int ct_store_copy_session(struct ct_store *from, struct ct_store *to,
			  const struct ct_session_rec *rec, int64_t group_id, int64_t *to_id,
			  unsigned *nruns, char *err, size_t len)
{
	struct ct_session_rec copy = *rec;
	struct config_map m = { .n = 0 };
	char tag[256] = "";
	int rc;

	*nruns = 0;
	*to_id = 0;
	if (!rec->uuid[0])
		return ct_err(err, len, -EINVAL, "session %" PRId64 " has no UUID", rec->id);
	rc = ct_store_session_find(to, rec->uuid, to_id, err, len);
	if (rc || *to_id)
		return rc ? rc : 1;
	rc = ct_store_begin(to, err, len);
	if (rc)
		return rc;
	copy.group_id = group_id;
	if (rec->config_id)
		rc = map_config(from, to, &m, rec->config_id, &copy.config_id, err, len);
	if (!rc)
		rc = ct_store_session_copy(to, &copy, err, len);
	if (!rc)
		rc = copy_runs(from, to, &m, rec->id, copy.id, nruns, tag, sizeof(tag), err, len);
	if (!rc)
		rc = copy_refs(from, to, rec->id, copy.id, err, len);
	if (!rc)
		rc = copy_suite(from, to, tag, err, len);
	if (!rc)
		rc = ct_store_commit(to, err, len);
	if (!rc) {
		*to_id = copy.id;
		return 0;
	}
	ct_store_rollback(to);
	*nruns = 0;
	/* another push of the same session committed first */
	if (rc == -EINVAL && !ct_store_session_find(to, rec->uuid, to_id, err, len) && *to_id)
		return 1;
	return rc;
}
