#!/bin/sh
# calibrate, run --target-effect and run --aa on the selftest workload in
# sleep mode, whose spread is known: a sleep of 0.05 s and the cost of a
# fork, a few percent at most. What is checked is what that spread fixes -
# a doubling is found with the rule's least n, a 0.001% change never - and
# what the store and the messages must say, not times.
. "$CT_TESTLIB"
plan 94

sel="-w selftest --selftest-mode sleep --scale 0.05 --delay 0 --no-warmup --dir $T"

run calibrate -q $sel -l none,null -n 6 -L k --effect 100
expect_rc "calibrate runs and exits 0" 0
expect_out "a noise row per load, with its runs" "^none +6 +0\.0[0-9]+ +[0-9.]+% +[0-9.]+% +[0-9]+ +[-+][0-9.]+% \([0-9.e-]+\)\$"
expect_out "the null load's row" "^null +6 "
expect_out "the smallest effects at n = 3, 5, 10, 20" "^load +n=3 +n=5 +n=10 +n=20"
expect_out "n = 3 can find nothing: 4 a side are needed" "^none +- +[0-9.]+% +[0-9.]+% +[0-9.]+%"
# the smallest effect shrinks as the runs grow
mde=$(awk '$1 == "none" && $2 == "-" { gsub("%", ""); print $3, $4, $5 }' "$T/out")
check "more runs find smaller effects ($mde)" awk -v m="$mde" 'BEGIN { split(m, a, " "); exit !(a[1] >= a[2] && a[2] >= a[3] && a[3] > 0) }'
expect_out "a doubling needs the rule's least runs, 4 a side" "^for a 100% slowdown: none 4 runs a side, null 4 runs a side\$"
expect_out "where it is stored, and what reads it" "^stored as calibrations 1-2 of 'k'; contend run -L 'k' --target-effect PCT"
check "two calibrations stored with the config" test "$(sql "SELECT count(*) FROM calibrations k JOIN configs c ON c.id = k.config_id WHERE c.label = 'k' AND k.workload = 'selftest' AND k.workload_params = 'mode=sleep seconds=0.05'")" = 2
check "each with its 6 runs" test "$(sql "SELECT group_concat(json_array_length(runs)) FROM calibrations")" = "6,6"
# the stored values are the runs' own times, in run order
first=$(sql "SELECT json_extract(runs, '\$[0]') * 1e9 - (SELECT wall_ns FROM runs WHERE load = 'none' ORDER BY id LIMIT 1) FROM calibrations WHERE load = 'none'")
check "the first stored value is the first run's time ($first ns off)" awk -v d="$first" 'BEGIN { exit !(d < 1 && d > -1) }'
sessions=$(sql "SELECT count(*) FROM sessions")

run calibrate --from k -w selftest -l none
expect_rc "--from reads the stored runs" 0
expect_out "the same rows from them" "^none +6 "
check "and stores another calibration of the same session" test "$(sql "SELECT count(*) FROM calibrations WHERE load = 'none' AND session_id = 1")" = 2
check "--from runs nothing" test "$(sql "SELECT count(*) FROM sessions")" = "$sessions"
run calibrate --from k -w selftest
expect_out "--from without -l takes every load the label ran" "^null +6 "

run run -q $sel -l none,null -L k --target-effect 100
expect_rc "run --target-effect picks -n from the calibration" 0
expect_out "and says what it picked" "^--target-effect 100%: 4 runs a load for 80% power \(none 4, calibration [0-9]+; null 4, calibration [0-9]+\)\$"
check "4 runs a load stored" test "$(sql "SELECT count(*) FROM runs WHERE session_id = (SELECT max(id) FROM sessions)")" = 8

sessions=$(sql "SELECT count(*) FROM sessions")
run run -q $sel -l none -L nocal --target-effect 5
expect_rc "no calibration of the label: exit 2" 2
expect_err "one line says so and what to run" "^contend: run: --target-effect: 'nocal' has no calibration of workload selftest under load none; run: contend calibrate -L 'nocal'"
run run -q -w selftest --selftest-mode sleep --scale 0.1 --delay 0 --no-warmup --dir "$T" -l none -L k --target-effect 5
expect_rc "a calibration of other workload parameters: exit 2" 2
expect_err "it names both parameter sets" "ran with mode=sleep seconds=0\.05, this session runs mode=sleep seconds=0\.10"
run run -q $sel -l none -L k --target-effect 0.001
expect_rc "an effect the noise hides: exit 2" 2
expect_err "more runs than contend would run" "a 0\.001% change needs more than 200 runs a side under load none"
check "none of the refused runs stored anything" test "$(sql "SELECT count(*) FROM sessions")" = "$sessions"

