/*
 * Workloads with real processes and real files: the generated kbuild tree is
 * deterministic and builds, reset really forces a rebuild, and every exec
 * path exits with the status the session will read; pgbench's server and
 * client come from each config's build of them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "contend/workload.h"
#include "contend/proc.h"
#include "contend/srctree.h"
#include "contend/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_FILES 256

static char tmp[PATH_MAX];
static struct ct_env env;

static int setup(void **state)
{
	snprintf(tmp, sizeof(tmp), "/var/tmp/ct-test-wl-XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	memset(&env, 0, sizeof(env));
	env.ncpus = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	snprintf(env.dir, sizeof(env.dir), "%s", tmp);
	return 0;
}

static int teardown(void **state)
{
	return ct_rm_rf(tmp);
}

static void path_in(char *buf, size_t len, const char *a, const char *b)
{
	assert_true((size_t)snprintf(buf, len, "%s/%s", a, b) < len);
}

static bool exists(const char *dir, const char *rel)
{
	char p[PATH_MAX];

	path_in(p, sizeof(p), dir, rel);
	return access(p, F_OK) == 0;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

/* Runs argv in dir with stdout (and stderr unless errfile) sent away; returns
 * the exit code as a shell shows it. */
static int run_argv(char *const *argv, const char *dir)
{
	int status, fd;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, STDOUT_FILENO);
		if (dir && chdir(dir))
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	assert_int_equal(ct_proc_reap(pid, &status, NULL), 0);
	return ct_proc_exit_code(status);
}

/* Forks and runs the workload's exec as the session does. stderr goes to
 * errfile when given. */
static int run_workload(struct ct_workload *w, struct rusage *ru, const char *errfile)
{
	pid_t parent = getpid(), pid;
	int status, fd;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		ct_proc_child_setup(parent);
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, STDOUT_FILENO);
		if (errfile) {
			fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			dup2(fd, STDERR_FILENO);
		}
		w->ops->exec(w);
	}
	assert_int_equal(ct_proc_reap(pid, &status, ru), 0);
	return ct_proc_exit_code(status);
}

/* ---- tree comparison ---- */

struct list {
	char *name[MAX_FILES];
	size_t n;
};

static void walk(const char *root, const char *rel, struct list *l)
{
	char p[PATH_MAX], r[PATH_MAX];
	struct dirent *de;
	DIR *d;

	path_in(p, sizeof(p), root, rel);
	d = opendir(p);
	assert_non_null(d);
	while ((de = readdir(d))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (*rel)
			path_in(r, sizeof(r), rel, de->d_name);
		else
			snprintf(r, sizeof(r), "%s", de->d_name);
		path_in(p, sizeof(p), root, r);
		assert_int_equal(lstat(p, &st), 0);
		if (S_ISDIR(st.st_mode)) {
			walk(root, r, l);
		} else {
			assert_true(l->n < MAX_FILES);
			l->name[l->n] = strdup(r);
			assert_non_null(l->name[l->n]);
			l->n++;
		}
	}
	closedir(d);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list_tree(const char *root, struct list *l)
{
	memset(l, 0, sizeof(*l));
	walk(root, "", l);
	qsort(l->name, l->n, sizeof(l->name[0]), cmp_str);
}

static void list_free(struct list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->name[i]);
	l->n = 0;
}

