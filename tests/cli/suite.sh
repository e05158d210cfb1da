#!/bin/sh
# Suite files (run -f) and the shipped profiles: a file's mistakes are
# each one line FILE:LINE, exit 2, nothing run; a file's jobs run with
# [global], include, ${VAR}, $ncpus and params expanded, each named in
# its parameters with a hash of the job as run, so a changed job's
# sessions are told apart; and each shipped profile of a real benchmark
# (hackbench, perf bench, fio, sysbench, stress-ng), run once a job at a
# small size, stores the figure the tool printed (read again here from
# the run's own output by awk or python, not by contend); contend's own
# oltp workload runs as a profile too, and wimmark's pgbench jobs are
# checked and planned.
. "$CT_TESTLIB"
# the sanitized build (CT_TEST_QUICK) runs the C paths once: a profile
# read by a regex (hackbench) and one by a JSON path (fio); the normal
# build runs every profile of a real benchmark
quick=${CT_TEST_QUICK:-}
if [ "$quick" = 1 ]; then plan 33; else plan 48; fi

# three mistakes, three lines, nothing run
cat >"$T/bad.ini" <<'EOF'
[global]
workload = cmd
runs = many

[a]
comand = true

[b]
command = true
quick = perhaps
EOF
run run -f "$T/bad.ini" --dir "$T"
expect_rc "a suite with three mistakes: exit 2" 2
check "three lines, one a mistake" test "$(grep -c "bad.ini:[0-9]*: " "$T/err")" = 3
expect_err "the value, at its line" "bad.ini:3: --runs must be a whole number"
expect_err "the unknown key, with what was meant" "bad.ini:6: unknown key 'comand'; did you mean 'command'\\?"
expect_err "the flag's value" "bad.ini:10: quick is a flag"
check "nothing ran" test "$(sql "select count(*) from runs" 2>/dev/null || echo 0)" = 0

# a job's own check (its workload's) said with the job's line
cat >"$T/bad2.ini" <<'EOF'
[global]
workload = cmd
[fig]
figure = x=([0-9]+)
command = true
EOF
run run -f "$T/bad2.ini" --dir "$T"
expect_rc "a figure without its direction: exit 2" 2
expect_err "the job is named with its line" "bad2.ini:3: job \\[fig\\] cannot run"

# a good suite: [global], include, ${VAR}, $ncpus, a param
cat >"$T/common.ini" <<'EOF'
[global]
workload = cmd
loads = none
runs = 2
no-warmup
delay = 0
shell
figure = n=^n=([0-9]+)$:higher
EOF
cat >"$T/s.ini" <<'EOF'
; a suite of the test's
include common.ini

[echo]
param = k=1,2
command = echo n=$((${BASE} + {k} * $ncpus))

[dflt]
command = echo n=${CT_TEST_UNSET:-$ncpus}
EOF
BASE=10 run run -f "$T/s.ini" --dir "$T" -q
expect_rc "the suite runs: exit 0" 0
ncpus=$(getconf _NPROCESSORS_ONLN)
check "a job a value of its param, each its command expanded" test \
	"$(sql "select group_concat(v, ' ') from (select distinct json_extract(metrics, '\$.n') v from runs where workload_params like '%/echo[%' order by v)")" = "$((10 + ncpus)) $((10 + 2 * ncpus))"
check "a default is expanded too: \${VAR:-\$ncpus}" test \
	"$(sql "select distinct json_extract(metrics, '\$.n') from runs where workload_params like '%/dflt#%'")" = "$ncpus"
check "each job's parameters name the suite, the job and its hash" test \
	"$(sql "select count(distinct workload_params) from runs where workload_params like '%suite=s.ini/echo[k=_]#%'")" = 2
h1=$(sql "select distinct workload_params from runs where workload_params like '%k=1]#%'")
# the same file again: the same jobs; a changed one: another
BASE=10 run run -f "$T/s.ini" --dir "$T" -q
check "the same suite again is the same workload" test "$(sql "select count(distinct workload_params) from runs")" = 3
sed -i 's/runs = 2/runs = 3/' "$T/common.ini"
BASE=10 run run -f "$T/s.ini" --dir "$T" -q
check "a changed suite's sessions are told apart" test "$(sql "select count(distinct workload_params) from runs")" = 6
h1q=$(printf '%s' "$h1" | sed "s/'/''/g")
check "the old job keeps its name" test "$(sql "select count(*) from runs where workload_params = '$h1q'")" = 4
# the store keeps the file each job ran from, as it was then
first=$(sql "select min(session_id) from runs where workload_params like '%suite=s.ini/%'")
last=$(sql "select max(session_id) from runs where workload_params like '%suite=s.ini/%'")
run profiles --session "$first"
expect_out "profiles --session: the file a session's job ran, its include spliced in" "^; ==> .*/common.ini <==\$"
expect_out "as it was then" "^runs = 2\$"
run profiles --session "$last"
expect_out "and a changed one's as it was then" "^runs = 3\$"
# push takes each job's file with its sessions
run push --to "$T/archive.db" -q
expect_rc "push: exit 0" 0
check "push copies each job's file" test \
	"$(sqlite3 "$T/archive.db" "select count(*) from suites")" = "$(sql "select count(*) from suites")"
