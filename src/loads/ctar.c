/*
 * contest's ctar_load: creates a tar archive of a source tree over and
 * over, a mix of directory walks, small-file reads and one sequential
 * write. Runs the real tar (fork/exec, never a shell) so the I/O pattern is
 * the one users know. Also holds the tar helpers xtar shares.
 */
#include "internal.h"
#include "loads.h"
#include "contend/util.h"
#include "contend/tartree.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct ctar_priv {
	char tree[PATH_MAX];
};

/* 0 when --tar-tree names a directory, else -errno with the reason. */
static int tree_dir_ok(const char *load, const char *dir, char *why, size_t len)
{
	struct stat st;

	if (stat(dir, &st))
		return ct_err(why, len, -errno, "%s: cannot read tree '%s': %s", load, dir,
			      strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return ct_err(why, len, -ENOTDIR, "%s: tree '%s' is not a directory", load, dir);
	return 0;
}

int ct_tar_supported(const struct ct_env *env, const char *load, char *why, size_t len)
{
	const char *path = getenv("PATH"), *p, *end;
	char cand[PATH_MAX];
	int rc;

	/* a mistyped --tar-tree is a usage error, found before anything runs */
	if (env->tree_dir && *env->tree_dir) {
		rc = tree_dir_ok(load, env->tree_dir, why, len);
		if (rc)
			return rc;
	}
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; *p; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		if (end > p &&
		    snprintf(cand, sizeof(cand), "%.*s/tar", (int)(end - p), p) <
			    (int)sizeof(cand) &&
		    !access(cand, X_OK))
			return 0;
	}
	return ct_err(why, len, -ENOTSUP, "%s needs tar in PATH", load);
}

static _Thread_local uint64_t walk_bytes;
static _Thread_local unsigned walk_files;

static int walk_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	if (type == FTW_F && S_ISREG(st->st_mode)) {
		walk_bytes += (uint64_t)st->st_size;
		walk_files++;
	}
	return 0;
}

int ct_tar_tree(struct ct_load *l, char *tree, size_t tlen, bool *generated, unsigned *nfiles,
		uint64_t *bytes, char *err, size_t len)
{
	const struct ct_env *env = l->env;
	const char *name = l->ops->name;
	int rc;

	*generated = false;
	if (env->tree_dir && *env->tree_dir) {
		rc = tree_dir_ok(name, env->tree_dir, err, len);
		if (rc)
			return rc;
		if ((size_t)snprintf(tree, tlen, "%s", env->tree_dir) >= tlen)
			return ct_err(err, len, -ENAMETOOLONG, "%s: path '%s' is too long", name,
				      env->tree_dir);
	} else {
		uint64_t avail, want;
		unsigned files;
		char a[32], b[32];

		if ((size_t)snprintf(tree, tlen, "%s/tree", l->dir) >= tlen)
			return ct_err(err, len, -ENAMETOOLONG, "%s: path '%s' is too long", name,
				      l->dir);
		rc = ct_fs_free(l->dir, &avail);
		if (rc)
			return ct_err(err, len, rc, "%s: cannot check free space in '%s': %s", name,
				      l->dir, strerror(-rc));
		if (ct_tartree_size(env->quick, avail, &files, &want))
			return ct_err(
				err, len, -ENOSPC,
				"%s: only %s free in '%s', too little for a tar tree (needs %s)",
				name, ct_fmt_size(avail, a, sizeof(a)), l->dir,
				ct_fmt_size(CT_TARTREE_FREE_DIV * CT_TARTREE_MIN_BYTES, b,
					    sizeof(b)));
		rc = ct_tartree_generate(tree, files, want, err, len);
		if (rc) {
			char why[CT_ERRLEN];

			snprintf(why, sizeof(why), "%s", err ? err : "");
			ct_err(err, len, rc, "%s: cannot generate a tar tree: %s", name, why);
			(void)ct_rm_rf(tree);
			return rc;
		}
		*generated = true;
	}
	walk_bytes = 0;
	walk_files = 0;
	if (nftw(tree, walk_entry, 32, FTW_PHYS | FTW_MOUNT)) {
		rc = -errno;
		if (*generated)
			(void)ct_rm_rf(tree);
		return ct_err(err, len, rc, "%s: cannot read tree '%s': %s", name, tree,
			      strerror(-rc));
	}
	*bytes = walk_bytes;
	*nfiles = walk_files;
	return 0;
}

/* First line of tar's stderr, for the error message. */
static void first_line(const char *log, char *buf, size_t len)
{
	char *nl;

	if (ct_read_file(log, buf, len) <= 0) {
		buf[0] = '\0';
		return;
	}
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
}

/* Bytes tar has written so far (its wchar in /proc/PID/io); 0 when that
 * cannot be read. */
static uint64_t tar_written(pid_t pid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/io", (int)pid);
	if (ct_read_file(path, buf, sizeof(buf)) <= 0 || !(p = strstr(buf, "wchar: ")))
		return 0;
	return strtoull(p + 7, NULL, 10);
}

/* Waits for tar; with a load, adds what it writes to the load's work as
 * it goes (every 50 ms at most, and once more at its exit), so a tar of a
 * large tree shows progress long before it ends. 0 or -errno. */
