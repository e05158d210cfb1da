/*
 * Knobs against the real /sys and /proc/sys of this machine and real store
 * files: specs parsed and refused, names resolved to the files the kernel
 * has (checked against what sysfs says by other means), refusals before
 * anything is written, the config cross product, and - on the disk under
 * /var/tmp, whichever it is, when its scheduler can be set - the scheduler
 * file resolved and its values checked (nothing here writes it); without
 * such a disk those parts skip, saying why. The journal's tests are in test-journal.c.
 */
#include "contend/knob.h"
#include "contend/sysinfo.h"
#include "contend/util.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

static char tmpdir[] = "/tmp/contend-test-knob.XXXXXX";
/* the disk under /var/tmp (found in group_setup, "" when there is none
 * with a scheduler to set) and its scheduler file */
static char disk[64];
static char disk_sched[PATH_MAX];

static const char *tmp_path(const char *name)
{
	static char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s/%s", tmpdir, name);
	return buf;
}

/* The first two schedulers the disk offers (kernels differ: bfq is often
 * a module that is not there). */
static char offered_scheds[2][32];

/* Whether path offers at least two schedulers: a choice to make. */
static bool offers_choice(const char *path)
{
	char buf[256];
	FILE *f = fopen(path, "r");
	int words = 0;

	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f))
		for (char *t = strtok(buf, " \n"); t; t = strtok(NULL, " \n")) {
			if (words < 2)
				snprintf(offered_scheds[words], sizeof(offered_scheds[0]), "%.*s",
					 (int)strcspn(t + (*t == '['), "]"), t + (*t == '['));
			words++;
		}
	fclose(f);
	return words >= 2;
}

static int group_setup(void **state)
{
	char dev[64];

	if (!mkdtemp(tmpdir))
		return -1;
	if (!ct_sysinfo_blockdev("", "/var/tmp", dev, sizeof(dev)) && dev[0] &&
	    !ct_sysinfo_disk("", dev, disk, sizeof(disk))) {
		snprintf(disk_sched, sizeof(disk_sched), "/sys/block/%s/queue/scheduler", disk);
		if (!offers_choice(disk_sched))
			disk[0] = '\0';
	}
	return 0;
}

/* The disk's part of a test needs one: skip it, saying why, without. */
static void need_disk(void)
{
	if (!disk[0]) {
		print_message("skipped the disk part: /var/tmp is on no disk whose I/O "
			      "scheduler can be set\n");
		skip();
	}
}

static int group_teardown(void **state)
{
	return ct_rm_rf(tmpdir);
}

/* Whatever the test did, euid goes back to root. */
static int euid_teardown(void **state)
{
	return geteuid() != getuid() && seteuid(getuid()) ? -1 : 0;
}

static void parse_ok(const char *spec, bool vary, struct ct_knob *k)
{
	char err[CT_ERRLEN] = "";
	int rc = ct_knob_parse(spec, vary, k, err, sizeof(err));

	if (rc)
		print_error("ct_knob_parse '%s': %s\n", spec, err);
	assert_int_equal(rc, 0);
}

static void expect_parse_err(const char *spec, bool vary, const char *want)
{
	char err[CT_ERRLEN] = "";
	struct ct_knob k;
	int rc = ct_knob_parse(spec, vary, &k, err, sizeof(err));

	if (rc != -EINVAL || !strstr(err, want))
		fail_msg("'%s': rc %d, err '%s', want -EINVAL and '%s'", spec, rc, err, want);
	assert_null(strchr(err, '\n'));
}

static void test_parse(void **state)
{
	struct ct_knob k;

	parse_ok("iosched=none,bfq", true, &k);
	assert_string_equal(k.name, "iosched");
	assert_int_equal(k.kind, CT_KNOB_IOSCHED);
	assert_true(k.vary);
	assert_int_equal(k.nvalues, 2);
	assert_string_equal(k.values[0], "none");
	assert_string_equal(k.values[1], "bfq");
	assert_int_equal(k.npaths, 0);

	parse_ok("iosched@vda=kyber", false, &k);
	assert_int_equal(k.kind, CT_KNOB_IOSCHED_DEV);
	assert_false(k.vary);
	assert_int_equal(k.nvalues, 1);
	assert_string_equal(k.values[0], "kyber");

	/* --set takes the whole text: commas, '=' and tabs are the value's */
	parse_ok("sysctl.net.ipv4.tcp_rmem=4096\t131072,x=y", false, &k);
	assert_int_equal(k.kind, CT_KNOB_SYSCTL);
	assert_string_equal(k.name, "sysctl.net.ipv4.tcp_rmem");
	assert_int_equal(k.nvalues, 1);
	assert_string_equal(k.values[0], "4096\t131072,x=y");

	parse_ok("/sys/kernel/mm/transparent_hugepage/enabled=never,madvise,always", true, &k);
	assert_int_equal(k.kind, CT_KNOB_PATH);
	assert_int_equal(k.nvalues, 3);
	assert_string_equal(k.values[2], "always");
}

