/*
 * The pgbench workload: WimMark on a real database. A throwaway
 * PostgreSQL cluster per session, in the work directory (the filesystem
 * under test), its server in a memory cgroup of its own whose limit the
 * data set does not fit; the database built once, each run from a fresh
 * copy of it; the foreground is pgbench. Its per-transaction log gives
 * the run's tps over the steady part (the ramp-up found as the oltp
 * engine finds it), its latency percentiles and histogram, and the
 * per-second series.
 *
 * The server runs as the postgres user when contend is root (it refuses
 * root), else as contend's own user; it listens on a Unix socket in the
 * cluster's private directory only. It is stopped and its directory and
 * cgroup removed when the session ends.
 */
#include "contend/hist.h"
#include "contend/journal.h"
#include "contend/proc.h"
#include "contend/run.h"
#include "contend/util.h"
#include "contend/workload.h"
#include "pgbench.h"
#include "workloads.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <math.h>
#include <pwd.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PG_PORT	      "5432" /* names the socket file in the private directory */
#define PG_DB_BASE    "base"
#define PG_DB_RUN     "run"
#define PG_SCALE      50 /* about 750 MiB of tables and indexes */
#define PG_SCALE_Q    10
#define PG_SCALE_MB   16 /* a scale unit's data, about */
#define PG_SHARED     (16ull << 20)
#define PG_PROC_MB    4 /* a server process's own memory, about */
#define PG_DURATION   60
#define PG_DURATION_Q 20
#define PG_TAIL	      5 /* lines of the server log in an error */

struct pgb {
	char bin[PATH_MAX]; /* the server's binaries */
	char pgbench[PATH_MAX + 16];
	char dir[PATH_MAX]; /* the cluster's private directory: socket, logs */
	char data[PATH_MAX + 8];
	char log[PATH_MAX + 16];   /* the server's */
	char txlog[PATH_MAX + 16]; /* pgbench's per-transaction log prefix */
	uid_t uid;
	gid_t gid;
	unsigned scale, clients, duration_s, version;
	uint64_t shared, mem_limit;
	struct ct_memcg cg;
	bool journalled; /* cg's processes are in the machine's journal */
	bool started;
	double before[3]; /* the run's copy as it started: bytes, history rows, balances */
	int64_t cpu0;	  /* the server's CPU when the run started (us) */
	struct ct_hist hist;
	double *series;
	unsigned nseries;
};

/* ------------------------------------------------------------------ */
/* The server's binaries and user                                     */
/* ------------------------------------------------------------------ */

static bool exe(const char *dir, const char *name)
{
	char p[PATH_MAX + 32];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return access(p, X_OK) == 0;
}

/* The newest /usr/lib/postgresql/N/bin with a server, or --pg-bin. */
static int find_bin(const char *given, const char *cwd, char *out, size_t len, char *err,
		    size_t elen)
{
	char rel[PATH_MAX], real[PATH_MAX];
	DIR *d;
	struct dirent *de;
	long best = -1;

	if (given && *given != '/' && cwd) { /* in the config's directory */
		if ((size_t)snprintf(rel, sizeof(rel), "%s/%s", cwd, given) >= sizeof(rel))
			return ct_err(err, elen, -ENAMETOOLONG, "pgbench: --pg-bin is too long");
		given = rel;
	}
	if (given && *given != '/') { /* its commands run elsewhere */
		if (!realpath(given, real))
			return ct_err(err, elen, -ENOENT, "pgbench: --pg-bin '%s': %s", given,
				      strerror(errno));
		given = real;
	}
	if (given) {
		if (!exe(given, "initdb") || !exe(given, "pg_ctl") || !exe(given, "postgres"))
			return ct_err(err, elen, -ENOENT,
				      "pgbench: --pg-bin '%s' holds no PostgreSQL server "
				      "(initdb, pg_ctl, postgres)",
				      given);
		snprintf(out, len, "%s", given);
		return 0;
	}
	d = opendir("/usr/lib/postgresql");
	while (d && (de = readdir(d))) {
		char *end, p[PATH_MAX];
		long v = strtol(de->d_name, &end, 10);

		snprintf(p, sizeof(p), "/usr/lib/postgresql/%s/bin", de->d_name);
		if (end != de->d_name && !*end && v > best && exe(p, "initdb") &&
		    exe(p, "pg_ctl")) {
			best = v;
			snprintf(out, len, "%s", p);
		}
	}
	if (d)
		closedir(d);
	if (best < 0)
		return ct_err(
			err, elen, -ENOENT,
			"pgbench: no PostgreSQL server installed (apt-get install postgresql)");
	return 0;
}

