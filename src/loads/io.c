/*
 * contest's io_load: dd rewriting a file the size of RAM, over and over.
 * Sequential buffered 1 MiB writes of incompressible data, no fsync, so the
 * kernel's writeback and dirty throttling decide how the foreground fares.
 * prepare writes the file once in full (io_fill), so every run rewrites
 * a written file, as contest's second and later passes did. Every run
 * first reads the file into the page cache (io_warm) and starts writing
 * from offset 0, so it meets the same state whatever ran before it.
 */
#include "internal.h"
#include "loads.h"
#include "contend/signals.h"
#include "contend/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* env->file_size, or RAM (quick: min(RAM/8, 1 GiB)) capped at half the
 * free space in dir; -ENOSPC when it cannot fit. */
static int io_file_size(const struct ct_env *env, const char *name, const char *dir, uint64_t *out,
			char *err, size_t len)
{
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
 * Writes the whole load file once, untimed, with the same incompressible
 * blocks the loads write, then flushes it. A file that has only been
 * fallocate()d is not what "rewrite a file" means: its extents are unwritten,
 * so the first pass over it costs the writer block conversion and fresh
 * page-cache pages (about 450 MB/s per CPU second here) while later passes
 * rewrite written, cached blocks several times faster. Runs that landed in
 * the first pass saw a far weaker load than runs after it; written in full
 * here, every run meets the steady state. A disk without room fails here,
 * before any run.
 */
static int io_fill(struct ct_load *l, const struct ct_io_file *f, char *err, size_t len)
{
	const char *name = l->ops->name;
	uint64_t pos, seed = 0x5eed5eedULL;
	unsigned char *buf;
	size_t n;
	int fd, rc = 0;

	buf = aligned_alloc(4096, CT_IO_BLOCK);
	if (!buf)
		return ct_err(err, len, -ENOMEM, "%s: out of memory", name);
	ct_fill_random(buf, CT_IO_BLOCK, &seed);
	fd = open(f->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = ct_err(err, len, -errno, "%s: cannot create '%s': %s", name, f->path,
			    strerror(errno));
		free(buf);
		return rc;
	}
	/* reserve the blocks first where the filesystem can, so a file that
	 * cannot fit fails at once rather than after minutes of writing */
	if (fallocate(fd, 0, 0, (off_t)f->size) && errno != EOPNOTSUPP && errno != ENOSYS) {
		rc = ct_err(err, len, -errno, "%s: cannot allocate %s for '%s': %s", name,
			    "the load file", f->path, strerror(errno));
		goto out;
	}
	for (pos = 0; pos < f->size; pos += n) {
		if (ct_signals_pending()) {
			rc = ct_err(err, len, -EINTR, "%s: interrupted while writing '%s'", name,
				    f->path);
			goto out;
		}
		n = f->size - pos < CT_IO_BLOCK ? (size_t)(f->size - pos) : CT_IO_BLOCK;
		if (n >= sizeof(pos))
			memcpy(buf, &pos, sizeof(pos)); /* no two blocks alike */
		rc = ct_load_pwrite_full(fd, buf, n, (off_t)pos);
		if (rc) {
			ct_err(err, len, rc, "%s: cannot write '%s': %s", name, f->path,
			       strerror(-rc));
			goto out;
		}
	}
	if (fsync(fd))
		rc = ct_err(err, len, -errno, "%s: cannot write '%s': %s", name, f->path,
			    strerror(errno));
out:
	close(fd);
	free(buf);
	if (rc)
		unlink(f->path);
	return rc;
}

int ct_io_check_in(const struct ct_env *env, const char *load, const char *dir, char *err,
		   size_t len)
{
	uint64_t size;

	return io_file_size(env, load, dir, &size, err, len);
}

static int io_check(const struct ct_env *env, const char *dir, char *err, size_t len)
{
	return ct_io_check_in(env, "io", dir, err, len);
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
	rc = io_file_size(l->env, l->ops->name, dir, &f->size, err, len);
	if (rc)
		goto fail;
	rc = io_fill(l, f, err, len);
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

/* Reads the file into the page cache from its end to its start, so it
 * holds as much of the file as fits, its beginning most recently used:
 * whatever ran before, every run's writer meets the same cache. The
 * segments go last to first, each read forwards so readahead works (1 MiB
 * reads backwards took twice as long on a cold 8 GiB file). */
static int io_warm(int fd, const struct ct_io_file *f, unsigned char *buf)
{
	const uint64_t seg = 64ull << 20;
	uint64_t end = f->size;

	while (end > 0) {
		uint64_t start = end > seg ? end - seg : 0, pos = start;

		while (pos < end) {
			size_t want = end - pos < CT_IO_BLOCK ? (size_t)(end - pos) : CT_IO_BLOCK;
			ssize_t n = pread(fd, buf, want, (off_t)pos);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				return n ? -errno : -EIO;
			pos += (uint64_t)n;
		}
		end = start;
	}
	return 0;
}

void ct_io_ready_after_warm(struct ct_load *l)
{
	l->ready_work = l->size / 8 < CT_IO_READY_MAX ? l->size / 8 : CT_IO_READY_MAX;
}

int ct_io_work(struct ct_load *l, unsigned i)
{
	const struct ct_io_file *f = l->priv;
	/* every run starts at the beginning of the file, so every run meets
	 * the file state the one before left: its first part rewritten last */
	uint64_t pos = 0, seed = (uint64_t)getpid() * 0x9e3779b97f4a7c15ULL ^ (uint64_t)ct_now_ns();
	uint64_t block = 0;
	unsigned char *buf;
	size_t n;
	int fd, rc;

	fd = open(f->path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return ct_load_fail(l, "%s: cannot open '%s': %s", l->ops->name, f->path,
				    strerror(errno));
	buf = aligned_alloc(4096, CT_IO_BLOCK);
	if (!buf)
		return ct_load_fail(l, "%s: out of memory", l->ops->name);
	rc = io_warm(fd, f, buf);
	if (rc)
		return ct_load_fail(l, "%s: cannot read '%s': %s", l->ops->name, f->path,
				    strerror(-rc));
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
	int rc = ct_io_prepare_in(l, l->dir, "io.dat", err, len);

	if (!rc)
		ct_io_ready_after_warm(l);
	return rc;
}

static const struct ct_option io_options[] = {
	CT_LOAD_FILE_SIZE_OPTION,
	CT_OPTION_DONE,
};

const struct ct_load_ops ct_load_io = {
	.name = "io",
	.summary = "rewrites a file the size of RAM with 1 MiB buffered writes (contest's dd)",
	.flags = CT_LOAD_DEFAULT | CT_LOAD_PROFILED,
	.options = io_options,
	.work_unit = "MB written",
	.unit_scale = 1e6,
	.check = io_check,
	.prepare = io_prepare,
	.work = ct_io_work,
	.cleanup = ct_io_cleanup,
};
