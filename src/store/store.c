/*
 * The store interface: picks the backend that takes a target, forwards
 * every call through its ops table, and keeps the one encoding of metrics
 * and series (JSON, so any backend's SQL can query them) that every
 * backend stores.
 */
#include "contend/store.h"
#include "internal.h"
#include "contend/util.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* in order: SQLite takes whatever PostgreSQL does not */
static const struct ct_store_ops *const backends[] = { &ct_store_pg, &ct_store_sqlite };

static int store_path(char *buf, size_t len, bool local)
{
	const char *env;
	int n;

	if (!local && (env = getenv("CONTEND_DB")) && *env)
		n = snprintf(buf, len, "%s", env);
	else if ((env = getenv("XDG_DATA_HOME")) && *env == '/') /* relative: ignored, per XDG */
		n = snprintf(buf, len, "%s/contend/results.db", env);
	else if ((env = getenv("HOME")) && *env)
		n = snprintf(buf, len, "%s/.local/share/contend/results.db", env);
	else
		return ct_err(buf, len, -ENOENT,
			      "cannot find the results store: none of CONTEND_DB, XDG_DATA_HOME"
			      " and HOME is set");
	if (n < 0 || (size_t)n >= len)
		return ct_err(buf, len, -ENAMETOOLONG, "results store path is too long");
	return 0;
}

int ct_store_default_path(char *buf, size_t len)
{
	return store_path(buf, len, false);
}

int ct_store_local_path(char *buf, size_t len)
{
	return store_path(buf, len, true);
}

const char *ct_store_backend(const char *target)
{
	for (size_t i = 0; i < CT_ARRAY_SIZE(backends); i++)
		if (backends[i]->accepts(target))
			return backends[i]->name;
	return "";
}

int ct_store_open(struct ct_store **out, const char *target, unsigned flags, char *err, size_t len)
{
	*out = NULL;
	if (!target || !*target)
		return ct_err(err, len, -EINVAL, "results store path is empty");
	for (size_t i = 0; i < CT_ARRAY_SIZE(backends); i++)
		if (backends[i]->accepts(target))
			return backends[i]->open(out, target, flags, err, len);
	return ct_err(err, len, -EINVAL, "no results store backend takes '%s'", target);
}

void ct_store_close(struct ct_store *s)
{
	if (s)
		s->ops->close(s);
}

int ct_store_begin(struct ct_store *s, char *err, size_t len)
{
	return s->ops->begin(s, err, len);
}

int ct_store_commit(struct ct_store *s, char *err, size_t len)
{
	return s->ops->commit(s, err, len);
}

void ct_store_rollback(struct ct_store *s)
{
	s->ops->rollback(s);
}

int ct_store_config_put(struct ct_store *s, const char *label, const struct ct_sysinfo *si,
			int64_t *id, char *err, size_t len)
{
	*id = 0;
	if (!label || !*label)
		return ct_err(err, len, -EINVAL, "config label is empty");
	if (!si->fingerprint[0])
		return ct_err(err, len, -EINVAL, "config '%s' has no fingerprint", label);
	return s->ops->config_put(s, label, si, id, err, len);
}

int ct_store_config_get(struct ct_store *s, int64_t id, char *label, size_t label_len,
			struct ct_sysinfo *si, char *err, size_t len)
{
	return s->ops->config_get(s, id, label, label_len, si, err, len);
}

int ct_store_session_begin(struct ct_store *s, struct ct_session_rec *rec, char *err, size_t len)
{
	int rc;

	if (!rec->started_at)
		rec->started_at = ct_wall_ns();
	snprintf(rec->status, sizeof(rec->status), "running");
	rec->ended_at = 0;
	rec->nruns = rec->nfailed = 0;
	if (!rec->uuid[0]) {
		rc = ct_uuid4(rec->uuid);
		if (rc)
			return ct_err(err, len, rc, "cannot make a session id: %s", strerror(-rc));
	}
	return s->ops->session_put(s, rec, err, len);
}

