/*
 * contend import hyperfine: a hyperfine --export-json file as sessions of
 * the cmd workload, one per command, its per-run times the runs. What
 * hyperfine keeps per run is the wall time and (since 1.12) the exit code;
 * CPU times only as means, which every run carries.
 */
#include "contend/import.h"
#include "contend/util.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ct_hyperfine_free(struct ct_hyperfine *h)
{
	for (size_t i = 0; h && i < h->n; i++) {
		free(h->results[i].times);
		free(h->results[i].exit_codes);
	}
	if (h) {
		free(h->results);
		h->results = NULL;
		h->n = 0;
	}
}

/* The number at key of o; NAN when it is absent or no number. */
static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static int parse_result(const json_t *o, size_t k, struct ct_hyperfine_result *r, char *err,
			size_t len)
{
	const json_t *cmd = json_object_get(o, "command"), *times = json_object_get(o, "times");
	const json_t *codes = json_object_get(o, "exit_codes"), *v;
	char q[160];
	size_t i;

	if (!json_is_string(cmd))
		return ct_err(err, len, -EPROTO, "hyperfine result %zu has no command", k + 1);
	snprintf(r->command, sizeof(r->command), "%s", json_string_value(cmd));
	/* a command may hold a newline: the message stays one line */
	ct_quote(r->command, q, sizeof(q));
	if (!json_is_array(times) || !json_array_size(times))
		return ct_err(err, len, -EPROTO,
			      "hyperfine result %zu (%s) has no \"times\" (hyperfine before 1.3 "
			      "kept only the mean)",
			      k + 1, q);
	r->n = json_array_size(times);
	r->times = calloc(r->n, sizeof(*r->times));
	if (!r->times)
		return ct_err(err, len, -ENOMEM, "out of memory");
	json_array_foreach(times, i, v)
	{
		r->times[i] = json_is_number(v) ? json_number_value(v) : NAN;
		if (!(r->times[i] > 0) || !isfinite(r->times[i]))
			return ct_err(
				err, len, -EPROTO,
				"hyperfine result %zu (%s): time %zu is not a positive number",
				k + 1, q, i + 1);
	}
	if (json_is_array(codes) && json_array_size(codes) == r->n) {
		r->exit_codes = calloc(r->n, sizeof(*r->exit_codes));
		if (!r->exit_codes)
			return ct_err(err, len, -ENOMEM, "out of memory");
		json_array_foreach(codes, i, v) r->exit_codes[i] =
			json_is_integer(v) ? (int)json_integer_value(v) : 0;
	}
	double user = num(o, "user"), sys = num(o, "system");

	r->user = isnan(user) ? 0 : user;
	r->sys = isnan(sys) ? 0 : sys;
	return 0;
}

int ct_hyperfine_parse(const char *text, size_t len, struct ct_hyperfine *out, char *err,
		       size_t errlen)
{
	json_error_t je;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	const json_t *results, *o;
	size_t k;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!root) {
		/* jansson's text may quote the input, control bytes and all */
		for (char *c = je.text; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = ' ';
		return ct_err(err, errlen, -EPROTO, "not JSON: %s (line %d)", je.text, je.line);
	}
	results = json_object_get(root, "results");
	if (!json_is_array(results) || !json_array_size(results)) {
		json_decref(root);
		return ct_err(err, errlen, -EPROTO,
			      "not a hyperfine export: no \"results\" array (hyperfine "
			      "--export-json writes one)");
	}
	out->results = calloc(json_array_size(results), sizeof(*out->results));
	if (!out->results) {
		json_decref(root);
		return ct_err(err, errlen, -ENOMEM, "out of memory");
	}
	json_array_foreach(results, k, o)
	{
		out->n = k + 1;
		rc = json_is_object(o) ? parse_result(o, k, &out->results[k], err, errlen)
				       : ct_err(err, errlen, -EPROTO,
						"hyperfine result %zu is not an object", k + 1);
		if (rc)
			break;
	}
	json_decref(root);
	if (rc)
		ct_hyperfine_free(out);
	return rc;
}

/* One session and its runs (session_id and config_id filled here), in one
 * transaction. */
