/*
 * `contend import hyperfine FILE -L LABEL` and `contend import fio FILE...
 * -L LABEL`: a peer's results stored as sessions, so compare, report and
 * the verdicts apply to them. The config is this machine as it is now (an
 * export does not say where it ran).
 */
#include "cli.h"
#include "opts.h"
#include "contend/import.h"
#include "contend/store.h"
#include "contend/sysinfo.h"
#include "contend/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILE (64u << 20)

struct import_args {
	const char *db, *label, *metric, *job;
	bool quiet;
};

static const struct cli_opt import_opts[] = {
	CLI_STRING('L', "label", struct import_args, label, "LABEL",
		   "the config the results are stored under (required)"),
	CLI_DB(struct import_args, db),
	CLI_STRING(0, "metric", struct import_args, metric, "M",
		   "fio: the figure judged: iops (default), bw, clat_p50,\nclat_p99, each "
		   "optionally after read_, write_, trim_"),
	CLI_STRING(0, "job", struct import_args, job, "NAME", "fio: only the job NAME"),
	CLI_FLAG('q', "quiet", struct import_args, quiet, "print nothing but errors"),
	CLI_END,
};

/* The whole file, NUL-terminated, malloc'd; -errno with err set. */
static int slurp(const char *path, char **out, size_t *len, char *err, size_t errlen)
{
	struct stat sb;
	char q[256];
	ssize_t n;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;

	*out = NULL;
	if (fd < 0 || fstat(fd, &sb)) {
		rc = -errno;
		goto fail;
	}
	if (!S_ISREG(sb.st_mode) || (uint64_t)sb.st_size > MAX_FILE) {
		rc = S_ISREG(sb.st_mode) ? -EFBIG : -EINVAL;
		goto fail;
	}
	*out = malloc((size_t)sb.st_size + 1);
	if (!*out) {
		rc = -ENOMEM;
		goto fail;
	}
	while ((n = read(fd, *out + got, (size_t)sb.st_size - got)) > 0)
		got += (size_t)n;
	if (n < 0) {
		rc = -errno;
		goto fail;
	}
	(*out)[got] = '\0';
	*len = got;
	close(fd);
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	free(*out);
	*out = NULL;
	return ct_err(err, errlen, rc, "cannot read %s: %s", ct_quote(path, q, sizeof(q)),
		      rc == -EINVAL  ? "not a regular file"
		      : rc == -EFBIG ? "larger than 64 MiB"
				     : strerror(-rc));
}

/* import fio FILE...: every file's documents, then one store. */
static int import_fio(const struct import_args *a, int argc, char **argv, int first,
		      const struct ct_sysinfo *si)
{
	struct ct_fio fio = { 0 };
	struct ct_store *st = NULL;
	char err[CT_ERRLEN] = "", line[1024], q[256], *text = NULL;
	unsigned sessions = 0, runs = 0;
	size_t len = 0, off;
	int rc = 0;

	for (int i = first; i < argc && !rc; i++) {
		rc = slurp(argv[i], &text, &len, err, sizeof(err));
		if (rc) {
			rc = cli_fail(rc == -ENOMEM ? rc : -EINVAL, err);
			break;
		}
		rc = ct_fio_parse(text, len, argv[i], a->metric ? a->metric : "iops", a->job, &fio,
				  err, sizeof(err));
		free(text);
		if (rc)
			rc = rc == -ENOMEM ? cli_fail(rc, err)
					   : (cli_error("%s", err), CT_EXIT_USAGE);
	}
	off = (size_t)snprintf(line, sizeof(line), "contend import fio");
	for (int i = first; i < argc && off < sizeof(line); i++)
		off += (size_t)snprintf(line + off, sizeof(line) - off, " %s", argv[i]);
	if (off < sizeof(line))
		snprintf(line + off, sizeof(line) - off, " -L %s --metric %s%s%s", a->label,
			 a->metric ? a->metric : "iops", a->job ? " --job " : "",
			 a->job ? a->job : "");
	if (!rc)
		rc = cli_open_store(a->db, &st);
	if (!rc) {
		rc = ct_fio_store(st, &fio, a->label, si, line, &sessions, &runs, err, sizeof(err));
		rc = rc ? cli_fail(rc, err) : 0;
	}
	ct_store_close(st);
	if (!rc && !a->quiet)
		printf("imported %u fio job%s (%u runs) from %d file%s%s%s as '%s'\n", sessions,
		       sessions == 1 ? "" : "s", runs, argc - first, argc - first == 1 ? "" : "s",
		       argc - first == 1 ? " " : "",
		       argc - first == 1 ? ct_quote(argv[first], q, sizeof(q)) : "", a->label);
	ct_fio_free(&fio);
	return rc;
}

