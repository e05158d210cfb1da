/*
 * The results store against real SQLite files in a temporary directory:
 * every field of a run survives the round trip, filters pick exactly the
 * right runs, and bad files are refused without being touched. A second
 * sqlite3 handle checks what the store claims about its own file.
 *
 * With CT_PG set (tests/pg/with-cluster.sh gives a throwaway server), the
 * tests that are not about SQLite's files run against PostgreSQL, each
 * store a fresh database, and libpq checks what is in it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "contend/store.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <sqlite3.h>
#include <sys/utsname.h>

/* What this contend writes; a new migration must update it. */
#define SCHEMA_VERSION 16
#define APP_ID	       0x63746e64 /* "ctnd" */

static char tmpdir[] = "/tmp/contend-test-store.XXXXXX";

/* the PostgreSQL server's conninfo (its postgres database), or NULL */
static const char *pg;

static void pg_quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

static PGconn *pg_connect(const char *conninfo)
{
	PGconn *c = PQconnectdb(conninfo);

	PQsetNoticeProcessor(c, pg_quiet, NULL);
	if (PQstatus(c) != CONNECTION_OK)
		print_error("cannot connect to '%s': %s\n", conninfo, PQerrorMessage(c));
	assert_int_equal(PQstatus(c), CONNECTION_OK);
	return c;
}

static void pg_exec(PGconn *c, const char *sql)
{
	PGresult *res = PQexec(c, sql);

	if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
		print_error("'%s': %s\n", sql, PQerrorMessage(c));
	assert_true(PQresultStatus(res) == PGRES_COMMAND_OK ||
		    PQresultStatus(res) == PGRES_TUPLES_OK);
	PQclear(res);
}

static int64_t pg_int(PGconn *c, const char *sql)
{
	PGresult *res = PQexec(c, sql);
	int64_t v;

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		print_error("'%s': %s\n", sql, PQerrorMessage(c));
	assert_int_equal(PQresultStatus(res), PGRES_TUPLES_OK);
	assert_int_equal(PQntuples(res), 1);
	v = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	PQclear(res);
	return v;
}

/* The conninfo of a fresh database named after name, made on its first
 * use in this process (a store reopened by name finds its rows). */
static const char *pg_db(const char *name)
{
	static char made[32][64], buf[PATH_MAX];
	static int nmade;
	char db[64] = "ct_", sql[160];
	size_t o = 3;
	int i;

	for (const char *p = name; *p && o < sizeof(db) - 1; p++)
		db[o++] = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ? *p : '_';
	db[o] = '\0';
	for (i = 0; i < nmade && strcmp(made[i], db); i++)
		;
	if (i == nmade) {
		PGconn *c = pg_connect(pg);

		snprintf(sql, sizeof(sql), "DROP DATABASE IF EXISTS %s", db);
		pg_exec(c, sql);
		snprintf(sql, sizeof(sql), "CREATE DATABASE %s", db);
		pg_exec(c, sql);
		PQfinish(c);
		assert_true(nmade < 32);
		snprintf(made[nmade++], sizeof(made[0]), "%s", db);
	}
	snprintf(buf, sizeof(buf), "%s dbname=%s", pg, db);
	return buf;
}

static const char *path_of(const char *name)
{
	static char buf[PATH_MAX];

	if (pg)
		return pg_db(name);
	snprintf(buf, sizeof(buf), "%s/%s", tmpdir, name);
	return buf;
}

static int setup(void **state)
{
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	return ct_rm_rf(tmpdir);
}

static struct ct_store *open_ok(const char *path)
{
	char err[CT_ERRLEN] = "";
	struct ct_store *s = NULL;
	int rc = ct_store_open(&s, path, CT_STORE_CREATE, err, sizeof(err));

	if (rc)
		print_error("ct_store_open: %s\n", err);
	assert_int_equal(rc, 0);
	assert_non_null(s);
	return s;
}

/* A second, independent handle on the store's file. */
static sqlite3 *raw_open(const char *path)
{
	sqlite3 *db = NULL;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
	return db;
}

static int64_t raw_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void raw_text(sqlite3 *db, const char *sql, char *buf, size_t len)
{
	sqlite3_stmt *st;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	snprintf(buf, len, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

static void fill_sysinfo(struct ct_sysinfo *si, int k)
{
	memset(si, 0, sizeof(*si));
	snprintf(si->kernel_release, sizeof(si->kernel_release), "6.19.0-rc%d", k);
	snprintf(si->kernel_version, sizeof(si->kernel_version), "#%d SMP PREEMPT_DYNAMIC", k);
	snprintf(si->cmdline, sizeof(si->cmdline), "root=/dev/vda1 quiet mitigations=off x=%d", k);
	snprintf(si->preempt, sizeof(si->preempt), "dynamic(full)");
	snprintf(si->cpu_model, sizeof(si->cpu_model), "AMD EPYC 7763 64-Core Processor");
	si->ncpus = 64 + (unsigned)k;
	si->ram_bytes = (256ULL << 30) + (uint64_t)k;
	si->swap_bytes = UINT64_MAX - (uint64_t)k; /* past INT64_MAX */
	si->mem_available = (200ULL << 30) + (uint64_t)k;
	snprintf(si->fs_type, sizeof(si->fs_type), "ext4");
	snprintf(si->fs_source, sizeof(si->fs_source), "/dev/vda%d", k);
	snprintf(si->block_dev, sizeof(si->block_dev), "vda");
	snprintf(si->iosched, sizeof(si->iosched), "mq-deadline");
	si->nsysctl = 3;
	snprintf(si->sysctl[0].name, sizeof(si->sysctl[0].name), "vm.swappiness");
	snprintf(si->sysctl[0].value, sizeof(si->sysctl[0].value), "%d", 60 + k);
	snprintf(si->sysctl[1].name, sizeof(si->sysctl[1].name), "net.ipv4.tcp_rmem");
	snprintf(si->sysctl[1].value, sizeof(si->sysctl[1].value), "4096\t131072\t6291456");
	snprintf(si->sysctl[2].name, sizeof(si->sysctl[2].name), "kernel.sched_latency_ns");
	snprintf(si->sysctl[2].value, sizeof(si->sysctl[2].value), "a=b=c");
	snprintf(si->fingerprint, sizeof(si->fingerprint), "%016llx",
		 0x0123456789abcdefULL + (unsigned long long)k);
}

static void assert_sysinfo_equal(const struct ct_sysinfo *a, const struct ct_sysinfo *b)
{
	assert_string_equal(a->kernel_release, b->kernel_release);
	assert_string_equal(a->kernel_version, b->kernel_version);
	assert_string_equal(a->cmdline, b->cmdline);
	assert_string_equal(a->preempt, b->preempt);
	assert_string_equal(a->cpu_model, b->cpu_model);
	assert_int_equal(a->ncpus, b->ncpus);
	assert_true(a->ram_bytes == b->ram_bytes);
	assert_true(a->swap_bytes == b->swap_bytes);
	assert_true(a->mem_available == b->mem_available);
	assert_string_equal(a->fs_type, b->fs_type);
	assert_string_equal(a->fs_source, b->fs_source);
	assert_string_equal(a->block_dev, b->block_dev);
	assert_string_equal(a->iosched, b->iosched);
	assert_int_equal(a->nsysctl, b->nsysctl);
	for (unsigned i = 0; i < a->nsysctl; i++) {
		assert_string_equal(a->sysctl[i].name, b->sysctl[i].name);
		assert_string_equal(a->sysctl[i].value, b->sysctl[i].value);
	}
	assert_string_equal(a->fingerprint, b->fingerprint);
}

/* Every field distinct per k, with negative and past-INT64_MAX values. */
static void fill_run(struct ct_run *r, int64_t session, int64_t config, const char *load,
		     enum ct_run_status status, int k)
{
	memset(r, 0, sizeof(*r));
	r->session_id = session;
	r->config_id = config;
	snprintf(r->workload, sizeof(r->workload), "kbuild");
	snprintf(r->load, sizeof(r->load), "%s", load);
	r->seq = UINT_MAX - (unsigned)k;
	r->status = status;
	if (status != CT_RUN_OK)
		snprintf(r->reason, sizeof(r->reason),
			 "load 'io' died: killed by signal %d \xe2\x80\x94 oom", k);
	r->started_at = 1767225600LL * 1000000000LL + k;
	r->wall_ns = 191460000000LL + k;
	r->user_us = -(int64_t)k * 1000 - 7; /* raw, even if nonsense */
	r->sys_us = INT64_MAX - k;
	r->exit_code = status == CT_RUN_OK ? 0 : 128 + k;
	r->load_work = UINT64_MAX - (uint64_t)k;
	r->load_unit_scale = 1048576.0 / 3.0 * k;
	r->load_user_us = INT64_MIN + k;
	r->load_sys_us = 123456789LL * k;
	snprintf(r->workload_params, sizeof(r->workload_params),
		 "files=160 scale='1.%02d' \"q\"; DROP TABLE runs; --", k);
	snprintf(r->load_params, sizeof(r->load_params), "file=%d.0GiB", k);
	r->mon.have_psi = k % 2;
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 2; j++)
			r->mon.psi_us[i][j] = 1000 * k + 10 * i + j;
	r->mon.steal_us = -(int64_t)k;
	r->mon.foreign_cpu_us = 5000 + k;
	r->mon.majflt = 6000 + k;
	r->mon.pswpin = 7000 + k;
	r->mon.sectors_read = INT64_MIN + 1 + k;
	r->mon.sectors_written = (int64_t)(UINT64_MAX - 3); /* a wrapped uint64 */
	r->block = 1000u + (unsigned)k;
	/* metrics whose text a float printer would round */
	assert_int_equal(ct_run_metric_set(r, "tps", 1374.2 + k / 3.0), 0);
	assert_int_equal(ct_run_metric_set(r, "lat_p99_us", 1e-300 * k), 0);
	if (k % 2)
		assert_int_equal(ct_run_metric_set(r, "x_2", -1.5e300), 0);
}

static void assert_run_equal(const struct ct_run *a, const struct ct_run *b)
{
	assert_int_equal(a->id, b->id);
	assert_int_equal(a->session_id, b->session_id);
	assert_int_equal(a->config_id, b->config_id);
	assert_string_equal(a->label, b->label);
	assert_string_equal(a->workload, b->workload);
	assert_string_equal(a->load, b->load);
	assert_int_equal(a->seq, b->seq);
	assert_int_equal(a->status, b->status);
	assert_string_equal(a->reason, b->reason);
	assert_true(a->started_at == b->started_at);
	assert_true(a->wall_ns == b->wall_ns);
	assert_true(a->user_us == b->user_us);
	assert_true(a->sys_us == b->sys_us);
	assert_int_equal(a->exit_code, b->exit_code);
	assert_true(a->load_work == b->load_work);
	assert_true(a->load_unit_scale == b->load_unit_scale);
	assert_true(a->load_user_us == b->load_user_us);
	assert_true(a->load_sys_us == b->load_sys_us);
	assert_string_equal(a->workload_params, b->workload_params);
	assert_string_equal(a->load_params, b->load_params);
	assert_int_equal(a->mon.have_psi, b->mon.have_psi);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 2; j++)
			assert_true(a->mon.psi_us[i][j] == b->mon.psi_us[i][j]);
	assert_true(a->mon.steal_us == b->mon.steal_us);
	assert_true(a->mon.foreign_cpu_us == b->mon.foreign_cpu_us);
	assert_true(a->mon.majflt == b->mon.majflt);
	assert_true(a->mon.pswpin == b->mon.pswpin);
	assert_true(a->mon.sectors_read == b->mon.sectors_read);
	assert_true(a->mon.sectors_written == b->mon.sectors_written);
	assert_int_equal(a->block, b->block);
	assert_int_equal(a->nmetrics, b->nmetrics);
	for (unsigned i = 0; i < a->nmetrics; i++) {
		double v;

		assert_int_equal(ct_run_metric(b, a->metrics[i].name, &v), 0);
		assert_true(v == a->metrics[i].value); /* bit for bit */
	}
}

