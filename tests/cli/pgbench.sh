#!/bin/sh
# -w pgbench on Debian's real PostgreSQL server: the cluster's life (its
# server in a memory cgroup whose memory.max this test reads back while a
# run is measured, and whose pressure memory.events or memory.failcnt
# shows; nothing left after the session - no postgres process, directory
# or cgroup - nor after SIGINT); the stored tps and latency percentiles
# against what pgbench printed and logged for the same run, computed here
# from its per-transaction log; each run from the same state; and the
# failures: a server that is not there, initdb failing, a script the
# server refuses, a server killed mid-run (that run fails, the next gets a
# fresh server). The server's CPU stored per run and not counted foreign;
# its log kept beside the report; a server that outlives a SIGKILLed
# contend stopped by the next contend and by `contend restore`.
. "$CT_TESTLIB"
plan 39
need python3 sqlite3

[ "$(id -u)" = 0 ] || skip_all "not root: the server runs as the postgres user, in a memory cgroup"
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] && [ -x "$bin/initdb" ] || skip_all "no PostgreSQL server installed (apt-get install postgresql)"
# the server's user passes through the test's directory to its cluster
chmod 711 "$T"
small="-w pgbench --pg-scale 2 --pg-clients 4 --dir $T"
# the postgres processes of this test's clusters: each works in its data
# directory (another suite's cluster is not this test's)
pg_procs() {
	for p in $(pgrep -u postgres); do readlink "/proc/$p/cwd"; done 2>/dev/null | grep -c "^$T/"
}
cgroups() { find /sys/fs/cgroup -maxdepth 8 -type d -name 'contend-pgbench-*' 2>/dev/null | wc -l; }
# a server's System V segment, which a stopped server removes: none left
# that nobody holds
shm() { ipcs -m | awk '$3 == "postgres" && $6 == 0' | wc -l; }
nothing_left() { [ "$(pg_procs)" = 0 ] && [ "$(cgroups)" = 0 ] && [ "$(shm)" = 0 ]; }
check "no server, cgroup or shared memory of ours before" nothing_left

# watch PID: while contend PID measures (a transaction log written), the
# server's cgroup: its limit read back, its processes' names; then its
# pressure, read until the cgroup goes
watch() {
	_lim="" _events=0
	_end=$(($(date +%s) + 300))
	while kill -0 "$1" 2>/dev/null && [ "$(date +%s)" -lt "$_end" ]; do
		d=$(find /sys/fs/cgroup -maxdepth 8 -type d -name "contend-pgbench-$1" 2>/dev/null | head -n 1)
		if [ -n "$d" ] && ls "$T"/contend.*/wl-pgbench/pg/txlog.* >/dev/null 2>&1; then
			if [ -z "$_lim" ]; then
				_lim=$(cat "$d/memory.max" 2>/dev/null || cat "$d/memory.limit_in_bytes" 2>/dev/null)
				_comm=$(for p in $(cat "$d/cgroup.procs"); do cat "/proc/$p/comm" 2>/dev/null; done | sort -u | paste -sd,)
			fi
			e=$(awk '$1 == "max" { print $2 }' "$d/memory.events" 2>/dev/null || cat "$d/memory.failcnt" 2>/dev/null)
			[ -n "$e" ] && [ "$e" -gt "$_events" ] && _events=$e
		fi
		sleep 0.2
	done
	echo "$_lim $_events $_comm" >"$T/watch"
}

"$CONTEND" run $small --duration 12s -n 2 -L a --keep-files >"$T/out" 2>"$T/err" &
pid=$!
watch "$pid"
rc=0
wait "$pid" || rc=$?
expect_rc "a session of two runs: exit 0" 0
read -r lim events comm <"$T/watch"
stored=$(sql "select json_extract(metrics, '\$.mem_limit') from runs where status = 'ok' limit 1")
check "memory.max read back while measured is the limit stored ($lim, $stored)" test "${lim:-x}" = "${stored%.0}"
check "the cgroup holds the server's processes ($comm)" test "$comm" = postgres
check "the limit pressed the server (memory.events max / failcnt: $events)" test "$events" -gt 0
check "no postgres process and no cgroup left" nothing_left
expect_out "the header says the parameters in force" "workload pgbench \(scale=2 clients=4 duration=12s shared=16MiB mem=[0-9]+MiB script=tpcb\)"
expect_out "scored against the first config = 1000" "^Runs \(a\):  [0-9.]+ [0-9.]+"

