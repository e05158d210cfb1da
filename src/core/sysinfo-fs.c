/*
 * The filesystem, block device and I/O scheduler under the work directory
 * (sysinfo.c's capture): the mount that holds it from mountinfo, its block
 * device through sysfs' dev/block symlinks (a partition's disk, a
 * device-mapper or md device as itself), and the disk's active scheduler.
 * Paths are read under the capture's root, as in sysinfo.c.
 */
#include "contend/sysinfo.h"
#include "contend/util.h"
#include "sysinfo-internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* Length of mount point `point` when it contains `path`, else -1. */
static long prefix_score(const char *point, const char *path)
{
	size_t n = strlen(point);

	if (!path || !*path)
		return 0;
	if (!strcmp(point, "/"))
		return 1;
	if (!strncmp(point, path, n) && (path[n] == '\0' || path[n] == '/'))
		return (long)n;
	return -1;
}

struct mount {
	unsigned maj, min;
	char fs_type[32];
	char fs_source[256];
};

/* One mountinfo line: id parent maj:min root point opts [optional...] - type
 * source superopts (proc(5)). */
static bool parse_mount(char *line, struct mount *m, char **point)
{
	char *save = NULL, *tok, *f[6];
	int i;

	for (i = 0; i < 6; i++) {
		f[i] = strtok_r(i ? NULL : line, " \n", &save);
		if (!f[i])
			return false;
	}
	if (sscanf(f[2], "%u:%u", &m->maj, &m->min) != 2)
		return false;
	while ((tok = strtok_r(NULL, " \n", &save)) && strcmp(tok, "-"))
		;
	if (!tok)
		return false;
	tok = strtok_r(NULL, " \n", &save);
	if (!tok)
		return false;
	unescape(tok);
	si_copy(m->fs_type, sizeof(m->fs_type), tok);
	tok = strtok_r(NULL, " \n", &save);
	if (tok)
		unescape(tok);
	si_copy(m->fs_source, sizeof(m->fs_source), tok ? tok : "");
	unescape(f[4]);
	*point = f[4];
	return true;
}

/* The mount holding path on device maj:min; among several mounts of the
 * device (bind mounts), the longest mount point containing path, the later
 * one on ties since it covers the earlier. When no mount has the device
 * (btrfs subvolumes report their own anonymous st_dev), the longest mount
 * point containing path. 0, 1 when nothing fits, or -errno of the open. */
static int find_mount(const char *root, unsigned maj, unsigned min, const char *path,
		      struct mount *out, char *err, size_t len)
{
	struct mount m, by_dev = { 0 }, by_path = { 0 };
	long best_dev = -2, best_path = -1, s;
	char *line = NULL, *point;
	size_t cap = 0;
	FILE *f;
	int rc;

	f = si_open_required(root, "/proc/self/mountinfo", err, len, &rc);
	if (!f)
		return rc;
	while (getline(&line, &cap, f) > 0) {
		if (!parse_mount(line, &m, &point))
			continue;
		s = prefix_score(point, path);
		if (m.maj == maj && m.min == min && s >= best_dev) {
			best_dev = s;
			by_dev = m;
		}
		if (s > 0 && s >= best_path) {
			best_path = s;
			by_path = m;
		}
	}
	free(line);
	fclose(f);
	if (best_dev > -2)
		*out = by_dev;
	else if (best_path > 0)
		*out = by_path;
	else
		return 1;
	return 0;
}