/* Each named column of the stored row holds the raw member it should; a
 * store that swapped two columns would still round-trip, so read by name. */
static void assert_raw_run(sqlite3 *db, const struct ct_run *r)
{
	static const char *const ints[] = {
		"session_id",	   "config_id",	      "seq",
		"started_at",	   "wall_ns",	      "user_us",
		"sys_us",	   "exit_code",	      "load_work",
		"load_user_us",	   "load_sys_us",     "have_psi",
		"psi_cpu_some_us", "psi_cpu_full_us", "psi_io_some_us",
		"psi_io_full_us",  "psi_mem_some_us", "psi_mem_full_us",
		"steal_us",	   "foreign_cpu_us",  "majflt",
		"pswpin",	   "sectors_read",    "sectors_written",
		"block",
	};
	const int64_t want[] = {
		r->session_id,
		r->config_id,
		r->seq,
		r->started_at,
		r->wall_ns,
		r->user_us,
		r->sys_us,
		r->exit_code,
		(int64_t)r->load_work,
		r->load_user_us,
		r->load_sys_us,
		r->mon.have_psi,
		r->mon.psi_us[0][0],
		r->mon.psi_us[0][1],
		r->mon.psi_us[1][0],
		r->mon.psi_us[1][1],
		r->mon.psi_us[2][0],
		r->mon.psi_us[2][1],
		r->mon.steal_us,
		r->mon.foreign_cpu_us,
		r->mon.majflt,
		r->mon.pswpin,
		r->mon.sectors_read,
		r->mon.sectors_written,
		r->block,
	};
	static const char *const texts[] = { "workload",	"load",	      "status", "reason",
					     "workload_params", "load_params" };
	const char *want_text[] = {
		r->workload,	    r->load,	   ct_run_status_name(r->status), r->reason,
		r->workload_params, r->load_params
	};
	char sql[128], buf[512];

	for (size_t i = 0; i < CT_ARRAY_SIZE(ints); i++) {
		snprintf(sql, sizeof(sql), "SELECT %s FROM runs WHERE id = %lld", ints[i],
			 (long long)r->id);
		if (raw_int(db, sql) != want[i])
			fail_msg("column %s: %lld, want %lld", ints[i], (long long)raw_int(db, sql),
				 (long long)want[i]);
	}
	for (size_t i = 0; i < CT_ARRAY_SIZE(texts); i++) {
		snprintf(sql, sizeof(sql), "SELECT %s FROM runs WHERE id = %lld", texts[i],
			 (long long)r->id);
		raw_text(db, sql, buf, sizeof(buf));
		assert_string_equal(buf, want_text[i]);
	}
	snprintf(sql, sizeof(sql), "SELECT load_unit_scale * 1000000 FROM runs WHERE id = %lld",
		 (long long)r->id);
	assert_int_equal(raw_int(db, sql), (int64_t)(r->load_unit_scale * 1000000));
}

static void assert_raw_config(sqlite3 *db, int64_t id, const char *label,
			      const struct ct_sysinfo *si)
{
	static const char *const texts[] = { "label",	       "fingerprint", "kernel_release",
					     "kernel_version", "cmdline",     "preempt",
					     "cpu_model",      "fs_type",     "fs_source",
					     "block_dev",      "iosched",     "sysctls" };
	const char *want_text[] = { label,
				    si->fingerprint,
				    si->kernel_release,
				    si->kernel_version,
				    si->cmdline,
				    si->preempt,
				    si->cpu_model,
				    si->fs_type,
				    si->fs_source,
				    si->block_dev,
				    si->iosched,
				    "vm.swappiness=61\n"
				    "net.ipv4.tcp_rmem=4096\t131072\t6291456\n"
				    "kernel.sched_latency_ns=a=b=c\n" };
	static const char *const ints[] = { "ncpus", "ram_bytes", "swap_bytes", "mem_available" };
	const int64_t want[] = { si->ncpus, (int64_t)si->ram_bytes, (int64_t)si->swap_bytes,
				 (int64_t)si->mem_available };
	char sql[128], buf[1200];

	for (size_t i = 0; i < CT_ARRAY_SIZE(texts); i++) {
		snprintf(sql, sizeof(sql), "SELECT %s FROM configs WHERE id = %lld", texts[i],
			 (long long)id);
		raw_text(db, sql, buf, sizeof(buf));
		assert_string_equal(buf, want_text[i]);
	}
	for (size_t i = 0; i < CT_ARRAY_SIZE(ints); i++) {
		snprintf(sql, sizeof(sql), "SELECT %s FROM configs WHERE id = %lld", ints[i],
			 (long long)id);
		assert_int_equal(raw_int(db, sql), want[i]);
	}
}

static int64_t put_config(struct ct_store *s, const char *label, int k)
{
	char err[CT_ERRLEN] = "";
	struct ct_sysinfo si;
	int64_t id = 0;

	fill_sysinfo(&si, k);
	assert_int_equal(ct_store_config_put(s, label, &si, &id, err, sizeof(err)), 0);
	assert_true(id > 0);
	return id;
}

static int64_t begin_session(struct ct_store *s, int64_t config, const char *argv)
{
	char err[CT_ERRLEN] = "";
	struct ct_session_rec rec;

	memset(&rec, 0, sizeof(rec));
	rec.config_id = config;
	snprintf(rec.argv, sizeof(rec.argv), "%s", argv);
	snprintf(rec.workload, sizeof(rec.workload), "kbuild");
	snprintf(rec.profile, sizeof(rec.profile), "quick");
	assert_int_equal(ct_store_session_begin(s, &rec, err, sizeof(err)), 0);
	assert_true(rec.id > 0);
	assert_int_equal(rec.status, CT_SESSION_RUNNING);
	return rec.id;
}

static void put_run(struct ct_store *s, struct ct_run *r)
{
	char err[CT_ERRLEN] = "";
	int rc = ct_store_run_put(s, r, err, sizeof(err));

	if (rc)
		print_error("ct_store_run_put: %s\n", err);
	assert_int_equal(rc, 0);
	assert_true(r->id > 0);
}

/* Runs matching f must be exactly want[0..nwant-1], in that order. */
static void expect_runs(struct ct_store *s, const struct ct_run_filter *f,
			const struct ct_run *want, const int *idx, size_t nwant)
{
	char err[CT_ERRLEN] = "";
	struct ct_run *got = NULL;
	size_t n = 99;

	assert_int_equal(ct_store_runs(s, f, &got, &n, err, sizeof(err)), 0);
	assert_int_equal(n, nwant);
	for (size_t i = 0; i < n; i++)
		assert_run_equal(&got[i], &want[idx[i]]);
	if (!n)
		assert_null(got);
	free(got);
}

static void test_round_trip(void **state)
{
	char err[CT_ERRLEN] = "", label[128];
	struct ct_store *s = open_ok(path_of("new/parent/dirs/rt.db"));
	struct ct_sysinfo si, back;
	struct ct_run runs[6], bad;
	int64_t c1, c2, c3, id, s1, s2;

	c1 = put_config(s, "rc3", 1);
	assert_int_equal(put_config(s, "rc3", 1), c1); /* same (label, fingerprint) */
	c2 = put_config(s, "rc3", 2);		       /* new fingerprint */
	c3 = put_config(s, "6.18.44", 1);	       /* same facts, new label */
	assert_true(c1 != c2 && c2 != c3 && c1 != c3);

	fill_sysinfo(&si, 2);
	assert_int_equal(ct_store_config_get(s, c2, label, sizeof(label), &back, err, sizeof(err)),
			 0);
	assert_string_equal(label, "rc3");
	assert_sysinfo_equal(&back, &si);
	assert_int_equal(
		ct_store_config_get(s, 9999, label, sizeof(label), &back, err, sizeof(err)),
		-ENOENT);
	si.fingerprint[0] = '\0';
	assert_int_equal(ct_store_config_put(s, "rc3", &si, &id, err, sizeof(err)), -EINVAL);

	s1 = begin_session(s, c1, "contend run -L rc3");
	s2 = begin_session(s, c3, "contend run -L 6.18.44");
	fill_run(&runs[0], s1, c1, "none", CT_RUN_OK, 1);
	fill_run(&runs[1], s1, c1, "io", CT_RUN_FAILED, 2);
	fill_run(&runs[2], s1, c2, "io", CT_RUN_OK, 3);
	fill_run(&runs[3], s1, c3, "none", CT_RUN_INTERRUPTED, 4);
	fill_run(&runs[4], s2, c1, "io", CT_RUN_OK, 5);
	fill_run(&runs[5], s2, c3, "mem", CT_RUN_OK, 6);
	/* text exactly filling its array survives whole */
	memset(runs[5].workload_params, 'w', sizeof(runs[5].workload_params) - 1);
	memset(runs[5].reason, 'r', sizeof(runs[5].reason) - 1);
	for (int i = 0; i < 6; i++) {
		put_run(s, &runs[i]);
		if (i)
			assert_true(runs[i].id > runs[i - 1].id);
		snprintf(runs[i].label, sizeof(runs[i].label), "%s",
			 runs[i].config_id == c3 ? "6.18.44" : "rc3");
	}

	{
		const int all[] = { 0, 1, 2, 3, 4, 5 };
		const int rc3[] = { 0, 1, 2, 4 };
		const int io[] = { 1, 2, 4 };
		const int ok[] = { 0, 2, 4, 5 };
		const int sess2[] = { 4, 5 };
		const int rc3_io_ok[] = { 2, 4 };
		const int params[] = { 2 };
		struct ct_run_filter f = { 0 };

		expect_runs(s, NULL, runs, all, 6);
		expect_runs(s, &f, runs, all, 6);
		f.label = "rc3";
		expect_runs(s, &f, runs, rc3, 4);
		f.label = NULL;
		f.load = "io";
		expect_runs(s, &f, runs, io, 3);
		f.load = NULL;
		f.ok_only = true;
		expect_runs(s, &f, runs, ok, 4);
		f.ok_only = false;
		f.session_id = s2;
		expect_runs(s, &f, runs, sess2, 2);
		f = (struct ct_run_filter){ .label = "rc3", .load = "io", .ok_only = true };
		expect_runs(s, &f, runs, rc3_io_ok, 2);
		f = (struct ct_run_filter){ .workload = "kbuild",
					    .workload_params = runs[2].workload_params };
		expect_runs(s, &f, runs, params, 1);
		f = (struct ct_run_filter){ .workload = "oltp" };
		expect_runs(s, &f, runs, NULL, 0);
		f = (struct ct_run_filter){ .label = "rc3'; --" };
		expect_runs(s, &f, runs, NULL, 0);
	}

	/* a run of a config that does not exist is refused whole */
	fill_run(&bad, s1, 9999, "none", CT_RUN_OK, 7);
	assert_int_equal(ct_store_run_put(s, &bad, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, path_of("new/parent/dirs/rt.db")));
	assert_int_equal(bad.id, 0);
	fill_run(&bad, s1, c1, "none", (enum ct_run_status)7, 7);
	assert_int_equal(ct_store_run_put(s, &bad, err, sizeof(err)), -EINVAL);
	{
		const int all[] = { 0, 1, 2, 3, 4, 5 };

		expect_runs(s, NULL, runs, all, 6);
	}
	ct_store_close(s);

	if (pg) {
		PGconn *c = pg_connect(path_of("new/parent/dirs/rt.db"));

		/* raw values as stored, u64 past INT64_MAX wrapped */
		assert_int_equal(pg_int(c, "SELECT count(*) FROM runs"), 6);
		assert_int_equal(pg_int(c, "SELECT sum(wall_ns) FROM runs"),
				 runs[0].wall_ns + runs[1].wall_ns + runs[2].wall_ns +
					 runs[3].wall_ns + runs[4].wall_ns + runs[5].wall_ns);
		assert_int_equal(pg_int(c, "SELECT count(*) FROM runs WHERE status = 'ok'"), 4);
		assert_int_equal(pg_int(c, "SELECT min(swap_bytes) FROM configs"), -3);
		PQfinish(c);
	} else {
		sqlite3 *db = raw_open(path_of("new/parent/dirs/rt.db"));

		for (int i = 0; i < 6; i++)
			assert_raw_run(db, &runs[i]);
		fill_sysinfo(&si, 1);
		assert_raw_config(db, c1, "rc3", &si);
		assert_raw_config(db, c3, "6.18.44", &si);
		sqlite3_close(db);
	}
}