# the second run's figures against its own output, kept (--keep-files)
w=$(ls -d "$T"/contend.*/ | head -n 1)
sql "select metrics from runs where seq = 2" >"$T/m.json"
got=$(python3 - "$w" "$T/m.json" <<'PY'
import glob, json, math, re, sys
d, m = sys.argv[1], json.load(open(sys.argv[2]))
out = open(d + "foreground.log").read()
printed = float(re.search(r"^tps = ([0-9.]+)", out, re.M).group(1))
tx = []
for f in glob.glob(d + "wl-pgbench/pg/txlog.*"):
    for line in open(f):
        c = line.split()
        if len(c) >= 6 and c[2].lstrip("-").isdigit():
            tx.append((int(c[4]) + int(c[5]) / 1e6, int(c[2])))
tx.sort()
t0 = min(e - l / 1e6 for e, l in tx[:1024])
ramp, dur = m["ramp_s"], 12
lat = sorted(l for e, l in tx if t0 + ramp <= e < t0 + dur)
def rank(q):
    return lat[max(math.ceil(q / 100 * len(lat)), 1) - 1]
want = {"tps_pgbench": printed, "tps": len(lat) / (dur - ramp), "lat_p50_us": rank(50),
        "lat_p95_us": rank(95), "lat_p99_us": rank(99), "lat_max_us": lat[-1]}
bad = [f"{k} {m.get(k)} != {v}" for k, v in want.items() if not math.isclose(m.get(k, -1), v, rel_tol=1e-9)]
print("; ".join(bad) or f"ok {len(lat)} transactions, tps {m['tps']:.1f}, p99 {m['lat_p99_us']} us")
PY
)
case $got in ok*) ok "tps, pgbench's printed tps and p50/p95/p99/max as its log says ($got)" ;;
*) not_ok "tps, pgbench's printed tps and p50/p95/p99/max as its log says" "$got" ;; esac
same=$(sql "select count(distinct json_extract(metrics, '\$.db_bytes')) || ' ' || max(json_extract(metrics, '\$.history_rows')) || ' ' || max(abs(json_extract(metrics, '\$.balance_sum'))) from runs")
check "each run started from the same copy: one size, no history, every balance 0 ($same)" test "$same" = "1 0 0"
series=$(sql "select group_concat(json_array_length(series), ',') from runs")
check "each run's per-second series stored, 12 seconds a run ($series)" test "$series" = "12,12"
hist=$(sql "select count(*) from runs where hists like '%\"pgbench\"%'")
check "each run's latency histogram stored ($hist)" test "$hist" = 2

# nothing left without --keep-files
rm -rf "${T:?}"/contend.*
run run $small --duration 3s -n 1 -L b -o "$T/b.txt"
expect_rc "a session without --keep-files: exit 0" 0
check "the server's log kept beside the report (-o FILE: FILE.server.log), whole" \
	grep -q "database system is shut down" "$T/b.txt.server.log"
# the server's CPU is the run's, not foreign: the server works (over a
# second a run) and the foreign CPU left is under half of it (a session
# without the watcher above, whose polling is foreign)
cpu=$(sql "select group_concat(round(json_extract(metrics, '\$.server_cpu_s'), 1) || '/' || round(foreign_cpu_us / 1e6, 1), ' ') from runs r join configs c on c.id = r.config_id where c.label = 'b'")
bad=$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label = 'b' and not (json_extract(metrics, '\$.server_cpu_s') > 1 and foreign_cpu_us < json_extract(metrics, '\$.server_cpu_s') * 1e6 / 2)")
check "the server's CPU stored and not counted foreign (server/foreign s: $cpu)" test "$bad" = 0
# the run's delay accounting holds pgbench's four threads and main and the
# four backends serving them, whose CPU is most of it
# (an autovacuum worker forked meanwhile is the run's too: at least 9)
acct=$(sql "select (json_extract(counters, '\$.t_tasks') >= 9) || ' ' || (json_extract(counters, '\$.t_oncpu') > 1.5 * (user_us + sys_us) / 1e6) || ' (' || json_extract(counters, '\$.t_tasks') || ' tasks)' from runs r join configs c on c.id = r.config_id where c.label = 'b'")
check "the backends' delay accounting is the run's (at least 9 tasks, on-CPU over 1.5 x pgbench's: $acct)" test "${acct%% (*}" = "1 1"
check "its work directory is gone" sh -c '! ls -d "$1"/contend.* >/dev/null 2>&1' _ "$T"
check "no postgres process and no cgroup left" nothing_left

