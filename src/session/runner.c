/*
 * One run, the one place that knows its order: reset the workload, start
 * the load and check it works, snapshot the monitors, fork the foreground,
 * wait for it while watching the load, snapshot again, stop the load, and
 * fill the run. Every path out kills and reaps what it started.
 */
#include "internal.h"
#include "contend/journal.h"
#include "contend/latency.h"
#include "contend/monitor.h"
#include "contend/perfcount.h"
#include "contend/proc.h"
#include "contend/signals.h"
#include "contend/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define TICK_NS	     250000000LL /* load liveness check interval during a run */
#define CPU_PROBE_NS 50000000LL	 /* the CPU speed probe before each run */

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

/*
 * The session's cgroup goes under contend's own (v2), so the foreground and
 * the loads stay under the limits and accounting contend was started under
 * (a container's, a systemd unit's MemoryMax, a CI runner's); at the root
 * they would escape them. Where contend's own cgroup takes no children,
 * the root's hierarchy is used.
 */
void sess_cgroups_setup(struct session_rt *rt)
{
	char parent[2][PATH_MAX], name[64];
	bool made = false;

	rt->cg_session[0] = rt->cg_fg[0] = '\0';
	if (!rt->s->opts.use_cgroups || ct_cgroup_v2_root(parent[1], sizeof(parent[1])))
		return;
	if (ct_cgroup_v2_own(parent[0], sizeof(parent[0])))
		snprintf(parent[0], sizeof(parent[0]), "%s", parent[1]);
	snprintf(name, sizeof(name), "contend-%d", (int)getpid());
	for (int i = 0; i < 2 && !made; i++) {
		if (i && !strcmp(parent[0], parent[1]))
			break;
		sweep_stale_cgroups(parent[i]);
		made = !ct_cgroup_create(parent[i], name, rt->cg_session, sizeof(rt->cg_session));
	}
	if (!made) {
		rt->cg_session[0] = '\0';
		return;
	}
	if (ct_cgroup_create(rt->cg_session, "fg", rt->cg_fg, sizeof(rt->cg_fg)))
		rt->cg_fg[0] = '\0';
}

void sess_cgroups_teardown(struct session_rt *rt)
{
	if (rt->cg_fg[0])
		(void)ct_cgroup_destroy(rt->cg_fg);
	if (rt->cg_session[0])
		(void)ct_cgroup_destroy(rt->cg_session);
}

static bool delayacct_on(void)
{
	char v[16] = "", err[CT_ERRLEN];

	return !ct_knob_read(CT_JOURNAL_DELAYACCT, v, sizeof(v), err, sizeof(err)) &&
	       !strcmp(v, "1");
}

/* Delay accounting on for the next run: turned on through the journal
 * when it is off. Another contend that ends may turn it off meanwhile (it
 * restores what it found): each run asks again, and a run that did not
 * have it from start to end keeps no time budget. */
static bool delayacct_ensure(struct session_rt *rt)
{
	char err[CT_ERRLEN];

	if (delayacct_on())
		return true;
	if (!rt->journal)
		return false;
	if (!rt->delayacct.npaths &&
	    (ct_knob_parse("sysctl.kernel.task_delayacct=1", false, &rt->delayacct, err,
			   sizeof(err)) ||
	     ct_knob_resolve(&rt->delayacct, rt->s->env.dir, err, sizeof(err))))
		return false;
	if (ct_journal_record(rt->journal, &rt->delayacct, 1, err, sizeof(err)))
		return false;
	rt->delayacct_set = true;
	return !ct_knob_apply(&rt->delayacct, "1", err, sizeof(err));
}

void sess_counters_setup(struct session_rt *rt)
{
	char err[CT_ERRLEN];

	if (!rt->s->opts.counters || geteuid())
		return; /* delay accounting and its listener need root */
	if (ct_taskacct_open(&rt->taskacct, err, sizeof(err)))
		rt->taskacct = NULL;
}

