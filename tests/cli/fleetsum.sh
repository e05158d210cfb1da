#!/bin/sh
# contend fleet summary on a store that three machines wrote: sessions
# imported from generated hyperfine exports (8 runs, 1% noise) and moved to
# machines alpha, beta and gamma as a fleet's PostgreSQL holds them (their
# host name and machine id), plus real selftest runs of this machine under
# two loads. The rows are the newest session of each machine and label;
# each baseline is the one asked for; the verdicts' p-values are R's
# wilcox.test and t.test on the generated times and the effect their ratio
# of means (computed here, not by contend); the formats (JSON against
# docs/schema/contend-1.json); bad input gets one line and exit 2.
. "$CT_TESTLIB"
plan 47

need python3 Rscript

# machine:label:level:seed, in the order they ran; gamma's k2 twice
python3 - "$T" <<'PY'
import json, math, os, random, sys
for name, level, seed in (("c2old", 0.12, 1), ("a1", 0.10, 2), ("a2", 0.11, 3),
                          ("b1", 0.10, 4), ("b2", 0.10, 5), ("c2", 0.12, 6)):
    r = random.Random(seed)
    t = [level * math.exp(r.gauss(0, 0.01)) for _ in range(8)]
    base = os.path.join(sys.argv[1], name)
    json.dump({"results": [{"command": "./bench", "mean": sum(t) / 8, "stddev": 0,
                            "median": sorted(t)[4], "user": 0, "system": 0, "min": min(t),
                            "max": max(t), "times": t}]}, open(base + ".json", "w"))
    open(base + ".txt", "w").write("\n".join(repr(v) for v in t) + "\n")
PY
imported=0
for s in c2old:gamma:k2 a1:alpha:k1 a2:alpha:k2 b1:beta:k1 b2:beta:k2 c2:gamma:k2; do
	f=${s%%:*} rest=${s#*:}
	m=${rest%%:*} label=${rest#*:}
	id=$(printf '%s' "$m" | cut -c1)
	"$CONTEND" import hyperfine "$T/$f.json" -L "$label" -q || continue
	sql "update sessions set hostname = '$m', machine_id = '$id$id$id${id}0000111122223333444455556666' where id = (select max(id) from sessions)" >/dev/null
	imported=$((imported + 1))
	eval "sid_$f=\$(sql 'select max(id) from sessions')"
done
[ "$imported" = 6 ] && ok "6 sessions of 3 machines imported" || not_ok "6 sessions of 3 machines imported" "$imported"

# the default: the first row is the baseline, and says so
run fleet summary
expect_rc "fleet summary: exit 0" 0
expect_out "3 machines, 5 rows" "^fleet summary of cmd \(.*\): 3 machines, 5 rows"
expect_out "the baseline is the first row, said so" "^baseline: alpha \(aaaa0000\), label 'k1', session $sid_a1 \(the first row"

# --baseline k1: each machine against its own k1; gamma has none
run fleet summary --baseline k1 --format json -o "$T/k1.json"
expect_rc "--baseline k1 --format json -o FILE: exit 0" 0
SCHEMA=$(dirname "$CT_TESTLIB")/../../docs/schema/contend-1.json
check "its JSON validates against docs/schema/contend-1.json" python3 -c "
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])), cls=jsonschema.Draft202012Validator)" "$SCHEMA" "$T/k1.json"
# row: machine label session baseline_session verdict
python3 - "$T/k1.json" >"$T/rows" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["rows"]:
    c = r["loads"][0]["comparison"]
    print(r["hostname"], r["label"], r["session"], r["baseline_session"] or "-",
          r["sessions"], c["outcome"] if c else "baseline")
PY
want="alpha k1 $sid_a1 - 1 baseline
alpha k2 $sid_a2 $sid_a1 1 worse
beta k1 $sid_b1 - 1 baseline
beta k2 $sid_b2 $sid_b1 1 no_difference
gamma k2 $sid_c2 $sid_b1 2 worse"
if [ "$(cat "$T/rows")" = "$want" ]; then ok "a row per machine and label, the newest session of each, each against its machine's k1 (gamma: the fleet's newest)"; else
	not_ok "a row per machine and label, each against its machine's k1" "got:" "$(cat "$T/rows")" "want:" "$want"
fi