int ct_store_session_end(struct ct_store *s, int64_t id, const char *status, char *err, size_t len)
{
	static const char *const ends[] = { "complete", "interrupted", "failed" };

	for (size_t i = 0; i < CT_ARRAY_SIZE(ends); i++)
		if (status && !strcmp(status, ends[i]))
			return s->ops->session_end(s, id, ends[i], err, len);
	return ct_err(err, len, -EINVAL, "unknown session status '%s'", status ? status : "");
}

int ct_store_session_copy(struct ct_store *s, struct ct_session_rec *rec, char *err, size_t len)
{
	if (!rec->uuid[0])
		return ct_err(err, len, -EINVAL, "session %" PRId64 " has no UUID to copy it by",
			      rec->id);
	return s->ops->session_put(s, rec, err, len);
}

int ct_store_session_find(struct ct_store *s, const char *uuid, int64_t *id, char *err, size_t len)
{
	return s->ops->session_find(s, uuid, id, err, len);
}

int ct_store_sessions(struct ct_store *s, size_t limit, struct ct_session_rec **out, size_t *n,
		      char *err, size_t len)
{
	return s->ops->sessions(s, limit, out, n, err, len);
}

int ct_store_run_put(struct ct_store *s, struct ct_run *r, char *err, size_t len)
{
	if (!strcmp(ct_run_status_name(r->status), "unknown"))
		return ct_err(err, len, -EINVAL, "run has unknown status %d", (int)r->status);
	return s->ops->run_put(s, r, err, len);
}

int ct_store_runs(struct ct_store *s, const struct ct_run_filter *f, struct ct_run **out, size_t *n,
		  char *err, size_t len)
{
	return s->ops->runs(s, f, out, n, err, len);
}

int ct_store_run_series(struct ct_store *s, int64_t run_id, double **out, size_t *n, char *err,
			size_t len)
{
	return s->ops->run_series(s, run_id, out, n, err, len);
}

int ct_store_latest_session_with(struct ct_store *s, const char *label, const char *workload,
				 const char *load, const char *workload_params, int64_t *session_id,
				 char *err, size_t len)
{
	*session_id = 0;
	if (!label || !workload || !load)
		return ct_err(err, len, -EINVAL,
			      "reference session needs a label, workload and load");
	return s->ops->latest_session_with(s, label, workload, load, workload_params, session_id,
					   err, len);
}

int ct_store_knob_rows(struct ct_store *s, struct ct_store_knob_row **out, size_t *n, char *err,
		       size_t len)
{
	return s->ops->knob_rows(s, out, n, err, len);
}

int ct_store_knob_rows_clear(struct ct_store *s, char *err, size_t len)
{
	return s->ops->knob_rows_clear(s, err, len);
}

int ct_store_calibration_put(struct ct_store *s, struct ct_calibration *c, char *err, size_t len)
{
	return s->ops->calibration_put(s, c, err, len);
}

int ct_store_calibration_get(struct ct_store *s, const char *label, const char *workload,
			     const char *workload_params, const char *load,
			     struct ct_calibration *c, char *err, size_t len)
{
	return s->ops->calibration_get(s, label, workload, workload_params, load, c, err, len);
}

/* Numbers as JSON has them: finite, with every digit a double needs to
 * come back bit for bit. */
static int put_number(char *buf, size_t len, size_t *off, double v)
{
	int m;

	if (!isfinite(v))
		return -EINVAL;
	m = snprintf(buf + *off, len - *off, "%.17g", v);
	if (m < 0 || (size_t)m >= len - *off)
		return -ENOSPC;
	*off += (size_t)m;
	return 0;
}

