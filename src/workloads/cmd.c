/*
 * Any foreground command the user names after "--": contend times it the
 * way it times a kernel build, so "make -j8 -C ~/linux" or a test suite can
 * be measured under every load. No shell is involved: the argv is exec'd.
 * hyperfine's conveniences: --prepare runs a command before each run and
 * --cleanup one after it, both untimed, split into words without a shell;
 * --shell hands the command and both of them to /bin/sh -c instead.
 */
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
};

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

	return c && c->prepare ? run_hook("--prepare", c->prepare, w->cwd, err, len) : 0;
}

static void cmd_collect(struct ct_workload *w, struct ct_run *r)
{
	struct cmd *c = w->priv;
	char why[CT_ERRLEN];

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
