/*
 * Any program as a background load: --load-cmd NAME=COMMAND defines the
 * load NAME at run time, an ops table like the built-in ones whose one
 * worker runs the command and reads what it prints. The harness gives it
 * what every load gets (its own process group and cgroup, its CPU as
 * LCPU%, the tree killed at the end of each run); the worker adds a work
 * counter read from the output (--load-work) and, when the command ends
 * on its own, fails the load with its status and its last line.
 *
 * The command runs in the load's own directory under the session's work
 * directory, so files it makes land on the filesystem under test and are
 * removed with it.
 */
#include "contend/util.h"
#include "internal.h"
#include "loads.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define NAME_MAX_LEN 24
#define WORK_SCALE   1000.0 /* raw work is the counted number x 1000 */
#define LINE_MAX_LEN 4096
#define LAST_LEN     160

struct cmd_def {
	struct ct_load_ops ops;
	char name[NAME_MAX_LEN + 1];
	char **argv; /* one malloc'd block */
	char *regex; /* NULL: work not counted */
	bool total;
	regex_t re;
};

static struct cmd_def *defs[CT_LOAD_MAX_CMDS];
static size_t ndefs;

size_t ct_load_cmd_count(void)
{
	return ndefs;
}

const struct ct_load_ops *ct_load_cmd_at(size_t i)
{
	return i < ndefs ? &defs[i]->ops : NULL;
}

/* What one line of output adds to the work, in raw units. */
static uint64_t line_work(struct cmd_def *d, const char *line, double *last_total)
{
	regmatch_t m[2];
	double v;

	if (regexec(&d->re, line, 2, m, 0))
		return 0;
	if (d->re.re_nsub == 0)
		v = 1;
	else if (m[1].rm_so < 0 ||
		 ct_parse_scaled(line + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so), &v) || v < 0)
		return 0;
	if (d->total) {
		/* a total that falls again started over: count it from 0 */
		double grown = v >= *last_total ? v - *last_total : v;

		*last_total = v;
		v = grown;
	}
	return (uint64_t)llround(v * WORK_SCALE);
}

static void keep_last(char *last, const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	if (*line)
		snprintf(last, LAST_LEN, "%.*s", LAST_LEN - 1, line);
}

/* In the worker: runs the command with its output on a pipe, reads it
 * line by line until it ends, then fails the load with how it ended. */
