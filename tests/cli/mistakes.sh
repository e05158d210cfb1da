#!/bin/sh
# Mistakes that once passed silently (issue "an interface that never lets a
# mistake pass silently"), each now caught with one clear line and the
# documented exit code, before anything runs. The crash with --db that left
# a knob changed is tests/cli/vary.sh's (it needs a disk's scheduler).
. "$CT_TESTLIB"
plan 105

sel="-w selftest --scale 0.05 --delay 0 --no-warmup --dir $T"
# shellcheck disable=SC2086
"$CONTEND" run -q $sel -l none,null -n 3 -L a >/dev/null 2>&1
# shellcheck disable=SC2086
"$CONTEND" run -q $sel -l none,null -n 3 -L b >/dev/null 2>&1
nsess() { sql "select count(*) from sessions"; }
n0=$(nsess)
check "two configs are stored to compare" test "$n0" = 2

# a CI gate that cannot fail: a label or load that names nothing is exit 2
run compare a nosuch --fail-on-regression 5
expect_rc "compare with a label that has no runs: exit 2" 2
expect_err "naming it" "^contend: compare: no stored runs of 'nosuch' for workload selftest"
run compare a b -l nosuch
expect_rc "compare -l with an unknown load: exit 2" 2
expect_err "naming it" "unknown load 'nosuch'"
run compare a b -l io
expect_rc "compare -l with a load the baseline lacks: exit 2" 2
expect_err "naming it" "the baseline 'a' has no runs under load 'io'"
run compare nosuch a
expect_rc "an unknown baseline: exit 2" 2

# typos found before the work
run run $sel -l none -n 1 --baseline typo
expect_rc "run --baseline typo: exit 2" 2
expect_err "naming the baseline, one pointer" "^contend: run: --baseline 'typo' has no stored runs of workload selftest \\(see: contend list\\)\$"
check "nothing was run or stored" test "$(nsess)" = "$n0"

# failed runs: exit 3 unless --ignore-failures; the table shows them
cnt="$T/count"
fails="n=\$(cat $cnt 2>/dev/null || echo 0); n=\$((n+1)); echo \$n >$cnt; [ \$n != 2 ]"
run run -w cmd -l none -n 3 --delay 0 --no-warmup --dir "$T" -L f -- sh -c "$fails"
expect_rc "one run in three failed: exit 3" 3
expect_err "says so, and how to accept it" "1 of 3 runs failed \\(--ignore-failures to exit 0"
expect_out "the table shows the failed run" "^  f run 2 failed: cmd exited with status 1"
rm -f "$cnt"
run run -w cmd -l none -n 3 --delay 0 --no-warmup --dir "$T" -L f -i -- sh -c "$fails"
expect_rc "with -i (--ignore-failures): exit 0" 0
expect_out "and still shows it" "^  f run 2 failed: "
run run -w cmd -l none -n 2 --delay 0 --no-warmup --dir "$T" -L g -i -- false
expect_rc "every run failed: exit 3 even with -i" 3
n0=$(nsess)

# readers never create a store
run list --db "$T/nodir/x.db"
expect_rc "list on a mistyped --db: exit 2" 2
expect_err "no results store at the path" "^contend: no results store at '$T/nodir/x.db'\$"
check "nothing was created" test ! -e "$T/nodir"
run compare a b --db "$T/nodir/x.db"
expect_rc "compare on a mistyped --db: exit 2" 2
check "nothing was created" test ! -e "$T/nodir"

# a missing directory of a store the user names is a typo: never made
# (issue "part 18"); the default store's directory is made
run run $sel -l none -n 1 --db "$T/nodir/w.db"
expect_rc "run --db in a missing directory: exit 2" 2
expect_err "one line naming it" "^contend: cannot make results store '$T/nodir/w.db': '$T/nodir' is no directory \\(make it first\\)\$"
check "the directory was not made" test ! -e "$T/nodir"
rc=0
CONTEND_DB="$T/nodir/e.db" "$CONTEND" run $sel -l none -n 1 >"$T/out" 2>"$T/err" || rc=$?
expect_rc "CONTEND_DB in a missing directory: exit 2" 2
rc=0
env -u CONTEND_DB XDG_DATA_HOME="$T/xdg" "$CONTEND" run -q $sel -l none -n 1 >"$T/out" 2>"$T/err" || rc=$?
expect_rc "the default store: exit 0" 0
check "its directory is made" test -f "$T/xdg/contend/results.db"

