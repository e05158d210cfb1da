/*
 * What the command files share: the command table's entry type, option
 * helpers that print one clear line and return the exit code, and the
 * progress display.
 */
#ifndef CONTEND_CLI_H
#define CONTEND_CLI_H

#include "opts.h"
#include "contend/common.h"
#include "contend/report.h"
#include "contend/session.h"

#include <stdio.h>

struct ct_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	unsigned flags;
};

/* ct_cmd.flags */
enum {
	/* the command writes the results store: cli_open_store() opens it
	 * for writing and makes it when missing (git's RUN_SETUP: the table
	 * says what a command needs, not each command) */
	CLI_CMD_WRITES = 1 << 0,
};

int cmd_run(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_sysinfo(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_loads(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_why(int argc, char **argv);
int cmd_restore(int argc, char **argv);
int cmd_push(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_fleet(int argc, char **argv);
int cmd_profiles(int argc, char **argv);
/* profiles --session ID: the suite file session ID's job ran from. */
int cli_stored_suite(const char *session, const char *db);

/* Prints "contend: <msg>" on stderr. */
void cli_error(const char *fmt, ...) CT_PRINTF(1, 2);
void cli_warn(const char *fmt, ...) CT_PRINTF(1, 2);
/* A confidence level in percent, 0 < PCT < 100; prints and returns -1 if not. */
int cli_parse_confidence(const char *arg, double *out);
/* Prints the library error for rc and returns the exit code. */
int cli_fail(int rc, const char *err);
/* The same for a command's check: "contend: CMD: <err>", and for bad input
 * (exit 2) the pointer to CMD's --help. */
int cli_cmd_fail(const char *cmd, int rc, const char *err);
/* Opens the store named by --db or the default as the command table says
 * of the running command: made when missing for a CLI_CMD_WRITES command,
 * only an existing one for any other. Prints and returns the exit code on
 * failure, 0 on success. */
int cli_open_store(const char *db, struct ct_store **st);
/* The same, never made, whatever the command: a writer's look that must
 * leave nothing behind (run --dry-run, calibrate --from, push's source). */
int cli_read_store(const char *db, struct ct_store **st);

/* The machine's knob journal; knob rows an older store kept (st may be
 * NULL) are moved into it first. */
int cli_open_journal(struct ct_journal *j, struct ct_store *st, char *err, size_t len) CT_WUR;

/* A command's report: its format and where it goes (output.c). */
struct cli_out {
	enum ct_report_format fmt;
	const char *path; /* -o FILE, or NULL: stdout */
	FILE *f;	  /* stdout, or the temporary file beside path */
	char tmp[4096];	  /* the temporary file's name while it is open */
};
/* --format's value before it is given: -o's extension decides. */
#define CLI_FORMAT_AUTO (-1)
/* Settles the format (--format, an enum ct_report_format, else -o's
 * extension, else text; html only where html is true) and checks that -o's
 * directory takes a file: a mistake said before any work. 0, or the exit
 * code after one line. */
int cli_out_setup(struct cli_out *o, const char *cmd, int format, const char *path, bool html);
/* Opens the temporary file beside -o's (nothing to do for stdout). */
int cli_out_open(struct cli_out *o, const char *cmd);
/* keep: renames the temporary file over -o's; else removes it. 0, or the
 * exit code after one line when the report could not be written. */
int cli_out_close(struct cli_out *o, const char *cmd, bool keep);
/* Prints the model in a format other than text. */
int cli_out_report(struct cli_out *o, const struct ct_report *rep, const char *cmd);

/* The --format choices of a command (html: run, compare, report only). */
extern const struct ct_option_choice cli_formats[];
extern const struct ct_option_choice cli_formats_html[];
#define CLI_FORMAT_HELP	     "text (default), json, csv or md; default from -o's\nextension"
#define CLI_FORMAT_HELP_HTML "text (default), json, csv, md or html; default from\n-o's extension"

/* The options every command that reads the store or prints a report
 * shares, declared here once (git's OPT__QUIET): --db, --format (with html
 * for the commands that write a page) and -o (what: what it writes, "the
 * report"). The _OF and _ONLY forms take the commands of a shared table
 * the option belongs to (opts.h's .only). */
#define CLI_DB_HELP  "results store (default $CONTEND_DB or\n$XDG_DATA_HOME/contend/results.db)"
#define CLI_DB(T, m) CLI_STRING(0, "db", T, m, "PATH", CLI_DB_HELP)
#define CLI_FORMAT_OF(T, m, c, h, cmds)                                                            \
	{                                                                                          \
		.type = CLI_OPT_CHOICE, .long_name = "format", .off = offsetof(T, m), .argh = "F", \
		.help = h, .choices = c, .only = cmds                                              \
	}
#define CLI_FORMAT(T, m)      CLI_FORMAT_OF(T, m, cli_formats, CLI_FORMAT_HELP, NULL)
#define CLI_FORMAT_HTML(T, m) CLI_FORMAT_OF(T, m, cli_formats_html, CLI_FORMAT_HELP_HTML, NULL)
#define CLI_OUTPUT_ONLY(T, m, what, cmds)                                            \
	{                                                                            \
		.type = CLI_OPT_STRING, .short_name = 'o', .long_name = "output",    \
		.off = offsetof(T, m), .argh = "FILE",                               \
		.help = "write " what " to FILE (whole or not at all)", .only = cmds \
	}
#define CLI_OUTPUT(T, m, what) CLI_OUTPUT_ONLY(T, m, what, NULL)

struct cli_progress {
	bool tty;
	bool quiet;
	bool plain; /* a line per run, terminal or not (--progress plain) */
	bool line_open;
	unsigned nruns, nfailed;
	/* each load's ok runs so far (Welford's running mean and squares),
	 * and its last run's Time, as hyperfine shows them */
	struct {
		char load[32];
		unsigned n;
		double mean, m2, last;
	} loads[64];
	unsigned nloads;
};
enum cli_progress_mode {
	CLI_PROGRESS_AUTO,  /* a line rewritten in place on a terminal */
	CLI_PROGRESS_PLAIN, /* a line per run, terminal or not */
	CLI_PROGRESS_NONE,
};
void cli_progress_init(struct cli_progress *p, enum cli_progress_mode mode);
void cli_progress_event(void *ctx, const struct ct_event *ev);
void cli_progress_done(struct cli_progress *p);

#endif