static int store_session(struct ct_store *st, int64_t config, const char *argv,
			 const char *workload, struct ct_run *runs, size_t n, char *err, size_t len)
{
	struct ct_session_rec rec;
	int rc;

	memset(&rec, 0, sizeof(rec));
	rec.config_id = config;
	snprintf(rec.argv, sizeof(rec.argv), "%s", argv);
	snprintf(rec.workload, sizeof(rec.workload), "%s", workload);
	snprintf(rec.profile, sizeof(rec.profile), "imported");
	ct_owner_self(&rec.owner);
	rc = ct_store_begin(st, err, len);
	if (rc)
		return rc;
	rc = ct_store_session_begin(st, &rec, err, len);
	for (size_t i = 0; i < n && !rc; i++) {
		runs[i].session_id = rec.id;
		runs[i].config_id = config;
		if (!runs[i].started_at)
			runs[i].started_at = rec.started_at;
		rc = ct_store_run_put(st, &runs[i], err, len);
	}
	if (!rc)
		rc = ct_store_session_end(st, rec.id, CT_SESSION_COMPLETE, err, len);
	if (!rc)
		rc = ct_store_commit(st, err, len);
	if (rc)
		ct_store_rollback(st);
	return rc;
}

/* A run of an imported result: no load, no monitors. */
static void imported_run(struct ct_run *run, const char *workload, const char *params,
			 const char *peer, unsigned seq)
{
	memset(run, 0, sizeof(*run));
	snprintf(run->workload, sizeof(run->workload), "%s", workload);
	snprintf(run->load, sizeof(run->load), "none");
	snprintf(run->workload_params, sizeof(run->workload_params), "%s", params);
	snprintf(run->load_params, sizeof(run->load_params), "imported=%s", peer);
	run->seq = seq;
	run->load_unit_scale = 1;
	run->mon.start_dirty_bytes = run->mon.start_writeback_bytes = -1;
	run->mon.start_cpu_speed = -1;
}

/* One command's session and runs. */
static int store_result(struct ct_store *st, const struct ct_hyperfine_result *r, int64_t config,
			const char *argv, char *err, size_t len)
{
	struct ct_run *runs = calloc(r->n, sizeof(*runs));
	int rc;

	if (!runs)
		return ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t i = 0; i < r->n; i++) {
		struct ct_run *run = &runs[i];
		int code = r->exit_codes ? r->exit_codes[i] : 0;

		imported_run(run, "cmd", r->command, "hyperfine", (unsigned)i + 1);
		run->status = code ? CT_RUN_FAILED : CT_RUN_OK;
		if (code)
			snprintf(run->reason, sizeof(run->reason), "hyperfine saw exit status %d",
				 code);
		run->exit_code = code;
		run->wall_ns = (int64_t)llround(r->times[i] * 1e9);
		run->user_us = (int64_t)llround(r->user * 1e6);
		run->sys_us = (int64_t)llround(r->sys * 1e6);
	}
	rc = store_session(st, config, argv, "cmd", runs, r->n, err, len);
	free(runs);
	return rc;
}
int ct_hyperfine_store(struct ct_store *st, const struct ct_hyperfine *h, const char *label,
		       const struct ct_sysinfo *si, const char *argv, unsigned *sessions,
		       unsigned *runs, char *err, size_t len)
{
	int64_t config;
	int rc;

	*sessions = *runs = 0;
	rc = ct_store_config_put(st, label, si, &config, err, len);
	for (size_t k = 0; k < h->n && !rc; k++) {
		rc = store_result(st, &h->results[k], config, argv, err, len);
		if (!rc) {
			(*sessions)++;
			*runs += (unsigned)h->results[k].n;
		}
	}
	return rc;
}

/* -------------------------------------------------------------------------
 * fio
 */

static const char *const fio_dirs[] = { "read", "write", "trim" };
static const char *const fio_figures[] = { "iops", "bw", "clat_p50", "clat_p99" };

/* metric = [DIR_]FIGURE: the direction's index (-1: none) and the figure's. */
static int fio_metric(const char *metric, int *dir, int *fig)
{
	*dir = -1;
	for (int d = 0; d < 3; d++) {
		size_t n = strlen(fio_dirs[d]);

		if (!strncmp(metric, fio_dirs[d], n) && metric[n] == '_') {
			*dir = d;
			metric += n + 1;
		}
	}
	for (int f = 0; f < 4; f++)
		if (!strcmp(metric, fio_figures[f])) {
			*fig = f;
			return 0;
		}
	return -EINVAL;
}

