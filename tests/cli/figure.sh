#!/bin/sh
# A command's own figure (--figure, --figure-json): fio's JSON, read as
# python reads it (a key holding dots, the judged figure stored first);
# stdout, stderr or a file the command writes; a run whose output lacks
# its figure fails and says why; a throughput drop is worse in compare
# and gates; history finds a step in it and bisect the commit that made
# it; bad figure options are usage errors. (The shipped profiles of
# hackbench, perf bench, sysbench, stress-ng and fio: cli-suite.)
. "$CT_TESTLIB"
plan 39

one="-l none -n 2 --no-warmup --delay 0 --dir $T"
# the values of metric M of label L's ok runs, in the order they ran
stored() {
	sql "select json_extract(r.metrics, '\$.$2') from runs r join configs c on c.id = r.config_id where c.label = '$1' and r.status = 'ok' order by r.id"
}
# NAME LABEL METRIC FILE: the stored values are the printed ones (FILE: one
# a line, in run order), to a part in 1e9 (the store keeps 17 digits)
same() {
	stored "$2" "$3" >"$T/stored"
	if [ "$(wc -l <"$4")" -ge 1 ] && [ "$(wc -l <"$4")" = "$(wc -l <"$T/stored")" ] &&
		paste "$T/stored" "$4" | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > 1e-9 * ($2 < 0 ? -$2 : $2)) bad = 1 } END { exit bad }'; then
		ok "$1: the stored figure is the printed one ($(tr '\n' ' ' <"$4"))"
	else
		not_ok "$1: the stored figure is the printed one" "printed: $(tr '\n' ' ' <"$4")" "stored: $(tr '\n' ' ' <"$T/stored")" "$(cat "$T/err")"
	fi
}

# fio: its JSON, judged by read IOPS, its p99 completion latency beside it
# shellcheck disable=SC2086
run run -w cmd $one -L fio --shell --figure-json 'iops=jobs.0.read.iops:higher:IOPS' \
	--figure-json 'p99=jobs.0.read.clat_ns.percentile.99.000000:lower:ns' \
	-- "fio --name=r --rw=randread --size=8M --bs=4k --runtime=1 --time_based --ioengine=psync --filename=$T/fio.dat --output-format=json | tee -a $T/fio.out"
expect_rc "fio: exit 0" 0
# each run's JSON document, as python reads it
cat >"$T/fio.py" <<'EOF'
import json, sys
text, at, dec = open(sys.argv[1]).read(), 0, json.JSONDecoder()
while text.find('{', at) >= 0:
    doc, at = dec.raw_decode(text, text.find('{', at))
    read = doc["jobs"][0]["read"]
    print(repr(float(read["iops"])) if sys.argv[2] == "iops" else read["clat_ns"]["percentile"]["99.000000"])
EOF
python3 "$T/fio.py" "$T/fio.out" iops >"$T/fio.want"
same "fio IOPS" fio iops "$T/fio.want"
python3 "$T/fio.py" "$T/fio.out" p99 >"$T/fio.p99"
same "fio p99 (a key holding dots)" fio p99 "$T/fio.p99"
[ "$(sql "select json_extract(r.metrics, '\$.\"@figures\"[0][0]') from runs r join configs c on c.id = r.config_id where c.label = 'fio' limit 1")" = iops ] &&
	ok "fio: the judged figure is stored first" || not_ok "fio: the judged figure is stored first" "$(sql "select metrics from runs r join configs c on c.id = r.config_id where c.label = 'fio' limit 1")"

# a file the command writes (--figure-from FILE, relative to its
# directory), removed before each run: a run that does not write it fails
# rather than read the last run's
cd "$T" || exit 1
# shellcheck disable=SC2086
run run -w cmd $one -L file --shell --figure-from fig.txt --figure 'v=^v=([0-9]+)$:higher' \
	-- "cd $T && n=\$(cat n 2>/dev/null || echo 0); echo \$((n + 1)) >n; echo v=\$((n + 5)) >fig.txt"
