#!/bin/sh
# `contend run --vary` with a real knob, vda's I/O scheduler: configs run in
# interleaved blocks and are put back at the end; SIGINT mid-session puts
# them back too; after SIGKILL the next run refuses until `contend restore`
# has put them back; bad knobs are refused before anything changes. The
# scheduler is put back on any exit of this test.
. "$CT_TESTLIB"

S=/sys/block/vda/queue/scheduler
if [ "$(id -u)" != 0 ]; then
	skip_all "not root"
fi
sched() { sed 's/.*\[\(.*\)\].*/\1/' "$S"; }
orig=$(sched)
# two schedulers neither of which is the current one, so a change shows
# (which the kernel offers differs: bfq is often a module not loaded)
# shellcheck disable=SC2046
set -- $(tr -d '[]' <"$S" | tr ' ' '\n' | grep -vx "$orig")
if [ ! -w "$S" ] || [ $# -lt 2 ]; then
	skip_all "no $S offering three schedulers"
fi
plan 40

bg=
cleanup() {
	[ -n "$bg" ] && kill -9 "$bg" 2>/dev/null
	[ "$(sched)" = "$orig" ] || echo "$orig" >"$S"
	[ -z "${osw:-}" ] || echo "$osw" >/proc/sys/vm/swappiness
	rm -rf "$T"
}
trap cleanup EXIT
a=$1 b=$2

quick="-w selftest --scale 0.2 --delay 0.2s --dir $T -L k"
run run -q $quick -l none,null -n 6 --vary iosched=$a,$b --order-seed 3
expect_rc "a --vary session runs" 0
expect_out "a row per config, labels composed" "^k\+iosched=$a +6 "
expect_out "the second config's row" "^k\+iosched=$b +6 "
# 6 blocks: enough for the signed-rank test to decide
expect_out "the paired analysis beside the unpaired" "^none +k\+iosched=$b vs k\+iosched=$a: .*\(Welch\).*paired over 6 blocks: p=.* \(paired t\), .* \(signed-rank\) +Holm p=.* by signed-rank: "
check "the scheduler is back to '$orig'" test "$(sched)" = "$orig"
check "each config stored with its scheduler" test "$(sql "SELECT group_concat(i) FROM (SELECT c.iosched i FROM sessions s JOIN configs c ON c.id = s.config_id ORDER BY s.id) t")" = "$a,$b"
check "the order, its seed and the group are recorded" test "$(sql "SELECT count(*) FROM sessions WHERE run_order = 'interleaved' AND order_seed = 3 AND group_id = 1")" = 2
check "each run's block is recorded" test "$(sql "SELECT count(DISTINCT block) FROM runs WHERE block BETWEEN 1 AND 6")" = 6
# blocks: each holds one run of each config, the two in alternating order
order=$(sql "SELECT group_concat(s, '') FROM (SELECT CASE WHEN c.label LIKE '%=$a' THEN 'A' ELSE 'B' END s FROM runs r JOIN configs c ON c.id = r.config_id WHERE r.load = 'none' ORDER BY r.id) t")
check "runs alternate in ABBA blocks ($order)" sh -c "[ '$order' = ABBAABBAABBA ] || [ '$order' = BAABBAABBAAB ]"
check "the journal is empty" test "$(journal_rows)" = 0
run compare "k+iosched=$a" "k+iosched=$b"
expect_rc "compare reads the configs of the session" 0
expect_out "and pairs their runs by block again" "^null +k\+iosched=$b vs k\+iosched=$a: .*paired over 6 blocks"

run run $quick -l null -n 2 --vary iosched=$a,$b --order sequential
expect_rc "--order sequential runs" 0
expect_out "and says its tests are unpaired" "sequential runs: unpaired tests"
expect_err "once the knobs are back, one line says so with their values" "^knobs restored: iosched $orig\$"
run list
expect_out "list: the interleaved run's two sessions, as one" "^2 .* k\+iosched=$b .* interleaved 1-2$"
expect_out "list: the sequential run's, as another" "^3 .* k\+iosched=$a .* sequential 3-4$"

# SIGINT in the middle: knobs back, session interrupted
"$CONTEND" run -q -w selftest --selftest-mode sleep --scale 30 --delay 0.2s -l none -n 2 --no-warmup --dir "$T" -L int --vary iosched=$a,$b >"$T/out" 2>"$T/err" &
bg=$!
i=0
while [ "$(sched)" = "$orig" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
# both configs' sessions stored before the signal (a slow build stores the
# second later)
int_sessions() { [ "$(sql "SELECT count(*) FROM sessions s JOIN configs c ON c.id = s.config_id WHERE c.label LIKE 'int+%'")" = 2 ]; }
wait_until 20 int_sessions
sleep 1
check "the session changed the scheduler" test "$(sched)" != "$orig"
kill -INT "$bg"
rc=0
wait "$bg" || rc=$?
bg=
expect_rc "SIGINT: exit 4" 4
check "SIGINT: the scheduler is back to '$orig'" test "$(sched)" = "$orig"
check "SIGINT: the sessions are marked interrupted" test "$(sql "SELECT count(*) FROM sessions s JOIN configs c ON c.id = s.config_id WHERE c.label LIKE 'int+%' AND s.status = 'interrupted'")" = 2
expect_err "SIGINT: and it says both were" "; sessions [0-9]+, [0-9]+ marked interrupted\$"
check "SIGINT: the journal is empty" test "$(journal_rows)" = 0

# SIGKILL, with another store: nothing can restore; the machine's journal
# remembers, and a run or restore without that store still finds it
X="$T/other.db"
"$CONTEND" run -q -w selftest --selftest-mode sleep --scale 30 --delay 0.2s -l none -n 2 --dir "$T" -L kill --vary iosched=$a,$b --db "$X" >"$T/out" 2>"$T/err" &
bg=$!
i=0
while [ "$(sqlite3 "$X" "SELECT count(*) FROM runs" 2>/dev/null)" != 1 ] && [ $i -lt 100 ]; do
	sleep 0.2; i=$((i + 1))
done
sleep 1
kill -9 "$bg"
wait "$bg" 2>/dev/null
bg=
left=$(sched)
check "SIGKILL leaves the scheduler changed ($left)" test "$left" != "$orig"
check "and its original in the journal" test "$(journal_original "$S")" = "$orig"
run run -q $quick -l none -n 1
expect_rc "the next run, on the default store, refuses: exit 3" 3
expect_err "naming the knob and the way out" "iosched.*contend restore"
run restore
expect_rc "contend restore without --db restores" 0
expect_out "and says what it put back" "restored iosched .*$left -> $orig"
check "the scheduler reads back as before" test "$(sched)" = "$orig"
run run -q $quick -l none -n 1
expect_rc "then runs start again" 0

# --set: one config for the whole session; its knob joins the kernel
# release in the label, so it never shares a label with default runs, but a
# label the user chose is kept as given
sw=/proc/sys/vm/swappiness
osw=$(cat $sw)
nsw=$((osw == 7 ? 8 : 7))
setq="-w selftest --scale 0.2 --delay 0.2s --dir $T -l null -n 1 --no-warmup"
run run -q $setq --set sysctl.vm.swappiness=$nsw
expect_rc "a --set session runs" 0
expect_out "its knob joins the kernel release in the label" "^$(uname -r)\+sysctl\.vm\.swappiness=$nsw +1 "
check "the setting was in force: its config records it" test "$(sql "SELECT count(*) FROM configs WHERE label = '$(uname -r)+sysctl.vm.swappiness=$nsw' AND sysctls LIKE '%vm.swappiness=$nsw%'")" = 1
check "and vm.swappiness is back to $osw" test "$(cat $sw)" = "$osw"
run run -q $setq -L mine --set sysctl.vm.swappiness=$nsw
expect_out "a chosen label is kept as given" "^mine +1 "

# bad knobs: refused with exit 2, nothing changed, nothing stored
n=$(sql "SELECT count(*) FROM sessions")
bad=0
for k in "--vary sysctl.vm.nonexistent=1,2" "--vary /etc/passwd=x,y" "--vary iosched=nosuch,none" "--set /sys/../etc/shadow=1"; do
	run run -q $quick -l none -n 1 $k
	if [ "$rc" != 2 ] || [ ! -s "$T/err" ] || [ "$(wc -l <"$T/err")" != 1 ]; then
		bad=$((bad + 1))
		echo "# $k: exit $rc, stderr: $(cat "$T/err")"
	fi
done
check "four bad knobs refused with exit 2 and one line" test "$bad" = 0
check "nothing changed" test "$(sched)" = "$orig"
check "nothing stored" test "$(sql "SELECT count(*) FROM sessions")" = "$n"
check "no process is left behind" test -z "$(leftovers)"
