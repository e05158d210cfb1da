/*
 * contend bisect's view of a git repository, through the git command:
 * the plumbing commands are git's stable interface, and what they answer
 * is what the user's own git would. A command's output is read whole (a
 * range of thousands of commits is a few hundred kB); its standard error's
 * first line becomes the message when it fails.
 */
#include "contend/git.h"
#include "contend/proc.h"
#include "contend/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void child(char *const argv[], const char *dir, pid_t parent, int out, int errfd)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	ct_proc_child_setup(parent);
	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0)
		_exit(127);
	if (dir && chdir(dir))
		_exit(126);
	execvp(argv[0], argv);
	_exit(errno == ENOENT ? 127 : 126);
}

/* Appends what fd has to *buf; 0 at the end, 1 when more may come. */
static int drain(int fd, char **buf, size_t *len, size_t *cap)
{
	char chunk[8192];
	ssize_t k = read(fd, chunk, sizeof(chunk));

	if (k < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : -errno;
	if (k == 0)
		return 0;
	if (*len + (size_t)k + 1 > *cap) {
		size_t ncap = (*cap ? *cap * 2 : 16384) + (size_t)k;
		char *p = realloc(*buf, ncap);

		if (!p)
			return -ENOMEM;
		*buf = p;
		*cap = ncap;
	}
	memcpy(*buf + *len, chunk, (size_t)k);
	*len += (size_t)k;
	(*buf)[*len] = '\0';
	return 1;
}

int ct_sh_run(const char *cmd, const char *dir, const char *log, const char *name,
	      const char *value)
{
	pid_t pid = fork();
	int status = 0, rc, fd;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (dir && chdir(dir))
			_exit(126);
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0)
			dup2(fd, STDIN_FILENO);
		if (log) {
			fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
			if (fd < 0)
				_exit(126);
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		if (name)
			setenv(name, value, 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	rc = ct_proc_reap(pid, &status, NULL);
	if (rc)
		return rc;
	return ct_proc_exit_code(status);
}

int ct_cmd_capture(char *const argv[], const char *dir, char **out, char *errline, size_t errlen)
{
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, status = 0, rc = 0;
	char *ob = NULL, *eb = NULL;
	size_t ol = 0, oc = 0, el = 0, ec = 0;
	bool oo = true, eo = true;
	pid_t parent = getpid(), pid;

	if (out)
		*out = NULL;
	if (errlen)
		errline[0] = '\0';
	if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC)) {
		rc = -errno;
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		goto out;
	}
	if (pid == 0)
		child(argv, dir, parent, po[1], pe[1]);
	close(po[1]);
	close(pe[1]);
	po[1] = pe[1] = -1;
	while ((oo || eo) && rc >= 0) {
		struct pollfd p[2] = { { .fd = oo ? po[0] : -1, .events = POLLIN },
				       { .fd = eo ? pe[0] : -1, .events = POLLIN } };
		int k;

		if (poll(p, 2, -1) < 0) {
			if (errno != EINTR)
				rc = -errno;
			continue;
		}
		if (oo && p[0].revents) {
			k = drain(po[0], &ob, &ol, &oc);
			oo = k > 0;
			rc = k < 0 ? k : rc;
		}
		if (eo && p[1].revents) {
			k = drain(pe[0], &eb, &el, &ec);
			eo = k > 0;
			rc = k < 0 ? k : rc;
		}
	}
	if (rc < 0)
		kill(pid, SIGKILL);
	if (ct_proc_reap(pid, &status, NULL) && rc >= 0)
		rc = -ECHILD;
	if (rc >= 0)
		rc = ct_proc_exit_code(status);
	if (rc == 127 && !el)
		rc = -ENOENT; /* exec found no such program */
	if (eb && errlen) {
		size_t k = strcspn(eb, "\n");

		snprintf(errline, errlen, "%.*s", (int)k, eb);
	}
	if (out) {
		*out = ob;
		ob = NULL;
		if (!*out)
			*out = calloc(1, 1);
		if (!*out && rc >= 0)
			rc = -ENOMEM;
	}
out:
	for (int i = 0; i < 2; i++) {
		if (po[i] >= 0)
			close(po[i]);
		if (pe[i] >= 0)
			close(pe[i]);
	}
	free(ob);
	free(eb);
	return rc;
}

