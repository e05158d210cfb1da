/*
 * `contend run`: parse the suite from the command line, run the session,
 * then print contest's table from what was stored - so the table a user
 * sees right after a run is exactly what `compare` will read later.
 */
#include "cli.h"
#include "contend/knob.h"
#include "contend/load.h"
#include "contend/oltp.h"
#include "contend/report.h"
#include "contend/util.h"
#include "contend/verdict.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const default_loads[] = { "none", "process", "io",	 "read",
					     "list", "mem",	"dbench" };

enum {
	OPT_BASELINE = 256,
	OPT_DIR,
	OPT_OTHER_DIR,
	OPT_LIST_DIR,
	OPT_KEEP,
	OPT_DB,
	OPT_DELAY,
	OPT_STALL,
	OPT_DROP,
	OPT_NO_WARMUP,
	OPT_SCALE,
	OPT_TREE,
	OPT_MAKE_ARGS,
	OPT_FILE_SIZE,
	OPT_MEM_SIZE,
	OPT_PROCS,
	OPT_DBENCH_PROCS,
	OPT_QUICK,
	OPT_PROFILE,
	OPT_NO_CGROUP,
	OPT_MODE,
	OPT_ADAPTIVE,
	OPT_PRECISION,
	OPT_MAX_RUNS,
	OPT_MAX_TIME,
	OPT_DATA_SIZE,
	OPT_POOL_SIZE,
	OPT_LOG_SIZE,
	OPT_CLIENTS,
	OPT_READS,
	OPT_WRITES,
	OPT_ZIPF,
	OPT_DB_WRITERS,
	OPT_DURATION,
	OPT_RAMP_MAX,
	OPT_RATE,
	OPT_SEED,
	OPT_BUFFERED,
	OPT_MEM_LIMIT,
	OPT_ENGINE,
	OPT_SET,
	OPT_VARY,
	OPT_ORDER,
	OPT_ORDER_SEED,
	OPT_KNOB_WARMUP,
};

