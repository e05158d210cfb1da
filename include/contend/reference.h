/*
 * The host's reference (docs/statistics.md, "The host's drift"): a short
 * measurement of the machine itself - its CPU's speed, its memory
 * bandwidth and a small synced write to the work directory's disk - that a
 * session takes at its start, between rounds and at its end, untimed, so
 * that compare can say how far the host moved between the sessions of two
 * configs. Each figure takes well under a second.
 */
#ifndef CONTEND_REFERENCE_H
#define CONTEND_REFERENCE_H

#include "contend/common.h"

/* When a session took it. */
enum ct_ref_phase { CT_REF_START, CT_REF_ROUND, CT_REF_END };

/* The figures, in the order they are stored and printed. */
enum { CT_REF_CPU, CT_REF_MEM, CT_REF_DISK, CT_REF_NFIGS };

struct ct_ref {
	int64_t session_id;
	unsigned seq;	  /* 1, 2, ... within its session */
	int64_t taken_at; /* unix ns */
	enum ct_ref_phase phase;
	/* CPU: ct_cpu_speed()'s loop steps per microsecond; memory: GB/s
	 * copied; disk: MB/s written and synced. NaN: that probe could not
	 * run (no memory, no space on the disk), stored as missing */
	double fig[CT_REF_NFIGS];
};

/* Each figure's name as stored and in JSON ("cpu_speed", "mem_gbps",
 * "disk_mbps"), as text and Markdown name it ("cpu", "mem", "disk"), and
 * its unit ("steps/us", "GB/s", "MB/s"). */
extern const char *const ct_ref_fig_keys[CT_REF_NFIGS];
extern const char *const ct_ref_fig_names[CT_REF_NFIGS];
extern const char *const ct_ref_fig_units[CT_REF_NFIGS];

/* "start", "round", "end", and back: 0, or -EINVAL for another word. */
const char *ct_ref_phase_name(enum ct_ref_phase p);
int ct_ref_phase_parse(const char *name, enum ct_ref_phase *out) CT_WUR;

/* Memory bandwidth: the fastest of a few memcpy passes over a buffer
 * larger than the last-level cache, in GB/s; NaN without the memory. */
double ct_ref_mem_gbps(void);
/* Disk: the fastest of a few writes of a small file in dir, each synced
 * (fdatasync), in MB/s; NaN when the file cannot be written (no space, no
 * permission). The file is removed. */
double ct_ref_disk_mbps(const char *dir);
/* All three figures and the time now into r; the caller sets the session,
 * seq and phase. A probe that cannot run leaves its figure NaN. */
void ct_ref_take(struct ct_ref *r, const char *dir);

#endif
