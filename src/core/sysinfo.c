/*
 * Captures the system facts that identify a config: kernel, command line,
 * preemption model, CPU, memory, the filesystem, block device and I/O
 * scheduler under the work directory, and the sysctls that move benchmark
 * results. Two runs are only comparable when these agree, so every fact is
 * read from where the kernel states it, and a fact that cannot be known is
 * recorded as unknown rather than guessed.
 *
 * Every path is read relative to a root: "" is the live system, anything
 * else is a fixture tree (tests/fixtures/sysinfo/<name>) laid out like the
 * real one - proc/..., sys/... with sys/dev/block/MAJ:MIN, sys/class/block/NAME
 * and sys/block/DISK as relative symlinks into sys/devices, as sysfs has
 * them - plus one file a real system lacks: ROOT/dev-of-workdir, holding the
 * "MAJ:MIN" the work directory would have, because stat() of a path inside a
 * fixture can only report the disk the fixture itself lives on. When that
 * file is present `dir` is not stat()ed; it is a path in the fixture's
 * namespace, used only to choose among mounts of the same device.
 *
 * Preemption model, in order of trust:
 *  1. "rt" when the version string has the PREEMPT_RT token (init/Makefile
 *     lets RT override PREEMPT_DYNAMIC there) or ROOT/sys/kernel/realtime is
 *     1 (out-of-tree RT patch sets);
 *  2. "dynamic(X)" from the bracketed mode of sys/kernel/debug/sched/preempt
 *     (needs debugfs mounted and root) - the mode in force right now;
 *  3. PREEMPT_DYNAMIC token: "dynamic(X)" from a preempt= boot parameter,
 *     else from the build default in ROOT/boot/config-RELEASE, else plain
 *     "dynamic". A mode changed at run time through debugfs, unreadable to
 *     us, would be missed: that is the limit of what can be known;
 *  4. PREEMPT token: "full" ("lazy" if the boot config says so: lazy kernels
 *     of 6.13+ print the same token);
 *  5. no token: "none" or "voluntary" from the boot config, else
 *     "none/voluntary", since the version string cannot tell them apart;
 *  6. "unknown" when there is no version string at all.
 */
#include "contend/sysinfo.h"
#include "contend/util.h"
#include "sysinfo-internal.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Worst case of the canonical text: every fact field full, every sysctl
 * present, plus keys. */
#define CANON_MAX 8192
_Static_assert(sizeof(struct ct_sysinfo) + 512 < CANON_MAX, "canonical text may not fit");

bool si_is_live(const char *root)
{
	return !root || !*root;
}

int si_root_path(char *buf, size_t len, const char *root, const char *rel)
{
	size_t rl = root ? strlen(root) : 0, n = strlen(rel);

	while (rl > 0 && root[rl - 1] == '/')
		rl--;
	if (rl + n >= len)
		return -ENAMETOOLONG;
	memcpy(buf, root, rl);
	memcpy(buf + rl, rel, n + 1);
	return 0;
}

/* Copies with truncation; dst always terminated. */
void si_copy(char *dst, size_t len, const char *src)
{
	size_t n = 0;

	/* A loop, not strnlen: sources may be shorter arrays than len. */
	while (n + 1 < len && src[n])
		n++;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

char *si_trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

static int read_required(const char *root, const char *rel, char *buf, size_t len, char *err,
			 size_t errlen)
{
	char path[PATH_MAX];
	ssize_t n;
	int rc;

	rc = si_root_path(path, sizeof(path), root, rel);
	if (rc)
		return ct_err(err, errlen, rc, "path too long: '%s%s'", root, rel);
	n = ct_read_file(path, buf, len);
	if (n < 0)
		return ct_err(err, errlen, (int)n, "cannot read '%s': %s", path, strerror((int)-n));
	return 0;
}

ssize_t si_read_optional(const char *root, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];

	if (si_root_path(path, sizeof(path), root, rel))
		return -ENAMETOOLONG;
	return ct_read_file(path, buf, len);
}