static const struct option long_opts[] = {
	{ "workload", required_argument, NULL, 'w' },
	{ "loads", required_argument, NULL, 'l' },
	{ "runs", required_argument, NULL, 'n' },
	{ "label", required_argument, NULL, 'L' },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "dir", required_argument, NULL, OPT_DIR },
	{ "other-dir", required_argument, NULL, OPT_OTHER_DIR },
	{ "list-dir", required_argument, NULL, OPT_LIST_DIR },
	{ "keep-files", no_argument, NULL, OPT_KEEP },
	{ "db", required_argument, NULL, OPT_DB },
	{ "delay", required_argument, NULL, OPT_DELAY },
	{ "stall-timeout", required_argument, NULL, OPT_STALL },
	{ "drop-caches", no_argument, NULL, OPT_DROP },
	{ "no-warmup", no_argument, NULL, OPT_NO_WARMUP },
	{ "scale", required_argument, NULL, OPT_SCALE },
	{ "tree", required_argument, NULL, OPT_TREE },
	{ "make-args", required_argument, NULL, OPT_MAKE_ARGS },
	{ "file-size", required_argument, NULL, OPT_FILE_SIZE },
	{ "mem-size", required_argument, NULL, OPT_MEM_SIZE },
	{ "procs", required_argument, NULL, OPT_PROCS },
	{ "dbench-procs", required_argument, NULL, OPT_DBENCH_PROCS },
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "profile", required_argument, NULL, OPT_PROFILE },
	{ "no-cgroup", no_argument, NULL, OPT_NO_CGROUP },
	{ "selftest-mode", required_argument, NULL, OPT_MODE },
	{ "adaptive", no_argument, NULL, OPT_ADAPTIVE },
	{ "precision", required_argument, NULL, OPT_PRECISION },
	{ "max-runs", required_argument, NULL, OPT_MAX_RUNS },
	{ "max-time", required_argument, NULL, OPT_MAX_TIME },
	{ "data-size", required_argument, NULL, OPT_DATA_SIZE },
	{ "pool-size", required_argument, NULL, OPT_POOL_SIZE },
	{ "log-size", required_argument, NULL, OPT_LOG_SIZE },
	{ "clients", required_argument, NULL, OPT_CLIENTS },
	{ "reads", required_argument, NULL, OPT_READS },
	{ "writes", required_argument, NULL, OPT_WRITES },
	{ "zipf", required_argument, NULL, OPT_ZIPF },
	{ "db-writers", required_argument, NULL, OPT_DB_WRITERS },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "ramp-max", required_argument, NULL, OPT_RAMP_MAX },
	{ "rate", required_argument, NULL, OPT_RATE },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "buffered", no_argument, NULL, OPT_BUFFERED },
	{ "mem-limit", required_argument, NULL, OPT_MEM_LIMIT },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "set", required_argument, NULL, OPT_SET },
	{ "vary", required_argument, NULL, OPT_VARY },
	{ "order", required_argument, NULL, OPT_ORDER },
	{ "order-seed", required_argument, NULL, OPT_ORDER_SEED },
	{ "knob-warmup", required_argument, NULL, OPT_KNOB_WARMUP },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void run_usage(FILE *f)
{
	fputs("usage: contend run [options] [-- command...]\n"
	      "\n"
	      "  -w, --workload NAME     kbuild (default), cmd (the command after --), oltp,\n"
	      "                          selftest\n"
	      "  -l, --loads LIST        comma-separated loads (default: none,process,io,read,\n"
	      "                          list,mem,dbench; see: contend loads)\n"
	      "  -n, --runs N            runs per load (default 3)\n"
	      "  -L, --label LABEL       config label (default: kernel release)\n"
	      "      --baseline LABEL    stored config whose no-load mean is Ratio's reference\n"
	      "      --quick             quick profile: scaled-down tree and load sizes\n"
	      "      --profile P         quick or full (default full)\n"
	      "      --dir DIR           where the work directory is made (default /var/tmp)\n"
	      "      --other-dir DIR     target of the io_other load (another disk)\n"
	      "      --list-dir DIR      tree the list load walks (default /usr)\n"
	      "      --keep-files        leave the work directory behind\n"
	      "      --db PATH           results store (default $CONTEND_DB or\n"
	      "                          $XDG_DATA_HOME/contend/results.db)\n"
	      "      --delay DURATION    load start-up before the foreground (default 3s)\n"
	      "      --stall-timeout D   a load without progress this long fails the run (10s)\n"
	      "      --drop-caches       drop the page cache before each run (root)\n"
	      "      --no-warmup         skip the unrecorded warm-up run\n"
	      "      --scale X           kbuild tree scale (1.0 = about 10-20 s on 2 CPUs)\n"
	      "      --tree DIR          build this tree (e.g. a kernel) instead of generating\n"
	      "      --make-args ARGS    extra make arguments for --tree\n"
	      "      --file-size SIZE    io/read file size (default: RAM, capped by free space)\n"
	      "      --mem-size SIZE     mem load size (default: from RAM and swap)\n"
	      "      --procs N           process load ring size (default 4 x CPUs)\n"
	      "      --dbench-procs N    dbench load clients (default 2 x CPUs)\n"
	      "      --no-cgroup         do not put loads and the foreground in cgroups\n"
	      "      --selftest-mode M   selftest: spin (default), sleep or fail\n"
	      "      --adaptive          repeat each load until the 95%% CI of its mean Time is\n"
	      "                          within --precision of the mean (at least 5 runs; -n is\n"
	      "                          ignored), up to --max-runs (50) and --max-time per load\n"
	      "      --precision PCT     target CI half-width in %% of the mean (default 1)\n"
	      "      --max-runs N        adaptive cap on runs per load (default 50)\n"
	      "      --max-time DURATION adaptive cap on time per load (default none)\n"
	      "\n"
	      "  live knobs (root; restored at the end, or by 'contend restore' after a crash):\n"
	      "      --set KNOB=VALUE    a setting for the whole session\n"
	      "      --vary KNOB=V1,V2   each value a config (several: the cross product);\n"
	      "                          labels compose as LABEL+KNOB=VALUE\n"
	      "                          KNOB: iosched (the disk under --dir), iosched@DEV,\n"
	      "                          sysctl.NAME, or a path under /sys or /proc/sys\n"
	      "      --order O           interleaved (default: randomized blocks, ABBA for two\n"
	      "                          configs) or sequential (all runs of one, then the next)\n"
	      "      --order-seed N      seed of the interleaved order (default: from the clock)\n"
	      "      --knob-warmup N     unrecorded runs after each knob change (default 1;\n"
	      "                          oltp: 0, its ramp-up warms it)\n"
	      "\n"
	      "  oltp (workload and load):\n"
	      "      --data-size SIZE    data file (default 4GiB, quick 512MiB, load 1/4; at\n"
	      "                          most a quarter of the free space)\n"
	      "      --pool-size SIZE    engine buffer pool (default data/32; 0 = none)\n"
	      "      --log-size SIZE     circular log file (default 64MiB, quick 16MiB)\n"
	      "      --clients N         client threads (default 4 x CPUs; load: CPUs)\n"
	      "      --reads N           pages read per transaction (default 10)\n"
	      "      --writes N          of those, pages dirtied (default 2)\n"
	      "      --zipf THETA        skewed page choice, 0 <= THETA < 1 (default uniform)\n"
	      "      --db-writers N      threads writing dirty pages back (default 2)\n"
	      "      --duration D        measured time per run (default 60s, quick 30s)\n"
	      "      --ramp-max D        ramp-up limit (default 60s, quick 20s; 0 = none)\n"
	      "      --rate TPS          open loop with Poisson arrivals (default closed loop)\n"
	      "      --seed N            page sequence seed (default 42)\n"
	      "      --buffered          page cache instead of O_DIRECT and an own pool, in a\n"
	      "                          memory-limited cgroup (root)\n"
	      "      --mem-limit SIZE    --buffered: the cgroup's limit (default data/32 + 16MiB)\n"
	      "      --engine E          psync (default)\n"
	      "  -q, --quiet             no progress on stderr\n",
	      f);
}

