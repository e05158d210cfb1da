/*
 * The load harness and every load, for real but tiny: each load is started
 * (with and without a cgroup), must produce work, and must leave neither a
 * process nor a file behind; failures (a worker error, a killed leader, a
 * stall, no space) must be reported with a reason. Needs root for cgroups.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "contend/load.h"
#include "contend/proc.h"
#include "contend/tartree.h"
#include "contend/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define MS (1000000LL)

static struct ct_env env;
static char base[256], list_dir[300], tree_dir[300];
static char other_dir[300], cgparent[PATH_MAX];

#define assert_ok(rc, err)                                      \
	do {                                                    \
		int rc_ = (rc);                                 \
		if (rc_)                                        \
			print_error("rc %d: %s\n", rc_, (err)); \
		assert_int_equal(rc_, 0);                       \
	} while (0)

#define assert_contains(s, sub)                                       \
	do {                                                          \
		if (!strstr((s), (sub)))                              \
			print_error("'%s' lacks '%s'\n", (s), (sub)); \
		assert_non_null(strstr((s), (sub)));                  \
	} while (0)

static void write_file(const char *path, size_t size)
{
	char buf[4096];
	uint64_t seed = size;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	while (size) {
		size_t n = size < sizeof(buf) ? size : sizeof(buf);

		ct_fill_random(buf, n, &seed);
		assert_int_equal(write(fd, buf, n), (ssize_t)n);
		size -= n;
	}
	close(fd);
}

/* a few directories of a few files: enough for list, ctar and xtar */
static void make_tree(const char *root, unsigned dirs, unsigned files, size_t size)
{
	char path[PATH_MAX + 64];

	assert_int_equal(ct_mkdir_p(root, 0755), 0);
	for (unsigned d = 0; d < dirs; d++) {
		snprintf(path, sizeof(path), "%s/d%u/sub", root, d);
		assert_int_equal(ct_mkdir_p(path, 0755), 0);
		for (unsigned f = 0; f < files; f++) {
			snprintf(path, sizeof(path), "%s/d%u/f%u.c", root, d, f);
			write_file(path, size + f);
			snprintf(path, sizeof(path), "%s/d%u/sub/g%u.h", root, d, f);
			write_file(path, size / 2);
		}
	}
}

static uint64_t meminfo(const char *key)
{
	char buf[8192], *p;
	unsigned long long kb = 0;

	if (ct_read_file("/proc/meminfo", buf, sizeof(buf)) > 0 && (p = strstr(buf, key)))
		sscanf(p + strlen(key), ": %llu", &kb);
	return kb * 1024;
}

static int setup(void **state)
{
	char root[1024];

	snprintf(base, sizeof(base), "/var/tmp/contend-test-loads-XXXXXX");
	if (!mkdtemp(base))
		return -1;
	memset(&env, 0, sizeof(env));
	env.ncpus = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	env.ram_bytes = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	env.swap_bytes = meminfo("SwapTotal");
	env.mem_available = meminfo("MemAvailable");
	snprintf(env.dir, sizeof(env.dir), "%s/work", base);
	snprintf(list_dir, sizeof(list_dir), "%s/list", base);
	snprintf(tree_dir, sizeof(tree_dir), "%s/tree", base);
	snprintf(other_dir, sizeof(other_dir), "%s/other", base);
	if (mkdir(env.dir, 0755) || mkdir(other_dir, 0755))
		return -1;
	make_tree(list_dir, 4, 5, 100);
	make_tree(tree_dir, 3, 4, 3000);
	env.list_dir = list_dir;
	env.tree_dir = tree_dir;
	env.quick = true;
	env.file_size = 8 << 20;
	env.mem_size = 64 << 20;
	env.procs = 4;
	env.dbench_procs = 2;
	env.null_tick_ns = 10 * MS;
	env.scale = 1.0;

	cgparent[0] = '\0';
	if (!ct_cgroup_v2_root(root, sizeof(root)) && root[0]) {
		snprintf(cgparent, sizeof(cgparent), "%s/contend-test-loads-%d", root,
			 (int)getpid());
		if (mkdir(cgparent, 0755))
			cgparent[0] = '\0';
	}
	/* like the session: workers orphaned by a killed leader come back to
	 * us, so even then stop and kill must leave not one zombie */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	*state = NULL;
	return 0;
}

