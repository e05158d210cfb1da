/*
 * The default workload, contest's heir: a parallel C build, timed. Without a
 * kernel tree at hand it builds a generated one (core/srctree.c), so results
 * are comparable across machines that build the byte-identical tree.
 */
#include "contend/workload.h"
#include "contend/option.h"
#include "contend/proc.h"
#include "contend/srctree.h"
#include "contend/util.h"
#include "workloads.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define KB_BIN	    CT_SRCTREE_BIN
#define KB_TREE	    "tree"
#define KB_MAX_ARGS 64

/* ------------------------------------------------------------------ */
/* The workload                                                       */
/* ------------------------------------------------------------------ */

struct kbuild {
	char tree[PATH_MAX];
	bool generated;
	char *args_buf;			  /* make_args, split in place */
	char *make_argv[KB_MAX_ARGS + 5]; /* make -C tree -jN args... NULL */
	char jobs[32];
};

static void kbuild_free(struct ct_workload *w)
{
	struct kbuild *kb = w->priv;

	if (!kb)
		return;
	free(kb->args_buf);
	free(kb);
	w->priv = NULL;
}

/* A tree contend can build: a directory it may write, with a Makefile;
 * its real path in real (PATH_MAX). */
static int check_tree(char *real, const char *tree, char *err, size_t len)
{
	static const char *const makefiles[] = { "GNUmakefile", "makefile", "Makefile" };
	char path[PATH_MAX];
	struct stat st;
	size_t i;

	if (stat(tree, &st))
		return ct_err(err, len, -errno, "kbuild: cannot read tree '%s': %s", tree,
			      strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return ct_err(err, len, -ENOTDIR, "kbuild: cannot read tree '%s': %s", tree,
			      strerror(ENOTDIR));
	if (access(tree, R_OK | W_OK | X_OK))
		return ct_err(err, len, -errno, "kbuild: cannot use tree '%s': %s", tree,
			      strerror(errno));
	if (!realpath(tree, real))
		return ct_err(err, len, -errno, "kbuild: cannot read tree '%s': %s", tree,
			      strerror(errno));
	for (i = 0; i < CT_ARRAY_SIZE(makefiles); i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", real, makefiles[i]) <
			    sizeof(path) &&
		    !access(path, R_OK))
			return 0;
	}
	return ct_err(err, len, -ENOENT, "kbuild: no Makefile in '%s'", tree);
}

static int kbuild_check(const struct ct_env *env, const struct ct_workload_opts *o, const char *dir,
			char *err, size_t len)
{
	char real[PATH_MAX];

	return o->tree ? check_tree(real, o->tree, err, len) : 0;
}

/* The parameters a session stores: the generated tree's size (tree NULL)
 * or the given tree and make's extra arguments, the jobs, the compiler. */
static void kb_params(char *buf, size_t len, const char *tree, unsigned nfiles, double scale,
		      unsigned jobs, const char *make_args)
{
	size_t off;

	if (!tree) {
		off = (size_t)snprintf(buf, len, "files=%u scale=%.2f jobs=%u", nfiles, scale,
				       jobs);
	} else {
		const char *p = make_args ? make_args : "";
		bool first = true;

		off = (size_t)snprintf(buf, len, "tree=%s jobs=%u", tree, jobs);
		while (*p && off < len) {
			size_t n;

			p += strspn(p, " \t");
			n = strcspn(p, " \t");
			if (n)
				off += (size_t)snprintf(buf + off, len - off, "%s%.*s",
							first ? " args=" : " ", (int)n, p);
			first = first && !n;
			p += n;
		}
	}
	/* The compiler is part of what is measured. */
	if (getenv("CC") && off < len)
		snprintf(buf + off, len - off, " cc=%s", getenv("CC"));
}

/* make's jobs: four a CPU. */
static unsigned kb_jobs(const struct ct_env *env)
{
	return 4 * (env->ncpus ? env->ncpus : 1);
}

/* The generated tree's scale: --scale, else the profile's (0.1 quick). */
static double kb_scale(const struct ct_env *env, const struct ct_workload_opts *o)
{
	if (o->scale != 0)
		return o->scale;
	if (env->scale != 0)
		return env->scale;
	return env->quick ? 0.1 : 1.0;
}

/* The parameters prepare would store, without generating the tree (a
 * dry run's, calibrate --show's). */
static int kbuild_describe(const struct ct_env *env, const struct ct_workload_opts *o,
			   const char *dir, char *params, size_t plen, char *err, size_t len)
{
	unsigned jobs = kb_jobs(env), nfiles = 0;
	double scale = kb_scale(env, o);
	char real[PATH_MAX];
	int rc;

	(void)dir;
	if (o->tree) {
		rc = check_tree(real, o->tree, err, len);
		if (!rc)
			kb_params(params, plen, real, 0, 0, jobs, o->make_args);
		return rc;
	}
	rc = ct_srctree_files(scale, &nfiles, err, len);
	if (!rc)
		kb_params(params, plen, NULL, nfiles, scale, jobs, NULL);
	return rc;
}