[ "$rc" = 0 ] && [ "$(stored file v | tr '\n' ' ')" = "5 6 " ] && ok "--figure-from FILE reads the file each run wrote" ||
	not_ok "--figure-from FILE reads the file each run wrote" "exit $rc: $(stored file v | tr '\n' ' ')" "$(cat "$T/err")"
# shellcheck disable=SC2086
run run -w cmd $one -L nofile --figure-from "$T/fig.txt" --figure 'v=^v=([0-9]+)$:higher' -- true
[ "$rc" = 3 ] && [ "$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label = 'nofile' and r.reason like '%did not write it%'")" = 2 ] &&
	ok "a run that does not write the file fails, though the last run's is there" ||
	not_ok "a run that does not write the file fails, though the last run's is there" "exit $rc" "$(sql "select reason from runs r join configs c on c.id = r.config_id where c.label = 'nofile'")"

# the figure from stderr, not stdout
# shellcheck disable=SC2086
run run -w cmd $one -L err --shell --figure-from stderr --figure 'v=v=([0-9]+):higher' \
	-- "echo v=1; echo v=2 >&2"
[ "$rc" = 0 ] && [ "$(stored err v | sort -u)" = 2 ] && ok "--figure-from stderr reads stderr alone" ||
	not_ok "--figure-from stderr reads stderr alone" "exit $rc: $(stored err v | tr '\n' ' ')" "$(cat "$T/err")"

# a run whose output lacks its figure fails, with why and its last line
# shellcheck disable=SC2086
run run -w cmd $one -L lacks --figure 'x=^ops: ([0-9]+):higher' -- echo no figure here
expect_rc "an output without its figure: exit 3" 3
[ "$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label = 'lacks' and r.status = 'failed' and r.reason = 'figure ''x'': no line of the output matched ''^ops: ([0-9]+)''; its output ends: no figure here'")" = 2 ] &&
	ok "each such run fails, saying which figure and how the output ends" ||
	not_ok "each such run fails, saying which figure and how the output ends" "$(sql "select status, reason from runs r join configs c on c.id = r.config_id where c.label = 'lacks'")"
# shellcheck disable=SC2086
run run -w cmd $one -L nan --figure 'x=^ops: (.*):higher' -- echo "ops: N/A"
[ "$rc" = 3 ] && [ "$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label = 'nan' and r.reason like '%''N/A'', what %captured, is not a number%'")" = 2 ] &&
	ok "a figure that is not a number fails its run" ||
	not_ok "a figure that is not a number fails its run" "exit $rc" "$(sql "select reason from runs r join configs c on c.id = r.config_id where c.label = 'nan'")"

# a throughput drop is worse, and gates: ops about 1000 against about 800
# (one command, its level read from a file, so both are one workload;
# each run's noise seeded by its shell's pid), one session a side after
# the machine's spread of sessions is measured, as the gate asks
ops="awk -v m=\$(cat $T/level) -v s=\$\$ 'BEGIN { srand(s); printf \"ops: %.3f\\n\", m + 20 * rand() }'"
echo 1000 >"$T/level"
# shellcheck disable=SC2086
run calibrate -w cmd -l none -n 6 --no-warmup --delay 0 --dir $T --shell \
	--figure 'ops=^ops: ([0-9.]+):higher:ops/s' --sessions 4 --every 1s -- "$ops"
expect_rc "calibrate by the figure: exit 0" 0
for side in base:1000 slow:800; do
	echo "${side#*:}" >"$T/level"
	# shellcheck disable=SC2086
	run run -w cmd -l none -n 6 --no-warmup --delay 0 --dir $T -L "${side%:*}" --shell \
		--figure 'ops=^ops: ([0-9.]+):higher:ops/s' -- "$ops"
