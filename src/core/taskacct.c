/*
 * A process tree's delay accounting (include/contend/taskacct.h): two
 * netlink sockets, read without waiting while the tree runs.
 *
 * The process events connector says each task's birth (its pid, its
 * thread group, its parent's thread group); taskstats sends each task's
 * record when it exits. A birth makes a generation of its pid: in the
 * tree when it is the root, a thread of a process in the tree, or a
 * process whose parent is. An exit record takes the oldest generation of
 * its pid not yet taken. A record is sent before its task can be reaped
 * and its pid reused, so the generations of one pid are taken in order;
 * and the birth of a task is sent before its exit record, so reading the
 * exit records first, then every birth, then matching them, never finds a
 * record whose birth is still unread.
 */
#include "contend/taskacct.h"
#include "contend/util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define RCVBUF	 (16 << 20) /* bytes a socket may hold between two drains */
#define RECV_MAX 65536

struct gen {
	pid_t pid;
	uint32_t prev; /* the pid's older generation, index + 1; 0 when none */
	bool in_tree;
	bool taken; /* its exit record came */
};

struct ct_taskacct {
	int ts, cn; /* the taskstats and the process events sockets */
	uint16_t family;
	char cpumask[256];
	pid_t root;
	uint32_t *latest; /* by pid: its newest generation, index + 1 */
	size_t pid_max;
	struct gen *gens;
	size_t ngens, cap;
	struct taskstats *batch; /* exit records read, not yet matched */
	size_t nbatch, bcap;
	struct ct_task_budget sum;
	unsigned char *buf;
};

static int nl_socket(int proto, unsigned groups)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = groups };
	int size = RCVBUF;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, proto);

	if (fd < 0)
		return -errno;
	/* as root past rmem_max; else what the system allows */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	return fd;
}

/* NLMSG_OK and NLMSG_NEXT over a size_t, without their signed compares. */
static bool nl_ok(const struct nlmsghdr *n, size_t left)
{
	return left >= sizeof(*n) && n->nlmsg_len >= sizeof(*n) && n->nlmsg_len <= left;
}

static struct nlmsghdr *nl_next(struct nlmsghdr *n, size_t *left)
{
	size_t step = NLMSG_ALIGN(n->nlmsg_len);

	*left = step < *left ? *left - step : 0;
	return (struct nlmsghdr *)((char *)n + step);
}

/* An attribute's length with its padding. */
static size_t nla_step(const struct nlattr *a)
{
	return ((size_t)a->nla_len + NLA_ALIGNTO - 1) & ~((size_t)NLA_ALIGNTO - 1);
}

static void put_attr(struct nlmsghdr *n, size_t cap, uint16_t type, const void *data, size_t size)
{
	struct nlattr *a = (struct nlattr *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));

	if (NLMSG_ALIGN(n->nlmsg_len) + NLA_HDRLEN + NLA_ALIGN(size) > cap)
		return;
	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + size);
	memcpy((char *)a + NLA_HDRLEN, data, size);
	n->nlmsg_len = (uint32_t)(NLMSG_ALIGN(n->nlmsg_len) + nla_step(a));
}

/* A generic netlink request; waits for its answer when ack (the family's
 * id, or the kernel's verdict on a registration). Returns 0 or -errno. */
