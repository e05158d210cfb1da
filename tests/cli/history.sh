#!/bin/sh
# contend history on generated stores with known shifts: nights of a
# program stored with contend import (hyperfine's export format, made
# here from a seeded generator), one series with a +10% shift at its 21st
# night and one with none but a spiking night. The change is found where
# it is, its effect and interval are R's t.test on the sessions' medians of
# logs (computed from the generated files, not from contend), the facts
# that changed across it are named, a spike makes none; the gate, ack,
# the formats (JSON checked against docs/schema/contend-1.json), a fleet's
# machines, run --commit with --by commit, and bad input (one line, exit 2).
. "$CT_TESTLIB"
plan 79

need python3 Rscript

# the nights: aNN.json a hyperfine export of 5 runs around 0.1 s (2%
# within a session, 0.5% between sessions), +10% from a21 on; bNN.json the
# same level throughout, every run of b15 x1.5; the times again in .txt
# files, for R
python3 - "$T" <<'PY'
import json, math, os, random, sys
for series, seed0 in (("a", 0), ("b", 100)):
    for i in range(1, 31):
        r = random.Random(seed0 + i)
        level = 0.11 if series == "a" and i > 20 else 0.1
        spike = 1.5 if series == "b" and i == 15 else 1.0
        u = r.gauss(0, 0.005)
        t = [level * spike * math.exp(u + r.gauss(0, 0.02)) for _ in range(5)]
        base = os.path.join(sys.argv[1], "%s%02d" % (series, i))
        json.dump({"results": [{"command": "./bench", "mean": sum(t) / 5, "stddev": 0, "median": sorted(t)[2],
                                "user": 0, "system": 0, "min": min(t), "max": max(t), "times": t}]},
                  open(base + ".json", "w"))
        open(base + ".txt", "w").write("\n".join(repr(v) for v in t) + "\n")
PY
imported=0
for s in a b; do
	for i in $(seq -w 1 30); do
		"$CONTEND" import hyperfine "$T/$s$i.json" -L "$s-$i" -q && imported=$((imported + 1))
	done
done
[ "$imported" = 60 ] && ok "60 nights imported" || not_ok "60 nights imported" "$imported"

# the change: where, how large, what changed across it
sql "update configs set kernel_release = '6.2.0-test' where label >= 'a-21' and label <= 'a-30'" >/dev/null
run history --label 'a-*'
expect_rc "history of the shifted series: exit 0" 0
expect_out "one series, 30 sessions, one change point" "^none: machine .*, 30 sessions, 1 change point$"
first21=$(sql "select s.id from sessions s join configs c on c.id = s.config_id where c.label = 'a-21'")
nonempty "the 21st night's session is stored" "$first21"
expect_out "the change is at the 21st night" "^  ---- change 1 at session $first21 .*worse"
expect_out "it names the fact that changed across it" "what changed: kernel release [^ ]+ -> 6.2.0-test"
run history --label 'a-*' --format json -o "$T/a.json"
expect_rc "history --format json: exit 0" 0
SCHEMA=$(dirname "$CT_TESTLIB")/../../docs/schema/contend-1.json
check "its JSON validates against docs/schema/contend-1.json" python3 -c "
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])), cls=jsonschema.Draft202012Validator)" "$SCHEMA" "$T/a.json"
got=$(python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))['series'][0]['changes'][0]
print(c['index'], c['sessions_before'], c['sessions_after'], '%.9f %.9f %.9f' % (c['effect'], c['low'], c['high']))" "$T/a.json")
want=$(cd "$T" && Rscript -e '
f <- function(i) median(log(scan(sprintf("a%02d.txt", i), quiet = TRUE)))
b <- sapply(1:20, f); a <- sapply(21:30, f)
t <- t.test(a, b)
cat(20, 20, 10, sprintf("%.9f %.9f %.9f", exp(mean(a) - mean(b)) - 1, exp(t$conf.int[1]) - 1, exp(t$conf.int[2]) - 1), "\n")' 2>&1)
nonempty "R computed the sessions' t" "$want"
python3 -c "
import sys
g, w = sys.argv[1].split(), sys.argv[2].split()
assert g[:3] == w[:3], (g, w)
assert all(abs(float(a) - float(b)) < 1e-6 for a, b in zip(g[3:], w[3:])), (g, w)" "$got" "$want" &&
	ok "the change's place, effect and interval are R's t.test on the sessions' medians of logs" ||
	not_ok "the change's effect is R's" "contend: $got" "R: $want"

# --why: the runs of the three sessions a side of the change explain it.
# Their counters are written here - on CPU 0.1 s a run before it, 0.2 s
# after, the machine's interrupts the same - so on CPU alone may rank
sides() { sql "select group_concat(s.id) from sessions s join configs c on c.id = s.config_id where c.label between '$1' and '$2'"; }
for side in "a-18 a-20 0.1" "a-21 a-23 0.2"; do
	set -- $side
	sql "update runs set counters = json_object('t_oncpu', $3 + (id % 7) * 0.001, 'st_intr', 5000 + (id % 5) * 10) where session_id in ($(sides "$1" "$2"))"
done
before=$(sides a-18 a-20 | tr ',' '\n' | sort -n | sed -n '1p;$p' | paste -sd-)
after=$(sides a-21 a-23 | tr ',' '\n' | sort -n | sed -n '1p;$p' | paste -sd-)
nonempty "the sessions either side" "$before$after"
run history --label 'a-*' --why
expect_rc "history --why: exit 0" 0
expect_out "--why: the three sessions after the change against the three before" \
	"^Why sessions $after differs from sessions $before under load none \(15 and 15 runs with counters\):$"
expect_out "--why: on CPU moved, +100 ms a run" "^  sessions $after vs sessions $before: \+100\.0 ms on CPU per run"
run history --label 'a-*' --why --format json -o "$T/w.json"
got=$(python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))['series'][0]['changes'][0]['why']
print(','.join(c['ranked']), c['runs'], c['baseline_runs'], c['tested'])" "$T/w.json")
check "--why JSON: on CPU ranked alone of the two counters, 15 runs a side ($got)" test "$got" = "t_oncpu 15 15 2"
check "--why JSON validates against the schema" python3 -c "
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])), cls=jsonschema.Draft202012Validator)" "$SCHEMA" "$T/w.json"
run history --label 'a-*' --why --format md
expect_out "--why Markdown: the change's heading" "^### Why change 1: sessions $after against sessions $before\$"
expect_out "--why Markdown: on CPU's row, about 0.1 s before, 0.2 s after, ranked" \
	"^\| on CPU \| 10[0-9]\.[0-9] ms \| 20[0-9]\.[0-9] ms \| \+100\.0 ms \[.*\] \| yes \|\$"
