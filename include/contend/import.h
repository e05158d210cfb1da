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

#endif
