/*
 * The option tables' engine: getopt_long's table and short string built
 * from a command's cli_opt[], each value checked against its type and
 * range with one line naming the option and the rule, and the --help text
 * written from the same table - ranges included - so help and parser say
 * the same thing.
 */
#include "opts.h"
#include "cli.h"
#include "contend/util.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define HELP_COL 26 /* where help text starts in --help */

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "contend: %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see: contend %s --help)\n", cmd);
	return CT_EXIT_USAGE;
}

static size_t count(const struct cli_opt *opts)
{
	size_t n = 0;

	while (opts[n].type != CLI_OPT_END)
		n++;
	return n;
}

static bool has_value(const struct cli_opt *o)
{
	return o->type != CLI_OPT_FLAG && o->type != CLI_OPT_GROUP;
}

static void num_text(const struct cli_opt *o, double v, char *buf, size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "%g", v);
	} else if (o->type == CLI_OPT_SIZE && v >= 1024) {
		char sz[32], *sp;

		ct_fmt_size((uint64_t)v, sz, sizeof(sz));
		sp = strchr(sz, ' '); /* "1.0 MiB" -> "1.0MiB", as typed */
		if (sp)
			memmove(sp, sp + 1, strlen(sp));
		snprintf(buf, len, "%s", sz);
	} else if (o->type == CLI_OPT_DURATION) {
		snprintf(buf, len, "%gs", v / 1e9);
	} else {
		snprintf(buf, len, "%.15g", v);
	}
}

void cli_range_text(const struct cli_opt *o, char *buf, size_t len)
{
	bool hi = isfinite(o->max);
	/* a real number's lower bound is always worth saying (0 too: a
	 * minus sign is refused); a count's only above 0 */
	bool lo = o->min > 0 || (o->flags & CLI_MIN_OPEN) || o->type == CLI_OPT_DOUBLE;
	char a[32], b[32];

	buf[0] = '\0';
	num_text(o, o->min, a, sizeof(a));
	num_text(o, o->max, b, sizeof(b));
	switch (o->type) {
	case CLI_OPT_UINT:
	case CLI_OPT_U64:
		if (hi)
			snprintf(buf, len, "%s to %s", a, b);
		else if (lo)
			snprintf(buf, len, "at least %s", a);
		break;
	case CLI_OPT_DOUBLE:
	case CLI_OPT_SIZE:
	case CLI_OPT_DURATION:
		if (lo && hi)
			snprintf(buf, len, "%s %s %s %s %s", a,
				 o->flags & CLI_MIN_OPEN ? "<" : "<=", o->argh,
				 o->flags & CLI_MAX_OPEN ? "<" : "<=", b);
		else if (lo)
			snprintf(buf, len, "%s %s %s", o->argh,
				 o->flags & CLI_MIN_OPEN ? ">" : ">=", a);
		else if (hi)
			snprintf(buf, len, "%s %s %s", o->argh,
				 o->flags & CLI_MAX_OPEN ? "<" : "<=", b);
		break;
	default:
		break;
	}
}

static bool in_range(const struct cli_opt *o, double v)
{
	if (v < o->min || ((o->flags & CLI_MIN_OPEN) && v == o->min))
		return false;
	if (isfinite(o->max) && (v > o->max || ((o->flags & CLI_MAX_OPEN) && v == o->max)))
		return false;
	return true;
}

/* One line of what is wrong with a value into err: CT_EXIT_USAGE. */
static int usage(char *err, size_t len, const char *fmt, ...) CT_PRINTF(3, 4);
static int usage(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return CT_EXIT_USAGE;
}

/* the value through the table, its error printed as cmd's */
static int set_value(const char *cmd, const struct cli_opt *o, void *base, const char *arg)
{
	char err[CT_ERRLEN];
	int rc = cli_set_value(o, base, arg, err, sizeof(err));

	return rc ? cli_usage_error(cmd, "%s", err) : 0;
}

