#!/bin/sh
# contend why: each run stores its counters (its foreground's time budget
# from delay accounting, perf's counts on it, its cgroup's and the
# machine's counters), and why says where the time went. Checked by known
# causes - a CPU hog pinned on the foreground's CPU puts "waiting for a
# CPU" first, a direct writer beside it "blocked on block I/O", a memory
# cgroup's squeeze a memory stall - and against what the foreground read
# of itself (/proc/self/schedstat), of the machine (/proc/vmstat) and what
# perf stat counted; kernel.task_delayacct is restored; --no-counters
# stores none and why says so; JSON against the schema; bad input.
. "$CT_TESTLIB"
plan 43
need python3 taskset fio perf

[ "$(id -u)" = 0 ] || skip_all "not root: delay accounting needs it"
orig=$(cat /proc/sys/kernel/task_delayacct)
one="-w cmd -l none -n 5 --no-warmup --delay 0 --dir $T"
# about 0.2 s of work on CPU 0, whatever else wants it
work='i=0; while [ $i -lt 150000 ]; do i=$((i+1)); done'

# shellcheck disable=SC2086
run run $one -L quiet -- taskset -c 0 sh -c "$work"
expect_rc "a quiet session: exit 0" 0
check "kernel.task_delayacct is as it was ($orig)" test "$(cat /proc/sys/kernel/task_delayacct)" = "$orig"
check "the journal holds nothing" test "$(journal_rows)" = 0
n=$(sql "select count(*) from runs where counters like '%\"t_oncpu\":%' and counters like '%\"vm_pgfault\":%'")
check "each run stored its time budget and the machine's counters ($n of 5)" test "$n" = 5

# the same work beside a hog pinned on its CPU
taskset -c 0 sh -c 'while :; do :; done' &
hog=$!
# shellcheck disable=SC2086
run run $one -L hogged -- taskset -c 0 sh -c "$work"
kill "$hog"
wait "$hog" 2>/dev/null
expect_rc "a session beside a hog: exit 0" 0

run why quiet hogged
expect_rc "why: exit 0" 0
expect_out "it says where the time went, waiting for a CPU first" \
	"^  hogged vs quiet: \+[0-9.]+ m?s waiting for a CPU per run \["
expect_out "the budget's table" "^  waiting for a CPU +[0-9.]+ m?s +[0-9.]+ m?s +\+[0-9.]+ m?s \[.*\]  \*$"
run why quiet hogged --format json -o "$T/why.json"
expect_rc "why --format json: exit 0" 0
# the first part of the budget to rank (task lifetimes, the sum the parts
# make, is no part: it ranked above waiting for a CPU in one CI run)
top=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = [c for b in d["loads"] for c in b["configs"] if c.get("why")][0]["why"]
rows = {r["counter"]: r for r in c["counters"]}
budget = [n for n in c["ranked"] if rows[n]["group"] == "budget" and n != "t_lifetime"]
print(budget[0] if budget else "none", c["budget"], c["tested"] > 50, rows["t_cpu_wait"]["shift"] > 0.1)
' "$T/why.json")
check "JSON: waiting for a CPU ranks first of the budget ($top)" test "$top" = "t_cpu_wait True True True"
check "JSON: the report's schema holds" python3 -c '
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))
' "$T/why.json" "$CT_FIXTURES/../../docs/schema/contend-1.json"
run why quiet hogged --format md
expect_out "Markdown: its section" "^### Why hogged differs from quiet under none$"
expect_out "Markdown: the budget's row, ranked" "^\| waiting for a CPU \| .* \| yes \|$"
mdrow=$(sed -nE 's/^\| waiting for a CPU \| ([^|]*) \| ([^|]*) \| ([^|]*) \| .*/\1|\2|\3/p' "$T/out")
run why quiet hogged
txtrow=$(sed -nE 's/^  waiting for a CPU +([0-9.]+ m?s) +([0-9.]+ m?s) +(\+[^]]*\]).*/\1|\2|\3/p' "$T/out")
nonempty "the budget row's figures in text" "$txtrow"
check "Markdown's budget row holds the text's medians, shift and interval ($mdrow)" test "$mdrow" = "$txtrow"
run why quiet hogged --format csv
csvrank=$(awk -F, 'NR > 1 && $5 == "t_cpu_wait" { print $19 "/" $6 }' "$T/out")
check "CSV: a row per counter, waiting for a CPU ranked in the budget ($csvrank)" test "$csvrank" = "1/budget"
run why quiet hogged -o "$T/why.html"
check "HTML: its section and the budget's table" grep -q '<h2 id="why">Why</h2>' "$T/why.html"
run compare quiet hogged --why
expect_out "compare --why: the verdicts, then why" "^Why hogged differs from quiet under load none"

