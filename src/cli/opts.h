/*
 * Options as data (git's parse-options is the model): one table per
 * command says each option's name, type, range, units, which workloads or
 * loads it applies to and its help, and drives getopt_long, the checks and
 * the --help text alike, so the three can never disagree.
 */
#ifndef CONTEND_CLI_OPTS_H
#define CONTEND_CLI_OPTS_H

#include "contend/common.h"
#include "contend/option.h"

#include <stddef.h>
#include <stdio.h>

enum cli_opt_type {
	CLI_OPT_END,
	CLI_OPT_GROUP,	  /* a heading in --help: help is its text */
	CLI_OPT_FLAG,	  /* bool: set true */
	CLI_OPT_STRING,	  /* const char *: non-empty, printable */
	CLI_OPT_UINT,	  /* unsigned: whole number in [min, max] */
	CLI_OPT_U64,	  /* uint64_t: whole number in [min, max] */
	CLI_OPT_DOUBLE,	  /* double: number in min..max (CLI_MIN_OPEN, CLI_MAX_OPEN) */
	CLI_OPT_SIZE,	  /* uint64_t bytes: "64M", "1.5GiB", in [min, max] */
	CLI_OPT_DURATION, /* int64_t ns: "30s", "500ms", in [min, max] */
	CLI_OPT_CHOICE,	  /* int (or an enum): the value of one of choices */
	CLI_OPT_CALLBACK, /* cb(arg) checks and stores it */
	CLI_OPT_WORD,	  /* const char *: one of choices' words, the word kept */
};

enum {
	CLI_MIN_OPEN = 1 << 0, /* min itself is refused */
	CLI_MAX_OPEN = 1 << 1, /* max itself is refused */
	CLI_HIDDEN = 1 << 2,   /* not in --help (tests of the harness) */
	/* another plug-in's declaration of an option listed before it: in
	 * --help under this plug-in, given and set with the first */
	CLI_TWIN = 1 << 3,
};

struct cli_opt;
/* Checks arg and stores it in base; 0, or -errno with one line in err. */
typedef int (*cli_opt_cb)(const struct cli_opt *o, void *base, const char *arg, char *err,
			  size_t len);

struct cli_opt {
	enum cli_opt_type type;
	int short_name; /* 0: none */
	const char *long_name;
	size_t off;	  /* of the value in the command's arguments struct */
	const char *argh; /* the argument's name in --help: "N", "SIZE" */
	/* help text; "%R" is replaced by the range the parser accepts, "%D"
	 * by "default DEF" (", quick QUICK" after it when there is one),
	 * "%{NAME}" by the default of the option NAME, and a '\n' starts a
	 * new, indented line */
	const char *help;
	double min, max;
	unsigned flags;
	/* a choice's words and the values they store (fio's posval[].oval,
	 * git's OPT_SET_INT): the command reads an enum, never the word */
	const struct ct_option_choice *choices;
	/* the value when the option is not given, written as a user would
	 * type it (fio's .def): the parser sets it before reading argv, and
	 * --help prints it from here; NULL: none (the field keeps what the
	 * command put there) */
	const char *def;
	/* the default in the quick profile when it is another; set by
	 * cli_quick_defaults() */
	const char *quick;
	/* a workload's or load's option (contend/option.h): it applies only
	 * when the workload or a chosen load declares one of its name */
	const struct ct_option *plugin;
	/* a bool at this offset of base set true when given; 0: none */
	size_t given_off;
	cli_opt_cb cb;
	/* the commands of a shared table it belongs to ("run,calibrate");
	 * NULL: all */
	const char *only;
};

#define CLI_MAX_OPTS 160

struct cli_parsed {
	bool given[CLI_MAX_OPTS]; /* per table entry */
	int rest;		  /* argv index of the first operand */
	bool dashdash;		  /* the operands came after "--" */
};

/* Parses argv (argv[0] is the command's name) by the table into base (the
 * command's arguments struct). 0 when it parsed; 1 when --help was asked
 * for and printed on stdout; CT_EXIT_USAGE after printing one line
 * "contend: CMD: ... (see: contend CMD --help)". */
