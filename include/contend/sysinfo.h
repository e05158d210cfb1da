/*
 * The captured system facts that, with a label and knob values, make a
 * config (DESIGN.md section 2). Everything is read relative to a root
 * directory so tests can feed fixture trees instead of /proc and /sys.
 */
#ifndef CONTEND_SYSINFO_H
#define CONTEND_SYSINFO_H

#include "contend/common.h"

#define CT_SYSINFO_MAX_SYSCTL 12

struct ct_sysinfo {
	char kernel_release[128];
	char kernel_version[256];
	char cmdline[1024];
	char preempt[32];	/* "full", "voluntary", "none", "rt", "dynamic(full)", "unknown" */
	char cpu_model[128];
	unsigned ncpus;
	uint64_t ram_bytes;
	uint64_t swap_bytes;
	uint64_t mem_available;
	char fs_type[32];	/* of the work dir */
	char fs_source[256];
	char block_dev[64];	/* "vda", or "" when not a block device */
	char iosched[32];	/* active scheduler of block_dev's disk, or "" */
	struct {
		char name[64];
		char value[128];
	} sysctl[CT_SYSINFO_MAX_SYSCTL];
	unsigned nsysctl;
	char fingerprint[17];	/* hex FNV-1a of the facts above */
};

/* root: "" for the live system, or a fixture directory holding proc/ and
 * sys/ (and etc/ none). dir: the work directory whose filesystem and device
 * are described. uts_release/uts_version: from uname() when root is "",
 * from ROOT/proc/sys/kernel/{osrelease,version} otherwise. */
int ct_sysinfo_capture(struct ct_sysinfo *si, const char *root, const char *dir, char *err,
		       size_t len) CT_WUR;
/* Recomputes si->fingerprint from the facts. */
void ct_sysinfo_fingerprint(struct ct_sysinfo *si);

/* Device name ("vda") for the filesystem holding dir, via ROOT/proc/self/mountinfo
 * and ROOT/sys/dev/block; "" when none. */
int ct_sysinfo_blockdev(const char *root, const char *dir, char *dev, size_t len);

#endif
