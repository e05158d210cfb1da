/*
 * The guard: a small child that outlives contend only to clean up after it.
 * PDEATHSIG reaches contend's direct children, not what they start (the
 * compiler jobs of make, a cmd's children), and a SIGKILLed contend removes
 * no files. The guard waits for SIGUSR1, which the kernel sends it when
 * contend dies; it then kills the session's cgroup or the foreground's
 * process group and removes the work directory. On a normal end contend
 * sends it SIGTERM and reaps it.
 */
#include "internal.h"
#include "contend/proc.h"
#include "contend/util.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

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

int sess_guard_start(struct session_rt *rt)
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

void sess_guard_stop(struct session_rt *rt)
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

void sess_guard_foreground(struct session_rt *rt, pid_t pgid)
{
	if (rt->guard_shm)
		atomic_store(&rt->guard_shm->fg_pgid, pgid);
}
