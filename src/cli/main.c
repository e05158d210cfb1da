/*
 * contend's entry point: a command table in git's manner. Each command
 * parses its own options, calls the library and picks the exit code of
 * docs/architecture.md, "Exit codes"; the library never prints and never
 * exits.
 */
#include "cli.h"
#include "opts.h"
#include "contend/store.h"
#include "contend/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmd_help(int argc, char **argv);

#define WRITES CLI_CMD_WRITES

static const struct ct_cmd commands[] = {
	{ "run", cmd_run, "time a workload under each background load and store the runs", WRITES },
	{ "calibrate", cmd_calibrate,
	  "measure the noise of runs and the smallest effect a verdict can find", WRITES },
	{ "sysinfo", cmd_sysinfo, "print the system facts that identify a config", 0 },
	{ "list", cmd_list, "list stored sessions", 0 },
	{ "loads", cmd_loads, "list the background loads and what their Loads column counts", 0 },
	{ "profiles", cmd_profiles,
	  "list the shipped suites of the benchmarks kernel people run (run -f NAME)", 0 },
	{ "compare", cmd_compare, "compare stored configs per load, with verdicts", 0 },
	{ "report", cmd_report,
	  "render stored results as text, JSON, CSV, Markdown or an HTML page", 0 },
	{ "why", cmd_why,
	  "why configs differ: where the foreground's time went, the counters that moved", 0 },
	{ "history", cmd_history,
	  "find when stored results moved over time: change points, for a nightly CI", 0 },
	{ "plan", cmd_plan,
	  "how many sessions and runs a side an effect needs, from stored spreads", 0 },
	{ "bisect", cmd_bisect,
	  "find the commit that made a workload slower, with noisy answers outvoted", WRITES },
	{ "stats", cmd_stats, "compare sets of numbers: summaries, tests, verdicts (ministat)", 0 },
	{ "import", cmd_import, "store a peer's results (hyperfine --export-json) as sessions",
	  WRITES },
	{ "push", cmd_push, "copy stored sessions into another store (a fleet's PostgreSQL)",
	  WRITES },
	{ "fleet", cmd_fleet,
	  "sum up a fleet's store: each machine's newest sessions with verdicts", 0 },
	{ "restore", cmd_restore, "put back knobs, stop servers, a killed contend left", 0 },
	{ "help", cmd_help, "show this help", 0 },
};

/* The command running: its flags decide how cli_open_store() opens. */
static const struct ct_cmd *running;

