/*
 * Any foreground command the user names after "--": contend times it the
 * way it times a kernel build, so "make -j8 -C ~/linux" or a test suite can
 * be measured under every load. No shell is involved: the argv is exec'd.
 * hyperfine's conveniences: --prepare runs a command before each run and
 * --cleanup one after it, both untimed, split into words without a shell;
 * --shell hands the command and both of them to /bin/sh -c instead.
 * A benchmark that prints its own figure (fio's IOPS, sysbench's events
 * per second) is judged by it instead of its time: --figure and
 * --figure-json say how to read it (contend/figure.h), --judge which one
 * the verdict uses, --figure-from where it is printed.
 */
#include "contend/figure.h"
#include "contend/proc.h"
#include "contend/run.h"
#include "contend/util.h"
#include "contend/workload.h"
#include "contend/option.h"
#include "workloads.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct cmd {
	char **prepare, **cleanup; /* argv, NULL when not given */
	char *line;		   /* --shell: the command as one line for sh -c */
	struct ct_figure_spec figs[CT_OPTLIST_MAX];
	unsigned nfigs;
	unsigned order[CT_OPTLIST_MAX]; /* figs' indices, the judged one first */
};

/* The most of a command's output a figure is read from: past it the run
 * fails rather than read a part. */
#define FIGURE_OUTPUT_MAX (256u << 20)

static bool figure_json(const struct ct_workload_opts *o, unsigned i)
{
	return !strcmp(o->figures.v[i].opt, "figure-json");
}

/* Each --figure and --figure-json read (no two of one name), and --judge,
 * --figure-from only with one. */
static int figures_check(const struct ct_workload_opts *o, char *err, size_t len)
{
	char names[CT_OPTLIST_MAX][CT_METRIC_NAME];
	bool judged = !o->judge;
	struct ct_figure_spec f;

	if (!o->figures.n && (o->judge || o->figure_from))
		return ct_err(err, len, -EINVAL, "--%s needs a --figure or --figure-json",
			      o->judge ? "judge" : "figure-from");
	for (unsigned i = 0; i < o->figures.n; i++) {
		int rc = ct_figure_spec_parse(o->figures.v[i].arg, figure_json(o, i), &f, err, len);

		if (rc)
			return rc;
		snprintf(names[i], sizeof(names[i]), "%s", f.def.name);
		ct_figure_spec_free(&f);
		for (unsigned k = 0; k < i; k++)
			if (!strcmp(names[k], names[i]))
				return ct_err(err, len, -EINVAL, "two figures are named '%s'",
					      names[i]);
		if (o->judge && !strcmp(o->judge, names[i]))
			judged = true;
	}
	if (!judged)
		return ct_err(err, len, -EINVAL,
			      "--judge %s: no --figure or --figure-json names it", o->judge);
	return 0;
}

/* The figures compiled, c->order the judged one first, the others as
 * given. */
static int figures_prepare(struct cmd *c, const struct ct_workload_opts *o, char *err, size_t len)
{
	unsigned judged = 0, k = 1;

	for (unsigned i = 0; i < o->figures.n; i++) {
		int rc = ct_figure_spec_parse(o->figures.v[i].arg, figure_json(o, i), &c->figs[i],
					      err, len);

		if (rc)
			return rc;
		c->nfigs = i + 1;
		if (o->judge && !strcmp(o->judge, c->figs[i].def.name))
			judged = i;
	}
	c->order[0] = judged;
	for (unsigned i = 0; i < c->nfigs; i++)
		if (i != judged)
			c->order[k++] = i;
	return 0;
}

/* ct_fnv1a of s and then of an end, so that "ab","c" is not "a","bc". */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	return ct_fnv1a(ct_fnv1a(h, s), "\n");
}

/* Appends " --figure NAME" for each figure, the judged first, and a hash
 * of every figure option as given: sessions that read their figures
 * otherwise are other workloads, never pooled. */
