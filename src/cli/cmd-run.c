/*
 * `contend run`: the suite from the command line (its options a table,
 * checked before anything runs), the session, then the report printed from
 * what was stored - so the table a user sees right after a run is exactly
 * what `compare` will read later.
 */
#include "cli.h"
#include "opts.h"
#include "run.h"
#include "contend/knob.h"
#include "contend/load.h"
#include "contend/oltp.h"
#include "contend/report.h"
#include "contend/util.h"
#include "contend/workload.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

static const char synopsis[] = "contend run [options] [-- command...]";
static const char cal_synopsis[] = "contend calibrate [options] [-- command...]";
static const char cal_intro[] =
	"Runs the workload -n times (default 10) under each load, or reads --from a\n"
	"label's stored runs, and prints the noise floor (CoV, robust CoV, outliers,\n"
	"drift) and the smallest slowdown the verdict rule finds with 80% power at\n"
	"n = 3, 5, 10 and 20 runs a side. The calibration is stored with the config;\n"
	"'contend run --target-effect PCT' picks -n from it. Every run option applies.";

static int knob_opt(const struct cli_opt *o, void *base, const char *arg, char *err, size_t len)
{
	struct run_args *a = base;

	if (a->nknobs == CT_KNOB_MAX)
		return ct_err(err, len, -EINVAL, "at most %d knobs", CT_KNOB_MAX);
	if (ct_knob_parse(arg, !strcmp(o->long_name, "vary"), &a->knobs[a->nknobs], err, len))
		return -EINVAL;
	a->nknobs++;
	return 0;
}

static int probe_opt(const struct cli_opt *o, void *base, const char *arg, char *err, size_t len)
{
	struct run_args *a = base;
	/* 5 ms: a wakeup costs ~50 us of CPU on a VM, so 1 ms (cyclictest's
	 * default) takes over 1% of the machine from what it measures */
	int64_t ns = 5000000;

	(void)o;
	if (strncmp(arg, "wakeup", 6) || (arg[6] && arg[6] != '='))
		return ct_err(err, len, -EINVAL, "--probe: unknown probe '%s' (wakeup[=PERIOD])",
			      arg);
	if (arg[6] && (ct_parse_duration(arg + 7, &ns) || ns < 20000 || ns > 1000000000))
		return ct_err(err, len, -EINVAL,
			      "--probe: period '%s' is not a duration from 20us to 1s", arg + 7);
	a->s.opts.probe_ns = ns;
	return 0;
}

/* --load-cmd, --load-work, --load-total: kept as given, checked and
 * defined by define_load_cmds() once every option is read. */
static int load_cmd_opt(const struct cli_opt *o, void *base, const char *arg, char *err, size_t len)
{
	struct run_args *a = base;
	bool cmd = !strcmp(o->long_name, "load-cmd");
	size_t *n = cmd ? &a->nload_cmd : &a->nload_work;
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg || !eq[1])
		return ct_err(err, len, -EINVAL, "--%s %s: give NAME=%s", o->long_name, arg,
			      cmd ? "COMMAND (or NAME=@FILE)" : "REGEX");
	if (*n == CT_LOAD_MAX_CMDS)
		return ct_err(err, len, -EINVAL, "at most %d --%s", CT_LOAD_MAX_CMDS,
			      cmd ? "load-cmd" : "load-work and --load-total");
	if (cmd) {
		a->load_cmd[(*n)++] = arg;
	} else {
		a->load_total[*n] = !strcmp(o->long_name, "load-total");
		a->load_work[(*n)++] = arg;
	}
	return 0;
}

static const char *const profiles[] = { "quick", "full", NULL };
static const char *const progress_modes[] = { "auto", "plain", "none", NULL };
static const char *const orders[] = { "interleaved", "sequential", NULL };
static const char *const load_orders[] = { "rounds", "grouped", NULL };
static const char *const modes[] = { "spin", "sleep", "fail", NULL };
#ifdef CT_HAVE_URING
static const char *const engines[] = { "psync", "io_uring", NULL };
#define ENGINE_HELP "psync (default) or io_uring"
#else
static const char *const engines[] = { "psync", NULL };
#define ENGINE_HELP "psync (io_uring was not built in)"
#endif

#define A      struct run_args
#define O(m)   s.opts.m
#define E(m)   s.env.m
#define STR    CLI_STRING
#define NUM    CLI_NUM
#define UINT   CLI_OPT_UINT
#define SIZE   CLI_OPT_SIZE
#define DUR    CLI_OPT_DURATION
#define DBL    CLI_OPT_DOUBLE
#define OLTP   CT_SCOPE_OLTP
#define OPEN   CLI_MIN_OPEN
#define NO_MAX INFINITY