void sess_counters_teardown(struct session_rt *rt)
{
	char err[CT_ERRLEN];

	ct_taskacct_close(rt->taskacct);
	rt->taskacct = NULL;
	if (rt->delayacct_set &&
	    ct_journal_restore_session(rt->journal, &rt->delayacct, 1, err, sizeof(err)))
		sess_warn(rt, "%s; run 'contend restore'", err);
	rt->delayacct_set = false;
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
void sess_reap_orphans(void)
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

/*
 * The wakeup probe (--probe): a child beside the foreground that sleeps to
 * every period and records how late it woke, in a histogram it shares with
 * contend. Started once the load works, just before the foreground is
 * forked; stopped (SIGTERM: it ends its loop, so the histogram is whole)
 * once the foreground is reaped.
 */
static volatile int probe_stop_flag;

static void probe_on_term(int sig)
{
	(void)sig;
	probe_stop_flag = 1;
}

static int probe_start(struct session_rt *rt, pid_t self)
{
	const struct ct_session_opts *o = &rt->s->opts;

	if (!o->probe_ns)
		return 0;
	if (!rt->probe_hist) {
		void *m = mmap(NULL, sizeof(*rt->probe_hist), PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			return -errno;
		rt->probe_hist = m;
	}
	ct_hist_reset(rt->probe_hist);
	rt->probe_pid = fork();
	if (rt->probe_pid == 0) {
		struct sigaction sa = { .sa_handler = probe_on_term };

		ct_proc_child_setup(self);
		sigaction(SIGTERM, &sa, NULL);
		_exit(ct_lat_probe(o->probe_ns, o->probe_rt, rt->probe_hist, &probe_stop_flag) ? 3
											       : 0);
	}
	if (rt->probe_pid < 0) {
		rt->probe_pid = 0;
		return -errno;
	}
	return 0;
}

/* Stops the probe and, given r, adds what it saw to the run: the "probe"
 * histogram, its p50, p99, max and count, and its CPU time (also added to
 * *cpu_us: it is contend's, not foreign). */
static void probe_finish(struct session_rt *rt, struct ct_run *r, int64_t *cpu_us)
{
	struct rusage ru;
	int status = 0;
	const struct ct_hist *h = rt->probe_hist;

	if (rt->probe_pid <= 0)
		return;
	kill(rt->probe_pid, r ? SIGTERM : SIGKILL);
	if (ct_proc_reap(rt->probe_pid, &status, &ru))
		memset(&ru, 0, sizeof(ru));
	rt->probe_pid = 0;
	if (!r)
		return;
	int64_t cpu = ct_tv_us(ru.ru_utime) + ct_tv_us(ru.ru_stime);

	if (cpu_us)
		*cpu_us += cpu;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		if (r->status == CT_RUN_OK)
			fail_run(r, rt->s->opts.probe_rt
					    ? "the wakeup probe could not run SCHED_FIFO (root?)"
					    : "the wakeup probe died");
		return;
	}
	(void)ct_run_metric_set(r, "probe_n", (double)h->count);
	(void)ct_run_metric_set(r, "probe_cpu_us", (double)cpu); /* what it cost */
	if (!h->count)
		return;
	(void)ct_run_metric_set(r, "probe_p50_us", (double)ct_hist_pct(h, 50) / 1e3);
	(void)ct_run_metric_set(r, "probe_p99_us", (double)ct_hist_pct(h, 99) / 1e3);
	(void)ct_run_metric_set(r, "probe_max_us", (double)h->max / 1e3);
	if (r->nhists < CT_RUN_MAX_HISTS) {
		snprintf(r->hists[r->nhists].name, CT_HIST_NAME, "probe");
		r->hists[r->nhists++].h = h;
	}
}

void sess_probe_release(struct session_rt *rt)
{
	probe_finish(rt, NULL, NULL);
	if (rt->probe_hist)
		munmap(rt->probe_hist, sizeof(*rt->probe_hist));
	rt->probe_hist = NULL;
}

/* Ends a run that cannot give a result: everything it started is killed
 * and reaped, nothing is measured. */
static void abort_run(struct session_rt *rt, struct ct_load *l, pid_t pid, int pidfd)
{
	int status;

	probe_finish(rt, NULL, NULL);
	kill_foreground(pid, rt->cg_fg);
	(void)ct_proc_reap(pid, &status, NULL);
	sess_guard_foreground(rt, 0);
	ct_load_kill(l);
	if (pidfd >= 0)
		close(pidfd);
	sess_reap_orphans();
}

/* In the foreground's child: stdin from /dev/null, stdout and stderr to the
 * run's two logs, so a compile's output neither mixes with the table nor
 * costs a terminal's time, and a figure read from one (--figure-from) is
 * not mixed with the other. */
static void redirect_output(const struct ct_workload *w)
{
	int in = open("/dev/null", O_RDONLY),
	    out = open(w->out_log, O_WRONLY | O_CREAT | O_TRUNC, 0644),
	    err = open(w->err_log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (in >= 0) {
		dup2(in, STDIN_FILENO);
		close(in);
	}
	if (out >= 0) {
		dup2(out, STDOUT_FILENO);
		close(out);
	}
	if (err >= 0) {
		dup2(err, STDERR_FILENO);
		close(err);
	}
}

/* The last non-empty line of a log, for a failed run's reason. */
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

/* Resets the workload, starts the load and waits until it works. 0 with
 * the load running, 1 when the run failed before the foreground (r says
 * why), -EINTR. */
static int start_load(struct session_rt *rt, struct ct_workload *w, struct ct_load *l,
		      struct ct_run *r, char *err, size_t len)
{
	struct ct_session *s = rt->s;
	struct ct_load_result lres;
	char why[CT_ERRLEN];
	int rc;

	if (s->opts.drop_caches) {
		rc = drop_caches(err, len);
		if (rc)
			return rc;
	}
	if (w->ops->reset) {
		rc = w->ops->reset(w, why, sizeof(why));
		if (rc) {
			fail_run(r, why);
			return 1;
		}
	}
	if (ct_signals_pending())
		return -EINTR;
	rc = ct_load_start(l, rt->cg_session[0] ? rt->cg_session : NULL, why, sizeof(why));
	if (rc) {
		fail_run(r, why);
		return 1;
	}
	rc = ct_load_wait_ready(l, s->opts.delay_ns, why, sizeof(why));
	if (ct_signals_pending()) {
		ct_load_kill(l);
		return -EINTR;
	}
	if (rc) {
		ct_load_stop(l, &lres);
		fail_run(r, why);
		return 1;
	}
	return 0;
}

/* Waits for the foreground pid to exit, watching the load and the signal
 * pipe. 0 with *t1 set (r failed when the load died or the foreground
 * stopped), -EINTR or -errno after abort_run(). */
static int wait_foreground(struct session_rt *rt, struct ct_load *l, pid_t pid, struct ct_run *r,
			   int64_t *t1, char *err, size_t len)
{
	int pidfd = ct_pidfd_open(pid), rc;
	char why[CT_ERRLEN];

	for (;;) {
		if (rt->taskacct)
			ct_taskacct_drain(rt->taskacct);
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
			*t1 = ct_now_ns();
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
		if (ct_load_check(l, rt->s->opts.stall_ns, why, sizeof(why)) ||
		    foreground_stopped(pid, why, sizeof(why))) {
			*t1 = ct_now_ns();
			kill_foreground(pid, rt->cg_fg);
			fail_run(r, why);
			break;
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	return 0;
}

/* The run's figures once the foreground was reaped and the load stopped;
 * a foreground that exited non-zero fails the run with its last line. */
static void fill_run(struct ct_workload *w, struct ct_run *r, int status, const struct rusage *ru,
		     const struct ct_load_result *lres)
{
	char why[CT_ERRLEN];

	r->user_us = ct_tv_us(ru->ru_utime);
	r->sys_us = ct_tv_us(ru->ru_stime);
	r->exit_code = ct_proc_exit_code(status);
	r->load_work = lres->work;
	if (lres->cpu_estimated) {
		/* said with the run, so LCPU% is never taken for exact */
		size_t used = strlen(r->load_params);

		snprintf(r->load_params + used, sizeof(r->load_params) - used, "%slcpu=estimated",
			 used ? " " : "");
	}
	r->load_user_us = lres->user_us;
	r->load_sys_us = lres->sys_us;
	if (w->ops->collect)
		w->ops->collect(w, r);
	if (r->status == CT_RUN_OK && lres->failed)
		fail_run(r, lres->reason);
	if (r->status == CT_RUN_OK && r->exit_code) {
		char last[160];

		/* what it said when it failed: its last error, else its last word */
		last_line(w->err_log, last, sizeof(last));
		if (!*last)
			last_line(w->out_log, last, sizeof(last));
		if (WIFSIGNALED(status))
			snprintf(why, sizeof(why), "%s killed by signal %d (%s)%s%s", w->ops->name,
				 WTERMSIG(status), strsignal(WTERMSIG(status)), *last ? ": " : "",
				 last);
		else
			snprintf(why, sizeof(why), "%s exited with status %d%s%s", w->ops->name,
				 r->exit_code, *last ? ": " : "", last);
		fail_run(r, why);
	}
}

/*
 * Forks the foreground and readies it outside the timed window: the child
 * joins its cgroup (a migration costs milliseconds and varies), redirects
 * its output, says it is ready, then waits for the parent's go - written
 * once the start is stamped - before it execs. *go is the pipe to write it
 * to, -1 when the child died before it was ready (it is reaped as a failed
 * run). The pid, or -errno.
 */
static pid_t fork_foreground(struct session_rt *rt, struct ct_workload *w, pid_t self, int *go)
{
	int ready[2], gop[2], rc;
	char c;
	pid_t pid;

	*go = -1;
	if (pipe2(ready, O_CLOEXEC))
		return -errno;
	if (pipe2(gop, O_CLOEXEC)) {
		rc = -errno;
		close(ready[0]);
		close(ready[1]);
		return rc;
	}
	pid = fork();
	if (pid == 0) {
		ct_proc_child_setup(self);
		close(ready[0]);
		close(gop[1]);
		if (rt->cg_fg[0])
			(void)!ct_cgroup_attach(rt->cg_fg, getpid());
		redirect_output(w);
		/* its temporary files (a compiler's) go where the guard removes
		 * them even when contend is SIGKILLed */
		if (rt->fg_tmp[0])
			setenv("TMPDIR", rt->fg_tmp, 1);
		if (w->cwd && chdir(w->cwd))
			_exit(127); /* its config's directory is gone: it cannot start */
		if (write(ready[1], "r", 1) != 1 || read(gop[0], &c, 1) != 1)
			_exit(127); /* the parent is gone */
		w->ops->exec(w);
	}
	rc = pid < 0 ? -errno : 0;
	close(ready[1]);
	close(gop[0]);
	if (!rc) {
		ssize_t n;

		while ((n = read(ready[0], &c, 1)) < 0 && errno == EINTR)
			;
		if (n == 1)
			*go = gop[1];
	}
	close(ready[0]);
	if (*go < 0)
		close(gop[1]);
	return rc ? rc : pid;
}

/* Below this much space the work directory's file system counts as full
 * (a failed compile deletes its partial outputs and temporary files, so a
 * disk that was full when it failed has a few MiB again). */
#define FULL_BYTES (16ull << 20)

/*
 * A run that failed while the work directory's file system was (nearly)
 * full says so first: the compiler's or the load's own last line rarely does (an
 * assembler that could not write an object goes on to complain the object
 * is missing). Root writes into the blocks reserved for it, so for root
 * full means no block free at all.
 */
static void note_full_disk(const char *dir, struct ct_run *r)
{
	char why[sizeof(r->reason)], left_s[32];
	struct statvfs sv;
	uint64_t left;

	if (r->status != CT_RUN_FAILED || statvfs(dir, &sv))
		return;
	left = (uint64_t)(geteuid() ? sv.f_bavail : sv.f_bfree) * sv.f_frsize;
	if (left >= FULL_BYTES)
		return;
	/* a long reason loses its end, not the cause */
	if (snprintf(why, sizeof(why), "only %s left in '%s': %s",
		     ct_fmt_size(left, left_s, sizeof(left_s)), dir, r->reason) < 0)
		return;
	memcpy(r->reason, why, sizeof(r->reason));
}

static int run_one(struct session_rt *rt, struct ct_workload *w, struct ct_load *l,
		   struct ct_run *r, char *err, size_t len);

#define SHORT_NS 5000000LL

int sess_run_one(struct session_rt *rt, struct ct_workload *w, struct ct_load *l, struct ct_run *r,
		 char *err, size_t len)
{
	int rc = run_one(rt, w, l, r, err, len);

	if (!rc) {
		note_full_disk(rt->s->env.dir, r);
		sess_quiet_check(rt, false);
	}
	/* hyperfine's warning: below 5 ms, what is timed is mostly the timer,
	 * fork and exec. It names one run (the warm-up's, perhaps), not the
	 * mean the table will show */
	if (!rc && r->status == CT_RUN_OK && r->wall_ns < SHORT_NS && !rt->warned_short) {
		rt->warned_short = true;
		sess_warn(rt,
			  "a run took %.2f ms: under %d ms, fork, exec and the timer are much of "
			  "what is measured",
			  (double)r->wall_ns / 1e6, (int)(SHORT_NS / 1000000));
	}
	return rc;
}

static int run_one(struct session_rt *rt, struct ct_workload *w, struct ct_load *l,
		   struct ct_run *r, char *err, size_t len)
{
	struct ct_session *s = rt->s;
	struct ct_load_result lres;
	struct ct_snapshot a, b;
	struct ct_counters_snap ca, cb;
	struct ct_task_budget budget;
	struct ct_counters pf = { 0 };
	struct ct_perf perf;
	bool acct = false;
	struct rusage ru;
	int64_t t0, t1 = 0, probe_cpu_us = 0, helper_us;
	pid_t pid, self = getpid();
	int status = 0, rc, go;
	bool have_snap;
	double speed;

	snprintf(r->workload, sizeof(r->workload), "%s", w->ops->name);
	snprintf(r->load, sizeof(r->load), "%s", l->ops->name);
	snprintf(r->workload_params, sizeof(r->workload_params), "%s", w->params);
	snprintf(r->load_params, sizeof(r->load_params), "%s", l->params);
	r->load_unit_scale = l->ops->unit_scale;
	r->counters = NULL;
	r->started_at = ct_wall_ns();
	r->mon.start_dirty_bytes = r->mon.start_writeback_bytes = -1; /* until measured */
	/* the CPU as this run finds it, before its load: a host that got
	 * busier shows here even when steal does not */
	speed = r->mon.start_cpu_speed = ct_cpu_speed(CPU_PROBE_NS);

	rc = start_load(rt, w, l, r, err, len);
	if (rc)
		return rc > 0 ? 0 : rc;

	have_snap = ct_monitor_snap(&a, "", s->si.block_dev) == 0;
	helper_us = sess_helper_cpu_us(w);
	rc = probe_start(rt, self);
	if (rc) {
		ct_load_kill(l);
		return ct_err(err, len, rc, "cannot start the wakeup probe: %s", strerror(-rc));
	}
	pid = fork_foreground(rt, w, self, &go);
	if (pid < 0) {
		probe_finish(rt, NULL, NULL);
		ct_load_kill(l);
		return ct_err(err, len, pid, "cannot start the foreground '%s': %s", w->ops->name,
			      strerror(-pid));
	}
	sess_guard_foreground(rt, pid);
	/* perf's events count from here: the child waits for its go */
	ct_perf_init(&perf);
	if (s->opts.counters)
		(void)ct_perf_open(&perf, pid, rt->cg_fg);
	if (rt->taskacct) {
		pid_t server = w->ops->helper_root ? w->ops->helper_root(w) : 0;

		acct = delayacct_ensure(rt);
		ct_taskacct_start(rt->taskacct, pid);
		if (server > 0)
			ct_taskacct_also(rt->taskacct, server);
	}
	if (s->opts.counters)
		ct_counters_snap(&ca, "", s->si.block_dev, rt->cg_fg);
	/* the timed window: from the go to the foreground's exit */
	ct_load_mark(l);
	t0 = ct_now_ns();
	if (go >= 0) {
		(void)!write(go, "g", 1);
		close(go);
	}
	rc = wait_foreground(rt, l, pid, r, &t1, err, len);
	if (rc) {
		ct_perf_close(&perf);
		return rc;
	}
	/* whatever the foreground left running dies with it; its zombie still
	 * holds the process group id, so this cannot hit anyone else */
	kill(-pid, SIGKILL);
	rc = ct_proc_reap(pid, &status, &ru);
	if (s->opts.counters)
		ct_counters_snap(&cb, "", s->si.block_dev, rt->cg_fg);
	sess_guard_foreground(rt, 0);
	if (rc) {
		ct_perf_close(&perf);
		return ct_err(err, len, rc, "cannot reap the foreground: %s", strerror(-rc));
	}
	if (rt->cg_fg[0])
		(void)ct_cgroup_kill(rt->cg_fg, 2000000000LL); /* strays of a cmd */
	ct_perf_read(&perf, &pf); /* the tree is gone: each task's counts are in */
	/* every task of the tree is gone: its last records are sent */
	if (rt->taskacct) {
		if (w->ops->settle)
			w->ops->settle(w);
		ct_taskacct_end(rt->taskacct, &budget);
		acct = acct && delayacct_on();
	}
	probe_finish(rt, r, &probe_cpu_us);
	if (have_snap && ct_monitor_snap(&b, "", s->si.block_dev))
		have_snap = false;
	helper_us = sess_helper_cpu_us(w) - helper_us;
	ct_load_stop(l, &lres);
	sess_reap_orphans();
	settle(&s->env);

	r->wall_ns = t1 - t0;
	fill_run(w, r, status, &ru, &lres);
	if (s->opts.counters) {
		rt->counters.n = 0;
		ct_counters_delta(&ca, &cb, &rt->counters);
		ct_counters_tree(acct ? &budget : NULL, &ru, &rt->counters);
		for (unsigned i = 0; i < pf.n; i++)
			(void)ct_counters_set(&rt->counters, pf.c[i].name, pf.c[i].value);
		r->counters = &rt->counters;
	}
	if (have_snap)
		ct_monitor_delta(&a, &b,
				 r->user_us + r->sys_us + r->load_user_us + r->load_sys_us +
					 probe_cpu_us + (helper_us > 0 ? helper_us : 0),
				 &r->mon);
	r->mon.start_cpu_speed = speed;
	return 0;
}
