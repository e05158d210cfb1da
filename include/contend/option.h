/*
 * The options a workload or a load takes, declared in its ops beside the
 * code that reads them (fio keeps an engine's options in the engine's ops,
 * stress-ng a stressor's in the stressor): each says its name, type, the
 * field its value goes to, its range, default and help. `contend run`
 * builds its command line, its checks ("--mem-size applies to load mem
 * only"), its --help and the man page's list of these options from the
 * tables, so a new load's option is written once, in the load's file.
 */
#ifndef CONTEND_OPTION_H
#define CONTEND_OPTION_H

#include <stddef.h>
#include <string.h>

enum ct_option_type {
	CT_OPTION_END,
	CT_OPTION_FLAG,	    /* bool: set true */
	CT_OPTION_STRING,   /* const char *: non-empty, printable */
	CT_OPTION_UINT,	    /* unsigned: whole number in [min, max] */
	CT_OPTION_U64,	    /* uint64_t: whole number in [min, max] */
	CT_OPTION_DOUBLE,   /* double: number in min..max */
	CT_OPTION_SIZE,	    /* uint64_t bytes: "64M", "1.5GiB" */
	CT_OPTION_DURATION, /* int64_t ns: "30s", "500ms" */
	CT_OPTION_CHOICE,   /* int: the val of one of choices */
	CT_OPTION_WORD,	    /* const char *: one of choices' names, the word kept */
	CT_OPTION_LIST,	    /* struct ct_optlist: each value given, in order */
};

#define CT_OPTLIST_MAX 16
/* The values of an option that may be given more than once, in the order
 * given, each with the name of the option that gave it: options that
 * share one list (--figure and --figure-json) keep their order across
 * both. */
struct ct_optlist {
	struct {
		const char *opt, *arg;
	} v[CT_OPTLIST_MAX];
	unsigned n;
};

/* The struct an option's value goes to; off is from its start. */
enum ct_option_in {
	CT_OPTION_IN_ENV,      /* struct ct_env (loads read it) */
	CT_OPTION_IN_WORKLOAD, /* struct ct_workload_opts */
	CT_OPTION_IN_OLTP,     /* struct ct_oltp_opts (the oltp workload and load) */
};

enum {
	CT_OPTION_MIN_OPEN = 1 << 0, /* min itself is refused */
	CT_OPTION_MAX_OPEN = 1 << 1, /* max itself is refused */
};

/* A word a choice option takes and the value it stores; a table of them
 * ends with { NULL }. */
struct ct_option_choice {
	const char *name;
	int val;
};

struct ct_option {
	enum ct_option_type type;
	const char *name; /* the long option, without "--" */
	enum ct_option_in in;
	size_t off;
	const char *argh; /* the value's name in --help: "SIZE" */
	/* --help's text: '\n' starts a line, "%R" is the range the parser
	 * takes, "%D" "default DEF" (", quick QUICK" after it) */
	const char *help;
	/* more for the man page, after help: plain text, '\n' a paragraph */
	const char *doc;
	double min, max; /* max: INFINITY for none */
	unsigned flags;	 /* CT_OPTION_*_OPEN */
	const struct ct_option_choice *choices;
	const char *def;   /* the value when not given, as typed; NULL: none */
	const char *quick; /* the quick profile's default, when another */
	/* a bool in the same struct set true when the option is given
	 * (a default of 0 that differs from "not given"); 0: none */
	size_t given_off;
};

/* Entries: the value at offsetof(T, m) of the struct that in names. */
#define CT_OPTION(t, n, where, T, m, a, h, lo, hi, fl)                                          \
	{                                                                                       \
		.type = t, .name = n, .in = where, .off = offsetof(T, m), .argh = a, .help = h, \
		.min = lo, .max = hi, .flags = fl                                               \
	}
/* The same in each struct: a field of ct_workload_opts, ct_env, ct_oltp_opts */
#define CT_WORKLOAD_OPTION(t, n, m, a, h, lo, hi, fl) \
	CT_OPTION(t, n, CT_OPTION_IN_WORKLOAD, struct ct_workload_opts, m, a, h, lo, hi, fl)
#define CT_ENV_OPTION(t, n, m, a, h, lo, hi, fl) \
	CT_OPTION(t, n, CT_OPTION_IN_ENV, struct ct_env, m, a, h, lo, hi, fl)
#define CT_OLTP_OPTION(t, n, m, a, h, lo, hi, fl) \
	CT_OPTION(t, n, CT_OPTION_IN_OLTP, struct ct_oltp_opts, m, a, h, lo, hi, fl)
#define CT_OPTION_DONE                \
	{                             \
		.type = CT_OPTION_END \
	}

/* The entry of table named name; NULL when it has none (or table is NULL). */
static inline const struct ct_option *ct_option_find(const struct ct_option *table,
						     const char *name)
{
	for (; table && table->type != CT_OPTION_END; table++)
		if (!strcmp(table->name, name))
			return table;
	return NULL;
}

#endif
