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

static double number(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : 0;
}

static int parse_result(const json_t *o, size_t k, struct ct_hyperfine_result *r, char *err,
			size_t len)
{
	const json_t *cmd = json_object_get(o, "command"), *times = json_object_get(o, "times");
	const json_t *codes = json_object_get(o, "exit_codes"), *v;
	size_t i;

	if (!json_is_string(cmd))
		return ct_err(err, len, -EPROTO, "hyperfine result %zu has no command", k + 1);
	snprintf(r->command, sizeof(r->command), "%s", json_string_value(cmd));
	if (!json_is_array(times) || !json_array_size(times))
		return ct_err(err, len, -EPROTO,
			      "hyperfine result %zu ('%s') has no \"times\" (hyperfine before 1.3 "
			      "kept only the mean)",
			      k + 1, r->command);
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
				"hyperfine result %zu ('%s'): time %zu is not a positive number",
				k + 1, r->command, i + 1);
	}
	if (json_is_array(codes) && json_array_size(codes) == r->n) {
		r->exit_codes = calloc(r->n, sizeof(*r->exit_codes));
		if (!r->exit_codes)
			return ct_err(err, len, -ENOMEM, "out of memory");
		json_array_foreach(codes, i, v) r->exit_codes[i] =
			json_is_integer(v) ? (int)json_integer_value(v) : 0;
	}
	r->user = number(o, "user");
	r->sys = number(o, "system");
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

/* One command's session and runs, in one transaction. */
static int store_result(struct ct_store *st, const struct ct_hyperfine_result *r, int64_t config,
			const char *argv, char *err, size_t len)
{
	struct ct_session_rec rec;
	struct ct_run run;
	int rc;

	memset(&rec, 0, sizeof(rec));
	rec.config_id = config;
	snprintf(rec.argv, sizeof(rec.argv), "%s", argv);
	snprintf(rec.workload, sizeof(rec.workload), "cmd");
	snprintf(rec.profile, sizeof(rec.profile), "imported");
	ct_owner_self(&rec.owner);
	rc = ct_store_begin(st, err, len);
	if (rc)
		return rc;
	rc = ct_store_session_begin(st, &rec, err, len);
	for (size_t i = 0; i < r->n && !rc; i++) {
		int code = r->exit_codes ? r->exit_codes[i] : 0;

		memset(&run, 0, sizeof(run));
		run.session_id = rec.id;
		run.config_id = config;
		snprintf(run.workload, sizeof(run.workload), "cmd");
		snprintf(run.load, sizeof(run.load), "none");
		snprintf(run.workload_params, sizeof(run.workload_params), "%s", r->command);
		snprintf(run.load_params, sizeof(run.load_params), "imported=hyperfine");
		run.seq = (unsigned)i + 1;
		run.status = code ? CT_RUN_FAILED : CT_RUN_OK;
		if (code)
			snprintf(run.reason, sizeof(run.reason), "hyperfine saw exit status %d",
				 code);
		run.exit_code = code;
		run.started_at = rec.started_at;
		run.wall_ns = (int64_t)llround(r->times[i] * 1e9);
		run.user_us = (int64_t)llround(r->user * 1e6);
		run.sys_us = (int64_t)llround(r->sys * 1e6);
		run.load_unit_scale = 1;
		run.mon.start_dirty_bytes = run.mon.start_writeback_bytes = -1;
		run.mon.start_cpu_speed = -1;
		rc = ct_store_run_put(st, &run, err, len);
	}
	if (!rc)
		rc = ct_store_session_end(st, rec.id, "complete", err, len);
	if (!rc)
		rc = ct_store_commit(st, err, len);
	if (rc)
		ct_store_rollback(st);
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
