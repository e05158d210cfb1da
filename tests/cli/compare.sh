#!/bin/sh
# `contend compare` on stored sessions: a config recorded while two CPU hogs
# ran outside contend is a regression against a quiet one (exit 1 with
# --fail-on-regression --within-session; without it, one session a side and
# no estimate of how far this machine's sessions move, the gate refuses
# with exit 2); of two quiet configs whose runs interleave in one
# session (a setting a CPU-bound foreground cannot feel), neither is (exit 0).
# Two quiet sessions recorded minutes apart are not that: on a shared machine
# the second can truly run 5% slower, and the gate is right to say so.
. "$CT_TESTLIB"
plan 35

rec() { "$CONTEND" run -q -w selftest --scale 0.3 -l none,null -n 5 --delay 0.2s --dir "$T" -L "$1" >/dev/null 2>&1; }
rec a
yes >/dev/null &
h1=$!
yes >/dev/null &
h2=$!
rec b
kill $h1 $h2
wait $h1 $h2 2>/dev/null
rec c

# one session a side, and no config measured in two sessions: how far
# sessions move here is unknown, so the gate neither passes nor fails
run compare a b --fail-on-regression 5
expect_rc "one session a side, the machine's spread unknown: the gate refuses, exit 2" 2
expect_out "its rows are shown" "^b +5 +"
expect_out "the verdict holds for these sessions" "^none +b vs a: \\+[0-9.]+% .*Holm p=.* worse \\(holds for these sessions; how far sessions [0-9.]+ s apart move is unknown on this machine: contend calibrate -w selftest .*-l none --sessions 4( --every [0-9]+s)?\\)\$"
expect_err "the refusal names both ways out" "how far this machine's sessions move is unknown \\(one session a side under load 'none', [0-9.]+ s apart\\), so the gate can neither pass nor fail: run contend calibrate -w selftest .*-l none --sessions 4.*, or give --within-session"
check "in one line" test "$(wc -l <"$T/err")" = 1
run compare a b --format csv
check "CSV: b's runs carry the verdict and that it holds for these sessions" test \
	"$(python3 -c "import csv, re, sys; print(sorted({(r['label'], r['verdict'], r['decided_by'], bool(re.match(r'holds for these sessions; how far sessions [0-9.]+ s apart move is unknown on this machine: contend calibrate -w selftest .*-l (none|null) --sessions 4', r['verdict_note']))) for r in csv.DictReader(open(sys.argv[1]))}))" "$T/out")" = \
	"[('a', '', '', False), ('b', 'worse', 'U', True)]"
run compare a b --fail-on-regression 5 --within-session
expect_rc "with --within-session a CPU-hogged config is a regression: exit 1" 1
expect_out "the verdict says worse, within these sessions" "^none +b vs a: \\+[0-9.]+% .*Holm p=.* by U: worse \\(within these sessions, as --within-session asks\\)\$"
expect_err "the regression is named" "significantly slower than 'a' by more than 5%"
# two quiet configs interleaved in one session: a printk rate limit (the value
# it has and one more, put back after) that a CPU-bound foreground cannot feel
pr=$(cat /proc/sys/kernel/printk_ratelimit)
"$CONTEND" run -q -w selftest --scale 0.3 -l none,null -n 5 --delay 0.2s --dir "$T" -L q --vary "sysctl.kernel.printk_ratelimit=$pr,$((pr + 1))" >/dev/null 2>&1
run compare "q+sysctl.kernel.printk_ratelimit=$pr" "q+sysctl.kernel.printk_ratelimit=$((pr + 1))" --fail-on-regression 5
expect_rc "two quiet configs: exit 0" 0
expect_out "a verdict line per load, paired by block" "^null +q\\+sysctl\\.kernel\\.printk_ratelimit=$((pr + 1)) vs q\\+sysctl\\.kernel\\.printk_ratelimit=$pr: .*paired over 5 blocks"
run compare a
expect_rc "one label: exit 2" 2
run compare a zzz
expect_rc "a label without runs among the others: exit 2, a gate cannot pass on it" 2
expect_err "names it" "no stored runs of 'zzz'"
run compare zzz a
expect_rc "a baseline without runs: exit 2" 2