/* The options of `contend run`: parser, checks and --help in one table. */
static const struct cli_opt run_opts[] = {
	STR('w', "workload", A, workload, "NAME",
	    "kbuild (default), cmd (the command after --), oltp,\nlatency, selftest", 0),
	STR('l', "loads", A, loads, "LIST",
	    "comma-separated loads (default: none,process,io,read,\nlist,mem,dbench; oltp: none; "
	    "see: contend loads)",
	    0),
	CLI_CHOICE("load-order", A, load_order, "O",
		   "rounds (run i of every load, then run i+1, so the loads\nshare the session's "
		   "minutes; the default with one config)\nor grouped (every run of one load, then "
		   "the next; one\nload's files at a time; the default with --vary)",
		   load_orders, 0),
	CLI_CALLBACK("load-cmd", "NAME=COMMAND",
		     "any command as the load NAME (repeatable; name it in -l):\nits words, no "
		     "shell; NAME=@FILE: an argument per line.\nRuns in its own directory under "
		     "--dir, is killed with\nits tree after each run, fails the run if it ends",
		     load_cmd_opt),
	CLI_CALLBACK("load-work", "NAME=REGEX",
		     "NAME's work: each line of its output that matches adds\nthe number in the "
		     "first group (k, M, Ki... allowed),\nor 1 when there is no group",
		     load_cmd_opt),
	CLI_CALLBACK("load-total", "NAME=REGEX",
		     "the same, but the number is a running total: its growth\nis the work",
		     load_cmd_opt),
	{ .type = UINT,
	  .short_name = 'n',
	  .long_name = "runs",
	  .off = offsetof(A, O(runs)),
	  .argh = "N",
	  .help = "runs per load (default 5, quick 3; %R)",
	  .min = 1,
	  .max = 100000,
	  .only = "run" },
	{ .type = UINT,
	  .short_name = 'n',
	  .long_name = "runs",
	  .off = offsetof(A, O(runs)),
	  .argh = "N",
	  .help = "runs per load (default 10; %R)",
	  .min = 5,
	  .max = 100000,
	  .only = "calibrate" },
	STR('L', "label", A, O(label), "LABEL", "config label (default: kernel release)", 0),
	STR(0, "baseline", A, baseline, "LABEL",
	    "stored config whose no-load mean is Ratio's reference", 0),
	CLI_FLAG(0, "quick", A, quick, "quick profile: scaled-down tree and load sizes", 0),
	CLI_CHOICE("profile", A, profile, "P", "quick or full (default full)", profiles, 0),
	STR(0, "dir", A, O(dir), "DIR", "where the work directory is made (default /var/tmp)", 0),
	STR(0, "other-dir", A, E(other_dir), "DIR", "target of the io_other load (another disk)",
	    CT_SCOPE_OTHER_DIR),
	STR(0, "list-dir", A, E(list_dir), "DIR", "tree the list load walks (default /usr)",
	    CT_SCOPE_LIST_DIR),
	STR(0, "tar-tree", A, E(tree_dir), "DIR",
	    "tree ctar and xtar archive (default: generate one the\nsize of a kernel tree)",
	    CT_SCOPE_TAR_TREE),
	CLI_FLAG(0, "keep-files", A, keep, "leave the work directory behind", 0),
	STR(0, "db", A, db, "PATH",
	    "results store (default $CONTEND_DB or\n$XDG_DATA_HOME/contend/results.db)", 0),
	NUM(DUR, 0, "delay", A, O(delay_ns), "DURATION",
	    "how long the load works before the foreground\nstarts (default 3s, quick 1s)", 0,
	    NO_MAX, 0, 0),
	NUM(DUR, 0, "stall-timeout", A, O(stall_ns), "D",
	    "a load without progress this long fails the run\n(default 10s; %R)", 0, NO_MAX, OPEN,
	    0),
	CLI_FLAG(0, "drop-caches", A, O(drop_caches), "drop the page cache before each run (root)",
		 0),
	CLI_FLAG(0, "no-warmup", A, no_warmup, "skip the unrecorded warm-up run", 0),
	CLI_CALLBACK("probe", "wakeup[=D]",
		     "beside the foreground, a sleeper that records how late\nit wakes every D "
		     "(default 5ms; 20us..1s), kept with\neach run",
		     probe_opt),
	CLI_FLAG(0, "probe-rt", A, O(probe_rt), "the probe runs SCHED_FIFO (root; cyclictest's -p)",
		 0),
	NUM(DBL, 0, "scale", A, O(wopts.scale), "X",
	    "kbuild tree scale (1.0 = about 10-20 s on 2 CPUs),\nselftest seconds; %R", 0, 1000,
	    OPEN, CT_SCOPE_SCALE),
	STR(0, "tree", A, O(wopts.tree), "DIR",
	    "build this tree (e.g. a kernel) instead of generating", CT_SCOPE_TREE),
	STR(0, "make-args", A, O(wopts.make_args), "ARGS", "extra make arguments for --tree",
	    CT_SCOPE_TREE),
	STR(0, "prepare", A, O(wopts.prepare), "CMD",
	    "-w cmd: run CMD before each run, untimed (its words,\nno shell unless --shell)",
	    CT_SCOPE_CMD),
	STR(0, "cleanup", A, O(wopts.cleanup), "CMD", "-w cmd: run CMD after each run, untimed",
	    CT_SCOPE_CMD),
	CLI_FLAG(0, "shell", A, O(wopts.shell),
		 "-w cmd: the command, --prepare and --cleanup go\nthrough /bin/sh -c",
		 CT_SCOPE_CMD),
	NUM(SIZE, 0, "file-size", A, E(file_size), "SIZE",
	    "io/read file size (default: RAM, capped by free space;\n%R)", 0, NO_MAX, OPEN,
	    CT_SCOPE_FILE),
	NUM(SIZE, 0, "mem-size", A, E(mem_size), "SIZE",
	    "mem load size (default: from RAM and swap; %R)", 0, NO_MAX, OPEN, CT_SCOPE_MEM),
	NUM(UINT, 0, "procs", A, E(procs), "N", "process load ring size (default 4 x CPUs; %R)", 1,
	    4096, 0, CT_SCOPE_PROCS),
	NUM(UINT, 0, "dbench-procs", A, E(dbench_procs), "N",
	    "dbench load clients (default 2 x CPUs; %R)", 1, 1024, 0, CT_SCOPE_DBENCH),
	CLI_FLAG(0, "no-cgroup", A, no_cgroup, "do not put loads and the foreground in cgroups", 0),
	CLI_CHOICE("selftest-mode", A, O(wopts.mode), "M",
		   "selftest: spin (default), sleep or fail", modes, CT_SCOPE_SELFTEST),
	CLI_FLAG(0, "adaptive", A, O(adaptive),
		 "repeat each load until the 95% CI of its mean Time is\nwithin --precision of the "
		 "mean (at least 5 runs; -n is\nignored), up to --max-runs (50) and --max-time per "
		 "load",
		 0),
	NUM(DBL, 0, "precision", A, O(precision_pct), "PCT",
	    "target CI half-width in % of the mean (default 1;\n%R)", 0, 100,
	    CLI_MIN_OPEN | CLI_MAX_OPEN, 0),
	NUM(UINT, 0, "max-runs", A, O(max_runs), "N",
	    "adaptive cap on runs per load (default 50; %R)", CT_ADAPTIVE_MIN_RUNS, 100000, 0, 0),
	NUM(DUR, 0, "max-time", A, O(max_time_ns), "DURATION",
	    "adaptive cap on time per load (default none; %R)", 0, NO_MAX, OPEN, 0),
	CLI_FLAG('i', "ignore-failures", A, ignore_failures,
		 "exit 0 although some runs failed (they are still shown\nand stored; a session "
		 "in which every run failed exits 3)",
		 0),
	CLI_FLAG('q', "quiet", A, quiet, "no progress on stderr (--progress none)", 0),
	CLI_CHOICE("progress", A, progress, "MODE",
		   "auto (default: a line rewritten in place on a terminal),\nplain (a line per "
		   "run, for CI logs) or none",
		   progress_modes, 0),
	{ .type = CLI_OPT_CHOICE,
	  .long_name = "format",
	  .off = offsetof(A, format),
	  .argh = "F",
	  .help = CLI_FORMAT_HELP_HTML,
	  .choices = cli_formats_html,
	  .only = "run" },
	{ .type = CLI_OPT_STRING,
	  .short_name = 'o',
	  .long_name = "output",
	  .off = offsetof(A, output),
	  .argh = "FILE",
	  .help = "write the session's report to FILE (whole or not at all)",
	  .only = "run" },
	CLI_FLAG(0, "dry-run", A, dry_run,
		 "check everything and print the plan; run and store nothing\n(as root, each knob "
		 "value is set and put back to check it)",
		 0),
	CLI_GROUP("live knobs (root; restored at the end, or by 'contend restore' after a crash):"),
	CLI_CALLBACK("set", "KNOB=VALUE", "a setting for the whole session", knob_opt),
	CLI_CALLBACK("vary", "KNOB=V1,V2",
		     "each value a config (several: the cross product);\nlabels compose as "
		     "LABEL+KNOB=VALUE\nKNOB: iosched (the disk under --dir), iosched@DEV,\n"
		     "sysctl.NAME, or a path under /sys or /proc/sys",
		     knob_opt),
	CLI_CHOICE("order", A, order, "O",
		   "interleaved (default: randomized blocks, ABBA for two\nconfigs) or sequential "
		   "(all runs of one, then the next)",
		   orders, 0),
	NUM(CLI_OPT_U64, 0, "order-seed", A, O(order_seed), "N",
	    "seed of the interleaved order (default: from the clock)", 0, NO_MAX, 0, 0),
	NUM(UINT, 0, "knob-warmup", A, O(knob_warmup), "N",
	    "unrecorded runs after each knob change (default 1;\noltp: 0, its ramp-up warms it; "
	    "%R)",
	    0, 100, 0, 0),
	{ .type = CLI_OPT_GROUP, .help = "noise checks and planning:", .only = "run" },
	{ .type = CLI_OPT_FLAG,
	  .long_name = "aa",
	  .off = offsetof(A, aa),
	  .help = "A/A self-check: the config runs as two interleaved\nlabels, LABEL+aa=A and "
		  "LABEL+aa=B, that differ in\nnothing; says whether the verdict called a "
		  "difference",
	  .only = "run" },
	{ .type = CLI_OPT_UINT,
	  .long_name = "aa-pairs",
	  .off = offsetof(A, aa_pairs),
	  .argh = "K",
	  .help = "K A/A pairs in turn, then the rate of pairs called\ndifferent with its 95% "
		  "interval; exit 1 when it is\nsignificantly above 5% (%R)",
	  .min = 1,
	  .max = RUN_AA_PAIRS_MAX,
	  .only = "run" },
	{ .type = CLI_OPT_DOUBLE,
	  .long_name = "target-effect",
	  .off = offsetof(A, target_effect),
	  .argh = "PCT",
	  .help = "pick -n to find a PCT% slowdown with 80% power, from\nthe config's "
		  "calibration (contend calibrate; %R)",
	  .min = 0,
	  .max = 1000,
	  .flags = CLI_MIN_OPEN,
	  .only = "run" },
	{ .type = CLI_OPT_GROUP, .help = "calibration:", .only = "calibrate" },
	{ .type = CLI_OPT_STRING,
	  .long_name = "from",
	  .off = offsetof(A, from),
	  .argh = "LABEL",
	  .help = "calibrate from LABEL's stored runs (its latest session\nper load) instead "
		  "of running",
	  .only = "calibrate" },
	{ .type = CLI_OPT_UINT,
	  .long_name = "sessions",
	  .off = offsetof(A, cal_sessions),
	  .argh = "K",
	  .help = "run K sessions of the config in turn and print how far\nthey move "
		  "apart, load by load: compare weighs that\nwhen it judges one session a "
		  "side (%R)",
	  .min = 2,
	  .max = 50,
	  .only = "calibrate" },
	{ .type = CLI_OPT_DOUBLE,
	  .long_name = "effect",
	  .off = offsetof(A, effect),
	  .argh = "PCT",
	  .help = "also print the runs a side a PCT% slowdown needs (%R)",
	  .min = 0,
	  .max = 1000,
	  .flags = CLI_MIN_OPEN,
	  .only = "calibrate" },
	CLI_GROUP("oltp (workload and load):"),
	NUM(SIZE, 0, "data-size", A, oltp.data_size, "SIZE",
	    "data file (default 4GiB, quick 512MiB, load 1/4; at\nmost a quarter of the free "
	    "space; %R)",
	    1048576, NO_MAX, 0, OLTP),
	NUM(SIZE, 0, "pool-size", A, oltp.pool_size, "SIZE",
	    "engine buffer pool (default data/32; 0 = none)", 0, NO_MAX, 0, OLTP),
	NUM(SIZE, 0, "log-size", A, oltp.log_size, "SIZE",
	    "circular log file (default 64MiB, quick 16MiB; %R)", 262144, NO_MAX, 0, OLTP),
	NUM(UINT, 0, "clients", A, oltp.clients, "N",
	    "client threads (default 4 x CPUs; load: CPUs; %R)", 1, 4096, 0, OLTP),
	NUM(UINT, 0, "reads", A, oltp.reads, "N", "pages read per transaction (default 10; %R)", 1,
	    CT_OLTP_MAX_READS, 0, OLTP),
	NUM(UINT, 0, "writes", A, oltp.writes, "N", "of those, pages dirtied (default 2; %R)", 0,
	    CT_OLTP_MAX_READS, 0, OLTP),
	NUM(DBL, 0, "zipf", A, oltp.zipf, "THETA", "skewed page choice, %R (default 0: uniform)", 0,
	    1, CLI_MAX_OPEN, OLTP),
	NUM(UINT, 0, "db-writers", A, oltp.db_writers, "N",
	    "threads writing dirty pages back (default 2; %R)", 0, 256, 0, OLTP),
	NUM(DUR, 0, "duration", A, oltp.duration_ns, "D",
	    "measured time per run (default 60s, quick 30s; %R);\nlatency: each task's time "
	    "(default 10s, quick 3s)",
	    0, NO_MAX, OPEN, OLTP | CT_SCOPE_LATENCY),
	NUM(DUR, 0, "ramp-max", A, oltp.ramp_max_ns, "D",
	    "ramp-up limit (default 60s, quick 20s; 0 = none)", 0, NO_MAX, 0, OLTP),
	NUM(DBL, 0, "rate", A, oltp.rate, "TPS",
	    "open loop with Poisson arrivals (default closed loop;\n%R)", 0, NO_MAX, OPEN, OLTP),
	NUM(CLI_OPT_U64, 0, "seed", A, oltp.seed, "N", "page sequence seed (default 42)", 0, NO_MAX,
	    0, OLTP),
	CLI_FLAG(0, "buffered", A, oltp.buffered,
		 "page cache instead of O_DIRECT and an own pool, in a\nmemory-limited cgroup "
		 "(root)",
		 OLTP),
	NUM(SIZE, 0, "mem-limit", A, oltp.mem_limit, "SIZE",
	    "--buffered: the cgroup's limit (default data/32 + 16MiB;\n%R)", 1048576, NO_MAX, 0,
	    OLTP),
	CLI_CHOICE("engine", A, engine, "E", ENGINE_HELP, engines, OLTP),
	CLI_GROUP("latency (workload; --duration too):"),
	STR(0, "task", A, O(wopts.tasks), "LIST",
	    "tasks run in turn: audio (50 ms, 5%), video (60 Hz, 40%),\nx (100 ms, 0-100%), "
	    "gaming (100 ms frames, no deadline),\ncustom (--cpu, --period); default audio",
	    CT_SCOPE_LATENCY),
	NUM(DBL, 0, "cpu", A, O(wopts.task_cpu), "PCT", "custom task: its share of a CPU, %R", 0,
	    100, CLI_MIN_OPEN, CT_SCOPE_LATENCY),
	NUM(DUR, 0, "period", A, O(wopts.task_period_ns), "D", "custom task: its period, %R",
	    100000, 10000000000.0, 0, CT_SCOPE_LATENCY),
	CLI_END,
};