static int split_loads(struct ct_session_opts *o, char *list)
{
	char *save = NULL, *tok;

	o->nloads = 0;
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!*tok)
			continue;
		if (!ct_load_find(tok)) {
			cli_error("unknown load '%s' (see: contend loads)", tok);
			return CT_EXIT_USAGE;
		}
		for (size_t i = 0; i < o->nloads; i++)
			if (!strcmp(o->loads[i], tok)) {
				cli_error("load '%s' given twice", tok);
				return CT_EXIT_USAGE;
			}
		if (o->nloads == CT_SESSION_MAX_LOADS) {
			cli_error("too many loads (at most %d)", CT_SESSION_MAX_LOADS);
			return CT_EXIT_USAGE;
		}
		o->loads[o->nloads++] = tok;
	}
	if (!o->nloads) {
		cli_error("empty load list");
		return CT_EXIT_USAGE;
	}
	return 0;
}

static int bad_value(const char *opt, const char *val)
{
	cli_error("invalid value '%s' for --%s", val, opt);
	return CT_EXIT_USAGE;
}

static void join_argv(char *buf, size_t len, int argc, char **argv)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < argc && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? " " : "", argv[i]);
}

/* True when execvp() would find prog: checked before anything is stored,
 * so a typo is a usage error rather than a session of failed runs. */
static bool runnable(const char *prog)
{
	const char *path = getenv("PATH"), *p, *end;
	char full[4096];

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	for (p = path ? path : "/usr/local/bin:/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		snprintf(full, sizeof(full), "%.*s/%s", (int)(end - p), end == p ? "." : p, prog);
		if (end == p)
			snprintf(full, sizeof(full), "./%s", prog);
		if (access(full, X_OK) == 0)
			return true;
	}
	return false;
}

static void print_adaptive(const struct ct_session *s)
{
	for (size_t i = 0; i < s->ncells; i++) {
		const struct ct_cell_outcome *c = &s->cells[i];

		printf("%sadaptive: %s %s after %u runs (95%% CI of the mean +-%.2f%%, target "
		       "+-%g%%)\n",
		       i ? "" : "\n", c->load, c->precise ? "precise" : "IMPRECISE", c->runs,
		       c->halfwidth_pct, s->opts.precision_pct);
	}
}