static void test_parse_errors(void **state)
{
	char spec[600];

	expect_parse_err("iosched", true, "--vary 'iosched': expected KNOB=VALUE1,VALUE2");
	expect_parse_err("iosched", false, "--set 'iosched': expected KNOB=VALUE");
	expect_parse_err("=bfq", false, "no knob name before '='");
	expect_parse_err("iosched=", false, "--set 'iosched=': empty value");
	expect_parse_err("iosched=", true, "empty value");
	expect_parse_err("iosched=bfq,", true, "empty value");
	expect_parse_err("iosched=,bfq", true, "empty value");
	expect_parse_err("iosched=bfq,,none", true, "empty value");
	expect_parse_err("iosched=bfq,none,bfq", true, "value 'bfq' given twice");
	expect_parse_err("iosched=a\nb", false, "control character in value");
	expect_parse_err("foo=1", false, "unknown knob 'foo' (knobs are iosched, iosched@DEV");
	expect_parse_err("iosched@=bfq", false, "bad device name ''");
	expect_parse_err("iosched@../vda=bfq", false, "bad device name '../vda'");
	expect_parse_err("iosched@..=bfq", false, "bad device name '..'");
	expect_parse_err("sysctl.=1", false, "bad sysctl name ''");
	expect_parse_err("sysctl.vm..swappiness=1", false, "bad sysctl name");
	expect_parse_err("sysctl.vm.=1", false, "bad sysctl name");
	/* '/' stands for '.', so "//" would be a ".." part */
	expect_parse_err("sysctl.kernel.//.shadow=1", false, "bad sysctl name");
	expect_parse_err("/etc/passwd=x", false, "knob path '/etc/passwd' is not under /sys");
	expect_parse_err("/sys/../etc/shadow=x", false,
			 "knob path '/sys/../etc/shadow' contains '..'");
	expect_parse_err("/proc/sys/../../etc/shadow=x", false, "contains '..'");
	expect_parse_err("/proc/self/environ=x", false, "is not under /sys or /proc/sys");
	expect_parse_err("/system=x", false, "is not under /sys or /proc/sys");
	expect_parse_err("sys/block/vda/queue/scheduler=bfq", false, "unknown knob");

	memset(spec, 'v', sizeof(spec));
	memcpy(spec, "iosched=", 8);
	spec[sizeof(spec) - 1] = '\0';
	expect_parse_err(spec, false, "value longer than 255 bytes");
	snprintf(spec, sizeof(spec), "iosched=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16");
	expect_parse_err(spec, true, "more than 16 values");
}

static void resolve_ok(struct ct_knob *k, const char *dir)
{
	char err[CT_ERRLEN] = "";
	int rc = ct_knob_resolve(k, dir, err, sizeof(err));

	if (rc)
		print_error("ct_knob_resolve '%s': %s\n", k->name, err);
	assert_int_equal(rc, 0);
}

static void expect_resolve_err(const char *spec, const char *dir, int want_rc, const char *want)
{
	char err[CT_ERRLEN] = "";
	struct ct_knob k;
	int rc;

	parse_ok(spec, false, &k);
	rc = ct_knob_resolve(&k, dir, err, sizeof(err));
	if (rc != want_rc || !strstr(err, want))
		fail_msg("'%s': rc %d, err '%s', want %d and '%s'", spec, rc, err, want_rc, want);
}

static void expect_check_err(const char *spec, bool vary, int want_rc, const char *want)
{
	char err[CT_ERRLEN] = "";
	struct ct_knob k;
	int rc;

	parse_ok(spec, vary, &k);
	resolve_ok(&k, NULL);
	rc = ct_knob_check(&k, err, sizeof(err));
	if (rc != want_rc || !strstr(err, want))
		fail_msg("'%s': rc %d, err '%s', want %d and '%s'", spec, rc, err, want_rc, want);
}