run run -q $sel -l none,null -n 4 -L a --aa
expect_rc "run --aa runs" 0
expect_out "two labels that differ in nothing" "^a\+aa=A +4 "
expect_out "the second" "^a\+aa=B +4 "
expect_out "the A/A line" "^A/A check: (no difference called between 'a\+aa=A' and 'a\+aa=B' under 2 loads, as expected\.|a difference was called under )"
check "stored as one interleaved group" test "$(sql "SELECT count(*) FROM sessions s JOIN configs c ON c.id = s.config_id WHERE c.label LIKE 'a+aa=%' AND s.run_order = 'interleaved'")" = 2
check "the knob journal is empty: the placebo wrote nothing" test "$(journal_rows)" = 0
# 4 blocks: too few for the signed-rank test, and the heading says U
# decided, as each line does (issue "part 18")
expect_out "the heading says which test decided" "^Time against 'a\+aa=A' \(interleaved blocks: under the 6 paired blocks the signed-rank test needs, so U decides; "
if grep -q "signed-rank test decides from 6 blocks" "$T/out"; then
	not_ok "it promises no signed-rank test it did not make" "$(grep 'Time against' "$T/out")"
else
	ok "it promises no signed-rank test it did not make"
fi

# SIGINT while both configs' sessions are stored: each is marked, and the
# message names both
"$CONTEND" run -q -w selftest --selftest-mode sleep --scale 30 --delay 0 --no-warmup --dir "$T" -l none -n 4 -L int --aa >"$T/out" 2>"$T/err" &
bg=$!
both_running() { [ "$(sql "SELECT count(*) FROM sessions s JOIN configs c ON c.id = s.config_id WHERE c.label LIKE 'int+aa=%' AND s.status = 'running'")" = 2 ]; }
wait_until 60 both_running
kill -INT "$bg"
rc=0
wait "$bg" || rc=$?
expect_rc "an interrupted A/A session: exit 4" 4
ids=$(sql "SELECT group_concat(id, ', ') FROM (SELECT s.id FROM sessions s JOIN configs c ON c.id = s.config_id WHERE c.label LIKE 'int+aa=%' AND s.status = 'interrupted' ORDER BY s.id) t")
expect_err "it names both sessions it marked interrupted ($ids)" "; sessions $ids marked interrupted\$"

# how many pairs call a difference is the machine's: a host noisy in bursts
# shorter than a pair (8 sleeps of 0.05 s) can make two of three. What is
# checked is that the exit and the message follow the printed interval.
run run -q $sel -l none -n 4 -L p --aa-pairs 3
check "a line per pair" test "$(grep -c '^A/A pair [123] (sessions [0-9]*-[0-9]*): ' "$T/out")" = 3
called=$(sed -n 's/^A\/A: \([0-3]\) of 3 pairs called a difference: .*/\1/p' "$T/out")
# binom.test(x, 3)$conf.int in R, to the printed decimal
case $called in
0) want="0.0%-70.8%" ;; 1) want="0.8%-90.6%" ;; 2) want="9.4%-99.2%" ;; 3) want="29.2%-100.0%" ;; *) want=none ;;
esac
expect_out "the rate with its exact interval ($called of 3)" "^A/A: $called of 3 pairs called a difference: [0-9.]+% \(95% interval $want\)"
# the interval's low end above 5% (2 or 3 of 3) fails the check: exit 1
case $called in 2 | 3) want=1 ;; *) want=0 ;; esac
expect_rc "run --aa-pairs: exit $want with $called of 3 called" $want
if [ "$want" = 1 ]; then
	expect_err "and says the machine is not steady" "^contend: A/A: the false-verdict rate is significantly above 5%: the machine or the harness is not steady"
else
	check "and does not say the machine is unsteady" sh -c "! grep -q 'significantly above 5%' '$T/err'"
fi
check "three pairs of sessions" test "$(sql "SELECT count(*) FROM sessions s JOIN configs c ON c.id = s.config_id WHERE c.label LIKE 'p+aa=%'")" = 6

run run -w selftest --aa --quick -l none
expect_rc "--aa with 3 runs a side: exit 2" 2
expect_err "it says why" "^contend: run: --aa needs 4 runs a side for a verdict"
run run -w selftest --aa --vary iosched=none,bfq
expect_rc "--aa with --vary: exit 2" 2
run run -w selftest --target-effect 5 -n 4
expect_rc "--target-effect with -n: exit 2" 2
run calibrate -w selftest -n 4
expect_rc "calibrate with 4 runs: exit 2" 2
expect_err "the range is calibrate's own" "^contend: calibrate: --runs must be a whole number, 5 to 100000, not '4'"
run calibrate --from k -n 5
expect_rc "calibrate --from with -n: exit 2" 2
expect_err "-n does not apply to stored runs" "^contend: calibrate: --from reads stored runs; --runs does not apply to them"
run run --from k
expect_rc "--from is calibrate's, not run's" 2
run calibrate --aa
expect_rc "--aa is run's, not calibrate's" 2

