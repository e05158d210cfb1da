/*
 * contend why's rule and what it stands on, checked against R (the ranks,
 * the rank correlation within groups, the Hodges-Lehmann shifts, Welch's
 * p-values, Holm's adjustment and the ranking: fixtures/stats/why.R), and
 * the counters' own parts: the catalogue, the stored form, the snapshots
 * of a fixture /proc and cgroup, and - as root - the delay accounting of
 * a real process tree against what each of its processes read of itself
 * in /proc/self/schedstat, and perf's counts of one against each
 * process's own rusage and CPU clock.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "contend/counters.h"
#include "contend/perfcount.h"
#include "contend/proc.h"
#include "contend/report.h"
#include "contend/stats.h"
#include "contend/taskacct.h"
#include "contend/util.h"

#include <linux/taskstats.h>

static const char *const stats_fixture_files[] = { "why", NULL };
#include "stats-fixture.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const struct rec *dat(const char *name, const char *key)
{
	const struct rec *r = find("data", name, key);

	if (!r)
		fail_msg("fixture has no data '%s %s'", name, key);
	return r;
}

static void test_ranks(void **state)
{
	static const char *const cases[] = { "r1", "r2" };
	double r[MAXV];

	(void)state;
	for (size_t c = 0; c < CT_ARRAY_SIZE(cases); c++) {
		const struct rec *x = dat(cases[c], "x"), *want = val(cases[c], "ranks");

		assert_int_equal(ct_stats_ranks(x->v, x->n, r), 0);
		for (size_t i = 0; i < x->n; i++)
			check("rank", r[i], want->v[i], 1e-12);
	}
}

static void test_spearman_within(void **state)
{
	static const char *const cases[] = { "s1", "s2", "s3" };
	double rho;

	(void)state;
	for (size_t c = 0; c < CT_ARRAY_SIZE(cases); c++) {
		const struct rec *x = dat(cases[c], "x"), *y = dat(cases[c], "y"),
				 *sz = dat(cases[c], "sizes");
		size_t sizes[2] = { (size_t)sz->v[0], (size_t)sz->v[1] };

		assert_int_equal(ct_stats_spearman_within(x->v, y->v, sizes, 2, &rho), 0);
		check(cases[c], rho, val(cases[c], "rho")->v[0], 1e-12);
	}
	/* one group is Spearman's rho */
	{
		const struct rec *x = dat("s1", "x"), *y = dat("s1", "y");
		size_t one = (size_t)dat("s1", "sizes")->v[0];

		assert_int_equal(ct_stats_spearman_within(x->v, y->v, &one, 1, &rho), 0);
		check("spearman", rho, val("s1", "spearman1")->v[0], 1e-12);
	}
	/* no spread: NaN */
	{
		double c[4] = { 1, 1, 2, 2 }, v[4] = { 1, 2, 3, 4 };
		size_t sizes[2] = { 2, 2 };

		assert_int_equal(ct_stats_spearman_within(c, v, sizes, 2, &rho), 0);
		assert_true(isnan(rho));
	}
}

/* The rule over case j1 (95%) and j2 (80%), each counter against R's. */
static void judge_case(const char *cs, double confidence)
{
	struct ct_counter_info infos[16];
	struct ct_why_input in[16];
	struct ct_why w = { 0 };
	char key[16];
	size_t n = (size_t)val(cs, "n")->v[0];

	assert_true(n <= 16);
	for (size_t i = 0; i < n; i++) {
		const struct rec *a, *b;

		snprintf(key, sizeof(key), "a%zu", i + 1);
		a = dat(cs, key);
		snprintf(key, sizeof(key), "b%zu", i + 1);
		b = dat(cs, key);
		snprintf(key, sizeof(key), "floor%zu", i + 1);
		infos[i] = (struct ct_counter_info){ "c", "s", "a counter", dat(cs, key)->v[0],
						     CT_CG_MACHINE };
		in[i] = (struct ct_why_input){ &infos[i], a->v, b->v, a->n, b->n, NULL, NULL };
	}
	assert_int_equal(ct_why_judge(&w, in, n, confidence), 0);
	assert_int_equal(w.nrows, n);
	for (size_t i = 0; i < n; i++) {
		const struct ct_why_row *r = &w.rows[i];
		const struct rec *adj;

		snprintf(key, sizeof(key), "adj%zu", i + 1);
		adj = val(cs, key);
		snprintf(key, sizeof(key), "row%zu", i + 1);
		if (!find("val", cs, key)) {
			assert_false(r->tested);
			assert_false(r->ranked);
			continue;
		}
		const struct rec *want = val(cs, key);

		assert_true(r->tested);
		check("median a", r->base_median, want->v[0], 1e-12);
		check("median b", r->median, want->v[1], 1e-12);
		check("shift", r->shift, want->v[2], REL_P);
		check("low", r->low, want->v[3], REL_P);
		check("high", r->high, want->v[4], REL_P);
		check("effect", r->effect, want->v[5], REL_P);
		check("welch p", r->p, want->v[6], REL_P);
		check("holm", r->p_adj, adj->v[0], REL_P);
		if (r->ranked != (adj->v[1] != 0))
			fail_msg("%s counter %zu: ranked %d, R says %g", cs, i + 1, r->ranked,
				 adj->v[1]);
	}
	/* ranked: by the size of the effect, largest first */
	for (size_t i = 1; i < w.nranked; i++)
		assert_true(fabs(w.rows[w.ranked[i - 1]].effect) >=
			    fabs(w.rows[w.ranked[i]].effect));
	free(w.rows);
	free(w.ranked);
}

