/*
 * The load harness: every load runs as a leader process in its own process
 * group (and cgroup v2 when asked) with N workers under it, counts its work
 * in shared memory, and is stopped, killed and reaped the same way, so the
 * measurement rules of docs/architecture.md hold for every load, not per
 * load file.
 *
 * Process tree: contend -> leader (own pgid, PDEATHSIG, child subreaper)
 * -> workers (same pgid, PDEATHSIG) -> anything a worker runs (tar). The
 * leader only waits: on SIGTERM it SIGKILLs the workers and reaps every
 * descendant, so its wait4() rusage holds the CPU of the whole tree; when a
 * worker dies on its own it records why and fails the load.
 */
#include "contend/load.h"
#include "contend/proc.h"
#include "contend/signals.h"
#include "contend/util.h"
#include "internal.h"
#include "loads.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CT_LOAD_REF(n) &ct_load_##n,
static const struct ct_load_ops *const loads[] = { CT_LOADS(CT_LOAD_REF) };

#define READY_GRACE_NS	  (10 * 1000000000LL)  /* first unit of work, after the delay */
#define READY_WORK_MAX_NS (600 * 1000000000LL) /* start-up work such as mem's first pass */
#define STOP_GRACE_NS	  (5 * 1000000000LL)   /* leader's own clean exit on SIGTERM */
#define CGROUP_KILL_NS	  (2 * 1000000000LL)
#define POLL_NS		  (5 * 1000000LL)

/* shm->failed: 0 ok, FAIL_WRITING while the first error is being copied in,
 * FAIL_SET once it is complete. Readers treat any non-zero as failed. */
enum { FAIL_SET = 1, FAIL_WRITING = 2 };

const struct ct_load_ops *ct_load_find(const char *name)
{
	for (size_t i = 0; i < ct_load_count(); i++)
		if (!strcmp(ct_load_at(i)->name, name))
			return ct_load_at(i);
	return NULL;
}

size_t ct_load_count(void)
{
	return CT_ARRAY_SIZE(loads) + ct_load_cmd_count();
}

const struct ct_load_ops *ct_load_at(size_t i)
{
	return i < CT_ARRAY_SIZE(loads) ? loads[i] : ct_load_cmd_at(i - CT_ARRAY_SIZE(loads));
}

const char *ct_load_size_str(uint64_t bytes, char *buf, size_t len)
{
	char tmp[32], *s, *d;

	ct_fmt_size(bytes, tmp, sizeof(tmp));
	for (s = d = tmp; *s; s++)
		if (*s != ' ')
			*d++ = *s;
	*d = '\0';
	snprintf(buf, len, "%s", tmp);
	return buf;
}

void ct_load_param(struct ct_load *l, const char *fmt, ...)
{
	size_t used = strlen(l->params);
	va_list ap;

	if (used && used + 1 < sizeof(l->params))
		l->params[used++] = ' ';
	if (used >= sizeof(l->params) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(l->params + used, sizeof(l->params) - used, fmt, ap);
	va_end(ap);
}

int ct_load_pwrite_full(int fd, const void *buf, size_t len, off_t off)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = off < 0 ? write(fd, p, len) : pwrite(fd, p, len, off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
		if (off >= 0)
			off += n;
	}
	return 0;
}

int ct_load_fail(struct ct_load *l, const char *fmt, ...)
{
	char msg[CT_ERRLEN];
	int expected = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* first error wins; the others are usually its consequences */
	if (atomic_compare_exchange_strong(&l->shm->failed, &expected, FAIL_WRITING)) {
		memcpy(l->shm->error, msg, sizeof(msg));
		atomic_store(&l->shm->failed, FAIL_SET);
	}
	return -1;
}

/* The first worker error, waiting briefly if it is still being written. */
static void shm_error(const struct ct_load *l, char *buf, size_t len)
{
	for (int i = 0; i < 1000 && atomic_load(&l->shm->failed) == FAIL_WRITING; i++)
		usleep(10);
	if (l->shm->error[0])
		snprintf(buf, len, "%.*s", (int)sizeof(l->shm->error) - 1, l->shm->error);
	else
		snprintf(buf, len, "load '%s' failed", l->ops->name);
}

static void describe_status(char *buf, size_t len, const char *who, int code, bool signaled)
{
	if (signaled)
		snprintf(buf, len, "%s was killed by signal %d (%s)", who, code, strsignal(code));
	else
		snprintf(buf, len, "%s exited with status %d", who, code);
}