static int teardown(void **state)
{
	/* a failed assertion jumps out of a test with its load running */
	if (cgparent[0]) {
		DIR *d = opendir(cgparent);
		struct dirent *de;
		char path[PATH_MAX + 300];

		while (d && (de = readdir(d))) {
			if (de->d_type != DT_DIR || de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", cgparent, de->d_name);
			(void)ct_cgroup_destroy(path);
		}
		if (d)
			closedir(d);
		rmdir(cgparent);
	}
	return ct_rm_rf(base);
}

/* The first child of ppid found in /proc, or 0. */
static pid_t child_of(pid_t parent)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	char path[300], buf[512], *p, state;
	int ppid;
	pid_t found = 0;

	assert_non_null(d);
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if (ct_read_file(path, buf, sizeof(buf)) <= 0 || !(p = strrchr(buf, ')')))
			continue;
		if (sscanf(p + 1, " %c %d", &state, &ppid) == 2 && ppid == parent)
			found = (pid_t)atoi(de->d_name);
	}
	closedir(d);
	return found;
}

static void assert_gone(pid_t leader)
{
	assert_int_equal(kill(leader, 0), -1);
	assert_int_equal(errno, ESRCH);
	assert_int_equal(kill(-leader, 0), -1);
	assert_int_equal(errno, ESRCH);
}

static void assert_no_dir(const char *path)
{
	struct stat st;

	assert_int_equal(lstat(path, &st), -1);
	assert_int_equal(errno, ENOENT);
}

static void run_load(const char *name, const char *cg)
{
	const struct ct_load_ops *ops = ct_load_find(name);
	struct ct_env e = env;
	struct ct_load l;
	struct ct_load_result res;
	char err[CT_ERRLEN] = "", dir[PATH_MAX], cgpath[PATH_MAX];
	struct stat st;
	pid_t leader;

	assert_non_null(ops);
	if (!strcmp(name, "io_other"))
		e.other_dir = other_dir;
	assert_ok(ct_load_init(&l, ops, &e, err, sizeof(err)), err);
	snprintf(dir, sizeof(dir), "%s", l.dir);
	assert_int_equal(stat(dir, &st), 0);
	assert_ok(ct_load_start(&l, cg, err, sizeof(err)), err);
	leader = l.leader;
	snprintf(cgpath, sizeof(cgpath), "%s", l.cgroup);
	if (!strcmp(name, "none")) {
		assert_int_equal(leader, 0);
		assert_string_equal(cgpath, "");
	} else {
		assert_true(leader > 0);
		if (cg)
			assert_int_equal(stat(cgpath, &st), 0);
	}
	assert_ok(ct_load_wait_ready(&l, 200 * MS, err, sizeof(err)), err);
	ct_load_mark(&l);
	usleep(300 * 1000);
	assert_ok(ct_load_check(&l, 10000 * MS, err, sizeof(err)), err);
	ct_load_stop(&l, &res);
	print_message("%s%s: %s; work %llu in %.2f s, cpu %.3f s user %.3f s sys\n", name,
		      cg ? " (cgroup)" : "", l.params, (unsigned long long)res.work,
		      (double)res.wall_ns / 1e9, (double)res.user_us / 1e6,
		      (double)res.sys_us / 1e6);
	if (res.failed)
		print_error("%s: %s\n", name, res.reason);
	assert_false(res.failed);
	assert_true(res.wall_ns >= 300 * MS);
	/* the load's CPU: none for no load, some for any load, never more than
	 * every CPU for the whole run */
	if (!strcmp(name, "none"))
		assert_true(res.user_us == 0 && res.sys_us == 0);
	else if (strcmp(name, "null")) /* null sleeps between ticks: maybe 0 */
		assert_true(res.user_us + res.sys_us > 0);
	assert_true((double)(res.user_us + res.sys_us) <=
		    (double)res.wall_ns / 1e3 * (double)sysconf(_SC_NPROCESSORS_ONLN) * 1.05 +
			    20000);
	if (!strcmp(name, "none")) {
		assert_int_equal(res.work, 0);
	} else {
		assert_true(res.work > 0);
		assert_gone(leader);
		if (cg)
			assert_no_dir(cgpath);
	}
	/* the ring runs all the time: its CPU must be counted, with or without
	 * a cgroup (how much depends on what else runs, so no more than > 0) */
	if (!strcmp(name, "process"))
		assert_true(res.user_us + res.sys_us > 0);
	assert_int_equal(l.leader, 0);
	ct_load_stop(&l, &res); /* idempotent */
	assert_false(res.failed);
	ct_load_release(&l);
	assert_no_dir(dir);
	if (!strcmp(name, "io_other")) {
		DIR *d = opendir(other_dir);
		struct dirent *de;
		int n = 0;

		assert_non_null(d);
		while ((de = readdir(d)))
			n += de->d_name[0] != '.';
		closedir(d);
		assert_int_equal(n, 0);
	}
}

