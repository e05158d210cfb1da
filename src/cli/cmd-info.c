/*
 * The read-only commands: `sysinfo` (what a config captures), `list`
 * (stored sessions) and `loads` (what exists and what its Loads column
 * counts).
 */
#include "cli.h"
#include "contend/load.h"
#include "contend/store.h"
#include "contend/sysinfo.h"
#include "contend/util.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int simple_opts(int argc, char **argv, const char *usage, const char **db, const char **dir)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "dir", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (!db)
				goto bad;
			*db = optarg;
			break;
		case 'D':
			if (!dir)
				goto bad;
			*dir = optarg;
			break;
		case 'h':
			printf("%s\n", usage);
			return -1;
		default:
			goto bad;
		}
	}
	if (optind < argc) {
		cli_error("unexpected argument '%s'", argv[optind]);
		return CT_EXIT_USAGE;
	}
	return 0;
bad:
	fprintf(stderr, "%s\n", usage);
	return CT_EXIT_USAGE;
}

int cmd_sysinfo(int argc, char **argv)
{
	const char *dir = "/var/tmp";
	struct ct_sysinfo si;
	char err[CT_ERRLEN], sz[32];
	int rc = simple_opts(argc, argv, "usage: contend sysinfo [--dir DIR]", NULL, &dir);

	if (rc)
		return rc < 0 ? 0 : rc;
	rc = ct_sysinfo_capture(&si, "", dir, err, sizeof(err));
	if (rc)
		return cli_fail(rc, err);
	printf("kernel release:   %s\n", si.kernel_release);
	printf("kernel version:   %s\n", si.kernel_version);
	printf("cmdline:          %s\n", si.cmdline);
	printf("preemption:       %s\n", si.preempt);
	printf("cpu:              %s\n", si.cpu_model);
	printf("cpus:             %u\n", si.ncpus);
	printf("ram:              %s\n", ct_fmt_size(si.ram_bytes, sz, sizeof(sz)));
	printf("swap:             %s\n", ct_fmt_size(si.swap_bytes, sz, sizeof(sz)));
	printf("work dir:         %s\n", dir);
	printf("filesystem:       %s on %s\n", si.fs_type, si.fs_source);
	printf("block device:     %s\n", si.block_dev[0] ? si.block_dev : "-");
	printf("io scheduler:     %s\n", si.iosched[0] ? si.iosched : "-");
	for (unsigned i = 0; i < si.nsysctl; i++)
		printf("%-17s %s\n", si.sysctl[i].name, si.sysctl[i].value);
	printf("fingerprint:      %s\n", si.fingerprint);
	return 0;
}

/* The group of sessions a multi-config run stored, one per config, keyed
 * by the first's id, the smallest ("first=0" is the first itself); 0 for a
 * session of one config. */
static int64_t schedule_group(const struct ct_session_rec *r)
{
	const char *f = strstr(r->schedule, " first=");
	long long first;

	if (!r->schedule[0])
		return 0;
	if (!f || sscanf(f, " first=%lld", &first) != 1 || first <= 0)
		return r->id;
	return first;
}

/* "interleaved 1-4": the order a multi-config run used and the ids of its
 * sessions, so the configs compared in one run read as such; "-" alone.
 * group[] holds schedule_group() of each of recs[]. */
static void list_order(const struct ct_session_rec *recs, const int64_t *group, size_t n, size_t i,
		       char *buf, size_t len)
{
	int64_t hi = group[i];

	if (!group[i]) {
		snprintf(buf, len, "-");
		return;
	}
	for (size_t k = 0; k < n; k++)
		if (group[k] == group[i] && recs[k].id > hi)
			hi = recs[k].id;
	snprintf(buf, len, "%.*s %lld-%lld", (int)strcspn(recs[i].schedule, " "), recs[i].schedule,
		 (long long)group[i], (long long)hi);
}

int cmd_list(int argc, char **argv)
{
	const char *db = NULL;
	struct ct_session_rec *recs = NULL;
	struct ct_store *st;
	size_t n = 0;
	unsigned closed;
	char err[CT_ERRLEN];
	int64_t *group;
	int lw = 5; /* the label column: as wide as the longest label */
	int rc = simple_opts(argc, argv, "usage: contend list [--db PATH]", &db, NULL);

	if (rc)
		return rc < 0 ? 0 : rc;
	rc = cli_open_store(db, &st);
	if (rc)
		return rc;
	rc = ct_session_close_orphans(st, &closed, err, sizeof(err));
	if (!rc)
		rc = ct_store_sessions(st, 0, &recs, &n, err, sizeof(err));
	ct_store_close(st);
	if (rc)
		return cli_fail(rc, err);
	if (!n) {
		printf("no sessions stored\n");
		free(recs);
		return 0;
	}
	group = malloc(n * sizeof(*group));
	if (!group) {
		free(recs);
		return cli_fail(-ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		group[i] = schedule_group(&recs[i]);
		if ((int)strlen(recs[i].label) > lw)
			lw = (int)strlen(recs[i].label);
	}
	printf("%-5s %-19s %-*s %-9s %-7s %-11s %5s %6s  %s\n", "id", "started", lw, "label",
	       "workload", "profile", "status", "runs", "failed", "configs");
	for (size_t i = 0; i < n; i++) {
		char when[32], order[64];
		time_t t = (time_t)(recs[i].started_at / 1000000000);
		struct tm tm;

		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", localtime_r(&t, &tm));
		list_order(recs, group, n, i, order, sizeof(order));
		printf("%-5lld %-19s %-*s %-9s %-7s %-11s %5u %6u  %s\n", (long long)recs[i].id,
		       when, lw, recs[i].label, recs[i].workload, recs[i].profile, recs[i].status,
		       recs[i].nruns, recs[i].nfailed, order);
	}
	free(group);
	free(recs);
	return 0;
}

int cmd_loads(int argc, char **argv)
{
	int rc = simple_opts(argc, argv, "usage: contend loads", NULL, NULL);

	if (rc)
		return rc < 0 ? 0 : rc;
	printf("%-9s %-16s %s\n", "load", "Loads counts", "what it does");
	for (size_t i = 0; i < ct_load_count(); i++) {
		const struct ct_load_ops *ops = ct_load_at(i);

		if (ops->flags & CT_LOAD_HIDDEN)
			continue;
		printf("%-9s %-16s %s\n", ops->name,
		       strcmp(ops->name, "none") ? ops->work_unit : "-", ops->summary);
	}
	return 0;
}