static int genl_request(int fd, uint16_t type, uint8_t cmd, uint16_t attr, const void *data,
			size_t size, uint16_t *family_out)
{
	union {
		struct nlmsghdr n;
		char b[512];
	} req = { 0 };
	struct genlmsghdr *g = NLMSG_DATA(&req.n);
	static uint32_t seq;
	uint32_t my = ++seq;
	char in[8192];

	req.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	req.n.nlmsg_type = type;
	req.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.n.nlmsg_seq = my;
	g->cmd = cmd;
	g->version = 1;
	put_attr(&req.n, sizeof(req), attr, data, size);
	if (send(fd, &req, req.n.nlmsg_len, 0) < 0)
		return -errno;
	for (int tries = 0; tries < 64; tries++) {
		ssize_t r = recv(fd, in, sizeof(in), 0);
		size_t got = r > 0 ? (size_t)r : 0;

		if (r < 0)
			return errno == EINTR ? -EINTR : -errno;
		for (struct nlmsghdr *n = (struct nlmsghdr *)in; nl_ok(n, got);
		     n = nl_next(n, &got)) {
			if (n->nlmsg_seq != my)
				continue; /* an exit record already */
			if (n->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(n);

				if (e->error || !family_out)
					return e->error;
				continue;
			}
			if (family_out && n->nlmsg_type == GENL_ID_CTRL) {
				size_t left = n->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
				const struct nlattr *a =
					(const struct nlattr *)((const char *)NLMSG_DATA(n) +
								GENL_HDRLEN);

				while (left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
				       a->nla_len <= left) {
					if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID) {
						memcpy(family_out, (const char *)a + NLA_HDRLEN,
						       sizeof(*family_out));
						return 0;
					}
					left -= nla_step(a) < left ? nla_step(a) : left;
					a = (const struct nlattr *)((const char *)a + nla_step(a));
				}
			}
		}
	}
	return -EPROTO;
}

/* One control message: the op, then with events != 0 the events wanted. */
static int cn_send(int fd, uint32_t op, uint32_t events)
{
	union {
		struct nlmsghdr n;
		char b[NLMSG_SPACE(sizeof(struct cn_msg) + 2 * sizeof(uint32_t))];
	} req = { 0 };
	struct cn_msg *cn = NLMSG_DATA(&req.n);
	uint32_t data[2] = { op, events };

	cn->len = events ? sizeof(data) : sizeof(data[0]);
	req.n.nlmsg_len = NLMSG_LENGTH(sizeof(*cn) + cn->len);
	req.n.nlmsg_type = NLMSG_DONE;
	cn->id.idx = CN_IDX_PROC;
	cn->id.val = CN_VAL_PROC;
	memcpy(cn->data, data, cn->len);
	return send(fd, &req, req.n.nlmsg_len, 0) < 0 ? -errno : 0;
}

/*
 * Listens to every event, then (Linux 6.6 on: an op with the events
 * wanted, struct proc_input) to forks only: the exec, comm and exit events
 * of every task are not queued for contend. A kernel before 6.6 ignores
 * the second message, whose length it does not know; one from 6.6 counts
 * the socket's listen once.
 */
static int cn_listen(int fd, bool on)
{
	int rc = cn_send(fd, on ? PROC_CN_MCAST_LISTEN : PROC_CN_MCAST_IGNORE, 0);

	if (!rc && on)
		(void)cn_send(fd, PROC_CN_MCAST_LISTEN, 0x1 /* PROC_EVENT_FORK */);
	return rc;
}

static size_t read_pid_max(void)
{
	char buf[32] = "";
	FILE *f = fopen("/proc/sys/kernel/pid_max", "re");
	unsigned long v = 0;

	if (f) {
		if (fgets(buf, sizeof(buf), f))
			v = strtoul(buf, NULL, 10);
		fclose(f);
	}
	return v >= 301 && v <= (1u << 22) ? v : 1u << 22;
}