static char *slurp(const char *root, const char *rel, size_t *len)
{
	char p[PATH_MAX];
	FILE *f;
	char *buf;
	long n;

	path_in(p, sizeof(p), root, rel);
	f = fopen(p, "r");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

static bool same_file(const char *a, const char *b, const char *rel)
{
	size_t la, lb;
	char *x = slurp(a, rel, &la), *y = slurp(b, rel, &lb);
	bool same = la == lb && !memcmp(x, y, la);

	free(x);
	free(y);
	return same;
}

static size_t count_suffix(const struct list *l, const char *suffix)
{
	size_t n = 0, sl = strlen(suffix);

	for (size_t i = 0; i < l->n; i++) {
		size_t len = strlen(l->name[i]);

		if (len > sl && !strcmp(l->name[i] + len - sl, suffix))
			n++;
	}
	return n;
}

/* ---- tests ---- */

static void test_registry(void **state)
{
	const struct ct_workload_ops *k = ct_workload_find("kbuild");

	assert_non_null(k);
	assert_string_equal(k->name, "kbuild");
	assert_non_null(k->exec);
	assert_non_null(ct_workload_find("cmd"));
	assert_non_null(ct_workload_find("selftest"));
	assert_non_null(ct_workload_find("oltp"));
	assert_null(ct_workload_find("kbuil"));
	assert_null(ct_workload_find("no-such-workload"));
	assert_non_null(ct_workload_find("latency"));
	assert_non_null(ct_workload_find("pgbench"));
	assert_int_equal(ct_workload_count(), 6);
	for (size_t i = 0; i < ct_workload_count(); i++) {
		assert_non_null(ct_workload_at(i)->summary);
		assert_ptr_equal(ct_workload_find(ct_workload_at(i)->name), ct_workload_at(i));
	}
	assert_null(ct_workload_at(ct_workload_count()));
}

static void test_generate(void **state)
{
	char a[PATH_MAX], b[PATH_MAX], c[PATH_MAX], err[CT_ERRLEN] = "";
	struct list la, lb, lc;
	unsigned na = 0, nb = 0, nc = 0;
	char *make_argv[] = { "make", "-s", "-j4", NULL };
	char *bin_argv[] = { "./vmcontend", NULL };

	path_in(a, sizeof(a), tmp, "gen-a");
	path_in(b, sizeof(b), tmp, "gen-b");
	path_in(c, sizeof(c), tmp, "gen-c");
	assert_int_equal(ct_srctree_generate(a, 0.05, &na, err, sizeof(err)), 0);
	assert_int_equal(ct_srctree_generate(b, 0.05, &nb, err, sizeof(err)), 0);
	assert_int_equal(ct_srctree_generate(c, 0.1, &nc, err, sizeof(err)), 0);

	/* 160 files per unit of scale */
	assert_int_equal(na, 8);
	assert_int_equal(nb, 8);
	assert_int_equal(nc, 16);

	list_tree(a, &la);
	list_tree(b, &lb);
	list_tree(c, &lc);
	assert_int_equal(count_suffix(&la, ".c"), na);
	assert_int_equal(count_suffix(&lc, ".c"), nc);
	assert_true(count_suffix(&la, ".h") >= 3);
	assert_true(exists(a, "Makefile"));
	assert_true(exists(a, "init/main.c"));

	/* same scale: the same names, the same bytes */
	assert_int_equal(la.n, lb.n);
	for (size_t i = 0; i < la.n; i++) {
		assert_string_equal(la.name[i], lb.name[i]);
		assert_true(same_file(a, b, la.name[i]));
	}
	/* another scale: a file's bytes depend on its name only, the list differs */
	assert_true(lc.n > la.n);
	assert_true(same_file(a, c, "kernel/sched_0.c"));
	assert_true(same_file(a, c, "include/gen/helpers.h"));
	assert_false(same_file(a, c, "Makefile"));
	list_free(&la);
	list_free(&lb);
	list_free(&lc);

	/* the tree builds and the program runs */
	assert_int_equal(run_argv(make_argv, a), 0);
	assert_true(exists(a, "kernel/sched_0.o"));
	assert_true(exists(a, "vmcontend"));
	assert_int_equal(run_argv(bin_argv, a), 0);

	/* bad scales */
	assert_int_equal(ct_srctree_generate(c, -1, &nc, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "scale"));
	assert_int_equal(ct_srctree_generate(c, 1e9, &nc, err, sizeof(err)), -EINVAL);
}

static void test_kbuild_generated(void **state)
{
	struct ct_workload_opts opts = { .scale = 0.05 };
	struct ct_workload w;
	char err[CT_ERRLEN] = "", want[64], tree[PATH_MAX];

	assert_int_equal(
		ct_workload_init(&w, ct_workload_find("kbuild"), &env, &opts, err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "files=8 scale=0.05 jobs=%u", 4 * env.ncpus);
	assert_memory_equal(w.params, want, strlen(want));
	/* a dry run's parameters are the session's, with no tree made */
	{
		char described[256];

		assert_int_equal(w.ops->describe(&env, &opts, tmp, described, sizeof(described),
						 err, sizeof(err)),
				 0);
		assert_string_equal(described, w.params);
	}
	path_in(tree, sizeof(tree), w.dir, "tree");
	assert_true(exists(tree, "Makefile"));

	assert_int_equal(w.ops->reset(&w, err, sizeof(err)), 0);
	assert_int_equal(run_workload(&w, NULL, NULL), 0);
	assert_true(exists(tree, "kernel/sched_0.o"));
	assert_true(exists(tree, "init/main.o"));
	assert_true(exists(tree, "vmcontend"));

	/* reset removes what the build made, and only that */
	assert_int_equal(w.ops->reset(&w, err, sizeof(err)), 0);
	assert_false(exists(tree, "kernel/sched_0.o"));
	assert_false(exists(tree, "init/main.o"));
	assert_false(exists(tree, "vmcontend"));
	assert_true(exists(tree, "kernel/sched_0.c"));
	assert_true(exists(tree, "Makefile"));

	/* so the next run compiles again */
	assert_int_equal(run_workload(&w, NULL, NULL), 0);
	assert_true(exists(tree, "kernel/sched_0.o"));

	ct_workload_release(&w);
	assert_false(access(tree, F_OK) == 0);
}

static void test_kbuild_tree(void **state)
{
	struct ct_workload_opts opts = { .make_args = " V=1  all " };
	struct ct_workload w;
	char err[CT_ERRLEN] = "", dir[PATH_MAX], real[PATH_MAX], mk[PATH_MAX];
	char want[PATH_MAX + 64];

	path_in(dir, sizeof(dir), tmp, "user-tree");
	assert_int_equal(ct_mkdir_p(dir, 0755), 0);
	path_in(mk, sizeof(mk), dir, "Makefile");
	write_text(mk, "all:\n\ttouch built-$(V)\nclean:\n\trm -f built-$(V)\n");
	opts.tree = dir;

	assert_int_equal(
		ct_workload_init(&w, ct_workload_find("kbuild"), &env, &opts, err, sizeof(err)), 0);
	assert_non_null(realpath(dir, real));
	snprintf(want, sizeof(want), "tree=%s jobs=%u args=V=1 all", real, 4 * env.ncpus);
	assert_memory_equal(w.params, want, strlen(want));
	{
		char described[PATH_MAX + 64];

		assert_int_equal(w.ops->describe(&env, &opts, tmp, described, sizeof(described),
						 err, sizeof(err)),
				 0);
		assert_string_equal(described, w.params);
	}

	assert_int_equal(run_workload(&w, NULL, NULL), 0);
	assert_true(exists(dir, "built-1"));
	/* make clean gets the variable, not the target */
	assert_int_equal(w.ops->reset(&w, err, sizeof(err)), 0);
	assert_false(exists(dir, "built-1"));
	ct_workload_release(&w);
	/* the user's tree is theirs: release leaves it */
	assert_true(exists(dir, "Makefile"));

	/* a failing make clean fails the reset, with make's complaint */
	write_text(mk, "all:\n\ttrue\n");
	opts.make_args = NULL;
	assert_int_equal(
		ct_workload_init(&w, ct_workload_find("kbuild"), &env, &opts, err, sizeof(err)), 0);
	assert_true(w.ops->reset(&w, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "make clean"));
	assert_non_null(strstr(err, "clean"));
	assert_non_null(strstr(err, dir));
	ct_workload_release(&w);
}

static void test_kbuild_bad_tree(void **state)
{
	struct ct_workload_opts opts = { 0 };
	struct ct_workload w;
	char err[CT_ERRLEN] = "", path[PATH_MAX], want[PATH_MAX + 64];
	const struct ct_workload_ops *kb = ct_workload_find("kbuild");

	path_in(path, sizeof(path), tmp, "no-such-tree");
	opts.tree = path;
	assert_int_equal(ct_workload_init(&w, kb, &env, &opts, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "kbuild: cannot read tree '%s': No such file or directory",
		 path);
	assert_string_equal(err, want);

	path_in(path, sizeof(path), tmp, "a-file");
	write_text(path, "not a tree\n");
	assert_int_equal(ct_workload_init(&w, kb, &env, &opts, err, sizeof(err)), -ENOTDIR);
	assert_non_null(strstr(err, path));

	path_in(path, sizeof(path), tmp, "empty-dir");
	assert_int_equal(ct_mkdir_p(path, 0755), 0);
	assert_int_equal(ct_workload_init(&w, kb, &env, &opts, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "Makefile"));
	assert_non_null(strstr(err, path));
}

static void test_cmd(void **state)
{
	const struct ct_workload_ops *cmd = ct_workload_find("cmd");
	char *exit3[] = { "sh", "-c", "exit 3", NULL };
	char *missing[] = { "/nonexistent/contend-no-such-program", "x", NULL };
	char *none[] = { NULL };
	struct ct_workload_opts opts = { 0 };
	struct ct_workload w;
	char err[CT_ERRLEN] = "", errfile[PATH_MAX], *msg;
	char *long_argv[64];
	size_t n;

	assert_int_equal(ct_workload_init(&w, cmd, &env, &opts, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "cmd needs a command after --");
	opts.argv = none;
	assert_int_equal(ct_workload_init(&w, cmd, &env, &opts, err, sizeof(err)), -EINVAL);

	opts.argv = exit3;
	assert_int_equal(ct_workload_init(&w, cmd, &env, &opts, err, sizeof(err)), 0);
	assert_string_equal(w.params, "sh -c 'exit 3'");
	assert_int_equal(run_workload(&w, NULL, NULL), 3);
	ct_workload_release(&w);

	path_in(errfile, sizeof(errfile), tmp, "cmd-stderr");
	opts.argv = missing;
	assert_int_equal(ct_workload_init(&w, cmd, &env, &opts, err, sizeof(err)), 0);
	assert_int_equal(run_workload(&w, NULL, errfile), 127);
	msg = slurp(tmp, "cmd-stderr", &n);
	assert_string_equal(msg, "contend: cannot run '/nonexistent/contend-no-such-program': "
				 "No such file or directory\n");
	free(msg);
	ct_workload_release(&w);

	/* a command too long for params is cut, visibly */
	for (n = 0; n < 63; n++)
		long_argv[n] = "abcdefghij";
	long_argv[63] = NULL;
	opts.argv = long_argv;
	assert_int_equal(ct_workload_init(&w, cmd, &env, &opts, err, sizeof(err)), 0);
	n = strlen(w.params);
	assert_true(n < sizeof(w.params));
	assert_string_equal(w.params + n - 3, "...");
	assert_memory_equal(w.params, "abcdefghij abcdefghij ", 22);
	ct_workload_release(&w);
}

static void test_selftest(void **state)
{
	const struct ct_workload_ops *st = ct_workload_find("selftest");
	struct ct_workload_opts opts = { .mode = "fail" };
	struct ct_workload w;
	struct rusage ru;
	char err[CT_ERRLEN] = "";

	assert_int_equal(ct_workload_init(&w, st, &env, &opts, err, sizeof(err)), 0);
	assert_int_equal(run_workload(&w, NULL, NULL), 3);
	ct_workload_release(&w);

	opts.mode = NULL;
	opts.scale = 0.1;
	assert_int_equal(ct_workload_init(&w, st, &env, &opts, err, sizeof(err)), 0);
	assert_string_equal(w.params, "mode=spin seconds=0.10");
	assert_int_equal(run_workload(&w, &ru, NULL), 0);
	/* CPU work done, whatever the wall clock says */
	assert_true(ct_tv_us(ru.ru_utime) + ct_tv_us(ru.ru_stime) >= 80000);
	ct_workload_release(&w);

	opts.mode = "sleep";
	opts.scale = 0.05;
	assert_int_equal(ct_workload_init(&w, st, &env, &opts, err, sizeof(err)), 0);
	assert_string_equal(w.params, "mode=sleep seconds=0.05");
	assert_int_equal(run_workload(&w, &ru, NULL), 0);
	ct_workload_release(&w);

	opts.mode = "dance";
	assert_int_equal(ct_workload_init(&w, st, &env, &opts, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "selftest: unknown mode 'dance'");
}

/* A tree of the server's programs linked from bin, as a build of it would
 * leave them; in B, pgbench and pg_ctl wrappers that say they ran. */
static void server_tree(const char *bin, const char *tree, bool marked)
{
	char dir[PATH_MAX], link[PATH_MAX * 2], real[PATH_MAX * 2], text[PATH_MAX * 3];
	static const char *const progs[] = { "initdb", "pg_ctl", "postgres", "psql", "pgbench" };

	path_in(dir, sizeof(dir), tree, "bin");
	assert_int_equal(ct_mkdir_p(dir, 0755), 0);
	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		snprintf(link, sizeof(link), "%s/%s", dir, progs[i]);
		snprintf(real, sizeof(real), "%s/%s", bin, progs[i]);
		if (marked && !strcmp(progs[i], "pgbench")) {
			snprintf(text, sizeof(text),
				 "#!/bin/sh\ntouch '%s/used'\nexec '%s' \"$@\"\n", tree, real);
			write_text(link, text);
			assert_int_equal(chmod(link, 0755), 0);
		} else if (marked && !strcmp(progs[i], "pg_ctl")) {
			/* run as the server's user: appends to a file open to it */
			snprintf(text, sizeof(text), "%s/pg_ctl.used", tree);
			write_text(text, "");
			assert_int_equal(chmod(text, 0666), 0);
			snprintf(text, sizeof(text),
				 "#!/bin/sh\necho \"$@\" >>'%s/pg_ctl.used'\nexec '%s' \"$@\"\n",
				 tree, real);
			write_text(link, text);
			assert_int_equal(chmod(link, 0755), 0);
		} else {
			assert_int_equal(symlink(real, link), 0);
		}
	}
}

/* Running, not a zombie waiting for whoever it was reparented to. */
static bool running(long pid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (ct_read_file(path, buf, sizeof(buf)) <= 0)
		return false;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

static long postmaster_pid(const struct ct_workload *w)
{
	char path[PATH_MAX + 32], buf[32] = "";

	snprintf(path, sizeof(path), "%s/pg/data/postmaster.pid", w->dir);
	return ct_read_file(path, buf, sizeof(buf)) > 0 ? strtol(buf, NULL, 10) : -1;
}

/* A relative --pg-bin is each config's build (a bisection's trees): the
 * cluster made by the first config's, each run's server and pgbench its
 * config's, the server restarted only when the config changes. Root and
 * Debian's PostgreSQL. */
static void test_pgbench_config_bins(void **state)
{
	const struct ct_workload_ops *pg = ct_workload_find("pgbench");
	struct ct_workload_opts opts = { 0 };
	char err[CT_ERRLEN] = "", bin[PATH_MAX] = "", a[PATH_MAX], b[PATH_MAX];
	struct ct_workload w;
	FILE *f;
	long pid_a, pid_b;

	f = popen("ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1", "r");
	if (f) {
		if (!fgets(bin, sizeof(bin), f))
			bin[0] = '\0';
		pclose(f);
	}
	bin[strcspn(bin, "\n")] = '\0';
	if (geteuid() != 0 || !*bin) {
		print_message("skipped: needs root and a PostgreSQL server\n");
		skip();
	}
	path_in(a, sizeof(a), tmp, "A");
	path_in(b, sizeof(b), tmp, "B");
	server_tree(bin, a, false);
	server_tree(bin, b, true);
	opts.pg_bin = "bin";
	opts.pg_scale = 1;
	opts.pg_clients = 1;
	opts.duration_ns = 1000000000;
	opts.first_cwd = a;
	assert_int_equal(ct_workload_init(&w, pg, &env, &opts, err, sizeof(err)), 0);

	w.cwd = a;
	assert_int_equal(w.ops->reset(&w, err, sizeof(err)), 0);
	pid_a = postmaster_pid(&w);
	assert_true(pid_a > 0);
	assert_int_equal(run_workload(&w, NULL, NULL), 0);
	assert_false(exists(b, "used"));

	w.cwd = b; /* another config: its own server and pgbench */
	assert_int_equal(w.ops->reset(&w, err, sizeof(err)), 0);
	pid_b = postmaster_pid(&w);
	assert_true(pid_b > 0 && pid_b != pid_a);
	assert_false(running(pid_a));
	assert_int_equal(run_workload(&w, NULL, NULL), 0);
	assert_true(exists(b, "used"));
	{ /* B's pg_ctl started B's server */
		size_t n;
		char *log = slurp(b, "pg_ctl.used", &n);

		assert_non_null(strstr(log, " start"));
		free(log);
	}

	w.cwd = b; /* the same config again: the same server */
	assert_int_equal(w.ops->reset(&w, err, sizeof(err)), 0);
	assert_int_equal(postmaster_pid(&w), pid_b);
	ct_workload_release(&w);
	assert_false(running(pid_b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),	 cmocka_unit_test(test_generate),
		cmocka_unit_test(test_kbuild_generated), cmocka_unit_test(test_kbuild_tree),
		cmocka_unit_test(test_kbuild_bad_tree),	 cmocka_unit_test(test_cmd),
		cmocka_unit_test(test_selftest),	 cmocka_unit_test(test_pgbench_config_bins),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