# issue "part 18": a label named twice, report's own name in its errors,
# -o with an extension no format has, a label with runs of another workload
run compare a a
expect_rc "compare a a: exit 2" 2
expect_err "one line naming the label" "^contend: compare: label 'a' is named twice \\(see: contend compare --help\\)\$"
[ "$(wc -l <"$T/err")" = 1 ] && ok "compare a a: one line" || not_ok "compare a a: one line" "$(cat "$T/err")"
run report a zzz
expect_rc "report with a label without runs: exit 2" 2
expect_err "report says report" "^contend: report: no stored runs of 'zzz'"
run report a -o "$T/r.pdf"
expect_rc "report -o FILE.pdf: exit 2" 2
expect_err "it names the file" "^contend: report: no format has the extension of -o '.*r\\.pdf'"
check "and writes nothing" test ! -e "$T/r.pdf"
run report a -o "$T/r.txt"
expect_rc "report -o FILE.txt: exit 0" 0
check "-o FILE.txt is text" grep -q "^contend report: workload selftest" "$T/r.txt"
"$CONTEND" run -q -w cmd -l none -n 2 --delay 0 --no-warmup --dir "$T" -L w -- true >/dev/null 2>&1
run compare a w
expect_rc "a label with runs of another workload only: exit 2" 2
expect_err "the hint: the workload it has" "no stored runs of 'w' for workload selftest .*; it has runs of workload cmd \\(-w cmd compares those\\)"

# flagged runs: one run of c made an outlier with interference recorded
# (foreign CPU the whole run) is a likely fluke; one of a without it is not
cid=$(sql "select max(r.id) from runs r join configs g on g.id = r.config_id where g.label = 'c' and r.load = 'none'")
sql "update runs set wall_ns = wall_ns * 3, foreign_cpu_us = wall_ns * 3 / 1000 where id = $cid"
aid=$(sql "select max(r.id) from runs r join configs g on g.id = r.config_id where g.label = 'a' and r.load = 'none'")
sql "update runs set wall_ns = wall_ns * 3, foreign_cpu_us = 0, steal_us = 0, psi_cpu_some_us = 0, psi_io_some_us = 0, psi_mem_some_us = 0 where id = $aid"
run compare a c
expect_out "an outlier with interference is a likely fluke" "^none +c run 5 flagged \([0-9.]+ s\): foreign CPU 100%.*likely fluke\$"
expect_out "an outlier without interference is not" "^none +a run 5 flagged .*no interference seen\$"
expect_out "the mean without flagged runs" "^none +c mean without flagged runs: [0-9.]+ s \([1-4] runs\)\$"
expect_rc "flagged runs do not fail a compare" 0
# a run near its siblings is no fluke, whatever its monitors saw: c's
# other runs made tight (0.1% apart) and one 1.5% over them, with foreign
# CPU the whole run
sql "update runs set wall_ns = 100000000 + (id % 3) * 100000 where id <> $cid and load = 'none' and config_id = (select config_id from runs where id = $cid)"
nid=$(sql "select max(r.id) from runs r join configs g on g.id = r.config_id where g.label = 'c' and r.load = 'none' and r.id <> $cid")
nseq=$(sql "select seq from runs where id = $nid")
nonempty "another run of c" "$nseq"
sql "update runs set wall_ns = 101500000, foreign_cpu_us = 101500 where id = $nid"
run compare a c
expect_out "the far run is still flagged" "^none +c run 5 flagged \([0-9.]+ s\): foreign CPU 100%.*likely fluke\$"
if grep -Eq "^none +c run $nseq flagged" "$T/out"; then
	not_ok "a run 1.5% off its tight siblings is not flagged, though others used the CPU" "$(grep flagged "$T/out")"
else ok "a run 1.5% off its tight siblings is not flagged, though others used the CPU"; fi
check "the printk rate limit is back to $pr" test "$(cat /proc/sys/kernel/printk_ratelimit)" = "$pr"
