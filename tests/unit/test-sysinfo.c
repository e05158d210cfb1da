/*
 * System facts from fixture trees (tests/fixtures/sysinfo, see its README)
 * with values written into them by hand, from small trees built here to
 * walk the preemption and mount rules, and from the live machine.
 */
#include "contend/sysinfo.h"
#include "contend/util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

static const char *fixture(const char *name)
{
	static char path[PATH_MAX];
	const char *base = getenv("CT_FIXTURES");

	assert_non_null(base);
	snprintf(path, sizeof(path), "%s/sysinfo/%s", base, name);
	return path;
}

static void capture_ok(struct ct_sysinfo *si, const char *root, const char *dir)
{
	char err[CT_ERRLEN] = "";
	int rc = ct_sysinfo_capture(si, root, dir, err, sizeof(err));

	if (rc)
		print_error("capture of '%s': %s\n", root, err);
	assert_int_equal(rc, 0);
}

static void assert_sysctls(const struct ct_sysinfo *si, const char *const *kv, unsigned n)
{
	unsigned i;

	assert_int_equal(si->nsysctl, n);
	for (i = 0; i < n; i++) {
		assert_string_equal(si->sysctl[i].name, kv[2 * i]);
		assert_string_equal(si->sysctl[i].value, kv[2 * i + 1]);
	}
}

static bool is_hex16(const char *s)
{
	return strlen(s) == 16 && strspn(s, "0123456789abcdef") == 16;
}

/* ---- building small trees ---- */

