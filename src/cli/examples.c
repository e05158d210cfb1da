/*
 * What each command's --help shows besides its options: the subcommands
 * of a command that has them (shell completion reads them from there),
 * and the examples that end it (hyperfine's and git's help teach by
 * example too) - three to five real command lines, each with what it
 * does. tests/cli/help.sh runs every one of them.
 */
#include "opts.h"
#include "contend/common.h"

#include <string.h>

static const struct {
	const char *cmd;
	const char *lines[6];
} examples[] = {
	{ "run",
	  { "contend run                                 # the default suite, stored, table "
	    "printed",
	    "contend run --quick -l none,io -n 5 -L before   # a short session, labelled",
	    "contend run -w cmd -l none,process -n 5 -- make -j8   # any command under load",
	    "contend run -l none,io -n 6 --vary sysctl.vm.dirty_ratio=10,40   # two settings, "
	    "interleaved",
	    "contend run --dry-run -l none,mem           # every check, nothing run" } },
	{ "calibrate",
	  { "contend calibrate -L rc3 -l none,io         # each load's noise, the least slowdown "
	    "found",
	    "contend calibrate -w cmd -n 10 -- make -j8  # the noise of any command",
	    "contend calibrate --from rc3 --effect 3     # from rc3's stored runs, nothing run" } },
	{ "compare",
	  { "contend compare before after                # per load, with verdicts",
	    "contend compare rc3 patched --fail-on-regression 5   # a CI gate: exit 1 when 5% "
	    "slower",
	    "contend compare rc3 patched --sessions latest   # the latest session of each alone",
	    "contend compare rc3 patched --format json -o cmp.json   # for a machine" } },
	{ "why",
	  { "contend why before after                    # where the time went, the counters "
	    "that moved",
	    "contend why before after --all              # every counter tested, not only those "
	    "that ranked",
	    "contend compare before after --why          # the verdicts, then why" } },
	{ "report",
	  { "contend report rc3 patched -o report.html   # one self-contained page with plots",
	    "contend report rc3 patched --format md      # Markdown, for a review",
	    "contend report --session 1 --format json    # one stored session" } },
	{ "list",
	  { "contend list                                # the stored sessions, newest first",
	    "contend list --format json                  # for a machine",
	    "contend list --db archive.db                # another store" } },
	{ "loads",
	  { "contend loads                               # the loads and their Loads column",
	    "contend run -l none,io,mem -n 5             # then: under some of them",
	    "contend run -l none,vm --load-cmd 'vm=stress-ng --vm 2'   # a load of your own" } },
	{ "profiles",
	  { "contend profiles                            # the shipped suites and their jobs",
	    "contend profiles hackbench                  # where one is, and its file",
	    "contend run -f hackbench --dry-run          # its jobs checked and planned",
	    "contend profiles --session 1                # the file session 1's job ran from" } },
	{ "sysinfo",
	  { "contend sysinfo                             # the facts a config stores",
	    "contend sysinfo --format json               # for a machine",
	    "contend sysinfo --dir /var/tmp              # the disk a run's files would use" } },
	{ "plan",
	  { "contend plan --effect 2 6.1.0 6.2.0         # sessions and runs a side for a 2% "
	    "change",
	    "contend plan --effect 5 -l none before after  # that load only",
	    "contend plan --effect 10 --confidence 99 rc3  # a surer verdict on a larger "
	    "change" } },
	{ "stats",
	  { "contend stats a.txt b.txt                   # ministat's picture and a verdict",
	    "contend stats --paired a.txt b.txt          # numbers paired line by line",
	    "contend stats --format json a.txt b.txt     # for a machine" } },
	{ "import",
	  { "contend import hyperfine hf.json -L rc3     # hyperfine --export-json results",
	    "contend import fio r1.json r2.json -L rc3   # fio's JSON runs, judged by iops",
	    "contend import fio r1.json -L rc3 --metric read_clat_p99   # by another figure" } },
	{ "push",
	  { "contend push --to archive.db                # copy the sessions into another file",
	    "contend push --to postgresql://bench01@db.lab/contend   # into a fleet's "
	    "database",
	    "contend push --from old.db --to new.db -q   # between any two stores" } },
	{ "history",
	  { "contend history -w kbuild                   # every series, its change points",
	    "contend history -w kbuild --label '6.*' --format json   # some labels, for a "
	    "machine",
	    "contend history -w kbuild -o history.html   # one page, each series plotted",
	    "contend history -w kbuild --why             # each change: the counters that "
	    "moved" } },
	{ "bisect",
	  { "contend bisect start --good v6.6 --bad v6.7 --build 'make -j8' -w cmd -- ./bench",
	    "contend bisect start --dry-run --good v6.6 --bad v6.7 -w cmd -- ./bench   # the "
	    "range and plan",
	    "contend bisect start --step --good v6.6 --bad v6.7 --next-cmd ./boot.sh   # "
	    "kernels",
	    "contend bisect status                       # the steps so far, the likeliest commits",
	    "contend bisect report -o bisect.html        # one page of the bisection" } },
	{ "fleet",
	  { "contend fleet summary --baseline rc3        # each machine against its own rc3",
	    "contend fleet summary --baseline-machine \"$(hostname)\"   # every row against "
	    "this machine",
	    "contend fleet summary --baseline rc3 --format csv   # a row per machine, label "
	    "and load",
	    "contend fleet summary --baseline rc3 --why  # and why each worse row is" } },
	{ "restore",
	  { "contend restore                             # put back knobs a killed contend left",
	    "contend restore --force                     # even those a live contend holds",
	    "contend list                                # then: the sessions it left "
	    "interrupted" } },
};

const char *const *cli_examples(const char *cmd)
{
	size_t word = strcspn(cmd, " ");

	for (size_t i = 0; i < CT_ARRAY_SIZE(examples); i++)
		if (!strcmp(examples[i].cmd, cmd))
			return examples[i].lines;
	/* a subcommand without examples of its own: its command's */
	for (size_t i = 0; cmd[word] && i < CT_ARRAY_SIZE(examples); i++)
		if (!strncmp(examples[i].cmd, cmd, word) && !examples[i].cmd[word])
			return examples[i].lines;
	return NULL;
}

static const struct cli_sub bisect_subs[] = {
	{ "start", "begin a bisection of good..bad and run it" },
	{ "resume", "go on with the bisection in progress (after a crash, ^C)" },
	{ "step", "one step of a bisection of kernels: measure this boot" },
	{ "status", "the steps so far and the likeliest first bad commits" },
	{ "log", "every step with its runs, answer and why" },
	{ "report", "one HTML page of the bisection" },
	{ "reset", "end the bisection, remove its work trees, keep its logs" },
	{ "judge", "git bisect run's judge: good, bad or skip for this commit" },
	{ NULL, NULL },
};
static const struct cli_sub history_subs[] = {
	{ "ack", "record that the change at a session was seen" },
	{ NULL, NULL },
};
static const struct cli_sub fleet_subs[] = {
	{ "summary", "each machine's newest sessions with verdicts" },
	{ NULL, NULL },
};

const struct cli_sub *cli_subcommands(const char *cmd)
{
	static const struct {
		const char *cmd;
		const struct cli_sub *subs;
	} all[] = { { "bisect", bisect_subs },
		    { "history", history_subs },
		    { "fleet", fleet_subs } };

	for (size_t i = 0; i < CT_ARRAY_SIZE(all); i++)
		if (!strcmp(all[i].cmd, cmd))
			return all[i].subs;
	return NULL;
}