FILE *si_open_required(const char *root, const char *rel, char *err, size_t errlen, int *rc)
{
	char path[PATH_MAX];
	FILE *f;

	*rc = si_root_path(path, sizeof(path), root, rel);
	if (*rc) {
		ct_err(err, errlen, *rc, "path too long: '%s%s'", root, rel);
		return NULL;
	}
	f = fopen(path, "re");
	if (!f) {
		*rc = -errno;
		ct_err(err, errlen, *rc, "cannot read '%s': %s", path, strerror(errno));
	}
	return f;
}

/* The entry of a sysfs choice list the kernel marks as active: "[bfq]" in
 * a scheduler file, "(full)" in debugfs' preempt file. */
bool si_bracketed(const char *s, char open, char close, char *out, size_t len)
{
	const char *a = strchr(s, open), *b;

	if (!a)
		return false;
	b = strchr(a + 1, close);
	if (!b || b == a + 1 || (size_t)(b - a - 1) >= len)
		return false;
	memcpy(out, a + 1, b - a - 1);
	out[b - a - 1] = '\0';
	return true;
}

/* Whitespace-delimited token match, so PREEMPT does not match PREEMPT_RT. */
static bool has_token(const char *s, const char *tok)
{
	size_t n = strlen(tok);
	const char *p = s;

	while ((p = strstr(p, tok))) {
		bool start = p == s || p[-1] == ' ' || p[-1] == '\t';
		bool end = p[n] == '\0' || p[n] == ' ' || p[n] == '\t';

		if (start && end)
			return true;
		p += n;
	}
	return false;
}

static int read_kernel(struct ct_sysinfo *si, const char *root, char *err, size_t len)
{
	struct utsname u;
	int rc;

	if (si_is_live(root)) {
		if (uname(&u))
			return ct_err(err, len, -errno, "uname failed: %s", strerror(errno));
		si_copy(si->kernel_release, sizeof(si->kernel_release), u.release);
		si_copy(si->kernel_version, sizeof(si->kernel_version), u.version);
		return 0;
	}
	rc = read_required(root, "/proc/sys/kernel/osrelease", si->kernel_release,
			   sizeof(si->kernel_release), err, len);
	if (rc)
		return rc;
	return read_required(root, "/proc/sys/kernel/version", si->kernel_version,
			     sizeof(si->kernel_version), err, len);
}

static int read_cpuinfo(struct ct_sysinfo *si, const char *root, char *err, size_t len)
{
	/* model name: x86, most; Hardware: arm32; cpu model: mips; uarch:
	 * riscv; cpu: powerpc. arm64 names nothing, so implementer and part
	 * numbers stand in for the name. */
	static const char *const keys[] = { "model name", "Hardware", "cpu model", "uarch", "cpu" };
	char found[CT_ARRAY_SIZE(keys)][128] = { { 0 } };
	char impl[32] = "", part[32] = "";
	char *line = NULL;
	size_t cap = 0, i;
	unsigned n = 0;
	FILE *f;
	int rc;

	f = si_open_required(root, "/proc/cpuinfo", err, len, &rc);
	if (!f)
		return rc;
	while (getline(&line, &cap, f) > 0) {
		char *colon = strchr(line, ':'), *key, *val;

		if (!colon)
			continue;
		*colon = '\0';
		key = si_trim(line);
		val = si_trim(colon + 1);
		if (!strcmp(key, "processor")) {
			n++;
			continue;
		}
		for (i = 0; i < CT_ARRAY_SIZE(keys); i++) {
			if (!found[i][0] && !strcmp(key, keys[i]))
				si_copy(found[i], sizeof(found[i]), val);
		}
		if (!impl[0] && !strcmp(key, "CPU implementer"))
			si_copy(impl, sizeof(impl), val);
		if (!part[0] && !strcmp(key, "CPU part"))
			si_copy(part, sizeof(part), val);
	}
	free(line);
	fclose(f);

	for (i = 0; i < CT_ARRAY_SIZE(keys) && !si->cpu_model[0]; i++)
		si_copy(si->cpu_model, sizeof(si->cpu_model), found[i]);
	if (!si->cpu_model[0] && impl[0])
		snprintf(si->cpu_model, sizeof(si->cpu_model), "CPU implementer %s part %s", impl,
			 part[0] ? part : "?");
	si->ncpus = n;
	if (!n && si_is_live(root)) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		si->ncpus = c > 0 ? (unsigned)c : 0;
	}
	return 0;
}