#undef A
#undef O
#undef E
#undef STR
#undef NUM

static int split_loads(struct run_args *a)
{
	struct ct_session_opts *o = &a->s.opts;
	char *save = NULL, *tok, q[96];

	snprintf(a->loadbuf, sizeof(a->loadbuf), "%s", a->loads);
	for (tok = strtok_r(a->loadbuf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;

		/* blanks around a comma are no part of a name: -l 'none, io' */
		tok += strspn(tok, " \t");
		for (end = tok + strlen(tok); end > tok && (end[-1] == ' ' || end[-1] == '\t');)
			*--end = '\0';
		if (!*tok)
			continue;
		if (!ct_load_find(tok)) {
			cli_error("%s: unknown load %s (see: contend loads)", a->cmd,
				  ct_quote(tok, q, sizeof(q)));
			return CT_EXIT_USAGE;
		}
		for (size_t i = 0; i < o->nloads; i++)
			if (!strcmp(o->loads[i], tok))
				return cli_usage_error(a->cmd, "load '%s' given twice", tok);
		if (o->nloads == CT_SESSION_MAX_LOADS)
			return cli_usage_error(a->cmd, "too many loads (at most %d)",
					       CT_SESSION_MAX_LOADS);
		o->loads[o->nloads++] = tok;
	}
	if (!o->nloads)
		return cli_usage_error(a->cmd, "empty load list");
	return 0;
}

/* -l, or the workload's own suite, or every default load. */
static int choose_loads(struct run_args *a, const struct ct_workload_ops *w)
{
	struct ct_session_opts *o = &a->s.opts;

	if (!a->loads && w->default_loads)
		a->loads = w->default_loads;
	if (a->loads)
		return split_loads(a);
	for (size_t i = 0; i < ct_load_count(); i++)
		if (ct_load_at(i)->flags & CT_LOAD_DEFAULT)
			o->loads[o->nloads++] = ct_load_at(i)->name;
	return 0;
}

/* Names what takes scope: "workload kbuild", "loads io, read". */
static void scope_owners(unsigned scope, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ct_workload_count() && off < len; i++)
		if (ct_workload_at(i)->opt_scope & scope)
			off += (size_t)snprintf(buf + off, len - off, "%s-w %s", off ? ", " : "",
						ct_workload_at(i)->name);
	for (size_t i = 0; i < ct_load_count() && off < len; i++)
		if (ct_load_at(i)->opt_scope & scope)
			off += (size_t)snprintf(buf + off, len - off, "%sload %s", off ? ", " : "",
						ct_load_at(i)->name);
}

