/*
 * The options workloads and loads declare in their ops (contend/option.h),
 * joined to run's own table: each becomes an entry of the parser's table
 * with its value's place in struct run_args, under a heading that names
 * the workloads and loads that take it ("loads io, io_other, read:"). An
 * option more than one plug-in declares is one option: the first
 * declaration is parsed, the others are its twins, listed with their own
 * help and set from the same argument. From the same tables: the check
 * that a given option applies to the workload or a chosen load, and the
 * man page's list of them (run --man-options).
 */
#include "run.h"
#include "opts.h"
#include "contend/load.h"
#include "contend/option.h"
#include "contend/workload.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The plug-ins in their listing order: the workloads, then the loads. */
struct plugin {
	const char *name;
	bool load;
	const struct ct_option *options;
};

static size_t plugins(struct plugin *p, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < ct_workload_count() && n < max; i++)
		p[n++] = (struct plugin){ ct_workload_at(i)->name, false,
					  ct_workload_at(i)->options };
	for (size_t i = 0; i < ct_load_count() && n < max; i++)
		p[n++] = (struct plugin){ ct_load_at(i)->name, true, ct_load_at(i)->options };
	return n;
}

/* Two declarations of one option with the same place and help (a macro
 * several loads use) are one entry; another help or place is a twin. */
static bool same(const struct ct_option *a, const struct ct_option *b)
{
	return a == b || (!strcmp(a->name, b->name) && a->in == b->in && a->off == b->off &&
			  a->type == b->type && !strcmp(a->help, b->help));
}

/* Who declares o (or one like it; by_name: any option of its name):
 * "workloads kbuild, selftest", "workload oltp; load oltp". */
static void takers(const struct ct_option *o, bool by_name, const struct plugin *pl, size_t npl,
		   char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int load = 0; load < 2; load++) {
		char names[160] = "";
		size_t n = 0, nl = 0;

		for (size_t i = 0; i < npl; i++) {
			const struct ct_option *t = ct_option_find(pl[i].options, o->name);

			if (pl[i].load != load || !t || (!by_name && !same(t, o)) ||
			    nl >= sizeof(names))
				continue;
			nl += (size_t)snprintf(names + nl, sizeof(names) - nl, "%s%s",
					       n ? ", " : "", pl[i].name);
			n++;
		}
		if (n && off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s%s %s", off ? "; " : "",
						load ? "load" : "workload", n > 1 ? "s" : "",
						names);
	}
}

/* Where an option of struct in goes in struct run_args. */
static size_t place(enum ct_option_in in)
{
	switch (in) {
	case CT_OPTION_IN_ENV:
		return offsetof(struct run_args, s.env);
	case CT_OPTION_IN_WORKLOAD:
		return offsetof(struct run_args, s.opts.wopts);
	case CT_OPTION_IN_OLTP:
		return offsetof(struct run_args, oltp);
	}
	return 0;
}

static struct cli_opt entry(const struct ct_option *o)
{
	static const enum cli_opt_type types[] = {
		[CT_OPTION_FLAG] = CLI_OPT_FLAG,	 [CT_OPTION_STRING] = CLI_OPT_STRING,
		[CT_OPTION_UINT] = CLI_OPT_UINT,	 [CT_OPTION_U64] = CLI_OPT_U64,
		[CT_OPTION_DOUBLE] = CLI_OPT_DOUBLE,	 [CT_OPTION_SIZE] = CLI_OPT_SIZE,
		[CT_OPTION_DURATION] = CLI_OPT_DURATION, [CT_OPTION_CHOICE] = CLI_OPT_CHOICE,
		[CT_OPTION_WORD] = CLI_OPT_WORD,	 [CT_OPTION_LIST] = CLI_OPT_LIST,
	};
	_Static_assert((int)CT_OPTION_MIN_OPEN == (int)CLI_MIN_OPEN &&
			       (int)CT_OPTION_MAX_OPEN == (int)CLI_MAX_OPEN,
		       "the range flags are the parser's");

	return (struct cli_opt){
		.type = types[o->type],
		.long_name = o->name,
		.off = place(o->in) + o->off,
		.argh = o->argh,
		.help = o->help,
		.min = o->min,
		.max = o->max,
		.flags = o->flags,
		.choices = o->choices,
		.def = o->def,
		.quick = o->quick,
		.plugin = o,
		.given_off = o->given_off ? place(o->in) + o->given_off : 0,
	};
}

static struct cli_opt table[CLI_MAX_OPTS + 1];
/* per option, who takes it: the heading its group is listed under */
static char takers_of[CLI_MAX_OPTS][192];

/* The options the plug-ins declare, each once, in the order of the first
 * plug-in that declares it, grouped by who takes them. */
