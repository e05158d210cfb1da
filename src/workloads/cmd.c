/*
 * Any foreground command the user names after "--": contend times it the
 * way it times a kernel build, so "make -j8 -C ~/linux" or a test suite can
 * be measured under every load. No shell is involved: the argv is exec'd.
 */
#include "contend/workload.h"
#include "workloads.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Appends s to buf at *off, quoted like a shell would need it. Returns false
 * when it did not fit. */
static bool append_word(char *buf, size_t size, size_t *off, const char *s)
{
	bool quote = !*s || strpbrk(s, " \t\n'\"\\$`*?;&|<>()") != NULL;
	size_t need = strlen(s) + (*off ? 1 : 0) + (quote ? 2 : 0);
	char *p;

	if (quote)
		for (const char *c = s; *c; c++)
			if (*c == '\'')
				need += 3; /* ' -> '\'' */
	if (*off + need >= size)
		return false;
	p = buf + *off;
	if (*off)
		*p++ = ' ';
	if (quote)
		*p++ = '\'';
	for (const char *c = s; *c; c++) {
		if (quote && *c == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = *c;
		}
	}
	if (quote)
		*p++ = '\'';
	*p = '\0';
	*off = (size_t)(p - buf);
	return true;
}

static int cmd_prepare(struct ct_workload *w, char *err, size_t len)
{
	char *const *argv = w->opts.argv;
	size_t off = 0, i;

	if (!argv || !argv[0] || !*argv[0])
		return ct_err(err, len, -EINVAL, "cmd needs a command after --");
	w->params[0] = '\0';
	for (i = 0; argv[i]; i++) {
		if (!append_word(w->params, sizeof(w->params) - 4, &off, argv[i])) {
			/* Truncated: say so rather than store a different command. */
			memcpy(w->params + off, "...", 4);
			break;
		}
	}
	return 0;
}

__attribute__((noreturn)) static void cmd_exec(struct ct_workload *w)
{
	char msg[512];
	int n, e;

	execvp(w->opts.argv[0], w->opts.argv);
	e = errno;
	n = snprintf(msg, sizeof(msg), "contend: cannot run '%s': %s\n", w->opts.argv[0],
		     strerror(e));
	if (n > 0)
		(void)!write(STDERR_FILENO, msg,
			     (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1);
	_exit(127);
}

const struct ct_workload_ops ct_workload_cmd = {
	.name = "cmd",
	.summary = "any command given after --, run without a shell",
	.flags = CT_WL_ARGV,
	.prepare = cmd_prepare,
	.exec = cmd_exec,
};