int cmd_import(int argc, char **argv)
{
	static const char intro[] =
		"Stores a peer's results as sessions. hyperfine: each command of a\n"
		"--export-json file a session of workload cmd, load none, its times the runs.\n"
		"fio: each job of --output-format=json files a session of workload fio, its\n"
		"entry in each JSON document (appended runs, or several files) a run, judged\n"
		"by --metric.";
	struct import_args a = { 0 };
	struct ct_hyperfine h;
	struct ct_sysinfo *si = NULL;
	struct ct_store *st = NULL;
	struct cli_parsed p;
	char err[CT_ERRLEN] = "", line[1024], q[256], *text = NULL;
	unsigned sessions = 0, runs = 0;
	size_t len = 0;
	bool fio;
	int rc;

	rc = cli_parse("import",
		       "contend import hyperfine FILE -L LABEL [--db PATH]\n"
		       "       contend import fio FILE... -L LABEL [--metric M] [--job NAME] "
		       "[--db PATH]",
		       intro, import_opts, &a, argc, argv, &p);
	if (rc)
		return rc == 1 ? 0 : rc;
	if (p.rest >= argc)
		return cli_usage_error("import",
				       "say what to import: hyperfine FILE or fio FILE...");
	fio = !strcmp(argv[p.rest], "fio");
	if (!fio && strcmp(argv[p.rest], "hyperfine"))
		return cli_usage_error("import",
				       "cannot import %s: contend imports hyperfine and fio",
				       ct_quote(argv[p.rest], q, sizeof(q)));
	if (fio && p.rest + 1 >= argc)
		return cli_usage_error("import", "import fio takes one FILE or more");
	if (!fio && p.rest + 2 != argc)
		return cli_usage_error("import", "import hyperfine takes one FILE");
	if (!fio && (a.metric || a.job))
		return cli_usage_error("import", "--%s is for import fio",
				       a.metric ? "metric" : "job");
	if (!a.label || !*a.label)
		return cli_usage_error("import", "-L LABEL is required: the config to store under");
	if (cli_check_label("import", a.label, sizeof(((struct ct_session_rec *)0)->label)))
		return CT_EXIT_USAGE;
	if (fio && a.metric && ct_fio_metric_check(a.metric, err, sizeof(err)))
		return cli_usage_error("import", "%s", err);
	if (fio) {
		si = calloc(1, sizeof(*si));
		rc = si ? ct_sysinfo_capture(si, "", ".", err, sizeof(err))
			: ct_err(err, sizeof(err), -ENOMEM, "out of memory");
		rc = rc ? cli_fail(rc, err) : import_fio(&a, argc, argv, p.rest + 1, si);
		free(si);
		return rc;
	}
	rc = slurp(argv[p.rest + 1], &text, &len, err, sizeof(err));
	if (rc)
		return cli_fail(rc == -ENOMEM ? rc : -EINVAL, err);
	rc = ct_hyperfine_parse(text, len, &h, err, sizeof(err));
	free(text);
	if (rc) {
		cli_error("%s: %s", ct_quote(argv[p.rest + 1], q, sizeof(q)), err);
		return CT_EXIT_USAGE;
	}
	si = calloc(1, sizeof(*si));
	rc = si ? ct_sysinfo_capture(si, "", ".", err, sizeof(err))
		: ct_err(err, sizeof(err), -ENOMEM, "out of memory");
	if (rc) {
		ct_hyperfine_free(&h);
		free(si);
		return cli_fail(rc, err);
	}
	snprintf(line, sizeof(line), "contend import hyperfine %s -L %s", argv[p.rest + 1],
		 a.label);
	rc = cli_open_store(a.db, &st);
	if (!rc) {
		rc = ct_hyperfine_store(st, &h, a.label, si, line, &sessions, &runs, err,
					sizeof(err));
		rc = rc ? cli_fail(rc, err) : 0;
	}
	ct_store_close(st);
	if (!rc && !a.quiet)
		printf("imported %u command%s (%u runs) from %s as '%s'\n", sessions,
		       sessions == 1 ? "" : "s", runs, ct_quote(argv[p.rest + 1], q, sizeof(q)),
		       a.label);
	ct_hyperfine_free(&h);
	free(si);
	return rc;
}
