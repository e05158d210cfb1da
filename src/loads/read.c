/*
 * contest's read_load: reads a file the size of RAM end to end, over and
 * over. The reader drops the pages behind itself (POSIX_FADV_DONTNEED), so
 * the page cache can never hold the file and every pass reads the disk.
 * The file is written once, untimed, by prepare (ct_io_prepare_in).
 */
#include "internal.h"
#include "loads.h"
#include "contend/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DROP_EVERY (8u << 20) /* bytes read between POSIX_FADV_DONTNEED calls */

static int read_prepare(struct ct_load *l, char *err, size_t len)
{
	const struct ct_io_file *f;
	int fd, rc = ct_io_prepare_in(l, l->dir, "read.dat", err, len);

	if (rc)
		return rc;
	/* start cold: the first pass must not be served from the cache either */
	f = l->priv;
	fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		close(fd);
	}
	return 0;
}

static int read_check(const struct ct_env *env, const char *dir, char *err, size_t len)
{
	return ct_io_check_in(env, "read", dir, err, len);
}

static int read_work(struct ct_load *l, unsigned i)
{
	const struct ct_io_file *f = l->priv;
	uint64_t pos = 0, dropped = 0;
	unsigned char *buf;
	ssize_t n;
	int fd;

	fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ct_load_fail(l, "read: cannot open '%s': %s", f->path, strerror(errno));
	buf = aligned_alloc(4096, CT_IO_BLOCK);
	if (!buf)
		return ct_load_fail(l, "read: out of memory");
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	for (;;) {
		n = pread(fd, buf, CT_IO_BLOCK, (off_t)pos);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ct_load_fail(l, "read: cannot read '%s': %s", f->path,
					    strerror(errno));
		if (n == 0 && pos == 0)
			return ct_load_fail(l, "read: '%s' is empty", f->path);
		pos += (uint64_t)n;
		ct_load_add(l, (uint64_t)n);
		if (n == 0 || pos >= f->size) {
			posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
			pos = dropped = 0;
		} else if (pos - dropped >= DROP_EVERY) {
			posix_fadvise(fd, (off_t)dropped, (off_t)(pos - dropped),
				      POSIX_FADV_DONTNEED);
			dropped = pos;
		}
	}
}

static const struct ct_option read_options[] = {
	CT_LOAD_FILE_SIZE_OPTION,
	CT_OPTION_DONE,
};

const struct ct_load_ops ct_load_read = {
	.name = "read",
	.summary =
		"reads a file the size of RAM over and over, dropping it from the cache behind it",
	.flags = CT_LOAD_DEFAULT | CT_LOAD_PROFILED,
	.options = read_options,
	.work_unit = "MB read",
	.unit_scale = 1e6,
	.check = read_check,
	.prepare = read_prepare,
	.work = read_work,
	.cleanup = ct_io_cleanup,
};
