/*
 * Monitors from two fixture snapshots with counters chosen by hand, so
 * every delta below is arithmetic on the fixture files
 * (tests/fixtures/sysinfo/monitor-{before,after}), plus the live system.
 */
#include "contend/monitor.h"
#include "contend/reference.h"
#include "contend/sysinfo.h"
#include "contend/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

static const char *fixture(const char *name)
{
	static char path[4][PATH_MAX];
	static int next;
	const char *base = getenv("CT_FIXTURES");
	char *p = path[next++ % 4];

	assert_non_null(base);
	snprintf(p, PATH_MAX, "%s/sysinfo/%s", base, name);
	return p;
}

static void test_snapshot(void **state)
{
	struct ct_snapshot s;

	assert_int_equal(ct_monitor_snap(&s, fixture("monitor-before"), "nvme0n1p2"), 0);
	assert_true(s.have_psi);
	assert_true(s.psi_us[0][0] == 1000000);
	assert_true(s.psi_us[0][1] == 0); /* no "full" line for cpu */
	assert_true(s.psi_us[1][0] == 2000000);
	assert_true(s.psi_us[1][1] == 1500000);
	assert_true(s.psi_us[2][0] == 10);
	assert_true(s.psi_us[2][1] == 5);
	/* cpu  1000 20 300 50000 400 5 6 7 0 0:
	 * busy = 1000+20+300+5+6+7, total = busy + 50000 + 400 */
	assert_true(s.cpu_busy_ticks == 1338);
	assert_true(s.cpu_total_ticks == 51738);
	assert_true(s.steal_ticks == 7);
	assert_true(s.pgmajfault == 914);
	assert_true(s.pswpin == 5);
	/* columns 6 and 10 of the nvme0n1p2 line, not of nvme0n1 or nvme0n1p22 */
	assert_true(s.sectors_read == 12343477);
	assert_true(s.sectors_written == 36014736);
	assert_true(s.self_cpu_us == 0); /* not the live system */

	assert_int_equal(ct_monitor_snap(&s, fixture("monitor-before"), "nvme0n1"), 0);
	assert_true(s.sectors_read == 12369153);
	assert_true(s.sectors_written == 36123024);
	assert_int_equal(ct_monitor_snap(&s, fixture("monitor-before"), "sdq"), 0);
	assert_true(s.sectors_read == 0 && s.sectors_written == 0);
	assert_int_equal(ct_monitor_snap(&s, fixture("monitor-before"), ""), 0);
	assert_true(s.sectors_read == 0);
}

/* A copy of this VM's own /proc: real files, a 6.18 kernel's layout
 * (cpu pressure with a "full" line, diskstats with 20 columns). */
static void test_vm_copy(void **state)
{
	struct ct_snapshot s;

	assert_int_equal(ct_monitor_snap(&s, fixture("vm"), "vda"), 0);
	assert_true(s.have_psi);
	assert_true(s.psi_us[1][0] == 3910735);
	assert_true(s.psi_us[1][1] == 3579904);
	/* cpu  16239 0 3370 105750 391 0 45 14 0 0 */
	assert_true(s.cpu_busy_ticks == 16239 + 3370 + 45 + 14);
	assert_true(s.cpu_total_ticks == 16239 + 3370 + 45 + 14 + 105750 + 391);
	assert_true(s.steal_ticks == 14);
	assert_true(s.pgmajfault == 1252);
	assert_true(s.pswpin == 0);
	assert_true(s.sectors_read == 3134458);
	assert_true(s.sectors_written == 4723224);
}