/* git -C repo ARGS...: 0, or the message of a failure in err; exit code
 * in *code when the caller judges it. */
static int git(const char *repo, const char *const *args, char **out, int *code, char *err,
	       size_t errlen)
{
	char *argv[16] = { "git", "-C", (char *)repo };
	char line[CT_ERRLEN];
	size_t n = 3;
	int rc;

	for (size_t i = 0; args[i] && n + 1 < CT_ARRAY_SIZE(argv); i++)
		argv[n++] = (char *)args[i];
	argv[n] = NULL;
	rc = ct_cmd_capture(argv, NULL, out, line, sizeof(line));
	if (rc == -ENOENT)
		return ct_err(err, errlen, rc, "git is not installed (no 'git' in PATH)");
	if (rc < 0)
		return ct_err(err, errlen, rc, "cannot run git in '%s': %s", repo, strerror(-rc));
	if (code) {
		*code = rc;
		if (rc && errlen)
			snprintf(err, errlen, "%s", line);
		return 0;
	}
	if (rc) {
		if (out) {
			free(*out);
			*out = NULL;
		}
		return ct_err(err, errlen, -EIO, "git %s in '%s': %s", args[0], repo,
			      line[0] ? line : "failed");
	}
	return 0;
}

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

int ct_git_toplevel(const char *dir, char *top, size_t len, char *err, size_t errlen)
{
	const char *args[] = { "rev-parse", "--show-toplevel", NULL };
	char *out = NULL;
	int code, rc = git(dir, args, &out, &code, err, errlen);

	if (!rc && code)
		rc = ct_err(err, errlen, -ENOENT, "'%s' is in no git repository", dir);
	if (!rc) {
		chomp(out);
		if (snprintf(top, len, "%s", out) >= (int)len)
			rc = ct_err(err, errlen, -ENAMETOOLONG, "'%s': path too long", out);
	}
	free(out);
	return rc;
}

static bool is_sha(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return n == CT_GIT_SHA_LEN && !s[n];
}

int ct_git_resolve(const char *repo, const char *rev, char sha[CT_GIT_SHA_LEN + 1], char *err,
		   size_t errlen)
{
	char spec[512];
	const char *args[] = { "rev-parse", "--verify", "--quiet", "--end-of-options", spec, NULL };
	char *out = NULL;
	int code, rc;

	if (!*rev || *rev == '-' ||
	    snprintf(spec, sizeof(spec), "%s^{commit}", rev) >= (int)sizeof(spec))
		return ct_err(err, errlen, -ENOENT, "'%s' names no commit in '%s'", rev, repo);
	rc = git(repo, args, &out, &code, err, errlen);
	if (!rc) {
		chomp(out);
		if (code || !is_sha(out))
			rc = ct_err(err, errlen, -ENOENT, "'%s' names no commit in '%s'", rev,
				    repo);
		else
			memcpy(sha, out, CT_GIT_SHA_LEN + 1);
	}
	free(out);
	return rc;
}

int ct_git_is_ancestor(const char *repo, const char *a, const char *b, char *err, size_t errlen)
{
	const char *args[] = { "merge-base", "--is-ancestor", a, b, NULL };
	int code, rc = git(repo, args, NULL, &code, err, errlen);

	if (rc)
		return rc;
	if (code > 1)
		return ct_err(err, errlen, -EIO, "git merge-base in '%s': %s", repo,
			      err[0] ? err : "failed");
	return code == 0;
}

int ct_git_dirty(const char *repo, char *err, size_t errlen)
{
	const char *args[] = { "status", "--porcelain", "--untracked-files=no", NULL };
	char *out = NULL;
	int rc = git(repo, args, &out, NULL, err, errlen);

	if (!rc)
		rc = out[0] != '\0';
	free(out);
	return rc;
}

int ct_git_subject(const char *repo, const char *sha, char *buf, size_t len, char *err,
		   size_t errlen)
{
	const char *args[] = { "log", "-1", "--format=%s", sha, "--", NULL };
	char *out = NULL;
	int rc = git(repo, args, &out, NULL, err, errlen);

	if (!rc) {
		chomp(out);
		snprintf(buf, len, "%s", out);
	}
	free(out);
	return rc;
}