# against what the foreground read of itself: its shell's on-CPU and
# run-queue time (/proc/self/schedstat, ns) at its end, and the machine's
# page faults around its work (/proc/vmstat), printed and taken as its
# figures; the run's window holds a little more (the fork, exec and exit)
# shellcheck disable=SC2086
run run $one -n 3 -L self --shell --figure 'oncpu=^self ([0-9]+):lower' \
	--figure 'wait=^self [0-9]+ ([0-9]+):lower' --figure 'faults=^faults ([0-9]+):lower' -- \
	"f0=\$(awk '/^pgfault /{print \$2}' /proc/vmstat); $work; dd if=/dev/zero of=/dev/null bs=30M count=1 2>/dev/null; f1=\$(awk '/^pgfault /{print \$2}' /proc/vmstat); echo faults \$((f1 - f0)); read a b c </proc/\$\$/schedstat; echo self \$a \$b"
expect_rc "a session that reads itself: exit 0" 0
sql "select json_extract(metrics, '\$.oncpu') / 1e9, json_extract(counters, '\$.t_oncpu'), json_extract(metrics, '\$.wait') / 1e9, json_extract(counters, '\$.t_cpu_wait'), json_extract(metrics, '\$.faults'), json_extract(counters, '\$.vm_pgfault') from runs r join configs c on c.id = r.config_id where c.label = 'self' and r.status = 'ok'" | tr '|' ' ' >"$T/self"
# the tree's on CPU holds the shell's and its children's (awk, head,
# od): at least the shell's, at most a second more
check "on CPU: the stored tree's holds what the shell read of itself ($(tr '\n' ';' <"$T/self"))" \
	awk '{ n++; if (!($2 >= $1 && $2 <= $1 + 1)) bad = 1 } END { exit bad || n != 3 }' "$T/self"
check "waiting for a CPU: at least the shell's own" \
	awk '{ n++; if (!($4 >= $3)) bad = 1 } END { exit bad || n != 3 }' "$T/self"
check "the machine's page faults: at least what the foreground counted, and within 20% more" \
	awk '{ n++; if (!($6 >= $5 && $6 <= 1.2 * $5 + 2000)) bad = 1 } END { exit bad || n != 3 }' "$T/self"

# perf's counts against perf stat's on the same runs: the foreground is
# perf stat itself, so the tree's counts hold its child's and perf's own
pe='--figure-from stderr --figure clock=^([0-9.]+),msec,task-clock:lower --figure cs=^([0-9]+),,context-switches:lower --figure mig=^([0-9]+),,cpu-migrations:lower --figure flt=^([0-9]+),,page-faults:lower'
# shellcheck disable=SC2086
run run $one -n 3 -L perfd $pe -- perf stat -x, -e task-clock,context-switches,cpu-migrations,page-faults -- \
	sh -c "$work; dd if=/dev/zero of=/dev/null bs=30M count=1 2>/dev/null"
expect_rc "a session under perf stat: exit 0" 0
sql "select json_extract(metrics, '\$.clock') / 1e3, json_extract(counters, '\$.pf_task_clock'), json_extract(metrics, '\$.cs'), json_extract(counters, '\$.pf_cs'), json_extract(metrics, '\$.mig'), json_extract(counters, '\$.pf_migrations'), json_extract(metrics, '\$.flt'), json_extract(counters, '\$.pf_faults') from runs r join configs c on c.id = r.config_id where c.label = 'perfd' and r.status = 'ok'" | tr '|' ' ' >"$T/perf"
nonempty "perf's and contend's counts" "$(cat "$T/perf")"
# perf's own: about 20 ms on CPU and 2,000 faults here
check "perf: task-clock holds perf stat's, and at most 0.3 s more ($(tr '\n' ';' <"$T/perf"))" \
	awk 'NF == 8 { n++; if (!($2 >= $1 && $2 <= $1 + 0.3)) bad = 1 } END { exit bad || n != 3 }' "$T/perf"
