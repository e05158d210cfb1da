/*
 * contest's xtar_load: extracts a tar archive of a source tree over and
 * over, removing the previous copy first: file creation, small writes,
 * metadata and unlink traffic. The archive is made once, untimed, in
 * prepare; the extraction is the real tar.
 */
#include "internal.h"
#include "loads.h"
#include "contend/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct xtar_priv {
	char archive[PATH_MAX];
};

static int xtar_supported(const struct ct_env *env, char *why, size_t len)
{
	return ct_tar_supported(env, "xtar", why, len);
}

static int xtar_prepare(struct ct_load *l, char *err, size_t len)
{
	char tree[PATH_MAX], log[PATH_MAX + 16], a[32], b[32];
	char *argv[] = { "tar", "-cf", NULL, "-C", tree, ".", NULL };
	struct xtar_priv *p;
	uint64_t bytes, avail, need;
	unsigned nfiles;
	bool generated;
	struct stat st;
	int rc;

	p = calloc(1, sizeof(*p));
	if (!p)
		return ct_err(err, len, -ENOMEM, "xtar: out of memory");
	if ((size_t)snprintf(p->archive, sizeof(p->archive), "%s/xtar.tar", l->dir) >=
	    sizeof(p->archive)) {
		free(p);
		return ct_err(err, len, -ENAMETOOLONG, "xtar: path '%s' is too long", l->dir);
	}
	snprintf(log, sizeof(log), "%s/xtar.log", l->dir);
	argv[2] = p->archive;
	rc = ct_tar_tree(l, tree, sizeof(tree), &generated, &nfiles, &bytes, err, len);
	if (rc)
		goto fail;
	/* the archive, and one extracted copy of it */
	need = 2 * (bytes + (uint64_t)nfiles * 1024) + (16ull << 20);
	rc = ct_fs_free(l->dir, &avail);
	if (!rc && avail < need) {
		rc = ct_err(err, len, -ENOSPC,
			    "xtar: only %s free in '%s' for an archive and its extraction (%s)",
			    ct_fmt_size(avail, a, sizeof(a)), l->dir,
			    ct_fmt_size(need, b, sizeof(b)));
		goto fail_tree;
	}
	rc = ct_tar_run("xtar", argv, log, NULL, err, len);
	if (rc)
		goto fail_tree;
	if (generated)
		(void)ct_rm_rf(tree); /* only the archive is needed from now on */
	l->priv = p;
	l->nworkers = 1;
	/* each run first removes the last run's tree, up to 70,000 files: one
	 * full-profile run took over 13 s for it behind the other loads' I/O */
	l->slow_start = true;
	l->size = stat(p->archive, &st) ? 0 : (uint64_t)st.st_size;
	if (!generated)
		ct_load_param(l, "tree=%s", tree);
	else
		ct_load_param(l, "tree=generated");
	ct_load_param(l, "files=%u archive=%s", nfiles, ct_load_size_str(l->size, a, sizeof(a)));
	return 0;
fail_tree:
	if (generated)
		(void)ct_rm_rf(tree);
	unlink(p->archive);
fail:
	free(p);
	return rc;
}

static int xtar_work(struct ct_load *l, unsigned i)
{
	const struct xtar_priv *p = l->priv;
	char dir[PATH_MAX + 32], log[PATH_MAX + 32], msg[CT_ERRLEN];
	char *argv[] = { "tar", "-xf", (char *)p->archive, "-C", dir, NULL };
	int rc;

	snprintf(dir, sizeof(dir), "%s/x-%u", l->dir, i);
	snprintf(log, sizeof(log), "%s/x-%u.log", l->dir, i);
	for (;;) {
		rc = ct_rm_rf(dir);
		if (rc)
			return ct_load_fail(l, "xtar: cannot remove '%s': %s", dir, strerror(-rc));
		if (mkdir(dir, 0755))
			return ct_load_fail(l, "xtar: cannot create '%s': %s", dir,
					    strerror(errno));
		if (ct_tar_run("xtar", argv, log, l, msg, sizeof(msg)))
			return ct_load_fail(l, "%s", msg);
	}
}

static void xtar_cleanup(struct ct_load *l)
{
	free(l->priv);
	l->priv = NULL;
}

static const struct ct_option xtar_options[] = {
	CT_LOAD_TAR_TREE_OPTION,
	CT_OPTION_DONE,
};

const struct ct_load_ops ct_load_xtar = {
	.name = "xtar",
	.summary = "extracts a tar archive of a source tree, over and over",
	.flags = CT_LOAD_PROFILED,
	.options = xtar_options,
	.work_unit = "MB extracted",
	.unit_scale = 1e6,
	.supported = xtar_supported,
	.prepare = xtar_prepare,
	.work = xtar_work,
	.cleanup = xtar_cleanup,
};