static void test_load(void **state)
{
	run_load(*state, NULL);
}

static void test_load_cgroup(void **state)
{
	if (!cgparent[0])
		skip();
	run_load(*state, cgparent);
}

static void test_registry(void **state)
{
	const struct ct_load_ops *io = ct_load_find("io");

	assert_non_null(io);
	assert_string_equal(io->name, "io");
	assert_null(ct_load_find("nosuch"));
	assert_null(ct_load_find(""));
	assert_true(ct_load_count() >= 11);
	assert_null(ct_load_at(ct_load_count()));
	for (size_t i = 0; i < ct_load_count(); i++) {
		const struct ct_load_ops *o = ct_load_at(i);

		assert_non_null(o);
		assert_non_null(o->name);
		assert_non_null(o->summary);
		assert_non_null(o->work_unit);
		assert_true(o->name[0] && o->summary[0] && o->work_unit[0]);
		assert_true(strcmp(o->summary, "stub") != 0);
		assert_true(o->unit_scale > 0);
		assert_ptr_equal(ct_load_find(o->name), o);
		if (strcmp(o->name, "none"))
			assert_non_null(o->work);
	}
	assert_true(ct_load_find("null")->flags & CT_LOAD_HIDDEN);
	assert_true(ct_load_find("mem")->flags & CT_LOAD_OOM_FIRST);
	assert_false(ct_load_find("io")->flags & CT_LOAD_HIDDEN);
}

static void test_io_other_needs_dir(void **state)
{
	struct ct_load l;
	char err[CT_ERRLEN] = "", dir[PATH_MAX + 32];

	assert_int_equal(ct_load_init(&l, ct_load_find("io_other"), &env, err, sizeof(err)),
			 -EINVAL);
	assert_contains(err, "--other-dir");
	snprintf(dir, sizeof(dir), "%s/load-io_other", env.dir);
	assert_no_dir(dir);
	ct_load_release(&l); /* harmless after a failed init */
}

static void test_io_no_space(void **state)
{
	struct ct_env e = env;
	struct ct_load l;
	char err[CT_ERRLEN] = "", dir[PATH_MAX + 32];
	uint64_t avail;

	assert_int_equal(ct_fs_free(env.dir, &avail), 0);
	e.file_size = avail + (1ull << 30);
	assert_int_equal(ct_load_init(&l, ct_load_find("io"), &e, err, sizeof(err)), -ENOSPC);
	assert_contains(err, "io: only ");
	assert_contains(err, "free in '");
	snprintf(dir, sizeof(dir), "%s/load-io", env.dir);
	assert_no_dir(dir);
}

/*
 * io and read write their file in full before any run: every 1 MiB block
 * carries its own offset and random bytes. A file that was only fallocate()d
 * (what io once did) reads back as zeros and fails here.
 */
static void check_written(const char *load, const char *file)
{
	struct ct_load l;
	char err[CT_ERRLEN] = "", path[PATH_MAX + 32];
	unsigned char *buf = malloc(1u << 20);
	uint64_t pos, got;
	struct stat st;
	ssize_t n;
	int fd;

	assert_non_null(buf);
	assert_ok(ct_load_init(&l, ct_load_find(load), &env, err, sizeof(err)), err);
	snprintf(path, sizeof(path), "%s/%s", l.dir, file);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal((uint64_t)st.st_size, l.size);
	/* blocks on disk for every byte: nothing left sparse */
	assert_true((uint64_t)st.st_blocks * 512 >= l.size);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	for (pos = 0; pos < l.size; pos += (uint64_t)n) {
		size_t nz = 0;

		n = pread(fd, buf, 1u << 20, (off_t)pos);
		assert_true(n >= 4096);
		memcpy(&got, buf, sizeof(got));
		if (got != pos)
			print_error("%s: block at %llu starts with %llu\n", load,
				    (unsigned long long)pos, (unsigned long long)got);
		assert_true(got == pos);
		for (size_t i = sizeof(got); i < 4096; i++)
			nz += buf[i] != 0;
		assert_true(nz > 4000); /* random bytes, not zeros */
	}
	close(fd);
	free(buf);
	ct_load_release(&l);
	assert_int_equal(access(path, F_OK), -1); /* cleanup removed it */
}

