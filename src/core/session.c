/*
 * The session runner: the one place that knows the order of a run. Loads
 * are prepared one at a time (a RAM-sized file per load would not fit the
 * disk otherwise), every run is stored as soon as it ends, and every exit
 * path - normal, failure, signal - kills and reaps what it started.
 */
#include "contend/session.h"
#include "contend/knob.h"
#include "contend/load.h"
#include "contend/monitor.h"
#include "contend/proc.h"
#include "contend/signals.h"
#include "contend/stats.h"
#include "contend/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TICK_NS 250000000LL /* load liveness check interval during a run */

struct session_rt {
	struct ct_session *s;
	struct ct_store *st;
	char cg_session[PATH_MAX]; /* "" when no cgroup v2 */
	char cg_fg[PATH_MAX];
	char fg_log[PATH_MAX + 16]; /* the foreground's stdout and stderr */
	pid_t guard;
	struct guard_shm *guard_shm;
	unsigned done, total;
	long cur_cfg;	    /* the config whose knobs are in force, -1 none */
	bool journalled;    /* knobs are in the journal: restore at the end */
	int64_t run_ns_sum; /* for the ETA */
	unsigned run_count;
};

static void emit(struct session_rt *rt, enum ct_event_kind kind, const char *load, unsigned run,
		 const struct ct_run *result, const char *msg)
{
	struct ct_session *s = rt->s;
	struct ct_event ev = {
		.kind = kind,
		.msg = msg,
		.load = load,
		.run = run,
		.runs = s->opts.runs,
		.done = rt->done,
		.total = rt->total,
		.elapsed_ns = ct_now_ns() - s->t0,
		.eta_ns = -1,
		.result = result,
	};

	if (rt->done && rt->done < rt->total)
		ev.eta_ns = ev.elapsed_ns / rt->done * (rt->total - rt->done);
	if (s->on_event)
		s->on_event(s->ctx, &ev);
}

static void warn(struct session_rt *rt, const char *fmt, ...) CT_PRINTF(2, 3);
static void warn(struct session_rt *rt, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	emit(rt, CT_EV_WARN, NULL, 0, NULL, msg);
}

int ct_env_from_machine(struct ct_env *env, char *err, size_t len)
{
	struct ct_sysinfo si;
	int rc = ct_sysinfo_capture(&si, "", "/", err, len);

	if (rc)
		return rc;
	env->ncpus = si.ncpus ? si.ncpus : 1;
	env->ram_bytes = si.ram_bytes;
	env->swap_bytes = si.swap_bytes;
	env->mem_available = si.mem_available;
	return 0;
}

/* Removes cgroups left by a contend that was SIGKILLed (their pid is gone). */
static void sweep_stale_cgroups(const char *root)
{
	DIR *d = opendir(root);
	struct dirent *de;
	char path[PATH_MAX + 256];

	if (!d)
		return;
	while ((de = readdir(d))) {
		int pid;

		if (sscanf(de->d_name, "contend-%d", &pid) != 1)
			continue;
		if (kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", root, de->d_name);
		DIR *sub = opendir(path);
		if (sub) {
			struct dirent *e;
			char child[2 * PATH_MAX + 512];

			while ((e = readdir(sub)))
				if (e->d_name[0] != '.' && e->d_type == DT_DIR) {
					snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
					(void)ct_cgroup_destroy(child);
				}
			closedir(sub);
		}
		(void)ct_cgroup_destroy(path);
	}
	closedir(d);
}

static void setup_cgroups(struct session_rt *rt)
{
	char root[PATH_MAX], name[64];

	rt->cg_session[0] = rt->cg_fg[0] = '\0';
	if (!rt->s->opts.use_cgroups || ct_cgroup_v2_root(root, sizeof(root)))
		return;
	sweep_stale_cgroups(root);
	snprintf(name, sizeof(name), "contend-%d", (int)getpid());
	if (ct_cgroup_create(root, name, rt->cg_session, sizeof(rt->cg_session))) {
		rt->cg_session[0] = '\0';
		return;
	}
	if (ct_cgroup_create(rt->cg_session, "fg", rt->cg_fg, sizeof(rt->cg_fg)))
		rt->cg_fg[0] = '\0';
}

static void teardown_cgroups(struct session_rt *rt)
{
	if (rt->cg_fg[0])
		(void)ct_cgroup_destroy(rt->cg_fg);
	if (rt->cg_session[0])
		(void)ct_cgroup_destroy(rt->cg_session);
}

/*
 * The guard: a small child that outlives contend only to clean up after it.
 * PDEATHSIG reaches contend's direct children, not what they start (the
 * compiler jobs of make, a cmd's children), and a SIGKILLed contend removes
 * no files. The guard waits for SIGUSR1, which the kernel sends it when
 * contend dies; it then kills the session's cgroup or the foreground's
 * process group and removes the work directory. On a normal end contend
 * sends it SIGTERM and reaps it.
 */
struct guard_shm {
	_Atomic int fg_pgid;   /* foreground's process group, 0 between runs */
	char cgroup[PATH_MAX]; /* session cgroup, "" when none */
	char dir[PATH_MAX];    /* work directory, "" to keep it */
};

static _Noreturn void guard_main(struct guard_shm *g, pid_t parent)
{
	sigset_t set;
	int sig = 0, pgid;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGUSR1);
	if (getppid() != parent)
		sig = SIGUSR1;
	while (!sig && sigwait(&set, &sig))
		;
	if (sig == SIGUSR1) {
		pgid = atomic_load(&g->fg_pgid);
		if (pgid > 0)
			kill(-pgid, SIGKILL);
		if (g->cgroup[0])
			(void)ct_cgroup_kill(g->cgroup, 5000000000LL);
		if (g->dir[0])
			ct_rm_rf(g->dir);
	}
	_exit(0);
}

