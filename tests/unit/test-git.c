/*
 * contend's view of a git repository (src/core/git.c) on a real one made
 * here with merges, checked against git itself: the range's ancestry
 * against git merge-base --is-ancestor for every pair, the bisection's
 * first candidate against git bisect's own choice.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "contend/git.h"
#include "contend/stats.h"
#include "contend/util.h"
#include "shell.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[256], repo[300];

/* good; main 1 2; side a b from 1; merge; 3; bad = 3 */
static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/contend-test-git.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(repo, sizeof(repo), "%s/repo", dir);
	return sh("set -e; export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t "
		  "GIT_COMMITTER_EMAIL=t@t; git init -q -b main '%s'; cd '%s'; "
		  "c() { echo $1 >$1; git add $1; git commit -q -m \"$1\"; }; "
		  "c good; git tag good; c one; c two; git checkout -q -b side HEAD~1; c a; c b; "
		  "git checkout -q main; git merge -q --no-edit -m merge side; c three; "
		  "git tag bad",
		  repo, repo);
}

static int teardown(void **state)
{
	(void)state;
	if (dir[0])
		sh("rm -rf '%s'", dir);
	return 0;
}

static void test_capture(void **state)
{
	char *argv[] = { "sh", "-c", "echo out; echo 'err one' >&2; echo two >&2; exit 3", NULL };
	char *nope[] = { "contend-no-such-program", NULL };
	char *out = NULL, line[64];

	(void)state;
	assert_int_equal(ct_cmd_capture(argv, "/", &out, line, sizeof(line)), 3);
	assert_string_equal(out, "out\n");
	assert_string_equal(line, "err one");
	free(out);
	assert_int_equal(ct_cmd_capture(nope, "/", &out, line, sizeof(line)), -ENOENT);
	free(out);
}

static void test_resolve(void **state)
{
	char sha[CT_GIT_SHA_LEN + 1], top[512], err[CT_ERRLEN], sub[64];

	(void)state;
	assert_int_equal(ct_git_toplevel(repo, top, sizeof(top), err, sizeof(err)), 0);
	assert_string_equal(top, repo);
	assert_int_equal(ct_git_toplevel("/", top, sizeof(top), err, sizeof(err)), -ENOENT);
	assert_int_equal(ct_git_resolve(repo, "bad", sha, err, sizeof(err)), 0);
	assert_int_equal(strlen(sha), CT_GIT_SHA_LEN);
	assert_int_equal(ct_git_subject(repo, sha, sub, sizeof(sub), err, sizeof(err)), 0);
	assert_string_equal(sub, "three");
	assert_int_equal(ct_git_resolve(repo, "nosuchrev", sha, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "'nosuchrev' names no commit"));
	assert_int_equal(ct_git_resolve(repo, "--all", sha, err, sizeof(err)), -ENOENT);
	assert_int_equal(ct_git_is_ancestor(repo, "good", "bad", err, sizeof(err)), 1);
	assert_int_equal(ct_git_is_ancestor(repo, "bad", "good", err, sizeof(err)), 0);
	assert_int_equal(ct_git_dirty(repo, err, sizeof(err)), 0);
	assert_int_equal(sh("echo x >>'%s/good'", repo), 0);
	assert_int_equal(ct_git_dirty(repo, err, sizeof(err)), 1);
	assert_int_equal(sh("git -C '%s' checkout -q -- good", repo), 0);
}

/* The range good..bad: 6 commits (one two a b merge three), parents
 * first, bad last; every pair's ancestry as git's merge-base says. */