/* "--runs must be a whole number, 1 to 100000, not 'x'" */
static int bad_value(const struct cli_opt *o, const char *arg, char *err, size_t len)
{
	static const char *const kind[] = {
		[CLI_OPT_UINT] = "a whole number",
		[CLI_OPT_U64] = "a whole number",
		[CLI_OPT_DOUBLE] = "a number",
		[CLI_OPT_SIZE] = "a size (like 64M or 2GiB)",
		[CLI_OPT_DURATION] = "a duration (like 30s or 500ms)",
	};
	char range[96], q[96];

	cli_range_text(o, range, sizeof(range));
	ct_quote(arg, q, sizeof(q));
	snprintf(err, len, "--%s must be %s%s%s, not %s", o->long_name, kind[o->type],
		 *range ? ", " : "", range, q);
	return CT_EXIT_USAGE;
}

int cli_set_value(const struct cli_opt *o, void *base, const char *arg, char *err, size_t len)
{
	char *value = (char *)base + o->off;
	char q[96];
	uint64_t u;
	int64_t d;
	double v;

	switch (o->type) {
	case CLI_OPT_FLAG:
		*(bool *)value = true;
		return 0;
	case CLI_OPT_STRING:
		if (!*arg || ct_has_control(arg)) {
			ct_quote(arg, q, sizeof(q));
			return usage(err, len, "--%s must be %s, not %s", o->long_name,
				     *arg ? "printable text" : "non-empty", q);
		}
		*(const char **)value = arg;
		return 0;
	case CLI_OPT_LIST: {
		struct ct_optlist *l = (struct ct_optlist *)(void *)value;

		if (!*arg || ct_has_control(arg)) {
			ct_quote(arg, q, sizeof(q));
			return usage(err, len, "--%s must be %s, not %s", o->long_name,
				     *arg ? "printable text" : "non-empty", q);
		}
		if (l->n >= CT_OPTLIST_MAX)
			return usage(
				err, len,
				"--%s: at most %d values (with the options that share its list)",
				o->long_name, CT_OPTLIST_MAX);
		l->v[l->n].opt = o->long_name;
		l->v[l->n++].arg = arg;
		return 0;
	}
	case CLI_OPT_UINT:
	case CLI_OPT_U64:
		if (ct_parse_uint(arg, 0, UINT64_MAX, &u) || !in_range(o, (double)u))
			return bad_value(o, arg, err, len);
		if (o->type == CLI_OPT_UINT)
			*(unsigned *)value = (unsigned)u;
		else
			*(uint64_t *)value = u;
		return 0;
	case CLI_OPT_DOUBLE:
		if (ct_parse_number(arg, &v) || !in_range(o, v))
			return bad_value(o, arg, err, len);
		*(double *)value = v;
		return 0;
	case CLI_OPT_SIZE:
		if (ct_parse_size(arg, &u) || !in_range(o, (double)u))
			return bad_value(o, arg, err, len);
		*(uint64_t *)value = u;
		return 0;
	case CLI_OPT_DURATION:
		if (ct_parse_duration(arg, &d) || !in_range(o, (double)d))
			return bad_value(o, arg, err, len);
		*(int64_t *)value = d;
		return 0;
	case CLI_OPT_CHOICE:
	case CLI_OPT_WORD:
		for (const struct ct_option_choice *c = o->choices; c->name; c++) {
			if (strcmp(c->name, arg))
				continue;
			if (o->type == CLI_OPT_CHOICE)
				*(int *)value = c->val;
			else
				*(const char **)value = c->name;
			return 0;
		}
		ct_quote(arg, q, sizeof(q));
		{
			char list[256] = "";
			size_t off = 0;

			for (const struct ct_option_choice *c = o->choices;
			     c->name && off < sizeof(list); c++)
				off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s",
							c == o->choices ? "" : ", ", c->name);
			return usage(err, len, "--%s must be one of %s, not %s", o->long_name, list,
				     q);
		}
	case CLI_OPT_CALLBACK:
		if (o->cb(o, base, arg, err, len))
			return CT_EXIT_USAGE;
		return 0;
	default:
		return 0;
	}
}