int ct_taskacct_open(struct ct_taskacct **out, char *err, size_t len)
{
	struct ct_taskacct *t = calloc(1, sizeof(*t));
	FILE *f;
	int rc;

	*out = NULL;
	if (!t)
		return ct_err(err, len, -ENOMEM, "out of memory");
	t->ts = t->cn = -1;
	t->pid_max = read_pid_max();
	t->latest = calloc(t->pid_max + 1, sizeof(*t->latest));
	t->buf = malloc(RECV_MAX);
	if (!t->latest || !t->buf) {
		rc = ct_err(err, len, -ENOMEM, "out of memory");
		goto fail;
	}
	f = fopen("/sys/devices/system/cpu/possible", "re");
	if (!f || !fgets(t->cpumask, sizeof(t->cpumask), f))
		snprintf(t->cpumask, sizeof(t->cpumask), "0-%ld",
			 sysconf(_SC_NPROCESSORS_CONF) - 1);
	if (f)
		fclose(f);
	t->cpumask[strcspn(t->cpumask, "\n")] = '\0';

	t->ts = nl_socket(NETLINK_GENERIC, 0);
	if (t->ts < 0) {
		rc = ct_err(err, len, t->ts, "cannot open a netlink socket: %s", strerror(-t->ts));
		goto fail;
	}
	rc = genl_request(t->ts, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME,
			  TASKSTATS_GENL_NAME, sizeof(TASKSTATS_GENL_NAME), &t->family);
	if (rc) {
		rc = ct_err(err, len, -ENOENT, "the kernel has no taskstats (CONFIG_TASKSTATS)");
		goto fail;
	}
	rc = genl_request(t->ts, t->family, TASKSTATS_CMD_GET, TASKSTATS_CMD_ATTR_REGISTER_CPUMASK,
			  t->cpumask, strlen(t->cpumask) + 1, NULL);
	if (rc) {
		rc = ct_err(err, len, rc, "cannot register for taskstats' exit records: %s%s",
			    strerror(-rc), rc == -EPERM ? " (it needs root)" : "");
		goto fail;
	}
	t->cn = nl_socket(NETLINK_CONNECTOR, CN_IDX_PROC);
	if (t->cn < 0 || (rc = cn_listen(t->cn, true))) {
		rc = t->cn < 0 ? t->cn : rc;
		rc = ct_err(err, len, rc == -EPROTONOSUPPORT ? -ENOENT : rc,
			    "cannot listen to the process events connector: %s%s", strerror(-rc),
			    rc == -EPROTONOSUPPORT ? " (CONFIG_PROC_EVENTS)" : "");
		goto fail;
	}
	*out = t;
	return 0;
fail:
	ct_taskacct_close(t);
	return rc;
}

void ct_taskacct_close(struct ct_taskacct *t)
{
	if (!t)
		return;
	if (t->cn >= 0) {
		(void)cn_listen(t->cn, false);
		close(t->cn);
	}
	if (t->ts >= 0) {
		if (t->family)
			(void)genl_request(t->ts, t->family, TASKSTATS_CMD_GET,
					   TASKSTATS_CMD_ATTR_DEREGISTER_CPUMASK, t->cpumask,
					   strlen(t->cpumask) + 1, NULL);
		close(t->ts);
	}
	free(t->latest);
	free(t->gens);
	free(t->batch);
	free(t->buf);
	free(t);
}

static struct gen *latest(struct ct_taskacct *t, pid_t pid)
{
	uint32_t i;

	if (pid <= 0 || (size_t)pid > t->pid_max)
		return NULL;
	i = t->latest[pid];
	return i && i <= t->ngens && t->gens[i - 1].pid == pid ? &t->gens[i - 1] : NULL;
}

static void born(struct ct_taskacct *t, pid_t pid, pid_t tgid, pid_t ptgid)
{
	const struct gen *up;
	struct gen *g;

	if (pid <= 0 || (size_t)pid > t->pid_max)
		return;
	if (ct_grow((void **)&t->gens, &t->cap, t->ngens + 1, sizeof(*t->gens), 4096)) {
		t->sum.lost = true;
		return;
	}
	/* a thread belongs where its process does; a process where its
	 * parent is (a thread's parent is its process's parent) */
	up = latest(t, tgid != pid ? tgid : ptgid);
	g = &t->gens[t->ngens];
	g->pid = pid;
	g->in_tree = (pid == t->root && tgid == pid) || (up && up->in_tree);
	g->taken = false;
	g->prev = latest(t, pid) ? t->latest[pid] : 0;
	t->latest[pid] = (uint32_t)++t->ngens;
}

static uint64_t clamp(uint64_t v, uint64_t max, bool *cut)
{
	if (v <= max)
		return v;
	*cut = true;
	return max;
}