static int run_cmd(const struct ct_cmd *c, int argc, char **argv)
{
	running = c;
	return c->fn(argc, argv);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("contend: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("contend: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_fail(int rc, const char *err)
{
	cli_error("%s", err && *err ? err : strerror(-rc));
	return ct_exit_code(rc);
}

int cli_cmd_fail(const char *cmd, int rc, const char *err)
{
	const char *msg = err && *err ? err : strerror(-rc);
	int ex = ct_exit_code(rc);

	if (ex == CT_EXIT_USAGE)
		return cli_usage_error(cmd, "%s", msg);
	cli_error("%s: %s", cmd, msg);
	return ex;
}

static int open_store(const char *db, unsigned flags, struct ct_store **st)
{
	char path[4096], err[CT_ERRLEN] = "";
	int rc;

	/* a path the user gave (--db, $CONTEND_DB) is taken as given: its
	 * directory is never made; the default store's is */
	if (db || ((db = getenv("CONTEND_DB")) && *db)) {
		snprintf(path, sizeof(path), "%s", db);
		flags |= CT_STORE_NO_MKDIR;
	} else {
		rc = ct_store_default_path(path, sizeof(path));
		if (rc)
			return cli_fail(rc, "cannot find a place for the results store: set "
					    "CONTEND_DB or use --db PATH");
	}
	rc = ct_store_open(st, path, flags, err, sizeof(err));
	if (rc) {
		cli_error("%s", err);
		/* a path that cannot be a store (none there for a reader, not a
		 * database, under a file, a directory) is bad input; anything
		 * else is the environment's */
		return rc == -EINVAL || rc == -ENOTDIR || rc == -EISDIR ||
				       (rc == -ENOENT && !(flags & CT_STORE_CREATE))
			       ? CT_EXIT_USAGE
			       : CT_EXIT_ENV;
	}
	return 0;
}

int cli_open_store(const char *db, struct ct_store **st)
{
	return open_store(db, running && (running->flags & CLI_CMD_WRITES) ? CT_STORE_CREATE : 0,
			  st);
}

int cli_read_store(const char *db, struct ct_store **st)
{
	return open_store(db, 0, st);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: contend <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < CT_ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-9s  %s\n", commands[i].name, commands[i].summary);
	fprintf(f,
		"\n  --version  print contend's version\n"
		"\nexamples:\n"
		"  contend run                       # the default suite, stored, table printed\n"
		"  contend run -L \"$(uname -r)\"      # boot A, run; boot B, run; A; B...\n"
		"  contend compare 6.1.0 6.2.0       # then: per load, with verdicts\n"
		"  contend run -l none,io -n 6 --vary sysctl.vm.dirty_ratio=10,40\n"
		"  contend run -w cmd -l none,process -- make -j8\n"
		"\nrun 'contend help <command>' or 'contend <command> --help' for a\n"
		"command's options and examples; 'man contend' for all of them.\n"
		"documents (in the source tree): README.md, a manual; docs/README.md, the\n"
		"index of the rest - usage, statistics, store, fleet, architecture, studies\n");
}

static const struct ct_cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < CT_ARRAY_SIZE(commands); i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

/* "'rnu' is not a contend command; did you mean 'run'?": one line, exit 2. */
static int not_a_command(const char *word)
{
	const char *near = NULL;
	size_t best = SIZE_MAX;
	char q[96];

	for (size_t i = 0; i < CT_ARRAY_SIZE(commands); i++)
		if (cli_near(word, commands[i].name, &best))
			near = commands[i].name;
	ct_quote(word, q, sizeof(q));
	if (near)
		cli_error("%s is not a contend command; did you mean '%s'? (see: contend help)", q,
			  near);
	else
		cli_error("%s is not a contend command (see: contend help)", q);
	return CT_EXIT_USAGE;
}

/* `contend help [COMMAND]`: the list, or that command's --help. */
static int cmd_help(int argc, char **argv)
{
	const struct ct_cmd *c;

	if (argc > 2)
		return cli_usage_error("help", "takes one command");
	if (argc < 2 || !strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	c = find_cmd(argv[1]);
	if (!c)
		return not_a_command(argv[1]);
	char *args[] = { argv[1], "--help", NULL };

	return run_cmd(c, 2, args);
}

/* A password in an argument (--db postgresql://user:secret@..., a
 * conninfo's password=...) is blanked in the memory that /proc/PID/cmdline
 * shows to every user of the machine; contend goes on with a copy. */
static char **hide_argv(int argc, char **argv)
{
	static char **copies;

	for (int i = 1; i < argc; i++) {
		char *copy;

		if (!ct_hide_secrets(argv[i], (char[1]){ 0 }, 1))
			continue;
		if (!copies && !(copies = calloc((size_t)argc, sizeof(*copies))))
			break;
		if (!(copy = strdup(argv[i])))
			break;
		copies[i] = copy;
		ct_blank_secrets(argv[i]);
		argv[i] = copy;
	}
	return copies;
}

int main(int argc, char **argv)
{
	hide_argv(argc, argv);
	if (argc < 2) {
		usage(stderr);
		return CT_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("contend %s\n", ct_version);
		return 0;
	}
	const struct ct_cmd *c = find_cmd(argv[1]);

	if (c)
		return run_cmd(c, argc - 1, argv + 1);
	return not_a_command(argv[1]);
}