static int cmd_work(struct ct_load *l, unsigned i)
{
	struct cmd_def *d = (struct cmd_def *)l->ops->data;
	char buf[LINE_MAX_LEN + 1], last[LAST_LEN] = "", q[96];
	double total = 0;
	size_t used = 0;
	pid_t self = getpid(), pid;
	int fds[2], status = 0;
	ssize_t n;

	(void)i;
	if (pipe2(fds, O_CLOEXEC))
		return ct_load_fail(l, "load '%s': cannot make a pipe: %s", d->name,
				    strerror(errno));
	pid = fork();
	if (pid < 0)
		return ct_load_fail(l, "load '%s': cannot fork: %s", d->name, strerror(errno));
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != self || null < 0 || dup2(null, 0) < 0 || dup2(fds[1], 1) < 0 ||
		    dup2(fds[1], 2) < 0 || chdir(l->dir))
			_exit(127);
		execvp(d->argv[0], d->argv);
		dprintf(2, "cannot run %s: %s\n", ct_quote(d->argv[0], q, sizeof(q)),
			strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		char *nl;

		n = read(fds[0], buf + used, LINE_MAX_LEN - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += (size_t)n;
		buf[used] = '\0';
		/* a line ends at \n or \r (progress meters redraw with \r) */
		while ((nl = strpbrk(buf, "\n\r")) || used == LINE_MAX_LEN) {
			size_t take = nl ? (size_t)(nl - buf) + 1 : used;
			uint64_t w;

			if (nl)
				*nl = '\0';
			keep_last(last, buf);
			w = d->regex ? line_work(d, buf, &total) : 0;
			if (w)
				ct_load_add(l, w);
			memmove(buf, buf + take, used - take);
			used -= take;
			buf[used] = '\0';
		}
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (used) /* a last line without its end */
		keep_last(last, buf);
	if (WIFSIGNALED(status))
		return ct_load_fail(l, "load '%s': %s was killed by signal %d (%s)%s%s", d->name,
				    ct_quote(d->argv[0], q, sizeof(q)), WTERMSIG(status),
				    strsignal(WTERMSIG(status)), *last ? ": " : "", last);
	return ct_load_fail(l, "load '%s': %s exited with status %d before the run ended%s%s",
			    d->name, ct_quote(d->argv[0], q, sizeof(q)), WEXITSTATUS(status),
			    *last ? ": " : "", last);
}

/* The command line, quoted as a shell would need it, into l->params:
 * "cmd='stress-ng --vm 2' work='ops ([0-9]+)'". */
static int cmd_prepare(struct ct_load *l, char *err, size_t len)
{
	const struct cmd_def *d = l->ops->data;
	char line[sizeof(l->params)] = "", cmd[sizeof(l->params)] = "", re[sizeof(l->params)] = "";
	size_t off = 0, coff = 0, roff = 0;
	bool fits = true;

	l->nworkers = 1;
	l->uncounted = !d->regex;
	for (size_t i = 0; d->argv[i] && fits; i++)
		fits = ct_append_word(line, sizeof(line) - 16, &off, d->argv[i]);
	if (!fits)
		return ct_err(err, len, -E2BIG, "load '%s': the command is longer than %zu bytes",
			      d->name, sizeof(line) - 16);
	fits = ct_append_word(cmd, sizeof(cmd), &coff, line) &&
	       (!d->regex || ct_append_word(re, sizeof(re), &roff, d->regex));
	if (!fits || (size_t)snprintf(l->params, sizeof(l->params), "cmd=%s%s%s", cmd,
				      !d->regex	 ? ""
				      : d->total ? " work-total="
						 : " work=",
				      re) >= sizeof(l->params))
		return ct_err(err, len, -E2BIG,
			      "load '%s': the command and its --load-work are "
			      "longer than %zu bytes",
			      d->name, sizeof(l->params) - 1);
	/* stored and printed: a password the command takes is not */
	if (ct_hide_secrets_cmdline(l->params, line, sizeof(line)))
		memcpy(l->params, line, sizeof(line));
	return 0;
}

static const struct cmd_def *cmd_find(const char *name)
{
	for (size_t i = 0; i < ndefs; i++)
		if (!strcmp(defs[i]->name, name))
			return defs[i];
	return NULL;
}

static bool name_ok(const char *name)
{
	size_t n = strlen(name);

	if (!n || n > NAME_MAX_LEN || !islower((unsigned char)name[0]))
		return false;
	return strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

static void free_def(struct cmd_def *d)
{
	if (!d)
		return;
	if (d->regex)
		regfree(&d->re);
	free(d->regex);
	free(d->argv);
	free(d);
}

/* argv copied into one block, NULL-terminated. */
static char **copy_argv(char *const argv[])
{
	size_t n = 0, bytes = 0;
	char **out, *p;

	for (; argv[n]; n++)
		bytes += strlen(argv[n]) + 1;
	out = malloc((n + 1) * sizeof(*out) + bytes);
	if (!out)
		return NULL;
	p = (char *)(out + n + 1);
	for (size_t i = 0; i < n; i++) {
		size_t k = strlen(argv[i]) + 1;

		out[i] = memcpy(p, argv[i], k);
		p += k;
	}
	out[n] = NULL;
	return out;
}

int ct_load_define_cmd(const char *name, char *const argv[], const char *work_regex,
		       bool work_total, char *err, size_t len)
{
	struct cmd_def *d;
	char q[64];
	int rc;

	if (!name_ok(name))
		return ct_err(err, len, -EINVAL,
			      "load name %s: a lower-case letter, then letters, digits, '_' or "
			      "'-', at most %d",
			      ct_quote(name, q, sizeof(q)), NAME_MAX_LEN);
	if (ct_load_find(name))
		return ct_err(err, len, -EEXIST, "load '%s' is already defined%s", name,
			      cmd_find(name) ? "" : " (a built-in load)");
	if (!argv || !argv[0] || !*argv[0])
		return ct_err(err, len, -EINVAL, "load '%s': the command is empty", name);
	if (ndefs == CT_LOAD_MAX_CMDS)
		return ct_err(err, len, -ENOSPC, "too many --load-cmd (at most %d)",
			      CT_LOAD_MAX_CMDS);
	d = calloc(1, sizeof(*d));
	if (!d || !(d->argv = copy_argv(argv)) ||
	    (work_regex && !(d->regex = strdup(work_regex)))) {
		free_def(d);
		return ct_err(err, len, -ENOMEM, "out of memory");
	}
	if (work_regex) {
		rc = regcomp(&d->re, work_regex, REG_EXTENDED | REG_NEWLINE);
		if (rc) {
			char why[128];

			regerror(rc, &d->re, why, sizeof(why));
			free(d->regex);
			d->regex = NULL;
			free_def(d);
			return ct_err(err, len, -EINVAL, "--load-work %s: %s",
				      ct_quote(work_regex, q, sizeof(q)), why);
		}
	}
	d->total = work_total;
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->ops = (struct ct_load_ops){
		.name = d->name,
		.summary = "a command given with --load-cmd",
		.work_unit = work_regex ? "counted in its output" : NULL,
		.unit_scale = work_regex ? WORK_SCALE : 0,
		.data = d,
		.prepare = cmd_prepare,
		.work = cmd_work,
	};
	defs[ndefs++] = d;
	return 0;
}

void ct_load_forget_cmds(void)
{
	for (size_t i = 0; i < ndefs; i++)
		free_def(defs[i]);
	ndefs = 0;
}