int cli_parse(const char *cmd, const char *synopsis, const char *intro, const struct cli_opt *opts,
	      void *base, int argc, char **argv, struct cli_parsed *p);
/* The same, but options end at the first operand (run: what follows is
 * the command's). */
int cli_parse_in_order(const char *cmd, const char *synopsis, const char *intro,
		       const struct cli_opt *opts, void *base, int argc, char **argv,
		       struct cli_parsed *p);
/* Whether the option named long_name was given. */
bool cli_given(const struct cli_opt *opts, const struct cli_parsed *p, const char *long_name);
/* Sets every option of cmd that has a quick default and was not given to
 * that default (after the profile is known). 0, or CT_EXIT_USAGE. */
int cli_quick_defaults(const char *cmd, const struct cli_opt *opts, void *base,
		       const struct cli_parsed *p);
/* cmd's entry of the option named long_name; NULL when it has none. */
const struct cli_opt *cli_find(const struct cli_opt *opts, const char *cmd, const char *long_name);
/* The word of a choice option's value; NULL when none has it. */
const char *cli_choice_name(const struct ct_option_choice *choices, int val);

/* Table entries: the value at offsetof(T, m) of the arguments struct T. */
#define CLI_GROUP(text)                             \
	{                                           \
		.type = CLI_OPT_GROUP, .help = text \
	}
#define CLI_FLAG(s, l, T, m, h)                                                               \
	{                                                                                     \
		.type = CLI_OPT_FLAG, .short_name = s, .long_name = l, .off = offsetof(T, m), \
		.help = h                                                                     \
	}
#define CLI_STRING(s, l, T, m, a, h)                                                            \
	{                                                                                       \
		.type = CLI_OPT_STRING, .short_name = s, .long_name = l, .off = offsetof(T, m), \
		.argh = a, .help = h                                                            \
	}
#define CLI_NUM(t, s, l, T, m, a, h, lo, hi, fl)                                              \
	{                                                                                     \
		.type = t, .short_name = s, .long_name = l, .off = offsetof(T, m), .argh = a, \
		.help = h, .min = lo, .max = hi, .flags = fl                                  \
	}
/* The same with a default (d) and a quick profile's (q, or NULL). */
#define CLI_NUM_DEF(t, s, l, T, m, a, h, lo, hi, fl, d, q)                                    \
	{                                                                                     \
		.type = t, .short_name = s, .long_name = l, .off = offsetof(T, m), .argh = a, \
		.help = h, .min = lo, .max = hi, .flags = fl, .def = d, .quick = q            \
	}
/* d: the default's word, or NULL */
#define CLI_CHOICE(l, T, m, a, h, c, d)                                                   \
	{                                                                                 \
		.type = CLI_OPT_CHOICE, .long_name = l, .off = offsetof(T, m), .argh = a, \
		.help = h, .choices = c, .def = d                                         \
	}
#define CLI_CALLBACK(l, a, h, fn)                                                        \
	{                                                                                \
		.type = CLI_OPT_CALLBACK, .long_name = l, .argh = a, .help = h, .cb = fn \
	}
#define CLI_END                     \
	{                           \
		.type = CLI_OPT_END \
	}

/* The --help text of cmd: synopsis, intro (may be NULL), then every option
 * that is cmd's. */
/* The example lines that end cmd's --help, NULL-terminated; NULL for none
 * (examples.c). */
const char *const *cli_examples(const char *cmd);
void cli_help(FILE *f, const char *cmd, const char *synopsis, const char *intro,
	      const struct cli_opt *opts);

/* Writes text (o's help, or an intro when o is NULL) as --help does: '\n'
 * starts a line indented by indent, %R is o's range, %D its default and
 * %{NAME} the default of cmd's option NAME in opts. */
void cli_expand(FILE *f, const char *text, const struct cli_opt *o, const struct cli_opt *opts,
		const char *cmd, int indent);

/* Prints "contend: CMD: <msg> (see: contend CMD --help)" and returns
 * CT_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) CT_PRINTF(2, 3);

/* The range an option accepts, as its help says it: "1 to 100000", "at
 * least 5", "0 <= X < 1". "" when it has none. */
void cli_range_text(const struct cli_opt *o, char *buf, size_t len);

#endif
