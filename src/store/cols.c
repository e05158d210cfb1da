/*
 * The schema's columns as data: one table per struct (a run, a config, a
 * session) says which member lands in which column, and query.c builds
 * its INSERT and SELECT texts from it, so a field cannot be written but
 * not read back; and the text a config's sysctls are kept as.
 */
#include "internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUN(name, type, m) COL(name, type, struct ct_run, m)
#define RUN_TEXT(name, m)  TEXT(name, struct ct_run, m)

const struct col ct_store_run_cols[] = {
	RUN("session_id", COL_I64, session_id),
	RUN("config_id", COL_I64, config_id),
	RUN_TEXT("workload", workload),
	RUN_TEXT("load", load),
	RUN("seq", COL_UINT, seq),
	ENUM("status", struct ct_run, status, ct_run_status_names, CT_RUN_NSTATUS),
	RUN_TEXT("reason", reason),
	RUN("started_at", COL_I64, started_at),
	RUN("wall_ns", COL_I64, wall_ns),
	RUN("user_us", COL_I64, user_us),
	RUN("sys_us", COL_I64, sys_us),
	RUN("exit_code", COL_INT, exit_code),
	RUN("load_work", COL_U64, load_work),
	RUN("load_unit_scale", COL_DOUBLE, load_unit_scale),
	RUN("load_user_us", COL_I64, load_user_us),
	RUN("load_sys_us", COL_I64, load_sys_us),
	RUN_TEXT("workload_params", workload_params),
	RUN_TEXT("load_params", load_params),
	RUN("have_psi", COL_BOOL, mon.have_psi),
	RUN("psi_cpu_some_us", COL_I64, mon.psi_us[0][0]),
	RUN("psi_cpu_full_us", COL_I64, mon.psi_us[0][1]),
	RUN("psi_io_some_us", COL_I64, mon.psi_us[1][0]),
	RUN("psi_io_full_us", COL_I64, mon.psi_us[1][1]),
	RUN("psi_mem_some_us", COL_I64, mon.psi_us[2][0]),
	RUN("psi_mem_full_us", COL_I64, mon.psi_us[2][1]),
	RUN("steal_us", COL_I64, mon.steal_us),
	RUN("foreign_cpu_us", COL_I64, mon.foreign_cpu_us),
	RUN("majflt", COL_I64, mon.majflt),
	RUN("pswpin", COL_I64, mon.pswpin),
	RUN("sectors_read", COL_I64, mon.sectors_read),
	RUN("sectors_written", COL_I64, mon.sectors_written),
	RUN("block", COL_UINT, block),
	RUN("start_dirty_bytes", COL_I64, mon.start_dirty_bytes),
	RUN("start_writeback_bytes", COL_I64, mon.start_writeback_bytes),
	RUN("start_cpu_speed", COL_DOUBLE, mon.start_cpu_speed),
};

#define SI(name, type, m) COL(name, type, struct ct_sysinfo, m)
#define SI_TEXT(name, m)  TEXT(name, struct ct_sysinfo, m)

/* sysctl[] is stored as text lines, label and created_at separately. */
const struct col ct_store_config_cols[] = {
	SI_TEXT("fingerprint", fingerprint),
	SI_TEXT("kernel_release", kernel_release),
	SI_TEXT("kernel_version", kernel_version),
	SI_TEXT("cmdline", cmdline),
	SI_TEXT("preempt", preempt),
	SI_TEXT("cpu_model", cpu_model),
	SI("ncpus", COL_UINT, ncpus),
	SI("ram_bytes", COL_U64, ram_bytes),
	SI("swap_bytes", COL_U64, swap_bytes),
	SI("mem_available", COL_U64, mem_available),
	SI_TEXT("fs_type", fs_type),
	SI_TEXT("fs_source", fs_source),
	SI_TEXT("block_dev", block_dev),
	SI_TEXT("iosched", iosched),
};

#define SES(name, type, m) COL(name, type, struct ct_session_rec, m)
#define SES_TEXT(name, m)  TEXT(name, struct ct_session_rec, m)

/* label, nruns and nfailed are read from configs and runs, not stored */
const struct col ct_store_session_cols[] = {
	SES("config_id", COL_ID, config_id),
	SES_TEXT("argv", argv),
	SES_TEXT("workload", workload),
	SES_TEXT("profile", profile),
	ENUM("status", struct ct_session_rec, status, ct_session_status_names, CT_SESSION_NSTATUS),
	SES("started_at", COL_I64, started_at),
	SES("ended_at", COL_ID, ended_at),
	SES("pid", COL_INT, owner.pid),
	SES("pid_start", COL_U64, owner.start),
	SES_TEXT("boot_id", owner.boot),
	SES_TEXT("machine_id", owner.machine),
	SES_TEXT("hostname", owner.host),
	SES("group_id", COL_I64, group_id),
	SES_TEXT("run_order", order),
	SES("order_seed", COL_U64, order_seed),
	SES_TEXT("uuid", uuid),
	SES_TEXT("commit_sha", commit),
	SES("commit_time", COL_ID, commit_time),
};

const size_t ct_store_nsession_cols = CT_ARRAY_SIZE(ct_store_session_cols);
const size_t ct_store_nrun_cols = CT_ARRAY_SIZE(ct_store_run_cols);
const size_t ct_store_nconfig_cols = CT_ARRAY_SIZE(ct_store_config_cols);

char *ct_store_join_cols(const struct col *cols, size_t n, const char *prefix, const char *sep)
{
	size_t size = 1;
	char *buf, *p;

	for (size_t i = 0; i < n; i++)
		size += strlen(prefix) + strlen(cols[i].name) + strlen(sep);
	buf = malloc(size);
	if (!buf)
		return NULL;
	p = buf;
	*p = '\0';
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s%s%s", i ? sep : "", prefix, cols[i].name);
	return buf;
}

char *ct_store_sysctl_text(const struct ct_sysinfo *si)
{
	size_t size = 1;
	unsigned n = si->nsysctl < CT_SYSINFO_MAX_SYSCTL ? si->nsysctl : CT_SYSINFO_MAX_SYSCTL;
	char *buf, *p;

	for (unsigned i = 0; i < n; i++)
		size += sizeof(si->sysctl[i].name) + sizeof(si->sysctl[i].value) + 2;
	buf = malloc(size);
	if (!buf)
		return NULL;
	p = buf;
	*p = '\0';
	for (unsigned i = 0; i < n; i++)
		p += sprintf(p, "%.*s=%.*s\n", (int)sizeof(si->sysctl[i].name), si->sysctl[i].name,
			     (int)sizeof(si->sysctl[i].value), si->sysctl[i].value);
	return buf;
}

void ct_store_sysctl_parse(const char *t, struct ct_sysinfo *si)
{
	si->nsysctl = 0;
	while (t && *t && si->nsysctl < CT_SYSINFO_MAX_SYSCTL) {
		const char *nl = strchr(t, '\n'), *end = nl ? nl : t + strlen(t);
		const char *eq = memchr(t, '=', (size_t)(end - t));

		if (eq) {
			snprintf(si->sysctl[si->nsysctl].name, sizeof(si->sysctl[0].name), "%.*s",
				 (int)(eq - t), t);
			snprintf(si->sysctl[si->nsysctl].value, sizeof(si->sysctl[0].value), "%.*s",
				 (int)(end - eq - 1), eq + 1);
			si->nsysctl++;
		}
		t = nl ? nl + 1 : end;
	}
}