/* The server's programs and pgbench (the server's own, else the client
 * package's). */
static int use_bin(struct pgb *p, const char *given, const char *cwd, char *err, size_t len)
{
	int rc = find_bin(given, cwd, p->bin, sizeof(p->bin), err, len);

	if (rc)
		return rc;
	snprintf(p->pgbench, sizeof(p->pgbench), "%s/pgbench", p->bin);
	if (access(p->pgbench, X_OK) && access("/usr/bin/pgbench", X_OK) == 0)
		snprintf(p->pgbench, sizeof(p->pgbench), "/usr/bin/pgbench");
	if (access(p->pgbench, X_OK))
		return ct_err(err, len, -ENOENT,
			      "pgbench: no pgbench program (apt-get install postgresql-client)");
	return 0;
}

static int find_user(struct pgb *p, char *err, size_t len)
{
	struct passwd *pw;

	if (geteuid()) {
		p->uid = geteuid();
		p->gid = getegid();
		return 0;
	}
	pw = getpwnam("postgres");
	if (!pw)
		return ct_err(err, len, -ENOENT,
			      "pgbench: the server cannot run as root and there is no postgres "
			      "user (apt-get install postgresql makes it)");
	p->uid = pw->pw_uid;
	p->gid = pw->pw_gid;
	return 0;
}

/* Whether the server's user can reach dir: each directory on the way
 * searchable by it (others' x, or its own). */
static int reachable(const struct pgb *p, const char *dir, char *err, size_t len)
{
	char path[PATH_MAX], *s;

	if (!p->uid || p->uid == geteuid())
		return 0;
	snprintf(path, sizeof(path), "%s", dir);
	for (s = path + 1;; s++) {
		struct stat st;
		char c = *s;

		if (c && c != '/')
			continue;
		*s = '\0';
		if (stat(path, &st))
			return ct_err(err, len, -errno, "pgbench: cannot read '%s': %s", path,
				      strerror(errno));
		if (!(st.st_mode & S_IXOTH) && !(st.st_uid == p->uid && (st.st_mode & S_IXUSR)))
			return ct_err(err, len, -EACCES,
				      "pgbench: the postgres user cannot reach the work directory: "
				      "'%s' is not searchable by others (chmod o+x it, or --dir "
				      "elsewhere)",
				      path);
		if (!c)
			return 0;
		*s = c;
	}
}

/* ------------------------------------------------------------------ */
/* Running the server's programs                                      */
/* ------------------------------------------------------------------ */

/* Runs argv as the server's user (in the cluster's cgroup when cg),
 * its output appended to log; its exit status, or -errno. */