# the p-values and effects of R on the generated times
cat >"$T/r.R" <<'R'
f <- function(n) scan(file.path(Sys.getenv("T"), paste0(n, ".txt")), quiet = TRUE)
for (p in list(c("a1", "a2"), c("b1", "b2"), c("b1", "c2"))) {
  x <- f(p[1])
  y <- f(p[2])
  cat(p[2], sprintf("%.10g", wilcox.test(y, x)$p.value), sprintf("%.10g", t.test(y, x)$p.value),
      sprintf("%.10g", mean(y) / mean(x)), "\n")
}
R
T=$T Rscript "$T/r.R" >"$T/r" 2>"$T/rerr" || true
nonempty "R computed three comparisons" "$(grep -cE '^[abc]2 [0-9.e-]+ [0-9.e-]+ [0-9.]+ *$' "$T/r" | grep -x 3)"
check "Mann-Whitney's and Welch's p and the ratio of means are R's (alpha k2, beta k2, gamma k2)" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
want = {l.split()[0]: [float(v) for v in l.split()[1:]] for l in open(sys.argv[2])}
got = {}
for r in d['rows']:
    c = r['loads'][0]['comparison']
    if c:
        got[{'alpha': 'a2', 'beta': 'b2', 'gamma': 'c2'}[r['hostname']]] = [c['mann_whitney_p'], c['welch_p'], c['ratio']]
assert sorted(got) == sorted(want), (got, want)
for k in want:
    for g, w in zip(got[k], want[k]):
        assert abs(g - w) <= 1e-6 * max(abs(w), 1e-12), (k, got[k], want[k])" "$T/k1.json" "$T/r"

run fleet summary --baseline k1
expect_out "text: alpha's k2 against session $sid_a1, worse, with its effect and test" "^alpha \(aaaa0000\) +k2 +$sid_a2 .* none +8 +[0-9.]+ +$sid_a1  \+[0-9.]+% \[\+[0-9.]+%, \+[0-9.]+%\] worse \(U\)\*$"
expect_out "text: gamma's k2 against beta's k1, marked as another machine's" "^gamma \(gggg0000\) +k2 +$sid_c2 .* $sid_b1  \+[0-9.]+% .*worse \(U\)\*\^$"
expect_out "text: the note on one session a side" "^\* one session a side, and how far sessions as far apart move is unknown"
expect_out "text: the note on another machine's baseline" "^\^ judged against another machine's session"
expect_out "the heading names the rule" "^baseline: each machine's session labelled 'k1' \(a machine without one: beta \(bbbb0000\)'s, session $sid_b1\)"

# --why: each worse row explained by its runs' counters against its
# baseline's, written here: alpha's k2 on CPU 0.2 s a run, its k1 0.1 s
for s in "$sid_a1 0.1" "$sid_a2 0.2"; do
	set -- $s
	sql "update runs set counters = json_object('t_oncpu', $2 + (id % 7) * 0.001, 'st_intr', 5000 + (id % 5) * 10) where session_id = $1"
done
run fleet summary --baseline k1 --why
expect_rc "--why: exit 0" 0
expect_out "--why: alpha's worse k2 against its k1" \
	"^Why k2 on alpha \(aaaa0000\) \(session $sid_a2\) differs from k1 on alpha \(aaaa0000\) \(session $sid_a1\) under load none \(8 and 8 runs with counters\):$"
expect_out "--why: on CPU, +100 ms a run" "^  k2 on alpha .* vs k1 on alpha .*: \+100\.0 ms on CPU per run"
expect_out "--why: gamma's worse k2, whose runs stored none, has nothing to say" "^  nothing to say: no counters stored"
run fleet summary --baseline k1 --why --format json -o "$T/w.json"
check "--why JSON: alpha's k2 ranks on CPU, gamma's says why not, beta's rows have none" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
w = {(r['hostname'], r['label']): r['loads'][0].get('why') for r in d['rows']}
assert w[('alpha', 'k2')]['ranked'] == ['t_oncpu'], w[('alpha', 'k2')]
assert w[('gamma', 'k2')]['ranked'] == [] and w[('gamma', 'k2')]['none'], w[('gamma', 'k2')]
assert w[('beta', 'k1')] is None and w[('beta', 'k2')] is None and w[('alpha', 'k1')] is None, w" "$T/w.json"
check "--why JSON validates against the schema" python3 -c "
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])), cls=jsonschema.Draft202012Validator)" "$SCHEMA" "$T/w.json"
run fleet summary --baseline k1 --why --format md
expect_out "--why Markdown: alpha's k2 against its k1" \
	"^## Why k2 on alpha \(aaaa0000\) \(session $sid_a2\) differs from k1 on alpha \(aaaa0000\) \(session $sid_a1\) under none\$"
expect_out "--why Markdown: on CPU ranked, +100 ms" "^\| on CPU \| 10[0-9]\.[0-9] ms \| 20[0-9]\.[0-9] ms \| \+100\.0 ms \[.*\] \| yes \|\$"
expect_out "--why Markdown: gamma's k2 has nothing to say" "^Nothing to say: no counters stored"
run fleet summary --baseline k1 --why --format html
check "--why HTML: alpha's heading, on CPU ranked" sh -c 'grep -q "^<h2>Why k2 on alpha (aaaa0000) (session $2) differs from k1 on alpha (aaaa0000) (session $3) under none</h2>" "$1" && grep -q "^<tr><td>on CPU</td><td>10[0-9]\.[0-9] ms</td><td>20[0-9]\.[0-9] ms</td><td>+100\.0 ms \[.*\]</td><td>yes</td></tr>\$" "$1"' _ "$T/out" "$sid_a2" "$sid_a1"