static void test_judge(void **state)
{
	(void)state;
	judge_case("j1", 95);
	judge_case("j2", 80);
}

/* Both sides constant: Welch cannot be had; a difference ranks (over
 * its floor), no difference never does. */
static void test_judge_constant(void **state)
{
	static const struct ct_counter_info ci = { "c", "tasks", "tasks", 1, CT_CG_TREE };
	double three[5] = { 3, 3, 3, 3, 3 }, five[5] = { 5, 5, 5, 5, 5 };
	struct ct_why_input in[2] = { { &ci, three, five, 5, 5, NULL, NULL },
				      { &ci, three, three, 5, 5, NULL, NULL } };
	struct ct_why w = { 0 };

	(void)state;
	assert_int_equal(ct_why_judge(&w, in, 2, 95), 0);
	assert_true(w.rows[0].ranked);
	assert_true(w.rows[0].shift == 2);
	assert_true(isinf(w.rows[0].effect) && w.rows[0].effect > 0);
	assert_false(w.rows[1].ranked);
	assert_int_equal(w.nranked, 1);
	free(w.rows);
	free(w.ranked);
}

static void test_catalogue(void **state)
{
	size_t n;
	const struct ct_counter_info *cat = ct_counter_catalogue(&n);
	struct ct_counters c = { 0 };
	char buf[CT_MAX_COUNTERS * 64];
	double v;

	(void)state;
	assert_true(n >= 60 && n <= CT_MAX_COUNTERS);
	for (size_t i = 0; i < n; i++) {
		assert_ptr_equal(ct_counter_info(cat[i].name), &cat[i]);
		assert_int_equal(ct_counters_set(&c, cat[i].name, (double)i * 1.5 + 1e-9), 0);
		assert_true(cat[i].floor > 0);
	}
	assert_null(ct_counter_info("nonesuch"));
	assert_int_equal(ct_counters_set(&c, "Bad-Name", 1), -EINVAL);
	assert_int_equal(ct_counters_set(&c, "ok", NAN), -EINVAL);
	/* the stored form round-trips every value exactly */
	assert_int_equal(ct_counters_encode(&c, buf, sizeof(buf)), 0);
	{
		struct ct_counters d;

		assert_int_equal(ct_counters_decode(buf, &d), 0);
		assert_int_equal(d.n, c.n);
		for (size_t i = 0; i < n; i++) {
			assert_int_equal(ct_counters_get(&d, cat[i].name, &v), 0);
			assert_true(v == (double)i * 1.5 + 1e-9);
		}
		assert_int_equal(ct_counters_decode("", &d), 0);
		assert_int_equal(d.n, 0);
		assert_int_equal(ct_counters_decode("{\"a\":\"x\"}", &d), -EINVAL);
		assert_int_equal(ct_counters_decode("[1]", &d), -EINVAL);
	}
	assert_int_equal(ct_counters_encode(&c, buf, 16), -ENOSPC);
	assert_int_equal(ct_counters_get(&c, "nonesuch", &v), -ENOENT);
	assert_string_equal(ct_counter_direction(ct_counter_info("t_blkio"), -1), "less");
	assert_string_equal(ct_counter_direction(ct_counter_info("t_majflt"), -1), "fewer");
	assert_string_equal(ct_counter_direction(ct_counter_info("t_majflt"), 1), "more");
}

