/*
 * What the command files share: the command table's entry type, option
 * helpers that print one clear line and return the exit code, and the
 * progress display.
 */
#ifndef CONTEND_CLI_H
#define CONTEND_CLI_H

#include "contend/common.h"
#include "contend/session.h"

struct ct_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

int cmd_run(int argc, char **argv);
int cmd_sysinfo(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_loads(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_restore(int argc, char **argv);

/* Prints "contend: <msg>" on stderr. */
void cli_error(const char *fmt, ...) CT_PRINTF(1, 2);
void cli_warn(const char *fmt, ...) CT_PRINTF(1, 2);
/* A confidence level in percent, 0 < PCT < 100; prints and returns -1 if not. */
int cli_parse_confidence(const char *arg, double *out);
/* Prints the library error for rc and returns the exit code. */
int cli_fail(int rc, const char *err);
/* Opens the store named by --db or the default; prints and returns the
 * exit code on failure, 0 on success. */
int cli_open_store(const char *db, struct ct_store **st);

/* Before `contend run` changes a knob: 0 when the store's knob journal is
 * empty, else -EBUSY with one line in err naming the knobs left changed and
 * saying "run 'contend restore'" (or the running contend that holds them).
 * The caller prints it and exits with ct_exit_code(rc). */
int cli_check_journal(struct ct_store *st, char *err, size_t len) CT_WUR;

/* The ok runs of one row (a session and load; NULL label, workload or
 * params match any) and their values (ct_run_value), fetched once for the
 * tests, the pairing and the list of flagged runs. Session 0: none. */
struct cli_row_runs {
	struct ct_run *runs;
	double *t;
	size_t n;
};
int cli_row_runs(struct ct_store *st, int64_t session, const char *label, const char *workload,
		 const char *params, const char *load, struct cli_row_runs *rr, char *err,
		 size_t len) CT_WUR;
void cli_row_runs_free(struct cli_row_runs *rr);

struct cli_progress {
	bool tty;
	bool quiet;
	bool line_open;
	unsigned nruns, nfailed;
};
void cli_progress_init(struct cli_progress *p, bool quiet);
void cli_progress_event(void *ctx, const struct ct_event *ev);
void cli_progress_done(struct cli_progress *p);

#endif