static int read_meminfo(struct ct_sysinfo *si, const char *root, char *err, size_t len)
{
	static const char rel[] = "/proc/meminfo";
	bool have_total = false;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int rc;

	f = si_open_required(root, rel, err, len, &rc);
	if (!f)
		return rc;
	while (getline(&line, &cap, f) > 0) {
		unsigned long long v;
		char key[64], unit[8] = "";
		uint64_t *dst;
		int k = sscanf(line, "%63[^:]: %llu %7s", key, &v, unit);

		if (k < 2)
			continue;
		if (!strcmp(key, "MemTotal"))
			dst = &si->ram_bytes;
		else if (!strcmp(key, "SwapTotal"))
			dst = &si->swap_bytes;
		else if (!strcmp(key, "MemAvailable"))
			dst = &si->mem_available;
		else
			continue;
		*dst = !strcmp(unit, "kB") ? (uint64_t)v * 1024 : (uint64_t)v;
		if (dst == &si->ram_bytes)
			have_total = true;
	}
	free(line);
	fclose(f);
	if (!have_total) {
		char path[PATH_MAX];

		if (si_root_path(path, sizeof(path), root, rel))
			si_copy(path, sizeof(path), rel);
		return ct_err(err, len, -EINVAL, "no MemTotal in '%s'", path);
	}
	return 0;
}

/* The preemption model a kernel build defaults to, from its .config as
 * distributions install it; "" when unknown. */
static void config_model(const char *root, const char *release, char *out, size_t len)
{
	static const struct {
		const char *line, *model;
	} map[] = {
		{ "CONFIG_PREEMPT_RT=y", "rt" },     { "CONFIG_PREEMPT_LAZY=y", "lazy" },
		{ "CONFIG_PREEMPT=y", "full" },	     { "CONFIG_PREEMPT_VOLUNTARY=y", "voluntary" },
		{ "CONFIG_PREEMPT_NONE=y", "none" },
	};
	char rel[64 + sizeof(((struct ct_sysinfo *)0)->kernel_release)], path[PATH_MAX];
	size_t best = CT_ARRAY_SIZE(map), i, cap = 0;
	char *line = NULL;
	FILE *f;

	out[0] = '\0';
	if (!release[0] || strchr(release, '/'))
		return;
	snprintf(rel, sizeof(rel), "/boot/config-%s", release);
	if (si_root_path(path, sizeof(path), root, rel))
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		char *l = si_trim(line);

		/* The choice has one member set, but RT kernels of 6.12+ set
		 * CONFIG_PREEMPT_RT beside it: keep the strongest. */
		for (i = 0; i < best; i++) {
			if (!strcmp(l, map[i].line)) {
				best = i;
				break;
			}
		}
	}
	free(line);
	fclose(f);
	if (best < CT_ARRAY_SIZE(map))
		si_copy(out, len, map[best].model);
}

/* The preempt= boot parameter of a PREEMPT_DYNAMIC kernel, or "". */
static void cmdline_model(const char *cmdline, char *out, size_t len)
{
	static const char *const valid[] = { "none", "voluntary", "full", "lazy" };
	const char *p = cmdline;
	size_t i;

	out[0] = '\0';
	while (*p) {
		size_t n;

		while (*p == ' ' || *p == '\t')
			p++;
		n = strcspn(p, " \t");
		if (n == 2 && !strncmp(p, "--", 2))
			break; /* the rest belongs to init */
		if (n > 8 && !strncmp(p, "preempt=", 8)) {
			for (i = 0; i < CT_ARRAY_SIZE(valid); i++) {
				if (n - 8 == strlen(valid[i]) && !strncmp(p + 8, valid[i], n - 8))
					si_copy(out, len, valid[i]);
			}
		}
		p += n;
	}
}