int ct_fio_metric_check(const char *metric, char *err, size_t len)
{
	int d, f;

	if (fio_metric(metric, &d, &f))
		return ct_err(
			err, len, -EINVAL,
			"--metric %s: iops, bw, clat_p50 or clat_p99, optionally after read_, "
			"write_ or trim_",
			metric);
	return 0;
}

void ct_fio_free(struct ct_fio *f)
{
	for (size_t i = 0; f && i < f->n; i++)
		free(f->jobs[i].runs);
	if (f) {
		free(f->jobs);
		f->jobs = NULL;
		f->n = 0;
	}
}

/* What one direction of a job did. */
struct fio_dir {
	bool did_io;
	double iops, bw_kib, clat_mean_us, p50_us, p99_us; /* NAN: not reported */
	double runtime_ms;
};

static void fio_read_dir(const json_t *d, struct fio_dir *out)
{
	const json_t *clat = json_object_get(d, "clat_ns"), *pct;
	double scale = 1e-3, ios = num(d, "total_ios");

	out->iops = num(d, "iops");
	out->bw_kib = num(d, "bw");
	out->runtime_ms = num(d, "runtime");
	/* fio 2.x has no total_ios in its oldest versions: its io_bytes then */
	out->did_io = isnan(ios) ? num(d, "io_bytes") > 0 : ios > 0;
	out->clat_mean_us = out->p50_us = out->p99_us = NAN;
	if (!json_is_object(clat)) {
		clat = json_object_get(d, "clat"); /* fio 2.x: microseconds */
		scale = 1;
	}
	if (!out->did_io || !json_is_object(clat))
		return; /* 3.x prints no percentiles without I/O, 2.x zeros */
	out->clat_mean_us = num(clat, "mean") * scale;
	pct = json_object_get(clat, "percentile");
	out->p50_us = num(pct, "50.000000") * scale;
	out->p99_us = num(pct, "99.000000") * scale;
}

/* A job's entry in a document as run r: every direction's figures as
 * metrics (read_iops, write_clat_p99_us...), the chosen one also under
 * its judged name (iops, clat_p99_us...). */
static int fio_job_run(const json_t *job, const char *where, int dir, int fig, struct ct_run *r,
		       char *err, size_t len)
{
	static const char *const keys[] = { "iops", "bw_kib", "clat_p50_us", "clat_p99_us" };
	static const char *const names[] = { "iops", "bw_kib", "clat_mean_us", "clat_p50_us",
					     "clat_p99_us" };
	struct fio_dir d[3];
	double runtime = 0, v = NAN, error = num(job, "error");
	int ndirs = 0, k = dir;
	char name[CT_METRIC_NAME];

	for (int i = 0; i < 3; i++) {
		const json_t *o = json_object_get(job, fio_dirs[i]);

		memset(&d[i], 0, sizeof(d[i]));
		if (json_is_object(o))
			fio_read_dir(o, &d[i]);
		if (!d[i].did_io)
			continue;
		const double vals[] = { d[i].iops, d[i].bw_kib, d[i].clat_mean_us, d[i].p50_us,
					d[i].p99_us };

		ndirs++;
		if (k < 0 && dir < 0)
			k = i;
		if (d[i].runtime_ms > runtime)
			runtime = d[i].runtime_ms;
		for (int m = 0; m < 5; m++) {
			snprintf(name, sizeof(name), "%s_%s", fio_dirs[i], names[m]);
			if (isfinite(vals[m]))
				(void)ct_run_metric_set(r, name, vals[m]);
		}
	}
	if (!ndirs)
		return ct_err(err, len, -EPROTO, "%s did no I/O", where);
	if (dir >= 0 && !d[dir].did_io)
		return ct_err(err, len, -EPROTO, "%s did no %s I/O: it has no %s_%s", where,
			      fio_dirs[dir], fio_dirs[dir], fio_figures[fig]);
	if (dir < 0 && fig >= 2 && ndirs > 1)
		return ct_err(err, len, -EPROTO,
			      "%s did I/O in %d directions, each with its own %s: say --metric "
			      "read_%s or write_%s",
			      where, ndirs, fio_figures[fig], fio_figures[fig], fio_figures[fig]);
	if (dir < 0 && fig < 2) {
		v = 0; /* iops and bw: the job's total */
		for (int i = 0; i < 3; i++)
			if (d[i].did_io)
				v += fig ? d[i].bw_kib : d[i].iops;
	} else {
		v = fig == 0   ? d[k].iops
		    : fig == 1 ? d[k].bw_kib
		    : fig == 2 ? d[k].p50_us
			       : d[k].p99_us;
	}
	if (!isfinite(v))
		return ct_err(err, len, -EPROTO, "%s has no %s%s", where, fio_figures[fig],
			      fig >= 2 ? " (a percentile_list without it?)" : "");
	(void)ct_run_metric_set(r, keys[fig], v);
	if (!(runtime > 0))
		runtime = num(job, "job_runtime");
	if (!(runtime > 0))
		runtime = 0;
	r->wall_ns = (int64_t)llround(runtime * 1e6);
	v = num(job, "usr_cpu");
	r->user_us = v > 0 ? (int64_t)llround(v / 100 * runtime * 1e3) : 0;
	v = num(job, "sys_cpu");
	r->sys_us = v > 0 ? (int64_t)llround(v / 100 * runtime * 1e3) : 0;
	r->status = CT_RUN_OK;
	if (error > 0) {
		/* fio's error is an errno */
		r->status = CT_RUN_FAILED;
		r->exit_code = error < 4096 ? (int)error : 4095;
		snprintf(r->reason, sizeof(r->reason), "fio reported error %d (%s)", r->exit_code,
			 strerror(r->exit_code));
	}
	return 0;
}