/* 8-4-4-4-12 lower-case hex digits, version 4, RFC 4122's variant */
static bool is_uuid4(const char *u)
{
	if (strlen(u) != 36 || u[14] != '4' || !strchr("89ab", u[19]))
		return false;
	for (int i = 0; i < 36; i++)
		if (i == 8 || i == 13 || i == 18 || i == 23 ? u[i] != '-'
							    : !strchr("0123456789abcdef", u[i]))
			return false;
	return true;
}

/* Each session gets a UUID of its own and the host that ran it. */
static void test_session_uuid(void **state)
{
	char err[CT_ERRLEN] = "";
	struct ct_store *s = open_ok(path_of("uuid.db"));
	struct ct_session_rec *list = NULL;
	struct utsname u;
	size_t n = 0;

	(void)state;
	for (int i = 0; i < 50; i++) {
		struct ct_session_rec rec;

		memset(&rec, 0, sizeof(rec));
		ct_owner_self(&rec.owner);
		snprintf(rec.workload, sizeof(rec.workload), "kbuild");
		assert_int_equal(ct_store_session_begin(s, &rec, err, sizeof(err)), 0);
		assert_true(is_uuid4(rec.uuid));
	}
	assert_int_equal(ct_store_sessions(s, NULL, &list, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 50);
	assert_int_equal(uname(&u), 0);
	for (size_t i = 0; i < n; i++) {
		assert_true(is_uuid4(list[i].uuid));
		assert_string_equal(list[i].owner.host, u.nodename);
		for (size_t k = 0; k < i; k++)
			assert_string_not_equal(list[k].uuid, list[i].uuid);
	}
	free(list);
	ct_store_close(s);
}

/* A stored session of label, workload, host, machine id, start and
 * status, with one ok run of params. */
static int64_t filter_session(struct ct_store *s, const char *label, const char *workload,
			      const char *host, const char *machine, int64_t start,
			      enum ct_session_status status, const char *params, int64_t group,
			      const char *commit)
{
	char err[CT_ERRLEN] = "";
	struct ct_session_rec rec = { .started_at = start, .group_id = group };
	struct ct_run r;
	int64_t cfg = put_config(s, label, 7);

	rec.config_id = cfg;
	snprintf(rec.workload, sizeof(rec.workload), "%s", workload);
	snprintf(rec.owner.host, sizeof(rec.owner.host), "%s", host);
	snprintf(rec.owner.machine, sizeof(rec.owner.machine), "%s", machine);
	snprintf(rec.commit, sizeof(rec.commit), "%s", commit);
	assert_int_equal(ct_store_session_begin(s, &rec, err, sizeof(err)), 0);
	fill_run(&r, rec.id, cfg, "none", CT_RUN_OK, 1);
	snprintf(r.workload, sizeof(r.workload), "%s", workload);
	snprintf(r.workload_params, sizeof(r.workload_params), "%s", params);
	put_run(s, &r);
	if (status != CT_SESSION_RUNNING)
		assert_int_equal(ct_store_session_end(s, rec.id, status, err, sizeof(err)), 0);
	return rec.id;
}

/* The ids f gives, in the order given, must be want (0-terminated). */
static void expect_sessions(struct ct_store *s, const struct ct_session_filter *f,
			    const int64_t *want)
{
	char err[CT_ERRLEN] = "";
	struct ct_session_rec *got = NULL;
	size_t n = 99, k = 0;

	assert_int_equal(ct_store_sessions(s, f, &got, &n, err, sizeof(err)), 0);
	while (want[k])
		k++;
	if (n != k)
		fail_msg("%zu sessions, %zu expected", n, k);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(got[i].id, want[i]);
	free(got);
}

/* Sessions as a queried entity: each field of the filter alone and
 * together, by id descending, and the rules of newer and same machine. */
static void test_session_filter(void **state)
{
	struct ct_store *s = open_ok(path_of("filter.db"));
	const int64_t t0 = 1767225600LL * 1000000000LL, h = 3600LL * 1000000000LL;
	int64_t a, b, c, d, e;

	(void)state;
	a = filter_session(s, "6.18-a", "kbuild", "alpha", "0123456789ab", t0, CT_SESSION_COMPLETE,
			   "files=160", 0, "");
	b = filter_session(s, "6.18-b", "kbuild", "beta", "fedcba987654", t0 + h,
			   CT_SESSION_INTERRUPTED, "files=160", 0, "abc");
	c = filter_session(s, "6.19", "cmd", "alpha", "0123456789ab", t0 + 2 * h,
			   CT_SESSION_COMPLETE, "argv=true", a, "");
	d = filter_session(s, "6.18-a", "kbuild", "gamma", "", t0 + 3 * h, CT_SESSION_RUNNING,
			   "files=80", a, "def");
	/* copied from another store: a later id, an earlier start */
	e = filter_session(s, "6.18-b", "kbuild", "beta", "fedcba987654", t0 - h,
			   CT_SESSION_COMPLETE, "files=160", 0, "");
	expect_sessions(s, NULL, (const int64_t[]){ e, d, c, b, a, 0 });
	expect_sessions(s, &(struct ct_session_filter){ .label = "6.18-a" },
			(const int64_t[]){ d, a, 0 });
	expect_sessions(s, &(struct ct_session_filter){ .label_glob = "6.18-*" },
			(const int64_t[]){ e, d, b, a, 0 });
	expect_sessions(s, &(struct ct_session_filter){ .label_glob = "6.1[89]" },
			(const int64_t[]){ c, 0 });
	expect_sessions(s, &(struct ct_session_filter){ .machine = "alpha" },
			(const int64_t[]){ c, a, 0 });
	expect_sessions(s, &(struct ct_session_filter){ .machine = "fedc" },
			(const int64_t[]){ e, b, 0 });
	/* fewer than 4 digits of a machine id name nothing */
	expect_sessions(s, &(struct ct_session_filter){ .machine = "fed" }, (const int64_t[]){ 0 });
	expect_sessions(s, &(struct ct_session_filter){ .workload = "cmd" },
			(const int64_t[]){ c, 0 });
	expect_sessions(s, &(struct ct_session_filter){ .params = "files=160" },
			(const int64_t[]){ e, b, a, 0 });
	expect_sessions(s, &(struct ct_session_filter){ .since = t0 + h },
			(const int64_t[]){ d, c, b, 0 });
	expect_sessions(s, &(struct ct_session_filter){ .group_id = a },
			(const int64_t[]){ d, c, 0 });
	expect_sessions(s, &(struct ct_session_filter){ .with_commit = true },
			(const int64_t[]){ d, b, 0 });
	expect_sessions(
		s, &(struct ct_session_filter){ .status = CT_SESSION_ONLY(CT_SESSION_COMPLETE) },
		(const int64_t[]){ e, c, a, 0 });
	expect_sessions(
		s,
		&(struct ct_session_filter){ .status = CT_SESSION_ONLY(CT_SESSION_RUNNING) |
						       CT_SESSION_ONLY(CT_SESSION_INTERRUPTED) },
		(const int64_t[]){ d, b, 0 });
	expect_sessions(s,
			&(struct ct_session_filter){
				.labels = (const char *const[]){ "6.19", "6.18-b" }, .nlabels = 2 },
			(const int64_t[]){ e, c, b, 0 });
	expect_sessions(s, &(struct ct_session_filter){ .limit = 2 }, (const int64_t[]){ e, d, 0 });
	{
		/* a bisection's step measured a's group (a, then c and d in
		 * it) and, in a second sitting not linked yet, nothing: those
		 * are no nights of a history */
		struct ct_bisection bi = { .mode = CT_BISECTION_RUN };
		struct ct_bisect_step st = { .role = CT_ROLE_CANDIDATE }, none;
		char err[CT_ERRLEN] = "";

		snprintf(bi.repo, sizeof(bi.repo), "/repo");
		assert_int_equal(ct_store_bisection_put(s, &bi, err, sizeof(err)), 0);
		st.bisection_id = bi.id;
		none = st;
		st.session_id = a;
		none.seq = 1;
		assert_int_equal(ct_store_bisect_step_put(s, &st, err, sizeof(err)), 0);
		assert_int_equal(ct_store_bisect_step_put(s, &none, err, sizeof(err)), 0);
		expect_sessions(s, &(struct ct_session_filter){ .no_bisect = true },
				(const int64_t[]){ e, b, 0 });
	}
	/* the limit counts what the filter kept, in SQL or after it */
	expect_sessions(s, &(struct ct_session_filter){ .machine = "beta", .limit = 1 },
			(const int64_t[]){ e, 0 });
	expect_sessions(s,
			&(struct ct_session_filter){ .label_glob = "6.18-?",
						     .workload = "kbuild",
						     .params = "files=160",
						     .status = CT_SESSION_ONLY(CT_SESSION_COMPLETE),
						     .machine = "fedcba98" },
			(const int64_t[]){ e, 0 });
	{
		struct ct_session_rec *l = NULL;
		struct ct_run_value *v = NULL;
		struct ct_run r;
		char err[CT_ERRLEN] = "";
		size_t n = 0;
		int64_t failed;

		assert_int_equal(ct_store_sessions(s, NULL, &l, &n, err, sizeof(err)), 0);
		/* newer: the later start, not the later id */
		assert_true(ct_store_session_newer(&l[3], &l[0]));  /* b against e */
		assert_false(ct_store_session_newer(&l[0], &l[4])); /* e against a */
		assert_true(ct_store_session_of(l, n, c) == &l[2]);
		assert_null(ct_store_session_of(l, n, e + 1));
		assert_null(ct_store_session_of(l, n, 0));
		/* the same machine: by machine id when either has one */
		assert_true(ct_owner_same_machine(&l[0].owner, &l[3].owner));
		assert_false(ct_owner_same_machine(&l[1].owner, &l[4].owner));
		free(l);
		/* a session whose one run failed has no ok run; counted, it
		 * has one run and one not ok */
		failed = begin_session(s, put_config(s, "6.20", 7), "contend run -L 6.20");
		fill_run(&r, failed, put_config(s, "6.20", 7), "io", CT_RUN_FAILED, 3);
		put_run(s, &r);
		expect_sessions(s, &(struct ct_session_filter){ .with_ok_runs = true },
				(const int64_t[]){ e, d, c, b, a, 0 });
		assert_int_equal(ct_store_sessions(s,
						   &(struct ct_session_filter){ .label = "6.20",
										.counts = true },
						   &l, &n, err, sizeof(err)),
				 0);
		assert_int_equal(n, 1);
		assert_int_equal(l[0].nruns, 1);
		assert_int_equal(l[0].nfailed, 1);
		free(l);
		/* without counts, nothing is counted */
		assert_int_equal(ct_store_sessions(s,
						   &(struct ct_session_filter){ .label = "6.20" },
						   &l, &n, err, sizeof(err)),
				 0);
		assert_int_equal(n, 1);
		assert_int_equal(l[0].nruns, 0);
		free(l);
		/* the values of runs: the judged figure, its session, load and
		 * block */
		assert_int_equal(ct_store_run_values(s,
						     &(struct ct_run_filter){ .workload = "cmd",
									      .ok_only = true },
						     &v, &n, err, sizeof(err)),
				 0);
		assert_int_equal(n, 1);
		assert_int_equal(v[0].session_id, c);
		assert_string_equal(v[0].load, "none");
		/* its tps: the figure ct_run_value() judges by, from the metrics */
		assert_true(fabs(v[0].value - (1374.2 + 1 / 3.0)) < 1e-9);
		assert_int_equal(v[0].block, 1001);
		free(v);
	}
	ct_store_close(s);
}

static void test_sessions(void **state)
{
	char err[CT_ERRLEN] = "";
	struct ct_store *s = open_ok(path_of("sessions.db"));
	struct ct_session_rec *list = NULL;
	struct ct_run r;
	int64_t c1, c2, a, b, c;
	size_t n = 0;

	c1 = put_config(s, "rc3", 1);
	c2 = put_config(s, "6.18.44", 2);
	a = begin_session(s, c1, "contend run -L rc3 -n 3");
	b = begin_session(s, c2, "contend run -L 6.18.44");
	c = begin_session(s, 0, "contend run --vary iosched=bfq,mq-deadline");
	fill_run(&r, a, c1, "none", CT_RUN_OK, 1);
	put_run(s, &r);
	fill_run(&r, a, c1, "io", CT_RUN_FAILED, 2);
	put_run(s, &r);
	fill_run(&r, a, c1, "io", CT_RUN_OK, 3);
	put_run(s, &r);
	fill_run(&r, b, c2, "none", CT_RUN_INTERRUPTED, 4);
	put_run(s, &r);
	assert_int_equal(ct_store_session_end(s, a, CT_SESSION_COMPLETE, err, sizeof(err)), 0);
	assert_int_equal(ct_store_session_end(s, b, CT_SESSION_INTERRUPTED, err, sizeof(err)), 0);
	assert_int_equal(ct_store_session_end(s, b, CT_SESSION_RUNNING, err, sizeof(err)), -EINVAL);
	assert_int_equal(ct_store_session_end(s, b, CT_SESSION_NSTATUS, err, sizeof(err)), -EINVAL);
	assert_int_equal(ct_store_session_end(s, 9999, CT_SESSION_COMPLETE, err, sizeof(err)),
			 -ENOENT);

	assert_int_equal(ct_store_sessions(s, &(struct ct_session_filter){ .counts = true }, &list,
					   &n, err, sizeof(err)),
			 0);
	assert_int_equal(n, 3);
	assert_int_equal(list[0].id, c);
	assert_int_equal(list[1].id, b);
	assert_int_equal(list[2].id, a);

	assert_int_equal(list[0].status, CT_SESSION_RUNNING);
	assert_int_equal(list[0].config_id, 0);
	assert_string_equal(list[0].label, "");
	assert_string_equal(list[0].argv, "contend run --vary iosched=bfq,mq-deadline");
	assert_int_equal(list[0].nruns, 0);
	assert_int_equal(list[0].nfailed, 0);
	assert_int_equal(list[0].ended_at, 0);

	assert_int_equal(list[1].status, CT_SESSION_INTERRUPTED);
	assert_string_equal(list[1].label, "6.18.44");
	assert_int_equal(list[1].config_id, c2);
	assert_int_equal(list[1].nruns, 1);
	assert_int_equal(list[1].nfailed, 1);

	assert_int_equal(list[2].status, CT_SESSION_COMPLETE);
	assert_string_equal(list[2].label, "rc3");
	assert_string_equal(list[2].argv, "contend run -L rc3 -n 3");
	assert_string_equal(list[2].workload, "kbuild");
	assert_string_equal(list[2].profile, "quick");
	assert_int_equal(list[2].nruns, 3);
	assert_int_equal(list[2].nfailed, 1);
	assert_true(list[2].started_at > 0);
	assert_true(list[2].ended_at >= list[2].started_at);
	free(list);

	assert_int_equal(ct_store_sessions(s, &(struct ct_session_filter){ .limit = 2 }, &list, &n,
					   err, sizeof(err)),
			 0);
	assert_int_equal(n, 2);
	assert_int_equal(list[0].id, c);
	assert_int_equal(list[1].id, b);
	free(list);

	/* the sessions of one --vary run: the first is the group, the order
	 * and a seed past INT64_MAX come back */
	{
		struct ct_session_rec g1 = { 0 }, g2 = { 0 };

		g1.config_id = g2.config_id = c1;
		snprintf(g1.order, sizeof(g1.order), "interleaved");
		snprintf(g2.order, sizeof(g2.order), "interleaved");
		g1.order_seed = g2.order_seed = UINT64_MAX - 5;
		assert_int_equal(ct_store_session_begin(s, &g1, err, sizeof(err)), 0);
		assert_int_equal(g1.group_id, g1.id);
		g2.group_id = g1.id;
		assert_int_equal(ct_store_session_begin(s, &g2, err, sizeof(err)), 0);
		assert_int_equal(ct_store_sessions(s,
						   &(struct ct_session_filter){ .group_id = g1.id },
						   &list, &n, err, sizeof(err)),
				 0);
		assert_int_equal(n, 2);
		assert_int_equal(list[0].id, g2.id);
		assert_int_equal(list[0].group_id, g1.id);
		assert_int_equal(list[1].group_id, g1.id);
		assert_string_equal(list[1].order, "interleaved");
		assert_true(list[1].order_seed == UINT64_MAX - 5);
		free(list);
	}
	ct_store_close(s);
}

/* A calibration comes back whole, the latest of its config label,
 * workload, parameters and load; another label, load or parameters have
 * none (-ENOENT, no message). */
static void test_calibration(void **state)
{
	static const double v1[] = { 1.25, 1.5, 1.125 }, v2[] = { 2, 2.5, 2.25, 2.75 };
	char err[CT_ERRLEN] = "";
	struct ct_store *s = open_ok(path_of("calib.db"));
	struct ct_calibration c = { 0 }, got;
	int64_t cfg = put_config(s, "rc3", 1), first;

	(void)state;
	c.config_id = cfg;
	c.session_id = 7;
	c.created_at = 1234567890123;
	snprintf(c.workload, sizeof(c.workload), "selftest");
	snprintf(c.workload_params, sizeof(c.workload_params), "mode=sleep seconds=0.20");
	snprintf(c.load, sizeof(c.load), "none");
	c.values = (double *)v1;
	c.n = CT_ARRAY_SIZE(v1);
	assert_int_equal(ct_store_calibration_put(s, &c, err, sizeof(err)), 0);
	first = c.id;
	c.values = (double *)v2;
	c.n = CT_ARRAY_SIZE(v2);
	c.higher_better = true;
	assert_int_equal(ct_store_calibration_put(s, &c, err, sizeof(err)), 0);
	assert_true(c.id > first);
	assert_int_equal(ct_store_calibration_get(s, "rc3", "selftest", "mode=sleep seconds=0.20",
						  "none", &got, err, sizeof(err)),
			 0);
	assert_int_equal(got.id, c.id);
	assert_int_equal(got.config_id, cfg);
	assert_int_equal(got.session_id, 7);
	assert_int_equal(got.created_at, 1234567890123);
	assert_true(got.higher_better);
	assert_int_equal(got.n, CT_ARRAY_SIZE(v2));
	for (size_t i = 0; i < got.n; i++)
		assert_true(got.values[i] == v2[i]);
	free(got.values);
	err[0] = '\0';
	assert_int_equal(ct_store_calibration_get(s, "rc4", "selftest", "mode=sleep seconds=0.20",
						  "none", &got, err, sizeof(err)),
			 -ENOENT);
	assert_int_equal(ct_store_calibration_get(s, "rc3", "selftest", "mode=sleep seconds=0.20",
						  "io", &got, err, sizeof(err)),
			 -ENOENT);
	assert_int_equal(ct_store_calibration_get(s, "rc3", "selftest", "mode=spin seconds=0.20",
						  "none", &got, err, sizeof(err)),
			 -ENOENT);
	assert_string_equal(err, "");
	/* any parameters: the latest, with the parameters it was made with */
	assert_int_equal(ct_store_calibration_get(s, "rc3", "selftest", NULL, "none", &got, err,
						  sizeof(err)),
			 0);
	assert_int_equal(got.id, c.id);
	assert_string_equal(got.workload_params, "mode=sleep seconds=0.20");
	free(got.values);
	ct_store_close(s);
}

/* The host's references of a session: figures back exactly, a missing one
 * (NaN, stored NULL) back as NaN, in seq order, each session its own; one
 * (session, seq) once; copied with their session into another store. */
static void test_refs(void **state)
{
	char err[CT_ERRLEN] = "";
	struct ct_store *s = open_ok(path_of("refs.db")), *to;
	struct ct_session_rec *recs = NULL;
	struct ct_ref r, *got = NULL;
	int64_t cfg = put_config(s, "rc3", 1), sid = begin_session(s, cfg, "contend run"), to_id;
	int64_t other = begin_session(s, cfg, "contend run");
	unsigned nruns;
	size_t n = 0;

	(void)state;
	/* stored out of order: read back by seq */
	for (unsigned k = 3; k >= 1; k--) {
		memset(&r, 0, sizeof(r));
		r.session_id = sid;
		r.seq = k;
		r.taken_at = 1767225600LL * 1000000000LL + k;
		r.phase = k == 1 ? CT_REF_START : k == 3 ? CT_REF_END : CT_REF_ROUND;
		r.fig[CT_REF_CPU] = 1000.0 / 3.0 * k;
		r.fig[CT_REF_MEM] = k == 2 ? NAN : 12.5 + k;
		r.fig[CT_REF_DISK] = 0.1 * k;
		assert_int_equal(ct_store_ref_put(s, &r, err, sizeof(err)), 0);
	}
	/* seq 3 of this session is there already */
	assert_int_equal(ct_store_ref_put(s, &r, err, sizeof(err)), -EINVAL);
	assert_int_equal(ct_store_refs(s, sid, &got, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	for (unsigned k = 1; k <= 3; k++) {
		const struct ct_ref *g = &got[k - 1];

		assert_int_equal(g->session_id, sid);
		assert_int_equal(g->seq, k);
		assert_true(g->taken_at == 1767225600LL * 1000000000LL + k);
		assert_int_equal(g->phase, k == 1   ? CT_REF_START
					   : k == 3 ? CT_REF_END
						    : CT_REF_ROUND);
		assert_true(g->fig[CT_REF_CPU] == 1000.0 / 3.0 * k);
		assert_true(k == 2 ? isnan(g->fig[CT_REF_MEM]) : g->fig[CT_REF_MEM] == 12.5 + k);
		assert_true(g->fig[CT_REF_DISK] == 0.1 * k);
	}
	free(got);
	assert_int_equal(ct_store_refs(s, other, &got, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	assert_null(got);

	/* push: the session's references go with it */
	to = open_ok(path_of("refs-to.db"));
	assert_int_equal(ct_store_sessions(s, NULL, &recs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(recs[1].id, sid);
	assert_int_equal(
		ct_store_copy_session(s, to, &recs[1], 0, &to_id, &nruns, err, sizeof(err)), 0);
	assert_int_equal(ct_store_refs(to, to_id, &got, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_true(got[0].fig[CT_REF_CPU] == 1000.0 / 3.0);
	assert_true(isnan(got[1].fig[CT_REF_MEM]));
	assert_int_equal(got[2].phase, CT_REF_END);
	free(got);
	free(recs);
	ct_store_close(to);
	ct_store_close(s);
}

static void test_latest_session(void **state)
{
	char err[CT_ERRLEN] = "";
	struct ct_store *s = open_ok(path_of("latest.db"));
	int64_t c1, c2, other, s1, s2, s3, s4, s5, got;
	struct ct_run r;

	c1 = put_config(s, "rc3", 1);
	c2 = put_config(s, "rc3", 2); /* same label, other facts */
	other = put_config(s, "other", 3);

	s1 = begin_session(s, c1, "s1"); /* the reference */
	fill_run(&r, s1, c1, "none", CT_RUN_OK, 1);
	snprintf(r.workload_params, sizeof(r.workload_params), "files=160");
	put_run(s, &r);
	s2 = begin_session(s, c1, "s2"); /* later, but only failed runs */
	fill_run(&r, s2, c1, "none", CT_RUN_FAILED, 2);
	snprintf(r.workload_params, sizeof(r.workload_params), "files=160");
	put_run(s, &r);
	s3 = begin_session(s, c2, "s3"); /* later, but another load */
	fill_run(&r, s3, c2, "io", CT_RUN_OK, 3);
	snprintf(r.workload_params, sizeof(r.workload_params), "files=160");
	put_run(s, &r);
	s4 = begin_session(s, c2, "s4"); /* later, other params */
	fill_run(&r, s4, c2, "none", CT_RUN_OK, 4);
	snprintf(r.workload_params, sizeof(r.workload_params), "files=80");
	put_run(s, &r);
	s5 = begin_session(s, other, "s5"); /* latest, other label */
	fill_run(&r, s5, other, "none", CT_RUN_OK, 5);
	snprintf(r.workload_params, sizeof(r.workload_params), "files=160");
	put_run(s, &r);

#define LATEST(label, load, params)                                                            \
	(assert_int_equal(ct_store_latest_session_with(s, label, "kbuild", load, params, &got, \
						       err, sizeof(err)),                      \
			  0),                                                                  \
	 got)
	assert_int_equal(LATEST("rc3", "none", "files=160"), s1);
	assert_int_equal(LATEST("rc3", "none", "files=80"), s4);
	assert_int_equal(LATEST("rc3", "none", NULL), s4);
	assert_int_equal(LATEST("rc3", "io", "files=160"), s3);
	assert_int_equal(LATEST("other", "none", "files=160"), s5);
	assert_int_equal(LATEST("nobody", "none", "files=160"), 0);
	assert_int_equal(LATEST("rc3", "mem", NULL), 0);
#undef LATEST
	assert_int_equal(ct_store_latest_session_with(s, "rc3", "oltp", "none", NULL, &got, err,
						      sizeof(err)),
			 0);
	assert_int_equal(got, 0);
	(void)s2;
	ct_store_close(s);
}

/* A suite's text by its tag: stored once, the first text kept; a tag
 * never stored is -ENOENT; quotes and newlines come back as they went. */
static void test_suites(void **state)
{
	const char *p = path_of("suites.db");
	char err[CT_ERRLEN] = "", *text = NULL;
	struct ct_store *s = open_ok(p);
	const char *one = "; it's a suite\n[global]\nworkload = cmd\n\n[a]\ncommand = echo 'x'\n";

	(void)state;
	assert_int_equal(ct_store_suite_put(s, "s.ini/a#0000abcd", one, err, sizeof(err)), 0);
	assert_int_equal(ct_store_suite_put(s, "s.ini/a#0000abcd", "another", err, sizeof(err)), 0);
	assert_int_equal(ct_store_suite_put(s, "s.ini/b#0000abce", "b's", err, sizeof(err)), 0);
	assert_int_equal(ct_store_suite_get(s, "s.ini/a#0000abcd", &text, err, sizeof(err)), 0);
	assert_string_equal(text, one);
	free(text);
	assert_int_equal(ct_store_suite_get(s, "s.ini/b#0000abce", &text, err, sizeof(err)), 0);
	assert_string_equal(text, "b's");
	free(text);
	assert_int_equal(ct_store_suite_get(s, "s.ini/c#00000000", &text, err, sizeof(err)),
			 -ENOENT);
	assert_null(text);
	assert_non_null(strstr(err, "no suite 's.ini/c#00000000'"));
	ct_store_close(s);
}

/* The tag in a run's parameters: the word "suite=" starts, nothing that
 * merely ends in it, cut at the next space and at the buffer's end. */
static void test_suite_tag(void **state)
{
	char tag[16];

	(void)state;
	assert_true(ct_store_suite_tag("cmd=true suite=s.ini/a#0000abcd", tag, sizeof(tag)));
	assert_string_equal(tag, "s.ini/a#0000abc");
	assert_true(ct_store_suite_tag("suite=x/y#1 n=2", tag, sizeof(tag)));
	assert_string_equal(tag, "x/y#1");
	assert_true(ct_store_suite_tag("testsuite=no suite=x/z#2", tag, sizeof(tag)));
	assert_string_equal(tag, "x/z#2");
	assert_false(ct_store_suite_tag("testsuite=no cmd=true", tag, sizeof(tag)));
	assert_string_equal(tag, "");
	assert_false(ct_store_suite_tag("cmd=true suite=", tag, sizeof(tag)));
	assert_false(ct_store_suite_tag("", tag, sizeof(tag)));
}

static void test_reopen(void **state)
{
	const char *p = path_of("reopen.db");
	char err[CT_ERRLEN] = "", mode[32], path[PATH_MAX];
	struct ct_store *s, *s2;
	struct ct_run r, *got = NULL;
	int64_t c, sess;
	size_t n = 0;
	sqlite3 *db;

	snprintf(path, sizeof(path), "%s", p);
	s = open_ok(path);
	c = put_config(s, "rc3", 1);
	sess = begin_session(s, c, "contend run");
	fill_run(&r, sess, c, "none", CT_RUN_OK, 1);
	put_run(s, &r);

	/* a second contend on the same store sees committed runs at once */
	s2 = open_ok(path);
	assert_int_equal(ct_store_runs(s2, NULL, &got, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	free(got);
	fill_run(&r, sess, c, "io", CT_RUN_OK, 2);
	put_run(s2, &r);
	ct_store_close(s2);
	ct_store_close(s);

	s = open_ok(path);
	assert_int_equal(ct_store_runs(s, NULL, &got, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_string_equal(got[0].load, "none");
	assert_string_equal(got[1].load, "io");
	assert_int_equal(got[1].wall_ns, r.wall_ns);
	free(got);
	assert_int_equal(put_config(s, "rc3", 1), c);
	ct_store_close(s);

	if (pg) {
		PGconn *pc = pg_connect(path);

		assert_int_equal(pg_int(pc, "SELECT value::int FROM contend_meta"
					    " WHERE key = 'schema_version'"),
				 SCHEMA_VERSION);
		assert_int_equal(pg_int(pc,
					"SELECT count(*) FROM pg_indexes WHERE tablename = "
					"'runs' AND indexdef LIKE '%config_id, workload, load%'"),
				 1);
		assert_int_equal(pg_int(pc, "SELECT wall_ns FROM runs ORDER BY id LIMIT 1"),
				 191460000001LL);
		assert_int_equal(pg_int(pc, "SELECT count(*) FROM runs WHERE status = 'ok'"), 2);
		PQfinish(pc);
		return;
	}
	db = raw_open(path);
	assert_int_equal(raw_int(db, "PRAGMA user_version"), SCHEMA_VERSION);
	assert_int_equal(raw_int(db, "PRAGMA application_id"), APP_ID);
	raw_text(db, "PRAGMA journal_mode", mode, sizeof(mode));
	assert_string_equal(mode, "wal");
	assert_int_equal(
		raw_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'index'"
			    " AND tbl_name = 'runs' AND sql LIKE '%config_id, workload, load%'"),
		1);
	assert_int_equal(raw_int(db,
				 "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
				 " AND name IN ('configs', 'sessions', 'runs', 'knob_journal')"),
			 4);
	/* raw values, not derived ones */
	assert_int_equal(raw_int(db, "SELECT wall_ns FROM runs ORDER BY id LIMIT 1"),
			 191460000001LL);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM runs WHERE status = 'ok'"), 2);
	sqlite3_close(db);
}

/* Metrics and series decoders refuse what a store cannot have written. */
static void test_codec(void **state)
{
	static const char *const bad[] = {
		"{",
		"[]",
		"{\"tps\": \"x\"}",
		"{\"Tps\": 1}",
		"{\"a\": 1, \"a\": 2}",
		"{\"abcdefghijklmnopqrstuvwxyz\": 1}",
		"{\"n\": null}",
		"nan",
	};
	struct ct_run r;
	double *v = NULL;
	size_t n = 9;
	char buf[64];

	for (size_t i = 0; i < CT_ARRAY_SIZE(bad); i++) {
		memset(&r, 0, sizeof(r));
		if (ct_store_metrics_decode(bad[i], &r) != -EPROTO)
			fail_msg("decoded '%s'", bad[i]);
		assert_int_equal(r.nmetrics, 0);
	}
	memset(&r, 0, sizeof(r));
	assert_int_equal(ct_store_metrics_decode("{\"a_1\": 2.5e-3, \"b\": -7}", &r), 0);
	assert_int_equal(r.nmetrics, 2);
	assert_int_equal(ct_store_metrics_encode(&r, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "{\"a_1\":0.0025000000000000001,\"b\":-7}");
	assert_int_equal(ct_store_metrics_encode(&r, buf, 10), -ENOSPC);
	assert_int_equal(ct_store_series_decode("[1, \"2\"]", &v, &n), -EPROTO);
	assert_int_equal(ct_store_series_decode("{}", &v, &n), -EPROTO);
	assert_int_equal(ct_store_series_decode("[]", &v, &n), 0);
	assert_int_equal(n, 0);
	assert_null(v);
}

/* A workload's metrics and series come back as they were written. */
static void test_metrics_series(void **state)
{
	static const double series[] = { 1374.22, 1487.19, 0.5, 1e6 };
	struct ct_store *s = open_ok(path_of("metrics.db"));
	struct ct_session_rec rec;
	struct ct_run r, *got = NULL;
	char err[CT_ERRLEN] = "";
	double v, *back = NULL;
	size_t n = 0;

	(void)state;
	memset(&rec, 0, sizeof(rec));
	rec.config_id = put_config(s, "m", 1);
	assert_int_equal(ct_store_session_begin(s, &rec, err, sizeof(err)), 0);
	memset(&r, 0, sizeof(r));
	r.session_id = rec.id;
	r.config_id = rec.config_id;
	snprintf(r.workload, sizeof(r.workload), "oltp");
	snprintf(r.load, sizeof(r.load), "none");
	r.wall_ns = 2000000000;
	assert_int_equal(ct_run_metric_set(&r, CT_METRIC_TPS, 1374.22), 0);
	assert_int_equal(ct_run_metric_set(&r, "lat_p99_us", 8123.5), 0);
	r.series = series;
	r.nseries = 4;
	assert_int_equal(ct_store_run_put(s, &r, err, sizeof(err)), 0);
	assert_int_equal(ct_store_runs(s, NULL, &got, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ct_run_metric(&got[0], "lat_p99_us", &v), 0);
	assert_true(v == 8123.5);
	assert_int_equal(ct_run_metric(&got[0], "lat_p99", &v), -ENOENT);
	/* a run with tps is judged by it, higher is better */
	assert_true(ct_run_higher_better(&got[0]));
	assert_true(ct_run_value(&got[0]) == 1374.22);
	assert_int_equal(ct_store_run_series(s, got[0].id, &back, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++)
		assert_true(back[i] == series[i]);
	free(back);
	free(got);
	ct_store_close(s);
	/* stored as JSON that plain SQL reads */
	if (pg) {
		PGconn *c = pg_connect(path_of("metrics.db"));

		assert_int_equal(pg_int(c, "SELECT ((metrics::jsonb ->> 'lat_p99_us')::float * 10)"
					   "::bigint FROM runs"),
				 81235);
		assert_int_equal(pg_int(c, "SELECT jsonb_array_length(series::jsonb) FROM runs"),
				 4);
		assert_int_equal(pg_int(c, "SELECT (series::jsonb ->> 3)::float::bigint FROM runs"),
				 1000000);
		PQfinish(c);
	} else {
		sqlite3 *db = raw_open(path_of("metrics.db"));

		assert_int_equal(raw_int(db, "SELECT json_extract(metrics, '$.lat_p99_us') * 10"
					     " FROM runs"),
				 81235);
		assert_int_equal(raw_int(db, "SELECT json_array_length(series) FROM runs"), 4);
		assert_int_equal(raw_int(db, "SELECT json_extract(series, '$[3]') FROM runs"),
				 1000000);
		sqlite3_close(db);
	}
}

/* A run's latency histograms stored and read back: every bucket, the
 * count, min, max and sum as they were; a name it does not have and a run
 * with none are -ENOENT; text that is not such JSON is refused. */
static void test_hists(void **state)
{
	struct ct_store *s = open_ok(path_of("hists.db"));
	struct ct_hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)),
		       *back = malloc(sizeof(*back));
	struct ct_session_rec rec;
	struct ct_run r, plain, all;
	char err[CT_ERRLEN] = "", *text;
	uint64_t x = 88172645463325252ull;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(back);
	ct_hist_reset(a);
	ct_hist_reset(b);
	/* xorshift: latencies from 0 to about 4 s, many buckets */
	for (int i = 0; i < 20000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		ct_hist_add(a, (x % 1000) * (x % 4000000) / 1000 + i % 7);
	}
	ct_hist_add(b, 42);
	memset(&rec, 0, sizeof(rec));
	rec.config_id = put_config(s, "h", 1);
	assert_int_equal(ct_store_session_begin(s, &rec, err, sizeof(err)), 0);
	fill_run(&r, rec.id, rec.config_id, "none", CT_RUN_OK, 1);
	snprintf(r.hists[0].name, CT_HIST_NAME, "probe");
	r.hists[0].h = a;
	snprintf(r.hists[1].name, CT_HIST_NAME, "audio");
	r.hists[1].h = b;
	r.nhists = 2;
	assert_int_equal(ct_store_run_put(s, &r, err, sizeof(err)), 0);
	fill_run(&plain, rec.id, rec.config_id, "none", CT_RUN_OK, 2);
	assert_int_equal(ct_store_run_put(s, &plain, err, sizeof(err)), 0);

	assert_int_equal(ct_store_run_hist(s, r.id, "probe", back, err, sizeof(err)), 0);
	assert_int_equal(back->count, 20000);
	assert_int_equal(back->min, a->min);
	assert_int_equal(back->max, a->max);
	assert_true(back->sum == a->sum);
	assert_memory_equal(back->b, a->b, sizeof(a->b));
	assert_int_equal(ct_hist_pct(back, 99), ct_hist_pct(a, 99));
	assert_int_equal(ct_store_run_hist(s, r.id, "audio", back, err, sizeof(err)), 0);
	assert_int_equal(back->count, 1);
	assert_int_equal(back->min, 42);
	assert_int_equal(ct_store_run_hist(s, r.id, "video", back, err, sizeof(err)), -ENOENT);
	assert_int_equal(ct_store_run_hist(s, plain.id, "probe", back, err, sizeof(err)), -ENOENT);
	memset(&all, 0, sizeof(all));
	assert_int_equal(ct_store_run_hists(s, r.id, &all, err, sizeof(err)), 0);
	assert_int_equal(all.nhists, 2);
	assert_memory_equal(all.hists[0].h->b, a->b, sizeof(a->b));
	ct_store_hists_free(&all);
	ct_store_close(s);

	/* damaged: a bound that is no bucket's, counts that disagree */
	assert_int_equal(ct_store_hist_decode("{\"p\":{\"count\":1,\"min\":1,\"max\":1,"
					      "\"sum\":1,\"buckets\":[[129,1]]}}",
					      "p", back),
			 -EPROTO);
	assert_int_equal(ct_store_hist_decode("{\"p\":{\"count\":2,\"min\":1,\"max\":1,"
					      "\"sum\":1,\"buckets\":[[1,1]]}}",
					      "p", back),
			 -EPROTO);
	assert_int_equal(ct_store_hist_decode("{\"p\":{\"count\":1,\"min\":1,\"max\":1,"
					      "\"sum\":1,\"buckets\":[[1,1]]}}",
					      "p", back),
			 0);
	text = ct_store_hists_encode(&plain);
	assert_string_equal(text, "{}");
	free(text);
	free(a);
	free(b);
	free(back);
}

/* What migrations 6 and 7 added, dropped again: a store of schema 5 as far
 * as later migrations are concerned (the fixture test covers a real one). */
#define UNDO_6                                                \
	"ALTER TABLE runs DROP COLUMN counters;"              \
	"DROP TABLE suites;"                                  \
	"DROP TABLE history_acks;"                            \
	"ALTER TABLE sessions DROP COLUMN commit_sha;"        \
	"ALTER TABLE sessions DROP COLUMN commit_time;"       \
	"DROP TABLE bisect_steps;"                            \
	"DROP TABLE bisections;"                              \
	"DROP TABLE refs;"                                    \
	"ALTER TABLE runs DROP COLUMN hists;"                 \
	"DROP INDEX sessions_by_uuid;"                        \
	"ALTER TABLE sessions DROP COLUMN uuid;"              \
	"ALTER TABLE sessions DROP COLUMN hostname;"          \
	"ALTER TABLE runs DROP COLUMN start_dirty_bytes;"     \
	"ALTER TABLE runs DROP COLUMN start_writeback_bytes;" \
	"ALTER TABLE runs DROP COLUMN start_cpu_speed;"       \
	"DROP TABLE calibrations;"                            \
	"DROP INDEX sessions_by_group;"                       \
	"ALTER TABLE sessions DROP COLUMN group_id;"          \
	"ALTER TABLE sessions DROP COLUMN run_order;"         \
	"ALTER TABLE sessions DROP COLUMN order_seed;"        \
	"ALTER TABLE runs DROP COLUMN block;"

/* A store of schema version 1 (sessions without pid and boot_id) is
 * migrated on open: the rows stay, the new columns read as 0 and "". */
static void test_migrate_v1(void **state)
{
	const char *p = path_of("v1.db");
	char err[CT_ERRLEN] = "", path[PATH_MAX];
	struct ct_session_rec rec, *recs = NULL;
	struct ct_store *s;
	int64_t c;
	size_t n = 0;
	sqlite3 *db;

	snprintf(path, sizeof(path), "%s", p);
	s = open_ok(path);
	c = put_config(s, "old", 1);
	memset(&rec, 0, sizeof(rec));
	rec.config_id = c;
	rec.owner.pid = 4242;
	rec.owner.start = 987654321;
	snprintf(rec.owner.boot, sizeof(rec.owner.boot), "boot-a");
	snprintf(rec.owner.machine, sizeof(rec.owner.machine), "machine-a");
	assert_int_equal(ct_store_session_begin(s, &rec, err, sizeof(err)), 0);
	ct_store_close(s);

	db = raw_open(path);
	assert_int_equal(sqlite3_exec(db,
				      UNDO_6 "ALTER TABLE sessions DROP COLUMN pid;"
					     "ALTER TABLE sessions DROP COLUMN pid_start;"
					     "ALTER TABLE sessions DROP COLUMN boot_id;"
					     "ALTER TABLE sessions DROP COLUMN machine_id;"
					     "ALTER TABLE runs DROP COLUMN metrics;"
					     "ALTER TABLE runs DROP COLUMN series;"
					     "DROP TABLE knob_journal;"
					     "PRAGMA user_version = 1;",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);

	s = open_ok(path);
	assert_int_equal(ct_store_sessions(s, NULL, &recs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(recs[0].id, rec.id);
	assert_int_equal(recs[0].owner.pid, 0);
	assert_int_equal(recs[0].owner.start, 0);
	assert_string_equal(recs[0].owner.boot, "");
	assert_string_equal(recs[0].owner.machine, "");
	assert_int_equal(recs[0].group_id, 0);
	assert_string_equal(recs[0].order, "");
	free(recs);
	/* and new sessions keep theirs */
	assert_int_equal(ct_store_session_begin(s, &rec, err, sizeof(err)), 0);
	assert_int_equal(ct_store_sessions(s, &(struct ct_session_filter){ .limit = 1 }, &recs, &n,
					   err, sizeof(err)),
			 0);
	assert_int_equal(recs[0].owner.pid, 4242);
	assert_int_equal(recs[0].owner.start, 987654321);
	assert_string_equal(recs[0].owner.boot, "boot-a");
	assert_string_equal(recs[0].owner.machine, "machine-a");
	free(recs);
	ct_store_close(s);
	db = raw_open(path);
	assert_int_equal(raw_int(db, "PRAGMA user_version"), SCHEMA_VERSION);
	sqlite3_close(db);
}

/* The knob journal rows a store of schema 4 to 6 kept are read back whole,
 * oldest first, for the machine's journal to take over, then cleared. */
static void test_knob_rows(void **state)
{
	const char *p = path_of("knobs.db");
	char err[CT_ERRLEN] = "", path[PATH_MAX];
	struct ct_store_knob_row *rows = NULL;
	struct ct_store *s;
	size_t n = 99;
	sqlite3 *db;

	snprintf(path, sizeof(path), "%s", p);
	s = open_ok(path);
	assert_int_equal(ct_store_knob_rows(s, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	assert_null(rows);
	db = raw_open(path);
	assert_int_equal(
		sqlite3_exec(
			db,
			"INSERT INTO knob_journal (path, knob, original, session_pid, boot_id,"
			" created_at) VALUES ('/sys/block/vda/queue/scheduler', 'iosched',"
			" 'mq-deadline', 4242, '0e908cc6-966d-4c05-88e0-fdde5c11c97b',"
			" 1767225600000000000), ('/proc/sys/net/ipv4/tcp_rmem',"
			" 'sysctl.net.ipv4.tcp_rmem', '4096' || char(9) || '131072', 7, 'b', 5)",
			NULL, NULL, NULL),
		SQLITE_OK);
	assert_int_equal(ct_store_knob_rows(s, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_string_equal(rows[0].path, "/sys/block/vda/queue/scheduler");
	assert_string_equal(rows[0].knob, "iosched");
	assert_string_equal(rows[0].original, "mq-deadline");
	assert_int_equal(rows[0].session_pid, 4242);
	assert_string_equal(rows[0].boot_id, "0e908cc6-966d-4c05-88e0-fdde5c11c97b");
	assert_true(rows[0].created_at == 1767225600000000000LL);
	assert_string_equal(rows[1].original, "4096\t131072");
	assert_int_equal(rows[1].created_at, 5);
	free(rows);
	assert_int_equal(ct_store_knob_rows_clear(s, err, sizeof(err)), 0);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM knob_journal"), 0);
	sqlite3_close(db);
	ct_store_close(s);
}

/* A store of schema version 2 (no knob journal, metrics or schedule)
 * migrates on open and its sessions stay. */
static void test_migrate_v2(void **state)
{
	const char *p = path_of("v2.db");
	char err[CT_ERRLEN] = "", path[PATH_MAX];
	struct ct_session_rec *recs = NULL;
	struct ct_store_knob_row *rows = NULL;
	struct ct_store *s;
	size_t n = 0;
	int64_t c, sess;
	sqlite3 *db;

	snprintf(path, sizeof(path), "%s", p);
	s = open_ok(path);
	c = put_config(s, "old", 1);
	sess = begin_session(s, c, "contend run");
	ct_store_close(s);

	db = raw_open(path);
	assert_int_equal(sqlite3_exec(db,
				      UNDO_6 "DROP TABLE knob_journal;"
					     " ALTER TABLE runs DROP COLUMN metrics;"
					     " ALTER TABLE runs DROP COLUMN series;"
					     " PRAGMA user_version = 2;",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);

	s = open_ok(path);
	assert_int_equal(ct_store_knob_rows(s, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	assert_int_equal(ct_store_sessions(s, NULL, &recs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(recs[0].id, sess);
	free(recs);
	ct_store_close(s);
	db = raw_open(path);
	assert_int_equal(raw_int(db, "PRAGMA user_version"), SCHEMA_VERSION);
	sqlite3_close(db);
}

/* The committed store written by contend at 5785448 (schema 5: metrics as
 * "name=value" text, the schedule as "interleaved seed=N first=ID")
 * migrates in place: the schedule becomes columns, every run of the
 * interleaved sessions its block, the metrics and series JSON that
 * json_extract reads - each value what the old text said. */
static void test_migrate_fixture(void **state)
{
	const char *fx = getenv("CT_FIXTURES");
	char src[PATH_MAX], cmd[2 * PATH_MAX + 16], path[PATH_MAX], err[CT_ERRLEN] = "";
	struct ct_session_rec *recs = NULL;
	struct ct_run *runs = NULL;
	struct ct_store *s;
	double old_tps[16];
	int64_t ids[16];
	size_t n = 0, nold = 0;
	sqlite3 *db;
	sqlite3_stmt *st;

	assert_non_null(fx);
	snprintf(src, sizeof(src), "%s/store/v5.db", fx);
	snprintf(path, sizeof(path), "%s", path_of("fixture-v5.db"));
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", src, path);
	assert_int_equal(system(cmd), 0);
	/* what the old text says, read with plain SQL before contend opens it */
	db = raw_open(path);
	assert_int_equal(raw_int(db, "PRAGMA user_version"), 5);
	assert_int_equal(sqlite3_prepare_v2(db,
					    "SELECT id, metrics FROM runs WHERE workload = 'oltp'"
					    " ORDER BY id",
					    -1, &st, NULL),
			 SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW && nold < 16) {
		const char *m = strstr((const char *)sqlite3_column_text(st, 1), "tps=");

		assert_non_null(m);
		ids[nold] = sqlite3_column_int64(st, 0);
		old_tps[nold++] = strtod(m + 4, NULL);
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	assert_int_equal(nold, 6);

	s = open_ok(path);
	assert_int_equal(ct_store_sessions(s, NULL, &recs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 9);
	for (size_t i = 0; i < n; i++) {
		bool vary = recs[i].id == 3 || recs[i].id == 4;

		/* schema 9 gave every stored session a version-4 UUID of its own */
		assert_true(is_uuid4(recs[i].uuid));
		for (size_t k = 0; k < i; k++)
			assert_string_not_equal(recs[k].uuid, recs[i].uuid);
		assert_int_equal(recs[i].group_id, vary ? 3 : 0);
		assert_string_equal(recs[i].order, vary ? "interleaved" : "");
		assert_int_equal(recs[i].order_seed, vary ? 7 : 0);
	}
	free(recs);
	{
		struct ct_run_filter f = { .workload = "oltp" };
		double v;

		assert_int_equal(ct_store_runs(s, &f, &runs, &n, err, sizeof(err)), 0);
		assert_int_equal(n, 6);
		for (size_t i = 0; i < n; i++) {
			assert_int_equal(runs[i].id, ids[i]);
			assert_int_equal(ct_run_metric(&runs[i], CT_METRIC_TPS, &v), 0);
			assert_true(v == old_tps[i]);
			assert_true(runs[i].nmetrics > 30);
			/* stored before start states were: unknown, not zero */
			assert_true(runs[i].mon.start_dirty_bytes == -1);
			assert_true(runs[i].mon.start_writeback_bytes == -1);
			assert_true(runs[i].mon.start_cpu_speed == -1);
		}
		free(runs);
	}
	ct_store_close(s);

	db = raw_open(path);
	assert_int_equal(raw_int(db, "PRAGMA user_version"), SCHEMA_VERSION);
	for (size_t i = 0; i < nold; i++) {
		char sql[128];

		snprintf(sql, sizeof(sql),
			 "SELECT json_extract(metrics, '$.tps') * 1000 FROM runs WHERE id = %lld",
			 (long long)ids[i]);
		assert_int_equal(raw_int(db, sql), (int64_t)(old_tps[i] * 1000));
	}
	assert_int_equal(raw_int(db, "SELECT count(*) FROM runs WHERE session_id IN (3, 4)"
				     " AND (block = 0 OR block <> seq)"),
			 0);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM runs WHERE session_id NOT IN (3, 4)"
				     " AND block <> 0"),
			 0);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM runs WHERE json_valid(metrics)"
				     " AND json_valid(series)"),
			 raw_int(db, "SELECT count(*) FROM runs"));
	assert_int_equal(raw_int(db, "SELECT count(*) FROM pragma_table_info('sessions')"
				     " WHERE name = 'schedule'"),
			 0);
	sqlite3_close(db);
}

/* A reader never makes a store: without CT_STORE_CREATE a missing one is
 * -ENOENT and neither it nor its directory appears. */
static void test_missing(void **state)
{
	char err[CT_ERRLEN] = "", path[PATH_MAX];
	struct ct_store *s = (struct ct_store *)&s;
	struct stat sb;

	snprintf(path, sizeof(path), "%s", path_of("nodir/missing.db"));
	assert_int_equal(ct_store_open(&s, path, 0, err, sizeof(err)), -ENOENT);
	assert_null(s);
	assert_non_null(strstr(err, "no results store at"));
	assert_int_equal(stat(path_of("nodir"), &sb), -1);
	assert_int_equal(errno, ENOENT);
}

static void test_unknown_status(void **state)
{
	const char *p = path_of("status.db");
	char err[CT_ERRLEN] = "", path[PATH_MAX];
	struct ct_store *s;
	struct ct_run r, *got = NULL;
	int64_t c, sess;
	size_t n = 0;
	sqlite3 *db;

	snprintf(path, sizeof(path), "%s", p);
	s = open_ok(path);
	c = put_config(s, "rc3", 1);
	sess = begin_session(s, c, "contend run");
	fill_run(&r, sess, c, "none", CT_RUN_OK, 1);
	put_run(s, &r);
	db = raw_open(path);
	assert_int_equal(sqlite3_exec(db, "UPDATE runs SET status = 'weird'", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(ct_store_runs(s, NULL, &got, &n, err, sizeof(err)), -EPROTO);
	assert_null(got);
	assert_int_equal(n, 0);
	assert_non_null(strstr(err, "'weird'"));
	ct_store_close(s);
}

static void test_newer_version(void **state)
{
	const char *p = path_of("newer.db");
	char err[CT_ERRLEN] = "", want[PATH_MAX + 128], path[PATH_MAX], mode[32], sql[96];
	struct ct_store *s = NULL;
	sqlite3 *db;

	snprintf(path, sizeof(path), "%s", p);
	ct_store_close(open_ok(path));
	db = raw_open(path);
	/* a rollback journal too, so a refused store that was written to shows */
	snprintf(sql, sizeof(sql), "PRAGMA journal_mode = DELETE; PRAGMA user_version = %d",
		 SCHEMA_VERSION + 1);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);

	assert_int_equal(ct_store_open(&s, path, CT_STORE_CREATE, err, sizeof(err)), -EINVAL);
	assert_null(s);
	snprintf(want, sizeof(want),
		 "results store '%s' has schema version %d, this contend knows up to %d", path,
		 SCHEMA_VERSION + 1, SCHEMA_VERSION);
	assert_string_equal(err, want);

	db = raw_open(path);
	assert_int_equal(raw_int(db, "PRAGMA user_version"), SCHEMA_VERSION + 1);
	raw_text(db, "PRAGMA journal_mode", mode, sizeof(mode));
	assert_string_equal(mode, "delete");
	sqlite3_close(db);
}

static void test_foreign_db(void **state)
{
	const char *p = path_of("foreign.db");
	char err[CT_ERRLEN] = "", mode[32], path[PATH_MAX];
	struct ct_store *s = NULL;
	sqlite3 *db;

	snprintf(path, sizeof(path), "%s", p);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(
		sqlite3_exec(db, "CREATE TABLE t (x); INSERT INTO t VALUES (42)", NULL, NULL, NULL),
		SQLITE_OK);
	sqlite3_close(db);

	assert_int_equal(ct_store_open(&s, path, CT_STORE_CREATE, err, sizeof(err)), -EINVAL);
	assert_null(s);
	assert_non_null(strstr(err, "is not a contend results store"));
	assert_non_null(strstr(err, path));

	db = raw_open(path); /* untouched: no schema, no WAL */
	assert_int_equal(raw_int(db, "SELECT count(*) FROM sqlite_master"), 1);
	assert_int_equal(raw_int(db, "SELECT x FROM t"), 42);
	assert_int_equal(raw_int(db, "PRAGMA user_version"), 0);
	raw_text(db, "PRAGMA journal_mode", mode, sizeof(mode));
	assert_string_equal(mode, "delete");
	sqlite3_close(db);
}

static void test_not_a_database(void **state)
{
	const char *p = path_of("random.db");
	char err[CT_ERRLEN] = "", path[PATH_MAX], side[PATH_MAX + 8];
	unsigned char bytes[8192], back[sizeof(bytes) + 1];
	uint64_t seed = 42;
	struct ct_store *s = NULL;
	struct stat st;
	ssize_t got;
	int fd;

	snprintf(path, sizeof(path), "%s", p);
	ct_fill_random(bytes, sizeof(bytes), &seed);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, bytes, sizeof(bytes)), sizeof(bytes));
	close(fd);

	assert_int_equal(ct_store_open(&s, path, CT_STORE_CREATE, err, sizeof(err)), -EINVAL);
	assert_null(s);
	assert_non_null(strstr(err, "is not a contend results store"));
	assert_non_null(strstr(err, path));

	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	got = read(fd, back, sizeof(back));
	close(fd);
	assert_int_equal(got, sizeof(bytes));
	assert_memory_equal(back, bytes, sizeof(bytes));
	snprintf(side, sizeof(side), "%s-wal", path);
	assert_int_equal(stat(side, &st), -1);
	snprintf(side, sizeof(side), "%s-journal", path);
	assert_int_equal(stat(side, &st), -1);
}

static void expect_open_fails(const char *path, int want)
{
	char err[CT_ERRLEN] = "", prefix[PATH_MAX + 64];
	struct ct_store *s = (struct ct_store *)&s; /* must be reset */
	int rc = ct_store_open(&s, path, CT_STORE_CREATE, err, sizeof(err));

	print_message("%s -> %d: %s\n", path, rc, err);
	assert_true(rc < 0);
	if (want)
		assert_int_equal(rc, want);
	assert_null(s);
	snprintf(prefix, sizeof(prefix), "cannot open results store '%s': ", path);
	assert_memory_equal(err, prefix, strlen(prefix));
}

static void test_unwritable(void **state)
{
	char file[PATH_MAX], under[PATH_MAX + 8];
	int fd;

	/* root ignores permission bits, so use places no one can write */
	expect_open_fails("/dev/null/x.db", -ENOTDIR);
	expect_open_fails("/proc/contend-no-such-dir/x.db", 0);
	expect_open_fails("/proc/version", 0);
	expect_open_fails(tmpdir, -EISDIR);

	snprintf(file, sizeof(file), "%s", path_of("plain-file"));
	fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	close(fd);
	snprintf(under, sizeof(under), "%s/x.db", file);
	expect_open_fails(under, -ENOTDIR);
}

static void test_memory(void **state)
{
	char err[CT_ERRLEN] = "";
	struct ct_store *s = open_ok(":memory:");
	struct ct_run r, *got = NULL;
	int64_t c, sess;
	size_t n = 0;

	c = put_config(s, "mem", 1);
	sess = begin_session(s, c, "x");
	fill_run(&r, sess, c, "none", CT_RUN_OK, 1);
	put_run(s, &r);
	assert_int_equal(ct_store_runs(s, NULL, &got, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	free(got);
	ct_store_close(s);
	ct_store_close(NULL);
}

static void test_integrity(void **state)
{
	static const char *const dbs[] = { "new/parent/dirs/rt.db",
					   "sessions.db",
					   "latest.db",
					   "reopen.db",
					   "knobs.db",
					   "v2.db",
					   "fixture-v5.db" };
	char ok[16];

	for (size_t i = 0; i < CT_ARRAY_SIZE(dbs); i++) {
		sqlite3 *db = raw_open(path_of(dbs[i]));
		sqlite3_stmt *st;

		raw_text(db, "PRAGMA integrity_check", ok, sizeof(ok));
		assert_string_equal(ok, "ok");
		assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA foreign_key_check", -1, &st, NULL),
				 SQLITE_OK);
		assert_int_equal(sqlite3_step(st), SQLITE_DONE);
		sqlite3_finalize(st);
		sqlite3_close(db);
	}
}

static void set_env(const char *name, const char *value)
{
	if (value)
		assert_int_equal(setenv(name, value, 1), 0);
	else
		assert_int_equal(unsetenv(name), 0);
}

static void expect_default(const char *db, const char *xdg, const char *home, int rc,
			   const char *want)
{
	char buf[PATH_MAX];

	set_env("CONTEND_DB", db);
	set_env("XDG_DATA_HOME", xdg);
	set_env("HOME", home);
	assert_int_equal(ct_store_default_path(buf, sizeof(buf)), rc);
	if (rc)
		assert_non_null(strstr(buf, want));
	else
		assert_string_equal(buf, want);
}

static void test_default_path(void **state)
{
	char *saved[3];
	const char *names[] = { "CONTEND_DB", "XDG_DATA_HOME", "HOME" };
	char small[16];

	for (int i = 0; i < 3; i++)
		saved[i] = getenv(names[i]) ? strdup(getenv(names[i])) : NULL;

	expect_default("/srv/r.db", "/xdg", "/home/u", 0, "/srv/r.db");
	expect_default("rel.db", "/xdg", "/home/u", 0, "rel.db");
	expect_default(NULL, "/xdg", "/home/u", 0, "/xdg/contend/results.db");
	expect_default("", "/xdg", "/home/u", 0, "/xdg/contend/results.db");
	expect_default(NULL, NULL, "/home/u", 0, "/home/u/.local/share/contend/results.db");
	expect_default(NULL, "", "/home/u", 0, "/home/u/.local/share/contend/results.db");
	/* XDG: a relative XDG_DATA_HOME is invalid and ignored */
	expect_default(NULL, "xdg", "/home/u", 0, "/home/u/.local/share/contend/results.db");
	expect_default(NULL, NULL, NULL, -ENOENT, "HOME");
	expect_default(NULL, "xdg", "", -ENOENT, "HOME");

	set_env("CONTEND_DB", "/a/very/long/path/results.db");
	assert_int_equal(ct_store_default_path(small, sizeof(small)), -ENAMETOOLONG);

	for (int i = 0; i < 3; i++) {
		set_env(names[i], saved[i]);
		free(saved[i]);
	}
}

/* PostgreSQL: a database with no contend tables is no store for a reader,
 * and one with another program's tables is refused; a newer schema is
 * refused; a role that may only SELECT reads, and a writer is told why it
 * cannot write. */
static void test_pg_open(void **state)
{
	char err[CT_ERRLEN] = "", role[PATH_MAX];
	struct ct_store *s = NULL;
	struct ct_session_rec rec;
	struct ct_run r;
	PGconn *c;
	int64_t cfg;

	(void)state;
	assert_int_equal(ct_store_open(&s, path_of("empty"), 0, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "no results store"));
	c = pg_connect(path_of("foreign"));
	pg_exec(c, "CREATE TABLE runs (x int)");
	assert_int_equal(ct_store_open(&s, path_of("foreign"), CT_STORE_CREATE, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "not a contend results store"));
	assert_int_equal(pg_int(c, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"),
			 1);
	PQfinish(c);

	s = open_ok(path_of("newer"));
	ct_store_close(s);
	c = pg_connect(path_of("newer"));
	pg_exec(c, "UPDATE contend_meta SET value = '99' WHERE key = 'schema_version'");
	assert_int_equal(ct_store_open(&s, path_of("newer"), 0, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "schema version 99"));
	PQfinish(c);

	/* a store of the previous schema (9, the first) migrates to the
	 * current one, its runs kept, and takes histograms */
	s = open_ok(path_of("older"));
	cfg = put_config(s, "old", 1);
	{
		int64_t sid = begin_session(s, cfg, "contend run");

		fill_run(&r, sid, cfg, "none", CT_RUN_OK, 1);
		rec.id = sid;
	}
	assert_int_equal(ct_store_run_put(s, &r, err, sizeof(err)), 0);
	ct_store_close(s);
	c = pg_connect(path_of("older"));
	pg_exec(c, "ALTER TABLE runs DROP COLUMN counters");
	pg_exec(c, "DROP TABLE suites");
	pg_exec(c, "DROP TABLE history_acks");
	pg_exec(c, "ALTER TABLE sessions DROP COLUMN commit_sha");
	pg_exec(c, "ALTER TABLE sessions DROP COLUMN commit_time");
	pg_exec(c, "DROP TABLE bisect_steps");
	pg_exec(c, "DROP TABLE bisections");
	pg_exec(c, "DROP TABLE refs");
	pg_exec(c, "ALTER TABLE runs DROP COLUMN hists");
	pg_exec(c, "UPDATE contend_meta SET value = '9' WHERE key = 'schema_version'");
	s = open_ok(path_of("older"));
	assert_int_equal(pg_int(c, "SELECT value::int FROM contend_meta WHERE key = "
				   "'schema_version'"),
			 SCHEMA_VERSION);
	assert_int_equal(pg_int(c, "SELECT count(*) FROM runs WHERE hists = ''"), 1);
	{
		struct ct_hist *h = malloc(sizeof(*h));

		assert_non_null(h);
		ct_hist_reset(h);
		ct_hist_add(h, 1000);
		fill_run(&r, rec.id, cfg, "none", CT_RUN_OK, 2);
		snprintf(r.hists[0].name, CT_HIST_NAME, "probe");
		r.hists[0].h = h;
		r.nhists = 1;
		assert_int_equal(ct_store_run_put(s, &r, err, sizeof(err)), 0);
		assert_int_equal(ct_store_run_hist(s, r.id, "probe", h, err, sizeof(err)), 0);
		assert_int_equal(h->count, 1);
		free(h);
	}
	ct_store_close(s);
	PQfinish(c);

	s = open_ok(path_of("reader"));
	cfg = put_config(s, "rc3", 1);
	begin_session(s, cfg, "contend run");
	ct_store_close(s);
	c = pg_connect(path_of("reader"));
	pg_exec(c, "DROP ROLE IF EXISTS ct_reader");
	pg_exec(c, "CREATE ROLE ct_reader LOGIN");
	pg_exec(c, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO ct_reader");
	assert_true(snprintf(role, sizeof(role), "%s user=ct_reader", path_of("reader")) <
		    (int)sizeof(role));
	assert_int_equal(ct_store_open(&s, role, CT_STORE_CREATE, err, sizeof(err)), -EROFS);
	assert_non_null(strstr(err, "may only read"));
	assert_int_equal(ct_store_open(&s, role, 0, err, sizeof(err)), 0);
	assert_true(s->readonly);
	memset(&rec, 0, sizeof(rec));
	rec.config_id = cfg;
	assert_int_equal(ct_store_session_begin(s, &rec, err, sizeof(err)), -EROFS);
	fill_run(&r, 1, cfg, "none", CT_RUN_OK, 1);
	assert_int_equal(ct_store_run_put(s, &r, err, sizeof(err)), -EROFS);
	{
		struct ct_session_rec *recs = NULL;
		size_t n = 0;

		assert_int_equal(ct_store_sessions(s, NULL, &recs, &n, err, sizeof(err)), 0);
		assert_int_equal(n, 1);
		free(recs);
	}
	ct_store_close(s);
	assert_int_equal(pg_int(c, "SELECT count(*) FROM runs"), 0);
	pg_exec(c, "REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ct_reader");
	PQfinish(c);
}

int main(void)
{
	const struct CMUnitTest pg_tests[] = {
		cmocka_unit_test(test_round_trip),     cmocka_unit_test(test_sessions),
		cmocka_unit_test(test_session_filter), cmocka_unit_test(test_session_uuid),
		cmocka_unit_test(test_latest_session), cmocka_unit_test(test_calibration),
		cmocka_unit_test(test_reopen),	       cmocka_unit_test(test_metrics_series),
		cmocka_unit_test(test_pg_open),	       cmocka_unit_test(test_hists),
		cmocka_unit_test(test_refs),	       cmocka_unit_test(test_suites),
	};
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),     cmocka_unit_test(test_sessions),
		cmocka_unit_test(test_session_filter), cmocka_unit_test(test_session_uuid),
		cmocka_unit_test(test_latest_session), cmocka_unit_test(test_calibration),
		cmocka_unit_test(test_reopen),	       cmocka_unit_test(test_unknown_status),
		cmocka_unit_test(test_newer_version),  cmocka_unit_test(test_foreign_db),
		cmocka_unit_test(test_not_a_database), cmocka_unit_test(test_unwritable),
		cmocka_unit_test(test_memory),	       cmocka_unit_test(test_knob_rows),
		cmocka_unit_test(test_migrate_v2),     cmocka_unit_test(test_migrate_fixture),
		cmocka_unit_test(test_missing),	       cmocka_unit_test(test_migrate_v1),
		cmocka_unit_test(test_metrics_series), cmocka_unit_test(test_integrity),
		cmocka_unit_test(test_default_path),   cmocka_unit_test(test_codec),
		cmocka_unit_test(test_hists),	       cmocka_unit_test(test_refs),
		cmocka_unit_test(test_suites),	       cmocka_unit_test(test_suite_tag),
	};

	pg = getenv("CT_PG");
	if (pg && *pg)
		return cmocka_run_group_tests_name("store-pg", pg_tests, setup, teardown);
	pg = NULL;
	return cmocka_run_group_tests_name("store", tests, setup, teardown);
}