static void test_io_file_written(void **state)
{
	check_written("io", "io.dat");
	check_written("read", "read.dat");
}

/*
 * Every run of io writes from the start of its file. Each run here goes
 * once through the file at least. Each 1 MiB block the
 * writer writes starts with its count in the run (1, 2, ...), so after a
 * run the block at offset 0 holds 1 + k x (blocks in the file) exactly when
 * the run started at offset 0; a writer that resumed where the last run
 * stopped (what io once did) leaves another count there.
 */
static void test_io_starts_at_zero(void **state)
{
	struct ct_env e = env;
	struct ct_load l;
	struct ct_load_result res;
	char err[CT_ERRLEN] = "", path[PATH_MAX + 16];
	uint64_t first, blocks;
	int fd;

	e.file_size = 64 << 20;
	blocks = e.file_size / (1 << 20);
	assert_ok(ct_load_init(&l, ct_load_find("io"), &e, err, sizeof(err)), err);
	snprintf(path, sizeof(path), "%s/io.dat", l.dir);
	for (int run = 0; run < 3; run++) {
		assert_ok(ct_load_start(&l, NULL, err, sizeof(err)), err);
		assert_ok(ct_load_wait_ready(&l, 0, err, sizeof(err)), err);
		for (int i = 0; i < 3000 && atomic_load(&l.shm->work) < e.file_size; i++)
			usleep(10 * 1000);
		assert_true(atomic_load(&l.shm->work) >= e.file_size);
		ct_load_stop(&l, &res);
		assert_false(res.failed);
		fd = open(path, O_RDONLY);
		assert_true(fd >= 0);
		assert_int_equal(pread(fd, &first, sizeof(first), 0), (ssize_t)sizeof(first));
		close(fd);
		print_message("io run %d: block 0 holds count %llu (%llu blocks a pass)\n", run + 1,
			      (unsigned long long)first, (unsigned long long)blocks);
		assert_true(first >= 1 && (first - 1) % blocks == 0);
	}
	ct_load_release(&l);
}

/* The share of path's pages in the page cache. */
static double cached_share(const char *path, uint64_t size)
{
	size_t pages = (size_t)((size + 4095) / 4096);
	unsigned char *vec = malloc(pages);
	size_t in = 0;
	void *p;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0 && vec);
	p = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, fd, 0);
	assert_true(p != MAP_FAILED);
	assert_int_equal(mincore(p, (size_t)size, vec), 0);
	for (size_t i = 0; i < pages; i++)
		in += vec[i] & 1;
	munmap(p, (size_t)size);
	close(fd);
	free(vec);
	return (double)in / (double)pages;
}

/*
 * Every run of io meets the same page cache, whatever ran before: the
 * writer reads its file in first, and the foreground starts once it has
 * written an eighth of it. Here the file is dropped from the cache before
 * each start; a writer that did not read it in would have rewritten about
 * an eighth of it (a few ms of writing) when it is ready, so only that
 * much would be cached.
 */
static void test_io_warms_its_file(void **state)
{
	struct ct_env e = env;
	struct ct_load l;
	struct ct_load_result res;
	char err[CT_ERRLEN] = "", path[PATH_MAX + 16];
	uint64_t work;
	double share;
	int fd;

	e.file_size = 512 << 20;
	assert_ok(ct_load_init(&l, ct_load_find("io"), &e, err, sizeof(err)), err);
	assert_true(l.ready_work == e.file_size / 8);
	snprintf(path, sizeof(path), "%s/io.dat", l.dir);
	for (int run = 0; run < 2; run++) {
		fd = open(path, O_RDONLY);
		assert_true(fd >= 0);
		assert_int_equal(fdatasync(fd), 0);
		assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
		close(fd);
		assert_ok(ct_load_start(&l, NULL, err, sizeof(err)), err);
		assert_ok(ct_load_wait_ready(&l, 0, err, sizeof(err)), err);
		work = atomic_load(&l.shm->work);
		share = cached_share(path, e.file_size);
		ct_load_stop(&l, &res);
		assert_false(res.failed);
		print_message(
			"io run %d: ready after %llu MiB written, %.0f%% of the file cached\n",
			run + 1, (unsigned long long)(work >> 20), share * 100);
		assert_true(work >= e.file_size / 8);
		assert_true(share >= 0.9);
	}
	ct_load_release(&l);
}