/* -------------------------------------------------------------------------
 * Leader and workers (run in the forked processes; they end in _exit()).
 */

static volatile sig_atomic_t leader_got_term, leader_got_chld;

static void leader_on_signal(int sig)
{
	if (sig == SIGTERM)
		leader_got_term = 1;
	else
		leader_got_chld = 1;
}

static __attribute__((noreturn)) void worker_main(struct ct_load *l, unsigned i, pid_t leader)
{
	sigset_t none;

	signal(SIGTERM, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != leader)
		_exit(1);
	/* raising one's own oom_score_adj needs no privilege; if it fails the
	 * load is merely less protected-against, not wrong */
	if (l->ops->flags & CT_LOAD_OOM_FIRST)
		(void)!ct_write_file("/proc/self/oom_score_adj", "1000");
	l->ops->work(l, i);
	_exit(1);
}

/* SIGKILLs every child of the calling process: the orphans of a killed
 * worker come back to the leader (a child subreaper), and with them the
 * tree of a --load-cmd's command one level at a time. */
static void kill_children(void)
{
	char path[64], buf[4096], *p, *end;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (p = buf;; p = end) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		if (pid > 0)
			kill((pid_t)pid, SIGKILL);
	}
}

/* Kills the workers still running and reaps every child, including
 * orphans reparented to the leader, killing those too, until none is
 * left. */
static void leader_reap_all(pid_t *pids, unsigned n)
{
	pid_t r;

	for (unsigned i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
	for (;;) {
		r = waitpid(-1, NULL, WNOHANG);
		if (r > 0 || (r < 0 && errno == EINTR))
			continue;
		if (r < 0)
			return; /* ECHILD: none left */
		kill_children();
		usleep(1000);
	}
}

static __attribute__((noreturn)) void leader_main(struct ct_load *l, pid_t *pids)
{
	struct sigaction sa;
	sigset_t block, empty;
	pid_t self = getpid(), pid;
	unsigned i, n = l->nworkers;
	int status, rc;
	char who[64];

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = leader_on_signal;
	sa.sa_flags = SA_NOCLDSTOP;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	/* grandchildren (tar) orphaned by a killed worker come back to us to be
	 * reaped, instead of lingering as zombies of init in our group */
	prctl(PR_SET_CHILD_SUBREAPER, 1);

	if (l->cgroup[0]) {
		rc = ct_cgroup_attach(l->cgroup, self);
		if (rc) {
			ct_load_fail(l, "cannot move load '%s' into cgroup '%s': %s", l->ops->name,
				     l->cgroup, strerror(-rc));
			_exit(1);
		}
	}
	if (l->ops->leader_init && l->ops->leader_init(l))
		_exit(1);

	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0) {
			ct_load_fail(l, "load '%s': cannot fork worker %u: %s", l->ops->name, i,
				     strerror(errno));
			leader_reap_all(pids, i);
			_exit(1);
		}
		if (pid == 0)
			worker_main(l, i, self);
		pids[i] = pid;
	}

	sigemptyset(&empty);
	for (;;) {
		while (!leader_got_term && !leader_got_chld)
			sigsuspend(&empty);
		if (leader_got_term) {
			leader_reap_all(pids, n);
			_exit(0);
		}
		leader_got_chld = 0;
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			for (i = 0; i < n && pids[i] != pid; i++)
				;
			if (i == n)
				continue; /* an orphaned grandchild */
			pids[i] = 0;
			if (!atomic_load(&l->shm->failed)) {
				char msg[CT_ERRLEN];

				snprintf(who, sizeof(who), "worker %u of load '%s'", i,
					 l->ops->name);
				describe_status(msg, sizeof(msg), who,
						WIFSIGNALED(status) ? WTERMSIG(status)
								    : WEXITSTATUS(status),
						WIFSIGNALED(status));
				/* the OOM killer says nothing to us; mem invites it */
				ct_load_fail(l, "%s%s", msg,
					     WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL &&
							     (l->ops->flags & CT_LOAD_OOM_FIRST)
						     ? " (by the OOM killer?)"
						     : "");
			}
			leader_reap_all(pids, n);
			_exit(1);
		}
	}
}

/* -------------------------------------------------------------------------
 * contend's side.
 */

/* 1 when the leader has exited (still unreaped), 0 while it runs. With
 * WNOWAIT the zombie stays, so its pid and process group cannot be reused
 * until ct_load_stop()/ct_load_kill() has killed the group and reaped it. */
