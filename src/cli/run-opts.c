/*
 * The options of `contend run`, `contend calibrate` and `contend bisect`
 * as one table: each line gives the parser its name, type, range and
 * default, and --help its text, so a default or a range is written once,
 * here, and the run, the checks and the help all read it from this line.
 * The options of one workload or load are declared in its own file
 * (contend/option.h) and joined to these by run-plugins.c.
 */
#include "run.h"
#include "opts.h"
#include "contend/knob.h"
#include "contend/load.h"
#include "contend/oltp.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

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

static const struct ct_option_choice profiles[] = {
	{ "quick", RUN_PROFILE_QUICK },
	{ "full", RUN_PROFILE_FULL },
	{ NULL, 0 },
};
const struct ct_option_choice run_progress_modes[] = {
	{ "auto", CLI_PROGRESS_AUTO },
	{ "plain", CLI_PROGRESS_PLAIN },
	{ "none", CLI_PROGRESS_NONE },
	{ NULL, 0 },
};
static const struct ct_option_choice orders[] = {
	{ "interleaved", RUN_ORDER_INTERLEAVED },
	{ "sequential", RUN_ORDER_SEQUENTIAL },
	{ NULL, 0 },
};
/* not given, the order is the session's choice (CT_LOAD_ORDER_AUTO) */
static const struct ct_option_choice load_orders[] = {
	{ "rounds", CT_LOAD_ORDER_ROUNDS },
	{ "grouped", CT_LOAD_ORDER_GROUPED },
	{ NULL, 0 },
};
/* a choice stores an int: the enums it writes to are ints */
_Static_assert(sizeof(enum ct_load_order) == sizeof(int), "--load-order stores an int");

#define A      struct run_args
#define O(m)   s.opts.m
#define STR    CLI_STRING
#define NUM    CLI_NUM
#define UINT   CLI_OPT_UINT
#define DUR    CLI_OPT_DURATION
#define DBL    CLI_OPT_DOUBLE
#define OPEN   CLI_MIN_OPEN
#define NO_MAX INFINITY

/* The options of `contend run`: parser, checks and --help in one table;
 * the workloads' and loads' own follow it (run-plugins.c). */