done
run compare base slow --fail-on-regression 5
expect_rc "a 20% drop in ops/s against a 5% gate: exit 1" 1
expect_out "compare calls the drop worse" "worse"
# Ratio and Score by the figure, against the baseline's no-load mean,
# computed here from the stored figures: slow's row in the table
avg() { sql "select avg(json_extract(r.metrics, '\$.ops')) from runs r join configs c on c.id = r.config_id where c.label = '$1' and r.status = 'ok'"; }
want=$(awk -v b="$(avg base)" -v s="$(avg slow)" 'BEGIN { if (b > 0 && s > 0) printf "%.2f %.0f", s / b, 1000 * s / b }')
got=$(awk '$1 == "slow" { print $8, $9; exit }' "$T/out")
nonempty "the table's Ratio and Score of slow: $got" "$got"
[ -n "$want" ] && [ "$got" = "$want" ] && ok "Ratio and Score are ops/s over the baseline's no-load mean ($want)" ||
	not_ok "Ratio and Score are ops/s over the baseline's" "want '$want', got '$got'" "$(cat "$T/out")"
expect_out "and say so" "^Score = 1000 x ops / [0-9.]+ ops/s, the no-load mean ops of 'base' \(session [0-9]+\)$"
# a figure where lower is better scores the other way: 1000 x ref / value,
# the baseline's 1000 exactly (of the means, whichever way); md, html and
# csv show the secondary figure with its verdict

for side in lb:100 ls:200; do
	echo "${side#*:}" >"$T/level"
	# shellcheck disable=SC2086
	run run -w cmd -l none -n 4 --no-warmup --delay 0 --dir $T -L "${side%:*}" --shell \
		--figure 'lat=^ops: ([0-9.]+):lower:ms' --figure 'other=^ops: ([0-9.]+):higher' -- "$ops"
done
run compare lb ls
lavg() { sql "select avg(json_extract(r.metrics, '\$.lat')) from runs r join configs c on c.id = r.config_id where c.label = '$1' and r.status = 'ok'"; }
want=$(awk -v b="$(lavg lb)" -v s="$(lavg ls)" 'BEGIN { if (b > 0 && s > 0) printf "1000 %.0f", 1000 * b / s }')
got=$(awk '($1 == "lb" || $1 == "ls") && !seen[$1]++ { printf "%s%s", sep, $9; sep = " " }' "$T/out")
[ -n "$want" ] && [ "$got" = "$want" ] && ok "lower is better: Score = 1000 x the baseline's mean / the mean ($want)" ||
	not_ok "lower is better: Score = 1000 x the baseline's mean / the mean" "want '$want', got '$got'" "$(cat "$T/out")"
run compare lb ls --format md
expect_out "md: the secondary figure's verdict beside the judged one's" "^\| none \| ls \(other\) \| \+[0-9.]+% \|.*\| better"
expect_out "md: its row" "^\| &nbsp; other \| \| [0-9.]+ \(higher is better\)"
run compare lb ls --format html
expect_out "html: the secondary figure's row, never gating" "<tr class=\"secondary\"><td></td><td class=\"l\">&nbsp;&nbsp;other</td>.*secondary: never gates"
run compare lb ls --format csv
check "csv: the secondary figure's verdict in its column" python3 -c '
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["label"] == "ls"]
sys.exit(not rows or not all(r["secondary"].startswith("other: +") and "better" in r["secondary"] for r in rows))' "$T/out"
run compare slow base --fail-on-regression 5
expect_rc "the other way round it is a gain: exit 0" 0
run fleet summary --baseline base -w cmd
expect_out "fleet summary: the figure, its unit and way" "; ops in ops/s, higher is better$"
expect_out "and the drop is worse there too" " slow .* [0-9]+ +-[0-9.]+% \\[.*\\] worse "

# --target-effect picks -n from a calibration of the figure (its values
# are ops/s, not seconds), and --aa judges the figure
echo 1000 >"$T/level"
# shellcheck disable=SC2086
run calibrate -w cmd -l none -n 8 --no-warmup --delay 0 --dir $T -L te --shell \
	--figure 'ops=^ops: ([0-9.]+):higher:ops/s' -- "$ops"
[ "$rc" = 0 ] && [ "$(sql "select count(*) from calibrations c, json_each(c.runs) j where j.value > 900")" = 8 ] &&
	ok "calibrate stores the figure's values" || not_ok "calibrate stores the figure's values" "exit $rc: $(sql "select runs from calibrations")" "$(cat "$T/err")"