static uint64_t tree_bytes, tree_hash;
static unsigned tree_files, tree_dirs, tree_nontext;

static int tree_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	char buf[65536];
	uint64_t h = CT_FNV_INIT;
	ssize_t n;
	int fd;

	tree_dirs += type == FTW_D;
	if (type != FTW_F)
		return 0;
	tree_files++;
	tree_bytes += (uint64_t)st->st_size;
	h = ct_fnv1a(h, path + strlen(base));
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf) - 1)) > 0) {
		for (ssize_t i = 0; i < n; i++)
			tree_nontext += !(buf[i] == '\n' || buf[i] == '\t' ||
					  (buf[i] >= ' ' && buf[i] < 127));
		buf[n] = '\0';
		h = ct_fnv1a(h, buf);
	}
	close(fd);
	tree_hash += h; /* a sum: the order of the walk does not matter */
	return 0;
}

static void walk_tree(const char *dir)
{
	tree_bytes = tree_hash = 0;
	tree_files = tree_dirs = tree_nontext = 0;
	assert_int_equal(nftw(dir, tree_entry, 16, FTW_PHYS), 0);
}

/* The tree's size: the profile's, scaled to a tenth of the free space. */
static void test_tartree_size(void **state)
{
	unsigned files;
	uint64_t bytes;

	/* full: Linux-sized, 70,000 files and 1 GiB */
	assert_int_equal(ct_tartree_size(false, 1ull << 40, &files, &bytes), 0);
	assert_int_equal(files, 70000);
	assert_true(bytes == 1073741824ull);
	/* quick: a sixteenth */
	assert_int_equal(ct_tartree_size(true, 1ull << 40, &files, &bytes), 0);
	assert_int_equal(files, 4375);
	assert_true(bytes == 67108864ull);
	/* 2 GiB free: a tenth is 214748364 bytes; files shrink in step */
	assert_int_equal(ct_tartree_size(false, 2ull << 30, &files, &bytes), 0);
	assert_true(bytes == 214748364ull);
	assert_int_equal(files, 13999); /* 70000 x 214748364 / 2^30, rounded down */
	assert_true(bytes * 10 <= 2ull << 30);
	/* 40 MiB free, quick: 4 MiB, 273 files */
	assert_int_equal(ct_tartree_size(true, 40ull << 20, &files, &bytes), 0);
	assert_true(bytes == 4194304ull);
	assert_int_equal(files, 273);
	/* under a tenth of a MiB of tree: refused */
	assert_int_equal(ct_tartree_size(true, 9ull << 20, &files, &bytes), -ENOSPC);
	assert_int_equal(ct_tartree_size(false, 0, &files, &bytes), -ENOSPC);
}

/* The generated tree has the files and bytes asked, text only, in
 * directories of sixteen, and the same bytes every time. */
static void test_tartree_generate(void **state)
{
	char dir[300], err[CT_ERRLEN] = "";
	uint64_t hash;

	snprintf(dir, sizeof(dir), "%s/tartree", base);
	assert_ok(ct_tartree_generate(dir, 500, 3 << 20, err, sizeof(err)), err);
	walk_tree(dir);
	assert_int_equal(tree_files, 500);
	assert_true(tree_bytes == 3 << 20);
	assert_int_equal(tree_nontext, 0);
	hash = tree_hash;
	/* 32 directories of 16 files under 16 top-level ones, two second-level
	 * ones each: 1 + 16 + 32 + 32 */
	assert_int_equal(tree_dirs, 81);
	assert_int_equal(ct_rm_rf(dir), 0);
	assert_ok(ct_tartree_generate(dir, 500, 3 << 20, err, sizeof(err)), err);
	walk_tree(dir);
	assert_true(tree_hash == hash);
	assert_int_equal(ct_rm_rf(dir), 0);
	/* more files than bytes cannot be */
	assert_int_equal(ct_tartree_generate(dir, 10, 5, err, sizeof(err)), -EINVAL);
}

/* ctar generates its tree in its load directory, capped at a tenth of the
 * free space there: a 40 MiB tmpfs gets 4 MiB of tree, an 8 MiB one none. */