int ct_git_commit_time(const char *repo, const char *sha, int64_t *ns, char *err, size_t errlen)
{
	const char *args[] = { "log", "-1", "--format=%ct", sha, "--", NULL };
	char *out = NULL, *end;
	long long t;
	int rc = git(repo, args, &out, NULL, err, errlen);

	if (!rc) {
		t = strtoll(out, &end, 10);
		if (end == out || (*end && *end != '\n') || t < 0)
			rc = ct_err(err, errlen, -EPROTO, "git gave no commit time for %s", sha);
		else
			*ns = (int64_t)t * 1000000000;
	}
	free(out);
	return rc;
}

void ct_git_range_free(struct ct_git_range *r)
{
	free(r->sha);
	free(r->np);
	free(r->parents);
	memset(r, 0, sizeof(*r));
}

long ct_git_range_find(const struct ct_git_range *r, const char *sha)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->sha[i], sha))
			return (long)i;
	return -1;
}

/* One line of rev-list --parents: the commit, then its parents; the
 * parents outside the range are dropped. */
static int range_line(struct ct_git_range *r, char *line, size_t *k)
{
	char *save = NULL, *tok = strtok_r(line, " ", &save);
	size_t i = r->n;

	if (!tok || !is_sha(tok))
		return -EPROTO;
	memcpy(r->sha[i], tok, CT_GIT_SHA_LEN + 1);
	r->np[i] = 0;
	while ((tok = strtok_r(NULL, " ", &save))) {
		long p = ct_git_range_find(r, tok);

		if (!is_sha(tok))
			return -EPROTO;
		if (p >= 0) {
			r->parents[(*k)++] = (size_t)p;
			r->np[i]++;
		}
	}
	r->n++;
	return 0;
}

int ct_git_range(const char *repo, const char *good, const char *bad, struct ct_git_range *r,
		 char *err, size_t errlen)
{
	char notgood[CT_GIT_SHA_LEN + 2];
	const char *args[] = { "rev-list", "--topo-order", "--reverse", "--parents",
			       bad,	   notgood,	   "--",	NULL };
	char *out = NULL, *line, *save = NULL;
	size_t lines = 0, words = 0, k = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	snprintf(notgood, sizeof(notgood), "^%s", good);
	rc = git(repo, args, &out, NULL, err, errlen);
	if (rc)
		return rc;
	for (const char *p = out; *p; p++) {
		lines += *p == '\n';
		words += *p == ' ';
	}
	r->sha = calloc(lines ? lines : 1, sizeof(*r->sha));
	r->np = calloc(lines ? lines : 1, sizeof(*r->np));
	r->parents = calloc(words ? words : 1, sizeof(*r->parents));
	if (!r->sha || !r->np || !r->parents) {
		rc = ct_err(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (range_line(r, line, &k)) {
			rc = ct_err(err, errlen, -EPROTO, "git rev-list in '%s': cannot read '%s'",
				    repo, line);
			goto out;
		}
	if (!r->n || strcmp(r->sha[r->n - 1], bad))
		rc = ct_err(err, errlen, -EINVAL, "no commits between %.12s and %.12s in '%s'",
			    good, bad, repo);
out:
	free(out);
	if (rc)
		ct_git_range_free(r);
	return rc;
}

int ct_git_worktree_checkout(const char *repo, const char *dir, const char *sha, char *err,
			     size_t errlen)
{
	struct stat st;

	if (stat(dir, &st) == 0) {
		const char *args[] = { "checkout", "--quiet", "--detach", "--force", sha, NULL };
		const char *clean[] = { "clean", "-q", "-f", "-d", "-x", NULL };
		int rc = git(dir, args, NULL, NULL, err, errlen);

		return rc ? rc : git(dir, clean, NULL, NULL, err, errlen);
	}
	{
		const char *args[] = { "worktree", "add", "--quiet", "--detach", dir, sha, NULL };

		return git(repo, args, NULL, NULL, err, errlen);
	}
}

int ct_git_worktree_remove(const char *repo, const char *dir, char *err, size_t errlen)
{
	const char *args[] = { "worktree", "remove", "--force", dir, NULL };
	const char *prune[] = { "worktree", "prune", NULL };
	struct stat st;

	if (stat(dir, &st) != 0)
		return git(repo, prune, NULL, NULL, err, errlen);
	return git(repo, args, NULL, NULL, err, errlen);
}
