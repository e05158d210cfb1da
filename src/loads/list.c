/*
 * contest's list_load: a recursive listing (lstat of every entry) of a
 * directory tree, over and over. Once the tree is in the dentry and inode
 * caches it is pure kernel CPU on VFS paths and locks; before that, seeks.
 * Stays on one filesystem and never follows symlinks.
 */
#include "loads.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define DEFAULT_DIR "/usr"
#define BATCH	    64 /* entries between updates of the shared counter */

/* nftw() has no user pointer; each worker is its own process, so a static
 * is private to it */
static struct ct_load *walking;
static unsigned pending;

static const char *list_root(const struct ct_load *l)
{
	return l->env->list_dir && *l->env->list_dir ? l->env->list_dir : DEFAULT_DIR;
}

/* Checked before a session starts, so a mistyped --list-dir is a usage
 * error rather than a session that fails half-way. */
static int list_supported(const struct ct_env *env, char *why, size_t len)
{
	const char *root = env->list_dir && *env->list_dir ? env->list_dir : DEFAULT_DIR;
	struct stat st;

	if (stat(root, &st))
		return ct_err(why, len, -errno, "list: cannot list '%s': %s", root,
			      strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return ct_err(why, len, -ENOTDIR, "list: '%s' is not a directory", root);
	return 0;
}

static int list_prepare(struct ct_load *l, char *err, size_t len)
{
	const char *root = list_root(l);
	int rc = list_supported(l->env, err, len);

	if (rc)
		return rc;
	l->nworkers = 1;
	snprintf(l->params, sizeof(l->params), "dir=%s", root);
	return 0;
}

static int list_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	if (++pending == BATCH) {
		ct_load_add(walking, pending);
		pending = 0;
	}
	return 0;
}

static int list_work(struct ct_load *l, unsigned i)
{
	const char *root = list_root(l);

	walking = l;
	for (;;) {
		/* unreadable subdirectories are reported to list_entry and skipped */
		if (nftw(root, list_entry, 64, FTW_PHYS | FTW_MOUNT))
			return ct_load_fail(l, "list: cannot list '%s': %s", root, strerror(errno));
		ct_load_add(l, pending);
		pending = 0;
	}
}

static const struct ct_option list_options[] = {
	{ .type = CT_OPTION_STRING,
	  .name = "list-dir",
	  .in = CT_OPTION_IN_ENV,
	  .off = offsetof(struct ct_env, list_dir),
	  .argh = "DIR",
	  .help = "the tree list walks (%D)",
	  .def = "/usr" },
	CT_OPTION_DONE,
};

const struct ct_load_ops ct_load_list = {
	.name = "list",
	.summary = "lists a directory tree (default /usr) with lstat, over and over",
	.flags = CT_LOAD_DEFAULT,
	.options = list_options,
	.work_unit = "entries listed",
	.unit_scale = 1,
	.supported = list_supported,
	.prepare = list_prepare,
	.work = list_work,
};
