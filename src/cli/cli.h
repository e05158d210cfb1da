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
int cmd_calibrate(int argc, char **argv);
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
/* Opens the store named by --db or the default (flags: CT_STORE_CREATE for
 * writers); prints and returns the exit code on failure, 0 on success. */
int cli_open_store(const char *db, unsigned flags, struct ct_store **st);

/* The machine's knob journal; knob rows an older store kept (st may be
 * NULL) are moved into it first. */
int cli_open_journal(struct ct_journal *j, struct ct_store *st, char *err, size_t len) CT_WUR;

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