static void put(const char *dir, const char *rel, const char *text)
{
	char path[PATH_MAX], cmd[PATH_MAX + 16];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "%s", path);
	*strrchr(cmd, '/') = '\0';
	assert_int_equal(ct_mkdir_p(cmd, 0755), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Two snapshots of a fixture /proc and cgroup, and their deltas worked
 * out by hand. */
static void test_snapshots(void **state)
{
	char root[] = "/tmp/ct-why-XXXXXX", cg[PATH_MAX];
	struct ct_counters_snap a, b;
	struct ct_counters c = { 0 };
	double tick = (double)sysconf(_SC_CLK_TCK), v;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(cg, sizeof(cg), "%s/cg", root);
	put(root, "/proc/vmstat",
	    "pgfault 100\npgmajfault 5\nallocstall_dma 1\nallocstall_normal 2\n"
	    "pgpgin 10\n");
	put(root, "/proc/stat",
	    "cpu  10 0 20 1000 40 5 6 7 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n"
	    "intr 500 1 2 3\nctxt 900\nprocesses 70\nsoftirq 300 1 2\n");
	put(root, "/proc/diskstats",
	    "   8       0 sda 10 0 80 50 20 0 160 70 0 30 120 0 0 0 0\n"
	    " 252       0 vda 100 0 800 500 200 0 1600 700 0 300 1200 0 0 0 0\n");
	put(root, "/proc/pressure/io",
	    "some avg10=0.00 avg60=0.00 avg300=0.00 total=1000000\n"
	    "full avg10=0.00 avg60=0.00 avg300=0.00 total=500000\n");
	put(cg, "/cpu.pressure", "some avg10=0.00 avg60=0.00 avg300=0.00 total=2000000\n");
	put(cg, "/memory.stat",
	    "pgscan 10\nworkingset_refault_anon 1\nworkingset_refault_file 2\n");
	put(cg, "/io.stat",
	    "8:0 rbytes=100 wbytes=200 rios=1 wios=2\n"
	    "252:0 rbytes=1000 wbytes=0 rios=3 wios=0\n");
	ct_counters_snap(&a, root, "vda", cg);
	put(root, "/proc/vmstat",
	    "pgfault 350\npgmajfault 5\nallocstall_dma 2\nallocstall_normal 5\n"
	    "pgpgin 30\n");
	put(root, "/proc/stat",
	    "cpu  10 0 20 1000 140 5 6 7 0 0\nintr 1500 1 2 3\nctxt 1900\n"
	    "processes 75\nsoftirq 400 1 2\n");
	put(root, "/proc/diskstats",
	    " 252       0 vda 110 0 880 540 230 0 1700 760 0 400 1500 0 0 0 0\n");
	put(root, "/proc/pressure/io",
	    "some avg10=0.00 avg60=0.00 avg300=0.00 total=3500000\n"
	    "full avg10=0.00 avg60=0.00 avg300=0.00 total=500000\n");
	put(cg, "/cpu.pressure", "some avg10=0.00 avg60=0.00 avg300=0.00 total=2250000\n");
	put(cg, "/memory.stat",
	    "pgscan 40\nworkingset_refault_anon 5\nworkingset_refault_file 2\n");
	put(cg, "/io.stat",
	    "8:0 rbytes=300 wbytes=200 rios=1 wios=2\n"
	    "252:0 rbytes=5000 wbytes=0 rios=3 wios=0\n");
	ct_counters_snap(&b, root, "vda", cg);
	b.at_ns = a.at_ns + 1000000000LL; /* one second: the disk's utilisation */
	ct_counters_delta(&a, &b, &c);
#define HAS(name, want)                                                                 \
	do {                                                                            \
		assert_int_equal(ct_counters_get(&c, name, &v), 0);                     \
		if (fabs(v - (double)(want)) > 1e-9 * fmax(1, fabs((double)(want))))    \
			fail_msg("%s: got %.17g, want %.17g", name, v, (double)(want)); \
	} while (0)
	HAS("vm_pgfault", 250);
	HAS("vm_pgmajfault", 0);
	HAS("vm_allocstall", 4);       /* the sum of allocstall_* */
	HAS("vm_pgpgin", 20 * 1024.0); /* KiB to bytes */
	HAS("st_ctxt", 1000);
	HAS("st_intr", 1000); /* the first number: the total */
	HAS("st_softirq", 100);
	HAS("st_forks", 5);
	HAS("st_iowait", 100 / tick); /* the cpu line's fifth field, in s */
	HAS("st_steal", 0);
	HAS("dk_reads", 10); /* vda's, not sda's */
	HAS("dk_writes", 30);
	HAS("dk_read_bytes", 80 * 512.0);
	HAS("dk_write_bytes", 100 * 512.0);
	HAS("dk_io_ms", 40 + 60);
	HAS("dk_await", 100.0 / 40);	    /* I/O ms over the I/Os */
	HAS("dk_util", 100 * 100.0 / 1000); /* busy ms over the wall's */
	HAS("psi_io_some", 2.5);
	HAS("psi_io_full", 0);
	HAS("cg_cpu_some", 0.25);
	HAS("cg_pgscan", 30);
	HAS("cg_refault", 4);	/* anon and file */
	HAS("cg_rbytes", 4200); /* summed over the devices */
	HAS("cg_wbytes", 0);
	/* what the fixture does not have is left out */
	assert_int_equal(ct_counters_get(&c, "psi_cpu_some", &v), -ENOENT);
	assert_int_equal(ct_counters_get(&c, "cg_mem_max", &v), -ENOENT);
	assert_int_equal(ct_counters_get(&c, "t_oncpu", &v), -ENOENT);
#undef HAS
	assert_int_equal(ct_rm_rf(root), 0);
}

/* What a process read of itself at its end: on CPU and run-queue ns. */
struct self {
	uint64_t oncpu, wait;
};

static void busy(int64_t ns)
{
	int64_t end = ct_now_ns() + ns;
	volatile uint64_t x = 0;

	while (ct_now_ns() < end)
		x++;
}

static void report_self(int fd)
{
	struct self s = { 0 };
	FILE *f = fopen("/proc/self/schedstat", "re");

	if (f) {
		if (fscanf(f, "%" SCNu64 " %" SCNu64, &s.oncpu, &s.wait) != 2)
			s.oncpu = 0;
		fclose(f);
	}
	(void)!write(fd, &s, sizeof(s));
}

/*
 * As root: a tree of three processes - the root, a child it waits for, a
 * grandchild orphaned (its parent exits first) - each busy for a while and
 * reporting its own schedstat at its end; and a process outside the tree,
 * busy too, whose time must not be counted. The tree's budget holds the
 * three processes' own figures and little more (their exits after the
 * read), and counts three tasks.
 */
static void test_taskacct_tree(void **state)
{
	struct ct_taskacct *t;
	struct ct_task_budget b;
	char err[CT_ERRLEN];
	struct self got[3], sum = { 0 };
	int out[2], go[2], status;
	pid_t root, outsider;

	(void)state;
	if (geteuid())
		skip();
	assert_int_equal(ct_taskacct_open(&t, err, sizeof(err)), 0);
	assert_int_equal(pipe(out), 0);
	assert_int_equal(pipe(go), 0);
	outsider = fork();
	if (!outsider) {
		busy(150000000);
		_exit(0);
	}
	root = fork();
	if (!root) {
		char c;
		pid_t kid;

		close(go[1]);
		(void)!read(go[0], &c, 1);
		kid = fork();
		if (!kid) {
			/* the child: forks the grandchild and leaves it */
			if (!fork()) {
				usleep(100000); /* orphaned by now */
				busy(60000000);
				report_self(out[1]);
				_exit(0);
			}
			busy(40000000);
			report_self(out[1]);
			_exit(0);
		}
		busy(80000000);
		waitpid(kid, NULL, 0);
		report_self(out[1]);
		_exit(0);
	}
	ct_taskacct_start(t, root);
	assert_int_equal((int)write(go[1], "g", 1), 1);
	close(out[1]);
	for (int i = 0; i < 3; i++) {
		assert_int_equal((int)read(out[0], &got[i], sizeof(got[i])), (int)sizeof(got[i]));
		sum.oncpu += got[i].oncpu;
		sum.wait += got[i].wait;
		ct_taskacct_drain(t);
	}
	assert_int_equal(waitpid(root, &status, 0), root);
	assert_int_equal(waitpid(outsider, &status, 0), outsider);
	usleep(50000); /* the grandchild's exit, reaped by whoever adopted it */
	ct_taskacct_end(t, &b);
	ct_taskacct_close(t);
	close(out[0]);
	close(go[0]);
	close(go[1]);
	assert_false(b.lost);
	assert_int_equal(b.tasks, 3);
	/* each read its schedstat a little before it exited */
	if (b.oncpu_ns < sum.oncpu || b.oncpu_ns > sum.oncpu + 30000000)
		fail_msg("on CPU: the tree's %" PRIu64 " ns, its processes read %" PRIu64
			 " ns of themselves",
			 b.oncpu_ns, sum.oncpu);
	if (b.cpu_wait_ns < sum.wait || b.cpu_wait_ns > sum.wait + 30000000)
		fail_msg("waiting for a CPU: the tree's %" PRIu64 " ns, its processes read %" PRIu64
			 " ns",
			 b.cpu_wait_ns, sum.wait);
	assert_true(b.lifetime_ns >= b.oncpu_ns);
}

/* What a process counted of itself just before it exited. */
struct own {
	uint64_t faults; /* rusage: minor and major */
	int64_t cpu_ns;	 /* CLOCK_PROCESS_CPUTIME_ID */
};

static void touch_and_report(int fd, size_t pages, int64_t busy_ns)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, pages * (size_t)pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct own o = { 0 };
	struct rusage ru;
	struct timespec ts;

	if (m == MAP_FAILED)
		_exit(1);
	for (size_t i = 0; i < pages; i++)
		m[i * (size_t)pg] = 1;
	busy(busy_ns);
	getrusage(RUSAGE_SELF, &ru);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	o.faults = (uint64_t)(ru.ru_minflt + ru.ru_majflt);
	o.cpu_ns = ts.tv_sec * 1000000000LL + ts.tv_nsec;
	(void)!write(fd, &o, sizeof(o));
}

