/*
 * Peers' results as contend sessions (contend import): a hyperfine JSON
 * export becomes a session per benchmarked command, its per-run times the
 * runs, so compare, report and the verdicts apply to them.
 */
#ifndef CONTEND_IMPORT_H
#define CONTEND_IMPORT_H

#include "contend/common.h"
#include "contend/store.h"
#include "contend/sysinfo.h"

/* One command of a hyperfine export. */
struct ct_hyperfine_result {
	char command[256];
	double *times;	 /* seconds, one a run (malloc'd) */
	int *exit_codes; /* one a run, or NULL when the export has none */
	size_t n;
	double user, sys; /* hyperfine's means, seconds (it keeps no per-run CPU) */
};

struct ct_hyperfine {
	struct ct_hyperfine_result *results;
	size_t n;
};

/* Parses a hyperfine --export-json file's text. -EPROTO with one line in
 * err for text that is not such an export: not JSON, no "results" array, a
 * result without its command or its "times" (hyperfine before 1.3 kept
 * only the mean), a time that is not a positive number. */
int ct_hyperfine_parse(const char *text, size_t len, struct ct_hyperfine *out, char *err,
		       size_t errlen) CT_WUR;
void ct_hyperfine_free(struct ct_hyperfine *h);

/* Stores each result as a session of workload "cmd" (the command its
 * parameters, load "none") under the config labelled label with si's
 * facts: a run per time, failed where hyperfine saw a non-zero exit code.
 * argv is the session's command line. *sessions, *runs: what was stored. */
int ct_hyperfine_store(struct ct_store *st, const struct ct_hyperfine *h, const char *label,
		       const struct ct_sysinfo *si, const char *argv, unsigned *sessions,
		       unsigned *runs, char *err, size_t len) CT_WUR;

/*
 * fio --output-format=json results: a session per job name, each job's
 * entry in each JSON document a run (repeated invocations appended to one
 * file, or several files). Judged by one figure, chosen at import:
 * [read_|write_|trim_]{iops,bw,clat_p50,clat_p99}; without a direction,
 * iops and bw are the sum over the directions and a clat percentile needs
 * a job that did I/O in one direction only.
 */
struct ct_fio_job {
	char name[64];
	char params[256];    /* "job=NAME rw=... bs=... metric=iops": what runs must share */
	struct ct_run *runs; /* malloc'd */
	size_t n;
};

struct ct_fio {
	struct ct_fio_job *jobs;
	size_t n;
};

/* Checks a --metric choice: 0, or -EINVAL with one line in err. */
int ct_fio_metric_check(const char *metric, char *err, size_t len) CT_WUR;
/* Adds the runs of one file's text (file names it in messages): text
 * before, between and after the JSON documents is skipped (fio prints
 * notes on stdout), duplicate keys are taken (fio 2.x repeats "0.00" in
 * its percentiles), clat in us (fio 2.x "clat") or ns (3.x "clat_ns"),
 * a direction without I/O has no percentiles (3.x omits them, 2.x prints
 * zeros), disk_util may be absent. job: only that job (NULL: every job).
 * -EPROTO with one line in err for text that is not fio's JSON, a job
 * listed twice in one document (numjobs without group_reporting), or a
 * job without the chosen figure. */
int ct_fio_parse(const char *text, size_t len, const char *file, const char *metric,
		 const char *job, struct ct_fio *out, char *err, size_t errlen) CT_WUR;
void ct_fio_free(struct ct_fio *f);
/* Stores each job as a session of workload "fio" under label. */
int ct_fio_store(struct ct_store *st, const struct ct_fio *f, const char *label,
		 const struct ct_sysinfo *si, const char *argv, unsigned *sessions, unsigned *runs,
		 char *err, size_t len) CT_WUR;

#endif