static size_t plugin_entries(size_t n)
{
	struct plugin pl[64];
	size_t npl = plugins(pl, sizeof(pl) / sizeof(pl[0])), nu = 0;
	const struct ct_option *uniq[CLI_MAX_OPTS];
	char(*key)[192] = takers_of;
	bool done[CLI_MAX_OPTS] = { false };

	for (size_t i = 0; i < npl; i++)
		for (const struct ct_option *o = pl[i].options; o && o->type != CT_OPTION_END;
		     o++) {
			size_t k = 0;

			while (k < nu && !same(uniq[k], o))
				k++;
			if (k == nu && nu < CLI_MAX_OPTS) {
				takers(o, false, pl, npl, key[nu], sizeof(key[nu]) - 1);
				strcat(key[nu], ":");
				uniq[nu++] = o;
			}
		}
	for (size_t i = 0; i < nu; i++) {
		if (done[i])
			continue;
		if (n < CLI_MAX_OPTS)
			table[n++] = (struct cli_opt){ .type = CLI_OPT_GROUP, .help = key[i] };
		for (size_t k = i; k < nu && n < CLI_MAX_OPTS; k++) {
			if (done[k] || strcmp(key[k], key[i]))
				continue;
			table[n] = entry(uniq[k]);
			for (size_t e = 0; e < n; e++)
				if (table[e].long_name &&
				    !strcmp(table[e].long_name, uniq[k]->name))
					table[n].flags |= CLI_TWIN;
			n++;
			done[k] = true;
		}
	}
	return n;
}

const struct cli_opt *run_opts_table(void)
{
	static bool built;
	size_t n = 0;

	if (built)
		return table;
	while (run_base_opts[n].type != CLI_OPT_END && n < CLI_MAX_OPTS) {
		table[n] = run_base_opts[n];
		n++;
	}
	n = plugin_entries(n);
	if (n >= CLI_MAX_OPTS) {
		/* a plug-in's option dropped would be an option that is not there */
		fprintf(stderr, "contend: internal: over %d options: raise CLI_MAX_OPTS\n",
			CLI_MAX_OPTS);
		abort();
	}
	table[n] = (struct cli_opt)CLI_END;
	built = true;
	return table;
}

bool run_takes(const struct ct_workload_ops *w, const char *name)
{
	return ct_option_find(w->options, name) != NULL;
}

int run_check_plugins(const struct run_args *a, const struct cli_parsed *p,
		      const struct ct_workload_ops *w)
{
	const struct cli_opt *opts = run_opts_table();
	struct plugin pl[64];
	size_t npl = plugins(pl, sizeof(pl) / sizeof(pl[0]));
	char who[256];

	for (size_t i = 0; opts[i].type != CLI_OPT_END; i++) {
		bool taken;

		if (!p->given[i] || !opts[i].plugin || (opts[i].flags & CLI_TWIN))
			continue;
		taken = run_takes(w, opts[i].long_name);
		for (size_t k = 0; k < a->s.opts.nloads && !taken; k++)
			taken = ct_option_find(ct_load_find(a->s.opts.loads[k])->options,
					       opts[i].long_name) != NULL;
		if (taken)
			continue;
		takers(opts[i].plugin, true, pl, npl, who, sizeof(who));
		return cli_usage_error(a->cmd, "--%s applies to %s only", opts[i].long_name, who);
	}
	return 0;
}

/* s for roff: a '-' as \-, a '\' as \e, a line that would start with '.'
 * or '\'' guarded. */
static void roff(FILE *f, const char *s)
{
	bool bol = true;

	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		bol = false;
		if (*s == '\n') {
			fputs("\n.IP\n", f);
			bol = true;
		} else if (*s == '-')
			fputs("\\-", f);
		else if (*s == '\\')
			fputs("\\e", f);
		else
			fputc(*s, f);
	}
}

void run_man_options(FILE *f)
{
	const struct cli_opt *opts = run_opts_table();
	size_t first = 0;

	while (run_base_opts[first].type != CLI_OPT_END)
		first++;
	fputs(".\\\" generated by contend run --man-options from the options the workloads\n"
	      ".\\\" and loads declare: make man writes it here\n",
	      f);
	for (size_t i = first; opts[i].type != CLI_OPT_END; i++) {
		const struct cli_opt *o = &opts[i];
		char *text = NULL;
		size_t len = 0;
		FILE *m;

		if (o->type == CLI_OPT_GROUP) {
			fputs(".PP\nOptions of the ", f);
			roff(f, o->help);
			fputc('\n', f);
			continue;
		}
		fputs(".TP\n", f);
		if (o->type == CLI_OPT_FLAG) {
			fputs(".B \\-\\-", f);
			roff(f, o->long_name);
		} else {
			fputs(".BI \\-\\-", f);
			roff(f, o->long_name);
			fprintf(f, " \" %s\"", o->argh ? o->argh : "VALUE");
		}
		fputc('\n', f);
		/* the help as --help expands it, its lines joined */
		m = open_memstream(&text, &len);
		if (!m)
			continue;
		cli_expand(m, o->help, o, opts, "run", 0);
		fclose(m);
		for (char *c = text; c && *c; c++)
			if (*c == '\n')
				*c = ' ';
		if (text && *text) {
			text[0] = (char)toupper((unsigned char)text[0]);
			roff(f, text);
			fputs(text[strlen(text) - 1] == '.' ? "\n" : ".\n", f);
		}
		free(text);
		if (o->plugin->doc) {
			roff(f, o->plugin->doc);
			fputc('\n', f);
		}
	}
}
