/*
 * Process control shared by the foreground and the loads: children in
 * their own process groups that die with contend (PR_SET_PDEATHSIG),
 * cgroup v2 groups for exact CPU accounting and whole-tree kill where the
 * kernel offers them, pidfds to wait with a timeout, and kill-and-reap.
 */
#ifndef CONTEND_PROC_H
#define CONTEND_PROC_H

#include "contend/common.h"
#include <sys/resource.h>
#include <sys/types.h>

/* In a freshly forked child: own process group, die with the parent
 * (parent_pid is the pid before fork; exits at once if it is already gone),
 * default signal dispositions and an empty signal mask. */
void ct_proc_child_setup(pid_t parent_pid);

/* pidfd_open(2), or -errno. */
int ct_pidfd_open(pid_t pid);
/* Waits up to timeout_ns (-1 = forever) for the pidfd to become readable
 * (process exited) or for extra_fd (if >= 0) to become readable.
 * Returns 1 when the process exited, 2 when extra_fd is readable, 0 on
 * timeout, -errno on error. EINTR is returned as -EINTR. */
int ct_pidfd_wait(int pidfd, int extra_fd, int64_t timeout_ns);

/* Reaps pid with wait4, retrying EINTR; fills status and rusage. */
int ct_proc_reap(pid_t pid, int *status, struct rusage *ru);
/* Exit status as a shell shows it: code, or 128+signal. */
int ct_proc_exit_code(int status);

/*
 * Who owns something a contend left behind (a session marked running, a
 * knob in the journal), told apart from a later process that reuses the
 * pid: the pid, its start time in clock ticks since boot (/proc/PID/stat
 * field 22), the boot and the machine. The one liveness rule of contend.
 */
struct ct_owner {
	int pid;
	uint64_t start;
	char boot[40];	  /* /proc/sys/kernel/random/boot_id, "" unknown */
	char machine[40]; /* /etc/machine-id, "" unknown */
	char host[65];	  /* the host name (uname), "" unknown */
};

/* The one rule of "the same machine": the machine ids, when either is
 * known; else the host names. */
bool ct_owner_same_machine(const struct ct_owner *a, const struct ct_owner *b);
/* Whether m names o's machine: its host name, or 4 or more leading digits
 * of its machine id (history --machine, fleet --baseline-machine). */
bool ct_owner_named(const struct ct_owner *o, const char *m);

enum ct_owner_state {
	CT_OWNER_ALIVE,	  /* that very process runs now */
	CT_OWNER_GONE,	  /* it ended, or the machine rebooted since */
	CT_OWNER_FOREIGN, /* another machine's (a shared store): not judged */
};

/* This process. */
void ct_owner_self(struct ct_owner *o);
/* The start time of pid, 0 when it does not run. */
uint64_t ct_proc_start_time(int pid);
/* Judges o on this machine: an empty machine id in o or here counts as
 * this machine; an empty boot id here cannot tell a reboot, so only the
 * pid and start time decide. */
enum ct_owner_state ct_owner_state(const struct ct_owner *o);

/* cgroup v2: mount point of the unified hierarchy ("" when none). */
int ct_cgroup_v2_root(char *buf, size_t len);
/* cgroup v2: the directory of this process's own cgroup (the root's mount
 * point when it lives there), so what contend starts stays under the
 * limits and accounting it was started under. */
int ct_cgroup_v2_own(char *buf, size_t len);
/* mkdir parent/name; path returned in out. */
int ct_cgroup_create(const char *parent, const char *name, char *out, size_t len) CT_WUR;
/* Moves pid into the cgroup. */
int ct_cgroup_attach(const char *cg, pid_t pid) CT_WUR;
/* Kills every process in the cgroup (cgroup.kill, else SIGKILL to each pid
 * in cgroup.procs) and waits until it is empty, up to timeout_ns. */
int ct_cgroup_kill(const char *cg, int64_t timeout_ns);
/* usage_usec from cpu.stat, or -errno. */
int64_t ct_cgroup_cpu_us(const char *cg);
/* The CPU its processes have used and the children they reaped (utime,
 * stime, cutime and cstime of /proc/PID/stat): what a server contend
 * started but has not reaped has used so far, in us; -errno. */
int64_t ct_cgroup_procs_cpu_us(const char *cg);
/* Stops what runs in cgroup cg, which must be a cgroup contend made (on a
 * cgroup filesystem, its name starting "contend-"; else -EINVAL, nothing
 * signalled): sig to each process (its own orderly way out; 0: none), up
 * to grace_ns for them to go, SIGKILL to the rest, the cgroup removed.
 * *nprocs (may be NULL): how many there were. 0, or -errno. */
int ct_cgroup_stop(const char *cg, int sig, int64_t grace_ns, unsigned *nprocs);
/* Kills and removes the cgroup (retrying while it drains). */
int ct_cgroup_destroy(const char *cg);

/*
 * A memory-limited cgroup, for workloads that measure the kernel's reclaim
 * (oltp --buffered): cgroup v2 where the memory controller is on the
 * unified hierarchy (memory.max), else the v1 memory controller
 * (memory.limit_in_bytes) - hybrid systems have it there.
 */
struct ct_memcg {
	char path[4096];
	int version; /* 1 or 2; 0 when not made */
};
/* Creates cgroup name with the limit, reading it back. -ENOTSUP when no
 * memory controller is available, -errno (EACCES...) when it cannot be made. */
int ct_memcg_create(struct ct_memcg *cg, const char *name, uint64_t limit, char *err,
		    size_t len) CT_WUR;
int ct_memcg_attach(const struct ct_memcg *cg, pid_t pid) CT_WUR;
/* Highest usage so far in bytes (v2 memory.peak, v1 max_usage_in_bytes);
 * -errno when the kernel does not tell. */
int64_t ct_memcg_peak(const struct ct_memcg *cg);
/* Removes it (after its processes are gone). */
void ct_memcg_destroy(struct ct_memcg *cg);

/* The memory limit this process lives under: the tightest of its own
 * memory cgroup's and its ancestors' (a container's, a systemd unit's
 * MemoryMax, a CI runner's), and the cgroup that sets it. */
#define CT_MEMCG_LEVELS 8
struct ct_memcg_limit {
	int version;
	uint64_t limit; /* the tightest limit on the way up */
	/* each cgroup with a limit, from its own up (read once: a load asks
	 * for the room at every chunk it touches) */
	size_t n;
	struct {
		char dir[4096];
		uint64_t limit;
	} at[CT_MEMCG_LEVELS];
};
/* 0 and *out filled, -ENOENT when no limit applies (or no memory
 * controller), -errno when /proc/self/cgroup cannot be read. */
int ct_memcg_own_limit(struct ct_memcg_limit *out) CT_WUR;
/* What may still be taken before a limit is met: at each limited cgroup
 * from its own up to the root, the limit less what the cgroup holds that
 * reclaim cannot take back (its usage less its file cache); the least. */
int ct_memcg_room(const struct ct_memcg_limit *lim, uint64_t *room) CT_WUR;

static inline int64_t ct_tv_us(struct timeval tv)
{
	return (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

#endif