expect_out "--why Markdown: the interrupts alike, no other counter ranked" \
	"^No counter outside the budget ranked \(2 tested\)\.\$"
run history --label 'a-*' --why --format html
expect_out "--why HTML: the change's heading" \
	"^<h3>Why change 1: sessions $after against sessions $before</h3>\$"
check "--why HTML: on CPU's row, ranked" grep -q "^<tr><td>on CPU</td><td>10[0-9]\.[0-9] ms</td><td>20[0-9]\.[0-9] ms</td><td>+100\.0 ms \[.*\]</td><td>yes</td></tr>\$" "$T/out"
# the host's references across the change (each session's CPU, memory and
# disk probes, written here): steady, then the memory bandwidth 15% lower
# after it, as much as the +10% change and more - said beside it
refs() { sql "insert into refs (session_id, seq, taken_at, phase, cpu_speed, mem_gbps, disk_mbps) select s.id, 1, 0, 'start', 100, $3, $4 from sessions s join configs c on c.id = s.config_id where c.label between '$1' and '$2'"; }
refs a-01 a-20 10 500
refs a-21 a-30 10 505
run history --label 'a-*'
expect_out "the host's references across the change, steady" "^       the host's references across it: cpu \+0\.0%, mem \+0\.0%, disk \+1\.0%\$"
sql "update refs set mem_gbps = 8.5 where mem_gbps = 10 and disk_mbps = 505"
run history --label 'a-*' --format json -o "$T/h.json"
check "JSON: the host moved -15% in memory, more than half the +10% change" python3 -c "
import json, sys
h = json.load(open(sys.argv[1]))['series'][0]['changes'][0]['host']
assert abs(h['cpu_speed']) < 1e-9 and abs(h['mem_gbps'] + 15) < 1e-9 and abs(h['disk_mbps'] - 1) < 1e-9 and h['moved'] is True, h" "$T/h.json"
run history --label 'a-*'
expect_out "text: the host moved, said" "mem -15\.0%, disk \+1\.0%; the host moved at least half as much as the figure"
run history --label 'b-*' --why
expect_out "--why on a series without a change: its table" "^none: machine .*, 30 sessions, 0 change points$"
check "and no why" sh -c '! grep -q "^Why" "$1"' _ "$T/out"

