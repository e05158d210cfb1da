/*
 * What contend bisect asks of git, through the git command itself (its
 * plumbing: rev-parse, rev-list, merge-base, worktree), never a library:
 * what the user's git does is what contend sees. Every function takes the
 * repository's directory, returns 0 or -errno and fills err with one line
 * naming the subject; git's own message (its first line) is kept in it.
 */
#ifndef CONTEND_GIT_H
#define CONTEND_GIT_H

#include "contend/common.h"

#define CT_GIT_SHA_LEN 40

/* Runs argv (no shell) in dir with stdin from /dev/null: its standard
 * output in *out (malloc'd, NUL-terminated, the caller frees; out may be
 * NULL), the first line of its standard error in errline. Returns the exit
 * code (128 + the signal when killed), or -errno when it could not run
 * (-ENOENT: no such program). */
int ct_cmd_capture(char *const argv[], const char *dir, char **out, char *errline,
		   size_t errlen) CT_WUR;

/* Runs /bin/sh -c cmd in dir (NULL: here) with stdin from /dev/null, its
 * output appended to log (NULL: ours), name=value in its environment when
 * name is given: its exit code (128 + a signal), or -errno. A user's
 * command (bisect's --build, --next-cmd), never text of contend's own. */
int ct_sh_run(const char *cmd, const char *dir, const char *log, const char *name,
	      const char *value) CT_WUR;

/* The top directory of the work tree that holds dir; -ENOENT when dir is
 * in no git repository. */
int ct_git_toplevel(const char *dir, char *top, size_t len, char *err, size_t errlen) CT_WUR;
/* The full sha of the commit rev names; -ENOENT when it names none. */
int ct_git_resolve(const char *repo, const char *rev, char sha[CT_GIT_SHA_LEN + 1], char *err,
		   size_t errlen) CT_WUR;
/* 1 when commit a is an ancestor of b (or b itself), 0 when not. */
int ct_git_is_ancestor(const char *repo, const char *a, const char *b, char *err,
		       size_t errlen) CT_WUR;
/* 1 when tracked files differ from HEAD (staged or not), 0 when clean. */
int ct_git_dirty(const char *repo, char *err, size_t errlen) CT_WUR;
/* The subject line of a commit. */
int ct_git_subject(const char *repo, const char *sha, char *buf, size_t len, char *err,
		   size_t errlen) CT_WUR;

/* A commit's committer time, in unix ns. */
int ct_git_commit_time(const char *repo, const char *sha, int64_t *ns, char *err,
		       size_t errlen) CT_WUR;

/* The commits of good..bad (reachable from bad, not from good), parents
 * before children, bad last: sha[i], and parents within the range as
 * ct_bisect_new() takes them (np[i] of them for commit i, listed in turn
 * in parents). All malloc'd into the struct; ct_git_range_free() frees. */
struct ct_git_range {
	size_t n;
	char (*sha)[CT_GIT_SHA_LEN + 1];
	size_t *np, *parents;
};
int ct_git_range(const char *repo, const char *good, const char *bad, struct ct_git_range *r,
		 char *err, size_t errlen) CT_WUR;
void ct_git_range_free(struct ct_git_range *r);
/* The index of sha in the range, -1 when it is not there. */
long ct_git_range_find(const struct ct_git_range *r, const char *sha);

/* A work tree of its own at dir, detached at sha (made when missing, else
 * checked out there, its changes thrown away); the user's work tree is
 * never touched. */
int ct_git_worktree_checkout(const char *repo, const char *dir, const char *sha, char *err,
			     size_t errlen) CT_WUR;
/* Removes the work tree at dir (a missing one is no error). */
int ct_git_worktree_remove(const char *repo, const char *dir, char *err, size_t errlen) CT_WUR;

#endif
