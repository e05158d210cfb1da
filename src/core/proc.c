/*
 * Process control shared by the foreground and the loads. The rule is
 * stress-ng's: every child is killed and reaped; nothing a run starts may
 * outlive it, and nothing may outlive contend even when it is SIGKILLed
 * (PR_SET_PDEATHSIG in every child, cgroup.kill where there is cgroup v2).
 */
#include "contend/proc.h"
#include "contend/util.h"

#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

void ct_proc_child_setup(pid_t parent_pid)
{
	sigset_t none;
	int sig;

	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent_pid)
		_exit(127);
}

int ct_pidfd_open(pid_t pid)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);

	return fd < 0 ? -errno : fd;
}

int ct_pidfd_wait(int pidfd, int extra_fd, int64_t timeout_ns)
{
	struct pollfd pfd[2] = {
		{ .fd = pidfd, .events = POLLIN },
		{ .fd = extra_fd, .events = POLLIN },
	};
	int timeout_ms = timeout_ns < 0 ? -1 : (int)((timeout_ns + 999999) / 1000000);
	int n = poll(pfd, extra_fd >= 0 ? 2 : 1, timeout_ms);

	if (n < 0)
		return -errno;
	if (n == 0)
		return 0;
	if (pfd[0].revents)
		return 1;
	return 2;
}

int ct_proc_reap(pid_t pid, int *status, struct rusage *ru)
{
	pid_t r;

	do
		r = wait4(pid, status, 0, ru);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : 0;
}

int ct_proc_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 255;
}

/* The first mount of type (with option opt, unless NULL) into buf; -ENOENT
 * when there is none. */
uint64_t ct_proc_start_time(int pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;

	if (pid <= 0)
		return 0;
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

int64_t ct_cgroup_procs_cpu_us(const char *cg)
{
	char path[4200], buf[1024], *p;
	long hz = sysconf(_SC_CLK_TCK);
	unsigned long long ut, st;
	long long cut, cst;
	int64_t ticks = 0;
	FILE *f;
	int pid;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fscanf(f, "%d", &pid) == 1) {
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		if (ct_read_file(path, buf, sizeof(buf)) <= 0)
			continue; /* gone meanwhile */
		p = strrchr(buf, ')');
		if (p &&
		    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld",
			   &ut, &st, &cut, &cst) == 4)
			ticks += (int64_t)(ut + st) + cut + cst;
	}
	fclose(f);
	return hz > 0 ? ticks * 1000000 / hz : -EINVAL;
}

static void read_id(const char *path, char *buf, size_t len)
{
	if (ct_read_file(path, buf, len) < 0)
		buf[0] = '\0';
}

void ct_owner_self(struct ct_owner *o)
{
	struct utsname u;

	memset(o, 0, sizeof(*o));
	o->pid = (int)getpid();
	o->start = ct_proc_start_time(o->pid);
	read_id("/proc/sys/kernel/random/boot_id", o->boot, sizeof(o->boot));
	read_id("/etc/machine-id", o->machine, sizeof(o->machine));
	if (!uname(&u))
		snprintf(o->host, sizeof(o->host), "%s", u.nodename);
}

bool ct_owner_same_machine(const struct ct_owner *a, const struct ct_owner *b)
{
	return a->machine[0] || b->machine[0] ? !strcmp(a->machine, b->machine)
					      : !strcmp(a->host, b->host);
}

bool ct_owner_named(const struct ct_owner *o, const char *m)
{
	size_t n = strlen(m);

	return !strcmp(o->host, m) || (n >= 4 && !strncmp(o->machine, m, n));
}

enum ct_owner_state ct_owner_state(const struct ct_owner *o)
{
	struct ct_owner me;
	uint64_t start;

	ct_owner_self(&me);
	if (*o->machine && *me.machine && strcmp(o->machine, me.machine))
		return CT_OWNER_FOREIGN;
	if (*me.boot && strcmp(o->boot, me.boot))
		return CT_OWNER_GONE;
	/* pids are reused, start times are not; 0 is a process that is gone */
	start = ct_proc_start_time(o->pid);
	if (!start || start != o->start)
		return CT_OWNER_GONE;
	return CT_OWNER_ALIVE;
}

static int find_mount(const char *type, const char *opt, char *buf, size_t len)
{
	struct mntent *me, mbuf;
	char strings[4096];
	FILE *f;
	int rc = -ENOENT;

	buf[0] = '\0';
	f = setmntent("/proc/self/mounts", "re");
	if (!f)
		return -errno;
	while ((me = getmntent_r(f, &mbuf, strings, sizeof(strings)))) {
		if (strcmp(me->mnt_type, type) || (opt && !hasmntopt(me, opt)))
			continue;
		snprintf(buf, len, "%s", me->mnt_dir);
		rc = 0;
		break;
	}
	endmntent(f);
	return rc;
}

