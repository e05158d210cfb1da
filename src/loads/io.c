/*
 * contest's io_load: dd rewriting a file the size of RAM, over and over.
 * Sequential buffered 1 MiB writes of incompressible data, no fsync, so the
 * kernel's writeback and dirty throttling decide how the foreground fares.
 * The file is written by the load itself; prepare only sizes it.
 */
#include "internal.h"
#include "loads.h"
#include "contend/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int ct_io_file_size(const struct ct_load *l, const char *dir, uint64_t *out, char *err, size_t len)
{
	const struct ct_env *env = l->env;
	const char *name = l->ops->name;
	uint64_t avail, size;
	char a[32], b[32];
	int rc;

	rc = ct_fs_free(dir, &avail);
	if (rc)
		return ct_err(err, len, rc, "%s: cannot check free space in '%s': %s", name, dir,
			      strerror(-rc));
	if (env->file_size) {
		size = env->file_size;
		if (size > avail)
			return ct_err(err, len, -ENOSPC,
				      "%s: only %s free in '%s' for a %s load file", name,
				      ct_fmt_size(avail, a, sizeof(a)), dir,
				      ct_fmt_size(size, b, sizeof(b)));
	} else {
		size = env->ram_bytes;
		if (!size)
			size = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
		if (env->quick) {
			size /= 8;
			if (size > (1ull << 30))
				size = 1ull << 30;
		}
		/* a derived size never takes more than half the free space, so a
		 * load file cannot fill the disk under the foreground */
		if (size > avail / 2)
			size = avail / 2;
		size -= size % CT_IO_BLOCK;
		if (size < CT_IO_MIN_SIZE)
			return ct_err(
				err, len, -ENOSPC,
				"%s: only %s free in '%s', too little for a load file (needs %s)",
				name, ct_fmt_size(avail, a, sizeof(a)), dir,
				ct_fmt_size(2 * CT_IO_MIN_SIZE, b, sizeof(b)));
	}
	*out = size;
	return 0;
}

/*
 * The file is allocated up front (blocks reserved, nothing written), as fio
 * does by default: the load then measures rewriting a file, not the
 * filesystem's block allocator, and a disk without room fails here rather
 * than in the middle of a run. Filesystems without fallocate are left to
 * allocate as the load writes.
 */
static int preallocate(struct ct_load *l, const struct ct_io_file *f, char *err, size_t len)
{
	int fd = open(f->path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644), rc = 0;

	if (fd < 0)
		return ct_err(err, len, -errno, "%s: cannot create '%s': %s", l->ops->name, f->path,
			      strerror(errno));
	if (fallocate(fd, 0, 0, (off_t)f->size) && errno != EOPNOTSUPP && errno != ENOSYS)
		rc = ct_err(err, len, -errno, "%s: cannot allocate %s for '%s': %s", l->ops->name,
			    "the load file", f->path, strerror(errno));
	close(fd);
	if (rc)
		unlink(f->path);
	return rc;
}

int ct_io_prepare_in(struct ct_load *l, const char *dir, const char *name, char *err, size_t len)
{
	struct ct_io_file *f;
	char sz[32];
	int rc;

	f = calloc(1, sizeof(*f));
	if (!f)
		return ct_err(err, len, -ENOMEM, "%s: out of memory", l->ops->name);
	if ((size_t)snprintf(f->path, sizeof(f->path), "%s/%s", dir, name) >= sizeof(f->path)) {
		rc = ct_err(err, len, -ENAMETOOLONG, "%s: path '%s' is too long", l->ops->name,
			    dir);
		goto fail;
	}
	rc = ct_io_file_size(l, dir, &f->size, err, len);
	if (rc)
		goto fail;
	rc = preallocate(l, f, err, len);
	if (rc)
		goto fail;
	l->priv = f;
	l->size = f->size;
	l->nworkers = 1;
	ct_load_param(l, "file=%s", ct_load_size_str(f->size, sz, sizeof(sz)));
	/* a tmpfs file is written to RAM, not a disk: say so with the results */
	if (ct_fs_is_tmpfs(dir))
		ct_load_param(l, "fs=tmpfs");
	return 0;
fail:
	free(f);
	return rc;
}

int ct_io_work(struct ct_load *l, unsigned i)
{
	const struct ct_io_file *f = l->priv;
	uint64_t pos = atomic_load(&l->shm->resume) % (f->size ? f->size : 1),
		 seed = (uint64_t)getpid() * 0x9e3779b97f4a7c15ULL ^ (uint64_t)ct_now_ns();
	uint64_t block = 0;
	unsigned char *buf;
	size_t n;
	int fd, rc;

	fd = open(f->path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return ct_load_fail(l, "%s: cannot open '%s': %s", l->ops->name, f->path,
				    strerror(errno));
	buf = aligned_alloc(4096, CT_IO_BLOCK);
	if (!buf)
		return ct_load_fail(l, "%s: out of memory", l->ops->name);
	ct_fill_random(buf, CT_IO_BLOCK, &seed);
	for (;;) {
		n = f->size - pos < CT_IO_BLOCK ? (size_t)(f->size - pos) : CT_IO_BLOCK;
		/* no two blocks alike, so neither compression nor dedup helps */
		block++;
		if (n >= sizeof(block))
			memcpy(buf, &block, sizeof(block));
		rc = ct_load_pwrite_full(fd, buf, n, (off_t)pos);
		if (rc)
			return ct_load_fail(l, "%s: cannot write '%s': %s", l->ops->name, f->path,
					    strerror(-rc));
		ct_load_add(l, n);
		pos += n;
		if (pos >= f->size)
			pos = 0;
		/* the next run goes on where this one stopped, so every run meets
		 * the same file state rather than run 1 alone filling it */
		atomic_store(&l->shm->resume, pos);
	}
}

void ct_io_cleanup(struct ct_load *l)
{
	struct ct_io_file *f = l->priv;

	if (!f)
		return;
	if (!l->env->keep_files)
		unlink(f->path);
	free(f);
	l->priv = NULL;
}

static int io_prepare(struct ct_load *l, char *err, size_t len)
{
	return ct_io_prepare_in(l, l->dir, "io.dat", err, len);
}

const struct ct_load_ops ct_load_io = {
	.name = "io",
	.summary = "rewrites a file the size of RAM with 1 MiB buffered writes (contest's dd)",
	.work_unit = "MB written",
	.unit_scale = 1e6,
	.prepare = io_prepare,
	.work = ct_io_work,
	.cleanup = ct_io_cleanup,
};