static void test_resolve(void **state)
{
	char spec[128];
	struct ct_knob k;

	parse_ok("sysctl.vm.swappiness=10,60", true, &k);
	resolve_ok(&k, NULL);
	assert_int_equal(k.npaths, 1);
	assert_string_equal(k.paths[0], "/proc/sys/vm/swappiness");

	parse_ok("/proc/sys/vm/swappiness=10", false, &k);
	resolve_ok(&k, NULL);
	assert_int_equal(k.npaths, 1);
	assert_string_equal(k.paths[0], "/proc/sys/vm/swappiness");

	/* a '/' in a sysctl part is a '.' of its file name */
	parse_ok("sysctl.net.ipv4.conf.eth0/100.rp_filter=1", false, &k);
	assert_int_equal(ct_knob_resolve(&k, NULL, NULL, 0), -ENOENT);
	assert_string_equal(k.paths[0], "/proc/sys/net/ipv4/conf/eth0.100/rp_filter");

	need_disk();
	parse_ok("iosched=none,bfq", true, &k);
	resolve_ok(&k, "/var/tmp");
	assert_int_equal(k.npaths, 1);
	assert_string_equal(k.paths[0], disk_sched);
	/* no dir is /var/tmp, as for a session */
	parse_ok("iosched=bfq", false, &k);
	resolve_ok(&k, NULL);
	assert_int_equal(k.npaths, 1);
	assert_string_equal(k.paths[0], disk_sched);

	snprintf(spec, sizeof(spec), "iosched@%s=bfq", disk);
	parse_ok(spec, false, &k);
	resolve_ok(&k, "/dev/shm"); /* the dir does not matter for a named device */
	assert_int_equal(k.npaths, 1);
	assert_string_equal(k.paths[0], disk_sched);
}

static void test_refusals(void **state)
{
	char link[PATH_MAX];
	struct ct_knob k;
	struct stat st;

	expect_resolve_err("sysctl.vm.nonexistent=1", NULL, -ENOENT,
			   "knob 'sysctl.vm.nonexistent': '/proc/sys/vm/nonexistent' does not "
			   "exist");
	expect_resolve_err("/sys/kernel/no-such-knob=1", NULL, -ENOENT, "does not exist");
	expect_resolve_err("/sys/kernel/mm=1", NULL, -EINVAL, "'/sys/kernel/mm' is not a file");
	expect_resolve_err("iosched@nosuchdev0=bfq", NULL, -ENOENT,
			   "knob 'iosched@nosuchdev0': no block device 'nosuchdev0'");
	expect_resolve_err("iosched=bfq", "/dev/shm", -EINVAL,
			   "no block device under '/dev/shm'; name one with iosched@DEV");
	expect_resolve_err("iosched=bfq", tmp_path("no-such-dir"), -ENOENT, "cannot use work dir");
	/* zram is bio-based: no scheduler to set */
	if (!stat("/sys/block/zram0", &st) && stat("/sys/block/zram0/queue/scheduler", &st))
		expect_resolve_err("iosched@zram0=none", NULL, -EINVAL,
				   "block device 'zram0' has no I/O scheduler");

	/* a link elsewhere into /sys is refused for what it is called */
	snprintf(link, sizeof(link), "%s", tmp_path("sched-link"));
	assert_int_equal(symlink("/sys/kernel/mm/transparent_hugepage/enabled", link), 0);
	{
		char spec[PATH_MAX + 16], err[CT_ERRLEN] = "";

		snprintf(spec, sizeof(spec), "%s=never", link);
		assert_int_equal(ct_knob_parse(spec, false, &k, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "is not under /sys or /proc/sys"));
	}

	expect_check_err("/proc/sys/kernel/osrelease=1.0", false, -EINVAL,
			 "knob '/proc/sys/kernel/osrelease': '/proc/sys/kernel/osrelease' is "
			 "read-only");
	if (disk[0]) {
		char spec[PATH_MAX + 32], want[PATH_MAX + 512], offered[256] = "", *b;
		FILE *f = fopen(disk_sched, "r");

		/* what the file offers, read here: "none [mq-deadline] kyber" */
		assert_non_null(f);
		assert_non_null(fgets(offered, sizeof(offered), f));
		fclose(f);
		offered[strcspn(offered, "\n")] = '\0';
		while ((b = strpbrk(offered, "[]")))
			memmove(b, b + 1, strlen(b));
		for (size_t n = strlen(offered); n && offered[n - 1] == ' ';)
			offered[--n] = '\0';
		snprintf(spec, sizeof(spec), "iosched@%s=nosuch", disk);
		snprintf(want, sizeof(want),
			 "knob 'iosched@%s': 'nosuch' is not offered by %s (%s)", disk, disk_sched,
			 offered);
		expect_check_err(spec, false, -EINVAL, want);
		snprintf(spec, sizeof(spec), "iosched@%s=none,nosuch", disk);
		expect_check_err(spec, true, -EINVAL, "'nosuch' is not offered");
		/* a choice list named by path is checked the same way */
		snprintf(spec, sizeof(spec), "%s=none,nosuch", disk_sched);
		snprintf(want, sizeof(want), "'nosuch' is not offered by %s", disk_sched);
		expect_check_err(spec, true, -EINVAL, want);
	}
	if (!stat("/sys/kernel/mm/transparent_hugepage/enabled", &st))
		expect_check_err("/sys/kernel/mm/transparent_hugepage/enabled=sometimes", false,
				 -EINVAL, "'sometimes' is not offered");
}

