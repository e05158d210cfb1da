/*
 * io on another disk: the same writer as io, aimed at --other-dir, to show
 * how writeback to one device disturbs a foreground working on another
 * (contest's io_other). Shares everything with io.c but the target.
 */
#include "internal.h"
#include "loads.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int io_other_supported(const struct ct_env *env, char *why, size_t len)
{
	if (!env->other_dir || !*env->other_dir)
		/* the user's to give: an input error, not the machine's */
		return ct_err(
			why, len, -EINVAL,
			"load 'io_other' needs --other-dir DIR (a directory on another disk)");
	return 0;
}

static int io_other_check(const struct ct_env *env, const char *dir, char *err, size_t len)
{
	struct stat st;

	if (stat(env->other_dir, &st))
		return ct_err(err, len, -errno, "io_other: cannot use '%s': %s", env->other_dir,
			      strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return ct_err(err, len, -ENOTDIR, "io_other: '%s' is not a directory",
			      env->other_dir);
	return ct_io_check_in(env, "io_other", env->other_dir, err, len);
}

static int io_other_prepare(struct ct_load *l, char *err, size_t len)
{
	const char *dir = l->env->other_dir;
	struct stat st, here;
	char name[64];
	int rc;

	if (stat(dir, &st))
		return ct_err(err, len, -errno, "io_other: cannot use '%s': %s", dir,
			      strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return ct_err(err, len, -ENOTDIR, "io_other: '%s' is not a directory", dir);
	snprintf(name, sizeof(name), "contend-io_other-%d.dat", (int)getpid());
	rc = ct_io_prepare_in(l, dir, name, err, len);
	if (rc)
		return rc;
	ct_io_ready_after_warm(l);
	/* the point of io_other is a second device; results must show if not */
	if (!stat(l->env->dir, &here) && here.st_dev == st.st_dev)
		ct_load_param(l, "same_fs=yes");
	return 0;
}

static const struct ct_option io_other_options[] = {
	CT_ENV_OPTION(CT_OPTION_STRING, "other-dir", other_dir, "DIR",
		      "the directory io_other writes in (another disk)", 0, 0, 0),
	CT_LOAD_FILE_SIZE_OPTION,
	CT_OPTION_DONE,
};

const struct ct_load_ops ct_load_io_other = {
	.name = "io_other",
	.summary = "io's writer on another filesystem (--other-dir)",
	.flags = CT_LOAD_PROFILED,
	.options = io_other_options,
	.work_unit = "MB written",
	.unit_scale = 1e6,
	.supported = io_other_supported,
	.check = io_other_check,
	.prepare = io_other_prepare,
	.work = ct_io_work,
	.cleanup = ct_io_cleanup,
};