/* Whether the entry is one of cmd's: a shared table (run, calibrate and
 * bisect) marks the options of some of them, "run,calibrate". */
static bool of_cmd(const struct cli_opt *o, const char *cmd)
{
	size_t n = strlen(cmd);

	for (const char *p = o->only; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, cmd, n) && (p[n] == ',' || !p[n]))
			return true;
	return !o->only;
}

static const struct cli_opt *by_short(const struct cli_opt *opts, const char *cmd, int c,
				      size_t *idx)
{
	for (size_t i = 0; opts[i].type != CLI_OPT_END; i++)
		if (opts[i].short_name && opts[i].short_name == c && of_cmd(&opts[i], cmd)) {
			*idx = i;
			return &opts[i];
		}
	return NULL;
}

size_t cli_distance(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b), d[3][64], *prev2 = d[0], *prev = d[1], *cur = d[2],
	       *t;

	if (na >= 63 || nb >= 63)
		return SIZE_MAX;
	for (size_t j = 0; j <= nb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= na; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= nb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]), v = sub;

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[nb];
}

bool cli_near(const char *typed, const char *known, size_t *best)
{
	size_t d = cli_distance(typed, known);

	/* a third of the word at most: "foo" is no typo of "log" */
	if (d > 2 || 3 * d > strlen(typed) + 2 || d >= *best)
		return false;
	*best = d;
	return true;
}

/* The long option of cmd nearest to what was typed ("--quik", or
 * "--quik=x"), for "did you mean"; NULL when none is near. */