# usage errors are one line, naming the option and the rule
one_line() { [ "$(wc -l <"$T/err")" = 1 ] && ok "$1: one line" || not_ok "$1: one line" "$(cat "$T/err")"; }
run run --bogus
expect_err "an unknown option" "^contend: run: unknown option '--bogus' \\(see: contend run --help\\)\$"
one_line "run --bogus"
run run -n
expect_err "a missing value" "^contend: run: --runs needs a value"
one_line "run -n"
run run --max-runs 4
expect_err "a number out of range says the rule" "^contend: run: --max-runs must be a whole number, 5 to 100000, not '4'"
run loads --db x
expect_err "loads --db: what is wrong" "^contend: loads: unknown option '--db'"
one_line "loads --db"
run sysinfo --db x
expect_err "sysinfo --db: what is wrong" "^contend: sysinfo: unknown option '--db'"
run list --dir x
expect_err "list --dir: what is wrong" "^contend: list: unknown option '--dir'"

# the help and the docs say what the program does
run run --help
cp "$T/out" "$T/help"
if grep -q '%%' "$T/out"; then not_ok "run --help prints no '%%'" "$(grep '%%' "$T/out")"; else ok "run --help prints no '%%'"; fi
expect_out "--zipf states 0 as taken" "0 <= THETA < 1"
run run --dry-run -w oltp -l none --zipf 0
expect_rc "and --zipf 0 is taken" 0
if grep -q 'io_uring' "$T/help"; then
	run run --dry-run -w oltp -l none --engine io_uring
	expect_rc "--engine io_uring: listed, and taken" 0
else
	run run --dry-run -w oltp -l none --engine io_uring
	expect_rc "--engine io_uring: not built, not listed, refused" 2
fi
run loads
expect_out "the null load is listed, as the harness self-test" "^null .*harness self-test"
run help run
expect_out "contend help run: run's help" "^usage: contend run "

# stats says which test decided, with the same JSON keys either way
printf '10.1\n10.5\n9.8\n10.9\n10.3\n10.7\n' >"$T/pa"
printf '10.4\n10.9\n10.0\n11.5\n10.2\n11.1\n' >"$T/pb"
run stats --paired "$T/pa" "$T/pb"
# 6 blocks, one of them negative: the exact signed-rank p of the logs is
# 4/64 (R: wilcox.test(log(pb), log(pa), paired = TRUE)), above 0.05
expect_out "text: the signed-rank test decided" "0\.0625 \(signed-rank, exact\).*signed-rank decides: no significant difference\$"
run stats --format json "$T/pa" "$T/pb"
keys() { grep -o '"[a-z_]*":' "$T/out" | sort -u | tr -d '\n'; }
k1=$(keys)
expect_out "JSON says which test decided" '"decided_by": "mann-whitney"'
run stats --format json --paired "$T/pa" "$T/pb"
expect_out "and with --paired" '"decided_by": "signed-rank"'
k2=$(keys)
[ "$k1" = "$k2" ] && ok "the same keys with and without --paired" || not_ok "the same keys with and without --paired" "$k1" "$k2"
printf '176.52\n181.21\n189.31\n198.59\n198.96\n204.19\n' >"$T/nopre"
printf '190.04\n195.49\n199.44\n200.14\n221.99\n263.03\n' >"$T/pre"
run stats --format json "$T/nopre" "$T/pre"
python3 -c 'import json, sys; print(json.load(sys.stdin)["datasets"][1]["outliers"])' <"$T/out" >"$T/outliers"
cp "$T/outliers" "$T/out"
expect_out "outliers give the value and its index" "^\[\{'index': 5, 'value': 263.03\}\]\$"
rc=0
"$CONTEND" stats "$T/nopre" - <"$T/pre" >"$T/out" 2>"$T/err" || rc=$?
expect_rc "stats - reads standard input" 0
expect_out "as the second dataset" "^\\+ +6 .* -\$"

