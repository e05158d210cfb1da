/*
 * What `contend run` and `contend calibrate` check before anything runs,
 * beyond what the option table says alone: the workload and its command,
 * --load-cmd's loads, the load list, which options apply to which, the
 * knobs, the options that only make sense together. A mistake is one line
 * and exit 2 here, never a session of failed runs.
 */
#include "run.h"
#include "contend/git.h"
#include "opts.h"
#include "contend/knob.h"
#include "contend/load.h"
#include "contend/oltp.h"
#include "contend/util.h"
#include "contend/workload.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int split_loads(struct run_args *a)
{
	struct ct_session_opts *o = &a->s.opts;
	char q[96];
	int ex = cli_split_loads(a->cmd, a->loads, a->loadbuf, sizeof(a->loadbuf), o->loads,
				 CT_SESSION_MAX_LOADS, &o->nloads);

	for (size_t i = 0; !ex && i < o->nloads; i++)
		if (!ct_load_find(o->loads[i])) {
			cli_error("%s: unknown load %s (see: contend loads)", a->cmd,
				  ct_quote(o->loads[i], q, sizeof(q)));
			ex = CT_EXIT_USAGE;
		}
	return ex;
}

/* -l, or the workload's own suite, or every default load. */
static int choose_loads(struct run_args *a, const struct ct_workload_ops *w)
{
	struct ct_session_opts *o = &a->s.opts;

	if (!a->loads && w->default_loads)
		a->loads = w->default_loads;
	if (a->loads)
		return split_loads(a);
	for (size_t i = 0; i < ct_load_count(); i++)
		if (ct_load_at(i)->flags & CT_LOAD_DEFAULT)
			o->loads[o->nloads++] = ct_load_at(i)->name;
	return 0;
}

/* True when execvp() would find prog: checked before anything is stored,
 * so a typo is a usage error rather than a session of failed runs. */
bool run_runnable(const char *prog)
{
	const char *path = getenv("PATH"), *p, *end;
	char full[4096];

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	for (p = path ? path : "/usr/local/bin:/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		snprintf(full, sizeof(full), "%.*s/%s", (int)(end - p), end == p ? "." : p, prog);
		if (end == p)
			snprintf(full, sizeof(full), "./%s", prog);
		if (access(full, X_OK) == 0)
			return true;
	}
	return false;
}

/* The command line as a shell would take it back: an argument with
 * anything but [A-Za-z0-9_./:=,@%+-] in it (a space, a quote, nothing at
 * all) in single quotes, a quote inside as '\''; a password in one
 * hidden (it is stored, and printed by list and the reports). */
static void join_argv(char *buf, size_t len, int argc, char **argv)
{
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				    "0123456789_./:=,@%+-";
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < argc && off + 1 < len; i++) {
		char hidden[1024];
		const char *a = hidden;
		bool quote;

		ct_hide_secrets(argv[i], hidden, sizeof(hidden));
		quote = !*a || strspn(a, plain) != strlen(a);

		if (i)
			buf[off++] = ' ';
		if (quote && off + 1 < len)
			buf[off++] = '\'';
		for (; *a && off + 5 < len; a++) {
			if (*a == '\'' && quote) {
				memcpy(buf + off, "'\\''", 4);
				off += 4;
			} else {
				buf[off++] = *a;
			}
		}
		if (quote && off + 1 < len)
			buf[off++] = '\'';
		buf[off] = '\0';
	}
}

/* The words of a --load-cmd's COMMAND, or with @FILE the lines of FILE, an
 * argument each. *out is one malloc'd block; 0 or the exit code after one
 * line on stderr. */
