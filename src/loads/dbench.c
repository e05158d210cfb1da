/*
 * A dbench-like file-server mix: 2 x ncpus clients, each in its own
 * directory, creating, writing, reading back, stat-ing, fsync-ing now and
 * then and deleting small files. Many small synchronous-ish metadata and
 * data operations: the journal and the I/O scheduler's small-request path.
 */
#include "internal.h"
#include "loads.h"
#include "contend/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILE_SIZE   (64u << 10)
#define PIECE	    (4u << 10)
#define KEEP	    20 /* files each client keeps */
#define FSYNC_EVERY 4  /* files between fsyncs */

static int dbench_prepare(struct ct_load *l, char *err, size_t len)
{
	unsigned n = l->env->dbench_procs ? l->env->dbench_procs
					  : 2 * (l->env->ncpus ? l->env->ncpus : 1);
	uint64_t avail, need = (uint64_t)n * (KEEP + 1) * FILE_SIZE + (16ull << 20);
	char a[32], b[32];
	int rc;

	rc = ct_fs_free(l->dir, &avail);
	if (rc)
		return ct_err(err, len, rc, "dbench: cannot check free space in '%s': %s", l->dir,
			      strerror(-rc));
	if (avail < need)
		return ct_err(err, len, -ENOSPC, "dbench: only %s free in '%s' for %u clients (%s)",
			      ct_fmt_size(avail, a, sizeof(a)), l->dir, n,
			      ct_fmt_size(need, b, sizeof(b)));
	l->nworkers = n;
	l->size = n;
	snprintf(l->params, sizeof(l->params), "clients=%u", n);
	return 0;
}

static int dbench_work(struct ct_load *l, unsigned i)
{
	char dir[PATH_MAX + 32], path[PATH_MAX + 64];
	unsigned char buf[PIECE], back[PIECE];
	uint64_t seed = 0x0db0000ULL + i, seq, ops;
	const char *what;
	struct stat st;
	ssize_t n;
	int fd = -1, rc;

	snprintf(dir, sizeof(dir), "%s/client-%u", l->dir, i);
	rc = ct_rm_rf(dir);
	if (rc || mkdir(dir, 0755))
		return ct_load_fail(l, "dbench: cannot create '%s': %s", dir,
				    strerror(rc ? -rc : errno));
	ct_fill_random(buf, sizeof(buf), &seed);
	for (seq = 0;; seq++) {
		ops = 0;
		snprintf(path, sizeof(path), "%s/f%llu", dir, (unsigned long long)seq);
		what = "create";
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0)
			goto fail;
		ops++;
		what = "write";
		for (unsigned off = 0; off < FILE_SIZE; off += PIECE, ops++) {
			memcpy(buf, &seq, sizeof(seq));
			rc = ct_load_pwrite_full(fd, buf, PIECE, -1);
			if (rc) {
				errno = -rc;
				goto fail;
			}
		}
		what = "fsync";
		if (seq % FSYNC_EVERY == 0) {
			if (fsync(fd))
				goto fail;
			ops++;
		}
		close(fd);
		ops++;
		what = "open";
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			goto fail;
		ops++;
		what = "read";
		for (unsigned off = 0; off < FILE_SIZE; off += PIECE, ops++) {
			do
				n = read(fd, back, PIECE);
			while (n < 0 && errno == EINTR);
			if (n < 0)
				goto fail;
			if (n != PIECE) {
				errno = EIO; /* someone truncated our file */
				goto fail;
			}
		}
		close(fd);
		fd = -1;
		ops++;
		what = "stat";
		if (stat(path, &st))
			goto fail;
		ops++;
		if (seq >= KEEP) {
			snprintf(path, sizeof(path), "%s/f%llu", dir,
				 (unsigned long long)(seq - KEEP));
			what = "unlink";
			if (unlink(path))
				goto fail;
			ops++;
		}
		ct_load_add(l, ops);
	}
fail:
	rc = errno;
	if (fd >= 0)
		close(fd);
	return ct_load_fail(l, "dbench: cannot %s '%s': %s", what, path, strerror(rc));
}

static const struct ct_option dbench_options[] = {
	CT_ENV_OPTION(CT_OPTION_UINT, "dbench-procs", dbench_procs, "N",
		      "dbench load clients (default 2 x CPUs; %R)", 1, 1024, 0),
	CT_OPTION_DONE,
};

const struct ct_load_ops ct_load_dbench = {
	.name = "dbench",
	.summary = "2 x ncpus clients creating, writing, reading, syncing and deleting small files",
	.flags = CT_LOAD_DEFAULT,
	.options = dbench_options,
	.work_unit = "operations",
	.unit_scale = 1,
	.prepare = dbench_prepare,
	.work = dbench_work,
};