static void param_figures(char *buf, size_t size, size_t *off, const struct cmd *c,
			  const struct ct_workload_opts *o)
{
	uint64_t h = CT_FNV_INIT;
	int n;

	if (!c->nfigs)
		return;
	for (unsigned i = 0; i < o->figures.n; i++)
		h = fnv1a(fnv1a(h, o->figures.v[i].opt), o->figures.v[i].arg);
	h = fnv1a(fnv1a(h, o->judge ? o->judge : ""), o->figure_from ? o->figure_from : "");
	for (unsigned i = 0; i < c->nfigs; i++) {
		n = snprintf(buf + *off, size - *off, " --figure %s",
			     c->figs[c->order[i]].def.name);
		if (n < 0 || (size_t)n >= size - *off) {
			buf[*off] = '\0';
			return;
		}
		*off += (size_t)n;
	}
	n = snprintf(buf + *off, size - *off, " figures=%08x", (unsigned)(h & 0xffffffffu));
	if (n < 0 || (size_t)n >= size - *off)
		buf[*off] = '\0';
	else
		*off += (size_t)n;
}

/* Where the figures are read: the run's stdout or stderr log, or the file
 * --figure-from names (from the command's directory). */
static void figure_source(const struct ct_workload *w, char *path, size_t len)
{
	const char *from = w->opts.figure_from;

	if (!from || !strcmp(from, "stdout"))
		snprintf(path, len, "%s", w->out_log);
	else if (!strcmp(from, "stderr"))
		snprintf(path, len, "%s", w->err_log);
	else if (from[0] != '/' && w->cwd)
		snprintf(path, len, "%s/%s", w->cwd, from);
	else
		snprintf(path, len, "%s", from);
}

static bool from_file(const struct ct_workload_opts *o)
{
	return o->figure_from && strcmp(o->figure_from, "stdout") &&
	       strcmp(o->figure_from, "stderr");
}

/* The last line of text that is not blank, cut to fit buf. */
static void tail_line(const char *text, size_t n, char *buf, size_t len)
{
	size_t end = n, start;

	while (end && (text[end - 1] == '\n' || text[end - 1] == ' ' || text[end - 1] == '\t' ||
		       text[end - 1] == '\r'))
		end--;
	start = end;
	while (start && text[start - 1] != '\n')
		start--;
	snprintf(buf, len, "%.*s", (int)(end - start < len ? end - start : len - 1), text + start);
}

/* Reads every figure of a run that ended well; the first that cannot be
 * read fails it, with why and the output's last line - never a 0, never a
 * gap. The figures are declared on every run, failed ones too. */
static void figures_collect(struct ct_workload *w, struct cmd *c, struct ct_run *r)
{
	char path[PATH_MAX + 32], why[CT_ERRLEN], last[96], q[96];
	size_t n = 0;
	char *text = NULL;
	double v;
	int rc;

	for (unsigned i = 0; i < c->nfigs; i++) {
		const struct ct_figure_def *d = &c->figs[c->order[i]].def;

		(void)ct_run_figure_add(r, d->name, d->unit, d->higher_better);
	}
	if (!c->nfigs || r->status != CT_RUN_OK || r->exit_code)
		return;
	figure_source(w, path, sizeof(path));
	rc = ct_figure_slurp(path, FIGURE_OUTPUT_MAX, &text, &n);
	if (rc) {
		r->status = CT_RUN_FAILED;
		snprintf(r->reason, sizeof(r->reason), "the figures' output %s: %s",
			 ct_quote(from_file(&w->opts)	? path
				  : w->opts.figure_from ? w->opts.figure_from
							: "stdout",
				  q, sizeof(q)),
			 rc == -EFBIG	 ? "over 256 MiB"
			 : rc == -ENOENT ? "the command did not write it"
					 : strerror(-rc));
		return;
	}
	for (unsigned i = 0; i < c->nfigs && r->status == CT_RUN_OK; i++) {
		const struct ct_figure_spec *f = &c->figs[c->order[i]];

		rc = ct_figure_read(f, text, n, &v, why, sizeof(why));
		if (!rc && ct_run_metric_set(r, f->def.name, v))
			rc = ct_err(why, sizeof(why), -ENOSPC,
				    "figure '%s': no room among the run's metrics", f->def.name);
		if (!rc)
			continue;
		tail_line(text, n, last, sizeof(last));
		r->status = CT_RUN_FAILED;
		/* cut to fit, as every reason is */
		(void)ct_err(r->reason, sizeof(r->reason), 0, "%s%s%s", why,
			     *last ? "; its output ends: " : "; its output is empty", last);
	}
	free(text);
}