/* "job=NAME rw=randread bs=4k ... metric=iops": the options runs of one
 * job must share to be compared, from the global and the job's options. */
static void fio_params(const json_t *doc, const json_t *job, const char *name, const char *metric,
		       char *buf, size_t len)
{
	static const char *const opts[] = { "rw",     "bs",	 "ioengine", "iodepth",
					    "direct", "numjobs", "size",     "runtime" };
	const json_t *g = json_object_get(doc, "global options");
	const json_t *j = json_object_get(job, "job options");
	size_t off = (size_t)snprintf(buf, len, "job=%s", name);

	for (size_t i = 0; i < CT_ARRAY_SIZE(opts) && off < len; i++) {
		const json_t *v = json_object_get(j, opts[i]);

		if (!json_is_string(v))
			v = json_object_get(g, opts[i]);
		if (json_is_string(v))
			off += (size_t)snprintf(buf + off, len - off, " %s=%s", opts[i],
						json_string_value(v));
	}
	if (off < len)
		snprintf(buf + off, len - off, " metric=%s", metric);
}

static struct ct_fio_job *fio_job(struct ct_fio *f, const char *name, const char *params)
{
	struct ct_fio_job *jobs;

	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->jobs[i].name, name) && !strcmp(f->jobs[i].params, params))
			return &f->jobs[i];
	jobs = realloc(f->jobs, (f->n + 1) * sizeof(*jobs));
	if (!jobs)
		return NULL;
	f->jobs = jobs;
	memset(&jobs[f->n], 0, sizeof(*jobs));
	snprintf(jobs[f->n].name, sizeof(jobs[f->n].name), "%s", name);
	snprintf(jobs[f->n].params, sizeof(jobs[f->n].params), "%s", params);
	return &jobs[f->n++];
}