static int leader_exited(const struct ct_load *l, siginfo_t *si)
{
	siginfo_t tmp;

	if (!si)
		si = &tmp;
	memset(si, 0, sizeof(*si));
	if (l->leader <= 0)
		return 1;
	if (waitid(P_PID, (id_t)l->leader, si, WEXITED | WNOHANG | WNOWAIT))
		return errno == ECHILD; /* someone else reaped it */
	return si->si_pid != 0;
}

/* Waits up to timeout_ns for the leader to exit: 1 exited, 0 timeout,
 * -EINTR when a signal interrupted the wait. */
static int leader_wait(const struct ct_load *l, int64_t timeout_ns)
{
	int64_t deadline = ct_now_ns() + timeout_ns, left;
	int rc;

	for (;;) {
		if (leader_exited(l, NULL))
			return 1;
		left = deadline - ct_now_ns();
		if (left <= 0)
			return 0;
		if (l->pidfd >= 0) {
			rc = ct_pidfd_wait(l->pidfd, ct_signals_fd(), left);
			if (rc == 1)
				return 1;
			if (rc == 2 || ct_signals_pending())
				return leader_exited(l, NULL) ? 1 : -EINTR;
			if (rc == -EINTR)
				return leader_exited(l, NULL) ? 1 : -EINTR;
			if (rc == 0)
				return 0;
		}
		/* no pidfd (kernel < 5.3) or poll failed: poll the status */
		struct timespec ts = { 0, left < POLL_NS ? left : POLL_NS };
		if (nanosleep(&ts, NULL) && errno == EINTR && !leader_exited(l, NULL))
			return -EINTR;
	}
}

/* Why the load is not healthy: the worker's error, else how the leader
 * ended. Returns -EIO. */
static int load_reason(const struct ct_load *l, char *err, size_t len)
{
	siginfo_t si;
	char who[64];

	if (atomic_load(&l->shm->failed)) {
		char msg[CT_ERRLEN];

		shm_error(l, msg, sizeof(msg));
		return ct_err(err, len, -EIO, "%s", msg);
	}
	if (leader_exited(l, &si) && si.si_pid) {
		snprintf(who, sizeof(who), "load '%s'", l->ops->name);
		if (err && len)
			describe_status(err, len, who, si.si_status, si.si_code != CLD_EXITED);
		return -EIO;
	}
	return ct_err(err, len, -EIO, "load '%s' is not running", l->ops->name);
}

int ct_load_init(struct ct_load *l, const struct ct_load_ops *ops, const struct ct_env *env,
		 char *err, size_t len)
{
	int rc;

	memset(l, 0, sizeof(*l));
	l->pidfd = -1;
	l->mark_cpu_us = -1;
	l->env = env;
	l->ops = ops;
	l->nworkers = 1;
	if (ops->supported) {
		rc = ops->supported(env, err, len);
		if (rc)
			goto fail;
	}
	if ((size_t)snprintf(l->dir, sizeof(l->dir), "%s/load-%s", env->dir, ops->name) >=
	    sizeof(l->dir)) {
		rc = ct_err(err, len, -ENAMETOOLONG, "work directory path '%s' is too long",
			    env->dir);
		goto fail;
	}
	rc = ct_mkdir_p(l->dir, 0755);
	if (rc) {
		ct_err(err, len, rc, "cannot create '%s': %s", l->dir, strerror(-rc));
		goto fail;
	}
	l->shm = mmap(NULL, sizeof(*l->shm), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
		      0);
	if (l->shm == MAP_FAILED) {
		rc = -errno;
		l->shm = NULL;
		ct_err(err, len, rc, "load '%s': cannot map shared memory: %s", ops->name,
		       strerror(-rc));
		goto fail_dir;
	}
	if (ops->prepare) {
		rc = ops->prepare(l, err, len);
		if (rc)
			goto fail_shm;
	}
	if (l->nworkers > 0 && !ops->work) {
		rc = ct_err(err, len, -EINVAL, "load '%s' has workers but no work", ops->name);
		if (ops->cleanup)
			ops->cleanup(l);
		goto fail_shm;
	}
	return 0;

fail_shm:
	munmap(l->shm, sizeof(*l->shm));
	l->shm = NULL;
fail_dir:
	(void)ct_rm_rf(l->dir);
fail:
	l->ops = NULL;
	return rc;
}