# SIGINT mid-run (to contend's own pid): the server stopped, nothing left
"$CONTEND" run $small --duration 30s -n 3 -L c >"$T/out" 2>"$T/err" &
pid=$!
wait_until 120 sh -c 'ls "$1"/contend.*/wl-pgbench/pg/txlog.* >/dev/null 2>&1' _ "$T"
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
expect_rc "SIGINT mid-run: exit 4 (interrupted)" 4
check "after SIGINT: no work directory" \
	sh -c '! ls -d "$1"/contend.* >/dev/null 2>&1' _ "$T"
check "after SIGINT: no postgres process and no cgroup left" nothing_left

# the server killed in the first run: that run fails, the next gets a
# fresh server
"$CONTEND" run $small --duration 8s -n 2 -L d >"$T/out" 2>"$T/err" &
pid=$!
wait_until 120 sh -c 'ls "$1"/contend.*/wl-pgbench/pg/txlog.* >/dev/null 2>&1' _ "$T"
kill -KILL "$(head -n 1 "$T"/contend.*/wl-pgbench/pg/data/postmaster.pid)"
rc=0
wait "$pid" || rc=$?
runs=$(sql "select group_concat(status, ',') from (select r.status from runs r join configs c on c.id = r.config_id where c.label = 'd' order by r.seq)")
check "the killed server's run failed, the next ran on a fresh server ($runs)" test "$runs" = "failed,ok"
reason=$(sql "select reason from runs r join configs c on c.id = r.config_id where c.label = 'd' and r.status = 'failed'")
check "the failed run says the server is gone, with its log ($reason)" \
	sh -c 'case $1 in "pgbench: the server is gone; the server'"'"'s log: "?*) exit 0 ;; esac; exit 1' _ "$reason"
check "no postgres process and no cgroup left" nothing_left

# SIGKILL mid-run: the server outlives contend; the next contend stops it
# (the journal names its cgroup), and so does `contend restore`
killed() {
	"$CONTEND" run $small --duration 30s -n 3 -L "$1" >"$T/out" 2>"$T/err" &
	pid=$!
	wait_until 120 sh -c 'ls "$1"/contend.*/wl-pgbench/pg/txlog.* >/dev/null 2>&1' _ "$T"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	left=$(cgroups)
}
killed k1
check "SIGKILL: the server's cgroup outlives contend ($left)" test "$left" = 1
run run -w cmd -l none -n 1 --dir "$T" -- true
expect_rc "the next contend runs: exit 0" 0
expect_err "the next contend stops the server a killed one left" \
	"^contend: stopped pgbench server \(cgroup [^)]*/contend-pgbench-$pid\): [1-9][0-9]* processes a killed contend \(pid $pid\) left"
check "after the next contend: no postgres process, cgroup or shared memory" nothing_left
killed k2
check "SIGKILL again: the server's cgroup outlives contend ($left)" test "$left" = 1
run restore
expect_rc "contend restore: exit 0" 0
expect_out "contend restore stops it" \
	"^stopped pgbench server \(cgroup [^)]*/contend-pgbench-$pid\): [1-9][0-9]* processes left by contend pid $pid"
check "after restore: no postgres process, cgroup or shared memory" nothing_left
check "the journal is empty" test "$(journal_rows)" = 0

# failures
run run $small --pg-bin "$T/nothing" -n 1
expect_rc "--pg-bin without a server: exit 2" 2
expect_err "it says what is missing" "^contend: run: pgbench: --pg-bin '$T/nothing' holds no PostgreSQL server"
mkdir "$T/fake"
for p in initdb pg_ctl postgres; do
	printf '#!/bin/sh\necho "initdb: error: this one always fails" >&2\nexit 1\n' >"$T/fake/$p"
	chmod 755 "$T/fake/$p"
done
run run $small --pg-bin "$T/fake" -n 1
expect_rc "initdb failing: exit 3" 3
expect_err "initdb failing: the step and its output" "^contend: pgbench: initdb failed \(exit 1\): initdb: error: this one always fails"
printf 'SELECT no_such_column FROM pgbench_accounts;\n' >"$T/bad.sql"
chmod 644 "$T/bad.sql"
run run $small --pg-script "$T/bad.sql" --duration 2s -n 1 -L e
reason=$(sql "select reason from runs r join configs c on c.id = r.config_id where c.label = 'e'")
check "a script the server refuses: the run failed with the server's ERROR ($reason)" \
	sh -c 'case $1 in *"ERROR:  column \"no_such_column\" does not exist"*) exit 0 ;; esac; exit 1' _ "$reason"
check "no postgres process and no cgroup left" nothing_left