/*
 * perf's counters on a tree of two processes, opened on the first while it
 * waits (as contend opens them on a foreground): its child's work is in
 * them (inherited, or counted on the cgroup both live in), and they hold
 * what each process counted of itself - page faults by rusage, CPU by its
 * clock - give or take their exits and the first process's faults before
 * the events were opened.
 */
/* Whether /proc/cgroups puts perf_event on a v1 hierarchy (not 0). */
static bool perf_event_v1(void)
{
	FILE *f = fopen("/proc/cgroups", "re");
	char line[256], name[64];
	int h;
	bool v1 = false;

	while (f && fgets(line, sizeof(line), f)) /* after its header */
		if (sscanf(line, "%63s %d", name, &h) == 2 && !strcmp(name, "perf_event"))
			v1 = h != 0;
	if (f)
		fclose(f);
	return v1;
}

static void perf_tree(const char *cg)
{
	struct ct_counters c = { 0 };
	struct ct_perf p;
	struct own got[2];
	int out[2], go[2], ready[2], status;
	double faults, clock, sum_faults, sum_cpu;
	pid_t root;
	char ch;

	assert_int_equal(pipe(out), 0);
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(ready), 0);
	root = fork();
	if (!root) {
		pid_t kid;

		close(go[1]);
		if (cg && ct_cgroup_attach(cg, getpid()))
			_exit(1);
		(void)!write(ready[1], "r", 1);
		(void)!read(go[0], &ch, 1);
		kid = fork();
		if (!kid) {
			touch_and_report(out[1], 3000, 40000000);
			_exit(0);
		}
		waitpid(kid, NULL, 0);
		touch_and_report(out[1], 2000, 60000000);
		_exit(0);
	}
	close(ready[1]);
	assert_int_equal((int)read(ready[0], &ch, 1), 1);
	ct_perf_init(&p);
	if (!ct_perf_open(&p, root, cg)) {
		kill(root, SIGKILL);
		waitpid(root, &status, 0);
		/* neither root nor perf_event_paranoid <= 1 */
		skip();
	}
	/* the cgroup's events where one is given: a kernel with perf_event
	 * on the v2 hierarchy has them */
	if (cg && !p.cgroup && perf_event_v1()) {
		ct_perf_close(&p);
		kill(root, SIGKILL);
		waitpid(root, &status, 0);
		skip(); /* perf counts v1's perf_event cgroups only */
	}
	assert_int_equal(p.cgroup, cg != NULL);
	assert_true(p.fd[0][0] >= 0 && p.fd[3][0] >= 0); /* task-clock, page faults */
	assert_int_equal((int)write(go[1], "g", 1), 1);
	close(out[1]);
	for (int i = 0; i < 2; i++)
		assert_int_equal((int)read(out[0], &got[i], sizeof(got[i])), (int)sizeof(got[i]));
	assert_int_equal(waitpid(root, &status, 0), root);
	ct_perf_read(&p, &c);
	assert_int_equal(p.fd[0][0], -1); /* closed */
	close(out[0]);
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	assert_int_equal(ct_counters_get(&c, "pf_faults", &faults), 0);
	assert_int_equal(ct_counters_get(&c, "pf_task_clock", &clock), 0);
	sum_faults = (double)(got[0].faults + got[1].faults);
	sum_cpu = (double)(got[0].cpu_ns + got[1].cpu_ns) / 1e9;
	/* the child's 3,000 pages are counted: more than the first's own */
	if (faults < 5000 || faults < sum_faults - 300 || faults > sum_faults + 300)
		fail_msg("page faults: perf counted %.0f, the processes %.0f of themselves", faults,
			 sum_faults);
	if (clock < sum_cpu - 0.001 || clock > sum_cpu + 0.03)
		fail_msg("CPU: perf counted %.4f s, the processes %.4f s of themselves", clock,
			 sum_cpu);
}