static void test_ctar_tree_capped(void **state)
{
	char mnt[300], err[CT_ERRLEN] = "";
	struct ct_env e = env;
	struct ct_load l;

	snprintf(mnt, sizeof(mnt), "%s/small", base);
	assert_int_equal(mkdir(mnt, 0755), 0);
	if (mount("tmpfs", mnt, "tmpfs", 0, "size=40m")) {
		print_message("cannot mount a tmpfs (%s): the cap is not tested\n",
			      strerror(errno));
		rmdir(mnt);
		skip();
	}
	snprintf(e.dir, sizeof(e.dir), "%s", mnt);
	e.tree_dir = NULL;
	e.quick = true;
	assert_ok(ct_load_init(&l, ct_load_find("ctar"), &e, err, sizeof(err)), err);
	print_message("ctar on 40 MiB: %s\n", l.params);
	assert_contains(l.params, "tree=generated");
	assert_contains(l.params, "files=273 ");
	assert_true(l.size <= 4194304ull && l.size > 4100000ull);
	ct_load_release(&l);
	assert_int_equal(umount(mnt), 0);
	assert_int_equal(mount("tmpfs", mnt, "tmpfs", 0, "size=8m"), 0);
	assert_int_equal(ct_load_init(&l, ct_load_find("ctar"), &e, err, sizeof(err)), -ENOSPC);
	assert_contains(err, "ctar: only ");
	assert_contains(err, "too little for a tar tree");
	ct_load_release(&l);
	assert_int_equal(umount(mnt), 0);
	rmdir(mnt);
}

static void test_io_worker_fails(void **state)
{
	struct ct_load l;
	struct ct_load_result res;
	char err[CT_ERRLEN] = "";
	pid_t leader;

	assert_ok(ct_load_init(&l, ct_load_find("io"), &env, err, sizeof(err)), err);
	/* the writer cannot create its file in a directory that is gone */
	assert_int_equal(ct_rm_rf(l.dir), 0);
	assert_ok(ct_load_start(&l, NULL, err, sizeof(err)), err);
	leader = l.leader;
	assert_int_equal(ct_load_wait_ready(&l, 200 * MS, err, sizeof(err)), -EIO);
	assert_contains(err, "io: cannot open '");
	assert_int_equal(ct_load_check(&l, 0, err, sizeof(err)), -EIO);
	assert_contains(err, "cannot open");
	ct_load_stop(&l, &res);
	assert_true(res.failed);
	assert_contains(res.reason, "io: cannot open '");
	assert_gone(leader);
	ct_load_release(&l);
}

static void test_ctar_tar_fails(void **state)
{
	struct ct_env e = env;
	struct ct_load l;
	struct ct_load_result res;
	char err[CT_ERRLEN] = "", tree[400];
	pid_t leader;

	snprintf(tree, sizeof(tree), "%s/doomed", base);
	make_tree(tree, 1, 2, 100);
	e.tree_dir = tree;
	assert_ok(ct_load_init(&l, ct_load_find("ctar"), &e, err, sizeof(err)), err);
	assert_int_equal(ct_rm_rf(tree), 0);
	assert_ok(ct_load_start(&l, NULL, err, sizeof(err)), err);
	leader = l.leader;
	assert_int_equal(ct_load_wait_ready(&l, 100 * MS, err, sizeof(err)), -EIO);
	assert_contains(err, "ctar: tar exited with status 2: tar: ");
	ct_load_stop(&l, &res);
	assert_true(res.failed);
	assert_contains(res.reason, "ctar: tar exited with status 2");
	assert_gone(leader);
	ct_load_release(&l);
}

/* A load whose worker gives up without saying why. */
static int quit_work(struct ct_load *l, unsigned i)
{
	return -1;
}

static const struct ct_load_ops quitter = {
	.name = "quitter",
	.summary = "returns at once",
	.work_unit = "nothing",
	.unit_scale = 1,
	.work = quit_work,
};

static void test_worker_exits(void **state)
{
	struct ct_load l;
	struct ct_load_result res;
	char err[CT_ERRLEN] = "";

	assert_ok(ct_load_init(&l, &quitter, &env, err, sizeof(err)), err);
	assert_ok(ct_load_start(&l, cgparent[0] ? cgparent : NULL, err, sizeof(err)), err);
	assert_int_equal(ct_load_wait_ready(&l, 100 * MS, err, sizeof(err)), -EIO);
	assert_contains(err, "worker 0 of load 'quitter' exited with status 1");
	ct_load_stop(&l, &res);
	assert_true(res.failed);
	assert_contains(res.reason, "worker 0 of load 'quitter'");
	ct_load_release(&l);
}

/* A load that spends its first 300 ms on start-up that counts no work
 * (as io reads its file into the cache), then counts a unit every 5 ms. */