# the latency workload is judged by its first task's p99 (lower is better):
# the noise table and the effects are in it, not in seconds
run run -q -w latency --task audio --duration 500ms --quick -l none -n 5 --no-warmup --delay 0 --dir "$T" -L lat
expect_rc "a latency session of 5 runs" 0
run calibrate --from lat -w latency --effect 50
expect_rc "calibrate --from a latency session" 0
expect_out "its noise in p99 microseconds" "^load +runs +mean p99 us +CoV "
want=$(sql "SELECT avg(json_extract(r.metrics, '\$.p99_us')) FROM runs r JOIN configs c ON c.id = r.config_id WHERE c.label = 'lat' AND r.status = 'ok'")
got=$(awk '$1 == "none" && $2 == 5 { print $3 }' "$T/out")
check "the mean is the runs' mean p99 ($got against $want us)" awk -v g="$got" -v w="$want" 'BEGIN { exit !(w > 0 && g - w < 0.051 && w - g < 0.051) }'
expect_out "the smallest p99 rise, not a slowdown" "^the smallest p99 rise the verdict finds"
# a p99 is at the host's mercy: one stalled run can make the spread so wide
# that 200 runs a side would not do. Either answer may be right; what is
# checked is that it agrees with the table of smallest rises above it,
# away from 50% by a tenth: both are Monte-Carlo estimates.
expect_out "and the runs a 50% p99 rise needs" "^for a 50% p99 rise: none ([0-9]+ runs a side|more than 200)\$"
need=$(sed -n 's/^for a 50% p99 rise: none \([0-9]*\) runs a side$/\1/p' "$T/out")
mde=$(awk '$1 == "none" && NF == 5 && $2 !~ /^[0-9]+$/ { gsub("%", ""); gsub(">", ""); print $3, $4, $5 }' "$T/out")
check "the runs needed agree with the smallest rises at n = 5, 10, 20 (need '$need', rises $mde)" \
	awk -v n="$need" -v m="$mde" 'BEGIN {
		if (split(m, a, " ") != 3) exit 1
		split("5 10 20", k, " ")
		for (i = 1; i <= 3; i++) {
			if (a[i] <= 45 && !(n != "" && n + 0 <= k[i])) exit 1
			if (a[i] >= 55 && n != "" && n + 0 <= k[i]) exit 1
		}
	}'
check "stored as lower-is-better" test "$(sql "SELECT count(*) FROM calibrations WHERE workload = 'latency' AND higher_better = 0")" = 1

# --sessions K: K sessions of one config in turn, stored, and how far they
# move apart; a compare of two other configs with one session each then
# weighs that spread instead of refusing a gate (another --scale, so no
# earlier config of this workload's parameters counts)
sel="-w selftest --selftest-mode sleep --scale 0.04 --delay 0 --no-warmup --dir $T"
run calibrate -q $sel -l none,null -n 5 -L spread --sessions 3
expect_rc "calibrate --sessions 3: exit 0" 0
expect_out "it says which sessions" "^contend calibrate: 3 sessions of 'spread' \([0-9]+ to [0-9]+\), how far they move\$"
expect_out "a row per load: sessions, runs, the CoV within and between, the pairs" "^none +3 +15 +[0-9.]+% +[0-9.]+% +3\$"
expect_out "and the null load's" "^null +3 +15 +"
check "three complete sessions of 'spread' stored" test \
	"$(sql "select count(*) from sessions s join configs c on c.id = s.config_id where c.label = 'spread' and s.status = 'complete'")" = 3
# shellcheck disable=SC2086
"$CONTEND" run -q $sel -l none,null -n 4 -L one >/dev/null 2>&1
# shellcheck disable=SC2086
"$CONTEND" run -q $sel -l none,null -n 4 -L two >/dev/null 2>&1
run compare one two --fail-on-regression 50
check "a gate on one session a side now decides: exit 0 or 1, not 2 ($rc)" test "$rc" -ne 2
expect_out "the machine's spread decides" "^none +two vs one: .* by sessions\+machine: .*\(across sessions: this machine's sessions [0-9.]+ s apart or more move by [0-9.]+% \(CoV, from [1-3] pairs? of [23] sessions of 1 config\)\)\$"
run calibrate $sel -L x --sessions 1
expect_rc "--sessions 1: exit 2" 2
expect_err "it names the range" "sessions"
run calibrate --from spread --sessions 3
expect_rc "--sessions with --from: exit 2" 2
expect_err "it says why" "--from reads stored runs; --sessions does not apply to them"

