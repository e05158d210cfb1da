#!/bin/sh
# The oltp workload and load on tiny real O_DIRECT files: runs printed as
# scores against the first config with the same engine parameters, a
# second config compared with it, parameters never scored across, bad input
# refused before anything is stored, --buffered under a real memory cgroup
# limit, and the engine as a background load.
. "$CT_TESTLIB"
plan 38

small="--data-size 16M --log-size 1M --duration 1s --ramp-max 0 --dir $T"

run run -q -w oltp $small -n 4 -L a
expect_rc "an oltp session runs: exit 0" 0
expect_out "the runs are printed as scores" "^Runs \(a\): +[0-9]+\.[0-9]{2} [0-9]+\.[0-9]{2} [0-9]+\.[0-9]{2} [0-9]+\.[0-9]{2}\$"
expect_out "tps and latency percentiles are printed" "^  tps [0-9.]+  latency ms p50 [0-9.]+ p90 [0-9.]+ p99 [0-9.]+ p99.9 [0-9.]+ max [0-9.]+"
expect_out "the score's reference is the config itself" "^Score = 1000 x tps / [0-9.]+, the no-load mean tps of 'a' \(session 1\), the first config"
# four runs a side, so the rank test can decide (4 a side at 95%)
# the reference's scores average 1000 by definition; computed here from the printed runs
mean=$(awk '/^Runs \(a\)/ { print ($3 + $4 + $5 + $6) / 4 }' "$T/out")
check "the reference's scores average 1000 ($mean)" awk -v m="$mean" 'BEGIN { exit !(m > 999.98 && m < 1000.02) }'
check "four runs are stored with tps and latency metrics" \
	test "$(sql "SELECT count(*) FROM runs WHERE workload = 'oltp' AND status = 'ok' AND json_extract(metrics, '$.tps') > 0 AND json_extract(metrics, '$.lat_p99_us') > 0")" = 4
# the stored tps is txns / measured seconds (an independent division)
awk_ok=$(sql "SELECT json_extract(metrics, '$.tps'), json_extract(metrics, '$.txns'), json_extract(metrics, '$.measured_s') FROM runs WHERE workload = 'oltp'" | awk -F'|' '{
	if ($1 - $2 / $3 > 0.01 * $1 || $2 / $3 - $1 > 0.01 * $1) bad++
	} END { print bad + 0 }')
check "tps agrees with txns and measured_s in every run" test "$awk_ok" = 0
check "a per-second tps series is stored" test "$(sql "SELECT min(json_array_length(series)) FROM runs WHERE workload = 'oltp'")" -ge 1

run run -q -w oltp $small -n 4 -L b
expect_rc "a second config runs" 0
expect_out "it is scored against the first" "^Score = 1000 x tps / [0-9.]+, the no-load mean tps of 'a' \(session 1\)"
expect_out "with the statistics and a verdict" "^none +b vs a: .*p=[0-9.e-]+ \(Welch\), [0-9.e-]+ \(U\) +Holm p=[0-9.e-]+ by U: (no significant difference|better|worse) \(holds for these sessions; how far sessions [0-9.]+ s apart move is unknown on this machine: contend calibrate -w oltp .*--sessions 4( --every [0-9]+[smh])?\)\$"
run compare a b
expect_rc "compare reads the oltp sessions" 0
expect_out "and judges tps" "^tps against 'a'"

run run -q -w oltp $small --clients 2 -n 1 -L c --baseline a
expect_rc "other engine parameters run" 0
expect_out "and are never scored against another's" "'a' has no no-load oltp runs with these engine parameters"

run run -q -w oltp $small --engine io_uring --pool-size 4M -n 1 -L ur
expect_rc "--engine io_uring runs" 0
check "the engine is recorded with the run" test "$(sql "SELECT count(*) FROM runs r JOIN configs c ON c.id = r.config_id WHERE c.label = 'ur' AND r.workload_params LIKE '%engine=io_uring%' AND json_extract(r.metrics, '$.read_iops') > 0")" = 1
expect_out "and it is its own reference" "^Score = 1000 x tps / [0-9.]+, the no-load mean tps of 'ur'"