# labels and small things
run run $sel -l none -n 1 -L "$(printf 'a\nb')"
expect_rc "a label with a newline: exit 2" 2
expect_err "quoted, the newline escaped" "--label must be printable text, not 'a\\\\nb'"
# labels a later command would not take back whole; none stores anything
nses=$(sql "select count(*) from sessions")
nonempty "sessions counted" "$nses"
for l in "bad label!|a space" "x y|a space" "k'1|holds '''" "a*|holds '\*'" "-x|starts with '-'" "a+iosched=none|LABEL\+NAME=VALUE"; do
	lab=${l%%|*}
	run run -w cmd -l none -n 1 --no-warmup --delay 0 -L "$lab" -- true
	[ "$rc" = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -Eq -- "label .*${l#*|}" "$T/err" &&
		ok "label '$lab' refused: one line, exit 2" || not_ok "label '$lab' refused: one line, exit 2" "exit $rc" "$(cat "$T/err")"
done
run run -w cmd -l none -n 1 --no-warmup --delay 0 --dir "$T" -L '6.1.0-rc3+' -- true
expect_rc "a kernel release's '+' is a label's" 0
[ "$(sql "select count(*) from sessions")" = $((nses + 1)) ] && ok "only that session was stored" ||
	not_ok "only that session was stored" "$(sql "select count(*) from sessions")"
# typos: the nearest command, subcommand or option
for t in "rnu|'rnu' is not a contend command; did you mean 'run'\?" \
	"run --quik|unknown option '--quik'; did you mean '--quick'\?" \
	"bisect sttus|unknown subcommand 'sttus'; did you mean 'status'\?" \
	"compare --baseine x|did you mean '--baseline'\?" \
	"run --quick=3|--quick takes no value" \
	"bisect foo|unknown subcommand 'foo' \(start, resume"; do
	run ${t%%|*}
	[ "$rc" = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -Eq -- "${t#*|}" "$T/err" &&
		ok "contend ${t%%|*}: one line, exit 2, the nearest named" || not_ok "contend ${t%%|*}: one line, exit 2, the nearest named" "exit $rc" "$(cat "$T/err")"
done
run run -w cmd -l none -n 1 -- "sleep 0.1"
expect_rc "a command with a space in its name: exit 2" 2
expect_err "with the hint that no shell is used" "no shell is used: add --shell, or write -- sh -c"
if [ "$(id -u)" = 0 ]; then
	run run --dry-run -l none --dir "$T" --vary iosched=nosuch
	expect_rc "--vary iosched=nosuch: exit 2" 2
	expect_err "names the scheduler the disk does not offer" "'nosuch' is not offered by"
else
	skip "--vary iosched=nosuch: exit 2" "changing knobs needs root"
	skip "names the scheduler the disk does not offer" "changing knobs needs root"
fi
# a run far off the others, flagged, is printed with the table's decimals
rid=$(sql "select max(r.id) from runs r join configs c on c.id = r.config_id where c.label = 'b' and r.load = 'none'")
sql "update runs set wall_ns = wall_ns * 10 where id = $rid"
run compare a b -l none
expect_out "one load: 'across 1 load'" "Holm-adjusted across 1 load, "
expect_out "a flagged run with the table's three decimals" "^none +b run 3 flagged \\(0\\.[0-9]{3} s\\)"
expect_out "and the mean without it too" "^none +b mean without flagged runs: 0\\.[0-9]{3} s \\(2 runs\\)"
# messages name the command, and bad input points to its --help (issue
# "part 18"); a corrupt store says what is wrong, not SQLite's "not an error"
printf 'SQLite format 3\000' >"$T/corrupt.db"
head -c 4096 /dev/zero | tr '\0' x >>"$T/corrupt.db"
run list --db "$T/corrupt.db"
expect_rc "a corrupt store: exit 2" 2
expect_err "it says the file is not a database" "^contend: '$T/corrupt.db' is not a contend results store: file is not a database\$"
if [ "$(id -u)" = 0 ]; then
	run run --dry-run $sel -l none --set sysctl.vm.nosuch=1
	expect_rc "an unknown sysctl: exit 2" 2
	expect_err "run: knob ... (see: ...)" "^contend: run: knob 'sysctl\.vm\.nosuch': .* \\(see: contend run --help\\)\$"
else
	skip "an unknown sysctl: exit 2" "changing knobs needs root"
	skip "run: knob ... (see: ...)" "changing knobs needs root"
fi
run run --dry-run -w latency -l none --task audoi
expect_rc "an unknown task: exit 2" 2
expect_err "run: unknown task ... (see: ...)" "^contend: run: unknown task 'audoi' .*\\(see: contend run --help\\)\$"
: >"$T/empty"
run stats "$T/empty" "$T/pa"
expect_rc "stats of an empty file: exit 2" 2
expect_err "stats: ... holds no numbers (see: ...)" "^contend: stats: '$T/empty' holds no numbers \\(see: contend stats --help\\)\$"
run run --dry-run $sel -l 'none, null' -n 1
expect_rc "-l 'none, null': blanks around a comma are taken" 0
expect_out "as the two loads" "^loads: +none null\$"
run run --dry-run $sel -l none -q --progress plain
expect_rc "-q with --progress plain: exit 2" 2
expect_err "they contradict" "^contend: run: -q \\(--quiet\\) and --progress plain contradict; give one \\(see: contend run --help\\)\$"
# --dry-run makes every check the run makes before its first run (issue
# "part 18"): each refusal of this file, a knob value only the kernel
# refuses, --target-effect without a calibration or beyond 200 runs, gets
# the run's exit code from the dry run; and --target-effect is planned as
# the run plans it
same_rc() { # same_rc DESC ARGS...: the dry run exits as the run, not 0
	d=$1
	shift
	run run --dry-run "$@"
	dry=$rc
	run run "$@"
	if [ "$dry" = "$rc" ] && [ "$rc" != 0 ]; then
		ok "$d: --dry-run and the run exit $rc"
	else
		not_ok "$d: --dry-run and the run exit alike, not 0" "dry run: $dry, run: $rc" "$(head -c 600 "$T/err")"
	fi
}
rootonly() { # rootonly DESC ARGS...: same_rc as root, else skipped
	if [ "$(id -u)" = 0 ]; then same_rc "$@"; else skip "$1" "changing knobs needs root"; fi
}
same_rc "--baseline typo" $sel -l none -n 1 --baseline typo
same_rc "an unknown option" --bogus
same_rc "a missing value" -n
same_rc "a number out of range" --max-runs 4
same_rc "a label with a newline" $sel -l none -n 1 -L "$(printf 'a\nb')"
same_rc "a command with a space" -w cmd -l none -n 1 --delay 0 --no-warmup --dir "$T" -- "sleep 0.1"
rootonly "a scheduler the disk lacks" $sel -l none -n 1 --vary iosched=nosuch
same_rc "--db in a missing directory" $sel -l none -n 1 --db "$T/nodir/w.db"
rootonly "an unknown sysctl" $sel -l none -n 1 --set sysctl.vm.nosuch=1
same_rc "an unknown task" -w latency -l none --task audoi
same_rc "-q with --progress plain" $sel -l none -n 1 -q --progress plain
if [ "$(id -u)" = 0 ]; then
	dr=$(cat /proc/sys/vm/dirty_ratio)
	same_rc "a sysctl value the kernel refuses" $sel -l none -n 1 --set sysctl.vm.dirty_ratio=abc
	check "and vm.dirty_ratio is back to $dr" test "$(cat /proc/sys/vm/dirty_ratio)" = "$dr"
else
	skip "a sysctl value the kernel refuses" "changing knobs needs root"
	skip "and vm.dirty_ratio is back" "changing knobs needs root"
fi
same_rc "--target-effect without a calibration" $sel -l none -L nocal --target-effect 50
"$CONTEND" calibrate -q $sel -l none -n 6 -L cal >/dev/null 2>&1
same_rc "--target-effect beyond 200 runs" $sel -l none -L cal --target-effect 0.001
run run --dry-run $sel -l none -L cal --target-effect 100
dplan=$(grep '^--target-effect' "$T/out")
run run -q $sel -l none -L cal --target-effect 100
rplan=$(grep '^--target-effect' "$T/out")
nonempty "the run plans --target-effect" "$rplan"
[ "$dplan" = "$rplan" ] && ok "the dry run plans it alike" || not_ok "the dry run plans it alike" "dry run: $dplan" "run: $rplan"

run sysinfo
col=$(awk '{ match($0, /: +/); print RSTART + RLENGTH }' "$T/out" | sort -u | wc -l)
check "sysinfo: every value starts in one column" test "$col" = 1
run list
expect_out "list: no profile for a session the profile sized nothing of" "^[0-9]+ .* a +selftest +- +complete"