/* A one-config session: its config is cfg[0], which a --set knob gives a
 * label and machine facts of its own. */
static void print_header(const struct ct_session *s)
{
	printf("contend: workload %s (%s), config '%s' [%s], session %lld\n", s->opts.workload,
	       s->workload_params, s->cfg[0].label, s->cfg[0].si.fingerprint, (long long)s->rec.id);
	if (s->env.quick)
		printf("profile: quick - scaled-down kbuild tree and load sizes, for a first look; "
		       "use the full profile for comparisons\n");
	printf("\n");
}

/* The verdicts of every config against the first, per load, with the
 * paired analysis of the interleaved blocks beside the unpaired one;
 * Holm across the loads of each comparison. */
static void print_paired(const struct ct_session *s, struct ct_store *st)
{
	const struct ct_session_opts *o = &s->opts;
	char err[CT_ERRLEN];

	for (size_t k = 1; k < s->ncfg; k++) {
		struct ct_verdict v[CT_SESSION_MAX_LOADS];
		bool tps = false;

		for (size_t i = 0; i < o->nloads; i++) {
			struct cli_row_runs a = { 0 }, b = { 0 };
			size_t npair = 0;
			double *pa = NULL, *pb = NULL;

			if (cli_row_runs(st, s->cfg[0].rec.id, NULL, NULL, NULL, o->loads[i], &a,
					 err, sizeof(err)) ||
			    cli_row_runs(st, s->cfg[k].rec.id, NULL, NULL, NULL, o->loads[i], &b,
					 err, sizeof(err))) {
				cli_error("%s", err);
				cli_row_runs_free(&a);
				cli_row_runs_free(&b);
				return;
			}
			tps = tps || (a.n && ct_run_higher_better(&a.runs[0]));
			if (!o->sequential && a.n && b.n) {
				pa = calloc(a.n, sizeof(*pa));
				pb = calloc(a.n, sizeof(*pb));
				if (pa && pb)
					npair = ct_verdict_pair(a.runs, a.n, b.runs, b.n, pa, pb);
			}
			ct_verdict_tests(&v[i], a.t, a.n, b.t, b.n, pa, pb, npair, tps, 95);
			free(pa);
			free(pb);
			cli_row_runs_free(&a);
			cli_row_runs_free(&b);
		}
		if (ct_verdict_holm(v, o->nloads, 1, 95)) {
			cli_error("cannot adjust the p-values");
			return;
		}
		printf("\n%s against '%s' (%s; Holm-adjusted across %zu loads, 95%% confidence):\n",
		       tps ? "tps" : "Time", s->cfg[0].label,
		       o->sequential ? "sequential runs: unpaired tests"
				     : "interleaved blocks: the paired test decides",
		       o->nloads);
		for (size_t i = 0; i < o->nloads; i++)
			ct_verdict_print(stdout, o->loads[i], s->cfg[k].label, s->cfg[0].label,
					 &v[i]);
	}
}

/* A session of several configs (--vary): the table (or WimMark's runs for
 * oltp) of every config, the first as the reference, then the verdicts. */