static int start_guard(struct session_rt *rt)
{
	struct ct_session *s = rt->s;
	pid_t self = getpid();
	sigset_t all, old;

	rt->guard_shm = mmap(NULL, sizeof(*rt->guard_shm), PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (rt->guard_shm == MAP_FAILED) {
		rt->guard_shm = NULL;
		return -errno;
	}
	snprintf(rt->guard_shm->cgroup, sizeof(rt->guard_shm->cgroup), "%s", rt->cg_session);
	if (!s->env.keep_files)
		snprintf(rt->guard_shm->dir, sizeof(rt->guard_shm->dir), "%s", s->env.dir);
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	rt->guard = fork();
	if (rt->guard == 0)
		guard_main(rt->guard_shm, self);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rt->guard < 0 ? -errno : 0;
}

static void stop_guard(struct session_rt *rt)
{
	if (rt->guard > 0) {
		kill(rt->guard, SIGTERM);
		(void)ct_proc_reap(rt->guard, NULL, NULL);
		rt->guard = 0;
	}
	if (rt->guard_shm)
		munmap(rt->guard_shm, sizeof(*rt->guard_shm));
	rt->guard_shm = NULL;
}

static void guard_foreground(struct session_rt *rt, pid_t pgid)
{
	if (rt->guard_shm)
		atomic_store(&rt->guard_shm->fg_pgid, pgid);
}

/* Writes back what a load left dirty, untimed, so each run starts from the
 * same state and repetitions stay independent samples. */
static void settle(const struct ct_env *env)
{
	const char *dirs[] = { env->dir, env->other_dir };

	for (size_t i = 0; i < CT_ARRAY_SIZE(dirs); i++) {
		int fd;

		if (!dirs[i])
			continue;
		fd = open(dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0) {
			syncfs(fd);
			close(fd);
		}
	}
}

/* Orphans re-parented to us (we are a child subreaper) are reaped here. */
static void reap_orphans(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

static int drop_caches(char *err, size_t len)
{
	int rc;

	sync();
	rc = ct_write_file("/proc/sys/vm/drop_caches", "3");
	if (rc)
		return ct_err(err, len, rc, "cannot drop caches: %s", strerror(-rc));
	return 0;
}

static void fail_run(struct ct_run *r, const char *reason)
{
	r->status = CT_RUN_FAILED;
	snprintf(r->reason, sizeof(r->reason), "%s", reason);
}

static void kill_foreground(pid_t pid, const char *cg)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	if (cg && *cg)
		(void)ct_cgroup_kill(cg, 2000000000LL);
}

/* The foreground runs in a background process group: one that touches the
 * terminal (a password prompt) is stopped by SIGTTIN/SIGTTOU and would
 * never end. A stopped foreground fails its run instead of hanging. */
static bool foreground_stopped(pid_t pid, char *why, size_t len)
{
	siginfo_t si = { 0 };

	if (waitid(P_PID, (id_t)pid, &si, WSTOPPED | WNOHANG | WNOWAIT) || si.si_pid != pid ||
	    si.si_code != CLD_STOPPED)
		return false;
	snprintf(why, len, "the foreground was stopped by signal %d (%s); it may need a terminal",
		 si.si_status, strsignal(si.si_status));
	return true;
}

/* Ends a run that cannot give a result: everything it started is killed
 * and reaped, nothing is measured. */
static void abort_run(struct session_rt *rt, struct ct_load *l, pid_t pid, int pidfd)
{
	int status;

	kill_foreground(pid, rt->cg_fg);
	(void)ct_proc_reap(pid, &status, NULL);
	guard_foreground(rt, 0);
	ct_load_kill(l);
	if (pidfd >= 0)
		close(pidfd);
	reap_orphans();
}

/* In the foreground's child: stdin from /dev/null, stdout and stderr to the
 * run's log, so a compile's output neither mixes with the table nor costs a
 * terminal's time. */
static void redirect_output(const char *log)
{
	int in = open("/dev/null", O_RDONLY), out = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (in >= 0) {
		dup2(in, STDIN_FILENO);
		close(in);
	}
	if (out >= 0) {
		dup2(out, STDOUT_FILENO);
		dup2(out, STDERR_FILENO);
		close(out);
	}
}

/* The last non-empty line of the foreground's log, for a failed run's reason. */
static void last_line(const char *log, char *buf, size_t len)
{
	char tail[1024];
	ssize_t n;
	int fd = open(log, O_RDONLY | O_CLOEXEC);
	char *end, *start;

	buf[0] = '\0';
	if (fd < 0)
		return;
	off_t size = lseek(fd, 0, SEEK_END);
	off_t from = size > (off_t)sizeof(tail) - 1 ? size - (off_t)sizeof(tail) + 1 : 0;
	n = pread(fd, tail, sizeof(tail) - 1, from);
	close(fd);
	if (n <= 0)
		return;
	tail[n] = '\0';
	end = tail + n;
	while (end > tail && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	start = memrchr(tail, '\n', (size_t)(end - tail));
	start = start ? start + 1 : tail;
	n = end - start;
	if ((size_t)n >= len)
		n = (ssize_t)len - 1;
	memcpy(buf, start, (size_t)n);
	buf[n] = '\0';
}

/*
 * One run. Returns 0 when the run produced a result (ok or failed, in *r),
 * -EINTR when a signal arrived (everything killed and reaped), or another
 * -errno when the session cannot go on.
 */
static int run_one(struct session_rt *rt, struct ct_workload *w, struct ct_load *l,
		   struct ct_run *r, char *err, size_t len)
{
	struct ct_session *s = rt->s;
	struct ct_load_result lres;
	struct ct_snapshot a, b;
	struct rusage ru;
	char why[CT_ERRLEN];
	int64_t t0, t1 = 0;
	pid_t pid, self = getpid();
	int pidfd, status = 0, rc;
	bool have_snap;

	snprintf(r->workload, sizeof(r->workload), "%s", w->ops->name);
	snprintf(r->load, sizeof(r->load), "%s", l->ops->name);
	snprintf(r->workload_params, sizeof(r->workload_params), "%s", w->params);
	snprintf(r->load_params, sizeof(r->load_params), "%s", l->params);
	r->load_unit_scale = l->ops->unit_scale;
	r->started_at = ct_wall_ns();

	if (s->opts.drop_caches) {
		rc = drop_caches(err, len);
		if (rc)
			return rc;
	}
	if (w->ops->reset) {
		rc = w->ops->reset(w, why, sizeof(why));
		if (rc) {
			fail_run(r, why);
			return 0;
		}
	}
	if (ct_signals_pending())
		return -EINTR;

	rc = ct_load_start(l, rt->cg_session[0] ? rt->cg_session : NULL, why, sizeof(why));
	if (rc) {
		fail_run(r, why);
		return 0;
	}
	rc = ct_load_wait_ready(l, s->opts.delay_ns, why, sizeof(why));
	if (ct_signals_pending()) {
		ct_load_kill(l);
		return -EINTR;
	}
	if (rc) {
		ct_load_stop(l, &lres);
		fail_run(r, why);
		return 0;
	}

	have_snap = ct_monitor_snap(&a, "", s->si.block_dev) == 0;
	ct_load_mark(l);
	t0 = ct_now_ns();
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		ct_load_kill(l);
		return ct_err(err, len, rc, "cannot fork the foreground '%s': %s", w->ops->name,
			      strerror(-rc));
	}
	if (pid == 0) {
		ct_proc_child_setup(self);
		if (rt->cg_fg[0])
			(void)!ct_cgroup_attach(rt->cg_fg, getpid());
		redirect_output(rt->fg_log);
		w->ops->exec(w);
	}
	guard_foreground(rt, pid);
	pidfd = ct_pidfd_open(pid);

	for (;;) {
		if (pidfd >= 0) {
			rc = ct_pidfd_wait(pidfd, ct_signals_fd(), TICK_NS);
		} else {
			/* no pidfd (old kernel): poll with waitid, less precise */
			siginfo_t si = { 0 };
			usleep(1000);
			rc = waitid(P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid
				     ? 1
				     : 0;
		}
		if (rc == 1) {
			t1 = ct_now_ns();
			break;
		}
		if (ct_signals_pending() || rc == 2) {
			abort_run(rt, l, pid, pidfd);
			return -EINTR;
		}
		if (rc < 0 && rc != -EINTR) {
			abort_run(rt, l, pid, pidfd);
			return ct_err(err, len, rc, "cannot wait for the foreground: %s",
				      strerror(-rc));
		}
		if (ct_load_check(l, s->opts.stall_ns, why, sizeof(why))) {
			t1 = ct_now_ns();
			kill_foreground(pid, rt->cg_fg);
			fail_run(r, why);
			break;
		}
		if (foreground_stopped(pid, why, sizeof(why))) {
			t1 = ct_now_ns();
			kill_foreground(pid, rt->cg_fg);
			fail_run(r, why);
			break;
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	/* whatever the foreground left running dies with it; its zombie still
	 * holds the process group id, so this cannot hit anyone else */
	kill(-pid, SIGKILL);
	rc = ct_proc_reap(pid, &status, &ru);
	guard_foreground(rt, 0);
	if (rc)
		return ct_err(err, len, rc, "cannot reap the foreground: %s", strerror(-rc));
	if (rt->cg_fg[0])
		(void)ct_cgroup_kill(rt->cg_fg, 2000000000LL); /* strays of a cmd */
	if (have_snap && ct_monitor_snap(&b, "", s->si.block_dev))
		have_snap = false;
	ct_load_stop(l, &lres);
	reap_orphans();
	settle(&s->env);

	r->wall_ns = t1 - t0;
	r->user_us = ct_tv_us(ru.ru_utime);
	r->sys_us = ct_tv_us(ru.ru_stime);
	r->exit_code = ct_proc_exit_code(status);
	r->load_work = lres.work;
	if (lres.cpu_estimated) {
		/* said with the run, so LCPU% is never taken for exact */
		size_t used = strlen(r->load_params);

		snprintf(r->load_params + used, sizeof(r->load_params) - used, "%slcpu=estimated",
			 used ? " " : "");
	}
	r->load_user_us = lres.user_us;
	r->load_sys_us = lres.sys_us;
	if (w->ops->collect)
		w->ops->collect(w, r);
	if (have_snap)
		ct_monitor_delta(&a, &b, r->user_us + r->sys_us + r->load_user_us + r->load_sys_us,
				 &r->mon);
	if (r->status == CT_RUN_OK && lres.failed)
		fail_run(r, lres.reason);
	if (r->status == CT_RUN_OK && r->exit_code) {
		char last[160];

		last_line(rt->fg_log, last, sizeof(last));
		if (WIFSIGNALED(status))
			snprintf(why, sizeof(why), "%s killed by signal %d (%s)%s%s", w->ops->name,
				 WTERMSIG(status), strsignal(WTERMSIG(status)), *last ? ": " : "",
				 last);
		else
			snprintf(why, sizeof(why), "%s exited with status %d%s%s", w->ops->name,
				 r->exit_code, *last ? ": " : "", last);
		fail_run(r, why);
	}
	return 0;
}

static void read_id(const char *path, char *buf, size_t len)
{
	if (ct_read_file(path, buf, len) < 0)
		buf[0] = '\0';
}

/* Start time of a process in clock ticks since boot (field 22), 0 if gone. */
static uint64_t proc_start(int pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (ct_read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	p = strrchr(buf, ')'); /* the name may hold spaces and parentheses */
	if (!p || sscanf(p + 2,
			 "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d"
			 " %*d %*d %llu",
			 &t) != 1)
		return 0;
	return t;
}

struct whoami {
	char boot[40], machine[40];
};

static void whoami(struct whoami *me)
{
	read_id("/proc/sys/kernel/random/boot_id", me->boot, sizeof(me->boot));
	read_id("/etc/machine-id", me->machine, sizeof(me->machine));
}

/* A session of another machine (a shared store) is never judged; on this
 * machine it is gone with its boot, or when its pid no longer names the
 * process that started it (pids are reused, start times are not). */
static bool session_orphaned(const struct ct_session_rec *r, const struct whoami *me)
{
	if (!*me->machine || strcmp(r->machine_id, me->machine))
		return false;
	if (!*me->boot || strcmp(r->boot_id, me->boot))
		return true;
	return r->pid <= 0 || proc_start(r->pid) != r->pid_start;
}

/*
 * The config and the session are stored once the workload and the first
 * load are prepared and the warm-up has run, not before: a session that
 * ends earlier (bad input found while preparing, no space for a load file,
 * a signal) leaves nothing in the store. From here on it is marked
 * complete, failed or interrupted.
 */
static int begin_session(struct session_rt *rt, struct ct_session_config *c, char *err, size_t len)
{
	struct ct_session *s = rt->s;
	struct whoami me;
	int rc;

	rc = ct_store_config_put(rt->st, c->label, &c->si, &c->rec.config_id, err, len);
	if (rc)
		return rc;
	snprintf(c->rec.label, sizeof(c->rec.label), "%s", c->label);
	snprintf(c->rec.argv, sizeof(c->rec.argv), "%s", s->opts.argv);
	snprintf(c->rec.workload, sizeof(c->rec.workload), "%s", s->opts.workload);
	snprintf(c->rec.profile, sizeof(c->rec.profile), "%s", s->env.quick ? "quick" : "full");
	if (s->ncfg > 1)
		snprintf(c->rec.schedule, sizeof(c->rec.schedule), "%s seed=%llu first=%lld",
			 s->opts.sequential ? "sequential" : "interleaved",
			 (unsigned long long)s->opts.order_seed,
			 (long long)(c == &s->cfg[0] ? 0 : s->cfg[0].rec.id));
	whoami(&me);
	c->rec.pid = getpid();
	c->rec.pid_start = proc_start(c->rec.pid);
	snprintf(c->rec.boot_id, sizeof(c->rec.boot_id), "%s", me.boot);
	snprintf(c->rec.machine_id, sizeof(c->rec.machine_id), "%s", me.machine);
	rc = ct_store_session_begin(rt->st, &c->rec, err, len);
	if (rc)
		c->rec.id = 0;
	return rc;
}

/* Every config's session, in order, so ids follow the configs. */
static int begin_sessions(struct session_rt *rt, char *err, size_t len)
{
	for (size_t k = 0; k < rt->s->ncfg; k++) {
		int rc;

		if (rt->s->cfg[k].rec.id)
			continue;
		rc = begin_session(rt, &rt->s->cfg[k], err, len);
		if (rc)
			return rc;
	}
	return 0;
}

static int store_run(struct session_rt *rt, struct ct_session_config *c, struct ct_run *r,
		     unsigned seq, char *err, size_t len)
{
	int rc;

	if (!c->rec.id) {
		rc = begin_sessions(rt, err, len);
		if (rc)
			return rc;
	}
	r->session_id = c->rec.id;
	r->config_id = c->rec.config_id;
	r->seq = seq;
	return ct_store_run_put(rt->st, r, err, len);
}

/* Updates the cell's precision; true once it is precise enough to stop. */
static bool adaptive_done(struct ct_session *s, struct ct_cell_outcome *cell, const double *times)
{
	struct ct_stats_summary sum;

	if (cell->runs < 2 || ct_stats_summarize(times, cell->runs, 95, &sum) || sum.mean <= 0)
		return false;
	cell->halfwidth_pct = (sum.ci_high - sum.ci_low) / 2 / sum.mean * 100;
	cell->precise =
		cell->runs >= CT_ADAPTIVE_MIN_RUNS && cell->halfwidth_pct <= s->opts.precision_pct;
	return cell->precise;
}

/* Puts config k's knobs in force, then runs the unrecorded warm-ups a
 * change calls for. */
static int switch_config(struct session_rt *rt, struct ct_workload *w, struct ct_load *l, size_t k,
			 char *err, size_t len)
{
	struct ct_session *s = rt->s;
	char msg[CT_ERRLEN + 64];
	int rc;

	if (rt->cur_cfg == (long)k || !s->cfg[k].knobs)
		return 0;
	rc = ct_knob_apply_config(s->cfg[k].knobs, err, len);
	if (rc)
		return rc;
	rt->cur_cfg = (long)k;
	snprintf(msg, sizeof(msg), "config %s", s->cfg[k].label);
	emit(rt, CT_EV_INFO, l->ops->name, 0, NULL, msg);
	for (unsigned i = 0; i < s->opts.knob_warmup; i++) {
		struct ct_run r;

		memset(&r, 0, sizeof(r));
		emit(rt, CT_EV_RUN_START, "warm-up", 0, NULL, NULL);
		rc = run_one(rt, w, l, &r, err, len);
		if (rc)
			return rc;
	}
	return 0;
}

/* The order of the configs in block b (1-based): two configs alternate as
 * AB BA AB ..., starting with a seeded coin; more are shuffled per block. */
static void block_order(const struct ct_session *s, unsigned b, size_t *order)
{
	uint64_t st = s->opts.order_seed ^ (0x9e3779b97f4a7c15ULL * b);

	for (size_t k = 0; k < s->ncfg; k++)
		order[k] = k;
	if (s->ncfg == 2) {
		uint64_t first = s->opts.order_seed & 1;

		if (((b - 1) + first) % 2) {
			order[0] = 1;
			order[1] = 0;
		}
		return;
	}
	for (size_t k = s->ncfg - 1; k > 0; k--) {
		size_t j = (size_t)(ct_rand64(&st) % (k + 1)), t = order[k];

		order[k] = order[j];
		order[j] = t;
	}
}

static int run_load(struct session_rt *rt, struct ct_workload *w, const char *name, char *err,
		    size_t len)
{
	struct ct_session *s = rt->s;
	const struct ct_load_ops *ops = ct_load_find(name);
	struct ct_load l;
	char msg[CT_ERRLEN + 64];
	int rc;

	snprintf(msg, sizeof(msg), "preparing load '%s'", name);
	emit(rt, CT_EV_INFO, name, 0, NULL, msg);
	rc = ct_load_init(&l, ops, &s->env, err, len);
	if (rc)
		return rc;
	if (ct_signals_pending()) {
		ct_load_release(&l);
		return -EINTR;
	}
	rc = begin_sessions(rt, err, len);
	if (rc) {
		ct_load_release(&l);
		return rc;
	}
	unsigned cap = s->opts.adaptive ? s->opts.max_runs : s->opts.runs;
	struct ct_cell_outcome *cell = s->opts.adaptive ? &s->cells[s->ncells++] : NULL;
	double *times = cell ? calloc(cap, sizeof(*times)) : NULL;
	int64_t cell_start = ct_now_ns();

	if (cell) {
		if (!times) {
			ct_load_release(&l);
			return ct_err(err, len, -ENOMEM, "out of memory");
		}
		memset(cell, 0, sizeof(*cell));
		snprintf(cell->load, sizeof(cell->load), "%s", name);
		cell->halfwidth_pct = NAN;
	}
	/* the schedule: (config, run) pairs, block by block or config by config */
	size_t nsched = (size_t)cap * s->ncfg, order[CT_SESSION_MAX_CONFIGS];
	bool stop = false;

	for (size_t i = 0; i < nsched && !stop; i++) {
		unsigned run;
		size_t k;
		struct ct_run r;

		if (s->opts.sequential || s->ncfg == 1) {
			k = i / cap;
			run = (unsigned)(i % cap) + 1;
		} else {
			run = (unsigned)(i / s->ncfg) + 1;
			if (i % s->ncfg == 0)
				block_order(s, run, order);
			k = order[i % s->ncfg];
		}
		rc = switch_config(rt, w, &l, k, err, len);
		if (rc)
			break;
		memset(&r, 0, sizeof(r));
		emit(rt, CT_EV_RUN_START, name, run, NULL, NULL);
		rc = run_one(rt, w, &l, &r, err, len);
		if (rc)
			break;
		rc = store_run(rt, &s->cfg[k], &r, run, err, len);
		if (rc)
			break;
		rt->done++;
		emit(rt, CT_EV_RUN_DONE, name, run, &r, NULL);
		if (cell && r.status == CT_RUN_OK) {
			times[cell->runs++] = ct_run_value(&r);
			if (adaptive_done(s, cell, times))
				stop = true;
		}
		if (cell && s->opts.max_time_ns && ct_now_ns() - cell_start >= s->opts.max_time_ns)
			stop = true;
	}
	free(times);
	ct_load_release(&l);
	return rc;
}

static int make_workdir(struct ct_session *s, char *err, size_t len)
{
	const char *parent = s->opts.dir ? s->opts.dir : "/var/tmp";
	struct stat st;
	int n;

	if (stat(parent, &st))
		return ct_err(err, len, -errno, "cannot use work directory '%s': %s", parent,
			      strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return ct_err(err, len, -ENOTDIR, "work directory '%s' is not a directory", parent);
	n = snprintf(s->env.dir, sizeof(s->env.dir), "%s/contend.XXXXXX", parent);
	if (n < 0 || (size_t)n >= sizeof(s->env.dir))
		return ct_err(err, len, -ENAMETOOLONG, "work directory '%s' is too long", parent);
	if (!mkdtemp(s->env.dir))
		return ct_err(err, len, -errno, "cannot create a directory in '%s': %s", parent,
			      strerror(errno));
	return 0;
}

static int check_loads(struct ct_session *s, char *err, size_t len)
{
	for (size_t i = 0; i < s->opts.nloads; i++) {
		const struct ct_load_ops *ops = ct_load_find(s->opts.loads[i]);
		char why[CT_ERRLEN];

		if (!ops)
			return ct_err(err, len, -EINVAL, "unknown load '%s' (see: contend loads)",
				      s->opts.loads[i]);
		int rc = ops->supported ? ops->supported(&s->env, why, sizeof(why)) : 0;

		if (rc)
			return ct_err(err, len, rc, "%s", why);
	}
	return 0;
}

static void quietness_check(struct session_rt *rt)
{
	double cpus;

	if (ct_monitor_foreign("", 1000000000LL, &cpus))
		return;
	if (cpus > 0.10)
		warn(rt,
		     "the machine is not quiet: %.2f CPUs busy outside contend; results may be "
		     "noisy",
		     cpus);
}

int ct_session_close_orphans(struct ct_store *st, unsigned *closed, char *err, size_t len)
{
	struct ct_session_rec *recs = NULL;
	struct whoami me;
	size_t n = 0;
	int rc;

	*closed = 0;
	whoami(&me);
	rc = ct_store_sessions(st, 0, &recs, &n, err, len);
	if (rc)
		return rc;
	for (size_t i = 0; i < n && !rc; i++) {
		if (strcmp(recs[i].status, "running") || !session_orphaned(&recs[i], &me))
			continue;
		rc = ct_store_session_end(st, recs[i].id, "interrupted", err, len);
		if (!rc)
			(*closed)++;
	}
	free(recs);
	return rc;
}

/*
 * The configs of the session. Without knobs, one: the session's label and
 * machine. With knobs, the originals go to the journal first; then each
 * config's knobs are applied in turn and the machine captured with them,
 * so its stored config shows (and its fingerprint covers) the scheduler or
 * sysctl it ran with. Labels compose: "6.18.44+iosched=bfq".
 */
static int setup_configs(struct session_rt *rt, char *err, size_t len)
{
	struct ct_session *s = rt->s;
	int rc;

	if (!s->opts.nkconfigs) {
		s->ncfg = 1;
		snprintf(s->cfg[0].label, sizeof(s->cfg[0].label), "%s", s->label);
		s->cfg[0].si = s->si;
		return 0;
	}
	if (s->opts.nkconfigs > CT_SESSION_MAX_CONFIGS)
		return ct_err(err, len, -EINVAL, "at most %d configs in one session",
			      CT_SESSION_MAX_CONFIGS);
	rc = ct_knob_journal(rt->st, s->opts.knobs, s->opts.nknobs, err, len);
	if (rc)
		return rc;
	rt->journalled = true;
	s->ncfg = s->opts.nkconfigs;
	for (size_t k = 0; k < s->ncfg; k++) {
		struct ct_session_config *c = &s->cfg[k];
		char suffix[sizeof(c->label)];

		c->knobs = &s->opts.kconfigs[k];
		/* a label the user chose names the session's --set knobs; the
		 * kernel release does not, so they join it, and a --set session
		 * never shares its label with the defaults' runs */
		rc = ct_knob_label(c->knobs, s->opts.label != NULL, suffix, sizeof(suffix));
		if (!rc && (size_t)snprintf(c->label, sizeof(c->label), "%s%s%s", s->label,
					    *suffix ? "+" : "", suffix) >= sizeof(c->label))
			rc = ct_err(err, len, -ENAMETOOLONG, "label '%s+%s' is too long", s->label,
				    suffix);
		if (rc)
			return rc;
		rc = ct_knob_apply_config(c->knobs, err, len);
		if (rc)
			return rc;
		rt->cur_cfg = (long)k;
		rc = ct_sysinfo_capture(&c->si, "", s->env.dir, err, len);
		if (rc)
			return rc;
	}
	return 0;
}

int ct_session_run(struct ct_session *s, struct ct_store *st, char *err, size_t len)
{
	const struct ct_workload_ops *wops;
	struct session_rt rt = { .s = s, .st = st };
	struct ct_workload w = { 0 };
	bool have_dir = false, have_wl = false;
	char msg[PATH_MAX + 128];
	unsigned closed;
	int rc;

	s->t0 = ct_now_ns();
	wops = ct_workload_find(s->opts.workload);
	if (!wops)
		return ct_err(err, len, -EINVAL, "unknown workload '%s'", s->opts.workload);
	if (!s->opts.runs)
		return ct_err(err, len, -EINVAL, "number of runs must be at least 1");
	if (s->opts.adaptive && s->opts.max_runs < CT_ADAPTIVE_MIN_RUNS)
		return ct_err(err, len, -EINVAL, "--max-runs must be at least %d with --adaptive",
			      CT_ADAPTIVE_MIN_RUNS);
	if (s->opts.drop_caches && geteuid() != 0)
		return ct_err(err, len, -EPERM, "--drop-caches needs root");
	rc = check_loads(s, err, len);
	if (rc)
		return rc;
	rc = ct_signals_install();
	if (rc)
		return ct_err(err, len, rc, "cannot install signal handlers: %s", strerror(-rc));
	prctl(PR_SET_CHILD_SUBREAPER, 1);

	rc = make_workdir(s, err, len);
	if (rc)
		return rc;
	have_dir = true;
	snprintf(rt.fg_log, sizeof(rt.fg_log), "%s/foreground.log", s->env.dir);
	rc = ct_sysinfo_capture(&s->si, "", s->env.dir, err, len);
	if (rc)
		goto out;
	if (ct_fs_is_tmpfs(s->env.dir))
		warn(&rt, "work directory '%s' is on tmpfs: the io loads will only fill memory",
		     s->env.dir);
	snprintf(s->label, sizeof(s->label), "%s",
		 s->opts.label ? s->opts.label : s->si.kernel_release);
	rt.cur_cfg = -1;
	rc = setup_configs(&rt, err, len);
	if (rc)
		goto out;

	rt.total = (unsigned)(s->opts.nloads * s->ncfg) *
		   (s->opts.adaptive ? s->opts.max_runs : s->opts.runs);
	setup_cgroups(&rt);
	rc = start_guard(&rt);
	if (rc) {
		ct_err(err, len, rc, "cannot start the guard process: %s", strerror(-rc));
		goto out;
	}
	quietness_check(&rt);

	snprintf(msg, sizeof(msg), "preparing workload '%s' in %s", wops->name, s->env.dir);
	emit(&rt, CT_EV_INFO, NULL, 0, NULL, msg);
	rc = ct_workload_init(&w, wops, &s->env, &s->opts.wopts, err, len);
	if (rc)
		goto out;
	have_wl = true;
	snprintf(s->workload_params, sizeof(s->workload_params), "%s", w.params);
	if (ct_signals_pending()) {
		rc = -EINTR;
		goto out;
	}

	rc = ct_session_close_orphans(st, &closed, err, len);
	if (rc)
		goto out;
	if (closed)
		warn(&rt, "%u session%s left running by a contend that is gone marked interrupted",
		     closed, closed == 1 ? "" : "s");

	if (s->opts.warmup && !(w.ops->flags & CT_WL_OWN_WARMUP)) {
		struct ct_load none;
		struct ct_run r = { 0 };

		emit(&rt, CT_EV_RUN_START, "warm-up", 0, NULL, NULL);
		rc = ct_load_init(&none, ct_load_find("none"), &s->env, err, len);
		if (rc)
			goto out;
		rc = run_one(&rt, &w, &none, &r, err, len);
		ct_load_release(&none);
		if (rc)
			goto out;
		if (r.status != CT_RUN_OK && (r.exit_code == 126 || r.exit_code == 127)) {
			/* the command cannot even start: every run would fail the same */
			rc = ct_err(err, len, -ENOENT, "the foreground cannot start: %s", r.reason);
			goto out;
		}
		if (r.status != CT_RUN_OK)
			warn(&rt, "warm-up run failed: %s", r.reason);
	}

	for (size_t i = 0; i < s->opts.nloads; i++) {
		rc = run_load(&rt, &w, s->opts.loads[i], err, len);
		if (rc)
			goto out;
	}
out:
	if (ct_signals_pending() && rc != -EINTR && rc) {
		/* a step failed because it was interrupted */
		rc = -EINTR;
	}
	if (rc == -EINTR)
		ct_err(err, len, rc, "interrupted by signal %d (%s)", ct_signals_pending(),
		       strsignal(ct_signals_pending()));
	if (rt.journalled) {
		/* every exit path that returns comes through here: put the knobs
		 * back before anything else (SIGKILL leaves the journal to
		 * `contend restore`) */
		char e2[CT_ERRLEN];

		if (ct_knob_restore_session(st, s->opts.knobs, s->opts.nknobs, e2, sizeof(e2))) {
			warn(&rt, "%s; run 'contend restore'", e2);
			if (!rc)
				rc = ct_err(err, len, -EIO, "%s", e2);
		} else {
			emit(&rt, CT_EV_INFO, NULL, 0, NULL, "knobs restored");
		}
	}
	for (size_t k = 0; k < s->ncfg; k++) {
		struct ct_session_config *c = &s->cfg[k];
		char e2[CT_ERRLEN];
		const char *status = !rc ? "complete" : rc == -EINTR ? "interrupted" : "failed";

		if (!c->rec.id)
			continue;
		if (ct_store_session_end(st, c->rec.id, status, e2, sizeof(e2)) && !rc)
			rc = ct_err(err, len, -EIO, "%s", e2);
		snprintf(c->rec.status, sizeof(c->rec.status), "%s", status);
	}
	if (s->ncfg)
		s->rec = s->cfg[0].rec;
	if (have_wl)
		ct_workload_release(&w);
	stop_guard(&rt);
	teardown_cgroups(&rt);
	reap_orphans();
	if (have_dir && !s->env.keep_files)
		ct_rm_rf(s->env.dir);
	else if (have_dir) {
		snprintf(msg, sizeof(msg), "files kept in %s", s->env.dir);
		emit(&rt, CT_EV_INFO, NULL, 0, NULL, msg);
	}
	return rc;
}