# a spike alone makes no change point
run history --label 'b-*'
expect_rc "history of the steady series with a spiking night: exit 0" 0
expect_out "a spiking night makes no change point" "^none: machine .*, 30 sessions, 0 change points$"
expect_out "the spiking night is shown" "b-15 +5 +0\.1[45]"

# the gate and ack
run history --label 'a-*' --fail-on-change 5
expect_rc "--fail-on-change 5 with a +10% change: exit 1" 1
expect_err "it names the load, the change and how to acknowledge it" "under load 'none' .*moved \+[0-9.]+% since session $first21 .*contend history ack $first21"
expect_err "the ack it prints chooses the sessions the gate read" "contend history ack $first21 --label 'a-\*'\$"
run history --label 'a-*' --fail-on-change 20
expect_rc "--fail-on-change 20: exit 0" 0
run history --label 'b-*' --fail-on-change 1
expect_rc "--fail-on-change 1 on the steady series: exit 0" 0
# an ack names a change the history finds (within two sessions)
sixth=$(sql "select s.id from sessions s join configs c on c.id = s.config_id where c.label = 'a-06'")
nonempty "the 6th night's session is stored" "$sixth"
run history ack "$sixth" --label 'a-*'
expect_rc "ack of a session where no change starts: exit 2" 2
expect_err "one line naming the nearest change" "^contend: history ack: no change point at session $sixth; the nearest is at session $first21 \(load 'none', \+[0-9.]+%\)$"
[ "$(sql "select count(*) from history_acks")" = 0 ] && ok "and nothing is stored" ||
	not_ok "and nothing is stored" "$(sql "select * from history_acks")"
run history ack "$first21" --label 'b-*'
expect_rc "ack where the history those options choose has no change: exit 2" 2
expect_err "it says so" "finds no change point to acknowledge"
run history ack "$first21" --label 'a-*' --note "the new kernel, known"
expect_rc "history ack ID: exit 0" 0
[ "$(sql "select count(*) from history_acks where note = 'the new kernel, known' and load = ''")" = 1 ] &&
	ok "the acknowledgement is stored" || not_ok "the acknowledgement is stored" "$(sql "select * from history_acks")"
run history --label 'a-*' --fail-on-change 5
expect_rc "after ack, --fail-on-change 5: exit 0" 0
expect_out "the change shows as acknowledged" "change 1 at session $first21 .*acknowledged"
run history ack 99999
expect_rc "ack of a session that does not exist: exit 2" 2
expect_err "it says so" "no session 99999"

# the other formats
run history --label 'a-*' --format csv
expect_rc "--format csv: exit 0" 0
check "CSV: a row per session, the change on the 21st" python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 30, len(rows)
assert [r['label'] for r in rows if r['change_effect']] == ['a-21'], rows" "$T/out"
check "CSV: the rows numbered from 1 as the text's, the 21st night at 21" python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r['index'] for r in rows] == [str(i) for i in range(1, 31)], [r['index'] for r in rows]
assert [r['index'] for r in rows if r['change_effect']] == ['21']" "$T/out"
check "CSV: each number the shortest text that reads back as it (no 0.1385811359999)" python3 -c "
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    for k in ('median', 'low', 'high', 'change_effect'):
        v = r[k]
        if not v:
            continue
        assert len(v) <= len(repr(float(v))), (k, v, repr(float(v)))" "$T/out"
run history --label 'a-*' --format md
expect_out "Markdown: the change as a row" "^\| \| \*\*change 1\*\* \|"
run history --label 'a-*' -o "$T/h.html"
expect_rc "-o FILE.html: exit 0" 0
check "HTML: a plot and the change with its effect" sh -c "grep -q '<svg' '$T/h.html' && grep -Eq '>\+[0-9.]+%</text>' '$T/h.html' && grep -q '6.2.0-test' '$T/h.html'"
check "HTML: the y axis at round values, each session's label along x" python3 "$(dirname "$CT_TESTLIB")/ticks.py" "$T/h.html" a-01 a-21
check "HTML: the change's p and interval are not broken across lines" grep -Eq '<td class="n">[0-9.]+e-[0-9]+</td>' "$T/h.html"

# a fleet: the steady series moved to another machine
sql "update sessions set hostname = 'other', machine_id = 'ffffeeee00001111ffffeeee00001111' where config_id in (select id from configs where label like 'b-%')" >/dev/null
run history
expect_rc "history of two machines' sessions: exit 0" 0
expect_out "a series per machine" "^none: machine other \(ffffeeee\), 30 sessions, 0 change points$"
run history --machine other
expect_out "--machine names one by host name" "^none: machine other \(ffffeeee\), 30 sessions"
[ "$(grep -c '^none: machine' "$T/out")" = 1 ] && ok "--machine shows that machine alone" || not_ok "--machine shows that machine alone" "$(cat "$T/out")"
run history --machine all --format json
check "--machine all pools them: one series of 60 sessions" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d['series']) == 1 and d['series'][0]['machine'] == 'all' and len(d['series'][0]['points']) == 60, d['series'][0]['machine']" "$T/out"