static int tar_wait(pid_t pid, struct ct_load *l, int *status)
{
	uint64_t done = 0, w;
	useconds_t nap = 1000;
	siginfo_t si;

	for (;;) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, pid, &si, WEXITED | WNOWAIT | (l ? WNOHANG : 0))) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (l) { /* a zombie's counters still read */
			w = tar_written(pid);
			if (w > done) {
				ct_load_add(l, w - done);
				done = w;
			}
		}
		if (si.si_pid == pid)
			break;
		/* 1 ms first, so a small tree's tar is not held up, then up to 50 */
		usleep(nap);
		if (nap < 50 * 1000)
			nap *= 2;
	}
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

int ct_tar_run(const char *load, char *const argv[], const char *log, struct ct_load *l, char *err,
	       size_t len)
{
	pid_t parent = getpid(), pid;
	char line[160];
	sigset_t all, old;
	int status, fd, sig;

	/* no handler of the caller's may run in the child before exec */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	pid = fork();
	fd = errno;
	if (pid != 0)
		sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0)
		return ct_err(err, len, -fd, "%s: cannot fork tar: %s", load, strerror(fd));
	if (pid == 0) {
		for (sig = 1; sig < NSIG; sig++)
			if (sig != SIGKILL && sig != SIGSTOP)
				signal(sig, SIG_DFL);
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			if (fd > 2)
				close(fd);
		}
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd >= 0)
			dup2(fd, 2);
		execvp(argv[0], argv);
		dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	sig = tar_wait(pid, l, &status);
	if (sig)
		return ct_err(err, len, sig, "%s: cannot wait for tar: %s", load, strerror(-sig));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	first_line(log, line, sizeof(line));
	if (WIFSIGNALED(status))
		return ct_err(err, len, -EIO, "%s: tar was killed by signal %d%s%s", load,
			      WTERMSIG(status), line[0] ? ": " : "", line);
	return ct_err(err, len, -EIO, "%s: tar exited with status %d%s%s", load,
		      WEXITSTATUS(status), line[0] ? ": " : "", line);
}

static int ctar_prepare(struct ct_load *l, char *err, size_t len)
{
	struct ctar_priv *p;
	uint64_t bytes, avail, need;
	unsigned nfiles;
	bool generated;
	char a[32], b[32];
	int rc;

	p = calloc(1, sizeof(*p));
	if (!p)
		return ct_err(err, len, -ENOMEM, "ctar: out of memory");
	rc = ct_tar_tree(l, p->tree, sizeof(p->tree), &generated, &nfiles, &bytes, err, len);
	if (rc)
		goto fail;
	/* an archive is the data plus a header block or two per file */
	need = bytes + (uint64_t)nfiles * 1024 + (16ull << 20);
	rc = ct_fs_free(l->dir, &avail);
	if (!rc && avail < need) {
		rc = ct_err(err, len, -ENOSPC, "ctar: only %s free in '%s' for a %s archive",
			    ct_fmt_size(avail, a, sizeof(a)), l->dir,
			    ct_fmt_size(need, b, sizeof(b)));
		goto fail;
	}
	l->priv = p;
	l->nworkers = 1;
	/* tar first truncates the last run's archive, whose freed blocks are
	 * discarded on a disk mounted with discard */
	l->slow_start = true;
	l->size = bytes;
	if (generated)
		ct_load_param(l, "tree=generated");
	else
		ct_load_param(l, "tree=%s", p->tree);
	ct_load_param(l, "files=%u size=%s", nfiles, ct_load_size_str(bytes, a, sizeof(a)));
	return 0;
fail:
	free(p);
	return rc;
}

static int ctar_work(struct ct_load *l, unsigned i)
{
	const struct ctar_priv *p = l->priv;
	char archive[PATH_MAX + 32], log[PATH_MAX + 32], msg[CT_ERRLEN];
	char *argv[] = { "tar", "-cf", archive, "-C", (char *)p->tree, ".", NULL };

	snprintf(archive, sizeof(archive), "%s/ctar-%u.tar", l->dir, i);
	snprintf(log, sizeof(log), "%s/ctar-%u.log", l->dir, i);
	for (;;) {
		if (ct_tar_run("ctar", argv, log, l, msg, sizeof(msg)))
			return ct_load_fail(l, "%s", msg);
	}
}

static int ctar_supported(const struct ct_env *env, char *why, size_t len)
{
	return ct_tar_supported(env, "ctar", why, len);
}

static void ctar_cleanup(struct ct_load *l)
{
	free(l->priv);
	l->priv = NULL;
}

static const struct ct_option ctar_options[] = {
	CT_LOAD_TAR_TREE_OPTION,
	CT_OPTION_DONE,
};

const struct ct_load_ops ct_load_ctar = {
	.name = "ctar",
	.summary = "creates a tar archive of a source tree, over and over",
	.flags = CT_LOAD_PROFILED,
	.options = ctar_options,
	.work_unit = "MB archived",
	.unit_scale = 1e6,
	.supported = ctar_supported,
	.prepare = ctar_prepare,
	.work = ctar_work,
	.cleanup = ctar_cleanup,
};