/* Every option given applies to the workload or a chosen load. */
static int check_scopes(const struct run_args *a, const struct cli_parsed *p,
			const struct ct_workload_ops *w)
{
	unsigned taken = w->opt_scope;
	char who[256];

	for (size_t i = 0; i < a->s.opts.nloads; i++)
		taken |= ct_load_find(a->s.opts.loads[i])->opt_scope;
	for (size_t i = 0; run_opts[i].type != CLI_OPT_END; i++) {
		if (!p->given[i] || !run_opts[i].scope || (run_opts[i].scope & taken))
			continue;
		scope_owners(run_opts[i].scope, who, sizeof(who));
		return cli_usage_error(a->cmd, "--%s applies to %s only", run_opts[i].long_name,
				       who);
	}
	return 0;
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

/* The command line as a shell would take it back: an argument with
 * anything but [A-Za-z0-9_./:=,@%+-] in it (a space, a quote, nothing at
 * all) in single quotes, a quote inside as '\''; a password in one
 * hidden (it is stored, and printed by list and the reports). */
static void join_argv(char *buf, size_t len, int argc, char **argv)
{
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				    "0123456789_./:=,@%+-";
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < argc && off + 1 < len; i++) {
		char hidden[1024];
		const char *a = hidden;
		bool quote;

		ct_hide_secrets(argv[i], hidden, sizeof(hidden));
		quote = !*a || strspn(a, plain) != strlen(a);

		if (i)
			buf[off++] = ' ';
		if (quote && off + 1 < len)
			buf[off++] = '\'';
		for (; *a && off + 5 < len; a++) {
			if (*a == '\'' && quote) {
				memcpy(buf + off, "'\\''", 4);
				off += 4;
			} else {
				buf[off++] = *a;
			}
		}
		if (quote && off + 1 < len)
			buf[off++] = '\'';
		buf[off] = '\0';
	}
}

/* The words of a --load-cmd's COMMAND, or with @FILE the lines of FILE, an
 * argument each. *out is one malloc'd block; 0 or the exit code after one
 * line on stderr. */
static int load_cmd_words(const struct run_args *a, const char *name, const char *text, char ***out)
{
	char q[96], buf[65536], **argv;
	size_t n = 0, k = 0, nl = 0;
	ssize_t got;

	if (text[0] != '@') {
		int w = ct_split_words(text, out);

		if (w < 0)
			return cli_usage_error(a->cmd, "--load-cmd %s: %s", name,
					       w == -ENOMEM ? "out of memory"
							    : "a quote is left open");
		if (!w) {
			free(*out);
			return cli_usage_error(a->cmd, "--load-cmd %s: the command is empty", name);
		}
		return 0;
	}
	/* the last line's end is no empty argument: ct_read_file drops it */
	got = ct_read_file(text + 1, buf, sizeof(buf));
	if (got < 0)
		return cli_usage_error(a->cmd, "--load-cmd %s: cannot read %s: %s", name,
				       ct_quote(text + 1, q, sizeof(q)), strerror((int)-got));
	if ((size_t)got == sizeof(buf) - 1 || memchr(buf, '\0', (size_t)got))
		return cli_usage_error(a->cmd,
				       "--load-cmd %s: %s is not a text file of under %zu "
				       "bytes",
				       name, ct_quote(text + 1, q, sizeof(q)), sizeof(buf) - 1);
	if (!got)
		return cli_usage_error(a->cmd, "--load-cmd %s: %s is empty", name,
				       ct_quote(text + 1, q, sizeof(q)));
	for (ssize_t i = 0; i < got; i++)
		nl += buf[i] == '\n';
	argv = malloc((nl + 2) * sizeof(*argv) + (size_t)got + 1);
	if (!argv)
		return cli_usage_error(a->cmd, "out of memory");
	argv[0] = memcpy((char *)(argv + nl + 2), buf, (size_t)got);
	argv[0][got] = '\0';
	for (char *p = argv[0];; n++) {
		char *end = strchr(p, '\n');

		argv[k++] = p;
		if (end)
			*end = '\0';
		if (!*p) {
			free(argv);
			return cli_usage_error(
				a->cmd,
				"--load-cmd %s: line %zu of %s is empty (an argument "
				"per line)",
				name, n + 1, ct_quote(text + 1, q, sizeof(q)));
		}
		if (!end)
			break;
		p = end + 1;
	}
	argv[k] = NULL;
	*out = argv;
	return 0;
}

/* Defines the loads --load-cmd names, with their --load-work counters,
 * before -l is read, so NAME is a load like the built-in ones. */
static int define_load_cmds(struct run_args *a)
{
	char q[96], err[CT_ERRLEN], name[64], path[PATH_MAX];
	const char *regex[CT_LOAD_MAX_CMDS] = { 0 };
	bool total[CT_LOAD_MAX_CMDS] = { 0 };
	int ex = 0;

	for (size_t i = 0; i < a->nload_work; i++) {
		const char *eq = strchr(a->load_work[i], '=');
		size_t k, nl = (size_t)(eq - a->load_work[i]);

		for (k = 0; k < a->nload_cmd; k++)
			if (!strncmp(a->load_cmd[k], a->load_work[i], nl) &&
			    a->load_cmd[k][nl] == '=')
				break;
		if (k == a->nload_cmd)
			return cli_usage_error(a->cmd, "--load-%s %.*s: no --load-cmd %.*s=...",
					       a->load_total[i] ? "total" : "work", (int)nl,
					       a->load_work[i], (int)nl, a->load_work[i]);
		if (regex[k])
			return cli_usage_error(a->cmd, "load '%.*s' has two --load-work", (int)nl,
					       a->load_work[i]);
		regex[k] = eq + 1;
		total[k] = a->load_total[i];
	}
	for (size_t i = 0; i < a->nload_cmd && !ex; i++) {
		const char *eq = strchr(a->load_cmd[i], '=');
		char **argv = NULL;

		snprintf(name, sizeof(name), "%.*s", (int)(eq - a->load_cmd[i]), a->load_cmd[i]);
		ex = load_cmd_words(a, name, eq + 1, &argv);
		if (ex)
			break;
		if (!runnable(argv[0])) {
			ex = cli_usage_error(a->cmd,
					     "--load-cmd %s: cannot run %s: command not found",
					     name, ct_quote(argv[0], q, sizeof(q)));
		} else if (strchr(argv[0], '/') && argv[0][0] != '/') {
			/* it runs in the load's own directory */
			if (realpath(argv[0], path))
				argv[0] = path;
		}
		if (!ex && ct_load_define_cmd(name, argv, regex[i], total[i], err, sizeof(err)))
			ex = cli_usage_error(a->cmd, "--load-cmd %s: %s", name, err);
		free(argv);
	}
	return ex;
}

/* The workload, its command and the options that only make sense together. */
static int check_workload(struct run_args *a, const struct cli_parsed *p, int argc, char **argv,
			  const struct ct_workload_ops **out)
{
	struct ct_session_opts *o = &a->s.opts;
	const struct ct_workload_ops *w = ct_workload_find(a->workload);
	char q[96];

	if (!w)
		return cli_usage_error(a->cmd,
				       "unknown workload %s (kbuild, cmd, oltp, latency, selftest)",
				       ct_quote(a->workload, q, sizeof(q)));
	if (p->rest < argc && p->dashdash)
		o->wopts.argv = argv + p->rest;
	else if (p->rest < argc)
		return cli_usage_error(a->cmd, "unexpected argument %s (a command goes after --)",
				       ct_quote(argv[p->rest], q, sizeof(q)));
	if (o->wopts.argv && !(w->flags & CT_WL_ARGV))
		return cli_usage_error(a->cmd, "a command after -- needs -w cmd");
	if ((w->flags & CT_WL_ARGV) && !o->wopts.argv)
		return cli_usage_error(a->cmd, "workload '%s' needs a command after --", w->name);
	if (o->wopts.argv && !o->wopts.shell && !runnable(o->wopts.argv[0]))
		return cli_usage_error(
			a->cmd, "cannot run %s: command not found%s",
			ct_quote(o->wopts.argv[0], q, sizeof(q)),
			strchr(o->wopts.argv[0], ' ')
				? "; no shell is used: add --shell, or write -- sh -c '...'"
				: "");
	for (int i = 0; i < 2 && !o->wopts.shell; i++) {
		const char *hook = i ? o->wopts.cleanup : o->wopts.prepare;
		char **words = NULL;
		int n = hook ? ct_split_words(hook, &words) : 0;
		bool found = n <= 0 || runnable(words[0]);

		if (n > 0 && !found)
			ct_quote(words[0], q, sizeof(q));
		free(words);
		if (!found)
			return cli_usage_error(a->cmd, "--%s: cannot run %s: command not found",
					       i ? "cleanup" : "prepare", q);
	}
	if (o->wopts.make_args && !o->wopts.tree)
		return cli_usage_error(a->cmd, "--make-args needs --tree");
	if (o->probe_rt && !o->probe_ns)
		return cli_usage_error(a->cmd, "--probe-rt needs --probe wakeup");
	*out = w;
	return 0;
}