static int slow_start_work(struct ct_load *l, unsigned i)
{
	usleep(300 * 1000);
	for (;;) {
		ct_load_add(l, 1);
		usleep(5 * 1000);
	}
	return 0;
}

static const struct ct_load_ops slow_starter = {
	.name = "slowstart",
	.summary = "300 ms of start-up, then work",
	.work_unit = "units",
	.unit_scale = 1,
	.work = slow_start_work,
};

/*
 * The delay runs from the load's first unit of work, not from its start:
 * a load whose start-up outlasts the delay has still worked for the whole
 * delay when the foreground starts. Both are lower bounds (a sleep never
 * ends early): the first unit comes 300 ms or more after the start, and
 * the wait ends 200 ms or more after it. When the delay ran from the start,
 * the wait ended as soon as the first unit came, about 300 ms in.
 */
static void test_delay_after_first_work(void **state)
{
	struct ct_load l;
	struct ct_load_result res;
	char err[CT_ERRLEN] = "";
	int64_t t0, waited;

	assert_ok(ct_load_init(&l, &slow_starter, &env, err, sizeof(err)), err);
	t0 = ct_now_ns();
	assert_ok(ct_load_start(&l, NULL, err, sizeof(err)), err);
	assert_ok(ct_load_wait_ready(&l, 200 * MS, err, sizeof(err)), err);
	waited = ct_now_ns() - t0;
	print_message("ready after %.3f s, %llu units done\n", (double)waited / 1e9,
		      (unsigned long long)atomic_load(&l.shm->work));
	assert_true(waited >= 500 * MS);
	assert_true(atomic_load(&l.shm->work) > 0);
	ct_load_stop(&l, &res);
	assert_false(res.failed);
	ct_load_release(&l);
}

static void test_leader_killed(void **state)
{
	struct ct_load l;
	struct ct_load_result res;
	char err[CT_ERRLEN] = "";
	pid_t leader;
	int rc = 0;

	assert_ok(ct_load_init(&l, ct_load_find("null"), &env, err, sizeof(err)), err);
	assert_ok(ct_load_start(&l, NULL, err, sizeof(err)), err);
	leader = l.leader;
	assert_ok(ct_load_wait_ready(&l, 50 * MS, err, sizeof(err)), err);
	ct_load_mark(&l);
	assert_int_equal(kill(leader, SIGKILL), 0);
	for (int i = 0; i < 200 && !rc; i++) {
		usleep(10 * 1000);
		rc = ct_load_check(&l, 0, err, sizeof(err));
	}
	assert_int_equal(rc, -EIO);
	assert_contains(err, "load 'null' was killed by signal 9");
	ct_load_stop(&l, &res);
	assert_true(res.failed);
	assert_contains(res.reason, "killed by signal 9");
	/* the worker died with its leader (PDEATHSIG) and was reaped */
	assert_gone(leader);
	ct_load_release(&l);
}

static void test_null_stall(void **state)
{
	struct ct_load l;
	struct ct_load_result res;
	char err[CT_ERRLEN] = "";
	pid_t leader, worker = 0;
	int rc = 0;

	assert_ok(ct_load_init(&l, ct_load_find("null"), &env, err, sizeof(err)), err);
	assert_ok(ct_load_start(&l, NULL, err, sizeof(err)), err);
	leader = l.leader;
	assert_ok(ct_load_wait_ready(&l, 50 * MS, err, sizeof(err)), err);
	for (int i = 0; i < 100 && !worker; i++) {
		worker = child_of(leader);
		if (!worker)
			usleep(10 * 1000);
	}
	assert_true(worker > 0);
	ct_load_mark(&l);
	assert_int_equal(kill(worker, SIGSTOP), 0);
	for (int i = 0; i < 100 && !rc; i++) {
		usleep(20 * 1000);
		rc = ct_load_check(&l, 100 * MS, err, sizeof(err));
	}
	kill(worker, SIGCONT);
	assert_int_equal(rc, -EIO);
	assert_contains(err, "load 'null' made no progress for ");
	/* stalled is not dead: it ticks again, and stops cleanly */
	for (int i = 0; i < 100 && rc; i++) {
		usleep(20 * 1000);
		rc = ct_load_check(&l, 100 * MS, err, sizeof(err));
	}
	assert_ok(rc, err);
	ct_load_stop(&l, &res);
	assert_false(res.failed);
	assert_true(res.work > 0);
	assert_gone(leader);
	ct_load_release(&l);
}