# the spread at the comparison's gap: the calibration's sessions, seconds
# apart, do not cover a comparison an hour apart - the gate refuses, naming
# the gap and the calibration that would cover it; spread over two hours
# (their starts moved in the store, as --every would space them) they do
two=$(sql "select max(s.id) from sessions s join configs c on c.id = s.config_id where c.label = 'two'")
nonempty "two's session" "$two"
sql "update sessions set started_at = started_at + 3600000000000, ended_at = ended_at + 3600000000000 where id = $two"
run compare one two --fail-on-regression 50
expect_rc "a calibration spanning seconds, sessions an hour apart: the gate refuses, exit 2" 2
expect_err "it names the gap it knows, the gap compared and the calibration that covers it" "spread of sessions is known up to [0-9.]+ s apart, which does not cover these sessions 60 min apart .*run contend calibrate -w selftest .*-l none --sessions 4 --every 21m"
expect_out "the verdict says it does not cover them" "^none +two vs one: .*\(does not cover these sessions, 60 min apart: .*--every 21m\)\$"
n=0
for id in $(sql "select s.id from sessions s join configs c on c.id = s.config_id where c.label = 'spread' order by s.id"); do
	sql "update sessions set started_at = started_at + $n * 3000000000000, ended_at = ended_at + $n * 3000000000000 where id = $id"
	n=$((n + 1))
done
[ "$n" = 3 ] && ok "the calibration's three sessions moved 50 min apart" || not_ok "the calibration's three sessions moved 50 min apart" "$n"
run compare one two --fail-on-regression 50
check "a covering calibration: the gate decides, exit 0 or 1 ($rc)" test "$rc" -ne 2
expect_out "from the pair at least an hour apart" "^none +two vs one: .*\(across sessions: this machine's sessions 60 min apart or more move by [0-9.]+% \(CoV, from 1 pair of 2 sessions of 1 config\)\)\$"
run calibrate --show $sel -l none
expect_rc "calibrate --show: exit 0" 0
expect_out "a row per gap class: the pairs 50 min apart" "^  20 min to 1 h +2  "
expect_out "the pair 100 min apart" "^  1 h to 6 h +1  "
expect_out "and across a reboot" "^  across a reboot +0  +- +-\$"
expect_out "no pair crosses a reboot: said" "^no pair of sessions lies across a reboot"

# --every: the sessions start that far apart, and it says how long first
run calibrate $sel -l none -n 5 -L every --sessions 2 --every 3s
expect_rc "calibrate --sessions 2 --every 3s: exit 0" 0
expect_err "it says how long before it starts" "^calibrate: 2 sessions, one every 3.0 s: the last starts 3.0 s after the first\$"
gap=$(sql "select max(s.started_at) - min(s.started_at) from sessions s join configs c on c.id = s.config_id where c.label = 'every'")
nonempty "the two sessions' starts" "$gap"
check "they started 3 s apart or more ($gap ns)" test "$gap" -ge 3000000000
expect_out "two sessions: one pair, no estimate" "^none +2 +10 +[0-9.]+% +\? \(no estimate: 1 df\) +1\$"
for args in "--every 3s|--every spaces the sessions of --sessions K" "--sessions 2 --every 0s|--every must be a duration" \
	"--sessions 2 --every soon|--every must be a duration" "--show --sessions 3|--show runs nothing; drop --sessions"; do
	a=${args%%|*}
	run calibrate $sel -l none $a
	[ "$rc" = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q -- "${args#*|}" "$T/err" &&
		ok "calibrate $a: one line, exit 2" || not_ok "calibrate $a: one line, exit 2" "exit $rc" "$(cat "$T/err")"
done
# the dry run says how long: from the newest stored session of the
# workload and its parameters on this machine, with --every's span
run calibrate --dry-run $sel -l none -n 5 --sessions 4 --every 20m
expect_out "--every's span in the plan" "^every: +a session starts every 20 min: the last 1 h after the first\$"
expect_out "and the time, from a stored session" "^time: +about (60 min|1 h) \(session [0-9]+ of this workload took [0-9.]+ s a run\)\$"
run calibrate --dry-run -w selftest --selftest-mode sleep --scale 0.07 --delay 0 --no-warmup --dir "$T" -l none
expect_out "parameters never run here: the time is unknown, said" "^time: +unknown: no session of this workload and its parameters on this machine yet\$"