static void test_delta(void **state)
{
	struct ct_snapshot a, b;
	struct ct_monitors m;

	/* USER_HZ is 100 on every architecture but alpha */
	assert_int_equal(sysconf(_SC_CLK_TCK), 100);
	assert_int_equal(ct_monitor_snap(&a, fixture("monitor-before"), "nvme0n1p2"), 0);
	assert_int_equal(ct_monitor_snap(&b, fixture("monitor-after"), "nvme0n1p2"), 0);

	ct_monitor_delta(&a, &b, 2000000, &m);
	assert_true(m.have_psi);
	assert_true(m.psi_us[0][0] == 250000);
	assert_true(m.psi_us[0][1] == 0);
	assert_true(m.psi_us[1][0] == 600000);
	assert_true(m.psi_us[1][1] == 400000);
	assert_true(m.psi_us[2][0] == 20);
	assert_true(m.psi_us[2][1] == 7);
	/* steal 7 -> 57 ticks: 50 ticks of 10 ms */
	assert_true(m.steal_us == 500000);
	/* busy 1338 -> 2045 ticks (1500+20+450+8+10+57; guest 3 is inside
	 * user): 7.07 s, less the 2 s that were ours */
	assert_true(m.foreign_cpu_us == 5070000);
	assert_true(m.majflt == 100);
	assert_true(m.pswpin == 7);
	assert_true(m.sectors_read == 6523);
	assert_true(m.sectors_written == 85264);
	/* the start state is the first snapshot's, not a difference: 3000
	 * dirty and 25 writeback pages */
	assert_true(m.start_dirty_bytes == 3000 * sysconf(_SC_PAGESIZE));
	assert_true(m.start_writeback_bytes == 25 * sysconf(_SC_PAGESIZE));

	/* the speed probe measures: a positive, finite rate */
	{
		double v = ct_cpu_speed(10000000);

		assert_true(v > 0 && isfinite(v));
	}

	/* more CPU claimed than was busy: clamped, never negative */
	ct_monitor_delta(&a, &b, 9000000, &m);
	assert_true(m.foreign_cpu_us == 0);

	/* contend's own CPU is not foreign either */
	a.self_cpu_us = 100000;
	b.self_cpu_us = 600000;
	ct_monitor_delta(&a, &b, 2000000, &m);
	assert_true(m.foreign_cpu_us == 4570000);

	/* PSI counts only when both ends have it */
	b.have_psi = false;
	ct_monitor_delta(&a, &b, 0, &m);
	assert_false(m.have_psi);
	assert_true(m.psi_us[1][0] == 0);
}

static void test_no_psi(void **state)
{
	struct ct_snapshot s;

	assert_int_equal(ct_monitor_snap(&s, fixture("rt"), "mmcblk0p2"), -ENOENT);
	/* rt has no /proc/pressure and no diskstats: without a device it works */
	assert_int_equal(ct_monitor_snap(&s, fixture("rt"), ""), 0);
	assert_false(s.have_psi);
	assert_true(s.psi_us[0][0] == 0);
	assert_true(s.cpu_busy_ticks == 52000 + 300 + 14000 + 0 + 800 + 0);
	assert_true(s.pgmajfault == 3141);

	assert_int_equal(ct_monitor_snap(&s, "/nonexistent-ct-root", ""), -ENOENT);
}

/* Whether /proc/diskstats has a line for dev: a device it does not know
 * reads as 0 sectors, so a test of the counters on it checks nothing. */
static bool in_diskstats(const char *dev)
{
	char line[512], name[64];
	bool found = false;
	FILE *f = fopen("/proc/diskstats", "r");

	assert_non_null(f);
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*u %*u %63s", name) == 1 && !strcmp(name, dev);
	fclose(f);
	return found;
}

/* The live system, with the disk of the test's own directory (made under
 * /var/tmp, as the shell tests' are): 4 MiB written there and synced are
 * sectors written on that disk. */
static void test_live(void **state)
{
	char dir[] = "/var/tmp/contend-test-monitor.XXXXXX", file[PATH_MAX], dev[64] = "";
	static char buf[1 << 20];
	struct ct_snapshot a, b;
	struct ct_monitors m;
	volatile uint64_t spin = 0;
	int i, fd;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(ct_sysinfo_blockdev("", dir, dev, sizeof(dev)), 0);
	if (!dev[0]) {
		rmdir(dir);
		print_message("skipped: %s is on no block device (tmpfs, overlay, NFS?)\n", dir);
		skip();
	}
	print_message("the test's directory %s is on %s\n", dir, dev);
	if (!in_diskstats(dev)) {
		rmdir(dir);
		fail_msg("%s is not in /proc/diskstats", dev);
	}

	assert_int_equal(ct_monitor_snap(&a, "", dev), 0);
	assert_int_equal(a.have_psi, access("/proc/pressure/cpu", R_OK) == 0);
	assert_true(a.cpu_total_ticks > 0);
	assert_true(a.cpu_busy_ticks <= a.cpu_total_ticks);
	for (i = 0; i < 20000000; i++)
		spin += (uint64_t)i;
	assert_true(spin > 0);
	snprintf(file, sizeof(file), "%s/written", dir);
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	memset(buf, 'x', sizeof(buf));
	for (i = 0; i < 4; i++)
		assert_int_equal(write(fd, buf, sizeof(buf)), sizeof(buf));
	assert_int_equal(fsync(fd), 0);
	assert_int_equal(close(fd), 0);
	assert_int_equal(ct_monitor_snap(&b, "", dev), 0);
	assert_int_equal(unlink(file), 0);
	assert_int_equal(rmdir(dir), 0);
	assert_true(b.cpu_total_ticks >= a.cpu_total_ticks);
	assert_true(b.cpu_busy_ticks >= a.cpu_busy_ticks);
	/* the spin ran here: contend's own CPU grew */
	assert_true(b.self_cpu_us > a.self_cpu_us);
	assert_true(b.sectors_read >= a.sectors_read);
	/* 4 MiB written and synced between the snapshots: some sectors
	 * written (not necessarily 8192: a file system may compress), on the
	 * disk the writes reach and on no other */
	print_message("%s: %llu sectors written\n", dev,
		      (unsigned long long)(b.sectors_written - a.sectors_written));
	assert_true(b.sectors_written > a.sectors_written);
	ct_monitor_delta(&a, &b, 0, &m);
	assert_true(m.sectors_written == (int64_t)(b.sectors_written - a.sectors_written));
	/* steal is the counter's delta in us; foreign CPU is busy CPU less
	 * ours, so never more than the busy CPU itself */
	{
		double tick_us = 1e6 / (double)sysconf(_SC_CLK_TCK);

		assert_true(m.steal_us ==
			    (int64_t)((double)(b.steal_ticks - a.steal_ticks) * tick_us));
		assert_true((double)m.foreign_cpu_us <=
			    (double)(b.cpu_busy_ticks - a.cpu_busy_ticks) * tick_us);
	}
	/* more CPU claimed by contend than was busy: foreign CPU is 0, not
	 * negative */
	ct_monitor_delta(&a, &b, INT64_C(1) << 50, &m);
	assert_true(m.foreign_cpu_us == 0);
}