static const char *nearest_option(const struct cli_opt *opts, const char *cmd, const char *arg)
{
	char typed[64];
	const char *near = NULL;
	size_t best = SIZE_MAX;

	if (strncmp(arg, "--", 2))
		return NULL;
	snprintf(typed, sizeof(typed), "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
	for (size_t i = 0; opts[i].type != CLI_OPT_END; i++)
		if (opts[i].long_name && of_cmd(&opts[i], cmd) && !(opts[i].flags & CLI_HIDDEN) &&
		    cli_near(typed, opts[i].long_name, &best))
			near = opts[i].long_name;
	if (cli_near(typed, "help", &best))
		near = "help";
	return near;
}

/* What getopt stopped at, for the message. */
static int getopt_error(const char *cmd, const struct cli_opt *opts, int c, char **argv)
{
	const char *arg = argv[optind - 1], *near;
	char q[96];

	if (c == ':') {
		if (optopt && optopt < 256) {
			size_t i;
			const struct cli_opt *o = by_short(opts, cmd, optopt, &i);

			return cli_usage_error(cmd, "--%s needs a value (-%c %s)",
					       o ? o->long_name : "?", optopt, o ? o->argh : "");
		}
		return cli_usage_error(cmd, "%s needs a value", arg);
	}
	if (optopt && optopt < 256) {
		char s[3] = { '-', (char)optopt, 0 };

		ct_quote(s, q, sizeof(q));
		return cli_usage_error(cmd, "unknown option %s", q);
	}
	ct_quote(arg, q, sizeof(q));
	near = nearest_option(opts, cmd, arg);
	if (near && !strncmp(arg + 2, near, strlen(near)) && arg[2 + strlen(near)] == '=')
		return cli_usage_error(cmd, "--%s takes no value", near);
	if (near)
		return cli_usage_error(cmd, "unknown option %s; did you mean '--%s'?", q, near);
	return cli_usage_error(cmd, "unknown option %s", q);
}

/* Sets opts[i] from arg, and each twin of it (another plug-in's
 * declaration of the option), each by its own range. */
static int given(const char *cmd, const struct cli_opt *opts, size_t i, void *base, const char *arg,
		 struct cli_parsed *p)
{
	for (size_t k = i; opts[k].type != CLI_OPT_END; k++) {
		int rc;

		if (k != i && (!(opts[k].flags & CLI_TWIN) || !of_cmd(&opts[k], cmd) ||
			       strcmp(opts[k].long_name, opts[i].long_name)))
			continue;
		/* a twin's list in the same place holds the value once */
		if (k != i && opts[k].type == CLI_OPT_LIST && opts[k].off == opts[i].off)
			continue;
		rc = set_value(cmd, &opts[k], base, arg);
		if (rc)
			return rc;
		if (opts[k].given_off)
			*(bool *)((char *)base + opts[k].given_off) = true;
		p->given[k] = true;
	}
	return 0;
}

static int parse(const char *cmd, const char *synopsis, const char *intro,
		 const struct cli_opt *opts, void *base, int argc, char **argv,
		 struct cli_parsed *p, bool in_order)
{
	size_t n = count(opts), nl = 0, off;
	struct option lo[CLI_MAX_OPTS + 2];
	char shorts[2 * CLI_MAX_OPTS + 4];
	int c, rc;

	memset(p, 0, sizeof(*p));
	if (n > CLI_MAX_OPTS)
		return cli_usage_error(cmd, "too many options in the table");
	off = (size_t)snprintf(shorts, sizeof(shorts), "%s:h", in_order ? "+" : "");
	for (size_t i = 0; i < n; i++) {
		if (opts[i].type == CLI_OPT_GROUP || (opts[i].flags & CLI_TWIN) ||
		    !of_cmd(&opts[i], cmd))
			continue;
		lo[nl++] = (struct option){ opts[i].long_name,
					    has_value(&opts[i]) ? required_argument : no_argument,
					    NULL, 1000 + (int)i };
		if (opts[i].short_name) {
			shorts[off++] = (char)opts[i].short_name;
			if (has_value(&opts[i]))
				shorts[off++] = ':';
		}
	}
	shorts[off] = '\0';
	lo[nl++] = (struct option){ "help", no_argument, NULL, 'h' };
	lo[nl] = (struct option){ NULL, 0, NULL, 0 };
	/* the defaults first, read as an argument would be: a default the
	 * table states is the value the command gets */
	for (size_t i = 0; i < n; i++)
		if (opts[i].def && of_cmd(&opts[i], cmd)) {
			rc = set_value(cmd, &opts[i], base, opts[i].def);
			if (rc)
				return rc;
		}
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		size_t i = 0;

		if (c == 'h') {
			cli_help(stdout, cmd, synopsis, intro, opts);
			return 1;
		}
		if (c == '?' || c == ':')
			return getopt_error(cmd, opts, c, argv);
		if (c >= 1000)
			i = (size_t)(c - 1000);
		else if (!by_short(opts, cmd, c, &i))
			return getopt_error(cmd, opts, '?', argv);
		rc = given(cmd, opts, i, base, optarg, p);
		if (rc)
			return rc;
	}
	p->rest = optind;
	p->dashdash = optind > 1 && optind <= argc && !strcmp(argv[optind - 1], "--");
	return 0;
}

int cli_parse(const char *cmd, const char *synopsis, const char *intro, const struct cli_opt *opts,
	      void *base, int argc, char **argv, struct cli_parsed *p)
{
	return parse(cmd, synopsis, intro, opts, base, argc, argv, p, false);
}

int cli_parse_in_order(const char *cmd, const char *synopsis, const char *intro,
		       const struct cli_opt *opts, void *base, int argc, char **argv,
		       struct cli_parsed *p)
{
	return parse(cmd, synopsis, intro, opts, base, argc, argv, p, true);
}

bool cli_given(const struct cli_opt *opts, const struct cli_parsed *p, const char *long_name)
{
	/* a shared table may hold a name once per command */
	for (size_t i = 0; opts[i].type != CLI_OPT_END; i++)
		if (opts[i].long_name && !strcmp(opts[i].long_name, long_name) && p->given[i])
			return true;
	return false;
}