static bool exists(const char *root, const char *rel)
{
	char path[PATH_MAX];
	struct stat st;

	return !si_root_path(path, sizeof(path), root, rel) && !stat(path, &st);
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* Block device name of maj:min through sysfs' dev/block symlinks; for
 * filesystems on anonymous devices (btrfs) the "/dev/NAME" mount source,
 * when sysfs knows NAME as a block device. "" otherwise (tmpfs, overlay, NFS,
 * a device sysfs does not show). */
static void blockdev_name(const char *root, unsigned maj, unsigned min, const char *source,
			  char *dev, size_t len)
{
	char rel[64], path[PATH_MAX], target[PATH_MAX], real[PATH_MAX], crel[128];
	const char *name = NULL;
	ssize_t n;

	dev[0] = '\0';
	snprintf(rel, sizeof(rel), "/sys/dev/block/%u:%u", maj, min);
	if (!si_root_path(path, sizeof(path), root, rel)) {
		n = readlink(path, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			si_copy(dev, len, base_name(target));
			return;
		}
	}
	if (maj != 0 || strncmp(source, "/dev/", 5))
		return;
	/* /dev/mapper/x is a symlink to ../dm-N on the live system. */
	if (si_is_live(root) && realpath(source, real))
		name = base_name(real);
	else
		name = base_name(source);
	if (!*name || strlen(name) >= 64)
		return;
	snprintf(crel, sizeof(crel), "/sys/class/block/%s", name);
	if (exists(root, crel))
		si_copy(dev, len, name);
}

int ct_sysinfo_disk(const char *root, const char *dev, char *disk, size_t len)
{
	char rel[128], path[PATH_MAX], target[PATH_MAX], *slash;
	ssize_t n;
	int rc;

	if (!len)
		return -EINVAL;
	disk[0] = '\0';
	if (!dev || !*dev || strchr(dev, '/') || strlen(dev) >= 64)
		return -EINVAL;
	snprintf(rel, sizeof(rel), "/sys/class/block/%s", dev);
	rc = si_root_path(path, sizeof(path), root, rel);
	if (rc)
		return rc;
	if (!exists(root, rel))
		return -ENOENT;
	snprintf(rel, sizeof(rel), "/sys/class/block/%s/partition", dev);
	if (!exists(root, rel)) {
		si_copy(disk, len, dev);
		return 0;
	}
	/* A partition's sysfs directory sits inside its disk's:
	 * .../block/nvme0n1/nvme0n1p2. */
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return -EINVAL;
	target[n] = '\0';
	slash = strrchr(target, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	if (!*base_name(target))
		return -EINVAL;
	si_copy(disk, len, base_name(target));
	return 0;
}

/* The active scheduler of a disk: the bracketed entry, or the only entry
 * of queues that offer no choice (bio-based device-mapper prints "none"). */
void si_read_iosched(const char *root, const char *disk, char *out, size_t len)
{
	char rel[128], buf[256], *t;

	out[0] = '\0';
	snprintf(rel, sizeof(rel), "/sys/block/%s/queue/scheduler", disk);
	if (si_read_optional(root, rel, buf, sizeof(buf)) <= 0)
		return;
	if (si_bracketed(buf, '[', ']', out, len))
		return;
	t = si_trim(buf);
	if (*t && !strpbrk(t, " \t"))
		si_copy(out, len, t);
}

int si_resolve_fs(const char *root, const char *dir, struct si_fsloc *loc, char *err, size_t len)
{
	char buf[64], real[PATH_MAX];
	const char *path = dir;
	unsigned maj, min;
	struct mount m;
	struct stat st;
	ssize_t n;
	int rc;

	memset(loc, 0, sizeof(*loc));
	n = si_is_live(root) ? -ENOENT
			     : si_read_optional(root, "/dev-of-workdir", buf, sizeof(buf));
	if (n >= 0) {
		if (sscanf(buf, "%u:%u", &maj, &min) != 2)
			return ct_err(err, len, -EINVAL,
				      "bad device number '%s' in '%s/dev-of-workdir'", buf, root);
	} else {
		if (stat(dir, &st))
			return ct_err(err, len, -errno, "cannot stat '%s': %s", dir,
				      strerror(errno));
		maj = major(st.st_dev);
		min = minor(st.st_dev);
		if (si_is_live(root) && realpath(dir, real))
			path = real;
	}

	rc = find_mount(root, maj, min, path, &m, err, len);
	if (rc == 1) {
		/* Not in the mount table: still try sysfs with st_dev. */
		m.maj = maj;
		m.min = min;
		m.fs_source[0] = '\0';
	} else if (rc) {
		return rc;
	} else {
		si_copy(loc->fs_type, sizeof(loc->fs_type), m.fs_type);
		si_copy(loc->fs_source, sizeof(loc->fs_source), m.fs_source);
	}
	blockdev_name(root, m.maj, m.min, m.fs_source, loc->block_dev, sizeof(loc->block_dev));
	return 0;
}

int ct_sysinfo_blockdev(const char *root, const char *dir, char *dev, size_t len)
{
	struct si_fsloc loc;
	int rc;

	if (!len)
		return -EINVAL;
	dev[0] = '\0';
	if (!dir || !*dir)
		return 0;
	rc = si_resolve_fs(root, dir, &loc, NULL, 0);
	if (rc)
		return rc;
	si_copy(dev, len, loc.block_dev);
	return 0;
}