static void print_configs(const struct ct_session *s, struct ct_store *st, const char *baseline)
{
	const struct ct_session_opts *o = &s->opts;
	struct ct_report_source src[CT_SESSION_MAX_CONFIGS];
	const char *ref = baseline ? baseline : s->cfg[0].label;
	struct ct_report rep;
	char err[CT_ERRLEN];

	for (size_t k = 0; k < s->ncfg; k++)
		src[k] = (struct ct_report_source){ s->cfg[k].label, s->cfg[k].rec.id };
	printf("contend: workload %s (%s), %zu configs [%s order, seed %llu], sessions %lld-%lld\n",
	       o->workload, s->workload_params, s->ncfg,
	       o->sequential ? "sequential" : "interleaved", (unsigned long long)o->order_seed,
	       (long long)s->cfg[0].rec.id, (long long)s->cfg[s->ncfg - 1].rec.id);
	if (s->env.quick)
		printf("profile: quick - scaled-down sizes, for a first look\n");
	printf("\n");
	if (!strcmp(o->workload, "oltp")) {
		if (ct_report_print_oltp(stdout, st, s->workload_params, src, s->ncfg, o->loads,
					 o->nloads, ref, !o->sequential, 95, err, sizeof(err)))
			cli_error("%s", err);
		fflush(stdout);
		return; /* its verdicts are in it */
	} else if (ct_report_build(&rep, st, o->workload, s->workload_params, src, s->ncfg,
				   o->loads, o->nloads, ref, err, sizeof(err))) {
		cli_error("%s", err);
	} else {
		ct_report_print_text(stdout, &rep);
		ct_report_release(&rep);
	}
	print_paired(s, st);
	fflush(stdout);
}