/* Every knob resolved and checked before anything is stored or changed:
 * the work dir is made under --dir, on the same disk. */
static int prepare_knobs(struct run_args *a, const struct ct_workload_ops *w,
			 const struct cli_parsed *p)
{
	struct ct_session_opts *o = &a->s.opts;
	char err[CT_ERRLEN];
	size_t n = 0;
	int rc;

	if (!a->nknobs)
		return 0;
	rc = ct_knobs_prepare(a->knobs, a->nknobs, o->dir ? o->dir : "/var/tmp", err, sizeof(err));
	if (!rc)
		rc = ct_knob_configs(a->knobs, a->nknobs, &a->kconfigs, &n, err, sizeof(err));
	if (rc == -EPERM || rc == -EACCES) {
		cli_error("%s: %s", a->cmd, err);
		return CT_EXIT_ENV;
	}
	if (rc)
		return cli_usage_error(a->cmd, "%s", err);
	if (n > CT_SESSION_MAX_CONFIGS)
		return cli_usage_error(a->cmd, "%zu configs: at most %d in one session", n,
				       CT_SESSION_MAX_CONFIGS);
	if (o->adaptive && n > 1)
		return cli_usage_error(a->cmd, "--adaptive runs one config; drop it or --vary");
	o->knobs = a->knobs;
	o->nknobs = a->nknobs;
	o->kconfigs = a->kconfigs;
	o->nkconfigs = n;
	/* a workload that warms itself up needs no warm-up after a change */
	if (!cli_given(run_opts, p, "knob-warmup") && (w->flags & CT_WL_OWN_WARMUP))
		o->knob_warmup = 0;
	if (!cli_given(run_opts, p, "order-seed"))
		o->order_seed = (uint64_t)ct_wall_ns() ^ ((uint64_t)getpid() << 32);
	return 0;
}

static void defaults(struct run_args *a)
{
	struct ct_session_opts *o = &a->s.opts;

	memset(a, 0, sizeof(*a));
	a->s.env.oltp = &a->oltp;
	a->workload = "kbuild";
	o->runs = 5;
	o->delay_ns = 3000000000LL;
	o->stall_ns = 10000000000LL;
	o->precision_pct = 1;
	o->max_runs = 50;
	o->knob_warmup = 1;
	a->s.env.list_dir = "/usr";
}

static bool any_vary(const struct run_args *a)
{
	for (size_t i = 0; i < a->nknobs; i++)
		if (a->knobs[i].vary)
			return true;
	return false;
}

/* --from reads stored runs: an option that shapes a session would be
 * silently ignored, so it is refused. */
static int check_from(const struct run_args *a, const struct cli_parsed *p)
{
	static const char *const applies[] = {
		"workload", "loads", "db", "effect", "quiet", "from"
	};

	for (size_t i = 0; run_opts[i].type != CLI_OPT_END; i++) {
		bool ok = false;

		if (!p->given[i])
			continue;
		for (size_t k = 0; k < CT_ARRAY_SIZE(applies); k++)
			ok |= !strcmp(run_opts[i].long_name, applies[k]);
		if (!ok)
			return cli_usage_error(
				a->cmd, "--from reads stored runs; --%s does not apply to them",
				run_opts[i].long_name);
	}
	if (a->nknobs)
		return cli_usage_error(a->cmd, "--from reads stored runs; knobs do not apply");
	return 0;
}

/* The options of the A/A check, --target-effect and calibrate that only
 * make sense together; --aa adds its placebo knob here. */
static int check_modes(struct run_args *a, const struct cli_parsed *p)
{
	struct ct_session_opts *o = &a->s.opts;
	bool runs_given = cli_given(run_opts, p, "runs");

	if (a->aa_pairs)
		a->aa = true;
	if (a->aa && any_vary(a))
		return cli_usage_error(a->cmd, "--aa compares a config with itself; drop --vary");
	if (a->aa && o->adaptive)
		return cli_usage_error(a->cmd, "--aa runs two configs; --adaptive runs one");
	if (a->target_effect && runs_given)
		return cli_usage_error(a->cmd,
				       "-n and --target-effect both set the runs; give one");
	if (a->target_effect && o->adaptive)
		return cli_usage_error(a->cmd, "--adaptive and --target-effect both set the runs; "
					       "give one");
	if (a->calibrate && any_vary(a))
		return cli_usage_error(a->cmd, "calibrate measures one config; drop --vary");
	if (a->calibrate && o->adaptive)
		return cli_usage_error(a->cmd, "calibrate runs -n times; drop --adaptive");
	if (a->calibrate && !runs_given)
		o->runs = a->cal_sessions ? 5 : CALIBRATE_RUNS;
	if (a->aa && o->runs < ct_stats_runs_needed(95))
		return cli_usage_error(a->cmd,
				       "--aa needs %zu runs a side for a verdict (-n; the quick "
				       "profile runs 3)",
				       ct_stats_runs_needed(95));
	if (a->aa) {
		if (a->nknobs == CT_KNOB_MAX)
			return cli_usage_error(a->cmd, "--aa needs a knob slot: at most %d --set",
					       CT_KNOB_MAX - 1);
		ct_knob_placebo(&a->knobs[a->nknobs++]);
	}
	return 0;
}

/* What the table cannot say alone: a command, loads, scopes, knobs. */
static int check_args(struct run_args *a, const struct cli_parsed *p, int argc, char **argv)
{
	struct ct_session_opts *o = &a->s.opts;
	const struct ct_workload_ops *w = NULL;
	int ex;

	/* 5: the rank test needs 4 a side to decide at 95%, and one run may
	 * fail; the quick profile's 3 make a table, not a verdict */
	a->s.env.quick = a->quick || (a->profile && !strcmp(a->profile, "quick"));
	if (!cli_given(run_opts, p, "runs"))
		o->runs = a->s.env.quick ? 3 : 5;
	/* the quick profile's loads are small: io's start-up work (an eighth
	 * of its file written) still comes before the go, whatever the delay */
	if (!cli_given(run_opts, p, "delay") && a->s.env.quick)
		o->delay_ns = 1000000000LL;
	ex = a->from ? check_from(a, p) : check_modes(a, p);
	if (!ex && a->quiet && a->progress && strcmp(a->progress, "none"))
		ex = cli_usage_error(a->cmd, "-q (--quiet) and --progress %s contradict; give one",
				     a->progress);
	if (!ex)
		ex = check_workload(a, p, argc, argv, &w);
	if (!ex && o->label && strlen(o->label) >= sizeof(a->s.label))
		ex = cli_usage_error(a->cmd, "--label is longer than %zu bytes",
				     sizeof(a->s.label) - 1);
	if (!ex)
		ex = cli_out_setup(&a->out, a->cmd, a->format, a->output, true);
	if (!ex)
		ex = define_load_cmds(a);
	if (!ex)
		ex = choose_loads(a, w);
	if (!ex)
		ex = check_scopes(a, p, w);
	/* a load --load-cmd defined (its ops carry the definition) is run */
	for (size_t i = 0; !ex && i < ct_load_count(); i++) {
		const struct ct_load_ops *ops = ct_load_at(i);
		size_t k;

		for (k = 0; ops->data && k < o->nloads && strcmp(o->loads[k], ops->name); k++)
			;
		if (ops->data && k == o->nloads)
			ex = cli_usage_error(a->cmd,
					     "load '%s' is defined by --load-cmd but not run: name "
					     "it in -l",
					     ops->name);
	}
	if (!ex)
		ex = prepare_knobs(a, w, p);
	if (ex)
		return ex;
	o->workload = w->name;
	o->warmup = !a->no_warmup;
	o->use_cgroups = !a->no_cgroup;
	o->sequential = a->order && !strcmp(a->order, "sequential");
	o->load_order = !a->load_order			   ? CT_LOAD_ORDER_AUTO
			: !strcmp(a->load_order, "rounds") ? CT_LOAD_ORDER_ROUNDS
							   : CT_LOAD_ORDER_GROUPED;
	a->s.env.keep_files = a->keep;
	a->oltp.engine =
		a->engine && !strcmp(a->engine, "io_uring") ? CT_OLTP_IO_URING : CT_OLTP_PSYNC;
	a->oltp.pool_set = cli_given(run_opts, p, "pool-size");
	a->oltp.reads_set = cli_given(run_opts, p, "reads");
	a->oltp.writes_set = cli_given(run_opts, p, "writes");
	a->oltp.db_writers_set = cli_given(run_opts, p, "db-writers");
	a->oltp.ramp_set = cli_given(run_opts, p, "ramp-max");
	a->oltp.seed_set = cli_given(run_opts, p, "seed");
	if (w->opt_scope & CT_SCOPE_LATENCY)
		o->wopts.duration_ns = a->oltp.duration_ns;
	join_argv(o->argv, sizeof(o->argv), argc, argv);
	return 0;
}