int cli_late_defaults(const char *cmd, const struct cli_opt *opts, void *base,
		      const struct cli_parsed *p, bool quick)
{
	for (size_t i = 0; quick && opts[i].type != CLI_OPT_END; i++) {
		int rc;

		if (!opts[i].quick || p->given[i] || !of_cmd(&opts[i], cmd))
			continue;
		rc = set_value(cmd, &opts[i], base, opts[i].quick);
		if (rc)
			return rc;
	}
	for (size_t i = 0; opts[i].type != CLI_OPT_END; i++) {
		int rc;

		if (!opts[i].with || p->given[i] || !of_cmd(&opts[i], cmd) ||
		    !cli_given(opts, p, opts[i].with))
			continue;
		rc = set_value(cmd, &opts[i], base, opts[i].with_def);
		if (rc)
			return rc;
	}
	return 0;
}

const char *cli_choice_name(const struct ct_option_choice *choices, int val)
{
	for (const struct ct_option_choice *c = choices; c->name; c++)
		if (c->val == val)
			return c->name;
	return NULL;
}

const struct cli_opt *cli_find(const struct cli_opt *opts, const char *cmd, const char *long_name)
{
	for (size_t i = 0; opts[i].type != CLI_OPT_END; i++)
		if (opts[i].long_name && of_cmd(&opts[i], cmd) &&
		    !strcmp(opts[i].long_name, long_name))
			return &opts[i];
	return NULL;
}

/* The default of cmd's option named name[0..len), for "%{NAME}". */
static const char *def_of(const struct cli_opt *opts, const char *cmd, const char *name, size_t len)
{
	char buf[64];
	const struct cli_opt *o;

	snprintf(buf, sizeof(buf), "%.*s", (int)len, name);
	o = cli_find(opts, cmd, buf);
	return o && o->def ? o->def : "";
}

/* Writes text (o's help, or the intro when o is NULL), '\n' starting a
 * line indented by indent, %R the option's range, %D its default and
 * %{NAME} the default of the option NAME. */
void cli_expand(FILE *f, const char *text, const struct cli_opt *o, const struct cli_opt *opts,
		const char *cmd, int indent)
{
	char range[96] = "";

	if (o)
		cli_range_text(o, range, sizeof(range));
	for (const char *s = text ? text : ""; *s; s++) {
		const char *end;

		if (*s == '\n') {
			fprintf(f, "\n%*s", indent, "");
		} else if (o && s[0] == '%' && s[1] == 'R') {
			fputs(range, f);
			s++;
		} else if (o && s[0] == '%' && s[1] == 'D') {
			fprintf(f, "default %s", o->def ? o->def : "");
			if (o->quick)
				fprintf(f, ", quick %s", o->quick);
			if (o->with)
				fprintf(f, ", %s with --%s", o->with_def, o->with);
			s++;
		} else if (s[0] == '%' && s[1] == '{' && (end = strchr(s, '}')) != NULL) {
			fputs(def_of(opts, cmd, s + 2, (size_t)(end - s - 2)), f);
			s = end;
		} else {
			fputc(*s, f);
		}
	}
}

/* Writes o's help at the help column. */
static void help_text(FILE *f, const struct cli_opt *o, const struct cli_opt *opts, const char *cmd,
		      int col)
{
	for (; col < HELP_COL; col++)
		fputc(' ', f);
	cli_expand(f, o->help, o, opts, cmd, HELP_COL);
	fputc('\n', f);
}

void cli_help(FILE *f, const char *cmd, const char *synopsis, const char *intro,
	      const struct cli_opt *opts)
{
	const char *const *ex;
	const struct cli_sub *sub = cli_subcommands(cmd);

	fprintf(f, "usage: %s\n\n", synopsis);
	if (intro) {
		cli_expand(f, intro, NULL, opts, cmd, 0);
		fputs("\n\n", f);
	}
	/* as contend --help lists the commands: shell completion reads both */
	for (size_t i = 0; sub && sub[i].name; i++)
		fprintf(f, "%s  %-8s  %s\n%s", i ? "" : "commands:\n", sub[i].name, sub[i].summary,
			sub[i + 1].name ? "" : "\n");
	for (size_t i = 0; opts[i].type != CLI_OPT_END; i++) {
		const struct cli_opt *o = &opts[i];
		int col;

		if ((o->flags & CLI_HIDDEN) || !of_cmd(o, cmd))
			continue;
		if (o->type == CLI_OPT_GROUP) {
			fprintf(f, "\n  %s\n", o->help);
			continue;
		}
		if (o->short_name)
			col = fprintf(f, "  -%c, --%s", o->short_name, o->long_name);
		else
			col = fprintf(f, "      --%s", o->long_name);
		if (has_value(o))
			col += fprintf(f, " %s", o->argh ? o->argh : "VALUE");
		if (col >= HELP_COL - 1) {
			fputc('\n', f);
			col = 0;
		} else {
			fputc(' ', f);
			col++;
		}
		help_text(f, o, opts, cmd, col);
	}
	fprintf(f, "  -h, --help%*sthis help\n", HELP_COL - 12, "");
	ex = cli_examples(cmd);
	for (size_t i = 0; ex && ex[i]; i++)
		fprintf(f, "%s  %s\n", i ? "" : "\nexamples:\n", ex[i]);
}

