/*
 * The captured system facts that, with a label and knob values, make a
 * config (docs/architecture.md, "Vocabulary"). Everything is read relative
 * to a root directory so tests can feed fixture trees instead of /proc and
 * /sys.
 */
#ifndef CONTEND_SYSINFO_H
#define CONTEND_SYSINFO_H

#include "contend/common.h"

#define CT_SYSINFO_MAX_SYSCTL 12

struct ct_sysinfo {
	char kernel_release[128];
	char kernel_version[256];
	char cmdline[1024];
	/* "rt", "dynamic(full)" (any of none/voluntary/full/lazy), "dynamic",
	 * "full", "lazy", "voluntary", "none", "none/voluntary", "unknown";
	 * how each is derived: src/core/sysinfo.c */
	char preempt[32];
	char cpu_model[128];
	unsigned ncpus;
	uint64_t ram_bytes;
	uint64_t swap_bytes;
	uint64_t mem_available;
	char fs_type[32]; /* of the work dir */
	char fs_source[256];
	char block_dev[64]; /* "vda", or "" when not a block device */
	char iosched[32];   /* active scheduler of block_dev's disk, or "" */
	struct {
		char name[64];
		char value[128];
	} sysctl[CT_SYSINFO_MAX_SYSCTL];
	unsigned nsysctl;
	char fingerprint[17]; /* hex FNV-1a of the facts above */
};

/* root: "" for the live system, or a fixture directory holding proc/ and
 * sys/ (optionally boot/config-RELEASE). dir: the work directory whose
 * filesystem and device are described ("" or NULL: none). kernel release and
 * version: from uname() when root is "", from
 * ROOT/proc/sys/kernel/{osrelease,version} otherwise. A fixture gives the
 * work dir's device number in ROOT/dev-of-workdir ("254:0"); dir is then
 * not stat()ed, only matched against the fixture's mount points.
 * Missing proc/cmdline, cpuinfo, meminfo (or mountinfo, with a dir) is an
 * error (-ENOENT, "cannot read '/x/proc/meminfo': ..."); missing pressure,
 * debugfs, scheduler, sysctl and THP files are not. */
int ct_sysinfo_capture(struct ct_sysinfo *si, const char *root, const char *dir, char *err,
		       size_t len) CT_WUR;
/* Recomputes si->fingerprint: 16 hex digits of ct_fnv1a(CT_FNV_INIT, text)
 * over the canonical text below. */
void ct_sysinfo_fingerprint(struct ct_sysinfo *si);
/* The canonical text of the facts that define the system, one "key=value\n"
 * line each, in this order: kernel_release, kernel_version, cmdline,
 * preempt, cpu_model, ncpus, ram_bytes, swap_bytes, fs_type, block_dev,
 * iosched, then each sysctl as "vm.dirty_ratio=20" in capture order.
 * mem_available (volatile) and fs_source (a name, not a property) are left
 * out. Writes at most len bytes (NUL-terminated) and returns the full
 * length, as snprintf does. */
size_t ct_sysinfo_canonical(const struct ct_sysinfo *si, char *buf, size_t len);

/* Device name ("vda") for the filesystem holding dir, via ROOT/proc/self/mountinfo
 * and ROOT/sys/dev/block; "" when none. */
int ct_sysinfo_blockdev(const char *root, const char *dir, char *dev, size_t len);
/* The disk whose queue (and so I/O scheduler, ROOT/sys/block/DISK/queue)
 * serves block device dev: its parent for a partition ("nvme0n1p2" ->
 * "nvme0n1"), else dev itself. 0, -ENOENT when sysfs does not know dev,
 * -EINVAL on a bad name. */
int ct_sysinfo_disk(const char *root, const char *dev, char *disk, size_t len) CT_WUR;

#endif
