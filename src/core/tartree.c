/*
 * The tar loads' tree (include/contend/tartree.h): contest archived and
 * extracted a kernel source tree, tens of thousands of files in thousands
 * of directories, so tar's work was directory walks, opens and small reads
 * as much as bytes. This writes a tree of that shape from integer
 * arithmetic alone (no libm), so one size gives the same bytes anywhere:
 * file sizes drawn from size classes shaped like a kernel tree's (many of
 * a few KiB, a tail to half a MiB), sixteen files a directory three levels
 * deep, and text made of C-like lines.
 */
#include "contend/tartree.h"
#include "contend/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TT_SEED		 0x7461727472656555ULL /* "tartreeU" */
#define TT_FILES_PER_DIR 16		       /* Linux 6.1: 78,579 files in 5,096 dirs */
#define TT_LINES	 4096		       /* the pool the text is drawn from */
#define TT_LINE_MAX	 128

/* Size classes of the files, [lo, 2 lo) bytes, and their share in
 * percent: a weight before scaling to the asked total. */
static const struct {
	unsigned lo, pct;
} classes[] = {
	{ 64, 6 },     { 512, 8 },   { 1024, 10 }, { 2048, 14 },  { 4096, 17 },	 { 8192, 17 },
	{ 16384, 13 }, { 32768, 9 }, { 65536, 4 }, { 131072, 1 }, { 262144, 1 },
};

static const char *const top[] = { "arch",  "block", "crypto", "drivers", "fs", "include",
				   "init",  "ipc",   "kernel", "lib",	  "mm", "net",
				   "sound", "tools", "virt",   "security" };

static const char *const words[] = {
	"sched", "page",  "inode", "dentry", "block", "queue", "timer", "irq",	 "lock",  "skb",
	"sock",	 "route", "dev",   "pci",    "usb",   "tty",   "slab",	"vma",	 "folio", "bio",
	"req",	 "ctx",	  "node",  "entry",  "list",  "hash",  "map",	"table", "state", "flags",
	"count", "size",  "buf",   "data",   "ops",   "work",  "event", "mask",	 "ring",  "desc",
	"port",	 "phy",	  "clk",   "reg",    "cpu",   "task",  "file",	"mount", "super", "cache",
	"pool",	 "zone",  "mem",   "addr",   "len",   "off",   "id",	"key",	 "val",	  "err",
	"wait",	 "poll",  "sync",  "dma",
};
#define NWORDS CT_ARRAY_SIZE(words)

static const char *word(uint64_t *rng)
{
	return words[ct_rand64(rng) % NWORDS];
}

/* One line of C-like text into buf (NUL-terminated, ends in '\n'). */
static void make_line(char *buf, size_t len, uint64_t *rng)
{
	const char *a = word(rng), *b = word(rng), *c = word(rng), *d = word(rng);
	unsigned n = (unsigned)(ct_rand64(rng) % 4096);

	switch (ct_rand64(rng) % 16) {
	case 0:
		snprintf(buf, len, "static int %s_%s(struct %s *%s)\n", a, b, c, d);
		break;
	case 1:
		snprintf(buf, len, "{\n");
		break;
	case 2:
		snprintf(buf, len, "}\n");
		break;
	case 3:
		snprintf(buf, len, "\n");
		break;
	case 4:
		snprintf(buf, len, "\tif (%s->%s & %s_%s)\n", a, b, c, d);
		break;
	case 5:
		snprintf(buf, len, "\t\treturn -EINVAL;\n");
		break;
	case 6:
		snprintf(buf, len, "\t%s = %s_%s(%s, %u);\n", a, b, c, d, n);
		break;
	case 7:
		snprintf(buf, len, " * The %s of the %s is kept in %s until %s is done.\n", a, b, c,
			 d);
		break;
	case 8:
		snprintf(buf, len, "#include <linux/%s.h>\n", a);
		break;
	case 9:
		snprintf(buf, len, "#define %s_%s_%s\t0x%04x\n", a, b, c, n);
		break;
	case 10:
		snprintf(buf, len, "\tstruct %s *%s = %s->%s;\n", a, b, c, d);
		break;
	case 11:
		snprintf(buf, len, "\tfor (i = 0; i < %s->nr_%s; i++)\n", a, b);
		break;
	case 12:
		snprintf(buf, len, "\t\t%s[i] = %s_%s(%s[i]);\n", a, b, c, d);
		break;
	case 13:
		snprintf(buf, len, "\tspin_lock(&%s->%s_lock);\n", a, b);
		break;
	case 14:
		snprintf(buf, len, "\tspin_unlock(&%s->%s_lock);\n", a, b);
		break;
	default:
		snprintf(buf, len, "EXPORT_SYMBOL_GPL(%s_%s_%s);\n", a, b, c);
		break;
	}
}

int ct_tartree_size(bool quick, uint64_t avail, unsigned *files, uint64_t *bytes)
{
	uint64_t f = CT_TARTREE_FILES, b = CT_TARTREE_BYTES, cap = avail / CT_TARTREE_FREE_DIV;

	if (quick) {
		f /= CT_TARTREE_QUICK_DIV;
		b /= CT_TARTREE_QUICK_DIV;
	}
	if (b > cap) {
		/* both shrink together, so the files keep their mean size */
		f = f * cap / b;
		b = cap;
	}
	if (f < CT_TARTREE_MIN_FILES || b < CT_TARTREE_MIN_BYTES)
		return -ENOSPC;
	*files = (unsigned)f;
	*bytes = b;
	return 0;
}