static void test_foreign(void **state)
{
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	double cpus = -1;

	assert_int_equal(ct_monitor_foreign("", 200000000, &cpus), 0);
	print_message("foreign CPU over 200 ms: %.3f of %ld CPUs\n", cpus, ncpus);
	assert_true(cpus >= 0.0);
	assert_true(cpus <= (double)ncpus + 0.5);

	/* identical snapshots: nothing foreign */
	assert_int_equal(ct_monitor_foreign(fixture("monitor-before"), 1000000, &cpus), 0);
	assert_true(cpus == 0.0);
	assert_int_equal(ct_monitor_foreign("", 0, &cpus), -EINVAL);
}

/* The host's reference on the live system: every figure measured is a
 * positive, finite rate, its file gone; a probe that cannot run (no such
 * directory, a write refused) is NaN - missing, not an error. */
static void test_reference(void **state)
{
	char dir[] = "/var/tmp/contend-test-reference.XXXXXX";
	struct rlimit lim, small;
	struct ct_ref r;
	enum ct_ref_phase p;

	assert_non_null(mkdtemp(dir));
	memset(&r, 0, sizeof(r));
	ct_ref_take(&r, dir);
	print_message("reference: cpu %.1f steps/us, mem %.2f GB/s, disk %.1f MB/s\n",
		      r.fig[CT_REF_CPU], r.fig[CT_REF_MEM], r.fig[CT_REF_DISK]);
	for (int i = 0; i < CT_REF_NFIGS; i++)
		assert_true(r.fig[i] > 0 && isfinite(r.fig[i]));
	assert_true(r.taken_at > 0);
	/* the disk probe's file is removed: the directory is empty again */
	assert_int_equal(rmdir(dir), 0);

	/* no such directory: the disk figure is missing, the others are not */
	ct_ref_take(&r, "/nonexistent-ct-dir");
	assert_true(isnan(r.fig[CT_REF_DISK]));
	assert_true(r.fig[CT_REF_CPU] > 0 && r.fig[CT_REF_MEM] > 0);

	/* writes refused past 1 MiB (EFBIG, as a full disk refuses them) */
	assert_non_null(mkdtemp(strcpy(dir, "/var/tmp/contend-test-reference.XXXXXX")));
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &lim), 0);
	small = lim;
	small.rlim_cur = 1 << 20;
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	assert_true(isnan(ct_ref_disk_mbps(dir)));
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	signal(SIGXFSZ, SIG_DFL);
	assert_int_equal(rmdir(dir), 0);

	/* the phases as stored */
	assert_string_equal(ct_ref_phase_name(CT_REF_START), "start");
	assert_string_equal(ct_ref_phase_name(CT_REF_ROUND), "round");
	assert_string_equal(ct_ref_phase_name(CT_REF_END), "end");
	assert_int_equal(ct_ref_phase_parse("round", &p), 0);
	assert_int_equal(p, CT_REF_ROUND);
	assert_int_equal(ct_ref_phase_parse("middle", &p), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshot),  cmocka_unit_test(test_vm_copy),
		cmocka_unit_test(test_delta),	  cmocka_unit_test(test_no_psi),
		cmocka_unit_test(test_live),	  cmocka_unit_test(test_foreign),
		cmocka_unit_test(test_reference),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