int ct_load_start(struct ct_load *l, const char *cgroup_parent, char *err, size_t len)
{
	char name[64];
	pid_t parent = getpid(), pid;
	sigset_t all, old;
	pid_t *pids;
	int rc;

	if (!l->ops || !l->shm)
		return ct_err(err, len, -EINVAL, "load is not initialised");
	if (l->leader > 0)
		return ct_err(err, len, -EBUSY, "load '%s' is already running", l->ops->name);
	atomic_store(&l->shm->work, 0);
	atomic_store(&l->shm->failed, 0);
	memset(l->shm->error, 0, sizeof(l->shm->error));
	l->mark_ns = 0;
	l->mark_work = 0;
	l->mark_cpu_us = -1;
	l->last_work = 0;
	l->cgroup[0] = '\0';
	l->start_ns = ct_now_ns();
	l->last_progress_ns = l->start_ns;
	if (l->nworkers == 0)
		return 0;

	if (cgroup_parent) {
		snprintf(name, sizeof(name), "load-%s", l->ops->name);
		rc = ct_cgroup_create(cgroup_parent, name, l->cgroup, sizeof(l->cgroup));
		if (rc) {
			ct_err(err, len, rc, "cannot create cgroup '%s/%s': %s", cgroup_parent,
			       name, strerror(-rc));
			l->cgroup[0] = '\0';
			return rc;
		}
		/* left over from a contend that was SIGKILLed: empty it */
		(void)ct_cgroup_kill(l->cgroup, CGROUP_KILL_NS);
	}
	/* allocated here, not in the leader, so nothing mallocs after fork */
	pids = calloc(l->nworkers, sizeof(*pids));
	if (!pids) {
		rc = ct_err(err, len, -ENOMEM, "load '%s': out of memory", l->ops->name);
		goto fail;
	}
	/* no handler of contend's may run in the leader before it resets them */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	pid = fork();
	rc = -errno;
	if (pid != 0)
		sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		free(pids);
		ct_err(err, len, rc, "load '%s': cannot fork: %s", l->ops->name, strerror(-rc));
		goto fail;
	}
	if (pid == 0) {
		ct_proc_child_setup(parent);
		leader_main(l, pids);
	}
	free(pids);
	/* also here, so a kill(-leader) right after fork cannot miss it */
	setpgid(pid, pid);
	l->leader = pid;
	l->pidfd = ct_pidfd_open(pid);
	if (l->pidfd < 0)
		l->pidfd = -1; /* leader_wait() falls back to polling */
	return 0;

fail:
	if (l->cgroup[0])
		(void)ct_cgroup_destroy(l->cgroup);
	l->cgroup[0] = '\0';
	return rc;
}

/* Waits until the load's work counter reaches want (want 0: any work),
 * giving up at deadline. 0, 1 at the deadline, or an error with the
 * reason. */
static int work_wait(struct ct_load *l, uint64_t want, int64_t deadline, char *err, size_t len)
{
	for (;;) {
		uint64_t work;
		int rc;

		if (atomic_load(&l->shm->failed) || leader_exited(l, NULL))
			return load_reason(l, err, len);
		work = atomic_load(&l->shm->work);
		if (work > 0 && work >= want)
			return 0;
		if (ct_now_ns() >= deadline)
			return 1;
		rc = leader_wait(l, 10 * 1000000LL);
		if (rc < 0)
			return ct_err(err, len, rc, "interrupted");
	}
}

/* Beyond load.h: returns -EINTR ("interrupted") when a signal handler of
 * contend's interrupts the wait, so SIGINT does not wait out the delay.
 * The delay runs from the load's first unit of work: start-up that does
 * none (io reading its file into the cache) does not eat into it, so the
 * foreground meets a load that has been working for the whole delay. */
