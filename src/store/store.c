/*
 * The store interface: where the default store is, the backend that takes
 * a target, sessions stored without their passwords, and the one encoding of metrics
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
static const struct db_ops *const backends[] = { &ct_store_pg, &ct_store_sqlite };

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
	struct store *s;
	int rc;

	*out = NULL;
	if (!target || !*target)
		return ct_err(err, len, -EINVAL, "results store path is empty");
	for (size_t i = 0; i < CT_ARRAY_SIZE(backends); i++) {
		if (!backends[i]->accepts(target))
			continue;
		if (!(s = calloc(1, sizeof(*s))))
			return ct_err(err, len, -ENOMEM, "out of memory");
		rc = backends[i]->open(&s->db, &s->pub, target, flags, err, len);
		if (rc) {
			free(s);
			return rc;
		}
		*out = &s->pub;
		return 0;
	}
	return ct_err(err, len, -EINVAL, "no results store backend takes '%s'", target);
}

void ct_store_close(struct ct_store *pub)
{
	struct store *s = (struct store *)pub;

	if (!s)
		return;
	ct_store_stmts_free(s);
	s->db->ops->close(s->db);
	free(s);
}

/* A session's command line is stored without its passwords, whoever
 * built it (run, calibrate, import), and so is a copy of one. */
static void hide_argv(struct ct_session_rec *rec)
{
	char hidden[sizeof(rec->argv)];

	if (ct_hide_secrets_cmdline(rec->argv, hidden, sizeof(hidden)))
		memcpy(rec->argv, hidden, sizeof(rec->argv));
}

int ct_store_session_begin(struct ct_store *s, struct ct_session_rec *rec, char *err, size_t len)
{
	int rc;

	if (!rec->started_at)
		rec->started_at = ct_wall_ns();
	rec->status = CT_SESSION_RUNNING;
	rec->ended_at = 0;
	rec->nruns = rec->nfailed = 0;
	hide_argv(rec);
	if (!rec->uuid[0]) {
		rc = ct_uuid4(rec->uuid);
		if (rc)
			return ct_err(err, len, rc, "cannot make a session id: %s", strerror(-rc));
	}
	return ct_store_session_insert(s, rec, err, len);
}

int ct_store_session_copy(struct ct_store *s, struct ct_session_rec *rec, char *err, size_t len)
{
	if (!rec->uuid[0])
		return ct_err(err, len, -EINVAL, "session %" PRId64 " has no UUID to copy it by",
			      rec->id);
	hide_argv(rec);
	return ct_store_session_insert(s, rec, err, len);
}

const struct ct_session_rec *ct_store_session_of(const struct ct_session_rec *recs, size_t n,
						 int64_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) { /* recs are id descending */
		size_t mid = lo + (hi - lo) / 2;

		if (recs[mid].id > id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && recs[lo].id == id ? &recs[lo] : NULL;
}

int ct_store_run_hist(struct ct_store *s, int64_t run_id, const char *name, struct ct_hist *out,
		      char *err, size_t len)
{
	char *text = NULL;
	int rc = ct_store_run_hists_text(s, run_id, &text, err, len);

	if (!rc) {
		rc = ct_store_hist_decode(text, name, out);
		if (rc == -EPROTO)
			ct_err(err, len, rc, "run %" PRId64 " has a damaged histogram '%s'", run_id,
			       name);
	}
	free(text);
	return rc;
}

void ct_store_hists_free(struct ct_run *r)
{
	for (unsigned i = 0; i < r->nhists; i++)
		free((void *)r->hists[i].h);
	r->nhists = 0;
}

static int hist_from_json(const json_t *one, struct ct_hist *out);

int ct_store_run_hists(struct ct_store *s, int64_t run_id, struct ct_run *r, char *err, size_t len)
{
	char *text = NULL;
	json_t *obj = NULL, *v;
	const char *key;
	int rc = ct_store_run_hists_text(s, run_id, &text, err, len);

	r->nhists = 0;
	if (!rc && *text)
		obj = json_loads(text, JSON_REJECT_DUPLICATES,
				 NULL); /* json_is_object is a macro */
	if (!rc && *text && !json_is_object(obj))
		rc = -EPROTO;
	json_object_foreach(obj, key, v)
	{
		struct ct_hist *h;

		if (rc || r->nhists == CT_RUN_MAX_HISTS || strlen(key) >= CT_HIST_NAME) {
			rc = rc ? rc : -EPROTO;
			break;
		}
		if (!(h = malloc(sizeof(*h)))) {
			rc = ct_err(err, len, -ENOMEM, "out of memory");
			break;
		}
		snprintf(r->hists[r->nhists].name, CT_HIST_NAME, "%s", key);
		r->hists[r->nhists++].h = h;
		rc = hist_from_json(v, h);
	}
	if (rc == -EPROTO)
		ct_err(err, len, rc, "run %" PRId64 " has a damaged histogram", run_id);
	if (rc)
		ct_store_hists_free(r);
	json_decref(obj);
	free(text);
	return rc;
}

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
	for (unsigned i = 0; i < r->nfigs; i++) {
		/* names and units need no escaping (ct_run_figure_add) */
		int m = snprintf(buf + off, len - off, "%s[\"%s\",\"%s\",\"%s\"]%s",
				 i	       ? ","
				 : r->nmetrics ? ",\"@figures\":["
					       : "\"@figures\":[",
				 r->figs[i].name, r->figs[i].unit,
				 r->figs[i].higher_better ? "higher" : "lower",
				 i + 1 == r->nfigs ? "]" : "");

		if (m < 0 || (size_t)m >= len - off)
			return -ENOSPC;
		off += (size_t)m;
	}
	if (off + 2 > len)
		return -ENOSPC;
	buf[off++] = '}';
	buf[off] = '\0';
	return 0;
}

