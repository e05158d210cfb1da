/*
 * The OLTP engine's files: the data file (its pages numbered, the rest
 * random) and the circular log, written whole and synced before a run so
 * neither grows during one, opened with O_DIRECT unless buffered, dropped
 * from the page cache between runs and removed at the end.
 */
#include "engine.h"
#include "contend/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILL_CHUNK (1u << 20)

void eng_path(const struct ct_oltp_params *p, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", p->dir, name);
}

int eng_open(const struct ct_oltp_params *p, const char *path, int flags, char *err, size_t len)
{
	int fd = open(path, flags | O_CLOEXEC | (p->buffered ? 0 : O_DIRECT), 0600);

	if (fd < 0 && errno == EINVAL && !p->buffered)
		return ct_err(err, len, -EINVAL,
			      "oltp: the filesystem of '%s' refuses O_DIRECT; use --buffered "
			      "(or --dir on a disk)",
			      p->dir);
	if (fd < 0)
		return ct_err(err, len, -errno, "oltp: cannot open '%s': %s", path,
			      strerror(errno));
	return fd;
}

/* The offset and size alignment O_DIRECT needs here (commit records are
 * padded to it); buffers are always 4 KiB aligned. */
static unsigned dio_align(int fd)
{
#ifdef STATX_DIOALIGN
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align)
		return stx.stx_dio_offset_align > 512 ? stx.stx_dio_offset_align : 512;
#else
	(void)fd;
#endif
	return 4096;
}

static int fill_file(int fd, const char *path, uint64_t size, uint64_t seed, bool pages, char *err,
		     size_t len)
{
	void *buf;
	uint64_t st = seed | 1, off;
	int rc = 0;

	if (posix_memalign(&buf, 4096, FILL_CHUNK))
		return ct_err(err, len, -ENOMEM, "out of memory");
	for (off = 0; off < size; off += FILL_CHUNK) {
		size_t n = size - off < FILL_CHUNK ? (size_t)(size - off) : FILL_CHUNK;
		ssize_t w;

		ct_fill_random(buf, n, &st);
		if (pages)
			for (size_t pg = 0; pg < n; pg += CT_OLTP_PAGE) {
				uint64_t no = (off + pg) / CT_OLTP_PAGE;

				memcpy((char *)buf + pg, &no, sizeof(no));
			}
		w = pwrite(fd, buf, n, (off_t)off);
		if (w != (ssize_t)n) {
			rc = w < 0 ? -errno : -EIO;
			ct_err(err, len, rc, "oltp: cannot write '%s': %s", path, strerror(-rc));
			break;
		}
	}
	if (!rc && fsync(fd)) {
		rc = -errno;
		ct_err(err, len, rc, "oltp: cannot sync '%s': %s", path, strerror(-rc));
	}
	/* buffered: what was just written must not stay cached (and charged to
	 * contend's cgroup), or the engine's memory limit would never bite */
	if (!rc)
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	free(buf);
	return rc;
}

int ct_oltp_create(struct ct_oltp_params *p, char *err, size_t len)
{
	char path[4096 + 16];
	int fd, rc;

	eng_path(p, ENG_DATA_NAME, path, sizeof(path));
	fd = eng_open(p, path, O_WRONLY | O_CREAT | O_TRUNC, err, len);
	if (fd < 0)
		return fd;
	p->align = dio_align(fd);
	rc = fill_file(fd, path, p->data_size, p->seed, true, err, len);
	close(fd);
	if (rc)
		goto fail;
	eng_path(p, ENG_LOG_NAME, path, sizeof(path));
	fd = eng_open(p, path, O_WRONLY | O_CREAT | O_TRUNC, err, len);
	if (fd < 0) {
		rc = fd;
		goto fail;
	}
	rc = fill_file(fd, path, p->log_size, p->seed ^ 0x5bd1e995, false, err, len);
	close(fd);
	if (rc)
		goto fail;
	p->record = CT_OLTP_RECORD < p->align ? p->align : CT_OLTP_RECORD;
	return 0;
fail:
	ct_oltp_remove(p);
	return rc;
}

void ct_oltp_uncache(const struct ct_oltp_params *p)
{
	char path[4096 + 16];
	int fd;

	eng_path(p, ENG_DATA_NAME, path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	(void)fdatasync(fd);
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
}

void ct_oltp_remove(const struct ct_oltp_params *p)
{
	char path[4096 + 16];

	eng_path(p, ENG_DATA_NAME, path, sizeof(path));
	unlink(path);
	eng_path(p, ENG_LOG_NAME, path, sizeof(path));
	unlink(path);
}