/* The jobs of one JSON document. */
static int fio_doc(const json_t *doc, const char *file, unsigned ndoc, const char *metric,
		   const char *want, struct ct_fio *f, size_t *found, char *err, size_t len)
{
	const json_t *jobs = json_object_get(doc, "jobs"), *job;
	double stamp = num(doc, "timestamp");
	char where[CT_ERRLEN + 256], params[256], q[160];
	int dir, fig, rc;
	size_t i;

	if (!json_is_object(doc) || !json_is_array(jobs))
		return ct_err(err, len, -EPROTO,
			      "%s: JSON document %u is not fio's: no \"jobs\" array (fio "
			      "--output-format=json writes one)",
			      file, ndoc);
	(void)fio_metric(metric, &dir, &fig);
	json_array_foreach(jobs, i, job)
	{
		const json_t *jn = json_object_get(job, "jobname");
		const char *name = json_is_string(jn) ? json_string_value(jn) : NULL;
		struct ct_fio_job *fj;
		struct ct_run *runs;
		size_t k;

		if (!name)
			return ct_err(err, len, -EPROTO, "%s: document %u: job %zu has no jobname",
				      file, ndoc, i + 1);
		if (want && strcmp(name, want))
			continue;
		ct_quote(name, q, sizeof(q));
		for (k = 0; k < i; k++) {
			const json_t *o = json_object_get(json_array_get(jobs, k), "jobname");

			if (json_is_string(o) && !strcmp(json_string_value(o), name))
				return ct_err(err, len, -EPROTO,
					      "%s: document %u lists job %s twice (numjobs "
					      "without group_reporting): rerun fio with "
					      "--group_reporting",
					      file, ndoc, q);
		}
		fio_params(doc, job, name, metric, params, sizeof(params));
		fj = fio_job(f, name, params);
		runs = fj ? realloc(fj->runs, (fj->n + 1) * sizeof(*runs)) : NULL;
		if (!runs)
			return ct_err(err, len, -ENOMEM, "out of memory");
		fj->runs = runs;
		imported_run(&runs[fj->n], "fio", params, "fio", (unsigned)fj->n + 1);
		snprintf(where, sizeof(where), "%s: document %u: job %s", file, ndoc, q);
		rc = fio_job_run(job, where, dir, fig, &runs[fj->n], err, len);
		if (rc)
			return rc;
		/* unix seconds; nanoseconds in an int64_t end in 2262 */
		if (stamp > 0 && stamp < (double)(INT64_MAX / 1000000000LL))
			runs[fj->n].started_at = (int64_t)stamp * 1000000000LL;
		fj->n++;
		(*found)++;
	}
	return 0;
}

int ct_fio_parse(const char *text, size_t len, const char *file, const char *metric,
		 const char *job, struct ct_fio *out, char *err, size_t errlen)
{
	size_t at = 0, found = 0;
	unsigned ndoc = 0;
	char q[256], qj[160];
	int rc;

	ct_quote(file, q, sizeof(q));
	ct_quote(job ? job : "", qj, sizeof(qj));
	rc = ct_fio_metric_check(metric, err, errlen);
	while (!rc) {
		json_error_t je;
		json_t *doc;

		/* a document starts with '{' at the start of a line: fio's
		 * notes ("note: both iodepth >= 1 and synchronous I/O engine
		 * are selected...") come before it on the same stdout */
		while (at < len && !(text[at] == '{' && (at == 0 || text[at - 1] == '\n')))
			at++;
		if (at >= len)
			break;
		/* fio 2.x repeats keys ("0.00" in its percentiles): the last wins */
		doc = json_loadb(text + at, len - at, JSON_DISABLE_EOF_CHECK, &je);
		ndoc++;
		if (!doc) {
			for (char *c = je.text; *c; c++)
				if ((unsigned char)*c < 0x20 || *c == 0x7f)
					*c = ' ';
			return ct_err(err, errlen, -EPROTO, "%s: JSON document %u: %s (line %d)", q,
				      ndoc, je.text, je.line);
		}
		rc = fio_doc(doc, q, ndoc, metric, job, out, &found, err, errlen);
		json_decref(doc);
		at += je.position;
	}
	if (!rc && !ndoc)
		rc = ct_err(err, errlen, -EPROTO,
			    "%s: no JSON document in it (fio --output-format=json writes one)", q);
	if (!rc && !found)
		rc = job ? ct_err(err, errlen, -EPROTO, "%s: no job %s in it", q, qj)
			 : ct_err(err, errlen, -EPROTO, "%s: no job in it", q);
	return rc;
}

int ct_fio_store(struct ct_store *st, const struct ct_fio *f, const char *label,
		 const struct ct_sysinfo *si, const char *argv, unsigned *sessions, unsigned *runs,
		 char *err, size_t len)
{
	int64_t config;
	int rc;

	*sessions = *runs = 0;
	rc = ct_store_config_put(st, label, si, &config, err, len);
	for (size_t k = 0; k < f->n && !rc; k++) {
		rc = store_session(st, config, argv, "fio", f->jobs[k].runs, f->jobs[k].n, err,
				   len);
		if (!rc) {
			(*sessions)++;
			*runs += (unsigned)f->jobs[k].n;
		}
	}
	return rc;
}