/* "@figures": [["name","unit","higher"|"lower"], ...] into r->figs. */
static int figures_decode(const json_t *arr, struct ct_run *r)
{
	const char *name, *unit, *dir;
	json_t *one;
	size_t i;

	if (!json_is_array(arr) || !json_array_size(arr))
		return -EPROTO;
	json_array_foreach(arr, i, one)
	{
		if (json_unpack(one, "[sss!]", &name, &unit, &dir) ||
		    (strcmp(dir, "higher") && strcmp(dir, "lower")) ||
		    ct_run_figure_add(r, name, unit, !strcmp(dir, "higher")))
			return -EPROTO;
	}
	return 0;
}

int ct_store_metrics_decode(const char *text, struct ct_run *r)
{
	json_t *obj, *v;
	const char *key;
	int rc = 0;

	r->nmetrics = 0;
	r->nfigs = 0;
	/* most runs have none: a command's, a compile's */
	if (!text || !*text || !strcmp(text, "{}"))
		return 0;
	obj = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
	if (!obj || !json_is_object(obj)) {
		json_decref(obj);
		return -EPROTO;
	}
	json_object_foreach(obj, key, v)
	{
		if (!strcmp(key, "@figures")
			    ? figures_decode(v, r) != 0
			    : !json_is_number(v) ||
				      ct_run_metric_set(r, key, json_number_value(v))) {
			rc = -EPROTO;
			break;
		}
	}
	json_decref(obj);
	if (rc) {
		r->nmetrics = 0;
		r->nfigs = 0;
	}
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

char *ct_store_hists_encode(const struct ct_run *r)
{
	json_t *obj = json_object();
	char *text = NULL;
	bool bad = !obj;

	for (unsigned i = 0; i < r->nhists && !bad; i++) {
		const struct ct_hist *h = r->hists[i].h;
		json_t *one = json_object(), *b = json_array();

		bad = !one || !b || !h;
		for (unsigned k = 0; !bad && k < CT_HIST_BUCKETS; k++) {
			uint64_t lo, hi;

			if (!h->b[k])
				continue;
			ct_hist_bounds(k, &lo, &hi);
			bad = json_array_append_new(
				b, json_pack("[II]", (json_int_t)lo, (json_int_t)h->b[k]));
		}
		if (!bad)
			bad = json_object_set_new(one, "count",
						  json_integer((json_int_t)h->count)) ||
			      json_object_set_new(
				      one, "min",
				      json_integer(h->count ? (json_int_t)h->min : 0)) ||
			      json_object_set_new(one, "max", json_integer((json_int_t)h->max)) ||
			      json_object_set_new(one, "sum", json_real(h->sum)) ||
			      json_object_set(one, "buckets", b) ||
			      json_object_set(obj, r->hists[i].name, one);
		json_decref(b);
		json_decref(one);
	}
	if (!bad)
		text = json_dumps(obj, JSON_COMPACT);
	json_decref(obj);
	return text;
}

/* One histogram's object into out: 0, or -EPROTO (out reset). */
static int hist_from_json(const json_t *one, struct ct_hist *out)
{
	json_int_t count, min, max, seen = 0;
	json_t *b, *pair;
	double sum;
	size_t i;

	ct_hist_reset(out);
	if (json_unpack((json_t *)one, "{s:I, s:I, s:I, s:F, s:o}", "count", &count, "min", &min,
			"max", &max, "sum", &sum, "buckets", &b) ||
	    !json_is_array(b) || count < 0 || min < 0 || max < min)
		return -EPROTO;
	json_array_foreach(b, i, pair)
	{
		json_int_t lo, c;
		uint64_t blo, bhi;
		unsigned k;

		if (json_unpack(pair, "[II]", &lo, &c) || lo < 0 || c <= 0)
			break;
		k = ct_hist_index((uint64_t)lo);
		ct_hist_bounds(k, &blo, &bhi);
		if (blo != (uint64_t)lo || seen > INT64_MAX - c)
			break;
		out->b[k] += (uint64_t)c;
		seen += c;
	}
	if (i < json_array_size(b) || seen != count) {
		ct_hist_reset(out);
		return -EPROTO;
	}
	out->count = (uint64_t)count;
	out->min = count ? (uint64_t)min : UINT64_MAX;
	out->max = (uint64_t)max;
	out->sum = sum;
	return 0;
}

int ct_store_hist_decode(const char *text, const char *name, struct ct_hist *out)
{
	json_t *obj, *one;
	int rc;

	ct_hist_reset(out);
	if (!text || !*text)
		return -ENOENT;
	obj = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
	if (!json_is_object(obj))
		rc = -EPROTO;
	else if (!(one = json_object_get(obj, name)))
		rc = -ENOENT;
	else
		rc = hist_from_json(one, out);
	json_decref(obj);
	return rc;
}