int cli_split_loads(const char *cmd, const char *list, char *buf, size_t size, const char **loads,
		    size_t max, size_t *n)
{
	char *save = NULL;

	*n = 0;
	if (!list)
		return 0;
	if (strlen(list) >= size)
		return cli_usage_error(cmd, "-l: the list is too long");
	snprintf(buf, size, "%s", list);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *end;

		t += strspn(t, " \t");
		for (end = t + strlen(t); end > t && (end[-1] == ' ' || end[-1] == '\t');)
			*--end = '\0';
		if (!*t)
			continue;
		for (size_t i = 0; i < *n; i++)
			if (!strcmp(loads[i], t))
				return cli_usage_error(cmd, "load '%s' given twice", t);
		if (*n == max)
			return cli_usage_error(cmd, "too many loads (at most %zu)", max);
		loads[(*n)++] = t;
	}
	if (!*n)
		return cli_usage_error(cmd, "empty load list");
	return 0;
}

int cli_unknown_sub(const char *cmd, const char *word)
{
	const struct cli_sub *sub = cli_subcommands(cmd);
	const char *near = NULL;
	size_t best = SIZE_MAX;
	char q[96], list[256] = "";
	size_t off = 0;

	for (size_t i = 0; sub && sub[i].name; i++) {
		if (cli_near(word, sub[i].name, &best))
			near = sub[i].name;
		off += (size_t)snprintf(list + off, off < sizeof(list) ? sizeof(list) - off : 0,
					"%s%s", i ? ", " : "", sub[i].name);
	}
	ct_quote(word, q, sizeof(q));
	if (near)
		return cli_usage_error(cmd, "unknown subcommand %s; did you mean '%s'?", q, near);
	return cli_usage_error(cmd, "unknown subcommand %s (%s)", q, list);
}

int cli_check_label(const char *cmd, const char *label, size_t max)
{
	static const char bad[] = " \t!\"#$&'()*;<>?[\\]`{|}";
	const char *plus = strchr(label, '+'), *c;
	char q[160];

	ct_quote(label, q, sizeof(q));
	if (strlen(label) >= max)
		return cli_usage_error(cmd, "label %s is longer than %zu bytes", q, max - 1);
	if (*label == '-')
		return cli_usage_error(cmd,
				       "label %s starts with '-': a later command would take it "
				       "for an option",
				       q);
	for (c = label; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f || strchr(bad, *c)) {
			char what[32];

			if (*c == ' ' || (unsigned char)*c < 0x20 || *c == 0x7f)
				snprintf(what, sizeof(what), "a %s",
					 *c == ' ' ? "space" : "control character");
			else
				snprintf(what, sizeof(what), "'%c'", *c);
			return cli_usage_error(
				cmd,
				"label %s holds %s: a label is one word a later command "
				"takes back whole (letters, digits, . _ - + : @ / = , "
				"~ ^ %%)",
				q, what);
		}
	if (plus && strchr(plus, '='))
		return cli_usage_error(cmd,
				       "label %s has the form LABEL+NAME=VALUE by which --vary "
				       "and --set name their configs; give LABEL and the knob",
				       q);
	return 0;
}