static void read_preempt(struct ct_sysinfo *si, const char *root)
{
	const char *ver = si->kernel_version;
	char buf[128], mode[20], cfg[16] = "";

	if (has_token(ver, "PREEMPT_RT") ||
	    (si_read_optional(root, "/sys/kernel/realtime", buf, sizeof(buf)) > 0 &&
	     !strcmp(si_trim(buf), "1"))) {
		si_copy(si->preempt, sizeof(si->preempt), "rt");
		return;
	}
	if (si_read_optional(root, "/sys/kernel/debug/sched/preempt", buf, sizeof(buf)) > 0 &&
	    si_bracketed(buf, '(', ')', mode, sizeof(mode))) {
		snprintf(si->preempt, sizeof(si->preempt), "dynamic(%s)", mode);
		return;
	}
	if (has_token(ver, "PREEMPT_DYNAMIC")) {
		cmdline_model(si->cmdline, mode, sizeof(mode));
		if (!mode[0])
			config_model(root, si->kernel_release, mode, sizeof(mode));
		if (mode[0])
			snprintf(si->preempt, sizeof(si->preempt), "dynamic(%s)", mode);
		else
			si_copy(si->preempt, sizeof(si->preempt), "dynamic");
		return;
	}
	if (ver[0])
		config_model(root, si->kernel_release, cfg, sizeof(cfg));
	if (has_token(ver, "PREEMPT"))
		si_copy(si->preempt, sizeof(si->preempt), !strcmp(cfg, "lazy") ? "lazy" : "full");
	else if (!strcmp(cfg, "none") || !strcmp(cfg, "voluntary"))
		si_copy(si->preempt, sizeof(si->preempt), cfg);
	else if (ver[0])
		si_copy(si->preempt, sizeof(si->preempt), "none/voluntary");
	else
		si_copy(si->preempt, sizeof(si->preempt), "unknown");
}

/* Collapses whitespace runs so multi-value sysctls print on one line. */
static void squeeze(char *s)
{
	char *w = s, *r = si_trim(s);
	bool space = false;

	for (; *r; r++) {
		if (*r == ' ' || *r == '\t' || *r == '\n') {
			space = true;
			continue;
		}
		if (space)
			*w++ = ' ';
		space = false;
		*w++ = *r;
	}
	*w = '\0';
}

static void read_sysctls(struct ct_sysinfo *si, const char *root)
{
	static const char *const names[] = {
		"vm.dirty_ratio",     "vm.dirty_background_ratio",	"vm.dirty_expire_centisecs",
		"vm.swappiness",      "vm.vfs_cache_pressure",		"vm.overcommit_memory",
		"vm.min_free_kbytes", "kernel.sched_autogroup_enabled", "kernel.numa_balancing",
	};
	char rel[128], buf[256], *p;
	size_t i;

	si->nsysctl = 0;
	for (i = 0; i < CT_ARRAY_SIZE(names) && si->nsysctl < CT_SYSINFO_MAX_SYSCTL; i++) {
		snprintf(rel, sizeof(rel), "/proc/sys/%s", names[i]);
		for (p = rel + strlen("/proc/sys/"); *p; p++) {
			if (*p == '.')
				*p = '/';
		}
		if (si_read_optional(root, rel, buf, sizeof(buf)) < 0)
			continue;
		squeeze(buf);
		si_copy(si->sysctl[si->nsysctl].name, sizeof(si->sysctl[0].name), names[i]);
		si_copy(si->sysctl[si->nsysctl].value, sizeof(si->sysctl[0].value), buf);
		si->nsysctl++;
	}
	if (si->nsysctl < CT_SYSINFO_MAX_SYSCTL &&
	    si_read_optional(root, "/sys/kernel/mm/transparent_hugepage/enabled", buf,
			     sizeof(buf)) > 0 &&
	    si_bracketed(buf, '[', ']', si->sysctl[si->nsysctl].value,
			 sizeof(si->sysctl[0].value))) {
		si_copy(si->sysctl[si->nsysctl].name, sizeof(si->sysctl[0].name), "thp.enabled");
		si->nsysctl++;
	}
}