static void test_perf_tree(void **state)
{
	(void)state;
	perf_tree(NULL);
}

/* The same tree in a cgroup of its own: counted there, on every CPU. */
static void test_perf_cgroup(void **state)
{
	char root[PATH_MAX], cg[PATH_MAX + 64];

	(void)state;
	if (geteuid())
		skip(); /* a cgroup needs root */
	if (ct_cgroup_v2_root(root, sizeof(root)) || !root[0])
		skip(); /* no cgroup v2 hierarchy */
	if (ct_cgroup_create(root, "contend-test-perf", cg, sizeof(cg)))
		fail_msg("cannot create a cgroup under %s", root);
	perf_tree(cg);
	assert_int_equal(ct_cgroup_destroy(cg), 0);
}

/* A record no task can have made - more block I/O than the time it was
 * neither running nor runnable, a stall longer than its life - is cut to
 * what it could have spent, and counted; a sane one is summed as it is. */
static void test_taskacct_clamp(void **state)
{
	struct ct_task_budget b = { 0 };
	struct taskstats s = { 0 };

	(void)state;
	s.version = TASKSTATS_VERSION;
	s.ac_etime = 10000000;		      /* 10 s, in us */
	s.cpu_run_real_total = 2996000000ULL; /* at the tick */
	s.cpu_run_virtual_total = 3000000000ULL;
	s.cpu_delay_total = 2000000000ULL;
	s.blkio_delay_total = 4000000000ULL; /* 4 s: sane */
	s.freepages_delay_total = 1000000000ULL;
	ct_taskacct_add(&b, &s, sizeof(s));
	assert_int_equal(b.clamped, 0);
	assert_true(b.blkio_ns == 4000000000ULL && b.reclaim_ns == 1000000000ULL);
	s.blkio_delay_total = 207240000000000ULL; /* 57 h in a 10 s life */
	s.thrashing_delay_total = 20000000000ULL; /* 20 s */
	ct_taskacct_add(&b, &s, sizeof(s));
	assert_int_equal(b.clamped, 1);
	assert_true(b.blkio_ns == 4000000000ULL + 5000000000ULL); /* 10 - 3 - 2 */
	assert_true(b.thrashing_ns == 10000000000ULL);
	assert_int_equal(b.tasks, 2);
	assert_true(b.oncpu_ns == 6000000000ULL); /* the scheduler's sum, not the tick's */
	assert_true(b.lifetime_ns == 20000000000ULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranks),	      cmocka_unit_test(test_spearman_within),
		cmocka_unit_test(test_judge),	      cmocka_unit_test(test_judge_constant),
		cmocka_unit_test(test_catalogue),     cmocka_unit_test(test_snapshots),
		cmocka_unit_test(test_taskacct_tree), cmocka_unit_test(test_taskacct_clamp),
		cmocka_unit_test(test_perf_tree),     cmocka_unit_test(test_perf_cgroup),
	};

	return cmocka_run_group_tests_name("why", tests, load_fixture, free_fixture);
}