/* Not root: refused with -EPERM, after the input was found good. */
static void test_not_root(void **state)
{
	char err[CT_ERRLEN] = "";
	struct ct_knob k;

	parse_ok("sysctl.vm.swappiness=10", false, &k);
	resolve_ok(&k, NULL);
	if (geteuid() == 0)
		assert_int_equal(seteuid(65534), 0);
	assert_int_equal(ct_knob_check(&k, err, sizeof(err)), -EPERM);
	assert_string_equal(err, "changing knob 'sysctl.vm.swappiness' needs root");
	assert_int_equal(ct_exit_code(-EPERM), CT_EXIT_ENV);
	/* bad input is still bad input */
	expect_check_err("/proc/sys/kernel/osrelease=1.0", false, -EINVAL, "read-only");
	if (getuid() == 0)
		assert_int_equal(seteuid(0), 0);
}

static void test_prepare(void **state)
{
	char err[CT_ERRLEN] = "";
	struct ct_knob k[2];

	if (geteuid() != 0) {
		print_message("skipped: prepare checks need root\n");
		skip();
	}
	parse_ok("sysctl.vm.swappiness=10,60", true, &k[0]);
	parse_ok("/proc/sys/vm/dirty_ratio=20", false, &k[1]);
	assert_int_equal(ct_knobs_prepare(k, 2, NULL, err, sizeof(err)), 0);
	assert_string_equal(k[1].paths[0], "/proc/sys/vm/dirty_ratio");

	parse_ok("sysctl.vm.swappiness=10", false, &k[1]);
	assert_int_equal(ct_knobs_prepare(k, 2, NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "knob 'sysctl.vm.swappiness' given twice");

	parse_ok("/proc/sys/vm/swappiness=10", false, &k[1]);
	assert_int_equal(ct_knobs_prepare(k, 2, NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "knobs 'sysctl.vm.swappiness' and '/proc/sys/vm/swappiness' both "
				 "write '/proc/sys/vm/swappiness'");

	/* one value to --vary: refused once the value itself is checked */
	parse_ok("sysctl.vm.swappiness=10", true, &k[0]);
	assert_int_equal(ct_knobs_prepare(k, 1, NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--vary 'sysctl.vm.swappiness': needs at least two values (for "
				 "one: --set)");

	need_disk();
	/* the same file by another name, through sysfs' own symlinks */
	{
		char spec[128], want[PATH_MAX + 32];

		snprintf(spec, sizeof(spec), "iosched=%s,%s", offered_scheds[0], offered_scheds[1]);
		parse_ok(spec, true, &k[0]);
		snprintf(spec, sizeof(spec), "iosched@%s=%s", disk, offered_scheds[0]);
		parse_ok(spec, false, &k[1]);
		assert_int_equal(ct_knobs_prepare(k, 2, "/var/tmp", err, sizeof(err)), -EINVAL);
		snprintf(want, sizeof(want), "both write '%s'", disk_sched);
		assert_non_null(strstr(err, want));
	}
}

static void test_configs(void **state)
{
	static const char *const want[][3] = {
		{ "none", "10", "p" }, { "none", "10", "q" }, { "none", "10", "r" },
		{ "bfq", "10", "p" },  { "bfq", "10", "q" },  { "bfq", "10", "r" },
	};
	char err[CT_ERRLEN] = "", label[128];
	struct ct_knob k[CT_KNOB_MAX + 1];
	struct ct_knob_config *cs = NULL;
	size_t n = 0;

	parse_ok("iosched=none,bfq", true, &k[0]);
	parse_ok("sysctl.vm.swappiness=10", false, &k[1]);
	parse_ok("/sys/x=p,q,r", true, &k[2]);
	assert_int_equal(ct_knob_configs(k, 3, &cs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 6);
	for (size_t c = 0; c < n; c++) {
		assert_int_equal(cs[c].n, 3);
		for (int i = 0; i < 3; i++) {
			assert_ptr_equal(cs[c].set[i].knob, &k[i]);
			assert_string_equal(cs[c].set[i].value, want[c][i]);
		}
	}
	assert_int_equal(ct_knob_label(&cs[4], true, label, sizeof(label)), 0);
	assert_string_equal(label, "iosched=bfq+/sys/x=q");
	assert_int_equal(ct_knob_label(&cs[4], false, label, sizeof(label)), 0);
	assert_string_equal(label, "iosched=bfq+sysctl.vm.swappiness=10+/sys/x=q");
	assert_int_equal(ct_knob_label(&cs[4], false, label, 20), -ENAMETOOLONG);
	assert_string_equal(label, "");
	free(cs);

	/* one --vary: its values in the order given */
	assert_int_equal(ct_knob_configs(k, 1, &cs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(ct_knob_label(&cs[0], true, label, sizeof(label)), 0);
	assert_string_equal(label, "iosched=none");
	assert_int_equal(ct_knob_label(&cs[1], true, label, sizeof(label)), 0);
	assert_string_equal(label, "iosched=bfq");
	free(cs);

	/* --set only: one config, nothing varied to name */
	assert_int_equal(ct_knob_configs(&k[1], 1, &cs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ct_knob_label(&cs[0], true, label, sizeof(label)), 0);
	assert_string_equal(label, "");
	free(cs);

	/* no knobs: one empty config */
	assert_int_equal(ct_knob_configs(k, 0, &cs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(cs[0].n, 0);
	free(cs);

	parse_ok("iosched=kyber", false, &k[1]);
	assert_int_equal(ct_knob_configs(k, 2, &cs, &n, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "knob 'iosched' given twice");
	assert_null(cs);
	assert_int_equal(n, 0);

	/* 4 x 4 x 4 = 64 configs is the most */
	parse_ok("/sys/a=1,2,3,4", true, &k[0]);
	parse_ok("/sys/b=1,2,3,4", true, &k[1]);
	parse_ok("/sys/c=1,2,3,4", true, &k[2]);
	assert_int_equal(ct_knob_configs(k, 3, &cs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 64);
	assert_string_equal(cs[63].set[0].value, "4");
	assert_string_equal(cs[63].set[2].value, "4");
	assert_string_equal(cs[1].set[2].value, "2");
	assert_string_equal(cs[1].set[0].value, "1");
	free(cs);
	parse_ok("/sys/d=1,2", true, &k[3]);
	assert_int_equal(ct_knob_configs(k, 4, &cs, &n, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "more than 64 configs"));

	for (int i = 0; i <= CT_KNOB_MAX; i++) {
		char spec[32];

		snprintf(spec, sizeof(spec), "/sys/k%d=1", i);
		parse_ok(spec, false, &k[i]);
	}
	assert_int_equal(ct_knob_configs(k, CT_KNOB_MAX + 1, &cs, &n, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "more than 8 knobs"));
}

static void mkfile(const char *root, const char *rel, const char *content)
{
	char path[PATH_MAX], dir[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	assert_int_equal(ct_mkdir_p(dir, 0755), 0);
	if (!content)
		return;
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static void mklink(const char *root, const char *rel, const char *target)
{
	char path[PATH_MAX];

	mkfile(root, rel, NULL);
	snprintf(path, sizeof(path), "%s%s", root, rel);
	assert_int_equal(symlink(target, path), 0);
}

static void expect_disks(const char *root, const char *dev, const char *want)
{
	char disks[CT_KNOB_MAX_PATHS][64], got[256] = "", err[CT_ERRLEN] = "";
	size_t n = 99, off = 0;
	int rc = ct_knob_sched_disks(root, dev, disks, CT_KNOB_MAX_PATHS, &n, err, sizeof(err));

	if (rc)
		fail_msg("%s: %d %s", dev, rc, err);
	for (size_t i = 0; i < n; i++)
		off += (size_t)snprintf(got + off, sizeof(got) - off, "%s%s", i ? " " : "",
					disks[i]);
	assert_string_equal(got, want);
}

/*
 * Stacked devices, as sysfs lays them out: the RHEL fixture's dm-0 on
 * sda3, and a tree built here - dm-1 on md0p1 (a partition of md0, a
 * RAID of sda1 and sdb1) and on sda2 - which must come down to sda and
 * sdb, each once.
 */
static void test_sched_disks(void **state)
{
	/* name, its device directory, whether it is a disk (in /sys/block) */
	static const struct {
		const char *name, *dir;
		bool disk;
	} names[] = {
		{ "sda", "devices/pci/host/block/sda", true },
		{ "sda1", "devices/pci/host/block/sda/sda1", false },
		{ "sda2", "devices/pci/host/block/sda/sda2", false },
		{ "sdb", "devices/pci/host/block/sdb", true },
		{ "sdb1", "devices/pci/host/block/sdb/sdb1", false },
		{ "md0", "devices/virtual/block/md0", true },
		{ "md0p1", "devices/virtual/block/md0/md0p1", false },
		{ "dm-1", "devices/virtual/block/dm-1", true },
		{ "loopy", "devices/virtual/block/loopy", true },
		{ "zram0", "devices/virtual/block/zram0", true },
	};
	const char *base = getenv("CT_FIXTURES");
	char fixture[PATH_MAX], root[PATH_MAX], err[CT_ERRLEN] = "", disks[2][64];
	size_t n;

	assert_non_null(base);
	snprintf(fixture, sizeof(fixture), "%s/sysinfo/dm", base);
	expect_disks(fixture, "dm-0", "sda");
	expect_disks(fixture, "sda3", "sda");
	expect_disks(fixture, "sda", "sda");

	snprintf(root, sizeof(root), "%s", tmp_path("stack"));
#define SD  "/sys/devices/pci/host/block"
#define VB  "/sys/devices/virtual/block"
#define SCH "[mq-deadline] kyber bfq none\n"
	mkfile(root, SD "/sda/queue/scheduler", SCH);
	mkfile(root, SD "/sda/sda1/partition", "1\n");
	mkfile(root, SD "/sda/sda2/partition", "2\n");
	mkfile(root, SD "/sdb/queue/scheduler", SCH);
	mkfile(root, SD "/sdb/sdb1/partition", "1\n");
	mkfile(root, VB "/md0/queue/scheduler", "none\n");
	mkfile(root, VB "/md0/md0p1/partition", "1\n");
	mklink(root, VB "/md0/slaves/sdb1", "../../../pci/host/block/sdb/sdb1");
	mklink(root, VB "/md0/slaves/sda1", "../../../pci/host/block/sda/sda1");
	mkfile(root, VB "/dm-1/queue/scheduler", "none\n");
	mklink(root, VB "/dm-1/slaves/sda2", "../../../pci/host/block/sda/sda2");
	mklink(root, VB "/dm-1/slaves/md0p1", "../../md0/md0p1");
	mkfile(root, VB "/loopy/queue/scheduler", "none\n");
	mklink(root, VB "/loopy/slaves/loopy", "../../loopy");
	mkfile(root, VB "/zram0/size", "0\n");
	for (size_t i = 0; i < CT_ARRAY_SIZE(names); i++) {
		char rel[64], target[128];

		snprintf(rel, sizeof(rel), "/sys/class/block/%s", names[i].name);
		snprintf(target, sizeof(target), "../../%s", names[i].dir);
		mklink(root, rel, target);
		if (names[i].disk) {
			snprintf(rel, sizeof(rel), "/sys/block/%s", names[i].name);
			mklink(root, rel, target + 3);
		}
	}
	expect_disks(root, "dm-1", "sda sdb");
	expect_disks(root, "md0p1", "sda sdb");
	expect_disks(root, "md0", "sda sdb");
	expect_disks(root, "sdb1", "sdb");
	assert_int_equal(ct_knob_sched_disks(root, "dm-1", disks, 1, &n, err, sizeof(err)), -E2BIG);
	assert_int_equal(ct_knob_sched_disks(root, "loopy", disks, 2, &n, err, sizeof(err)),
			 -ELOOP);
	assert_non_null(strstr(err, "stacked more than 8 deep"));
	assert_int_equal(ct_knob_sched_disks(root, "zram0", disks, 2, &n, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "block device 'zram0' has no I/O scheduler");
	assert_int_equal(ct_knob_sched_disks(root, "sdc", disks, 2, &n, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "no block device 'sdc'");
#undef SD
#undef VB
#undef SCH
}

static void write_tmp(const char *name, const char *content)
{
	FILE *f = fopen(tmp_path(name), "w");

	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static void test_read_write(void **state)
{
	char buf[CT_KNOB_VALUE_MAX], small[4], err[CT_ERRLEN] = "", orig[256], spaced[256];
	char path[PATH_MAX];

	write_tmp("sched", "none [mq-deadline] kyber bfq \n");
	assert_int_equal(ct_knob_read(tmp_path("sched"), buf, sizeof(buf), err, sizeof(err)), 0);
	assert_string_equal(buf, "mq-deadline");
	write_tmp("thp", "always [madvise] never\n");
	assert_int_equal(ct_knob_read(tmp_path("thp"), buf, sizeof(buf), err, sizeof(err)), 0);
	assert_string_equal(buf, "madvise");
	write_tmp("rmem", "4096\t131072\t6291456\n\n");
	assert_int_equal(ct_knob_read(tmp_path("rmem"), buf, sizeof(buf), err, sizeof(err)), 0);
	assert_string_equal(buf, "4096\t131072\t6291456");
	assert_int_equal(ct_knob_read(tmp_path("rmem"), small, sizeof(small), err, sizeof(err)),
			 -EFBIG);
	assert_int_equal(ct_knob_read(tmp_path("nothing"), buf, sizeof(buf), err, sizeof(err)),
			 -ENOENT);

	/* a write that does not read back names both */
	assert_int_equal(ct_knob_write("iosched", "/dev/null", "bfq", err, sizeof(err)), -EIO);
	assert_string_equal(err, "knob 'iosched' (/dev/null): wrote 'bfq', read back ''");
	snprintf(path, sizeof(path), "%s", tmp_path("plain"));
	write_tmp("plain", "x\n");
	assert_int_equal(ct_knob_write("k", path, "0060", err, sizeof(err)), 0);
	assert_int_equal(ct_knob_read(path, buf, sizeof(buf), err, sizeof(err)), 0);
	assert_string_equal(buf, "0060");

	if (geteuid() != 0) {
		print_message("skipped the /proc/sys part: writing it needs root\n");
		skip();
	}
	/* the kernel prints tcp_rmem with tabs: the same numbers written with
	 * spaces (no change at all) read back as a match */
	assert_true(ct_read_file("/proc/sys/net/ipv4/tcp_rmem", orig, sizeof(orig)) > 0);
	snprintf(spaced, sizeof(spaced), "%s", orig);
	for (char *c = spaced; *c; c++)
		if (*c == '\t')
			*c = ' ';
	assert_non_null(strchr(orig, '\t'));
	assert_int_equal(ct_knob_write("sysctl.net.ipv4.tcp_rmem", "/proc/sys/net/ipv4/tcp_rmem",
				       spaced, err, sizeof(err)),
			 0);
	assert_true(ct_read_file("/proc/sys/net/ipv4/tcp_rmem", buf, sizeof(buf)) > 0);
	assert_string_equal(buf, orig);
	/* a value the kernel refuses is an error naming the knob */
	assert_int_equal(ct_knob_write("sysctl.vm.swappiness", "/proc/sys/vm/swappiness", "abc",
				       err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "cannot set knob 'sysctl.vm.swappiness' (/proc/sys/vm/swappiness)"
				 " to 'abc': Invalid argument");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test_teardown(test_not_root, euid_teardown),
		cmocka_unit_test(test_prepare),
		cmocka_unit_test(test_configs),
		cmocka_unit_test(test_sched_disks),
		cmocka_unit_test(test_read_write),
	};

	return cmocka_run_group_tests_name("knob", tests, group_setup, group_teardown);
}