check "perf: context switches and migrations hold perf stat's" \
	awk 'NF == 8 { n++; if (!($4 >= $3 && $6 >= $5)) bad = 1 } END { exit bad || n != 3 }' "$T/perf"
check "perf: page faults hold perf stat's, and at most 20,000 more" \
	awk 'NF == 8 { n++; if (!($8 >= $7 && $8 <= $7 + 20000 && $7 > 7000)) bad = 1 } END { exit bad || n != 3 }' "$T/perf"
hw=$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label = 'perfd' and r.counters like '%\"pf_cycles\":%'")
if perf stat -x, -e cycles true 2>&1 | grep -q "not supported"; then
	check "no hardware counter on this machine (perf stat says so): none stored ($hw)" test "$hw" = 0
	run why quiet hogged
	expect_out "why says perf counted software events only" "perf counted software events only"
else
	check "hardware counters on this machine: each run stored cycles ($hw)" test "$hw" = 3
	run why quiet hogged
	check "why does not say perf counted software events only" \
		sh -c '! grep -q "perf counted software events only" "$1"' _ "$T/out"
fi

# one label against its own runs under no load (contest's question):
# under a load that spins on the foreground's CPU the same work waits for
# a CPU (the process load's ring of 8 moves between the CPUs: in one run of
# five it barely met the pinned foreground, and Welch across 70 counters
# let nothing rank); beside a direct-I/O writer the same direct reads
# block on I/O. Each is a known cause, ranked first of
# the budget; a cause that did not rank (the rule's level, or a machine
# that moved) gets one more session pair before it fails.
first_budget() { # first_budget LABEL LOAD: the ranked part of the budget that moved most
	"$CONTEND" why "$1" -l "$2" --format json -o "$T/w1.json" >/dev/null 2>&1 || return
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = [c for b in d["loads"] if b["load"] == sys.argv[2] for c in b["configs"] if c.get("why")][0]["why"]
rows = {r["counter"]: r for r in c["counters"]}
b = sorted((n for n in c["ranked"] if rows[n]["group"] == "budget" and n != "t_lifetime"),
           key=lambda n: -abs(rows[n]["shift"]))
print(b[0] if b else "none", c["baseline_load"])
' "$T/w1.json" "$2"
}
for try in 1 2; do
	# shellcheck disable=SC2086
	"$CONTEND" run -w cmd -l none,spin --load-cmd 'spin=taskset -c 0 sh -c "while :; do :; done"' \
		-n 5 --no-warmup --delay 1 --dir "$T" -L cpu$try -q -- taskset -c 0 sh -c "$work" \
		>/dev/null 2>&1
	got=$(first_budget cpu$try spin)
	[ "$got" = "t_cpu_wait none" ] && break
done
check "why LABEL -l spin: waiting for a CPU first, against its runs under none ($got)" \
	test "$got" = "t_cpu_wait none"
run why cpu$try -l spin
expect_out "its text names the loads" "^Why cpu$try under load spin differs from cpu$try under load none"
dd if=/dev/urandom of="$T/rd" bs=1M count=16 2>/dev/null
writer='w=fio --name=w --rw=randwrite --bs=64k --size=256M --direct=1 --iodepth=4 --ioengine=libaio --time_based --runtime=1h --filename=w.dat'
for try in 1 2; do
	"$CONTEND" run -w cmd -l none,w --load-cmd "$writer" -n 8 --no-warmup --delay 1 --dir "$T" \
		-L disk$try -q -- dd if="$T/rd" of=/dev/null bs=4k count=2000 iflag=direct >/dev/null 2>&1
	got=$(first_budget disk$try w)
	[ "$got" = "t_blkio none" ] && break