static int load_cmd_words(const struct run_args *a, const char *name, const char *text, char ***out)
{
	char q[96], buf[65536], **argv;
	size_t n = 0, k = 0, nl = 0;
	ssize_t got;

	if (text[0] != '@') {
		int w = ct_split_words(text, out);

		if (w < 0)
			return cli_usage_error(a->cmd, "--load-cmd %s: %s", name,
					       w == -ENOMEM ? "out of memory"
							    : "a quote is left open");
		if (!w) {
			free(*out);
			return cli_usage_error(a->cmd, "--load-cmd %s: the command is empty", name);
		}
		return 0;
	}
	/* the last line's end is no empty argument: ct_read_file drops it */
	got = ct_read_file(text + 1, buf, sizeof(buf));
	if (got < 0)
		return cli_usage_error(a->cmd, "--load-cmd %s: cannot read %s: %s", name,
				       ct_quote(text + 1, q, sizeof(q)), strerror((int)-got));
	if ((size_t)got == sizeof(buf) - 1 || memchr(buf, '\0', (size_t)got))
		return cli_usage_error(a->cmd,
				       "--load-cmd %s: %s is not a text file of under %zu "
				       "bytes",
				       name, ct_quote(text + 1, q, sizeof(q)), sizeof(buf) - 1);
	if (!got)
		return cli_usage_error(a->cmd, "--load-cmd %s: %s is empty", name,
				       ct_quote(text + 1, q, sizeof(q)));
	for (ssize_t i = 0; i < got; i++)
		nl += buf[i] == '\n';
	argv = malloc((nl + 2) * sizeof(*argv) + (size_t)got + 1);
	if (!argv)
		return cli_usage_error(a->cmd, "out of memory");
	argv[0] = memcpy((char *)(argv + nl + 2), buf, (size_t)got);
	argv[0][got] = '\0';
	for (char *p = argv[0];; n++) {
		char *end = strchr(p, '\n');

		argv[k++] = p;
		if (end)
			*end = '\0';
		if (!*p) {
			free(argv);
			return cli_usage_error(
				a->cmd,
				"--load-cmd %s: line %zu of %s is empty (an argument "
				"per line)",
				name, n + 1, ct_quote(text + 1, q, sizeof(q)));
		}
		if (!end)
			break;
		p = end + 1;
	}
	argv[k] = NULL;
	*out = argv;
	return 0;
}

/* Defines the loads --load-cmd names, with their --load-work counters,
 * before -l is read, so NAME is a load like the built-in ones. */
static int define_load_cmds(struct run_args *a)
{
	char q[96], err[CT_ERRLEN], name[64], path[PATH_MAX];
	const char *regex[CT_LOAD_MAX_CMDS] = { 0 };
	bool total[CT_LOAD_MAX_CMDS] = { 0 };
	int ex = 0;

	for (size_t i = 0; i < a->nload_work; i++) {
		const char *eq = strchr(a->load_work[i], '=');
		size_t k, nl = (size_t)(eq - a->load_work[i]);

		for (k = 0; k < a->nload_cmd; k++)
			if (!strncmp(a->load_cmd[k], a->load_work[i], nl) &&
			    a->load_cmd[k][nl] == '=')
				break;
		if (k == a->nload_cmd)
			return cli_usage_error(a->cmd, "--load-%s %.*s: no --load-cmd %.*s=...",
					       a->load_total[i] ? "total" : "work", (int)nl,
					       a->load_work[i], (int)nl, a->load_work[i]);
		if (regex[k])
			return cli_usage_error(a->cmd, "load '%.*s' has two --load-work", (int)nl,
					       a->load_work[i]);
		regex[k] = eq + 1;
		total[k] = a->load_total[i];
	}
	for (size_t i = 0; i < a->nload_cmd && !ex; i++) {
		const char *eq = strchr(a->load_cmd[i], '=');
		char **argv = NULL;

		snprintf(name, sizeof(name), "%.*s", (int)(eq - a->load_cmd[i]), a->load_cmd[i]);
		ex = load_cmd_words(a, name, eq + 1, &argv);
		if (ex)
			break;
		if (!run_runnable(argv[0])) {
			ex = cli_usage_error(a->cmd,
					     "--load-cmd %s: cannot run %s: command not found",
					     name, ct_quote(argv[0], q, sizeof(q)));
		} else if (strchr(argv[0], '/') && argv[0][0] != '/') {
			/* it runs in the load's own directory */
			if (realpath(argv[0], path))
				argv[0] = path;
		}
		if (!ex && ct_load_define_cmd(name, argv, regex[i], total[i], err, sizeof(err)))
			ex = cli_usage_error(a->cmd, "--load-cmd %s: %s", name, err);
		free(argv);
	}
	return ex;
}