int ct_store_metrics_encode(const struct ct_run *r, char *buf, size_t len)
{
	size_t off = 0;
	int rc;

	if (len < 3)
		return -ENOSPC;
	buf[off++] = '{';
	for (unsigned i = 0; i < r->nmetrics; i++) {
		/* names are [a-z0-9_]: nothing to escape */
		int m = snprintf(buf + off, len - off, "%s\"%s\":", i ? "," : "",
				 r->metrics[i].name);

		if (m < 0 || (size_t)m >= len - off)
			return -ENOSPC;
		off += (size_t)m;
		rc = put_number(buf, len, &off, r->metrics[i].value);
		if (rc)
			return rc;
	}
	if (off + 2 > len)
		return -ENOSPC;
	buf[off++] = '}';
	buf[off] = '\0';
	return 0;
}

int ct_store_metrics_decode(const char *text, struct ct_run *r)
{
	json_t *obj, *v;
	const char *key;
	int rc = 0;

	r->nmetrics = 0;
	if (!text || !*text)
		return 0;
	obj = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
	if (!obj || !json_is_object(obj)) {
		json_decref(obj);
		return -EPROTO;
	}
	json_object_foreach(obj, key, v)
	{
		if (!json_is_number(v) || ct_run_metric_set(r, key, json_number_value(v))) {
			rc = -EPROTO;
			break;
		}
	}
	json_decref(obj);
	if (rc)
		r->nmetrics = 0;
	return rc;
}

char *ct_store_series_encode(const double *v, size_t n)
{
	size_t cap = n * 26 + 3, off = 0;
	char *buf = malloc(cap);

	if (!buf)
		return NULL;
	buf[off++] = '[';
	for (size_t i = 0; i < n; i++) {
		if (i)
			buf[off++] = ',';
		if (put_number(buf, cap, &off, isfinite(v[i]) ? v[i] : 0)) {
			free(buf);
			return NULL;
		}
	}
	buf[off++] = ']';
	buf[off] = '\0';
	return buf;
}

int ct_store_series_decode(const char *text, double **out, size_t *n)
{
	json_t *arr;
	double *v = NULL;
	size_t cnt;

	*out = NULL;
	*n = 0;
	if (!text || !*text)
		return 0;
	arr = json_loads(text, 0, NULL);
	if (!arr || !json_is_array(arr)) {
		json_decref(arr);
		return -EPROTO;
	}
	cnt = json_array_size(arr);
	if (cnt) {
		v = malloc(cnt * sizeof(*v));
		if (!v) {
			json_decref(arr);
			return -ENOMEM;
		}
	}
	for (size_t i = 0; i < cnt; i++) {
		json_t *e = json_array_get(arr, i);

		if (!json_is_number(e)) {
			free(v);
			json_decref(arr);
			return -EPROTO;
		}
		v[i] = json_number_value(e);
	}
	json_decref(arr);
	*out = v;
	*n = cnt;
	return 0;
}

int ct_store_metrics_parse_v3(const char *text, struct ct_run *r)
{
	r->nmetrics = 0;
	for (const char *p = text; *p;) {
		const char *end = strchrnul(p, ' '), *eq = memchr(p, '=', (size_t)(end - p));
		char name[CT_METRIC_NAME], *e;
		double v;

		if (end == p) {
			p++;
			continue;
		}
		if (!eq || (size_t)(eq - p) >= sizeof(name))
			return -EPROTO;
		snprintf(name, sizeof(name), "%.*s", (int)(eq - p), p);
		v = strtod(eq + 1, &e);
		if (e != end || ct_run_metric_set(r, name, v))
			return -EPROTO;
		p = *end ? end + 1 : end;
	}
	return 0;
}

int ct_store_series_parse_v3(const char *text, double **out, size_t *n)
{
	size_t cap = strlen(text) / 2 + 1, cnt = 0;
	double *v = malloc(cap * sizeof(*v));

	*out = NULL;
	*n = 0;
	if (!v)
		return -ENOMEM;
	for (const char *p = text; *p && cnt < cap;) {
		char *end;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		v[cnt] = strtod(p, &end);
		if (end == p || !isfinite(v[cnt])) {
			free(v);
			return -EPROTO;
		}
		cnt++;
		p = end;
	}
	if (!cnt) {
		free(v);
		v = NULL;
	}
	*out = v;
	*n = cnt;
	return 0;
}