# a series is one set of the workload's parameters: ./loop 150000 for ten
# nights, then ./loop 190000 (27% more work) for ten, one label
python3 - "$T" <<'PY'
import json, math, os, random, sys
for i in range(1, 21):
    r = random.Random(300 + i)
    n = 150000 if i <= 10 else 190000
    t = [n / 1.5e6 * math.exp(r.gauss(0, 0.02)) for _ in range(5)]
    json.dump({"results": [{"command": "./loop %d" % n, "mean": sum(t) / 5, "stddev": 0, "median": sorted(t)[2],
                            "user": 0, "system": 0, "min": min(t), "max": max(t), "times": t}]},
              open(os.path.join(sys.argv[1], "p%02d.json" % i), "w"))
PY
for i in $(seq -w 1 20); do "$CONTEND" import hyperfine "$T/p$i.json" -L loop -q; done
p11=$(sql "select min(s.id) from sessions s join runs r on r.session_id = s.id where r.workload_params = './loop 190000'")
nonempty "the first night of ./loop 190000 is stored" "$p11"
run history --label loop
expect_rc "history of one label whose parameters changed: exit 0" 0
expect_out "a series for each set of parameters" "^none: machine .*, parameters './loop 150000', 10 sessions, 0 change points$"
expect_out "the other one" "^none: machine .*, parameters './loop 190000', 10 sessions, 0 change points$"
expect_out "where the parameters changed, named" "^  none on .*: the parameters changed at session $p11 .*: './loop 150000' -> './loop 190000'$"
run history --label loop --format json
check "JSON: the series' parameters and where they changed" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert sorted(s['params'] for s in d['series']) == ['./loop 150000', './loop 190000'], d['series']
assert [(c['session'], c['before'], c['after']) for c in d['param_changes']] == [(int(sys.argv[2]), './loop 150000', './loop 190000')], d['param_changes']" "$T/out" "$p11"

# run --commit, and history --by commit
git init -q "$T/repo" && git -C "$T/repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m one &&
	git -C "$T/repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m two
head=$(git -C "$T/repo" rev-parse HEAD)
nonempty "a repository with two commits" "$head"
(cd "$T/repo" && "$CONTEND" run -w cmd -l none -n 5 -L c -q --commit HEAD~1 -- true && "$CONTEND" run -w cmd -l none -n 5 -L c -q --commit HEAD -- true) >"$T/out" 2>"$T/err"
[ "$(sql "select commit_sha from sessions where commit_sha <> '' order by id desc limit 1")" = "$head" ] &&
	ok "run --commit stores the full sha" || not_ok "run --commit stores the full sha" "$(cat "$T/err")" "$(sql "select id, commit_sha, commit_time from sessions where commit_sha <> ''")"
[ "$(sql "select count(*) from sessions where commit_sha <> '' and commit_time > 0")" = 2 ] &&
	ok "and the commit time" || not_ok "and the commit time" "$(sql "select id, commit_sha, commit_time from sessions")"
run history --by commit
expect_rc "history --by commit: exit 0" 0
expect_out "it holds the sessions with a commit, in commit order" "^ +2 +[0-9]+ +[0-9-]+ [0-9:]+ +${head%"${head#????????????}"} "
(cd "$T" && "$CONTEND" run -w cmd -l none -n 5 -L c -q --commit HEAD -- true) >"$T/out" 2>"$T/err" && rc=0 || rc=$?
expect_rc "run --commit outside a repository: exit 2" 2
expect_err "it says why" "--commit HEAD: .*git repository"

# bad input: one line, exit 2
for args in "--label zzz*|no complete session labelled 'zzz\*' matches" \
	"--label a-01|one session of workload cmd matches" \
	"--machine nosuch|no session of machine 'nosuch'" \
	"--since yesterday|--since takes a date" \
	"-l io|ran load 'io'"; do
	a=${args%%|*}
	run history $a
	[ "$rc" = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -Eq -- "${args#*|}" "$T/err" &&
		ok "history $a: one line, exit 2" || not_ok "history $a: one line, exit 2" "exit $rc" "$(cat "$T/err")"
done
run history --since 2000-01-01 --label 'a-*'
expect_out "--since a date before every session keeps them all" "^none: machine .*, 30 sessions"