int ct_sysinfo_capture(struct ct_sysinfo *si, const char *root, const char *dir, char *err,
		       size_t len)
{
	struct si_fsloc loc;
	char disk[64];
	int rc;

	if (!root)
		root = "";
	memset(si, 0, sizeof(*si));
	rc = read_kernel(si, root, err, len);
	if (rc)
		return rc;
	rc = read_required(root, "/proc/cmdline", si->cmdline, sizeof(si->cmdline), err, len);
	if (rc)
		return rc;
	squeeze(si->cmdline);
	rc = read_cpuinfo(si, root, err, len);
	if (rc)
		return rc;
	rc = read_meminfo(si, root, err, len);
	if (rc)
		return rc;
	read_preempt(si, root);
	read_sysctls(si, root);

	if (dir && *dir) {
		rc = si_resolve_fs(root, dir, &loc, err, len);
		if (rc)
			return rc;
		si_copy(si->fs_type, sizeof(si->fs_type), loc.fs_type);
		si_copy(si->fs_source, sizeof(si->fs_source), loc.fs_source);
		si_copy(si->block_dev, sizeof(si->block_dev), loc.block_dev);
		if (si->block_dev[0] && !ct_sysinfo_disk(root, si->block_dev, disk, sizeof(disk)))
			si_read_iosched(root, disk, si->iosched, sizeof(si->iosched));
	}
	ct_sysinfo_fingerprint(si);
	return 0;
}

struct textbuf {
	char *buf;
	size_t len, off;
};

/* snprintf that keeps counting past the end, as snprintf itself does. */
static void CT_PRINTF(2, 3) put(struct textbuf *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	if (t->buf && t->off < t->len)
		n = vsnprintf(t->buf + t->off, t->len - t->off, fmt, ap);
	else
		n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->off += (size_t)n;
}

size_t ct_sysinfo_canonical(const struct ct_sysinfo *si, char *buf, size_t len)
{
	struct textbuf t = { .buf = buf, .len = buf ? len : 0 };
	unsigned i;

	if (buf && len)
		buf[0] = '\0';
	put(&t, "kernel_release=%s\n", si->kernel_release);
	put(&t, "kernel_version=%s\n", si->kernel_version);
	put(&t, "cmdline=%s\n", si->cmdline);
	put(&t, "preempt=%s\n", si->preempt);
	put(&t, "cpu_model=%s\n", si->cpu_model);
	put(&t, "ncpus=%u\n", si->ncpus);
	put(&t, "ram_bytes=%llu\n", (unsigned long long)si->ram_bytes);
	put(&t, "swap_bytes=%llu\n", (unsigned long long)si->swap_bytes);
	put(&t, "fs_type=%s\n", si->fs_type);
	put(&t, "block_dev=%s\n", si->block_dev);
	put(&t, "iosched=%s\n", si->iosched);
	for (i = 0; i < si->nsysctl && i < CT_SYSINFO_MAX_SYSCTL; i++)
		put(&t, "%s=%s\n", si->sysctl[i].name, si->sysctl[i].value);
	return t.off;
}

void ct_sysinfo_fingerprint(struct ct_sysinfo *si)
{
	char text[CANON_MAX];
	uint64_t h;

	ct_sysinfo_canonical(si, text, sizeof(text));
	h = ct_fnv1a(CT_FNV_INIT, text);
	snprintf(si->fingerprint, sizeof(si->fingerprint), "%016llx", (unsigned long long)h);
}