int ct_cgroup_v2_root(char *buf, size_t len)
{
	return find_mount("cgroup2", NULL, buf, len);
}

int ct_cgroup_create(const char *parent, const char *name, char *out, size_t len)
{
	if ((size_t)snprintf(out, len, "%s/%s", parent, name) >= len)
		return -ENAMETOOLONG;
	if (mkdir(out, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int ct_cgroup_attach(const char *cg, pid_t pid)
{
	char path[4200], val[32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	snprintf(val, sizeof(val), "%d", (int)pid);
	return ct_write_file(path, val);
}

static bool cgroup_empty(const char *cg)
{
	char path[4200], buf[256];

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	return ct_read_file(path, buf, sizeof(buf)) <= 0;
}

/* The processes in cg, each sent sig (0: counted only). */
static unsigned signal_procs(const char *cg, int sig)
{
	char path[4200];
	unsigned n = 0;
	FILE *f;
	int pid;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	f = fopen(path, "re");
	while (f && fscanf(f, "%d", &pid) == 1) {
		if (sig > 0)
			kill(pid, sig);
		n++;
	}
	if (f)
		fclose(f);
	return n;
}

int ct_cgroup_kill(const char *cg, int64_t timeout_ns)
{
	char path[4200];
	int64_t deadline = ct_now_ns() + timeout_ns;

	snprintf(path, sizeof(path), "%s/cgroup.kill", cg);
	bool have_kill = ct_write_file(path, "1") == 0;

	while (!cgroup_empty(cg)) {
		/* no cgroup.kill (before 5.14): signal each member, again and
		 * again, as a member may fork between the read and the kill */
		if (!have_kill)
			(void)signal_procs(cg, SIGKILL);
		if (ct_now_ns() > deadline)
			return -ETIMEDOUT;
		usleep(2000);
	}
	return 0;
}

int64_t ct_cgroup_cpu_us(const char *cg)
{
	char path[4200], buf[1024], *p;

	snprintf(path, sizeof(path), "%s/cpu.stat", cg);
	if (ct_read_file(path, buf, sizeof(buf)) < 0)
		return -errno;
	p = strstr(buf, "usage_usec ");
	if (!p)
		return -ENOENT;
	return strtoll(p + strlen("usage_usec "), NULL, 10);
}

int ct_cgroup_stop(const char *cg, int sig, int64_t grace_ns, unsigned *nprocs)
{
	const char *base = strrchr(cg, '/');
	int64_t deadline = ct_now_ns() + grace_ns;
	struct statfs sf;
	unsigned n;

	if (nprocs)
		*nprocs = 0;
	if (statfs(cg, &sf))
		return errno == ENOENT ? 0 : -errno;
	if ((sf.f_type != CGROUP_SUPER_MAGIC && sf.f_type != CGROUP2_SUPER_MAGIC) || !base ||
	    strncmp(base + 1, "contend-", 8))
		return -EINVAL;
	n = signal_procs(cg, sig > 0 && sig < NSIG ? sig : 0);
	if (nprocs)
		*nprocs = n;
	while (n && signal_procs(cg, 0) && ct_now_ns() < deadline)
		usleep(20000);
	return ct_cgroup_destroy(cg);
}

int ct_cgroup_destroy(const char *cg)
{
	int tries;

	if (!cg || !*cg)
		return 0;
	(void)ct_cgroup_kill(cg, 2000000000LL);
	for (tries = 0; tries < 200; tries++) {
		if (!rmdir(cg) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -errno;
		usleep(5000);
	}
	return -EBUSY;
}

/* Where the memory controller lives: the v2 hierarchy when its root lists
 * "memory" in cgroup.controllers, else a v1 mount with the memory option. */
static int memcg_root(char *buf, size_t len, int *version)
{
	char ctl[512], path[4200];

	if (ct_cgroup_v2_root(buf, len) == 0) {
		snprintf(path, sizeof(path), "%s/cgroup.controllers", buf);
		if (ct_read_file(path, ctl, sizeof(ctl)) > 0 && strstr(ctl, "memory")) {
			*version = 2;
			return 0;
		}
	}
	*version = 1;
	return find_mount("cgroup", "memory", buf, len) ? -ENOTSUP : 0;
}

static int own_cgroup_dir(int version, const char *root, char *out, size_t len);

/* Makes cgroup name under parent with the limit, read back; on failure
 * nothing is left and err says why. */
static int memcg_make(struct ct_memcg *cg, const char *parent, int version, const char *name,
		      uint64_t limit, char *err, size_t len)
{
	char file[4200], val[32], back[64];
	int rc;

	memset(cg, 0, sizeof(*cg));
	if (version == 2) {
		/* children get the controller only when the parent hands it down */
		snprintf(file, sizeof(file), "%s/cgroup.subtree_control", parent);
		(void)!ct_write_file(file, "+memory");
	}
	rc = ct_cgroup_create(parent, name, cg->path, sizeof(cg->path));
	if (rc)
		return ct_err(err, len, rc, "cannot create memory cgroup '%s/%s': %s", parent, name,
			      strerror(-rc));
	cg->version = version;
	snprintf(val, sizeof(val), "%llu", (unsigned long long)limit);
	snprintf(file, sizeof(file), "%s/%s", cg->path,
		 version == 2 ? "memory.max" : "memory.limit_in_bytes");
	rc = ct_write_file(file, val);
	if (!rc && ct_read_file(file, back, sizeof(back)) <= 0)
		rc = -EIO;
	/* the kernel rounds the limit down to pages; anything else is wrong */
	if (!rc && strtoull(back, NULL, 10) > limit)
		rc = -EIO;
	if (rc) {
		ct_err(err, len, rc, "cannot set the memory limit of '%s': %s", cg->path,
		       strerror(-rc));
		ct_memcg_destroy(cg);
	}
	return rc;
}

/*
 * Under contend's own memory cgroup first, so the limits above contend (a
 * container's, a unit's MemoryMax) still hold for what joins it; at the
 * hierarchy's root when its own takes no such child: on cgroup v2 contend's
 * own cgroup holds contend itself, and a cgroup with processes in it hands
 * no controller down.
 */
int ct_memcg_create(struct ct_memcg *cg, const char *name, uint64_t limit, char *err, size_t len)
{
	char root[4096], own[4096], why[CT_ERRLEN];
	int rc, version = 0;

	memset(cg, 0, sizeof(*cg));
	rc = memcg_root(root, sizeof(root), &version);
	if (rc)
		return ct_err(err, len, -ENOTSUP,
			      "no cgroup memory controller on this system (neither cgroup v2 "
			      "nor v1 offers 'memory')");
	if (!own_cgroup_dir(version, root, own, sizeof(own)) && strcmp(own, root) &&
	    !memcg_make(cg, own, version, name, limit, why, sizeof(why)))
		return 0;
	return memcg_make(cg, root, version, name, limit, err, len);
}

int ct_memcg_attach(const struct ct_memcg *cg, pid_t pid)
{
	char file[4200], val[32];

	snprintf(file, sizeof(file), "%s/cgroup.procs", cg->path);
	snprintf(val, sizeof(val), "%d", (int)pid);
	return ct_write_file(file, val);
}

int64_t ct_memcg_peak(const struct ct_memcg *cg)
{
	char file[4200], buf[64];

	snprintf(file, sizeof(file), "%s/%s", cg->path,
		 cg->version == 2 ? "memory.peak" : "memory.max_usage_in_bytes");
	if (ct_read_file(file, buf, sizeof(buf)) <= 0)
		return -ENOENT;
	return (int64_t)strtoll(buf, NULL, 10);
}

/* This process's cgroup path in the memory hierarchy of the given
 * version: v2's "0::/path" line, or the v1 line whose controllers include
 * "memory". */
static int own_cgroup_path(int version, char *out, size_t len)
{
	char buf[8192], *line, *save = NULL;
	ssize_t n = ct_read_file("/proc/self/cgroup", buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *ctl = strchr(line, ':'), *path = ctl ? strchr(ctl + 1, ':') : NULL;
		bool mine = false;

		if (!path)
			continue;
		*path++ = '\0';
		*ctl++ = '\0';
		if (version == 2) {
			mine = !strcmp(line, "0") && !*ctl;
		} else {
			char *tok, *s2 = NULL;

			for (tok = strtok_r(ctl, ",", &s2); tok && !mine;
			     tok = strtok_r(NULL, ",", &s2))
				mine = !strcmp(tok, "memory");
		}
		if (mine) {
			snprintf(out, len, "%s", path);
			return 0;
		}
	}
	return -ENOENT;
}

/* The directory of this process's cgroup in the hierarchy of the given
 * version mounted at root (root itself when it lives there). */
static int own_cgroup_dir(int version, const char *root, char *out, size_t len)
{
	char rel[4096];
	int rc = own_cgroup_path(version, rel, sizeof(rel));

	if (!rc && (size_t)snprintf(out, len, "%s%s", root, strcmp(rel, "/") ? rel : "") >= len)
		rc = -ENAMETOOLONG;
	return rc;
}

/* A memory.max or memory.limit_in_bytes value; UINT64_MAX for none. */
static uint64_t read_limit(const char *file)
{
	char buf[64];
	unsigned long long v;

	if (ct_read_file(file, buf, sizeof(buf)) <= 0 || sscanf(buf, "%llu", &v) != 1)
		return UINT64_MAX; /* "max", or no such file (a root) */
	/* v1 says "no limit" with the largest page-aligned long */
	return v >= (1ull << 62) ? UINT64_MAX : v;
}

int ct_cgroup_v2_own(char *buf, size_t len)
{
	char root[4096];
	int rc = ct_cgroup_v2_root(root, sizeof(root));

	return rc ? rc : own_cgroup_dir(2, root, buf, len);
}

/* One level up from dir, a cgroup under the hierarchy mounted at its first
 * root_len bytes; false at the root. */
static bool memcg_up(char *dir, size_t root_len)
{
	char *slash = strrchr(dir, '/');

	if (strlen(dir) <= root_len || !slash || (size_t)(slash - dir) < root_len)
		return false;
	*slash = '\0';
	return true;
}

/* The limit set on the cgroup at dir; UINT64_MAX for none. */
static uint64_t memcg_limit_at(const char *dir, int version)
{
	char file[4200];

	snprintf(file, sizeof(file), "%s/%s", dir,
		 version == 2 ? "memory.max" : "memory.limit_in_bytes");
	return read_limit(file);
}

int ct_memcg_own_limit(struct ct_memcg_limit *out)
{
	char root[4096], dir[4096];
	uint64_t best = UINT64_MAX;
	int rc, version = 0;

	memset(out, 0, sizeof(*out));
	if (memcg_root(root, sizeof(root), &version))
		return -ENOENT;
	rc = own_cgroup_dir(version, root, dir, sizeof(dir));
	if (rc)
		return rc;
	/* from the process's own cgroup up to the root: the tightest wins */
	do {
		uint64_t v = memcg_limit_at(dir, version);

		if (v < best)
			best = v;
		if (v == UINT64_MAX || out->n == CT_MEMCG_LEVELS)
			continue;
		snprintf(out->at[out->n].dir, sizeof(out->at[out->n].dir), "%s", dir);
		out->at[out->n++].limit = v;
	} while (memcg_up(dir, strlen(root)));
	if (best == UINT64_MAX)
		return -ENOENT;
	out->version = version;
	out->limit = best;
	return 0;
}

/* The value of key in a memory.stat file (0 when absent). */
static uint64_t stat_value(const char *stat, const char *key)
{
	size_t k = strlen(key);

	for (const char *p = stat; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, k) && p[k] == ' ')
			return strtoull(p + k + 1, NULL, 10);
	return 0;
}

/* Room under the limit of the cgroup at dir: its limit less what it holds
 * that reclaim cannot take back. */
static int memcg_room_at(const char *dir, int version, uint64_t limit, uint64_t *room)
{
	char file[4200], buf[8192];
	uint64_t usage, cache;
	ssize_t n;

	snprintf(file, sizeof(file), "%s/%s", dir,
		 version == 2 ? "memory.current" : "memory.usage_in_bytes");
	n = ct_read_file(file, buf, sizeof(buf));
	if (n <= 0)
		return n < 0 ? (int)n : -EIO;
	usage = strtoull(buf, NULL, 10);
	snprintf(file, sizeof(file), "%s/memory.stat", dir);
	n = ct_read_file(file, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	/* v1's counters of the whole subtree carry a total_ prefix */
	cache = version == 2 ? stat_value(buf, "active_file") + stat_value(buf, "inactive_file")
			     : stat_value(buf, "total_active_file") +
				       stat_value(buf, "total_inactive_file");
	usage = usage > cache ? usage - cache : 0;
	*room = limit > usage ? limit - usage : 0;
	return 0;
}

int ct_memcg_room(const struct ct_memcg_limit *lim, uint64_t *room)
{
	uint64_t least = UINT64_MAX;

	/* a looser limit higher up with more under it can leave less room */
	for (size_t i = 0; i < lim->n; i++) {
		uint64_t r;
		int rc = memcg_room_at(lim->at[i].dir, lim->version, lim->at[i].limit, &r);

		if (rc)
			return rc;
		if (r < least)
			least = r;
	}
	*room = least;
	return least == UINT64_MAX ? -ENOENT : 0;
}

void ct_memcg_destroy(struct ct_memcg *cg)
{
	if (!cg->version)
		return;
	for (int i = 0; i < 50 && rmdir(cg->path) && errno == EBUSY; i++)
		usleep(20000);
	cg->version = 0;
}