run profiles --session "$(sqlite3 "$T/archive.db" "select min(session_id) from runs where workload_params like '%suite=s.ini/%'")" --db "$T/archive.db"
expect_out "the pushed store prints the file a session ran, as it was then" "^runs = 2\$"
run run -f "$T/s.ini" --dir "$T" -q
expect_rc "an unset \${VAR}: exit 2" 2
expect_err "it names it at its line" "s.ini:6: command: \\\$\\{BASE\\} is not set"
run run -f nosuchsuite
expect_rc "a suite that is not there: exit 2" 2

# the shipped profiles
run profiles
expect_out "profiles lists the shipped suites" "^hackbench +4 "
# each profile's figure is what its tool printed: a run a job, small, its
# output kept (--keep-files; progress says each session's directory) and
# read again here, job by job
small="-n 1 --no-warmup --delay 0 --progress plain --keep-files"
profile() { # NAME: runs it; $T/dirs.NAME maps each job to its directory
	mkdir -p "$T/p-$1"
	# shellcheck disable=SC2086
	GROUPS=1 LOOPS=100 RUNTIME=1 SIZE=16M TIME=1 THREADS=1 WORKERS=1 \
		run run -f "$1" $small --dir "$T/p-$1"
	awk '/: job [0-9]+ of [0-9]+, \[/ { j = $0; sub(/.*, \[/, "", j); sub(/\].*/, "", j) }
		/files kept in / { d = $0; sub(/.*files kept in /, "", d); print j, d }' "$T/err" >"$T/dirs.$1"
}
# PROFILE JOB PROGRAM: the figure stored for the job's run is the one
# PROGRAM (awk, or "fio") reads from the run's output, to a part in 1e9
fig() {
	d=$(awk -v j="$2" '$1 == j { print $2 }' "$T/dirs.$1")
	if [ "$3" = fio ]; then
		printed=$(python3 "$T/fio.py" "$d/foreground.log" 2>&1)
	else
		printed=$(cat "$d/foreground.log" "$d/foreground.err" 2>/dev/null | awk "$3" | tail -1)
	fi
	stored=$(sql "select json_extract(metrics, '\$.' || json_extract(metrics, '\$.\"@figures\"[0][0]')) from runs where workload_params like '%suite=$1.ini/$2#%' and status = 'ok'")
	if [ -n "$d" ] && [ -n "$printed" ] && [ -n "$stored" ] &&
		awk -v a="$printed" -v b="$stored" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-9 * (a < 0 ? -a : a)) }'; then
		ok "profile $1, job $2: the stored figure is the printed one ($printed)"
	else
		not_ok "profile $1, job $2: the stored figure is the printed one" "directory: $d" "printed: $printed" "stored: $stored" "$(tail -3 "$T/err")"
	fi
}
cat >"$T/fio.py" <<'EOF'
import json, sys
text = open(sys.argv[1]).read()
job = json.JSONDecoder().raw_decode(text, text.index('{'))[0]["jobs"][0]
rw = "read" if job["read"]["io_bytes"] else "write"
print(repr(float(job[rw]["iops" if job["jobname"].startswith("rand") else "bw"])))
EOF
profile hackbench
for j in process-pipe process-socket thread-pipe thread-socket; do
	fig hackbench $j '/^Time:/ { print $2 }'
done
if [ "$quick" != 1 ]; then
	profile perf-bench
	fig perf-bench sched-messaging '/Total time:/ { print $3 }'
	fig perf-bench sched-pipe '/ ops\/sec/ { print $1 }'
	profile sysbench
	fig sysbench cpu '/events per second:/ { print $NF }'
	fig sysbench memory '/MiB transferred/ { gsub(/[()]/, ""); print $4 }'
	fig sysbench threads '/total number of events:/ { print $NF }'
	fig sysbench mutex '/^ *total time:/ { sub(/s$/, "", $NF); print $NF }'
	fig sysbench fileio '/reads\/s:/ { print $NF }'
	profile stress-ng
	for j in cpu switch vm pipe; do
		# the stressor's row (not its "miscellaneous metrics" below it)
		fig stress-ng $j "\$4 == \"$j\" && \$5 ~ /^[0-9]+\$/ { print \$9 }"
	done
fi
profile fio
for j in randread randwrite read write; do
	fig fio $j fio
done
if [ "$quick" != 1 ]; then
	# contend's own oltp workload, scored: small, under no load alone
	mkdir -p "$T/p-oltp"
	DATA=64M DURATION=2s run run -f oltp -l none -n 2 --no-warmup --dir "$T/p-oltp"
	expect_rc "profile oltp, small, under no load: exit 0" 0
	check "its runs are oltp's, of a 64 MiB data file, with their tps" test \
		"$(sql "select count(*) from runs where workload = 'oltp' and status = 'ok' and workload_params like 'data=64.0 MiB %suite=oltp.ini/oltp#%' and json_extract(metrics, '\$.tps') > 0")" = 2
	# WimMark on PostgreSQL (cli-pgbench runs the workload itself): both
	# jobs checked and planned, two schedulers of the disk interleaved
	if [ "$(id -u)" != 0 ] || ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
		skip "profile wimmark, dry run" "not root, or no PostgreSQL server"
		skip "its two jobs are pgbench's" "not root, or no PostgreSQL server"
	else
		chmod 711 "$T" # the server's user passes through to its cluster
		IOSCHEDS=none,mq-deadline run run -f wimmark --dry-run --dir "$T"
		expect_rc "profile wimmark, dry run: exit 0" 0
		check "its two jobs are pgbench's, two schedulers interleaved" test "$(grep -c '^configs: *2 (iosched=none, iosched=mq-deadline; interleaved)' "$T/out") $(grep -c '^workload: *pgbench' "$T/out")" = "2 2"
	fi
fi