/* The workload, its command and the options that only make sense together. */
static int check_workload(struct run_args *a, const struct cli_parsed *p, int argc, char **argv,
			  const struct ct_workload_ops **out)
{
	struct ct_session_opts *o = &a->s.opts;
	const struct ct_workload_ops *w = ct_workload_find(a->workload);
	char q[96];

	if (!w)
		return cli_usage_error(a->cmd,
				       "unknown workload %s (kbuild, cmd, oltp, latency, selftest)",
				       ct_quote(a->workload, q, sizeof(q)));
	if (p->rest < argc && p->dashdash)
		o->wopts.argv = argv + p->rest;
	else if (p->rest < argc)
		return cli_usage_error(a->cmd, "unexpected argument %s (a command goes after --)",
				       ct_quote(argv[p->rest], q, sizeof(q)));
	if (o->wopts.argv && !(w->flags & CT_WL_ARGV))
		return cli_usage_error(a->cmd, "a command after -- needs -w cmd");
	if ((w->flags & CT_WL_ARGV) && !o->wopts.argv)
		return cli_usage_error(a->cmd, "workload '%s' needs a command after --", w->name);
	if (o->wopts.argv && !o->wopts.shell && !run_runnable(o->wopts.argv[0]) &&
	    !(a->cmd_in_tree && strchr(o->wopts.argv[0], '/') && o->wopts.argv[0][0] != '/'))
		return cli_usage_error(
			a->cmd, "cannot run %s: command not found%s",
			ct_quote(o->wopts.argv[0], q, sizeof(q)),
			strchr(o->wopts.argv[0], ' ')
				? "; no shell is used: add --shell, or write -- sh -c '...'"
				: "");
	for (int i = 0; i < 2 && !o->wopts.shell; i++) {
		const char *hook = i ? o->wopts.cleanup : o->wopts.prepare;
		char **words = NULL;
		int n = hook ? ct_split_words(hook, &words) : 0;
		bool found = n <= 0 || run_runnable(words[0]);

		if (n > 0 && !found)
			ct_quote(words[0], q, sizeof(q));
		free(words);
		if (!found)
			return cli_usage_error(a->cmd, "--%s: cannot run %s: command not found",
					       i ? "cleanup" : "prepare", q);
	}
	if (o->probe_rt && !o->probe_ns)
		return cli_usage_error(a->cmd, "--probe-rt needs --probe wakeup");
	*out = w;
	return 0;
}

/* Every knob resolved and checked before anything is stored or changed:
 * the work dir is made under --dir, on the same disk. */
static int prepare_knobs(struct run_args *a, const struct ct_workload_ops *w,
			 const struct cli_parsed *p)
{
	struct ct_session_opts *o = &a->s.opts;
	char err[CT_ERRLEN];
	size_t n = 0;
	int rc;

	if (!a->nknobs)
		return 0;
	rc = ct_knobs_prepare(a->knobs, a->nknobs, o->dir ? o->dir : "/var/tmp", err, sizeof(err));
	if (!rc)
		rc = ct_knob_configs(a->knobs, a->nknobs, &a->kconfigs, &n, err, sizeof(err));
	if (rc == -EPERM || rc == -EACCES) {
		cli_error("%s: %s", a->cmd, err);
		return CT_EXIT_ENV;
	}
	if (rc)
		return cli_usage_error(a->cmd, "%s", err);
	if (n > CT_SESSION_MAX_CONFIGS)
		return cli_usage_error(a->cmd, "%zu configs: at most %d in one session", n,
				       CT_SESSION_MAX_CONFIGS);
	if (o->adaptive && n > 1)
		return cli_usage_error(a->cmd, "--adaptive runs one config; drop it or --vary");
	o->knobs = a->knobs;
	o->nknobs = a->nknobs;
	o->kconfigs = a->kconfigs;
	o->nkconfigs = n;
	/* a workload that warms itself up needs no warm-up after a change */
	if (!cli_given(run_opts_table(), p, "knob-warmup") && (w->flags & CT_WL_OWN_WARMUP))
		o->knob_warmup = 0;
	if (!cli_given(run_opts_table(), p, "order-seed"))
		o->order_seed = (uint64_t)ct_wall_ns() ^ ((uint64_t)getpid() << 32);
	return 0;
}