# shellcheck disable=SC2086
run run -w cmd -l none --target-effect 5 --no-warmup --delay 0 --dir $T -L te --shell \
	--figure 'ops=^ops: ([0-9.]+):higher:ops/s' -- "$ops"
n=$(sed -n 's/^--target-effect 5%: \([0-9]*\) runs a load .*/\1/p' "$T/out")
nonempty "--target-effect by the figure picks -n: $n" "$n"
[ "$rc" = 0 ] && [ "$(sql "select count(*) from runs where session_id = (select max(id) from sessions)")" = "$n" ] &&
	ok "and runs that many" || not_ok "and runs that many" "exit $rc" "$(cat "$T/out" "$T/err")"
# shellcheck disable=SC2086
run run -w cmd -l none -n 6 --aa --no-warmup --delay 0 --dir $T -L aa --shell \
	--figure 'ops=^ops: ([0-9.]+):higher:ops/s' -- "$ops"
expect_out "--aa judges the figure" "^ops against 'aa\+aa=A' "
expect_out "and says what it found" "^A/A check: "

# history: a step in a throughput series (sessions at about 1000 ops/s,
# then at about 800) is a change point, and a worse one
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	[ "$i" -le 6 ] && echo 1000 >"$T/level" || echo 800 >"$T/level"
	# shellcheck disable=SC2086
	run run -w cmd -l none -n 3 --no-warmup --delay 0 --dir $T -L "h-$i" --shell \
		--figure 'ops=^ops: ([0-9.]+):higher:ops/s' -- "$ops"
done
run history --label 'h-*'
expect_out "history finds the step in ops/s" "^none: machine .*, 12 sessions, 1 change point$"
expect_out "and calls the drop worse" "^  ---- change 1 at session .*worse"

# bisect: a generated repository whose program prints ops/s, the 5th of
# 7 changes lowering it by 30%; bisect names that commit
R="$T/repo"
mkdir "$R"
git -C "$R" init -q
git -C "$R" config user.email t@example.org
git -C "$R" config user.name t
cat >"$R/bench" <<'EOF'
#!/bin/sh
. ./level
awk -v m="$LEVEL" -v s=$$ 'BEGIN { srand(s); printf "ops: %.2f\n", m + 20 * rand() }'
EOF
chmod +x "$R/bench"
echo LEVEL=1000 >"$R/level"
git -C "$R" add . && git -C "$R" commit -qm "bench: the base"
for k in 1 2 3 4 5 6 7; do
	echo "change $k" >>"$R/notes.txt"
	[ "$k" = 5 ] && echo LEVEL=700 >"$R/level"
	git -C "$R" add -A . && git -C "$R" commit -qm "change $k"
done
culprit=$(git -C "$R" log --format=%H --grep="^change 5\$")
run bisect start --repo "$R" --good HEAD~7 --bad HEAD --build true -q --no-warmup --delay 0 \
	--dir $T -w cmd --figure 'ops=^ops: ([0-9.]+):higher:ops/s' -- ./bench
expect_rc "bisect by ops/s: exit 0" 0
expect_out "it names the commit that lowered ops/s" "^$culprit is the first bad commit\$"
"$CONTEND" bisect reset --repo "$R" >/dev/null 2>&1

# figure options that cannot be right are usage errors, nothing run
n0=$(sql "select count(*) from runs")
run run -w cmd $one --figure 'ops=([0-9]+)' -- true
expect_rc "a figure without its direction: exit 2" 2
expect_err "it says to give one" "--figure 'ops=\(\[0-9\]\+\)': say which way is better"
run run -w cmd $one --figure 'ops=([0-9]+):higher' --judge lat -- true
expect_rc "--judge naming no figure: exit 2" 2
run run -w selftest -l none -n 2 --figure 'ops=([0-9]+):higher'
expect_rc "--figure with another workload: exit 2" 2
expect_err "it says whose option it is" "--figure applies to workload cmd only"
[ "$(sql "select count(*) from runs")" = "$n0" ] && ok "nothing ran" || not_ok "nothing ran" "$(sql "select count(*) from runs") runs, $n0 before"