void ct_taskacct_add(struct ct_task_budget *b, const struct taskstats *ts, size_t size)
{
	struct taskstats s = { 0 };
	uint64_t life, asleep, oncpu;
	bool cut = false;

	memcpy(&s, ts, size < sizeof(s) ? size : sizeof(s));
	/* on CPU: the scheduler's own sum (se.sum_exec_runtime, as
	 * /proc/PID/schedstat has it); the "real" total is utime + stime,
	 * sampled at the tick */
	oncpu = s.cpu_run_virtual_total ? s.cpu_run_virtual_total : s.cpu_run_real_total;
	life = s.ac_etime * 1000;
	asleep = life > oncpu + s.cpu_delay_total ? life - oncpu - s.cpu_delay_total : 0;
	b->tasks++;
	b->lifetime_ns += life;
	b->oncpu_ns += oncpu;
	b->cpu_wait_ns += s.cpu_delay_total;
	b->cpu_count += s.cpu_count;
	/* a delay no task can have had: more block I/O than the time it was
	 * neither running nor runnable, or a stall longer than its life. Seen
	 * on 6.18 under heavy writeback (tasks of a 40 s compile counted 10^5 s
	 * of block I/O: a wait ended whose start was never stamped), so each
	 * is cut to what the task could have spent, and the run says how many */
	b->blkio_ns += clamp(s.blkio_delay_total, asleep, &cut);
	b->blkio_count += s.blkio_count;
	b->swapin_ns += clamp(s.swapin_delay_total, life, &cut);
	b->reclaim_ns += clamp(s.freepages_delay_total, life, &cut);
	b->thrashing_ns += clamp(s.thrashing_delay_total, life, &cut);
	b->compact_ns += clamp(s.compact_delay_total, life, &cut);
	if (s.version >= 13)
		b->wpcopy_ns += clamp(s.wpcopy_delay_total, life, &cut);
	b->clamped += cut;
	b->read_bytes += s.read_bytes;
	b->write_bytes += s.write_bytes;
	b->vcsw += s.nvcsw;
	b->ivcsw += s.nivcsw;
	b->minflt += s.ac_minflt;
	b->majflt += s.ac_majflt;
}

/* The record of a task that exited: the oldest generation of its pid not
 * yet taken says whether it was the tree's. */
static void exited(struct ct_taskacct *t, const struct taskstats *ts)
{
	struct gen *g = latest(t, (pid_t)ts->ac_pid), *oldest = NULL;

	for (; g; g = g->prev ? &t->gens[g->prev - 1] : NULL) {
		if (g->pid != (pid_t)ts->ac_pid)
			break;
		if (!g->taken)
			oldest = g;
	}
	if (!oldest)
		return; /* born before contend listened: not the tree's */
	oldest->taken = true;
	if (oldest->in_tree)
		ct_taskacct_add(&t->sum, ts, sizeof(*ts));
}

static void keep_record(struct ct_taskacct *t, const void *data, size_t size)
{
	if (ct_grow((void **)&t->batch, &t->bcap, t->nbatch + 1, sizeof(*t->batch), 256)) {
		t->sum.lost = true;
		return;
	}
	memset(&t->batch[t->nbatch], 0, sizeof(*t->batch));
	memcpy(&t->batch[t->nbatch], data, size < sizeof(*t->batch) ? size : sizeof(*t->batch));
	t->nbatch++;
}

/* The per-task records in a taskstats message (TASKSTATS_TYPE_AGGR_PID's
 * stats; a thread group's aggregate would count its threads twice). */