/* The size of every file: a class by its share, a size within the class,
 * then all scaled to sum to bytes exactly, each at least one byte. */
static uint64_t *file_sizes(unsigned files, uint64_t bytes, uint64_t *rng)
{
	uint64_t *s = malloc(files * sizeof(*s)), total = 0, spare = bytes - files, sum = 0;

	if (!s)
		return NULL;
	for (unsigned i = 0; i < files; i++) {
		unsigned p = (unsigned)(ct_rand64(rng) % 100), k = 0;

		while (k + 1 < CT_ARRAY_SIZE(classes) && p >= classes[k].pct) {
			p -= classes[k].pct;
			k++;
		}
		s[i] = classes[k].lo + ct_rand64(rng) % classes[k].lo;
		total += s[i];
	}
	for (unsigned i = 0; i < files; i++) {
		s[i] = 1 + spare / total * s[i] + spare % total * s[i] / total;
		sum += s[i];
	}
	/* what the rounding down left, a byte each to the first files */
	for (unsigned i = 0; sum < bytes; i = (i + 1) % files, sum++)
		s[i]++;
	return s;
}

/* The directory of file i: top/word/wordN, sixteen files to a directory. */
static void dir_of(char *buf, size_t len, const char *root, unsigned i)
{
	unsigned d = i / TT_FILES_PER_DIR, ntop = CT_ARRAY_SIZE(top);

	snprintf(buf, len, "%s/%s/%s/%s%u", root, top[d % ntop], words[d / ntop % NWORDS],
		 words[d % NWORDS], d / (ntop * (unsigned)NWORDS));
}

/* 0, or -1 with errno set (a short write of a full disk is ENOSPC). */
static int write_full(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!w)
				errno = ENOSPC;
			return -1;
		}
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

static int write_tree(const char *dir, unsigned files, const uint64_t *size, char *pool,
		      size_t bufsize, uint64_t *rng, char *err, size_t len)
{
	static const char *const ext[] = { "c", "c", "c", "c", "c", "h", "h", "S" };
	char path[PATH_MAX], cur[PATH_MAX] = "";
	char *buf = malloc(bufsize);
	int fd, rc = 0;

	if (!buf)
		return ct_err(err, len, -ENOMEM, "out of memory for the tar tree");
	for (unsigned i = 0; i < files && !rc; i++) {
		size_t n = 0;

		dir_of(path, sizeof(path), dir, i);
		if (strcmp(path, cur)) {
			snprintf(cur, sizeof(cur), "%s", path);
			rc = ct_mkdir_p(cur, 0755);
			if (rc) {
				ct_err(err, len, rc, "cannot create '%s': %s", cur, strerror(-rc));
				break;
			}
		}
		snprintf(path, sizeof(path), "%s/%s_%u.%s", cur, word(rng), i % TT_FILES_PER_DIR,
			 ext[ct_rand64(rng) % CT_ARRAY_SIZE(ext)]);
		n = (size_t)snprintf(buf, bufsize, "// SPDX-License-Identifier: GPL-2.0\n");
		while (n < size[i]) {
			const char *line = pool + (ct_rand64(rng) % TT_LINES) * TT_LINE_MAX;
			size_t l = strlen(line);

			memcpy(buf + n, line, l);
			n += l;
		}
		n = size[i];
		buf[n - 1] = '\n';
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || write_full(fd, buf, n)) {
			rc = -errno;
			ct_err(err, len, rc, "cannot write '%s': %s", path, strerror(errno));
		}
		if (fd >= 0)
			close(fd);
	}
	free(buf);
	return rc;
}

int ct_tartree_generate(const char *dir, unsigned files, uint64_t bytes, char *err, size_t len)
{
	uint64_t rng = TT_SEED, *size, big = 0;
	char *pool;
	int rc, fd;

	if (!files || bytes < files)
		return ct_err(err, len, -EINVAL, "a tar tree of %u files cannot hold %llu bytes",
			      files, (unsigned long long)bytes);
	pool = malloc((size_t)TT_LINES * TT_LINE_MAX);
	size = file_sizes(files, bytes, &rng);
	if (!pool || !size) {
		free(pool);
		free(size);
		return ct_err(err, len, -ENOMEM, "out of memory for the tar tree");
	}
	for (unsigned i = 0; i < TT_LINES; i++)
		make_line(pool + (size_t)i * TT_LINE_MAX, TT_LINE_MAX, &rng);
	for (unsigned i = 0; i < files; i++)
		big = size[i] > big ? size[i] : big;
	rc = ct_mkdir_p(dir, 0755);
	if (rc)
		ct_err(err, len, rc, "cannot create '%s': %s", dir, strerror(-rc));
	else /* room for the header and one more line past the largest file */
		rc = write_tree(dir, files, size, pool, (size_t)big + 64 + TT_LINE_MAX, &rng, err,
				len);
	free(pool);
	free(size);
	if (rc)
		return rc;
	/* written back now, so the first run does not pay for it */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || syncfs(fd)) {
		rc = -errno;
		ct_err(err, len, rc, "cannot flush '%s': %s", dir, strerror(errno));
	}
	if (fd >= 0)
		close(fd);
	return rc;
}