/* A --prepare or --cleanup text as the argv that runs it: its words, or
 * with --shell "/bin/sh -c TEXT". */
static int hook_argv(const char *text, bool shell, char ***out)
{
	char **argv;
	size_t n;

	if (!shell)
		return ct_split_words(text, out) < 0 ? -EINVAL : 0;
	n = strlen(text) + 1;
	argv = malloc(4 * sizeof(*argv) + n + 8);
	if (!argv)
		return -ENOMEM;
	argv[0] = (char *)(argv + 4);
	memcpy(argv[0], "/bin/sh", 8);
	argv[1] = (char *)"-c";
	argv[2] = argv[0] + 8;
	memcpy(argv[2], text, n);
	argv[3] = NULL;
	*out = argv;
	return 0;
}

static int cmd_check(const struct ct_env *env, const struct ct_workload_opts *o, const char *dir,
		     char *err, size_t len)
{
	const char *hooks[] = { o->prepare, o->cleanup }, *names[] = { "prepare", "cleanup" };
	char **argv, q[96];
	int n;

	(void)env;
	(void)dir;
	n = figures_check(o, err, len);
	if (n)
		return n;
	for (size_t i = 0; i < 2; i++) {
		if (!hooks[i] || o->shell)
			continue;
		n = ct_split_words(hooks[i], &argv);
		free(argv);
		if (n < 0)
			return ct_err(err, len, -EINVAL, "--%s %s: a quote is left open", names[i],
				      ct_quote(hooks[i], q, sizeof(q)));
		if (!n)
			return ct_err(err, len, -EINVAL, "--%s is empty", names[i]);
	}
	return 0;
}

/* Appends " --NAME 'TEXT'" to the stored parameters when given. */
static void param_hook(char *buf, size_t size, size_t *off, const char *name, const char *text)
{
	if (!text)
		return;
	if (*off + strlen(name) + 4 < size) {
		*off += (size_t)snprintf(buf + *off, size - *off, " --%s", name);
		if (!ct_append_word(buf, size, off, text))
			buf[*off] = '\0';
	}
}

static int cmd_prepare(struct ct_workload *w, char *err, size_t len)
{
	char *const *argv = w->opts.argv;
	struct cmd *c;
	size_t off = 0, i, size = 0;
	int rc = 0;

	if (!argv || !argv[0] || !*argv[0])
		return ct_err(err, len, -EINVAL, "cmd needs a command after --");
	c = calloc(1, sizeof(*c));
	if (!c)
		return ct_err(err, len, -ENOMEM, "out of memory");
	w->priv = c;
	if (w->opts.prepare)
		rc = hook_argv(w->opts.prepare, w->opts.shell, &c->prepare);
	if (!rc && w->opts.cleanup)
		rc = hook_argv(w->opts.cleanup, w->opts.shell, &c->cleanup);
	if (!rc && w->opts.figures.n) {
		rc = figures_prepare(c, &w->opts, err, len);
		if (rc)
			return rc;
	}
	if (!rc && w->opts.shell) {
		/* the words after -- are one line for the shell */
		for (i = 0; argv[i]; i++)
			size += strlen(argv[i]) + 1;
		c->line = malloc(size);
		if (c->line) {
			c->line[0] = '\0';
			for (i = 0; argv[i]; i++)
				strcat(strcat(c->line, i ? " " : ""), argv[i]);
		}
		rc = c->line ? 0 : -ENOMEM;
	}
	if (rc)
		return ct_err(err, len, rc, "cmd: %s",
			      rc == -EINVAL ? "a quote is left open" : "out of memory");
	w->params[0] = '\0';
	if (w->opts.shell) {
		snprintf(w->params, sizeof(w->params), "sh -c");
		off = strlen(w->params);
		if (!ct_append_word(w->params, sizeof(w->params) - 4, &off, c->line))
			memcpy(w->params + off, "...", 4);
	} else {
		for (i = 0; argv[i]; i++) {
			if (!ct_append_word(w->params, sizeof(w->params) - 4, &off, argv[i])) {
				/* Truncated: say so rather than store a different command. */
				memcpy(w->params + off, "...", 4);
				break;
			}
		}
	}
	/* what runs around the command is part of what is measured */
	param_hook(w->params, sizeof(w->params), &off, "prepare", w->opts.prepare);
	param_hook(w->params, sizeof(w->params), &off, "cleanup", w->opts.cleanup);
	param_figures(w->params, sizeof(w->params), &off, c, &w->opts);
	/* stored and printed: a password the command takes is not */
	{
		char hidden[sizeof(w->params)];

		if (ct_hide_secrets_cmdline(w->params, hidden, sizeof(hidden)))
			memcpy(w->params, hidden, sizeof(hidden));
	}
	return 0;
}

