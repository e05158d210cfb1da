/*
 * contend's entry point: a command table in git's manner. Each command
 * parses its own options, calls the library and picks the exit code of
 * DESIGN.md section 8; the library never prints and never exits.
 */
#include "cli.h"
#include "contend/store.h"
#include "contend/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int cmd_help(int argc, char **argv);

static const struct ct_cmd commands[] = {
	{ "run", cmd_run, "time a workload under each background load and store the runs" },
	{ "sysinfo", cmd_sysinfo, "print the system facts that identify a config" },
	{ "list", cmd_list, "list stored sessions" },
	{ "loads", cmd_loads, "list the background loads and what their Loads column counts" },
	{ "compare", cmd_compare, "compare stored configs per load, with verdicts" },
	{ "stats", cmd_stats, "compare sets of numbers: summaries, tests, verdicts (ministat)" },
	{ "restore", cmd_restore, "put back knobs a crashed contend left changed" },
	{ "help", cmd_help, "show this help" },
};

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

int cli_parse_confidence(const char *arg, double *out)
{
	if (ct_parse_double(arg, out) || *out >= 100) {
		cli_error("invalid value '%s' for --confidence (0 < PCT < 100)", arg);
		return -1;
	}
	return 0;
}

int cli_fail(int rc, const char *err)
{
	cli_error("%s", err && *err ? err : strerror(-rc));
	return ct_exit_code(rc);
}

int cli_open_store(const char *db, struct ct_store **st)
{
	char path[4096], err[CT_ERRLEN] = "";
	int rc;

	if (db) {
		snprintf(path, sizeof(path), "%s", db);
	} else {
		rc = ct_store_default_path(path, sizeof(path));
		if (rc)
			return cli_fail(rc, "cannot find a place for the results store: set "
					    "CONTEND_DB or use --db PATH");
	}
	rc = ct_store_open(st, path, err, sizeof(err));
	if (rc) {
		cli_error("%s", err);
		/* a path that cannot be a store (not a database, under a file, a
		 * directory) is bad input; anything else is the environment's */
		return rc == -EINVAL || rc == -ENOTDIR || rc == -EISDIR ? CT_EXIT_USAGE
									: CT_EXIT_ENV;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: contend <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < CT_ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-8s  %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nrun 'contend <command> --help' for a command's options\n");
}

static int cmd_help(int argc, char **argv)
{
	usage(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return CT_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("contend 0.1.0\n");
		return 0;
	}
	for (size_t i = 0; i < CT_ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	cli_error("'%s' is not a contend command (see: contend help)", argv[1]);
	return CT_EXIT_USAGE;
}
