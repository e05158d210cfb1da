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
	CLI_OPT_LIST,	  /* struct ct_optlist: each value appended, printable */
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
	 * cli_late_defaults() */
	const char *quick;
	/* the default when the option named with is given (calibrate's -n:
	 * 5 with --sessions); set by cli_late_defaults() too */
	const char *with, *with_def;
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
/* Sets o's value in base from arg as the parser does (a list appends,
 * a callback is called): 0, or CT_EXIT_USAGE with one line in err
 * ("--runs must be a whole number, 1 to 100000, not 'x'"), printed by
 * nobody - a suite file says where the value came from. */
int cli_set_value(const struct cli_opt *o, void *base, const char *arg, char *err, size_t len);
/* Whether the option named long_name was given. */
bool cli_given(const struct cli_opt *opts, const struct cli_parsed *p, const char *long_name);
/* The defaults that depend on what was given, once it is known: with
 * quick, every option of cmd that has a quick default and was not given is
 * set to it; then each that has a default with another option that was
 * given (.with) is set to that one. 0, or CT_EXIT_USAGE. */
int cli_late_defaults(const char *cmd, const struct cli_opt *opts, void *base,
		      const struct cli_parsed *p, bool quick);
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

/* A subcommand and what it does, as --help lists it. */
struct cli_sub {
	const char *name, *summary;
};
/* The subcommands of cmd ("bisect"), NULL-terminated; NULL when it has
 * none (examples.c). */
const struct cli_sub *cli_subcommands(const char *cmd);

/* The --help text of cmd: synopsis, intro (may be NULL), its subcommands
 * under "commands:", then every option that is cmd's. */
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

/* How many single-character edits (insertions, deletions, substitutions,
 * swaps of two neighbours) turn a into b: "rnu" is 1 from "run". */
size_t cli_distance(const char *a, const char *b);
/* Whether a typed word is near enough a known one to suggest it (git's
 * "did you mean"), and nearer than *best (then set to its distance): at
 * most two edits, and a third of the word. */
bool cli_near(const char *typed, const char *known, size_t *best);

/* A label a later command takes back whole: one word of at most max - 1
 * bytes, not starting with '-', without a character a shell or a --label
 * pattern would read (blanks, quotes, ! $ & ; | < > ( ) { } \ ` # * ? [ ])
 * and not of the form '+NAME=VALUE' that --vary and --set name configs by
 * (a user's 'k+iosched=none' would be taken for one). 0, or CT_EXIT_USAGE
 * after one line naming the label and what is wrong with it. */
int cli_check_label(const char *cmd, const char *label, size_t max);

/* "unknown subcommand 'sttus'; did you mean 'status'?" (else the list of
 * cmd's subcommands): one line, CT_EXIT_USAGE. */
int cli_unknown_sub(const char *cmd, const char *word);

/* -l's list, the one way every command reads it: names separated by
 * commas, blanks around a comma no part of a name ('none, io'), an empty
 * item skipped, into loads[] (pointers into buf, of size bytes), at most
 * max. 0, or CT_EXIT_USAGE after one line: a list too long, too many, one
 * named twice, none. NULL list: *n is 0, and 0. Whether a name is a load
 * is the command's to check (compare knows loads only stored runs name). */
int cli_split_loads(const char *cmd, const char *list, char *buf, size_t size, const char **loads,
		    size_t max, size_t *n);

/* The range an option accepts, as its help says it: "1 to 100000", "at
 * least 5", "0 <= X < 1". "" when it has none. */
void cli_range_text(const struct cli_opt *o, char *buf, size_t len);

#endif