static void put(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX], dir[PATH_MAX], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	*slash = '\0';
	assert_int_equal(ct_mkdir_p(dir, 0755), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void link_at(const char *root, const char *rel, const char *target)
{
	char path[PATH_MAX], dir[PATH_MAX], *slash;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	*slash = '\0';
	assert_int_equal(ct_mkdir_p(dir, 0755), 0);
	assert_int_equal(symlink(target, path), 0);
}

/* The files capture cannot do without. */
static void minimal_tree(char *root, size_t len, const char *version, const char *cmdline)
{
	snprintf(root, len, "/tmp/ct-sysinfo-XXXXXX");
	assert_non_null(mkdtemp(root));
	put(root, "proc/sys/kernel/osrelease", "6.1.0-test\n");
	put(root, "proc/sys/kernel/version", version);
	put(root, "proc/cmdline", cmdline);
	put(root, "proc/cpuinfo", "processor\t: 0\nmodel name\t: Test CPU\n\n");
	put(root, "proc/meminfo", "MemTotal:       1024 kB\n");
}

static void drop_tree(const char *root)
{
	assert_int_equal(ct_rm_rf(root), 0);
}

/* ---- fixtures ---- */

static void test_vm(void **state)
{
	static const char *const sysctls[] = {
		"vm.dirty_ratio",
		"20",
		"vm.dirty_background_ratio",
		"10",
		"vm.dirty_expire_centisecs",
		"3000",
		"vm.swappiness",
		"60",
		"vm.vfs_cache_pressure",
		"100",
		"vm.overcommit_memory",
		"0",
		"vm.min_free_kbytes",
		"67584",
		"kernel.sched_autogroup_enabled",
		"1",
		"kernel.numa_balancing",
		"0",
		"thp.enabled",
		"madvise",
	};
	struct ct_sysinfo si;

	capture_ok(&si, fixture("vm"), "/var/tmp");
	assert_string_equal(si.kernel_release, "6.18.44-fc-v595");
	assert_string_equal(si.kernel_version, "#1 SMP PREEMPT_DYNAMIC @0");
	/* no debugfs, no preempt= and no boot config: the mode is not known */
	assert_string_equal(si.preempt, "dynamic");
	assert_true(!strncmp(si.cmdline, "mitigations=auto,no_guest_host,no_guest_guest ", 46));
	assert_string_equal(si.cpu_model, "AMD EPYC");
	assert_int_equal(si.ncpus, 2);
	assert_true(si.ram_bytes == 24684096ULL * 1024);
	assert_true(si.swap_bytes == 0);
	assert_true(si.mem_available == 24315148ULL * 1024);
	assert_string_equal(si.fs_type, "ext4");
	assert_string_equal(si.fs_source, "/dev/vda");
	assert_string_equal(si.block_dev, "vda");
	assert_string_equal(si.iosched, "mq-deadline");
	assert_sysctls(&si, sysctls, CT_ARRAY_SIZE(sysctls) / 2);
	assert_true(is_hex16(si.fingerprint));
}

static void test_distro(void **state)
{
	static const char *const sysctls[] = {
		"vm.dirty_ratio",
		"15",
		"vm.dirty_background_ratio",
		"5",
		"vm.dirty_expire_centisecs",
		"1500",
		"vm.swappiness",
		"10",
		"vm.vfs_cache_pressure",
		"50",
		"vm.overcommit_memory",
		"1",
		"vm.min_free_kbytes",
		"45056",
		"kernel.sched_autogroup_enabled",
		"0",
		"kernel.numa_balancing",
		"1",
		"thp.enabled",
		"madvise",
	};
	struct ct_sysinfo si;
	char dev[64], disk[64];

	capture_ok(&si, fixture("distro"), "/home/user/data/work");
	assert_string_equal(si.kernel_release, "6.1.0-18-amd64");
	assert_string_equal(si.preempt, "dynamic(voluntary)");
	assert_string_equal(si.cmdline, "BOOT_IMAGE=/boot/vmlinuz-6.1.0-18-amd64 "
					"root=UUID=4f1c2d9e-7a51-4c3b-9a0e-2b6f3c1d8e90 ro quiet");
	assert_string_equal(si.cpu_model, "Intel(R) Core(TM) i7-8565U CPU @ 1.80GHz");
	assert_int_equal(si.ncpus, 4);
	assert_true(si.ram_bytes == 25769803776ULL);	 /* 25165824 kB */
	assert_true(si.swap_bytes == 8589930496ULL);	 /* 8388604 kB */
	assert_true(si.mem_available == 21474836480ULL); /* 20971520 kB */
	assert_string_equal(si.fs_type, "ext4");
	assert_string_equal(si.fs_source, "/dev/nvme0n1p2");
	assert_string_equal(si.block_dev, "nvme0n1p2");
	/* the partition has no queue: the scheduler is its disk's */
	assert_string_equal(si.iosched, "bfq");
	assert_sysctls(&si, sysctls, CT_ARRAY_SIZE(sysctls) / 2);

	assert_int_equal(ct_sysinfo_disk(fixture("distro"), "nvme0n1p2", disk, sizeof(disk)), 0);
	assert_string_equal(disk, "nvme0n1");
	assert_int_equal(ct_sysinfo_disk(fixture("distro"), "nvme0n1", disk, sizeof(disk)), 0);
	assert_string_equal(disk, "nvme0n1");
	assert_int_equal(ct_sysinfo_disk(fixture("distro"), "sdz", disk, sizeof(disk)), -ENOENT);
	assert_string_equal(disk, "");
	assert_int_equal(ct_sysinfo_disk(fixture("distro"), "../x", disk, sizeof(disk)), -EINVAL);

	assert_int_equal(ct_sysinfo_blockdev(fixture("distro"), "/home/user", dev, sizeof(dev)), 0);
	assert_string_equal(dev, "nvme0n1p2");
}

static void test_rt(void **state)
{
	static const char *const sysctls[] = {
		"vm.dirty_ratio",
		"20",
		"vm.dirty_background_ratio",
		"10",
		"vm.dirty_expire_centisecs",
		"3000",
		"vm.swappiness",
		"60",
		"vm.vfs_cache_pressure",
		"100",
		"vm.overcommit_memory",
		"0",
		"vm.min_free_kbytes",
		"16384",
	};
	struct ct_sysinfo si;
	char dev[64] = "x";

	capture_ok(&si, fixture("rt"), "/tmp/work");
	assert_string_equal(si.kernel_release, "6.6.15-rt22-v8+");
	assert_string_equal(si.preempt, "rt");
	/* arm64 cpuinfo has no "model name"; the board's Hardware line names it */
	assert_string_equal(si.cpu_model, "BCM2835");
	assert_int_equal(si.ncpus, 4);
	assert_true(si.ram_bytes == 3885396ULL * 1024);
	assert_true(si.swap_bytes == 102396ULL * 1024);
	assert_string_equal(si.fs_type, "tmpfs");
	assert_string_equal(si.fs_source, "tmpfs");
	assert_string_equal(si.block_dev, "");
	assert_string_equal(si.iosched, "");
	/* no sched_autogroup_enabled, numa_balancing or THP files */
	assert_sysctls(&si, sysctls, CT_ARRAY_SIZE(sysctls) / 2);

	assert_int_equal(ct_sysinfo_blockdev(fixture("rt"), "/tmp/work", dev, sizeof(dev)), 0);
	assert_string_equal(dev, "");
}

static void test_dm(void **state)
{
	struct ct_sysinfo si;
	char disk[64];

	capture_ok(&si, fixture("dm"), "/var/lib/contend");
	/* no flag in the version string; the boot config names the model */
	assert_string_equal(si.preempt, "voluntary");
	assert_string_equal(si.cpu_model, "POWER9 (architected), altivec supported");
	assert_int_equal(si.ncpus, 8);
	assert_true(si.ram_bytes == 16515072ULL * 1024);
	assert_true(si.swap_bytes == 4194240ULL * 1024);
	assert_string_equal(si.fs_type, "xfs");
	assert_string_equal(si.fs_source, "/dev/mapper/rhel-root");
	assert_string_equal(si.block_dev, "dm-0");
	assert_string_equal(si.iosched, "none");
	assert_int_equal(si.nsysctl, 10);
	assert_string_equal(si.sysctl[9].name, "thp.enabled");
	assert_string_equal(si.sysctl[9].value, "always");

	assert_int_equal(ct_sysinfo_disk(fixture("dm"), "sda3", disk, sizeof(disk)), 0);
	assert_string_equal(disk, "sda");
}

static void test_missing(void **state)
{
	struct ct_sysinfo si;

	capture_ok(&si, fixture("missing"), "/data/work");
	/* a PREEMPT build ignores preempt= on its command line */
	assert_string_equal(si.preempt, "full");
	assert_string_equal(si.cpu_model, "sifive,u74-mc");
	assert_int_equal(si.ncpus, 4);
	assert_true(si.ram_bytes == 8039848ULL * 1024);
	assert_true(si.mem_available == 0); /* no MemAvailable line */
	assert_string_equal(si.fs_type, "ext4");
	assert_string_equal(si.fs_source, "/dev/vdb");
	assert_string_equal(si.block_dev, ""); /* 254:16 unknown to sysfs */
	assert_string_equal(si.iosched, "");
	assert_int_equal(si.nsysctl, 0);
	assert_true(is_hex16(si.fingerprint));
}

/* ---- rules, on built trees ---- */

static void test_errors(void **state)
{
	char root[64], err[CT_ERRLEN], expect[CT_ERRLEN + 64];
	struct ct_sysinfo si;

	minimal_tree(root, sizeof(root), "#1 SMP\n", "quiet\n");
	put(root, "dev-of-workdir", "8:1\n");
	put(root, "proc/self/mountinfo", "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n");
	capture_ok(&si, root, "/w");

	assert_int_equal(unlink(strcat(strcpy(expect, root), "/proc/meminfo")), 0);
	assert_int_equal(ct_sysinfo_capture(&si, root, "/w", err, sizeof(err)), -ENOENT);
	snprintf(expect, sizeof(expect), "cannot read '%s/proc/meminfo': No such file or directory",
		 root);
	assert_string_equal(err, expect);

	put(root, "proc/meminfo", "MemFree: 5 kB\n");
	assert_int_equal(ct_sysinfo_capture(&si, root, "/w", err, sizeof(err)), -EINVAL);
	snprintf(expect, sizeof(expect), "no MemTotal in '%s/proc/meminfo'", root);
	assert_string_equal(err, expect);

	put(root, "proc/meminfo", "MemTotal: 5 kB\n");
	put(root, "dev-of-workdir", "sda1\n");
	assert_int_equal(ct_sysinfo_capture(&si, root, "/w", err, sizeof(err)), -EINVAL);

	put(root, "dev-of-workdir", "8:1\n");
	snprintf(expect, sizeof(expect), "%s/proc/self/mountinfo", root);
	assert_int_equal(unlink(expect), 0);
	assert_int_equal(ct_sysinfo_capture(&si, root, "/w", err, sizeof(err)), -ENOENT);
	/* without a work dir the mount table is not needed */
	capture_ok(&si, root, "");
	assert_string_equal(si.fs_type, "");
	drop_tree(root);

	assert_int_equal(ct_sysinfo_capture(&si, "/nonexistent-ct-root", "", err, sizeof(err)),
			 -ENOENT);
	assert_string_equal(err, "cannot read '/nonexistent-ct-root/proc/sys/kernel/osrelease': "
				 "No such file or directory");
	assert_int_equal(ct_sysinfo_capture(&si, "", "/nonexistent-ct-dir", err, sizeof(err)),
			 -ENOENT);
	assert_string_equal(err, "cannot stat '/nonexistent-ct-dir': No such file or directory");
}

static void test_preempt(void **state)
{
	static const struct {
		const char *version, *cmdline, *debug, *config, *realtime, *expect;
	} cases[] = {
		/* debugfs is the mode in force now */
		{ "#1 SMP PREEMPT_DYNAMIC Debian", "quiet", "none voluntary (full) lazy", NULL,
		  NULL, "dynamic(full)" },
		/* then the boot parameter, over the build default */
		{ "#1 SMP PREEMPT_DYNAMIC", "quiet preempt=lazy", NULL,
		  "CONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_PREEMPT_DYNAMIC=y\n", NULL, "dynamic(lazy)" },
		{ "#1 SMP PREEMPT_DYNAMIC", "quiet", NULL,
		  "# CONFIG_PREEMPT_NONE is not set\nCONFIG_PREEMPT_VOLUNTARY=y\n", NULL,
		  "dynamic(voluntary)" },
		/* an unknown value is ignored by the kernel, and by us */
		{ "#1 SMP PREEMPT_DYNAMIC", "preempt=bogus", NULL, NULL, NULL, "dynamic" },
		/* arguments after "--" are init's */
		{ "#1 SMP PREEMPT_DYNAMIC", "quiet -- preempt=none", NULL, NULL, NULL, "dynamic" },
		/* RT outranks the debugfs file of an RT+DYNAMIC build */
		{ "#1 SMP PREEMPT_RT Mon Jan 1", "", "(full) lazy", NULL, NULL, "rt" },
		{ "#1 SMP Mon Jan 1", "", NULL, NULL, "1", "rt" },
		{ "#1 SMP PREEMPT_RTX", "", NULL, NULL, NULL, "none/voluntary" },
		{ "#1 SMP PREEMPT Tue Mar 4", "", NULL, NULL, NULL, "full" },
		{ "#1 SMP PREEMPT", "", NULL, "CONFIG_PREEMPT_LAZY=y\n", NULL, "lazy" },
		{ "#1 SMP Tue Mar 4", "", NULL, NULL, NULL, "none/voluntary" },
		{ "#1 SMP", "", NULL, "CONFIG_PREEMPT_NONE=y\n", NULL, "none" },
		{ "#1 SMP", "", NULL, "CONFIG_PREEMPT_RT=y\nCONFIG_PREEMPT=y\n", NULL,
		  "none/voluntary" },
		{ "", "", NULL, NULL, NULL, "unknown" },
	};
	struct ct_sysinfo si;
	char root[64];
	size_t i;

	for (i = 0; i < CT_ARRAY_SIZE(cases); i++) {
		minimal_tree(root, sizeof(root), cases[i].version, cases[i].cmdline);
		if (cases[i].debug)
			put(root, "sys/kernel/debug/sched/preempt", cases[i].debug);
		if (cases[i].config)
			put(root, "boot/config-6.1.0-test", cases[i].config);
		if (cases[i].realtime)
			put(root, "sys/kernel/realtime", cases[i].realtime);
		capture_ok(&si, root, NULL);
		if (strcmp(si.preempt, cases[i].expect))
			print_error("case %zu: '%s'\n", i, cases[i].version);
		assert_string_equal(si.preempt, cases[i].expect);
		drop_tree(root);
	}
}

static void test_mounts(void **state)
{
	struct ct_sysinfo si;
	char root[64];

	minimal_tree(root, sizeof(root), "#1 SMP\n", "quiet\n");
	put(root, "proc/self/mountinfo",
	    "20 1 8:1 / / rw shared:1 - ext4 /dev/sda1 rw\n"
	    "21 20 8:1 /srv /srv rw - ext4 bind-of-sda1 rw\n"
	    "22 20 8:2 / /mnt/My rw - ext4 /dev/sda2 rw\n"
	    "23 20 8:2 / /mnt/My\\040Disk rw master:3 - ext4 my\\040disk rw\n"
	    "24 20 0:30 / /data rw - btrfs /dev/sdb2 rw,subvolid=5\n"
	    "25 20 0:44 / /tmp rw - tmpfs tmpfs rw\n");
	link_at(root, "sys/dev/block/8:1", "../../devices/x/block/sda/sda1");
	link_at(root, "sys/class/block/sda1", "../../devices/x/block/sda/sda1");
	put(root, "sys/devices/x/block/sda/sda1/partition", "1\n");
	put(root, "sys/devices/x/block/sda/queue/scheduler", "[none] mq-deadline\n");
	link_at(root, "sys/block/sda", "../devices/x/block/sda");
	link_at(root, "sys/class/block/sdb2", "../../devices/x/block/sdb/sdb2");
	put(root, "sys/devices/x/block/sdb/sdb2/partition", "2\n");
	put(root, "sys/devices/x/block/sdb/queue/scheduler", "mq-deadline [kyber]\n");
	link_at(root, "sys/block/sdb", "../devices/x/block/sdb");

	/* two mounts of one device: the one whose mount point holds the dir */
	put(root, "dev-of-workdir", "8:1\n");
	capture_ok(&si, root, "/srv/work");
	assert_string_equal(si.fs_source, "bind-of-sda1");
	assert_string_equal(si.block_dev, "sda1");
	assert_string_equal(si.iosched, "none");
	capture_ok(&si, root, "/srvx/work");
	assert_string_equal(si.fs_source, "/dev/sda1");
	capture_ok(&si, root, "/srv");
	assert_string_equal(si.fs_source, "bind-of-sda1");

	/* escaped mount points; the longer one wins */
	put(root, "dev-of-workdir", "8:2\n");
	capture_ok(&si, root, "/mnt/My Disk/w");
	assert_string_equal(si.fs_source, "my disk");
	assert_string_equal(si.block_dev, ""); /* 8:2 is not in this sysfs */
	capture_ok(&si, root, "/mnt/My/w");
	assert_string_equal(si.fs_source, "/dev/sda2");

	/* btrfs: st_dev of a subvolume matches no mount; the path decides, and
	 * the /dev/ source names the device */
	put(root, "dev-of-workdir", "0:51\n");
	capture_ok(&si, root, "/data/vol/w");
	assert_string_equal(si.fs_type, "btrfs");
	assert_string_equal(si.block_dev, "sdb2");
	assert_string_equal(si.iosched, "kyber");

	/* tmpfs has a source that is no device */
	put(root, "dev-of-workdir", "0:44\n");
	capture_ok(&si, root, "/tmp");
	assert_string_equal(si.fs_type, "tmpfs");
	assert_string_equal(si.block_dev, "");
	assert_string_equal(si.iosched, "");
	drop_tree(root);
}

/* ---- fingerprint ---- */

static void test_fingerprint(void **state)
{
	struct ct_sysinfo a, b, c;

	capture_ok(&a, fixture("distro"), "/home/user/data/work");
	capture_ok(&b, fixture("distro"), "/home/user/data/work");
	assert_true(is_hex16(a.fingerprint));
	assert_string_equal(a.fingerprint, b.fingerprint);

	c = a;
	c.mem_available += 4096;
	ct_sysinfo_fingerprint(&c);
	assert_string_equal(c.fingerprint, a.fingerprint);
	c = a;
	snprintf(c.fs_source, sizeof(c.fs_source), "/dev/disk/by-uuid/4f1c");
	ct_sysinfo_fingerprint(&c);
	assert_string_equal(c.fingerprint, a.fingerprint);

	c = a;
	snprintf(c.iosched, sizeof(c.iosched), "mq-deadline");
	ct_sysinfo_fingerprint(&c);
	assert_string_not_equal(c.fingerprint, a.fingerprint);
	c = a;
	snprintf(c.sysctl[3].value, sizeof(c.sysctl[3].value), "60");
	ct_sysinfo_fingerprint(&c);
	assert_string_not_equal(c.fingerprint, a.fingerprint);
	c = a;
	c.ncpus = 2;
	ct_sysinfo_fingerprint(&c);
	assert_string_not_equal(c.fingerprint, a.fingerprint);
	c = a;
	snprintf(c.preempt, sizeof(c.preempt), "dynamic(full)");
	ct_sysinfo_fingerprint(&c);
	assert_string_not_equal(c.fingerprint, a.fingerprint);

	capture_ok(&c, fixture("vm"), "/var/tmp");
	assert_string_not_equal(c.fingerprint, a.fingerprint);
}

static void test_fingerprint_value(void **state)
{
	static const char text[] = "kernel_release=6.18.0\n"
				   "kernel_version=#1 SMP PREEMPT_DYNAMIC\n"
				   "cmdline=root=/dev/vda ro\n"
				   "preempt=dynamic(full)\n"
				   "cpu_model=Test CPU\n"
				   "ncpus=8\n"
				   "ram_bytes=17179869184\n"
				   "swap_bytes=0\n"
				   "fs_type=ext4\n"
				   "block_dev=vda\n"
				   "iosched=mq-deadline\n"
				   "vm.dirty_ratio=20\n"
				   "thp.enabled=madvise\n";
	struct ct_sysinfo si;
	char buf[1024], small[16];

	memset(&si, 0, sizeof(si));
	snprintf(si.kernel_release, sizeof(si.kernel_release), "6.18.0");
	snprintf(si.kernel_version, sizeof(si.kernel_version), "#1 SMP PREEMPT_DYNAMIC");
	snprintf(si.cmdline, sizeof(si.cmdline), "root=/dev/vda ro");
	snprintf(si.preempt, sizeof(si.preempt), "dynamic(full)");
	snprintf(si.cpu_model, sizeof(si.cpu_model), "Test CPU");
	si.ncpus = 8;
	si.ram_bytes = 17179869184ULL;
	si.mem_available = 123456789; /* not part of the text */
	snprintf(si.fs_type, sizeof(si.fs_type), "ext4");
	snprintf(si.fs_source, sizeof(si.fs_source), "/dev/vda"); /* nor this */
	snprintf(si.block_dev, sizeof(si.block_dev), "vda");
	snprintf(si.iosched, sizeof(si.iosched), "mq-deadline");
	snprintf(si.sysctl[0].name, sizeof(si.sysctl[0].name), "vm.dirty_ratio");
	snprintf(si.sysctl[0].value, sizeof(si.sysctl[0].value), "20");
	snprintf(si.sysctl[1].name, sizeof(si.sysctl[1].name), "thp.enabled");
	snprintf(si.sysctl[1].value, sizeof(si.sysctl[1].value), "madvise");
	si.nsysctl = 2;

	assert_int_equal(ct_sysinfo_canonical(&si, buf, sizeof(buf)), strlen(text));
	assert_string_equal(buf, text);
	assert_int_equal(ct_sysinfo_canonical(&si, NULL, 0), strlen(text));
	assert_int_equal(ct_sysinfo_canonical(&si, small, sizeof(small)), strlen(text));
	assert_string_equal(small, "kernel_release=");

	/* Computed independently of ct_fnv1a, with the text above in $text:
	 *   printf '%s' "$text" | python3 -c 'import sys
	 *   h=0xcbf29ce484222325
	 *   for b in sys.stdin.buffer.read(): h=((h^b)*0x100000001b3)&(2**64-1)
	 *   print("%016x"%h)'
	 * (the same script gives af63dc4c8601ec8c for "a", the published
	 * FNV-1a 64 test vector). */
	ct_sysinfo_fingerprint(&si);
	assert_string_equal(si.fingerprint, "f9e15beff30dd452");
}

/* ---- the live machine ---- */

static void test_live(void **state)
{
	char osrelease[128], disk[64], dev[64], path[PATH_MAX];
	struct ct_sysinfo si;
	struct utsname u;
	struct stat st;

	capture_ok(&si, "", "/var/tmp");
	assert_int_equal(uname(&u), 0);
	assert_string_equal(si.kernel_release, u.release);
	assert_true(ct_read_file("/proc/sys/kernel/osrelease", osrelease, sizeof(osrelease)) > 0);
	assert_string_equal(si.kernel_release, osrelease);
	assert_true(si.ncpus >= 1);
	assert_true(si.ram_bytes > 0);
	assert_true(si.mem_available <= si.ram_bytes);
	/* the model name /proc/cpuinfo gives, read here on its own */
	{
		FILE *f = fopen("/proc/cpuinfo", "re");
		char line[512], want[256] = "";

		assert_non_null(f);
		while (!want[0] && fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');

			if (!strncmp(line, "model name", 10) && colon) {
				snprintf(want, sizeof(want), "%s", colon + 2);
				want[strcspn(want, "\n")] = '\0';
			}
		}
		fclose(f);
		if (want[0])
			assert_string_equal(si.cpu_model, want);
	}
	assert_true(strcmp(si.preempt, "") != 0);
	assert_true(si.fs_type[0] != '\0');
	assert_true(is_hex16(si.fingerprint));

	assert_int_equal(stat("/var/tmp", &st), 0);
	if (major(st.st_dev) == 0) {
		print_message("skipping block device checks: /var/tmp is on %s, not a block "
			      "device\n",
			      si.fs_type);
		skip();
	}
	assert_true(si.block_dev[0] != '\0');
	assert_int_equal(ct_sysinfo_blockdev("", "/var/tmp", dev, sizeof(dev)), 0);
	assert_string_equal(dev, si.block_dev);
	assert_int_equal(ct_sysinfo_disk("", si.block_dev, disk, sizeof(disk)), 0);
	snprintf(path, sizeof(path), "/sys/block/%s/queue/scheduler", disk);
	if (!access(path, R_OK))
		assert_true(si.iosched[0] != '\0');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vm),	    cmocka_unit_test(test_distro),
		cmocka_unit_test(test_rt),	    cmocka_unit_test(test_dm),
		cmocka_unit_test(test_missing),	    cmocka_unit_test(test_errors),
		cmocka_unit_test(test_preempt),	    cmocka_unit_test(test_mounts),
		cmocka_unit_test(test_fingerprint), cmocka_unit_test(test_fingerprint_value),
		cmocka_unit_test(test_live),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