static int kbuild_prepare(struct ct_workload *w, char *err, size_t len)
{
	const struct ct_env *env = w->env;
	unsigned jobs = kb_jobs(env), nfiles = 0;
	double scale = kb_scale(env, &w->opts);
	struct kbuild *kb;
	size_t n = 0;
	char *tok, *save;
	int rc;

	kb = calloc(1, sizeof(*kb));
	if (!kb)
		return ct_err(err, len, -ENOMEM, "kbuild: out of memory");
	w->priv = kb;
	snprintf(kb->jobs, sizeof(kb->jobs), "-j%u", jobs);

	if (w->opts.tree) {
		rc = check_tree(kb->tree, w->opts.tree, err, len);
		if (rc)
			goto out;
	} else {
		if ((size_t)snprintf(kb->tree, sizeof(kb->tree), "%s/" KB_TREE, w->dir) >=
		    sizeof(kb->tree)) {
			rc = ct_err(err, len, -ENAMETOOLONG, "kbuild: work directory too long");
			goto out;
		}
		rc = ct_srctree_generate(kb->tree, scale, &nfiles, err, len);
		if (rc)
			goto out;
		kb->generated = true;
	}

	/* Split make_args now: the child after fork must not allocate. */
	kb->make_argv[n++] = "make";
	kb->make_argv[n++] = "-C";
	kb->make_argv[n++] = kb->tree;
	kb->make_argv[n++] = kb->jobs;
	if (w->opts.make_args) {
		kb->args_buf = strdup(w->opts.make_args);
		if (!kb->args_buf) {
			rc = ct_err(err, len, -ENOMEM, "kbuild: out of memory");
			goto out;
		}
		for (tok = strtok_r(kb->args_buf, " \t", &save); tok;
		     tok = strtok_r(NULL, " \t", &save)) {
			if (n >= KB_MAX_ARGS + 4) {
				rc = ct_err(err, len, -EINVAL, "kbuild: too many make arguments");
				goto out;
			}
			kb->make_argv[n++] = tok;
		}
	}
	kb->make_argv[n] = NULL;

	kb_params(w->params, sizeof(w->params), kb->generated ? NULL : kb->tree, nfiles, scale,
		  jobs, w->opts.make_args);
	rc = 0;
out:
	if (rc)
		kbuild_free(w);
	return rc;
}

/* Removes the build products of the generated tree: every *.o and the
 * binary. Done in C rather than by make so that it is quick and cannot fail
 * on make's account. */
static int remove_objects(int dfd, const char *name, int depth)
{
	struct dirent *de;
	DIR *d;
	int fd, rc = 0;
	unsigned char type;
	size_t n;

	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		n = strlen(de->d_name);
		type = de->d_type;
		if (type == DT_UNKNOWN) {
			struct stat st;

			if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW))
				continue;
			type = S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
		}
		if (type == DT_DIR) {
			if (depth < 4) {
				int r = remove_objects(dirfd(d), de->d_name, depth + 1);

				if (r && !rc)
					rc = r;
			}
		} else if ((n > 2 && !strcmp(de->d_name + n - 2, ".o")) ||
			   (depth == 0 && !strcmp(de->d_name, KB_BIN))) {
			if (unlinkat(dirfd(d), de->d_name, 0) && errno != ENOENT && !rc)
				rc = -errno;
		}
	}
	closedir(d);
	return rc;
}

/* Drops NAME=... from environ without allocating (we are past fork). */
static void drop_env(const char *name)
{
	extern char **environ;
	size_t n = strlen(name);
	char **r, **wr;

	if (!environ)
		return;
	for (r = wr = environ; *r; r++)
		if (strncmp(*r, name, n) || (*r)[n] != '=')
			*wr++ = *r;
	*wr = NULL;
}

/* A contend started from make ("make run") must not hand its jobserver or
 * flags to the build it times: -jN alone decides the parallelism. */
static void drop_make_env(void)
{
	drop_env("MAKEFLAGS");
	drop_env("MFLAGS");
	drop_env("MAKELEVEL");
}

/* "make -C tree clean" for a user's tree, passing on the variable
 * assignments of make_args (O=..., ARCH=...) but not its targets. The last
 * line make wrote on stderr goes into err when it fails. */