static void test_range(void **state)
{
	char good[CT_GIT_SHA_LEN + 1], bad[CT_GIT_SHA_LEN + 1], err[CT_ERRLEN];
	struct ct_git_range r;
	struct ct_bisect *b;

	(void)state;
	assert_int_equal(ct_git_resolve(repo, "good", good, err, sizeof(err)), 0);
	assert_int_equal(ct_git_resolve(repo, "bad", bad, err, sizeof(err)), 0);
	assert_int_equal(ct_git_range(repo, good, bad, &r, err, sizeof(err)), 0);
	assert_int_equal(r.n, 6);
	assert_string_equal(r.sha[r.n - 1], bad);
	assert_int_equal(ct_git_range_find(&r, good), -1);
	assert_int_equal(ct_bisect_new(r.n, r.np, r.parents, 0, &b), 0);
	for (size_t i = 0; i < r.n; i++)
		for (size_t j = 0; j < r.n; j++) {
			int g = ct_git_is_ancestor(repo, r.sha[i], r.sha[j], err, sizeof(err));

			assert_true(g == 0 || g == 1);
			assert_int_equal(ct_bisect_is_ancestor(b, i, j), g);
		}
	/* the first candidate splits the range as well as git bisect's does */
	{
		char *out = NULL, line[CT_ERRLEN], gsha[CT_GIT_SHA_LEN + 1];
		char *argv[] = { "git", "-C", repo, "rev-parse", "BISECT_HEAD", NULL };
		size_t next;
		long gi;

		assert_int_equal(
			sh("git -C '%s' bisect start --no-checkout bad good >/dev/null", repo), 0);
		assert_int_equal(ct_cmd_capture(argv, NULL, &out, line, sizeof(line)), 0);
		snprintf(gsha, sizeof(gsha), "%s", out);
		free(out);
		assert_int_equal(sh("git -C '%s' bisect reset >/dev/null 2>&1", repo), 0);
		gi = ct_git_range_find(&r, gsha);
		assert_true(gi >= 0);
		assert_int_equal(ct_bisect_next(b, &next), 0);
		assert_true(fabs(ct_bisect_bad_prob(b, next) - 0.5) ==
			    fabs(ct_bisect_bad_prob(b, (size_t)gi) - 0.5));
	}
	ct_bisect_free(b);
	ct_git_range_free(&r);
	assert_int_equal(ct_git_range(repo, bad, good, &r, err, sizeof(err)), -EINVAL);
}

static void test_worktree(void **state)
{
	char good[CT_GIT_SHA_LEN + 1], err[CT_ERRLEN], wt[512], f[600], three[600];
	char *argv[] = { "cat", f, NULL };
	char *out = NULL, line[64];

	(void)state;
	snprintf(wt, sizeof(wt), "%s/wt", dir);
	snprintf(f, sizeof(f), "%s/good", wt);
	snprintf(three, sizeof(three), "%s/three", wt);
	assert_int_equal(ct_git_resolve(repo, "good", good, err, sizeof(err)), 0);
	assert_int_equal(ct_git_worktree_checkout(repo, wt, good, err, sizeof(err)), 0);
	assert_int_equal(ct_cmd_capture(argv, NULL, &out, line, sizeof(line)), 0);
	assert_string_equal(out, "good\n");
	free(out);
	assert_int_equal(access(three, F_OK), -1);
	/* a change and a build product in it are thrown away at the next checkout */
	assert_int_equal(sh("echo dirt >>'%s' && touch '%s/built.o'", f, wt), 0);
	assert_int_equal(ct_git_worktree_checkout(repo, wt, "bad", err, sizeof(err)), 0);
	assert_int_equal(ct_cmd_capture(argv, NULL, &out, line, sizeof(line)), 0);
	assert_string_equal(out, "good\n");
	free(out);
	assert_int_equal(access(three, F_OK), 0);
	assert_int_equal(sh("test ! -e '%s/built.o'", wt), 0);
	/* the user's work tree did not move */
	assert_int_equal(ct_git_dirty(repo, err, sizeof(err)), 0);
	assert_int_equal(ct_git_worktree_remove(repo, wt, err, sizeof(err)), 0);
	assert_int_equal(access(wt, F_OK), -1);
	assert_int_equal(ct_git_worktree_remove(repo, wt, err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_range),
		cmocka_unit_test(test_worktree),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