# --baseline-machine: one baseline for every row, by host name or id
run fleet summary --baseline-machine alpha --baseline k1 --format csv
expect_rc "--baseline-machine alpha --baseline k1 --format csv: exit 0" 0
check "CSV: 5 rows, four against alpha's k1" python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 5, rows
assert [r['baseline_session'] for r in rows].count(sys.argv[2]) == 4, rows
assert [r['outcome'] for r in rows if r['hostname'] == 'beta'] == ['no significant difference'] * 2, rows
assert [r['outcome'] for r in rows if r['hostname'] == 'gamma'] == ['worse'], rows" "$T/out" "$sid_a1"
run fleet summary --baseline-machine bbbb0000 --format json
check "--baseline-machine by 8 digits of the machine id: beta's newest session" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['baseline'] == {'mode': 'machine', 'machine': 'bbbb0000', 'label': None}, d['baseline']
bases = {r['baseline_session'] for r in d['rows']}
assert bases == {None, int(sys.argv[2])}, bases" "$T/out" "$sid_b2"
run fleet summary --baseline-machine alpha --baseline k1 --label k2
expect_rc "--label k2: exit 0" 0
if [ "$(grep -c '^[a-z]* (' "$T/out")" = 4 ] && ! grep -q '^beta (bbbb0000) *k1 ' "$T/out"; then
	ok "--label k2: the k2 rows and the baseline's, no other k1"
else
	not_ok "--label k2: the k2 rows and the baseline's" "$(cat "$T/out")"
fi

# Markdown and HTML
run fleet summary --baseline k1 --format md
expect_out "Markdown: a table row per machine, label and load" "^\| gamma \(gggg0000\) \| k2 \| $sid_c2 \| .* \| none \| 8 \| [0-9.]+ \| $sid_b1 \| .*worse"
run fleet summary --baseline k1 -o "$T/f.html"
expect_rc "-o FILE.html: exit 0" 0
if [ "$(grep -c '^<tr' "$T/f.html")" = 5 ] && grep -q '<th>Time (s)</th>' "$T/f.html" && grep -q '^<tr class="worse">' "$T/f.html" && grep -q '</html>' "$T/f.html"; then
	ok "HTML: one page, a header and five rows, the worse ones marked"
else
	not_ok "HTML: one page, a header and five rows" "$(grep -c '^<tr' "$T/f.html") rows" "$(head -c 1500 "$T/f.html")"
fi

# loads: real selftest sessions of this machine, one under none, one
# under none and null
"$CONTEND" run -q -w selftest --scale 0.2 -l none -n 3 --delay 0.1s --dir "$T" -L s1 >/dev/null 2>&1
"$CONTEND" run -q -w selftest --scale 0.2 -l none,null -n 3 --delay 0.1s --dir "$T" -L s2 >/dev/null 2>&1
run fleet summary -w selftest --baseline s1
expect_rc "two selftest sessions: exit 0" 0
expect_out "the heading names workload selftest and one machine" "^fleet summary of selftest \(.*\): 1 machine, 2 rows"
expect_out "s2 under none: a verdict against s1" " none +3 +[0-9.]+ +[0-9]+  .*(\(U\)|not enough runs|no significant difference)"
expect_out "s2 under null: its runs, not run by its baseline" "^ +null +3 +[0-9.]+ +[0-9]+  not run by its baseline$"

# bad input: one line, exit 2
for c in \
	"fleet|needs a subcommand" \
	"fleet nosuch|unknown subcommand 'nosuch'" \
	"fleet summary extra|unexpected operand 'extra'" \
	"fleet summary --baseline-machine nosuch|no session of machine 'nosuch'" \
	"fleet summary --baseline nolabel|no session labelled 'nolabel'" \
	"fleet summary -w cmd -l nosuch|ran load 'nosuch'" \
	"fleet summary --confidence 100|--confidence" \
	"fleet summary -w nowork|no complete session with ok runs of workload nowork" \
	"fleet summary -w selftest --baseline s1 -l null|ran none of the loads asked for"; do
	args=${c%%|*} msg=${c#*|}
	# shellcheck disable=SC2086 # the words of the case
	run $args
	if [ "$rc" = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q -- "$msg" "$T/err"; then
		ok "contend $args: exit 2, one line"
	else
		not_ok "contend $args: exit 2, one line" "exit $rc" "$(cat "$T/err")"
	fi
done
run fleet --help
expect_rc "fleet --help: exit 0" 0
expect_out "its synopsis" "contend fleet summary \[options\]"