# io_uring pins a transaction's pages together: with 16 clients on a pool
# just big enough, clients meet pages another is loading all the time; an
# ordering bug deadlocks here (it did, until pages were taken in order)
rc=0
timeout 120 "$CONTEND" run -q -w oltp --engine io_uring --data-size 4M --pool-size 2656K \
	--clients 16 --log-size 1M --duration 3s --ramp-max 0 --dir "$T" -n 1 -L crowd >/dev/null 2>&1 || rc=$?
expect_rc "io_uring clients crowding a small pool finish (no deadlock)" 0

sessions=$(sql "SELECT count(*) FROM sessions")
run run -q -w oltp $small --pool-size 32M
expect_rc "a pool larger than the data: exit 2" 2
expect_err "named" "the pool \(32.0 MiB\) is larger than the data \(16.0 MiB\)"
run run -q -w oltp $small --writes 5 --reads 2
expect_rc "more writes than reads: exit 2" 2
run run -q -w oltp $small --zipf 1.5
expect_rc "zipf out of range: exit 2" 2
run run -q -w oltp --data-size 1000T --dir "$T"
expect_rc "no room for the data files: exit 3" 3
expect_err "says so" "not enough free space .* for the data files"
check "bad input stored nothing and left no files" \
	test "$(sql "SELECT count(*) FROM sessions")" = "$sessions" -a -z "$(ls -d "$T"/contend.* 2>/dev/null)"

if [ "$(id -u)" = 0 ] && mkdir -p "$T/ram" && mount -t ramfs none "$T/ram" 2>/dev/null; then
	run run -q -w oltp --data-size 16M --dir "$T/ram"
	umount "$T/ram"
	expect_rc "a filesystem without O_DIRECT: exit 2" 2
	expect_err "with --buffered suggested" "refuses O_DIRECT; use --buffered"
else
	skip "a filesystem without O_DIRECT: exit 2" "needs root to mount ramfs"
	skip "with --buffered suggested" "needs root to mount ramfs"
fi

if [ "$(id -u)" = 0 ]; then
	run run -q -w oltp --buffered --data-size 32M --mem-limit 8M --log-size 1M --duration 1s --ramp-max 0 --dir "$T" -n 1 -L buf
	expect_rc "--buffered runs in a memory cgroup" 0
	peak_ok=$(sql "SELECT json_extract(metrics, '$.mem_peak'), json_extract(metrics, '$.mem_limit') FROM runs WHERE json_extract(metrics, '$.mem_limit') IS NOT NULL" | awk -F'|' '{
		print ($1 > 0 && $1 <= $2 && $2 == 8388608) ? "yes" : "no" }')
	check "its memory peak stays under the 8 MiB limit" test "$peak_ok" = yes
else
	skip "--buffered runs in a memory cgroup" "not root"
	skip "its memory peak stays under the limit" "not root"
fi
check "no memory cgroup is left behind" test -z "$(ls -d /sys/fs/cgroup/memory/contend-oltp-* /sys/fs/cgroup/contend-oltp-* /sys/fs/cgroup/unified/contend-oltp-* 2>/dev/null)"

# an I/O error mid-run: the data file is cut short under the engine, so
# its page reads come back short (EIO); the run fails with the reason
"$CONTEND" run -q -w oltp --data-size 16M --log-size 1M --duration 20s --ramp-max 0 --dir "$T" -n 1 -L eio >"$T/out" 2>"$T/err" &
pid=$!
i=0
while [ -z "$(ls "$T"/contend.*/wl-oltp/oltp.data 2>/dev/null)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 2
truncate -s 0 "$T"/contend.*/wl-oltp/oltp.data
rc=0
wait $pid || rc=$?
expect_rc "an I/O error fails the run: exit 3 (every run failed)" 3
check "the run is stored failed with the engine's reason" \
	test "$(sql "SELECT count(*) FROM runs r JOIN configs c ON c.id = r.config_id WHERE c.label = 'eio' AND r.status = 'failed' AND r.reason LIKE '%page read at % failed: Input/output error%'")" = 1
check "its files are gone" test -z "$(ls -d "$T"/contend.* 2>/dev/null)"
check "no engine thread or process is left" test -z "$(leftovers)"

run run -q -w selftest --scale 0.5 -l oltp --data-size 16M --log-size 1M --delay 0.5s -n 1 --dir "$T" -L bg
expect_rc "the engine runs as a background load" 0
check "its Loads count transactions" test "$(sql "SELECT count(*) FROM runs WHERE load = 'oltp' AND load_work > 0")" = 1
check "no process is left behind" test -z "$(leftovers)"
