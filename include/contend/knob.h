/*
 * Knobs (docs/architecture.md, "Vocabulary" and "Measurement rules"): live
 * settings contend changes for a config and must put back - the I/O
 * scheduler of the disks under the work dir, a sysctl, any file under /sys
 * or /proc/sys. A knob is parsed from "--set NAME=VALUE" or "--vary
 * NAME=V1,V2", resolved to the files it writes and checked before anything
 * runs; the session layer journals the originals before the first change
 * and restores them (core/journal.c).
 *
 * Ownership: struct ct_knob is plain data the caller owns. A
 * struct ct_knob_config points into the knob array it was made from, which
 * must outlive it. Arrays returned through **out are malloc'd and freed by
 * the caller with free().
 */
#ifndef CONTEND_KNOB_H
#define CONTEND_KNOB_H

#include "contend/common.h"

#define CT_KNOB_NAME_MAX    256
#define CT_KNOB_VALUE_MAX   256
#define CT_KNOB_PATH_MAX    512
#define CT_KNOB_MAX_VALUES  16 /* per --vary */
#define CT_KNOB_MAX_PATHS   8  /* disks one iosched knob may reach */
#define CT_KNOB_MAX	    8  /* knobs in one suite */
#define CT_KNOB_MAX_CONFIGS 64 /* product of the --vary value counts */

enum ct_knob_kind {
	CT_KNOB_IOSCHED,     /* "iosched": the disks under the work dir */
	CT_KNOB_IOSCHED_DEV, /* "iosched@vdb": the disks under a named device */
	CT_KNOB_SYSCTL,	     /* "sysctl.vm.swappiness": /proc/sys/vm/swappiness */
	CT_KNOB_PATH,	     /* "/sys/kernel/mm/transparent_hugepage/enabled" */
	CT_KNOB_PLACEBO,     /* "aa": changes nothing (run --aa), never parsed */
};

struct ct_knob {
	char name[CT_KNOB_NAME_MAX]; /* as the user wrote it */
	enum ct_knob_kind kind;
	bool vary; /* from --vary (each value a config) or --set (one value, every config) */
	char values[CT_KNOB_MAX_VALUES][CT_KNOB_VALUE_MAX];
	unsigned nvalues;
	/* the files written, filled by ct_knob_resolve(); every one gets the
	 * same value */
	char paths[CT_KNOB_MAX_PATHS][CT_KNOB_PATH_MAX];
	unsigned npaths;
};

/* Parses "NAME=VALUE" (vary false: the whole text after the first '=' is
 * the one value) or "NAME=V1,V2[,...]" (vary true; ct_knobs_prepare()
 * wants two or more, once the values themselves are checked).
 * NAME is "iosched", "iosched@DEV", "sysctl.<dotted.name>" (a '/' in a
 * part stands for a '.', as sysctl(8) has it) or an absolute path under
 * /sys or /proc/sys without '..'. Values are non-empty, without control
 * characters other than tab, and not given twice. Nothing is read from the
 * system. -EINVAL with one line in err. */
int ct_knob_parse(const char *spec, bool vary, struct ct_knob *k, char *err, size_t len) CT_WUR;

/* The knob of an A/A check: "aa" with the values A and B, which writes
 * nothing and needs no root, so two configs differ only in their labels
 * and go through the same interleaved schedule as any --vary. */
void ct_knob_placebo(struct ct_knob *k);

/* Fills k->paths. iosched: the disks under the filesystem holding dir
 * (stat(dir)'s device, a partition's disk, device-mapper and md through
 * their slaves/ down to the queues that schedule; see ct_knob_sched_disks).
 * Every path must exist (-ENOENT), be a regular file, and resolve
 * (realpath) to a file under /sys/ or /proc/sys/ (-EINVAL). A dir with no
 * block device (tmpfs, overlay) is -EINVAL for iosched. */
int ct_knob_resolve(struct ct_knob *k, const char *dir, char *err, size_t len) CT_WUR;

/* Checks a resolved knob before anything is changed: each value is one the
 * file offers when it lists choices ("none [mq-deadline] kyber bfq"),
 * -EINVAL; the file is not read-only (mode bits; root passes access() for
 * read-only /proc files), -EINVAL; contend runs as root, -EPERM; the file
 * is writable, -errno of access(). */
int ct_knob_check(const struct ct_knob *k, char *err, size_t len) CT_WUR;

/* ct_knob_resolve() and ct_knob_check() for k[0..n-1], a --vary of fewer
 * than two values, a knob named twice and two knobs that write the same
 * file (-EINVAL). */
int ct_knobs_prepare(struct ct_knob *k, size_t n, const char *dir, char *err, size_t len) CT_WUR;

/* The disks whose I/O scheduler serves block device dev ("vda1",
 * "dm-0"), read under root ("" for the live system, else a fixture tree
 * as in sysinfo.h): a partition's disk; a device with slaves (dm, md) is
 * replaced by its slaves, recursively; each disk once, in sorted slave
 * order. A disk with no queue/scheduler is -EINVAL, an unknown dev
 * -ENOENT. Writes at most max names into disks. */
int ct_knob_sched_disks(const char *root, const char *dev, char (*disks)[64], size_t max, size_t *n,
			char *err, size_t len) CT_WUR;

/* The current value of a knob file: the bracketed word of a choice list,
 * else the content without trailing whitespace. -EFBIG when it does not fit
 * len (at most CT_KNOB_VALUE_MAX is ever needed). */
int ct_knob_read(const char *path, char *buf, size_t len, char *err, size_t elen) CT_WUR;

/* Writes value to path and reads it back: a choice list must show it
 * bracketed; other files must read back the value (trailing whitespace
 * aside; fields of whole numbers compared as numbers, so "4096 131072"
 * matches "4096\t131072"). A mismatch is -EIO naming knob, what was written
 * and what was read. */
int ct_knob_write(const char *knob, const char *path, const char *value, char *err,
		  size_t len) CT_WUR;

/* ct_knob_write() of value to every path of k. */
int ct_knob_apply(const struct ct_knob *k, const char *value, char *err, size_t len) CT_WUR;

/* One config of a suite: a value for every knob. */
struct ct_knob_setting {
	const struct ct_knob *knob;
	const char *value; /* points into knob->values */
};
struct ct_knob_config {
	struct ct_knob_setting set[CT_KNOB_MAX];
	unsigned n;
};

/* The configs of k[0..n-1]: the cross product of the --vary knobs, the
 * first varying slowest, each with every --set knob's value; settings in
 * the order of k. No knobs is one empty config. -EINVAL for a knob named
 * twice, more than CT_KNOB_MAX knobs or CT_KNOB_MAX_CONFIGS configs. */
int ct_knob_configs(const struct ct_knob *k, size_t n, struct ct_knob_config **out, size_t *nout,
		    char *err, size_t len) CT_WUR;

/* The label suffix of a config: "iosched=bfq", several joined by '+'
 * ("iosched=bfq+sysctl.vm.swappiness=10"), so a label composes as
 * "6.18.44+iosched=bfq". varied_only leaves out --set knobs. "" when there
 * is nothing to say. -ENAMETOOLONG when it does not fit. */
int ct_knob_label(const struct ct_knob_config *c, bool varied_only, char *buf, size_t len) CT_WUR;

/* ct_knob_apply() of every setting of c, in order; stops at the first
 * failure (what was set stays set: the journal covers it). */
int ct_knob_apply_config(const struct ct_knob_config *c, char *err, size_t len) CT_WUR;

#endif