const struct cli_opt run_base_opts[] = {
	{ .type = CLI_OPT_STRING,
	  .short_name = 'w',
	  .long_name = "workload",
	  .off = offsetof(A, workload),
	  .argh = "NAME",
	  .help = "kbuild (default), cmd (the command after --), oltp,\npgbench, latency, selftest",
	  .def = "kbuild" },
	{ .type = CLI_OPT_STRING,
	  .short_name = 'l',
	  .long_name = "loads",
	  .off = offsetof(A, loads),
	  .argh = "LIST",
	  .help = "comma-separated loads (default: none,process,io,read,\nlist,mem,dbench; oltp: "
		  "none; see: contend loads)",
	  .only = "run,calibrate" },
	{ .type = CLI_OPT_STRING,
	  .short_name = 'l',
	  .long_name = "loads",
	  .off = offsetof(A, loads),
	  .argh = "LOAD",
	  .help = "the one load every step is measured under (%D; see:\ncontend loads)",
	  .def = "none",
	  .only = "bisect" },
	CLI_CHOICE("load-order", A, O(load_order), "O",
		   "rounds (run i of every load, then run i+1, so the loads\nshare the session's "
		   "minutes; the default with one config)\nor grouped (every run of one load, then "
		   "the next; one\nload's files at a time; the default with --vary)",
		   load_orders, NULL),
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
	/* 5: the rank test needs 4 a side to decide at 95%, and one run may
	 * fail; the quick profile's 3 make a table, not a verdict */
	{ .type = UINT,
	  .short_name = 'n',
	  .long_name = "runs",
	  .off = offsetof(A, O(runs)),
	  .argh = "N",
	  .help = "runs per load (%D; %R)",
	  .min = 1,
	  .max = 100000,
	  .def = "5",
	  .quick = "3",
	  .only = "run" },
	{ .type = UINT,
	  .short_name = 'n',
	  .long_name = "runs",
	  .off = offsetof(A, O(runs)),
	  .argh = "N",
	  .help = "runs per load (%D; %R)",
	  .min = 5,
	  .max = 100000,
	  .def = "10",
	  /* K sessions of 10 runs would be long; 5 each show the spread
	   * between them */
	  .with = "sessions",
	  .with_def = "5",
	  .only = "calibrate" },
	{ .type = CLI_OPT_STRING,
	  .short_name = 'L',
	  .long_name = "label",
	  .off = offsetof(A, O(label)),
	  .argh = "LABEL",
	  .help = "config label (default: kernel release)",
	  .only = "run,calibrate" },
	{ .type = CLI_OPT_STRING,
	  .long_name = "commit",
	  .off = offsetof(A, commit),
	  .argh = "REV",
	  .help = "the commit measured, in the git repository of the\ncurrent directory "
		  "(contend history orders by it)",
	  .only = "run" },
	{ .type = CLI_OPT_STRING,
	  .long_name = "baseline",
	  .off = offsetof(A, baseline),
	  .argh = "LABEL",
	  .help = "stored config whose no-load mean is Ratio's reference",
	  .only = "run,calibrate" },
	CLI_FLAG(0, "quick", A, quick, "quick profile: scaled-down tree and load sizes"),
	CLI_CHOICE("profile", A, profile, "P", "quick or full (%D)", profiles, "full"),
	STR(0, "dir", A, O(dir), "DIR", "where the work directory is made (default /var/tmp)"),
	CLI_FLAG(0, "keep-files", A, keep, "leave the work directory behind"),
	CLI_DB(A, db),
	/* quick: the quick profile's loads are small; io's start-up work (an
	 * eighth of its file written) still comes before the go, whatever
	 * the delay */
	CLI_NUM_DEF(DUR, 0, "delay", A, O(delay_ns), "DURATION",
		    "how long the load works before the foreground\nstarts (%D)", 0, NO_MAX, 0,
		    "3s", "1s"),
	CLI_NUM_DEF(DUR, 0, "stall-timeout", A, O(stall_ns), "D",
		    "a load without progress this long fails the run\n(%D; %R)", 0, NO_MAX, OPEN,
		    "10s", NULL),
	CLI_FLAG(0, "drop-caches", A, O(drop_caches), "drop the page cache before each run (root)"),
	CLI_FLAG(0, "no-warmup", A, no_warmup, "skip the unrecorded warm-up run"),
	CLI_CALLBACK("probe", "wakeup[=D]",
		     "beside the foreground, a sleeper that records how late\nit wakes every D "
		     "(default 5ms; 20us..1s), kept with\neach run",
		     probe_opt),
	CLI_FLAG(0, "probe-rt", A, O(probe_rt),
		 "the probe runs SCHED_FIFO (root; cyclictest's -p)"),
	CLI_FLAG(0, "no-cgroup", A, no_cgroup, "do not put loads and the foreground in cgroups"),
	CLI_FLAG(0, "no-counters", A, no_counters,
		 "store no counters with the runs (contend why):\nno delay accounting, no "
		 "snapshots"),
	{ .type = CLI_OPT_FLAG,
	  .long_name = "adaptive",
	  .off = offsetof(A, O(adaptive)),
	  .help = "repeat each load until the 95% CI of its mean Time is\nwithin --precision of "
		  "the "
		  "mean (at least 5 runs; -n is\nignored), up to --max-runs (%{max-runs}) and "
		  "--max-time per load",
	  .only = "run,calibrate" },
	{ .type = DBL,
	  .long_name = "precision",
	  .off = offsetof(A, O(precision_pct)),
	  .argh = "PCT",
	  .help = "target CI half-width in % of the mean (%D;\n%R)",
	  .min = 0,
	  .max = 100,
	  .flags = CLI_MIN_OPEN | CLI_MAX_OPEN,
	  .def = "1",
	  .only = "run,calibrate" },
	{ .type = UINT,
	  .long_name = "max-runs",
	  .off = offsetof(A, O(max_runs)),
	  .argh = "N",
	  .help = "adaptive cap on runs per load (%D; %R)",
	  .min = CT_ADAPTIVE_MIN_RUNS,
	  .max = 100000,
	  .def = "50",
	  .only = "run,calibrate" },
	{ .type = UINT,
	  .long_name = "max-runs",
	  .off = offsetof(A, bisect_max),
	  .argh = "N",
	  .help = "runs a side a step may take: 5, 10, 20... until its\nanswer (%D; %R); the "
		  "regression twice that",
	  .min = 5,
	  .max = 1000,
	  .def = "40",
	  .only = "bisect" },
	{ .type = DUR,
	  .long_name = "max-time",
	  .off = offsetof(A, O(max_time_ns)),
	  .argh = "DURATION",
	  .help = "adaptive cap on time per load (default none; %R)",
	  .min = 0,
	  .max = NO_MAX,
	  .flags = OPEN,
	  .only = "run,calibrate" },
	CLI_FLAG('i', "ignore-failures", A, ignore_failures,
		 "exit 0 although some runs failed (they are still shown\nand stored; a session "
		 "in which every run failed exits 3)"),
	CLI_FLAG('q', "quiet", A, quiet, "no progress on stderr (--progress none)"),
	CLI_CHOICE("progress", A, progress, "MODE",
		   "auto (default: a line rewritten in place on a terminal),\nplain (a line per "
		   "run, for CI logs) or none",
		   run_progress_modes, "auto"),
	CLI_FORMAT_OF(A, format, cli_formats_html, CLI_FORMAT_HELP_HTML, "run"),
	CLI_OUTPUT_ONLY(A, output, "the session's report", "run"),
	{ .type = CLI_OPT_FLAG,
	  .long_name = "dry-run",
	  .off = offsetof(A, dry_run),
	  .help = "check everything and print the plan; run and store nothing\n(as root, each "
		  "knob value is set and put back to check it)",
	  .only = "run,calibrate" },
	{ .type = CLI_OPT_STRING,
	  .short_name = 'f',
	  .long_name = "file",
	  .off = offsetof(A, suite_file),
	  .argh = "FILE",
	  .help = "run the jobs of a suite file (an INI file in fio's\nconvention, its keys run's "
		  "options), each with the\noptions given beside -f; every job is checked first",
	  .only = "run" },
	{ .type = CLI_OPT_STRING,
	  .long_name = "suite",
	  .off = offsetof(A, s.opts.wopts.suite),
	  .argh = "TAG",
	  .help = "the suite job -f runs: FILE/JOB#HASH, in the parameters",
	  .flags = CLI_HIDDEN,
	  .only = "run" },
	CLI_GROUP("live knobs (root; restored at the end, or by 'contend restore' after a crash):"),
	CLI_CALLBACK("set", "KNOB=VALUE", "a setting for the whole session", knob_opt),
	{ .type = CLI_OPT_CALLBACK,
	  .long_name = "vary",
	  .argh = "KNOB=V1,V2",
	  .help = "each value a config (several: the cross product);\nlabels compose as "
		  "LABEL+KNOB=VALUE\nKNOB: iosched (the disk under --dir), iosched@DEV,\n"
		  "sysctl.NAME, or a path under /sys or /proc/sys",
	  .cb = knob_opt,
	  .only = "run,calibrate" },
	{ .type = CLI_OPT_CHOICE,
	  .long_name = "order",
	  .off = offsetof(A, order),
	  .argh = "O",
	  .help = "interleaved (default: randomized blocks, ABBA for two\nconfigs) or sequential "
		  "(all runs of one, then the next)",
	  .choices = orders,
	  .def = "interleaved",
	  .only = "run,calibrate" },
	NUM(CLI_OPT_U64, 0, "order-seed", A, O(order_seed), "N",
	    "seed of the interleaved order (default: from the clock)", 0, NO_MAX, 0),
	CLI_NUM_DEF(UINT, 0, "knob-warmup", A, O(knob_warmup), "N",
		    "unrecorded runs after each knob change (%D;\noltp: 0, its ramp-up warms it; "
		    "%R)",
		    0, 100, 0, "1", NULL),
	{ .type = CLI_OPT_FLAG,
	  .long_name = "man-options",
	  .off = offsetof(A, man_options),
	  .help = "print the man page's list of the workloads' and loads'\noptions (make man)",
	  .flags = CLI_HIDDEN,
	  .only = "run" },
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
	{ .type = CLI_OPT_DURATION,
	  .long_name = "every",
	  .off = offsetof(A, cal_every),
	  .argh = "D",
	  .help = "with --sessions: start a session every D (30s, 20m, 1h),\nso that their "
		  "spread covers comparisons as far apart as\nthe sessions span (%R); it says "
		  "how long it takes first",
	  .min = 1e9,
	  .max = 7 * 86400e9,
	  .only = "calibrate" },
	{ .type = CLI_OPT_FLAG,
	  .long_name = "show",
	  .off = offsetof(A, cal_show),
	  .help = "print this machine's spread of sessions of the workload\nand loads by the "
		  "gap between them and across reboots,\nwith the pairs behind each; run "
		  "nothing",
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
	{ .type = CLI_OPT_GROUP, .help = "bisection:", .only = "bisect" },
	{ .type = CLI_OPT_STRING,
	  .long_name = "good",
	  .off = offsetof(A, good),
	  .argh = "REV",
	  .help = "a commit without the regression",
	  .only = "bisect" },
	{ .type = CLI_OPT_STRING,
	  .long_name = "bad",
	  .off = offsetof(A, bad),
	  .argh = "REV",
	  .help = "a later commit with it (its descendant)",
	  .only = "bisect" },
	{ .type = CLI_OPT_STRING,
	  .long_name = "repo",
	  .off = offsetof(A, repo),
	  .argh = "DIR",
	  .help = "the git repository (default: the one of the current\ndirectory)",
	  .only = "bisect" },
	{ .type = CLI_OPT_STRING,
	  .long_name = "build",
	  .off = offsetof(A, build),
	  .argh = "CMD",
	  .help = "builds a candidate in its work tree, untimed, through\n/bin/sh -c; a failed "
		  "build skips the commit",
	  .only = "bisect" },
	{ .type = CLI_OPT_FLAG,
	  .long_name = "dry-run",
	  .off = offsetof(A, dry_run),
	  .help = "start: check the range, the build command and the options,\nprint the plan; "
		  "measure and store nothing",
	  .only = "bisect" },
	{ .type = CLI_OPT_DOUBLE,
	  .long_name = "confidence",
	  .off = offsetof(A, confidence),
	  .argh = "PCT",
	  .help = "confidence level of every step's verdict (%D; %R)",
	  .min = 0,
	  .max = 100,
	  .flags = CLI_MIN_OPEN | CLI_MAX_OPEN,
	  .def = "95",
	  .only = "bisect" },
	{ .type = CLI_OPT_FLAG,
	  .long_name = "step",
	  .off = offsetof(A, step),
	  .help = "kernels: one step per boot ('contend bisect step' measures\nthe running "
		  "system as the candidate, then names the next)",
	  .only = "bisect" },
	{ .type = CLI_OPT_STRING,
	  .long_name = "id",
	  .off = offsetof(A, id_cmd),
	  .argh = "CMD",
	  .help = "--step: prints what runs (default: uname -r); its output\nmust hold the "
		  "candidate's sha (7 digits at least)",
	  .only = "bisect" },
	{ .type = CLI_OPT_STRING,
	  .long_name = "next-cmd",
	  .off = offsetof(A, next_cmd),
	  .argh = "CMD",
	  .help = "--step: run CMD SHA (through /bin/sh -c, SHA in\n$CONTEND_BISECT_NEXT) with "
		  "the commit to boot next",
	  .only = "bisect" },
	{ .type = CLI_OPT_STRING,
	  .long_name = "good-label",
	  .off = offsetof(A, good_label),
	  .argh = "L",
	  .help = "judge: the stored config of the good end",
	  .only = "bisect" },
	{ .type = CLI_OPT_STRING,
	  .long_name = "bad-label",
	  .off = offsetof(A, bad_label),
	  .argh = "L",
	  .help = "judge: the stored config of the bad end",
	  .only = "bisect" },
	CLI_END,
};

#undef A
#undef O
#undef STR
#undef NUM