int cmd_run(int argc, char **argv)
{
	struct ct_session s;
	struct ct_oltp_opts oltp;
	struct ct_session_opts *o = &s.opts;
	struct ct_env *env = &s.env;
	struct cli_progress prog;
	struct ct_store *st = NULL;
	char err[CT_ERRLEN] = "", loadbuf[512] = "";
	const char *db = NULL, *baseline = NULL, *profile = NULL;
	bool quiet = false, loads_given = false, seed_given = false, knob_warmup_given = false;
	static struct ct_knob knobs[CT_KNOB_MAX];
	struct ct_knob_config *kconfigs = NULL;
	size_t nknobs = 0, nkconfigs = 0;
	uint64_t u;
	int c, rc, ex;

	memset(&s, 0, sizeof(s));
	memset(&oltp, 0, sizeof(oltp));
	env->oltp = &oltp;
	o->workload = "kbuild";
	o->runs = 3;
	o->delay_ns = 3000000000LL;
	o->stall_ns = 10000000000LL;
	o->warmup = true;
	o->use_cgroups = true;
	o->precision_pct = 1;
	o->max_runs = 50;
	o->knob_warmup = 1;
	env->list_dir = "/usr";
	join_argv(o->argv, sizeof(o->argv), argc, argv);

	optind = 1;
	while ((c = getopt_long(argc, argv, "+w:l:n:L:qh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'w':
			o->workload = optarg;
			break;
		case 'l':
			snprintf(loadbuf, sizeof(loadbuf), "%s", optarg);
			loads_given = true;
			break;
		case 'n':
			if (ct_parse_uint(optarg, 1, 100000, &u))
				return bad_value("runs", optarg);
			o->runs = (unsigned)u;
			break;
		case 'L':
			if (!*optarg || strlen(optarg) >= sizeof(s.label))
				return bad_value("label", optarg);
			o->label = optarg;
			break;
		case OPT_BASELINE:
			baseline = optarg;
			break;
		case OPT_DIR:
			o->dir = optarg;
			break;
		case OPT_OTHER_DIR:
			env->other_dir = optarg;
			break;
		case OPT_LIST_DIR:
			env->list_dir = optarg;
			break;
		case OPT_KEEP:
			env->keep_files = true;
			break;
		case OPT_DB:
			db = optarg;
			break;
		case OPT_DELAY:
			if (ct_parse_duration(optarg, &o->delay_ns))
				return bad_value("delay", optarg);
			break;
		case OPT_STALL:
			if (ct_parse_duration(optarg, &o->stall_ns) || !o->stall_ns)
				return bad_value("stall-timeout", optarg);
			break;
		case OPT_DROP:
			o->drop_caches = true;
			break;
		case OPT_NO_WARMUP:
			o->warmup = false;
			break;
		case OPT_SCALE:
			if (ct_parse_double(optarg, &o->wopts.scale) || o->wopts.scale > 1000)
				return bad_value("scale", optarg);
			break;
		case OPT_TREE:
			o->wopts.tree = optarg;
			break;
		case OPT_MAKE_ARGS:
			o->wopts.make_args = optarg;
			break;
		case OPT_FILE_SIZE:
			if (ct_parse_size(optarg, &env->file_size) || !env->file_size)
				return bad_value("file-size", optarg);
			break;
		case OPT_MEM_SIZE:
			if (ct_parse_size(optarg, &env->mem_size) || !env->mem_size)
				return bad_value("mem-size", optarg);
			break;
		case OPT_PROCS:
			if (ct_parse_uint(optarg, 1, 4096, &u))
				return bad_value("procs", optarg);
			env->procs = (unsigned)u;
			break;
		case OPT_DBENCH_PROCS:
			if (ct_parse_uint(optarg, 1, 1024, &u))
				return bad_value("dbench-procs", optarg);
			env->dbench_procs = (unsigned)u;
			break;
		case OPT_QUICK:
			profile = "quick";
			break;
		case OPT_PROFILE:
			if (strcmp(optarg, "quick") && strcmp(optarg, "full"))
				return bad_value("profile", optarg);
			profile = optarg;
			break;
		case OPT_NO_CGROUP:
			o->use_cgroups = false;
			break;
		case OPT_MODE:
			if (strcmp(optarg, "spin") && strcmp(optarg, "sleep") &&
			    strcmp(optarg, "fail"))
				return bad_value("selftest-mode", optarg);
			o->wopts.mode = optarg;
			break;
		case OPT_ADAPTIVE:
			o->adaptive = true;
			break;
		case OPT_PRECISION:
			if (ct_parse_double(optarg, &o->precision_pct) || o->precision_pct >= 100)
				return bad_value("precision", optarg);
			break;
		case OPT_MAX_RUNS:
			if (ct_parse_uint(optarg, 5, 100000, &u))
				return bad_value("max-runs", optarg);
			o->max_runs = (unsigned)u;
			break;
		case OPT_MAX_TIME:
			if (ct_parse_duration(optarg, &o->max_time_ns) || !o->max_time_ns)
				return bad_value("max-time", optarg);
			break;
		case OPT_DATA_SIZE:
			if (ct_parse_size(optarg, &oltp.data_size) || !oltp.data_size)
				return bad_value("data-size", optarg);
			break;
		case OPT_POOL_SIZE:
			if (ct_parse_size(optarg, &oltp.pool_size))
				return bad_value("pool-size", optarg);
			oltp.pool_set = true;
			break;
		case OPT_LOG_SIZE:
			if (ct_parse_size(optarg, &oltp.log_size) || !oltp.log_size)
				return bad_value("log-size", optarg);
			break;
		case OPT_CLIENTS:
			if (ct_parse_uint(optarg, 1, 4096, &u))
				return bad_value("clients", optarg);
			oltp.clients = (unsigned)u;
			break;
		case OPT_READS:
			if (ct_parse_uint(optarg, 1, 1000, &u))
				return bad_value("reads", optarg);
			oltp.reads = (unsigned)u;
			oltp.reads_set = true;
			break;
		case OPT_WRITES:
			if (ct_parse_uint(optarg, 0, 1000, &u))
				return bad_value("writes", optarg);
			oltp.writes = (unsigned)u;
			oltp.writes_set = true;
			break;
		case OPT_ZIPF:
			if (ct_parse_double(optarg, &oltp.zipf) || oltp.zipf >= 1)
				return bad_value("zipf", optarg);
			break;
		case OPT_DB_WRITERS:
			if (ct_parse_uint(optarg, 0, 256, &u))
				return bad_value("db-writers", optarg);
			oltp.db_writers = (unsigned)u;
			oltp.db_writers_set = true;
			break;
		case OPT_DURATION:
			if (ct_parse_duration(optarg, &oltp.duration_ns) || !oltp.duration_ns)
				return bad_value("duration", optarg);
			break;
		case OPT_RAMP_MAX:
			if (ct_parse_duration(optarg, &oltp.ramp_max_ns))
				return bad_value("ramp-max", optarg);
			oltp.ramp_set = true;
			break;
		case OPT_RATE:
			if (ct_parse_double(optarg, &oltp.rate) || !(oltp.rate > 0))
				return bad_value("rate", optarg);
			break;
		case OPT_SEED:
			if (ct_parse_uint(optarg, 0, UINT64_MAX, &u))
				return bad_value("seed", optarg);
			oltp.seed = u;
			oltp.seed_set = true;
			break;
		case OPT_BUFFERED:
			oltp.buffered = true;
			break;
		case OPT_MEM_LIMIT:
			if (ct_parse_size(optarg, &oltp.mem_limit) || oltp.mem_limit < (1u << 20))
				return bad_value("mem-limit", optarg);
			break;
		case OPT_ENGINE:
			if (!strcmp(optarg, "psync"))
				oltp.engine = CT_OLTP_PSYNC;
			else if (!strcmp(optarg, "io_uring"))
				oltp.engine = CT_OLTP_IO_URING;
			else
				return bad_value("engine", optarg);
			break;
		case OPT_SET:
		case OPT_VARY:
			if (nknobs == CT_KNOB_MAX) {
				cli_error("at most %d knobs", CT_KNOB_MAX);
				return CT_EXIT_USAGE;
			}
			if (ct_knob_parse(optarg, c == OPT_VARY, &knobs[nknobs], err,
					  sizeof(err))) {
				cli_error("%s", err);
				return CT_EXIT_USAGE;
			}
			nknobs++;
			break;
		case OPT_ORDER:
			if (strcmp(optarg, "interleaved") && strcmp(optarg, "sequential"))
				return bad_value("order", optarg);
			o->sequential = !strcmp(optarg, "sequential");
			break;
		case OPT_ORDER_SEED:
			if (ct_parse_uint(optarg, 0, UINT64_MAX, &u))
				return bad_value("order-seed", optarg);
			o->order_seed = u;
			seed_given = true;
			break;
		case OPT_KNOB_WARMUP:
			if (ct_parse_uint(optarg, 0, 100, &u))
				return bad_value("knob-warmup", optarg);
			o->knob_warmup = (unsigned)u;
			knob_warmup_given = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			run_usage(stdout);
			return 0;
		default:
			run_usage(stderr);
			return CT_EXIT_USAGE;
		}
	}
	if (optind < argc && !strcmp(argv[optind - 1], "--")) {
		o->wopts.argv = argv + optind;
	} else if (optind < argc) {
		cli_error("unexpected argument '%s' (a command goes after --)", argv[optind]);
		return CT_EXIT_USAGE;
	}
	if (!ct_workload_find(o->workload)) {
		cli_error("unknown workload '%s' (kbuild, cmd, oltp, selftest)", o->workload);
		return CT_EXIT_USAGE;
	}
	if (o->wopts.argv && strcmp(o->workload, "cmd")) {
		cli_error("a command after -- needs -w cmd");
		return CT_EXIT_USAGE;
	}
	if (!strcmp(o->workload, "cmd") && !o->wopts.argv) {
		cli_error("workload 'cmd' needs a command after --");
		return CT_EXIT_USAGE;
	}
	if (o->wopts.argv && !runnable(o->wopts.argv[0])) {
		cli_error("cannot run '%s': command not found", o->wopts.argv[0]);
		return CT_EXIT_USAGE;
	}
	if (o->wopts.make_args && !o->wopts.tree) {
		cli_error("--make-args needs --tree");
		return CT_EXIT_USAGE;
	}
	env->quick = profile && !strcmp(profile, "quick");
	if (loads_given) {
		rc = split_loads(o, loadbuf);
		if (rc)
			return rc;
	} else if (!strcmp(o->workload, "oltp")) {
		/* WimMark measured the database alone; loads on request */
		o->loads[o->nloads++] = "none";
	} else {
		for (size_t i = 0; i < CT_ARRAY_SIZE(default_loads); i++)
			o->loads[o->nloads++] = default_loads[i];
	}
	for (size_t i = 0; i < o->nloads; i++)
		if (!strcmp(o->loads[i], "io_other") && !env->other_dir) {
			cli_error("load 'io_other' needs --other-dir DIR (a directory on another "
				  "disk)");
			return CT_EXIT_USAGE;
		}

	if (nknobs) {
		/* every knob resolved and checked before anything is stored or
		 * changed: the work dir is made under --dir, on the same disk */
		rc = ct_knobs_prepare(knobs, nknobs, o->dir ? o->dir : "/var/tmp", err,
				      sizeof(err));
		if (!rc)
			rc = ct_knob_configs(knobs, nknobs, &kconfigs, &nkconfigs, err,
					     sizeof(err));
		if (rc) {
			cli_error("%s", err);
			return rc == -EPERM || rc == -EACCES ? CT_EXIT_ENV : CT_EXIT_USAGE;
		}
		if (nkconfigs > CT_SESSION_MAX_CONFIGS) {
			free(kconfigs);
			cli_error("%zu configs: at most %d in one session", nkconfigs,
				  CT_SESSION_MAX_CONFIGS);
			return CT_EXIT_USAGE;
		}
		if (o->adaptive && nkconfigs > 1) {
			free(kconfigs);
			cli_error("--adaptive runs one config; drop it or --vary");
			return CT_EXIT_USAGE;
		}
		o->knobs = knobs;
		o->nknobs = nknobs;
		o->kconfigs = kconfigs;
		o->nkconfigs = nkconfigs;
		/* oltp's own ramp-up warms it after a change */
		if (!knob_warmup_given && !strcmp(o->workload, "oltp"))
			o->knob_warmup = 0;
		if (!seed_given)
			o->order_seed = (uint64_t)ct_wall_ns() ^ ((uint64_t)getpid() << 32);
	}

	rc = ct_env_from_machine(env, err, sizeof(err));
	if (rc) {
		free(kconfigs);
		return cli_fail(rc, err);
	}
	ex = cli_open_store(db, &st);
	if (ex) {
		free(kconfigs);
		return ex;
	}
	/* knobs another contend changed and never put back come first */
	rc = cli_check_journal(st, err, sizeof(err));
	if (rc) {
		ct_store_close(st);
		free(kconfigs);
		cli_error("%s", err);
		return CT_EXIT_ENV;
	}

	cli_progress_init(&prog, quiet);
	s.on_event = cli_progress_event;
	s.ctx = &prog;
	rc = ct_session_run(&s, st, err, sizeof(err));
	cli_progress_done(&prog);

	if (s.rec.id && (!rc || rc == -EINTR) && s.ncfg > 1) {
		print_configs(&s, st, baseline);
	} else if (s.rec.id && (!rc || rc == -EINTR)) {
		const char *label = s.cfg[0].label;
		struct ct_report_source src[2] = { { label, s.rec.id } };
		size_t nsrc = 1;
		struct ct_report rep;
		char e2[CT_ERRLEN];

		if (baseline && strcmp(baseline, label)) {
			src[1] = src[0];
			src[0] = (struct ct_report_source){ baseline, 0 };
			nsrc = 2;
		}
		if (!strcmp(o->workload, "oltp")) {
			print_header(&s);
			if (ct_report_print_oltp(stdout, st, s.workload_params, src, nsrc, o->loads,
						 o->nloads, baseline, false, 95, e2, sizeof(e2)))
				cli_error("%s", e2);
			fflush(stdout);
		} else if (ct_report_build(&rep, st, o->workload, s.workload_params, src, nsrc,
					   o->loads, o->nloads, baseline ? baseline : label, e2,
					   sizeof(e2))) {
			cli_error("%s", e2);
		} else {
			print_header(&s);
			ct_report_print_text(stdout, &rep);
			print_adaptive(&s);
			fflush(stdout);
			ct_report_release(&rep);
		}
	}
	ct_store_close(st);
	free(kconfigs);
	if (rc == -EINTR) {
		if (s.rec.id)
			cli_error("%s; session %lld marked interrupted", err, (long long)s.rec.id);
		else
			cli_error("%s before the first run; nothing stored", err);
		return CT_EXIT_INTERRUPTED;
	}
	if (rc)
		return cli_fail(rc, err);
	if (prog.nfailed) {
		cli_error("%u of %u runs failed", prog.nfailed, prog.nruns);
		if (prog.nfailed == prog.nruns)
			return CT_EXIT_ENV;
	}
	return 0;
}