static int run_as(const struct pgb *p, char *const argv[], const char *log, bool cg)
{
	pid_t pid = fork(), self;
	int status;

	if (pid < 0)
		return -errno;
	if (!pid) {
		sigset_t none;
		int fd;

		for (int sig = 1; sig < NSIG; sig++)
			if (sig != SIGKILL && sig != SIGSTOP)
				signal(sig, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		self = getpid();
		if (cg && p->cg.version && ct_memcg_attach(&p->cg, self))
			_exit(125);
		if (!geteuid() && p->uid &&
		    (setgroups(0, NULL) || setgid(p->gid) || setuid(p->uid)))
			_exit(126);
		if (chdir(p->dir))
			_exit(126);
		/* as the server's user: pg_ctl appends to the same log */
		fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			(void)dup2(fd, 0);
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The last lines of file, joined by " | ", in buf. */
static void tail(const char *file, char *buf, size_t len)
{
	char *lines[PG_TAIL] = { 0 }, line[512];
	FILE *f = fopen(file, "re");
	unsigned n = 0;
	size_t off = 0;

	buf[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!*line)
			continue;
		free(lines[n % PG_TAIL]);
		lines[n++ % PG_TAIL] = strdup(line);
	}
	if (f)
		fclose(f);
	for (unsigned i = n > PG_TAIL ? n - PG_TAIL : 0; i < n; i++) {
		if (lines[i % PG_TAIL] && off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? " | " : "",
						lines[i % PG_TAIL]);
	}
	for (unsigned i = 0; i < PG_TAIL; i++)
		free(lines[i]);
}

/* A step that failed: its name and the log's last lines. */
static int step_failed(const char *step, int rc, const char *log, char *err, size_t len)
{
	char last[CT_ERRLEN / 2];

	tail(log, last, sizeof(last));
	return ct_err(err, len, -EIO, "pgbench: %s failed (%s %d): %s", step,
		      rc < 0 ? "error" : "exit", rc < 0 ? -rc : rc, *last ? last : "no output");
}

/* One SQL command on database db through psql, as the server's user;
 * with out, its unaligned output's first line there. */
static int query(const struct pgb *p, const char *db, const char *q, char *out, size_t olen,
		 char *err, size_t len)
{
	char psql[PATH_MAX + 8], log[PATH_MAX + 16];
	char *argv[] = { psql,
			 "-X",
			 "-q",
			 "-t",
			 "-A",
			 "-F",
			 " ",
			 "-v",
			 "ON_ERROR_STOP=1",
			 "-h",
			 (char *)p->dir,
			 "-p",
			 PG_PORT,
			 "-U",
			 "postgres",
			 "-d",
			 (char *)db,
			 "-c",
			 (char *)q,
			 NULL };
	FILE *f;
	int rc;

	snprintf(psql, sizeof(psql), "%s/psql", p->bin);
	snprintf(log, sizeof(log), "%s/psql.log", p->dir);
	unlink(log);
	rc = run_as(p, argv, log, false);
	if (rc) {
		char step[160];

		snprintf(step, sizeof(step), "'%.100s'", q);
		return step_failed(step, rc, log, err, len);
	}
	if (!out)
		return 0;
	out[0] = '\0';
	f = fopen(log, "re");
	if (!f || !fgets(out, (int)olen, f))
		out[0] = '\0';
	if (f)
		fclose(f);
	out[strcspn(out, "\n")] = '\0';
	return 0;
}

static int sql(const struct pgb *p, const char *db, const char *cmd, char *err, size_t len)
{
	return query(p, db, cmd, NULL, 0, err, len);
}

static int server_start(struct pgb *p, char *err, size_t len)
{
	char ctl[PATH_MAX + 8];
	char *argv[] = { ctl, "-D", p->data, "-l", p->log, "-w", "-t", "300", "start", NULL };
	int rc;

	snprintf(ctl, sizeof(ctl), "%s/pg_ctl", p->bin);
	rc = run_as(p, argv, p->log, true);
	if (rc)
		return step_failed("starting the server (pg_ctl start)", rc, p->log, err, len);
	p->started = true;
	return 0;
}

static bool server_up(const struct pgb *p)
{
	char ctl[PATH_MAX + 8], log[PATH_MAX + 16];
	char *argv[] = { ctl, "-D", (char *)p->data, "status", NULL };

	snprintf(ctl, sizeof(ctl), "%s/pg_ctl", p->bin);
	snprintf(log, sizeof(log), "%s/psql.log", p->dir);
	return run_as(p, argv, log, false) == 0;
}

/* Fast shutdown, else immediate (what is left in its cgroup goes with it
 * at the cleanup). */
static void server_stop(struct pgb *p)
{
	char ctl[PATH_MAX + 8];
	char *fast[] = { ctl, "-D", p->data, "-m", "fast", "-w", "-t", "60", "stop", NULL };
	char *now[] = { ctl, "-D", p->data, "-m", "immediate", "-w", "-t", "30", "stop", NULL };

	if (!p->started)
		return;
	snprintf(ctl, sizeof(ctl), "%s/pg_ctl", p->bin);
	if (run_as(p, fast, p->log, false))
		(void)run_as(p, now, p->log, false);
	p->started = false;
}

/* ------------------------------------------------------------------ */
/* The session's cluster                                              */
/* ------------------------------------------------------------------ */

static unsigned server_version(const struct pgb *p)
{
	char path[PATH_MAX + 32], buf[16] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/PG_VERSION", p->data);
	f = fopen(path, "re");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	return (unsigned)strtoul(buf, NULL, 10);
}

static int write_conf(const struct pgb *p, char *err, size_t len)
{
	char path[PATH_MAX + 32];
	FILE *f;

	if (strchr(p->dir, '\''))
		return ct_err(err, len, -EINVAL, "pgbench: the work directory '%s' holds a quote",
			      p->dir);
	snprintf(path, sizeof(path), "%s/postgresql.conf", p->data);
	f = fopen(path, "ae");
	if (!f)
		return ct_err(err, len, -errno, "pgbench: cannot write '%s': %s", path,
			      strerror(errno));
	fprintf(f,
		"\n# contend: a throwaway cluster, a Unix socket only\n"
		"listen_addresses = ''\nunix_socket_directories = '%s'\nport = %s\n"
		"shared_buffers = %llukB\nmax_connections = %u\n"
		"maintenance_work_mem = 16MB\nwork_mem = 1MB\n"
		"logging_collector = off\n",
		p->dir, PG_PORT, (unsigned long long)(p->shared >> 10), p->clients + 10);
	return fclose(f) ? ct_err(err, len, -EIO, "pgbench: cannot write '%s'", path) : 0;
}

static int cluster_make(struct pgb *p, char *err, size_t len)
{
	char initdb[PATH_MAX + 8], ilog[PATH_MAX + 32], pgb_log[PATH_MAX + 32], sc[16];
	char *iargv[] = { initdb,	  "-D", p->data, "-U",	       "postgres",
			  "--auth=trust", "-E", "UTF8",	 "--locale=C", NULL };
	char *bargv[] = { p->pgbench, "-i",    "-q", "-s",	 sc,	     "-h", p->dir,
			  "-p",	      PG_PORT, "-U", "postgres", PG_DB_BASE, NULL };
	int rc;

	if (mkdir(p->dir, 0700) && errno != EEXIST)
		return ct_err(err, len, -errno, "pgbench: cannot create '%s': %s", p->dir,
			      strerror(errno));
	if (chown(p->dir, p->uid, p->gid))
		return ct_err(err, len, -errno,
			      "pgbench: cannot give '%s' to the server's user: %s", p->dir,
			      strerror(errno));
	snprintf(initdb, sizeof(initdb), "%s/initdb", p->bin);
	snprintf(ilog, sizeof(ilog), "%s/initdb.log", p->dir);
	rc = run_as(p, iargv, ilog, false);
	if (rc)
		return step_failed("initdb", rc, ilog, err, len);
	p->version = server_version(p);
	rc = write_conf(p, err, len);
	if (!rc)
		rc = server_start(p, err, len);
	if (!rc)
		rc = sql(p, "postgres", "CREATE DATABASE " PG_DB_BASE, err, len);
	if (rc)
		return rc;
	snprintf(sc, sizeof(sc), "%u", p->scale);
	snprintf(pgb_log, sizeof(pgb_log), "%s/pgbench-init.log", p->dir);
	rc = run_as(p, bargv, pgb_log, false);
	if (rc)
		return step_failed("pgbench -i", rc, pgb_log, err, len);
	rc = sql(p, PG_DB_BASE, "VACUUM ANALYZE", err, len);
	return rc ? rc : sql(p, "postgres", "CHECKPOINT", err, len);
}

/* ------------------------------------------------------------------ */
/* The workload                                                       */
/* ------------------------------------------------------------------ */

/* What the options make of the machine. A relative --pg-bin is found when
 * the workload is prepared (in the first config's directory, else here):
 * before, a bisection's candidate is not built yet. */
static int resolve(const struct ct_env *env, const struct ct_workload_opts *o, const char *dir,
		   bool prepare, struct pgb *p, char *err, size_t len)
{
	unsigned ncpus = env->ncpus ? env->ncpus : 1;
	int rc;

	memset(p, 0, sizeof(*p));
	if (!o->pg_bin || *o->pg_bin == '/' || prepare) {
		rc = use_bin(p, o->pg_bin, o->first_cwd, err, len);
		if (rc)
			return rc;
	}
	rc = find_user(p, err, len);
	if (rc)
		return rc;
	if (o->pg_script && o->pg_select)
		return ct_err(err, len, -EINVAL,
			      "pgbench: --pg-select and --pg-script: one script or the other");
	if (o->pg_script && access(o->pg_script, R_OK))
		return ct_err(err, len, -ENOENT, "pgbench: cannot read script '%s': %s",
			      o->pg_script, strerror(errno));
	p->scale = o->pg_scale ? o->pg_scale : env->quick ? PG_SCALE_Q : PG_SCALE;
	p->clients = o->pg_clients ? o->pg_clients : 4 * ncpus;
	p->duration_s = o->duration_ns ? (unsigned)((o->duration_ns + 999999999) / 1000000000)
			: env->quick   ? PG_DURATION_Q
				       : PG_DURATION;
	p->shared = o->pg_shared ? o->pg_shared : PG_SHARED;
	/* the server's own memory (its shared buffers, which cannot be
	 * reclaimed without swap, and PG_PROC_MB a process), then a quarter
	 * of the data set for the page cache */
	p->mem_limit = o->pg_mem_limit
			       ? o->pg_mem_limit
			       : p->shared + ((uint64_t)(p->clients + 8) * PG_PROC_MB << 20) +
					 ((uint64_t)p->scale * PG_SCALE_MB << 20) / 4;
	if (snprintf(p->dir, sizeof(p->dir), "%s/pg", dir) >= (int)sizeof(p->dir))
		return ct_err(err, len, -ENAMETOOLONG, "pgbench: directory '%s' is too long", dir);
	snprintf(p->data, sizeof(p->data), "%s/data", p->dir);
	snprintf(p->log, sizeof(p->log), "%s/server.log", p->dir);
	snprintf(p->txlog, sizeof(p->txlog), "%s/txlog", p->dir);
	return 0;
}

static void describe(const struct pgb *p, const struct ct_workload_opts *o, char *buf, size_t len)
{
	snprintf(buf, len, "scale=%u clients=%u duration=%us shared=%lluMiB mem=%lluMiB script=%s",
		 p->scale, p->clients, p->duration_s, (unsigned long long)(p->shared >> 20),
		 (unsigned long long)(p->mem_limit >> 20),
		 o->pg_script	? o->pg_script
		 : o->pg_select ? "select-only"
				: "tpcb");
}

static int pgb_check(const struct ct_env *env, const struct ct_workload_opts *o, const char *dir,
		     char *err, size_t len)
{
	struct pgb p;
	int rc = resolve(env, o, dir, false, &p, err, len);

	return rc ? rc : reachable(&p, dir, err, len);
}

static int pgb_describe(const struct ct_env *env, const struct ct_workload_opts *o, const char *dir,
			char *params, size_t plen, char *err, size_t len)
{
	struct pgb p;
	int rc = resolve(env, o, dir, false, &p, err, len);

	if (!rc)
		describe(&p, o, params, plen);
	return rc;
}

static void pgb_cleanup(struct ct_workload *w);
static int64_t pgb_helper_cpu_us(struct ct_workload *w);

static int pgb_prepare(struct ct_workload *w, char *err, size_t len)
{
	struct pgb *p = calloc(1, sizeof(*p));
	char name[64], why[CT_ERRLEN];
	int rc;

	if (!p)
		return ct_err(err, len, -ENOMEM, "out of memory");
	w->priv = p;
	rc = resolve(w->env, &w->opts, w->dir, true, p, err, len);
	if (rc)
		goto fail;
	/* the session's directories are contend's: the server's user may
	 * pass through them (not list them) */
	if (p->uid != geteuid())
		for (const char *d = w->env->dir; d; d = d == w->env->dir ? w->dir : NULL) {
			struct stat st;

			if (!stat(d, &st) && st.st_uid == geteuid())
				(void)chmod(d, (st.st_mode & 07777) | S_IXOTH);
		}
	rc = reachable(p, w->dir, err, len);
	if (rc)
		goto fail;
	snprintf(name, sizeof(name), "contend-pgbench-%d", (int)getpid());
	rc = ct_memcg_create(&p->cg, name, p->mem_limit, why, sizeof(why));
	if (rc) {
		rc = ct_err(err, len, rc == -ENOTSUP ? -ENOTSUP : -EPERM,
			    "pgbench: the server needs a memory cgroup: %s", why);
		goto fail;
	}
	/* before the server starts: a killed session's server is stopped by
	 * the next contend or `contend restore` (SIGQUIT: PostgreSQL's
	 * immediate shutdown, which removes its shared memory) */
	if (w->env->journal) {
		rc = ct_journal_hold_cgroup(w->env->journal, p->cg.path, "pgbench server", SIGQUIT,
					    err, len);
		if (rc)
			goto fail;
		p->journalled = true;
	}
	rc = cluster_make(p, err, len);
	if (rc)
		goto fail;
	describe(p, &w->opts, w->params, sizeof(w->params));
	return 0;
fail:
	pgb_cleanup(w);
	return rc;
}

/* Drops the cluster's files from the page cache (written back by the
 * checkpoint before): each run starts cold. */
static void uncache(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char path[PATH_MAX];
		int fd;

		if (de->d_name[0] == '.' && (!de->d_name[1] || de->d_name[1] == '.'))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (de->d_type == DT_DIR) {
			uncache(path);
			continue;
		}
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd >= 0) {
			(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
			close(fd);
		}
	}
	if (d)
		closedir(d);
}

/* Removes the last run's transaction logs. */
static void txlogs_remove(const struct pgb *p)
{
	DIR *d = opendir(p->dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char path[PATH_MAX + 300];

		if (strncmp(de->d_name, "txlog.", 6))
			continue;
		snprintf(path, sizeof(path), "%s/%s", p->dir, de->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
}

/* What the run's copy holds as it starts, kept with the run: the same
 * every run (built tables: no history yet, every balance 0).  */
static int copy_state(struct pgb *p, char *err, size_t len)
{
	char out[256];
	int rc;

	p->before[0] = p->before[1] = p->before[2] = NAN;
	rc = query(p, PG_DB_RUN,
		   "SELECT pg_database_size(current_database()), (SELECT count(*) FROM "
		   "pgbench_history), (SELECT sum(abalance) FROM pgbench_accounts)",
		   out, sizeof(out), err, len);
	if (rc)
		return rc;
	if (sscanf(out, "%lf %lf %lf", &p->before[0], &p->before[1], &p->before[2]) != 3)
		return ct_err(err, len, -EPROTO, "pgbench: the run's copy said '%s'", out);
	return 0;
}

/* A relative --pg-bin is each config's own build (a bisection's candidate
 * tree): the server of the config about to run, restarted on the same
 * cluster when the last run was another's. */
static int config_server(struct ct_workload *w, struct pgb *p, char *err, size_t len)
{
	char bin[sizeof(p->bin)];
	int rc;

	if (!w->opts.pg_bin || *w->opts.pg_bin == '/')
		return 0; /* a NULL cwd: here, as at a plain run's prepare */
	rc = find_bin(w->opts.pg_bin, w->cwd, bin, sizeof(bin), err, len);
	if (rc || !strcmp(bin, p->bin))
		return rc;
	server_stop(p);
	rc = use_bin(p, w->opts.pg_bin, w->cwd, err, len);
	return rc ? rc : server_start(p, err, len);
}

static int pgb_reset(struct ct_workload *w, char *err, size_t len)
{
	struct pgb *p = w->priv;
	char create[128];
	int rc;

	txlogs_remove(p);
	free(p->series);
	p->series = NULL;
	p->nseries = 0;
	rc = config_server(w, p, err, len);
	if (rc)
		return rc;
	if (!server_up(p)) {
		/* it crashed in the last run: that run failed; this one gets
		 * a fresh server (crash recovery, then the fresh copy) */
		p->started = false;
		rc = server_start(p, err, len);
		if (rc)
			return rc;
	}
	snprintf(create, sizeof(create), "CREATE DATABASE " PG_DB_RUN " TEMPLATE " PG_DB_BASE "%s",
		 p->version >= 15 ? " STRATEGY FILE_COPY" : "");
	rc = sql(p, "postgres",
		 p->version >= 13 ? "DROP DATABASE IF EXISTS " PG_DB_RUN " WITH (FORCE)"
				  : "DROP DATABASE IF EXISTS " PG_DB_RUN,
		 err, len);
	if (!rc)
		rc = sql(p, "postgres", create, err, len);
	if (!rc)
		rc = sql(p, "postgres", "CHECKPOINT", err, len);
	if (!rc)
		rc = copy_state(p, err, len);
	if (!rc)
		uncache(p->data);
	p->cpu0 = pgb_helper_cpu_us(w);
	return rc;
}

__attribute__((noreturn)) static void pgb_exec(struct ct_workload *w)
{
	struct pgb *p = w->priv;
	char c[16], j[16], t[16], prefix[PATH_MAX + 32];
	char *argv[32];
	int n = 0;

	snprintf(c, sizeof(c), "%u", p->clients);
	snprintf(j, sizeof(j), "%u", p->clients); /* a thread a client */
	snprintf(t, sizeof(t), "%u", p->duration_s);
	snprintf(prefix, sizeof(prefix), "--log-prefix=%s", p->txlog);
	argv[n++] = p->pgbench;
	argv[n++] = "-n"; /* each run's copy is fresh: nothing to vacuum */
	argv[n++] = "-h";
	argv[n++] = p->dir;
	argv[n++] = "-p";
	argv[n++] = PG_PORT;
	argv[n++] = "-U";
	argv[n++] = "postgres";
	argv[n++] = "-c";
	argv[n++] = c;
	argv[n++] = "-j";
	argv[n++] = j;
	argv[n++] = "-T";
	argv[n++] = t;
	argv[n++] = "-P";
	argv[n++] = "1";
	argv[n++] = "-l";
	argv[n++] = prefix;
	if (w->opts.pg_script) {
		argv[n++] = "-f";
		argv[n++] = (char *)w->opts.pg_script;
	} else if (w->opts.pg_select) {
		argv[n++] = "-S";
	}
	argv[n++] = PG_DB_RUN;
	argv[n] = NULL;
	execv(argv[0], argv);
	fprintf(stderr, "pgbench: cannot run '%s': %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* The run failed: why, and with the server gone the last lines of its
 * log. */
static void fail(struct ct_run *r, const struct pgb *p, const char *what, bool log)
{
	const char *part[4] = { "pgbench: ", what, log ? "; the server's log: " : "", "" };
	char last[CT_ERRLEN];
	size_t off = 0;

	r->status = CT_RUN_FAILED;
	if (log) {
		tail(p->log, last, sizeof(last));
		part[3] = last;
	}
	/* cut at the reason's length: its start says what */
	for (int i = 0; i < 4; i++) {
		size_t k = strlen(part[i]);

		if (k > sizeof(r->reason) - 1 - off)
			k = sizeof(r->reason) - 1 - off;
		memcpy(r->reason + off, part[i], k);
		off += k;
	}
	r->reason[off] = '\0';
}

static void metric(struct ct_run *r, const char *name, double v)
{
	if (isfinite(v))
		(void)ct_run_metric_set(r, name, v);
}

static void pgb_collect(struct ct_workload *w, struct ct_run *r)
{
	struct pgb *p = w->priv;
	struct pgb_figures f;
	const char *why;
	int64_t peak = ct_memcg_peak(&p->cg);

	if (peak >= 0)
		metric(r, "mem_peak", (double)peak);
	metric(r, "mem_limit", (double)p->mem_limit);
	metric(r, "scale", p->scale);
	metric(r, "db_bytes", p->before[0]);
	metric(r, "history_rows", p->before[1]);
	metric(r, "balance_sum", p->before[2]);
	if (pgb_helper_cpu_us(w) >= p->cpu0) /* not when the server died */
		metric(r, "server_cpu_s", (double)(pgb_helper_cpu_us(w) - p->cpu0) / 1e6);
	if (r->status != CT_RUN_OK || r->exit_code) {
		char what[CT_ERRLEN / 2];

		if (!server_up(p)) {
			fail(r, p, "the server is gone", true);
		} else if (r->status == CT_RUN_OK) {
			pgb_first_error(w->err_log, what, sizeof(what));
			fail(r, p, what, false);
		}
		return;
	}
	memset(&f, 0, sizeof(f));
	pgb_summary(w->out_log, &f);
	metric(r, "tps_pgbench", f.tps_printed);
	metric(r, "txns_pgbench", f.txns_printed);
	metric(r, "failed", f.failed);
	why = pgb_figures(p->dir, p->duration_s, &p->hist, &f);
	p->series = f.series;
	p->nseries = f.nseries;
	if (why) {
		fail(r, p, why, !f.ntx);
		return;
	}
	metric(r, CT_METRIC_TPS, f.tps);
	metric(r, "txns", (double)f.n);
	metric(r, "measured_s", (double)(p->duration_s - f.ramp_s));
	metric(r, "ramp_s", f.ramp_s);
	metric(r, "ramp_steady", f.steady);
	metric(r, "lat_mean_us", f.mean_us);
	metric(r, "lat_p50_us", f.p50_us);
	metric(r, "lat_p95_us", f.p95_us);
	metric(r, "lat_p99_us", f.p99_us);
	metric(r, "lat_max_us", f.max_us);
	snprintf(r->hists[0].name, sizeof(r->hists[0].name), "pgbench");
	r->hists[0].h = &p->hist;
	r->nhists = 1;
	r->series = p->series;
	r->nseries = p->nseries;
}

static int64_t pgb_helper_cpu_us(struct ct_workload *w)
{
	struct pgb *p = w->priv;

	return p && p->cg.version ? ct_cgroup_procs_cpu_us(p->cg.path) : 0;
}

/* The postmaster: the backends it forks for pgbench's clients are the
 * run's (their delay accounting joins pgbench's). */
static pid_t pgb_helper_root(struct ct_workload *w)
{
	struct pgb *p = w->priv;
	char path[PATH_MAX + 32], buf[32];

	snprintf(path, sizeof(path), "%s/postmaster.pid", p->data);
	return ct_read_file(path, buf, sizeof(buf)) > 0 ? (pid_t)strtol(buf, NULL, 10) : 0;
}

/* Whether a process of the server serves the run's database: a backend
 * titles itself "postgres: USER DB ...". */
static bool serves_run(pid_t pid)
{
	char path[64], buf[256];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	n = ct_read_file(path, buf, sizeof(buf));
	return n > 0 && !strncmp(buf, "postgres: ", 10) && strstr(buf, " " PG_DB_RUN " ");
}

/* Until pgbench's backends are gone (they exit once their client has,
 * a moment after), at most 3 s. */
static void pgb_settle(struct ct_workload *w)
{
	struct pgb *p = w->priv;
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", p->cg.path);
	for (int i = 0; p->cg.version && i < 300; i++) {
		FILE *f = fopen(path, "re");
		bool busy = false;
		int pid;

		while (f && !busy && fscanf(f, "%d", &pid) == 1)
			busy = serves_run((pid_t)pid);
		if (f)
			fclose(f);
		if (!busy)
			return;
		usleep(10000);
	}
}

static void pgb_cleanup(struct ct_workload *w)
{
	struct pgb *p = w->priv;

	if (!p)
		return;
	server_stop(p);
	if (w->env->report_file && p->log[0])
		pgb_keep_log(p->log, w->env->report_file);
	/* what pg_ctl did not stop: immediate shutdown, then SIGKILL */
	if (p->cg.version && !ct_cgroup_stop(p->cg.path, SIGQUIT, 10000000000LL, NULL))
		p->cg.version = 0;
	if (p->cg.version) /* kept in the journal for the next contend */
		fprintf(stderr, "contend: pgbench: cannot remove the server's cgroup %s\n",
			p->cg.path);
	if (p->journalled && !p->cg.version) {
		char e2[CT_ERRLEN];

		if (ct_journal_delete(w->env->journal, p->cg.path, e2, sizeof(e2)))
			fprintf(stderr, "contend: pgbench: %s\n", e2);
	}
	if (!w->env->keep_files && p->dir[0])
		ct_rm_rf(p->dir);
	free(p->series);
	free(p);
	w->priv = NULL;
}

static const struct ct_option pgb_options[] = {
	CT_WORKLOAD_OPTION(CT_OPTION_STRING, "pg-bin", pg_bin, "DIR",
			   "the PostgreSQL server's programs (default the newest\n"
			   "/usr/lib/postgresql/N/bin; relative: in each bisect\n"
			   "candidate's tree, its own build)",
			   0, 0, 0),
	CT_WORKLOAD_OPTION(CT_OPTION_UINT, "pg-scale", pg_scale, "N",
			   "pgbench -i's scale, 16MiB of data each (default 50,\nquick 10; %R)", 1,
			   100000, 0),
	CT_WORKLOAD_OPTION(CT_OPTION_SIZE, "pg-shared-buffers", pg_shared, "SIZE",
			   "the server's shared_buffers (default 16MiB; %R)", 131072, INFINITY, 0),
	CT_WORKLOAD_OPTION(CT_OPTION_SIZE, "pg-mem-limit", pg_mem_limit, "SIZE",
			   "the server's cgroup memory.max (default shared\nbuffers + 4MiB per "
			   "client and 8 more + a quarter\nof the data; %R)",
			   16777216, INFINITY, 0),
	CT_WORKLOAD_OPTION(CT_OPTION_UINT, "pg-clients", pg_clients, "N",
			   "pgbench's clients and threads (default 4 x CPUs; %R)", 1, 1000, 0),
	CT_WORKLOAD_OPTION(CT_OPTION_FLAG, "pg-select", pg_select, NULL,
			   "select-only transactions (pgbench -S)", 0, 0, 0),
	CT_WORKLOAD_OPTION(CT_OPTION_STRING, "pg-script", pg_script, "FILE",
			   "a custom pgbench script (pgbench -f)", 0, 0, 0),
	CT_WORKLOAD_OPTION(CT_OPTION_DURATION, "duration", duration_ns, "D",
			   "pgbench's time per run, whole seconds, rounded up\n(default 60s, quick "
			   "20s; %R)",
			   0, INFINITY, CT_OPTION_MIN_OPEN),
	CT_OPTION_DONE,
};

const struct ct_workload_ops ct_workload_pgbench = {
	.name = "pgbench",
	.summary = "PostgreSQL's pgbench on a throwaway cluster under a memory limit (tps)",
	.flags = CT_WL_OWN_WARMUP | CT_WL_SCORED | CT_WL_PROFILED,
	.options = pgb_options,
	.default_loads = "none",
	.check = pgb_check,
	.describe = pgb_describe,
	.prepare = pgb_prepare,
	.reset = pgb_reset,
	.exec = pgb_exec,
	.collect = pgb_collect,
	.helper_cpu_us = pgb_helper_cpu_us,
	.helper_root = pgb_helper_root,
	.settle = pgb_settle,
	.cleanup = pgb_cleanup,
};