done
check "why LABEL -l w (a direct writer beside): blocked on block I/O first ($got)" \
	test "$got" = "t_blkio none"

# a memory squeeze: the same reads of a 256 MiB file through mmap, two
# passes, its pages dropped before each, by a foreground in a memory cgroup
# whose limit is the knob varied - 1 GiB, or 64 MiB. Squeezed, the disk
# reads the same and the pages are reclaimed instead: of the counters of
# time, a memory stall ranks first (the machine's or the cgroup's memory
# pressure, reclaim, thrashing); a count that moves more surely than any
# time (the involuntary switches reclaim brings, +220 a run) may rank above
if [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
	sq=/sys/fs/cgroup/memory/ct-why-$$ lim=memory.limit_in_bytes
else
	u=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	grep -qw memory "$u/cgroup.subtree_control" 2>/dev/null || skip_all "no memory cgroup controller"
	sq=$u/ct-why-$$ lim=memory.max
fi
mkdir "$sq" && at_exit "rmdir '$sq' 2>/dev/null"
was=$(cat "$sq/$lim")
dd if=/dev/urandom of="$T/mm.dat" bs=1M count=256 2>/dev/null
cat >"$T/touch.py" <<'PY'
import mmap, os, sys
fd, s = os.open(sys.argv[1], os.O_RDONLY), 0
for p in range(2):
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    m = mmap.mmap(fd, 0, prot=mmap.PROT_READ)
    for i in range(0, len(m), 4096):
        s += m[i]
    m.close()
print(s)
PY
memfirst() { # memfirst LABEL: the first time counter ranked, and reclaim's lower bound
	"$CONTEND" why "$1+$sq/$lim=1073741824" "$1+$sq/$lim=67108864" --format json \
		-o "$T/m.json" >/dev/null 2>&1 || return
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = [c for b in d["loads"] for c in b["configs"] if c.get("why")][0]["why"]
rows = {r["counter"]: r for r in c["counters"]}
top = [n for n in c["ranked"] if rows[n]["unit"] == "s"]
print(top[0] if top else "none", rows["t_reclaim"]["low"] > 0)
' "$T/m.json"
}
memory="psi_mem_some psi_mem_full cg_mem_some cg_mem_full t_reclaim t_thrashing"
for try in 1 2; do
	"$CONTEND" run -w cmd -l none -n 8 --no-warmup --delay 0 --dir "$T" -L mem$try -q \
		--vary "$sq/$lim=1073741824,67108864" -- \
		sh -c "echo \$\$ >$sq/cgroup.procs && exec python3 $T/touch.py $T/mm.dat" >/dev/null 2>&1
	got=$(memfirst mem$try)
	case " $memory " in *" ${got% *} "*) [ "${got#* }" = True ] && break ;; esac
done
nonempty "the squeeze's first counter" "$got"
check "a memory squeeze: a memory stall is the first time to rank, reclaim's is above nothing ($got)" \
	sh -c 'case " $2 " in *" ${1% *} "*) [ "${1#* }" = True ] ;; *) false ;; esac' _ "$got" "$memory"
check "the limit the squeeze varied is as it was ($was)" test "$(cat "$sq/$lim")" = "$was"

# --no-counters: none stored, and why says so
# shellcheck disable=SC2086
run run $one -n 3 -L bare --no-counters -- true
expect_rc "--no-counters: exit 0" 0
check "--no-counters stores none" test "$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label = 'bare' and r.counters <> ''")" = 0
# shellcheck disable=SC2086
run run $one -n 3 -L bare2 --no-counters -- true
run why bare bare2
expect_rc "why without counters: exit 0" 0
expect_out "it says there is nothing to say, and why" "nothing to say: no counters stored with these runs"

# bad input
run why quiet
expect_rc "why with one label that ran under none alone: exit 2" 2
expect_err "it says so" "has runs under none alone"
run why quiet nosuch
expect_rc "why with a label that has no runs: exit 2" 2
run why quiet hogged --fail-on-regression 5
expect_rc "why takes no gate: exit 2" 2