static bool any_vary(const struct run_args *a)
{
	for (size_t i = 0; i < a->nknobs; i++)
		if (a->knobs[i].vary)
			return true;
	return false;
}

/* --from reads stored runs: an option that shapes a session would be
 * silently ignored, so it is refused. */
static int check_from(const struct run_args *a, const struct cli_parsed *p)
{
	static const char *const applies[] = {
		"workload", "loads", "db", "effect", "quiet", "from"
	};

	const struct cli_opt *opts = run_opts_table();

	for (size_t i = 0; opts[i].type != CLI_OPT_END; i++) {
		bool ok = false;

		if (!p->given[i])
			continue;
		for (size_t k = 0; k < CT_ARRAY_SIZE(applies); k++)
			ok |= !strcmp(opts[i].long_name, applies[k]);
		if (!ok)
			return cli_usage_error(
				a->cmd, "--from reads stored runs; --%s does not apply to them",
				opts[i].long_name);
	}
	if (a->nknobs)
		return cli_usage_error(a->cmd, "--from reads stored runs; knobs do not apply");
	return 0;
}

/* The options of the A/A check, --target-effect and calibrate that only
 * make sense together; --aa adds its placebo knob here. */
static int check_modes(struct run_args *a, const struct cli_parsed *p)
{
	struct ct_session_opts *o = &a->s.opts;
	bool runs_given = cli_given(run_opts_table(), p, "runs");

	if (a->aa_pairs)
		a->aa = true;
	if (a->aa && any_vary(a))
		return cli_usage_error(a->cmd, "--aa compares a config with itself; drop --vary");
	if (a->aa && o->adaptive)
		return cli_usage_error(a->cmd, "--aa runs two configs; --adaptive runs one");
	if (a->target_effect && runs_given)
		return cli_usage_error(a->cmd,
				       "-n and --target-effect both set the runs; give one");
	if (a->target_effect && o->adaptive)
		return cli_usage_error(a->cmd, "--adaptive and --target-effect both set the runs; "
					       "give one");
	if (a->calibrate && any_vary(a))
		return cli_usage_error(a->cmd, "calibrate measures one config; drop --vary");
	if (a->cal_every && !a->cal_sessions)
		return cli_usage_error(a->cmd, "--every spaces the sessions of --sessions K; give "
					       "--sessions too");
	if (a->cal_show && (a->cal_sessions || a->dry_run))
		return cli_usage_error(a->cmd, "--show runs nothing; drop --%s",
				       a->cal_sessions ? "sessions" : "dry-run");
	if (a->calibrate && o->adaptive)
		return cli_usage_error(a->cmd, "calibrate runs -n times; drop --adaptive");
	if (a->aa && o->runs < ct_stats_runs_needed(95))
		return cli_usage_error(a->cmd,
				       "--aa needs %zu runs a side for a verdict (-n; the quick "
				       "profile runs %s)",
				       ct_stats_runs_needed(95),
				       cli_find(run_opts_table(), "run", "runs")->quick);
	if (a->aa) {
		if (a->nknobs == CT_KNOB_MAX)
			return cli_usage_error(a->cmd, "--aa needs a knob slot: at most %d --set",
					       CT_KNOB_MAX - 1);
		ct_knob_placebo(&a->knobs[a->nknobs++]);
	}
	return 0;
}

/* --commit REV names a commit of the current directory's repository: its
 * full sha and committer time go with the session. */