static void ts_message(struct ct_taskacct *t, const struct nlmsghdr *n)
{
	size_t left = n->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	const struct nlattr *a = (const struct nlattr *)((const char *)NLMSG_DATA(n) + GENL_HDRLEN);

	if (n->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
		return;
	while (left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= left) {
		if ((a->nla_type & NLA_TYPE_MASK) == TASKSTATS_TYPE_AGGR_PID) {
			size_t in = a->nla_len - NLA_HDRLEN;
			const struct nlattr *b =
				(const struct nlattr *)((const char *)a + NLA_HDRLEN);

			while (in >= NLA_HDRLEN && b->nla_len >= NLA_HDRLEN && b->nla_len <= in) {
				if ((b->nla_type & NLA_TYPE_MASK) == TASKSTATS_TYPE_STATS)
					keep_record(t, (const char *)b + NLA_HDRLEN,
						    b->nla_len - NLA_HDRLEN);
				in -= nla_step(b) < in ? nla_step(b) : in;
				b = (const struct nlattr *)((const char *)b + nla_step(b));
			}
		}
		left -= nla_step(a) < left ? nla_step(a) : left;
		a = (const struct nlattr *)((const char *)a + nla_step(a));
	}
}

static void cn_message(struct ct_taskacct *t, const struct nlmsghdr *n)
{
	const struct cn_msg *cn = NLMSG_DATA(n);
	struct proc_event ev;

	if (n->nlmsg_len < NLMSG_LENGTH(sizeof(*cn) + sizeof(ev)) || cn->id.idx != CN_IDX_PROC)
		return;
	/* copied: the event sits 4 bytes past an 8-byte boundary */
	memcpy(&ev, cn->data, sizeof(ev));
	if (ev.what == PROC_EVENT_FORK)
		born(t, ev.event_data.fork.child_pid, ev.event_data.fork.child_tgid,
		     ev.event_data.fork.parent_tgid);
}

/* Every message the socket holds now, each to fn. */
static void read_socket(struct ct_taskacct *t, int fd,
			void (*fn)(struct ct_taskacct *, const struct nlmsghdr *))
{
	for (;;) {
		ssize_t r = recv(fd, t->buf, RECV_MAX, MSG_DONTWAIT);
		size_t got = r > 0 ? (size_t)r : 0;

		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				t->sum.lost = true; /* records dropped: the sums are short */
				continue;
			}
			return;
		}
		for (struct nlmsghdr *n = (struct nlmsghdr *)t->buf; nl_ok(n, got);
		     n = nl_next(n, &got))
			if (n->nlmsg_type != NLMSG_ERROR && n->nlmsg_type != NLMSG_NOOP)
				fn(t, n);
	}
}

static void ts_dispatch(struct ct_taskacct *t, const struct nlmsghdr *n)
{
	if (n->nlmsg_type == t->family)
		ts_message(t, n);
}

void ct_taskacct_drain(struct ct_taskacct *t)
{
	/* the exit records first, then every birth, then the matching: a
	 * record read here had its birth sent before it */
	read_socket(t, t->ts, ts_dispatch);
	read_socket(t, t->cn, cn_message);
	for (size_t i = 0; i < t->nbatch; i++)
		exited(t, &t->batch[i]);
	t->nbatch = 0;
}

void ct_taskacct_start(struct ct_taskacct *t, pid_t root)
{
	size_t kept = 0;
	struct gen *g;

	ct_taskacct_drain(t);
	/* forget the generations whose records came; renumber the others */
	for (size_t i = 0; i < t->ngens; i++) {
		if (t->gens[i].taken)
			continue;
		t->gens[kept] = t->gens[i];
		t->gens[kept].prev = 0;
		t->gens[kept].in_tree = false;
		t->latest[t->gens[kept].pid] = (uint32_t)(kept + 1);
		kept++;
	}
	t->ngens = kept;
	memset(&t->sum, 0, sizeof(t->sum));
	t->root = root;
	/* the root's birth was read above, before it was the root */
	g = latest(t, root);
	if (g)
		g->in_tree = true;
	else
		born(t, root, root, 0);
}

void ct_taskacct_also(struct ct_taskacct *t, pid_t pid)
{
	struct gen *g;

	ct_taskacct_drain(t);
	g = latest(t, pid);
	if (!g) { /* born before contend listened */
		born(t, pid, pid, 0);
		g = latest(t, pid);
	}
	if (g)
		g->in_tree = true;
}

void ct_taskacct_end(struct ct_taskacct *t, struct ct_task_budget *b)
{
	ct_taskacct_drain(t);
	*b = t->sum;
}