/* Why a session's runs will give no verdict, for its header: "" when they
 * can. */
static const char *too_few(const struct ct_session_opts *o)
{
	static char buf[96];
	size_t need = ct_stats_runs_needed(95);

	if (o->runs >= need || o->adaptive)
		return "";
	snprintf(buf, sizeof(buf),
		 "; its %zu runs a load make a table, too few for a verdict (-n %zu)",
		 (size_t)o->runs, need);
	return buf;
}

static void print_adaptive(FILE *f, const struct ct_session *s)
{
	for (size_t i = 0; i < s->ncells; i++) {
		const struct ct_cell_outcome *c = &s->cells[i];

		fprintf(f,
			"%sadaptive: %s %s after %u runs (95%% CI of the mean +-%.2f%%, target "
			"+-%g%%)\n",
			i ? "" : "\n", c->load, c->precise ? "precise" : "IMPRECISE", c->runs,
			c->halfwidth_pct, s->opts.precision_pct);
	}
}

/* The verdicts' heading says which test decided them: the signed-rank
 * test pairs the runs of 6 blocks or more, fewer leave it to U. */
static const char *verdict_note(const struct ct_report *rep, bool sequential)
{
	size_t paired = 0, unpaired = 0;

	if (sequential)
		return "sequential runs: unpaired tests";
	for (size_t i = 0; i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].ncells; j++) {
			const struct ct_report_cell *c = &rep->blocks[i].cells[j];

			if (!c->compared || c->cmp.decided_by == CT_TEST_NONE)
				continue;
			if (c->cmp.decided_by == CT_TEST_SIGNED_RANK)
				paired++;
			else
				unpaired++;
		}
	if (paired && unpaired)
		return "interleaved blocks: the signed-rank test decides where 6 blocks or more "
		       "paired, U elsewhere";
	if (unpaired)
		return "interleaved blocks: under the 6 paired blocks the signed-rank test needs, "
		       "so U decides";
	return "interleaved blocks: the signed-rank test decides from 6 blocks";
}

/* The report of what the session stored: one config's table (WimMark's
 * scores for a scored workload), or every config's with the verdicts of
 * each against the first. */
static int print_session(struct run_args *a, struct ct_store *st)
{
	const struct ct_session *s = &a->s;
	const struct ct_session_opts *o = &s->opts;
	const struct ct_workload_ops *w = ct_workload_find(o->workload);
	bool scored = w->flags & CT_WL_SCORED;
	struct ct_report_source src[CT_SESSION_MAX_CONFIGS + 1];
	const char *units[CT_SESSION_MAX_LOADS];
	struct ct_report_query q = {
		.workload = o->workload,
		.params = s->workload_params,
		.src = src,
		.loads = o->loads,
		.work_units = units,
		.nloads = o->nloads,
		.confidence = 95,
		.score = scored,
	};
	struct ct_report rep;
	struct cli_out *out = &a->out;
	char err[CT_ERRLEN];
	bool text = out->fmt == CT_FORMAT_TEXT;
	FILE *f;
	int rc = 0, ex;

	ex = cli_out_open(out, a->cmd);
	if (ex)
		return ex;
	f = out->f;
	for (size_t i = 0; i < o->nloads; i++)
		units[i] = ct_load_find(o->loads[i])->work_unit;
	if (s->ncfg > 1) {
		for (size_t k = 0; k < s->ncfg; k++)
			src[q.nsrc++] =
				(struct ct_report_source){ s->cfg[k].label, s->cfg[k].rec.id };
		q.ref_label = a->baseline;
		q.base_label = scored && a->baseline ? a->baseline : s->cfg[0].label;
		q.score_label = q.base_label;
		if (text)
			fprintf(f,
				"contend: workload %s (%s), %zu configs [%s order, seed %llu], "
				"sessions "
				"%lld-%lld\n",
				o->workload, s->workload_params, s->ncfg,
				o->sequential ? "sequential" : "interleaved",
				(unsigned long long)o->order_seed, (long long)s->cfg[0].rec.id,
				(long long)s->cfg[s->ncfg - 1].rec.id);
		if (s->env.quick && text)
			fprintf(f, "profile: quick - scaled-down sizes, for a first look%s\n",
				too_few(o));
	} else {
		if (a->baseline && strcmp(a->baseline, s->cfg[0].label))
			src[q.nsrc++] = (struct ct_report_source){ a->baseline, 0 };
		src[q.nsrc++] = (struct ct_report_source){ s->cfg[0].label, s->rec.id };
		q.base_label = a->baseline;
		q.ref_label = a->baseline ? a->baseline : s->cfg[0].label;
		q.score_label = a->baseline;
		/* one config's session: its config is cfg[0], which a --set knob
		 * gives a label and machine facts of its own */
		if (text)
			fprintf(f, "contend: workload %s (%s), config '%s' [%s], session %lld\n",
				o->workload, s->workload_params, s->cfg[0].label,
				s->cfg[0].si.fingerprint, (long long)s->rec.id);
		if (s->env.quick && text)
			fprintf(f,
				"profile: quick - scaled-down %s sizes, for a first look; use the "
				"full profile for comparisons%s\n",
				w->opt_scope & CT_SCOPE_TREE ? "kbuild tree and load" : "load",
				too_few(o));
	}
	if (text)
		fprintf(f, "\n");
	if (ct_report_build(&rep, st, &q, err, sizeof(err))) {
		cli_out_close(out, a->cmd, false);
		cli_error("%s", err);
		return CT_EXIT_ENV;
	}
	if (!text)
		rc = cli_out_report(out, &rep, a->cmd);
	else if (scored)
		ct_report_print_oltp(f, &rep);
	else if (!strcmp(rep.figure_key, CT_METRIC_LATENCY))
		ct_report_print_latency(f, &rep);
	else if (strcmp(rep.figure_key, "time_s"))
		ct_report_print_figures(f, &rep);
	else
		ct_report_print_table(f, &rep);
	if (text && !scored && s->ncfg > 1)
		ct_report_print_verdicts(f, &rep, verdict_note(&rep, o->sequential));
	if (text && !scored && s->ncfg == 1)
		print_adaptive(f, s);
	ct_report_release(&rep);
	ex = cli_out_close(out, a->cmd, !rc);
	if (!ex && rc)
		ex = cli_fail(rc, "cannot print the report");
	return ex;
}

/* A --baseline names a config with stored runs of the workload: a typo
 * found now, not after the whole session. */
static int check_baseline(const struct run_args *a, struct ct_store *st)
{
	struct ct_run_filter f = { .label = a->baseline, .workload = a->s.opts.workload };
	struct ct_run *runs = NULL;
	char err[CT_ERRLEN];
	size_t n = 0;

	if (!a->baseline)
		return 0;
	if (ct_store_runs(st, &f, &runs, &n, err, sizeof(err)))
		return cli_fail(-EIO, err);
	free(runs);
	if (!n) {
		cli_error(
			"%s: --baseline '%s' has no stored runs of workload %s (see: contend list)",
			a->cmd, a->baseline, a->s.opts.workload);
		return CT_EXIT_USAGE;
	}
	return 0;
}

/* The store and the machine's knob journal: knobs a contend left
 * changed (with any store) come first. */