static int make_clean(struct ct_workload *w, char *err, size_t len)
{
	struct kbuild *kb = w->priv;
	char *argv[KB_MAX_ARGS + 6];
	char buf[4096], last[256] = "";
	size_t n = 0, used = 0;
	int pfd[2], status, rc, devnull;
	pid_t parent = getpid(), pid;
	ssize_t r;
	char *nl;

	argv[n++] = "make";
	argv[n++] = "-C";
	argv[n++] = kb->tree;
	for (size_t i = 4; kb->make_argv[i]; i++)
		if (strchr(kb->make_argv[i], '='))
			argv[n++] = kb->make_argv[i];
	argv[n++] = "clean";
	argv[n] = NULL;

	if (pipe2(pfd, O_CLOEXEC))
		return ct_err(err, len, -errno, "kbuild: pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(pfd[0]);
		close(pfd[1]);
		return ct_err(err, len, rc, "kbuild: fork: %s", strerror(-rc));
	}
	if (pid == 0) {
		ct_proc_child_setup(parent);
		devnull = open("/dev/null", O_RDWR);
		if (devnull >= 0) {
			dup2(devnull, STDIN_FILENO);
			dup2(devnull, STDOUT_FILENO);
			if (devnull > STDERR_FILENO)
				close(devnull);
		}
		dup2(pfd[1], STDERR_FILENO);
		drop_make_env();
		setenv("CCACHE_DISABLE", "1", 1);
		execvp(argv[0], argv);
		dprintf(STDERR_FILENO, "cannot run 'make': %s\n", strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	for (;;) {
		r = read(pfd[0], buf + used, sizeof(buf) - 1 - used);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		used += (size_t)r;
		buf[used] = '\0';
		/* Keep the last complete line; drop what came before it. */
		while ((nl = strchr(buf, '\n'))) {
			*nl = '\0';
			if (*buf)
				snprintf(last, sizeof(last), "%.*s", (int)sizeof(last) - 1, buf);
			used -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, used + 1);
		}
		if (used == sizeof(buf) - 1)
			used = 0; /* an absurdly long line: forget it */
	}
	if (used) {
		buf[used] = '\0';
		snprintf(last, sizeof(last), "%.*s", (int)sizeof(last) - 1, buf);
	}
	close(pfd[0]);
	rc = ct_proc_reap(pid, &status, NULL);
	if (rc)
		return ct_err(err, len, rc, "kbuild: wait for make clean: %s", strerror(-rc));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return ct_err(err, len, -EIO, "kbuild: 'make clean' failed in '%s' (exit %d)%s%s",
			      kb->tree, ct_proc_exit_code(status), *last ? ": " : "", last);
	return 0;
}

static int kbuild_reset(struct ct_workload *w, char *err, size_t len)
{
	struct kbuild *kb = w->priv;
	int rc;

	if (!kb->generated)
		return make_clean(w, err, len);
	rc = remove_objects(AT_FDCWD, kb->tree, 0);
	if (rc)
		return ct_err(err, len, rc, "kbuild: cannot clean '%s': %s", kb->tree,
			      strerror(-rc));
	return 0;
}

__attribute__((noreturn)) static void kbuild_exec(struct ct_workload *w)
{
	struct kbuild *kb = w->priv;
	char msg[PATH_MAX + 64];
	int n, e;

	drop_make_env();
	/* the tree is the same every run: a compiler cache would time itself */
	setenv("CCACHE_DISABLE", "1", 1);
	execvp(kb->make_argv[0], kb->make_argv);
	e = errno;
	n = snprintf(msg, sizeof(msg), "contend: cannot run '%s': %s\n", kb->make_argv[0],
		     strerror(e));
	if (n > 0)
		(void)!write(STDERR_FILENO, msg,
			     (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1);
	_exit(127);
}

static void kbuild_cleanup(struct ct_workload *w)
{
	kbuild_free(w);
}

static const struct ct_option kbuild_options[] = {
	{ .type = CT_OPTION_DOUBLE,
	  .name = "scale",
	  .in = CT_OPTION_IN_WORKLOAD,
	  .off = offsetof(struct ct_workload_opts, scale),
	  .argh = "X",
	  .help = "the generated tree's scale (1.0: about 10-20 s on\n2 CPUs; %R)",
	  .min = 0,
	  .max = 1000,
	  .flags = CT_OPTION_MIN_OPEN },
	CT_WORKLOAD_OPTION(CT_OPTION_STRING, "tree", tree, "DIR",
			   "build this tree (e.g. a kernel) instead of generating", 0, 0, 0),
	CT_WORKLOAD_OPTION(CT_OPTION_STRING, "make-args", make_args, "ARGS",
			   "extra make arguments for --tree, split at spaces", 0, 0, 0),
	CT_OPTION_DONE,
};

const struct ct_workload_ops ct_workload_kbuild = {
	.name = "kbuild",
	.summary = "parallel C build (make -j 4 x CPUs) of a generated or given tree",
	.flags = CT_WL_PROFILED,
	.options = kbuild_options,
	.check = kbuild_check,
	.describe = kbuild_describe,
	.prepare = kbuild_prepare,
	.reset = kbuild_reset,
	.exec = kbuild_exec,
	.cleanup = kbuild_cleanup,
};