static void test_kill(void **state)
{
	struct ct_load l;
	char err[CT_ERRLEN] = "", cgpath[PATH_MAX];
	pid_t leader;

	assert_ok(ct_load_init(&l, ct_load_find("process"), &env, err, sizeof(err)), err);
	assert_ok(ct_load_start(&l, cgparent[0] ? cgparent : NULL, err, sizeof(err)), err);
	leader = l.leader;
	snprintf(cgpath, sizeof(cgpath), "%s", l.cgroup);
	assert_ok(ct_load_wait_ready(&l, 50 * MS, err, sizeof(err)), err);
	ct_load_kill(&l);
	assert_int_equal(l.leader, 0);
	assert_gone(leader);
	if (cgpath[0])
		assert_no_dir(cgpath);
	ct_load_kill(&l); /* idempotent */
	ct_load_release(&l);
}

static void test_release_running(void **state)
{
	struct ct_load l;
	char err[CT_ERRLEN] = "", dir[PATH_MAX];
	pid_t leader;

	assert_ok(ct_load_init(&l, ct_load_find("dbench"), &env, err, sizeof(err)), err);
	snprintf(dir, sizeof(dir), "%s", l.dir);
	assert_ok(ct_load_start(&l, NULL, err, sizeof(err)), err);
	leader = l.leader;
	assert_ok(ct_load_wait_ready(&l, 50 * MS, err, sizeof(err)), err);
	ct_load_release(&l); /* kills first: nothing may write into a removed dir */
	assert_gone(leader);
	assert_no_dir(dir);
}

static void test_params(void **state)
{
	struct ct_load l;
	char err[CT_ERRLEN] = "";

	assert_ok(ct_load_init(&l, ct_load_find("io"), &env, err, sizeof(err)), err);
	assert_contains(l.params, "file=8.0MiB");
	assert_int_equal(l.size, 8 << 20);
	assert_int_equal(l.nworkers, 1);
	ct_load_release(&l);
	assert_ok(ct_load_init(&l, ct_load_find("process"), &env, err, sizeof(err)), err);
	assert_string_equal(l.params, "procs=4");
	assert_int_equal(l.nworkers, 4);
	ct_load_release(&l);
	assert_ok(ct_load_init(&l, ct_load_find("dbench"), &env, err, sizeof(err)), err);
	assert_string_equal(l.params, "clients=2");
	ct_load_release(&l);
	assert_ok(ct_load_init(&l, ct_load_find("mem"), &env, err, sizeof(err)), err);
	assert_contains(l.params, "target=64.0MiB");
	ct_load_release(&l);
	assert_ok(ct_load_init(&l, ct_load_find("none"), &env, err, sizeof(err)), err);
	assert_int_equal(l.nworkers, 0);
	ct_load_release(&l);
}

/* named per load so a failure says which one */
#define LOAD_TESTS(n)                                                             \
	{ "load " n, test_load, NULL, NULL, (void *)n },                          \
	{                                                                         \
		"load " n " in a cgroup", test_load_cgroup, NULL, NULL, (void *)n \
	}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_params),
		LOAD_TESTS("none"),
		LOAD_TESTS("null"),
		LOAD_TESTS("process"),
		LOAD_TESTS("io"),
		LOAD_TESTS("io_other"),
		LOAD_TESTS("read"),
		LOAD_TESTS("list"),
		LOAD_TESTS("mem"),
		LOAD_TESTS("ctar"),
		LOAD_TESTS("xtar"),
		LOAD_TESTS("dbench"),
		cmocka_unit_test(test_io_other_needs_dir),
		cmocka_unit_test(test_io_no_space),
		cmocka_unit_test(test_io_file_written),
		cmocka_unit_test(test_io_worker_fails),
		cmocka_unit_test(test_io_starts_at_zero),
		cmocka_unit_test(test_io_warms_its_file),
		cmocka_unit_test(test_tartree_size),
		cmocka_unit_test(test_tartree_generate),
		cmocka_unit_test(test_ctar_tree_capped),
		cmocka_unit_test(test_ctar_tar_fails),
		cmocka_unit_test(test_worker_exits),
		cmocka_unit_test(test_delay_after_first_work),
		cmocka_unit_test(test_leader_killed),
		cmocka_unit_test(test_null_stall),
		cmocka_unit_test(test_kill),
		cmocka_unit_test(test_release_running),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
