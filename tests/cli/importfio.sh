#!/bin/sh
# contend import fio with the real fio: its --output-format=json runs
# (appended to one file, or several files) stored as a session per job, a
# run per document, judged by --metric; the figures stored are the ones in
# the files (read back with python3's json, not contend's parser). fio's
# traps: a note printed before the JSON, percentiles missing without I/O,
# a job of several directions asked for one clat, numjobs without
# group_reporting, and the layouts of fio 2.x (committed files: clat in
# microseconds, the key "0.00" repeated, no total_ios, no disk_util).
. "$CT_TESTLIB"
plan 31

if ! command -v fio >/dev/null 2>&1; then
	for i in $(seq 31); do skip "import fio" "fio is not installed"; done
	exit 0
fi
F="$CT_FIXTURES/fio"
# fio JOB-OPTIONS...: one second of a job on a file in $T, JSON on stdout
# (psync with iodepth 4: fio prints a note before the JSON)
fiorun() { fio --filename="$T/fio.dat" --size=16M --bs=4k --runtime=1 --time_based \
	--ioengine=psync --output-format=json "$@" 2>/dev/null; }
# py FILE DOC EXPR: EXPR of the DOC-th (from 0) JSON document of FILE, as j
py() {
	python3 - "$@" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
dec, docs = json.JSONDecoder(), []
for m in re.finditer(r"^\{", text, re.M):
    if not docs or m.start() >= end:
        d, end = dec.raw_decode(text, m.start())
        docs.append(d)
j = docs[int(sys.argv[2])]
print(repr(float(eval(sys.argv[3]))))
PY
}
# near A B: A and B within 1e-9 relative
near() { python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(a - b) > 1e-9 * max(abs(a), abs(b), 1e-300))" "$1" "$2"; }
runs() { sql "select count(*) from runs"; }

for i in 1 2 3; do fiorun --name=r --rw=randread --iodepth=4 >>"$T/many.json"; done
grep -q '^note: ' "$T/many.json" && ok "fio printed a note before its JSON" || not_ok "a note before the JSON" "$(head -3 "$T/many.json")"
run import fio "$T/many.json" -L a
expect_rc "three runs appended to one file: exit 0" 0
expect_out "it says what it stored" "^imported 1 fio job \(3 runs\) from 1 file '.*many.json' as 'a'"
want=$(py "$T/many.json" 1 "j['jobs'][0]['read']['iops']")
got=$(sql "select json_extract(metrics, '\$.iops') from runs r join configs c on c.id = r.config_id where c.label = 'a' and seq = 2")
near "$got" "$want" && ok "run 2's IOPS is the second document's" || not_ok "run 2's IOPS" "got $got, want $want"
want=$(py "$T/many.json" 2 "j['jobs'][0]['read']['runtime'] * 1e6")
[ "$(sql "select wall_ns from runs r join configs c on c.id = r.config_id where c.label = 'a' and seq = 3")" = "${want%.0}" ] &&
	ok "its Time is fio's runtime" || not_ok "its Time is fio's runtime" "want $want: $(sql "select wall_ns from runs")"

run import fio "$T/many.json" -L p --metric clat_p99
want=$(py "$T/many.json" 0 "j['jobs'][0]['read']['clat_ns']['percentile']['99.000000'] / 1000")
got=$(sql "select json_extract(metrics, '\$.clat_p99_us') from runs r join configs c on c.id = r.config_id where c.label = 'p' and seq = 1")
near "$got" "$want" && ok "--metric clat_p99: fio's 99th percentile in us" || not_ok "clat_p99" "got $got, want $want"
run import fio "$T/many.json" -L w --metric bw
want=$(py "$T/many.json" 2 "j['jobs'][0]['read']['bw']")
got=$(sql "select json_extract(metrics, '\$.bw_kib') from runs r join configs c on c.id = r.config_id where c.label = 'w' and seq = 3")
near "$got" "$want" && ok "--metric bw: fio's KiB/s" || not_ok "bw" "got $got, want $want"

# repeated files, then a verdict on them
for i in 1 2 3 4 5; do fiorun --name=r --rw=randread --iodepth=4 >"$T/b$i.json"; done
run import fio "$T/b1.json" "$T/b2.json" "$T/b3.json" "$T/b4.json" "$T/b5.json" -L b
expect_rc "five files: exit 0" 0
expect_out "one job, five runs" "^imported 1 fio job \(5 runs\) from 5 files as 'b'"
run import fio "$T/many.json" "$T/b1.json" -L a
run compare a b
expect_rc "compare of two imports: exit 0" 0
expect_out "judged by IOPS, higher better" "^IOPS: the mean of the runs, higher is better"
expect_out "with a verdict" "^none +b vs a: "
run compare a b --format json
if [ "$rc" = 0 ] && python3 -c "import json, sys; d = json.load(open(sys.argv[1])); sys.exit(not (d['figure'] == 'iops' and d['higher_better'] is True))" "$T/out"; then
	ok "JSON: figure iops, higher better"
else not_ok "JSON: figure iops" "$(head -c 300 "$T/out")"; fi