static int check_commit(struct run_args *a)
{
	struct ct_session_opts *o = &a->s.opts;
	char top[4096], err[CT_ERRLEN];
	int rc = ct_git_toplevel(".", top, sizeof(top), err, sizeof(err));

	if (!rc)
		rc = ct_git_resolve(top, a->commit, o->commit, err, sizeof(err));
	if (!rc)
		rc = ct_git_commit_time(top, o->commit, &o->commit_time, err, sizeof(err));
	if (rc == -ENOMEM)
		return cli_fail(rc, err);
	if (rc)
		return cli_usage_error(a->cmd, "--commit %s: %s", a->commit, err);
	return 0;
}

/* What the table cannot say alone: a command, loads, scopes, knobs. */
int run_check(struct run_args *a, const struct cli_parsed *p, int argc, char **argv)
{
	struct ct_session_opts *o = &a->s.opts;
	const struct ct_workload_ops *w = NULL;
	int ex;

	a->s.env.quick = a->quick || a->profile == RUN_PROFILE_QUICK;
	ex = cli_late_defaults(a->cmd, run_opts_table(), a, p, a->s.env.quick);
	if (!ex)
		ex = a->from ? check_from(a, p) : check_modes(a, p);
	if (!ex && a->quiet && cli_given(run_opts_table(), p, "progress") &&
	    a->progress != CLI_PROGRESS_NONE)
		ex = cli_usage_error(a->cmd, "-q (--quiet) and --progress %s contradict; give one",
				     cli_choice_name(run_progress_modes, a->progress));
	if (!ex)
		ex = check_workload(a, p, argc, argv, &w);
	if (!ex && o->label)
		ex = cli_check_label(a->cmd, o->label, sizeof(a->s.label));
	if (!ex && a->commit)
		ex = check_commit(a);
	if (!ex)
		ex = cli_out_setup(&a->out, a->cmd, a->format, a->output, true);
	if (!ex)
		ex = define_load_cmds(a);
	if (!ex)
		ex = choose_loads(a, w);
	if (!ex)
		ex = run_check_plugins(a, p, w);
	if (!ex && o->wopts.make_args && !o->wopts.tree)
		ex = cli_usage_error(a->cmd, "--make-args needs --tree");
	/* a load --load-cmd defined (its ops carry the definition) is run */
	for (size_t i = 0; !ex && i < ct_load_count(); i++) {
		const struct ct_load_ops *ops = ct_load_at(i);
		size_t k;

		for (k = 0; ops->data && k < o->nloads && strcmp(o->loads[k], ops->name); k++)
			;
		if (ops->data && k == o->nloads)
			ex = cli_usage_error(a->cmd,
					     "load '%s' is defined by --load-cmd but not run: name "
					     "it in -l",
					     ops->name);
	}
	if (!ex)
		ex = prepare_knobs(a, w, p);
	if (ex)
		return ex;
	o->workload = w->name;
	o->warmup = !a->no_warmup;
	o->use_cgroups = !a->no_cgroup;
	o->counters = !a->no_counters;
	o->sequential = a->order == RUN_ORDER_SEQUENTIAL;
	a->s.env.keep_files = a->keep;
	a->s.env.report_file = a->output && strcmp(a->output, "-") ? a->output : NULL;
	join_argv(o->argv, sizeof(o->argv), argc, argv);
	return 0;
}

/* A --baseline names a config with stored runs of the workload: a typo
 * found now, not after the whole session. */
int run_check_baseline(const struct run_args *a, struct ct_store *st)
{
	struct ct_run_filter f = { .label = a->baseline, .workload = a->s.opts.workload };
	struct ct_run *runs = NULL;
	char err[CT_ERRLEN];
	size_t n = 0;

	if (!a->baseline)
		return 0;
	if (ct_store_runs(st, &f, &runs, &n, err, sizeof(err)))
		return cli_fail(-EIO, err);
	free(runs);
	if (!n) {
		cli_error(
			"%s: --baseline '%s' has no stored runs of workload %s (see: contend list)",
			a->cmd, a->baseline, a->s.opts.workload);
		return CT_EXIT_USAGE;
	}
	return 0;
}