int ct_load_wait_ready(struct ct_load *l, int64_t delay_ns, char *err, size_t len)
{
	int64_t t0 = ct_now_ns(), grace, first;
	uint64_t work;
	int rc;

	if (!l->ops || !l->shm)
		return ct_err(err, len, -EINVAL, "load is not initialised");
	if (l->nworkers == 0)
		return 0;
	if (l->leader <= 0)
		return ct_err(err, len, -EIO, "load '%s' is not running", l->ops->name);
	if (delay_ns < 0)
		delay_ns = 0;
	/* a load without a counter is ready when it lived through the delay */
	if (l->uncounted) {
		rc = leader_wait(l, delay_ns);
		if (rc < 0)
			return ct_err(err, len, rc, "interrupted");
		return rc == 1 || atomic_load(&l->shm->failed) || leader_exited(l, NULL)
			       ? load_reason(l, err, len)
			       : 0;
	}
	/* a load with start-up work (io's read-in, mem's first pass, xtar's
	 * removal of the last run's tree) gets longer to do it */
	grace = l->ready_work || l->slow_start ? READY_WORK_MAX_NS : READY_GRACE_NS;
	rc = work_wait(l, 0, t0 + delay_ns + grace, err, len);
	if (rc == 1)
		return ct_err(err, len, -EIO, "load '%s' produced no work in %.1f s", l->ops->name,
			      (double)(ct_now_ns() - t0) / 1e9);
	if (rc)
		return rc;
	first = ct_now_ns();
	if (delay_ns > 0) {
		rc = leader_wait(l, delay_ns);
		if (rc < 0)
			return ct_err(err, len, rc, "interrupted");
		if (rc == 1)
			return load_reason(l, err, len);
	}
	rc = work_wait(l, l->ready_work, first + delay_ns + grace, err, len);
	if (rc == 1) {
		work = atomic_load(&l->shm->work);
		return ct_err(err, len, -EIO,
			      "load '%s' did only %.0f%% of its start-up work in %.1f s",
			      l->ops->name, 100.0 * (double)work / (double)l->ready_work,
			      (double)(ct_now_ns() - t0) / 1e9);
	}
	if (rc)
		return rc;
	l->last_work = atomic_load(&l->shm->work);
	l->last_progress_ns = ct_now_ns();
	return 0;
}

void ct_load_mark(struct ct_load *l)
{
	int64_t cpu;

	l->mark_ns = ct_now_ns();
	l->mark_work = l->shm ? atomic_load(&l->shm->work) : 0;
	l->mark_cpu_us = -1;
	if (l->cgroup[0] && l->leader > 0) {
		cpu = ct_cgroup_cpu_us(l->cgroup);
		if (cpu >= 0)
			l->mark_cpu_us = cpu;
	}
	l->last_work = l->mark_work;
	l->last_progress_ns = l->mark_ns;
}

int ct_load_check(struct ct_load *l, int64_t stall_ns, char *err, size_t len)
{
	uint64_t work;
	int64_t now;

	if (!l->ops || !l->shm)
		return ct_err(err, len, -EINVAL, "load is not initialised");
	if (l->nworkers == 0)
		return 0;
	if (l->leader <= 0)
		return ct_err(err, len, -EIO, "load '%s' is not running", l->ops->name);
	if (atomic_load(&l->shm->failed) || leader_exited(l, NULL))
		return load_reason(l, err, len);
	work = atomic_load(&l->shm->work);
	now = ct_now_ns();
	if (work != l->last_work) {
		l->last_work = work;
		l->last_progress_ns = now;
	} else if (stall_ns > 0 && !l->uncounted && now - l->last_progress_ns > stall_ns) {
		return ct_err(err, len, -EIO, "load '%s' made no progress for %.1f s", l->ops->name,
			      (double)(now - l->last_progress_ns) / 1e9);
	}
	return 0;
}

/* usage, user and system µs from the cgroup's cpu.stat; false if unreadable */
static bool cgroup_cpu(const char *cg, int64_t *usage, int64_t *user, int64_t *sys)
{
	char path[PATH_MAX + 16], buf[1024];
	const char *keys[] = { "usage_usec ", "user_usec ", "system_usec " };
	int64_t *vals[] = { usage, user, sys };

	snprintf(path, sizeof(path), "%s/cpu.stat", cg);
	if (ct_read_file(path, buf, sizeof(buf)) < 0)
		return false;
	for (size_t i = 0; i < CT_ARRAY_SIZE(keys); i++) {
		const char *p = strstr(buf, keys[i]);

		if (!p)
			return false;
		*vals[i] = strtoll(p + strlen(keys[i]), NULL, 10);
	}
	return true;
}

/* Workers outlive a leader that was killed first (they die of PDEATHSIG a
 * moment later) and are re-parented to the nearest child subreaper. When
 * that is contend (the session is one), reap them here, so stop and kill
 * leave not even a zombie of the load. Otherwise init reaps them. */