/* Runs argv to its end in dir (NULL: here), its output discarded; 0, or
 * why it failed in err. */
static int run_hook(const char *name, char **argv, const char *dir, char *err, size_t len)
{
	pid_t self = getpid(), pid;
	int status = 0, rc, devnull;

	pid = fork();
	if (pid < 0)
		return ct_err(err, len, -errno, "cannot run the %s command: %s", name,
			      strerror(errno));
	if (pid == 0) {
		ct_proc_child_setup(self);
		if (dir && chdir(dir))
			_exit(127);
		devnull = open("/dev/null", O_RDWR);
		if (devnull >= 0) {
			dup2(devnull, STDIN_FILENO);
			dup2(devnull, STDOUT_FILENO);
			dup2(devnull, STDERR_FILENO);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	rc = ct_proc_reap(pid, &status, NULL);
	if (rc)
		return ct_err(err, len, rc, "cannot wait for the %s command: %s", name,
			      strerror(-rc));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return ct_err(err, len, -ENOENT, "the %s command '%s' could not be run", name,
			      argv[0]);
	return ct_err(err, len, -EIO, "the %s command exited with status %d", name,
		      ct_proc_exit_code(status));
}

static int cmd_reset(struct ct_workload *w, char *err, size_t len)
{
	struct cmd *c = w->priv;
	char path[PATH_MAX + 32];

	/* the figures' file goes, so that a run that does not write it fails
	 * instead of reading the last run's */
	if (c && c->nfigs && from_file(&w->opts)) {
		figure_source(w, path, sizeof(path));
		if (unlink(path) && errno != ENOENT)
			return ct_err(err, len, -errno, "cannot remove the figures' file '%s': %s",
				      path, strerror(errno));
	}
	return c && c->prepare ? run_hook("--prepare", c->prepare, w->cwd, err, len) : 0;
}

static void cmd_collect(struct ct_workload *w, struct ct_run *r)
{
	struct cmd *c = w->priv;
	char why[CT_ERRLEN];

	if (c)
		figures_collect(w, c, r);
	if (!c || !c->cleanup || !run_hook("--cleanup", c->cleanup, w->cwd, why, sizeof(why)))
		return;
	if (r->status == CT_RUN_OK) {
		r->status = CT_RUN_FAILED;
		snprintf(r->reason, sizeof(r->reason), "%s", why);
	}
}

static void cmd_cleanup(struct ct_workload *w)
{
	struct cmd *c = w->priv;

	if (!c)
		return;
	free(c->prepare);
	free(c->cleanup);
	free(c->line);
	for (unsigned i = 0; i < c->nfigs; i++)
		ct_figure_spec_free(&c->figs[i]);
	free(c);
	w->priv = NULL;
}

__attribute__((noreturn)) static void cmd_exec(struct ct_workload *w)
{
	struct cmd *c = w->priv;
	char msg[512];
	int n, e;

	if (c && c->line)
		execl("/bin/sh", "sh", "-c", c->line, (char *)NULL);
	else
		execvp(w->opts.argv[0], w->opts.argv);
	e = errno;
	n = snprintf(msg, sizeof(msg), "contend: cannot run '%s': %s\n",
		     c && c->line ? "/bin/sh" : w->opts.argv[0], strerror(e));
	if (n > 0)
		(void)!write(STDERR_FILENO, msg,
			     (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1);
	_exit(127);
}

static const struct ct_option cmd_options[] = {
	{ .type = CT_OPTION_STRING,
	  .name = "prepare",
	  .in = CT_OPTION_IN_WORKLOAD,
	  .off = offsetof(struct ct_workload_opts, prepare),
	  .argh = "CMD",
	  .help = "run CMD before each run, untimed (its words, no shell\nunless --shell)",
	  .doc = "Also before the warm-up; a run whose CMD fails is a failed run. CMD is split "
		 "into words as a shell would, but nothing is expanded. It is part of the stored "
		 "parameters: runs with other hooks are not compared as the same workload." },
	CT_WORKLOAD_OPTION(CT_OPTION_STRING, "cleanup", cleanup, "CMD",
			   "run CMD after each run, untimed, as --prepare", 0, 0, 0),
	{ .type = CT_OPTION_FLAG,
	  .name = "shell",
	  .in = CT_OPTION_IN_WORKLOAD,
	  .off = offsetof(struct ct_workload_opts, shell),
	  .help = "the command, --prepare and --cleanup go through\n/bin/sh -c",
	  .doc = "The command after -- is its words joined by spaces; without --shell no shell "
		 "sees any of them. A foreground that runs in under 5 ms is warned about, once a "
		 "session: fork, exec and the timer are then much of what is measured." },
	{ .type = CT_OPTION_LIST,
	  .name = "figure",
	  .in = CT_OPTION_IN_WORKLOAD,
	  .off = offsetof(struct ct_workload_opts, figures),
	  .argh = "NAME=REGEX:DIR",
	  .help = "judge the command by the number REGEX's first group\ncaptures in its output "
		  "(its last line that matches):\nDIR higher or lower, then [:UNIT][:AGG] "
		  "(repeatable)",
	  .doc = "NAME is the figure's name in reports and the store (a lower-case letter, then "
		 "lower-case letters, digits or '_'). REGEX is a POSIX extended regex matched "
		 "against each line of the output; the number its first group captures may carry "
		 "a multiplier (25.1k, 3Mi). DIR says which way is better. UNIT names the figure's "
		 "unit in reports (ops/s). AGG joins the lines that match: last (default), first, "
		 "sum, mean, min or max. Colons may appear in REGEX: the direction is the last "
		 "field that is higher or lower.\nThe first figure given is the one judged unless "
		 "--judge names another; the others are reported beside it. A run whose output "
		 "lacks a figure, or gives one that is not a number, fails with the reason and the "
		 "output's last line." },
	{ .type = CT_OPTION_LIST,
	  .name = "figure-json",
	  .in = CT_OPTION_IN_WORKLOAD,
	  .off = offsetof(struct ct_workload_opts, figures),
	  .argh = "NAME=PATH:DIR",
	  .help = "the same from the JSON document the command prints:\nPATH as jobs.0.read.iops, "
		  "'*' for every element",
	  .doc = "The document is the first that starts a line of the output with '{' or '['. "
		 "PATH is keys and array indices joined by '.' (jobs[0] is jobs.0); a key holding "
		 "dots is found whole (clat_ns.percentile.99.000000). With '*' a path reaches "
		 "several numbers, joined by AGG." },
	{ .type = CT_OPTION_STRING,
	  .name = "figure-from",
	  .in = CT_OPTION_IN_WORKLOAD,
	  .off = offsetof(struct ct_workload_opts, figure_from),
	  .argh = "WHERE",
	  .help = "where the figures are printed: stdout (default),\nstderr, or a file the "
		  "command writes",
	  .doc = "A file is read from the command's directory when its path is relative, and is "
		 "removed before each run, so that a run that does not write it fails rather "
		 "than report the last run's figure." },
	CT_WORKLOAD_OPTION(CT_OPTION_STRING, "judge", judge, "NAME",
			   "the figure the verdict uses (default the first given)", 0, 0, 0),
	CT_OPTION_DONE,
};

const struct ct_workload_ops ct_workload_cmd = {
	.name = "cmd",
	.summary = "any command given after --, run without a shell (--shell: sh -c)",
	.flags = CT_WL_ARGV,
	.options = cmd_options,
	.check = cmd_check,
	.prepare = cmd_prepare,
	.reset = cmd_reset,
	.exec = cmd_exec,
	.collect = cmd_collect,
	.cleanup = cmd_cleanup,
};