# a direction without I/O has no percentiles (3.x prints none)
n=$(runs)
run import fio "$T/b1.json" -L x --metric write_clat_p99
expect_rc "write_clat_p99 of a job that only read: exit 2" 2
expect_err "it says so" "job 'r' did no write I/O: it has no write_clat_p99"
fiorun --name=m --rw=randrw >"$T/rw.json"
run import fio "$T/rw.json" -L x --metric clat_p99
expect_rc "one clat of a job that read and wrote: exit 2" 2
expect_err "it asks which" "did I/O in 2 directions, each with its own clat_p99: say --metric read_clat_p99 or write_clat_p99"
run import fio "$T/rw.json" -L rw --metric read_clat_p99
want=$(py "$T/rw.json" 0 "j['jobs'][0]['read']['clat_ns']['percentile']['99.000000'] / 1000")
got=$(sql "select json_extract(metrics, '\$.clat_p99_us') from runs r join configs c on c.id = r.config_id where c.label = 'rw'")
[ "$rc" = 0 ] && near "$got" "$want" && ok "read_clat_p99: the read side's" || not_ok "read_clat_p99" "exit $rc, got $got, want $want" "$(cat "$T/err")"

# numjobs without group_reporting lists the job twice
fiorun --name=n --rw=randread --numjobs=2 >"$T/nj.json"
run import fio "$T/nj.json" -L x
expect_rc "numjobs=2 without group_reporting: exit 2" 2
expect_err "it says what to do" "lists job 'n' twice \(numjobs without group_reporting\): rerun fio with --group_reporting"

# two jobs: a session each, or one with --job
printf '[j1]\nrw=randread\n[j2]\nrw=randwrite\n' >"$T/two.fio"
fio "$T/two.fio" --filename="$T/fio.dat" --size=16M --bs=4k --runtime=1 --time_based --output-format=json >"$T/two.json" 2>/dev/null
run import fio "$T/two.json" -L two
expect_out "two jobs: two sessions" "^imported 2 fio jobs \(2 runs\)"
run import fio "$T/two.json" -L one --job j2
expect_out "--job j2: one" "^imported 1 fio job \(1 runs\)"

# fio 2.x, committed: clat in us, "0.00" repeated, no disk_util, a note first
run import fio "$F/v2.2-randwrite.json" -L old --metric clat_p99
[ "$rc" = 0 ] && [ "$(sql "select json_extract(metrics, '\$.clat_p99_us') from runs r join configs c on c.id = r.config_id where c.label = 'old'")" = 1096 ] &&
	ok "fio 2.2: clat_p99 in us as written, duplicate keys taken" || not_ok "fio 2.2" "exit $rc: $(cat "$T/err")" "$(sql "select metrics from runs r join configs c on c.id = r.config_id where c.label = 'old'")"
run import fio "$F/v2.1-randread-2runs.json" -L older
[ "$rc" = 0 ] && [ "$(sql "select group_concat(v, ' ') from (select json_extract(metrics, '\$.iops') v from runs r join configs c on c.id = r.config_id where c.label = 'older' order by seq) t")" = "4369.06 4402.91" ] &&
	ok "fio 2.1: no total_ios, two documents with text between: two runs" || not_ok "fio 2.1" "exit $rc: $(cat "$T/err")"

# a flagged imported run says it has no monitors, not "foreign CPU 0%"
for v in 100 101 99 100 102 300; do
	printf '{"jobs":[{"jobname":"o","read":{"total_ios":9,"iops":%s,"bw":400,"runtime":1000,"clat_ns":{"mean":1e4,"N":9,"percentile":{"50.000000":9000,"99.000000":20000}}}}]}\n' "$v"
done >"$T/outlier.json"
run import fio "$T/outlier.json" -L o
run report o
expect_out "a flagged imported run: no monitors to say why" "^none +o run 6 flagged \(300\.0 IOPS\): imported, no monitors to say why\$"
run report o --format json
python3 -c "import json, sys; d = json.load(open(sys.argv[1])); f = [r['flag'] for c in d['loads'][0]['configs'] for r in c['runs'] if r.get('flag')]; sys.exit(not (f and f[0]['foreign_cpu_pct'] is None))" "$T/out" 2>"$T/pyerr" &&
	ok "and JSON gives its foreign CPU as null" || not_ok "JSON foreign CPU null" "$(cat "$T/pyerr")" "$(head -c 600 "$T/out")"

# not fio's: one line, exit 2, nothing stored
n=$(runs)
printf '{"results": []}\n' >"$T/hf.json"
run import fio "$T/hf.json" -L x
expect_rc "JSON that is not fio's: exit 2" 2
printf 'fio: no such job file\n' >"$T/none.json"
run import fio "$T/none.json" -L x
expect_err "no JSON at all: named" "no JSON document in it"
head -c 400 "$T/b1.json" >"$T/cut.json"
run import fio "$T/cut.json" -L x
expect_rc "a cut-off document: exit 2" 2
run import fio "$T/b1.json" -L x --metric p42
expect_err "an unknown --metric" "--metric p42: iops, bw, clat_p50 or clat_p99"
[ "$(runs)" = "$n" ] && [ "$(wc -l <"$T/err")" = 1 ] && ok "one line each, nothing stored" || not_ok "one line, nothing stored" "$(cat "$T/err")"