static int open_stores(struct run_args *a, struct ct_store **st, struct ct_journal *j)
{
	char err[CT_ERRLEN];
	int ex, rc;

	ex = cli_open_store(a->db, st);
	if (ex)
		return ex;
	ex = check_baseline(a, *st);
	if (ex) {
		ct_store_close(*st);
		*st = NULL;
		return ex;
	}
	rc = cli_open_journal(j, *st, err, sizeof(err));
	if (!rc)
		rc = ct_journal_check(j, err, sizeof(err));
	if (rc) {
		ct_store_close(*st);
		*st = NULL;
		cli_error("%s", err);
		return CT_EXIT_ENV;
	}
	a->s.opts.journal = j;
	return 0;
}

static int finish(struct run_args *a, int rc, const char *err, const struct cli_progress *prog)
{
	const struct ct_session *s = &a->s;

	if (rc == -EINTR) {
		char ids[256] = "";
		size_t off = 0, n = 0;

		/* every config's session of a --vary run was marked */
		for (size_t k = 0; k < s->ncfg && off < sizeof(ids); k++)
			if (s->cfg[k].rec.id && ++n)
				off += (size_t)snprintf(ids + off, sizeof(ids) - off, "%s%lld",
							off ? ", " : "",
							(long long)s->cfg[k].rec.id);
		if (!n && s->rec.id && ++n)
			snprintf(ids, sizeof(ids), "%lld", (long long)s->rec.id);
		if (n)
			cli_error("%s; session%s %s marked interrupted", err, n == 1 ? "" : "s",
				  ids);
		else
			cli_error("%s before the first run; nothing stored", err);
		return CT_EXIT_INTERRUPTED;
	}
	if (rc)
		return cli_fail(rc, err);
	if (prog->nfailed) {
		cli_error("%u of %u runs failed%s", prog->nfailed, prog->nruns,
			  a->ignore_failures || prog->nfailed == prog->nruns
				  ? ""
				  : " (--ignore-failures to exit 0 all the same)");
		if (prog->nfailed == prog->nruns || !a->ignore_failures)
			return CT_EXIT_ENV;
	}
	return 0;
}

/* A store path the user gave is opened without making its directory: a
 * dry run refuses a missing one as the run will. */
static int dry_store_dir(const struct run_args *a, const char *db)
{
	const char *env = getenv("CONTEND_DB");
	char copy[4096], *dir;
	struct stat sb;

	if (strcmp(ct_store_backend(db), "sqlite") || !access(db, F_OK) ||
	    (!a->db && !(env && *env)))
		return 0;
	snprintf(copy, sizeof(copy), "%s", db);
	dir = dirname(copy);
	if (!stat(dir, &sb) && S_ISDIR(sb.st_mode))
		return 0;
	cli_error("cannot make results store '%s': '%s' is no directory (make it first)", db, dir);
	return CT_EXIT_USAGE;
}

/* The knobs' values, checked by the kernel: as root, each config's values
 * are written and put back at once, through the journal (a contend killed
 * in between leaves them to `contend restore`), with the signals that end
 * a run held until they are back. */
static int dry_knobs(struct run_args *a, struct ct_journal *j)
{
	const struct ct_session_opts *o = &a->s.opts;
	char err[CT_ERRLEN] = "", e2[CT_ERRLEN];
	sigset_t hold, old;
	int rc, r2;

	if (!o->nkconfigs || geteuid() != 0)
		return 0;
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigaddset(&hold, SIGQUIT);
	sigprocmask(SIG_BLOCK, &hold, &old);
	rc = ct_journal_record(j, o->knobs, o->nknobs, err, sizeof(err));
	for (size_t k = 0; !rc && k < o->nkconfigs; k++)
		rc = ct_knob_apply_config(&o->kconfigs[k], err, sizeof(err));
	r2 = ct_journal_restore_session(j, o->knobs, o->nknobs, e2, sizeof(e2));
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (r2) {
		cli_error("%s: %s; run 'contend restore'", a->cmd, e2);
		return CT_EXIT_ENV;
	}
	return rc ? cli_fail(rc, err) : 0;
}

/* The workload's parameters as the session will store them: its describe
 * op, else the workload prepared in a directory of its own under --dir,
 * then removed. */
static int dry_params(const struct run_args *a, char *params, size_t plen, char *err, size_t len)
{
	const struct ct_workload_ops *ops = ct_workload_find(a->s.opts.workload);
	const char *parent = a->s.opts.dir ? a->s.opts.dir : "/var/tmp";
	static struct ct_env env;
	struct ct_workload w;
	int rc;

	if (ops->describe)
		return ops->describe(&a->s.env, &a->s.opts.wopts, parent, params, plen, err, len);
	env = a->s.env;
	if ((size_t)snprintf(env.dir, sizeof(env.dir), "%s/contend.XXXXXX", parent) >=
	    sizeof(env.dir))
		return ct_err(err, len, -ENAMETOOLONG, "work directory path too long");
	if (!mkdtemp(env.dir))
		return ct_err(err, len, -errno, "cannot make a work directory in '%s': %s", parent,
			      strerror(errno));
	rc = ct_workload_init(&w, ops, &env, &a->s.opts.wopts, err, len);
	if (!rc) {
		snprintf(params, plen, "%s", w.params);
		ct_workload_release(&w);
	}
	(void)ct_rm_rf(env.dir);
	return rc;
}

/* --target-effect: the session's plan, made as the session makes it - the
 * same check, the labels it composes, the workload's parameters, the same
 * calibrations (none when no store is there yet). */
static int dry_target(struct run_args *a, struct ct_store *st)
{
	static struct ct_session s;
	const struct ct_session_opts *o = &a->s.opts;
	struct ct_store *mem = NULL;
	char err[CT_ERRLEN] = "", suffix[sizeof(s.label)];
	struct utsname u;
	int rc = 0, ex;

	if (!st) {
		rc = ct_store_open(&mem, ":memory:", CT_STORE_CREATE, err, sizeof(err));
		if (rc)
			return cli_fail(rc, err);
		st = mem;
	}
	ex = target_check(a, st);
	s = a->s;
	snprintf(s.label, sizeof(s.label), "%s",
		 o->label ? o->label : (uname(&u) ? "" : u.release));
	snprintf(s.cfg[0].label, sizeof(s.cfg[0].label), "%s", s.label);
	if (!ex && o->nkconfigs) {
		rc = ct_knob_label(&o->kconfigs[0], o->label != NULL, suffix, sizeof(suffix));
		if (!rc && *suffix &&
		    (size_t)snprintf(s.cfg[0].label, sizeof(s.cfg[0].label), "%s+%s", s.label,
				     suffix) >= sizeof(s.cfg[0].label))
			rc = ct_err(err, sizeof(err), -ENAMETOOLONG, "label '%s+%s' is too long",
				    s.label, suffix);
		if (rc)
			ex = cli_fail(rc, err);
	}
	if (!ex && !rc)
		rc = dry_params(a, s.workload_params, sizeof(s.workload_params), err, sizeof(err));
	a->st = st;
	if (!ex && !rc)
		rc = target_plan(a, &s, err, sizeof(err));
	a->st = NULL;
	if (!ex && rc)
		ex = cli_fail(rc, err);
	a->s.opts.runs = s.opts.runs;
	ct_store_close(mem);
	return ex;
}