static void reap_orphans(pid_t pgid)
{
	int64_t deadline = ct_now_ns() + CGROUP_KILL_NS;
	pid_t r;

	for (;;) {
		r = waitpid(-pgid, NULL, WNOHANG);
		if (r > 0 || (r < 0 && errno == EINTR))
			continue;
		if (r < 0 || ct_now_ns() > deadline)
			return; /* ECHILD: none of the group is our child */
		usleep(1000);
	}
}

/* Kills everything left (group, cgroup), then reaps the leader. The group
 * is signalled before the reap: until then the zombie leader pins its pid,
 * so the pgid cannot name some other, newer process group. */
static void load_finish(struct ct_load *l, struct rusage *ru, int *status)
{
	kill(-l->leader, SIGKILL);
	kill(l->leader, SIGKILL);
	if (l->cgroup[0])
		(void)ct_cgroup_kill(l->cgroup, CGROUP_KILL_NS);
	if (ct_proc_reap(l->leader, status, ru))
		memset(ru, 0, sizeof(*ru));
	reap_orphans(l->leader);
	if (l->cgroup[0])
		(void)ct_cgroup_destroy(l->cgroup);
	l->cgroup[0] = '\0';
	if (l->pidfd >= 0)
		close(l->pidfd);
	l->pidfd = -1;
	l->leader = 0;
}

/*
 * CPU of the interval: the cgroup's usage_usec delta when there is a
 * cgroup (exact; split into user/sys in the proportion of the cgroup's
 * cumulative user_usec:system_usec, as cpu.stat is not read at mark in
 * halves). Without one, the leader's wait4() rusage, which includes every
 * worker it reaped, covers the load's whole life; it is scaled by
 * (stop - mark) / (stop - start), which assumes the load burns CPU at a
 * steady rate. That overstates the interval's share a little for loads
 * that start slowly and misses the CPU of a worker that was SIGKILLed
 * rather than reaped by the leader.
 */
void ct_load_stop(struct ct_load *l, struct ct_load_result *res)
{
	int64_t now = ct_now_ns(), since, usage = -1, user = 0, sys = 0;
	uint64_t work;
	bool cg_ok = false, failed = false;
	struct rusage ru;
	int status = 0;

	memset(res, 0, sizeof(*res));
	since = l->mark_ns ? l->mark_ns : l->start_ns;
	if (!l->ops || !l->shm || l->leader <= 0) {
		res->wall_ns = since ? now - since : 0;
		return;
	}
	/* the measured interval ends now: read before anything is signalled */
	work = atomic_load(&l->shm->work);
	if (l->cgroup[0])
		cg_ok = cgroup_cpu(l->cgroup, &usage, &user, &sys);
	if (atomic_load(&l->shm->failed) || leader_exited(l, NULL)) {
		failed = true;
		load_reason(l, res->reason, sizeof(res->reason));
	}

	kill(l->leader, SIGTERM);
	/* leader_wait returns at once while a signal is pending: then the
	 * grace period is skipped and load_finish kills */
	for (int64_t end = ct_now_ns() + STOP_GRACE_NS; ct_now_ns() < end;)
		if (leader_wait(l, end - ct_now_ns()) != 0)
			break;
	load_finish(l, &ru, &status);

	res->work = work - l->mark_work;
	res->wall_ns = now - since;
	if (cg_ok && l->mark_cpu_us >= 0 && usage >= l->mark_cpu_us) {
		int64_t delta = usage - l->mark_cpu_us;

		res->user_us = user + sys > 0 ? (int64_t)((double)delta * user / (user + sys)) : 0;
		res->sys_us = delta - res->user_us;
	} else {
		double share = now > l->start_ns ? (double)(now - since) / (now - l->start_ns) : 0;

		res->user_us = (int64_t)(ct_tv_us(ru.ru_utime) * share);
		res->sys_us = (int64_t)(ct_tv_us(ru.ru_stime) * share);
		res->cpu_estimated = l->nworkers > 0;
	}
	res->failed = failed;
	if (!failed)
		res->reason[0] = '\0';
}

void ct_load_kill(struct ct_load *l)
{
	struct rusage ru;
	int status;

	if (l->leader > 0)
		load_finish(l, &ru, &status);
}

void ct_load_release(struct ct_load *l)
{
	if (!l->ops)
		return;
	ct_load_kill(l);
	if (l->ops->cleanup)
		l->ops->cleanup(l);
	if (!l->env->keep_files)
		(void)ct_rm_rf(l->dir);
	if (l->shm)
		munmap(l->shm, sizeof(*l->shm));
	l->shm = NULL;
	l->ops = NULL;
}