/* What the dry run says of the session it checked. */
static void dry_plan(const struct run_args *a, const char *db)
{
	const struct ct_session_opts *o = &a->s.opts;
	unsigned per = o->adaptive ? o->max_runs : o->runs;
	char label[256];

	printf("contend %s: dry run - checked; %s\n", a->cmd,
	       o->nkconfigs && geteuid() == 0
		       ? "nothing is run or stored; each knob value was set and put back"
		       : "nothing is run, stored or changed");
	printf("workload:  %s%s\n", o->workload, a->s.env.quick ? " (quick profile)" : "");
	printf("loads:    ");
	for (size_t i = 0; i < o->nloads; i++)
		printf(" %s", o->loads[i]);
	printf("\nconfigs:   %zu", o->nkconfigs ? o->nkconfigs : 1);
	for (size_t k = 0; k < o->nkconfigs; k++)
		if (!ct_knob_label(&o->kconfigs[k], false, label, sizeof(label)))
			printf("%s%s", k ? ", " : " (", label);
	printf("%s\n", o->nkconfigs ? (o->sequential ? "; sequential)" : "; interleaved)") : "");
	printf("runs:      %s%u per load and config, %zu in all%s\n", o->adaptive ? "up to " : "",
	       per, (size_t)per * o->nloads * (o->nkconfigs ? o->nkconfigs : 1),
	       o->warmup ? ", after an unrecorded warm-up" : "");
	if (a->cal_sessions)
		printf("sessions:  %u in turn, each stored whole; %zu runs in all\n",
		       a->cal_sessions, (size_t)per * o->nloads * a->cal_sessions);
	if (o->nloads > 1)
		printf("order:     %s\n",
		       ct_session_in_rounds(o, o->nkconfigs)
			       ? "the loads in rounds (run i of each, then run i+1)"
			       : "load by load (every run of one, then the next)");
	printf("store:     %s%s\n", db, access(db, F_OK) ? " (to be made)" : "");
}

/* --dry-run: every check the session makes before its first run - the
 * store, --baseline, the knob journal, the knobs' values, the plan of
 * --target-effect - so that a dry run that says "checked" is followed by
 * a run that starts; the store is only read, nothing is made. */
static int dry_run(struct run_args *a)
{
	struct ct_store *st = NULL;
	struct ct_journal j;
	char err[CT_ERRLEN], db[4096] = "";
	int ex, rc;

	if (a->db)
		snprintf(db, sizeof(db), "%s", a->db);
	else if (ct_store_default_path(db, sizeof(db)))
		db[0] = '\0';
	/* a file that is not there, or a database without contend's tables,
	 * is no store yet: a run would make it */
	ex = dry_store_dir(a, db);
	if (ex)
		return ex;
	if (!strcmp(ct_store_backend(db), "sqlite")) {
		ex = access(db, F_OK) ? 0 : cli_read_store(a->db, &st);
	} else {
		rc = ct_store_open(&st, db, 0, err, sizeof(err));
		ex = rc && rc != -ENOENT ? cli_fail(rc, err) : 0;
	}
	if (!ex && a->baseline)
		ex = st ? check_baseline(a, st)
			: cli_usage_error(a->cmd, "--baseline '%s': no results store at '%s'",
					  a->baseline, db);
	rc = ex ? 0 : ct_journal_init(&j, NULL, err, sizeof(err));
	if (!ex && !rc)
		rc = ct_journal_check(&j, err, sizeof(err));
	if (!ex && rc) {
		cli_error("%s", err);
		ex = CT_EXIT_ENV;
	}
	if (!ex)
		ex = dry_knobs(a, &j);
	if (!ex && a->target_effect)
		ex = dry_target(a, st);
	ct_store_close(st);
	if (!ex)
		dry_plan(a, db);
	return ex;
}

/* A new session of the same options, for the next A/A pair: what the last
 * one filled in goes. */
static void reset_session(struct ct_session *s)
{
	struct ct_session_opts o = s->opts;
	struct ct_env e = s->env;
	ct_event_fn fn = s->on_event;
	void *ctx = s->ctx;

	memset(s, 0, sizeof(*s));
	s->opts = o;
	s->env = e;
	s->env.dir[0] = '\0';
	s->on_event = fn;
	s->ctx = ctx;
}

/* --aa-pairs K: K sessions, each an A/A pair in its own interleaved order;
 * the first session's report in full when K is 1, a line a pair else. */
static int run_pairs(struct run_args *a, struct ct_store *st, struct cli_progress *prog, int *ex,
		     char *err, size_t len)
{
	unsigned k = a->aa_pairs ? a->aa_pairs : 1;
	uint64_t seed = a->s.opts.order_seed;
	struct aa_tally t = { 0 };
	int rc = 0;

	*ex = 0;
	for (unsigned i = 0; i < k && !rc && !*ex; i++) {
		if (i)
			reset_session(&a->s);
		a->s.opts.order_seed = seed + i;
		rc = ct_session_run(&a->s, st, err, len);
		cli_progress_done(prog);
		if (a->s.rec.id && (!rc || rc == -EINTR) && k == 1)
			*ex = print_session(a, st);
		if (!rc)
			*ex = aa_pair(a, st, &t);
	}
	if (!rc && !*ex)
		*ex = aa_summary(a, &t);
	return rc;
}

/* calibrate --sessions K: K sessions of the config in turn, each stored
 * whole, then the spread between them. */
static int run_spread(struct run_args *a, struct ct_store *st, struct cli_progress *prog, int *ex,
		      char *err, size_t len)
{
	int64_t ids[50];
	size_t k = 0;
	int rc = 0;

	*ex = 0;
	for (unsigned i = 0; i < a->cal_sessions && !rc; i++) {
		if (i)
			reset_session(&a->s);
		rc = ct_session_run(&a->s, st, err, len);
		cli_progress_done(prog);
		if (!rc) {
			ids[k++] = a->s.rec.id;
			if (!a->quiet)
				fprintf(stderr, "calibrate: session %u of %u stored (%lld)\n",
					i + 1, a->cal_sessions, (long long)a->s.rec.id);
		}
	}
	if (!rc)
		*ex = calibrate_spread(a, st, ids, k);
	return rc;
}

/* run and calibrate: parse, check, open, run the session(s), report. */
static int run_main(struct run_args *a, int argc, char **argv)
{
	struct cli_progress prog;
	struct ct_store *st = NULL;
	struct ct_journal j;
	struct cli_parsed p;
	char err[CT_ERRLEN] = "";
	int rc, ex;

	ex = cli_parse_in_order(a->cmd, a->calibrate ? cal_synopsis : synopsis,
				a->calibrate ? cal_intro : NULL, run_opts, a, argc, argv, &p);
	if (!ex)
		ex = check_args(a, &p, argc, argv);
	if (!ex && a->from) {
		ex = cli_read_store(a->db, &st);
		if (!ex)
			ex = calibrate_from(a, st);
		ct_store_close(st);
		return ex;
	}
	if (!ex) {
		rc = ct_env_from_machine(&a->s.env, err, sizeof(err));
		if (!rc)
			rc = ct_session_check(&a->s, err, sizeof(err));
		ex = rc ? cli_cmd_fail(a->cmd, rc, err) : 0;
	}
	if (!ex && a->dry_run) {
		ex = dry_run(a);
		free(a->kconfigs);
		return ex;
	}
	if (!ex)
		ex = open_stores(a, &st, &j);
	a->st = st;
	if (!ex && a->target_effect) {
		ex = target_check(a, st);
		a->s.opts.plan = target_plan;
		a->s.opts.plan_ctx = a;
	}
	if (ex) {
		ct_store_close(st);
		free(a->kconfigs);
		return ex == 1 ? 0 : ex;
	}
	cli_progress_init(&prog, a->quiet ? "none" : a->progress);
	a->s.on_event = cli_progress_event;
	a->s.ctx = &prog;
	if (a->aa) {
		rc = run_pairs(a, st, &prog, &ex, err, sizeof(err));
	} else if (a->cal_sessions) {
		rc = run_spread(a, st, &prog, &ex, err, sizeof(err));
	} else {
		rc = ct_session_run(&a->s, st, err, sizeof(err));
		cli_progress_done(&prog);
		if (a->s.rec.id && (!rc || rc == -EINTR))
			ex = print_session(a, st);
		if (!rc && !ex && a->calibrate)
			ex = calibrate_session(a, st);
	}
	ct_store_close(st);
	free(a->kconfigs);
	rc = finish(a, rc, err, &prog);
	return rc ? rc : ex;
}

int cmd_run(int argc, char **argv)
{
	static struct run_args a;
	int ex;

	defaults(&a);
	a.cmd = "run";
	ex = run_main(&a, argc, argv);
	ct_load_forget_cmds();
	return ex;
}

int cmd_calibrate(int argc, char **argv)
{
	static struct run_args a;
	int ex;

	defaults(&a);
	a.cmd = "calibrate";
	a.calibrate = true;
	ex = run_main(&a, argc, argv);
	ct_load_forget_cmds();
	return ex;
}
