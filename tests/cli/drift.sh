#!/bin/sh
# The host's drift (docs/statistics.md): a session takes the host's
# reference at its start, between rounds and at its end, never inside a
# run; compare shows each config's reference and its drift from the
# baseline's in every format, and warns when the largest drift is at least
# half a load's significant effect. The references' figures are set here
# with SQL to simulate a drift (their real values vary with the machine):
# equal, then 10% apart (under half the effect: no warning), then 400%
# apart (a warning naming the load and both numbers). Sessions without
# references - imported, or a store of schema 11, which migrates - show
# none and never warn.
. "$CT_TESTLIB"
# one check more on SQLite: push's source is this machine's SQLite file
if [ "$BACKEND" = sqlite ]; then plan 37; else plan 36; fi

SCHEMA=$(dirname "$CT_TESTLIB")/../../docs/schema/contend-1.json
py() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($1)" "$2"; }

# a's command sleeps 0.1 s, b's 0.3 s: b is significantly slower by about
# +100% to +200% (the shell's own time added), whatever else the machine
# does; two sessions a side, each of two loads in 4 rounds
export CT_SECS="$T/secs"
printf 0.1 >"$CT_SECS"
for l in a a b b; do
	[ "$l" = b ] && printf 0.3 >"$CT_SECS"
	# shellcheck disable=SC2016
	"$CONTEND" run -q -w cmd --shell -l none,null -n 4 --no-warmup --delay 100ms -L $l -- \
		'sleep "$(cat "$CT_SECS")"' >/dev/null 2>"$T/err" || not_ok "a session of $l" "$(cat "$T/err")"
done
check "four sessions stored" test "$(sql "select count(*) from sessions where status = 'complete'")" = 4

# 4 rounds: the start, between the rounds (3), the end
check "each session took 5 references" test "$(sql "select group_concat(n) from (select count(*) as n from refs group by session_id order by session_id) x")" = "5,5,5,5"
check "the start, 3 between the rounds, the end" test \
	"$(sql "select group_concat(phase || ':' || n) from (select phase, count(*) as n from refs where session_id = 1 group by phase order by min(seq)) x")" = "start:1,round:3,end:1"
check "before the first run, after each round of two runs, after the last" test \
	"$(sql "select group_concat(n) from (select (select count(*) from runs u where u.session_id = r.session_id and u.started_at < r.taken_at) as n from refs r where r.session_id = 1 order by r.seq) x")" = "0,2,4,6,8"
check "none inside a run" test \
	"$(sql "select count(*) from refs r join runs u on u.session_id = r.session_id where r.taken_at between u.started_at and u.started_at + u.wall_ns")" = 0
check "every figure measured, positive" test \
	"$(sql "select count(*) from refs where cpu_speed > 0 and mem_gbps > 0 and disk_mbps > 0")" = 20

# the references alike: no drift
sql "update refs set cpu_speed = 500, mem_gbps = 20, disk_mbps = 1000" >/dev/null
run compare a b
expect_rc "compare: exit 0" 0
expect_out "b is significantly slower under none" "^none +b vs a: \+[0-9.]+% .* worse$"
expect_out "each config's reference, its sessions and references" "^a +500\.0 +20\.00 +1000\.0 +2/10 +baseline$"
expect_out "and b's drift from a's" "^b +500\.0 +20\.00 +1000\.0 +2/10 +cpu \+0\.0%, mem \+0\.0%, disk \+0\.0%$"
if grep -q "^warning:" "$T/out"; then not_ok "no drift: no warning" "$(grep "^warning:" "$T/out")"; else ok "no drift: no warning"; fi

# b's disk 10% faster: under half the effect
sql "update refs set disk_mbps = 1100 where session_id in (3, 4)" >/dev/null
run compare a b
expect_out "a drift of 10% is shown" "^b .* disk \+10\.0%$"
if grep -q "^warning:" "$T/out"; then not_ok "a 10% drift: no warning" "$(grep "^warning:" "$T/out")"; else ok "a 10% drift: no warning"; fi

# b's memory 5 times a's: at least half of every effect
sql "update refs set mem_gbps = 100 where session_id in (3, 4)" >/dev/null
run compare a b
expect_rc "with a drift: exit 0 still" 0
expect_out "a 400% drift warns, naming the load, the drift and the effect" \
	"^warning: none b vs a: the host's mem drifted \+400\.0% between their sessions, at least half the effect \+[0-9.]+%$"
expect_out "for each load" "^warning: null b vs a: the host's mem drifted \+400\.0%"

run compare a b --format json
expect_rc "JSON: exit 0" 0
cp "$T/out" "$T/c.json"
if python3 - "$SCHEMA" "$T/c.json" <<'EOF' >"$T/valid" 2>&1; then ok "it validates against the schema"; else not_ok "it validates against the schema" "$(tail -3 "$T/valid")"; fi
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])),
                    cls=jsonschema.Draft202012Validator)
EOF
check "JSON: the baseline's reference" test \
	"$(py "(d['drift']['baseline']['label'], d['drift']['baseline']['sessions'], d['drift']['baseline']['references'], d['drift']['baseline']['mem_gbps'])" "$T/c.json")" = "('a', 2, 10, 20.0)"
check "JSON: b's drift, its largest and a warning for each load" test \
	"$(py "[(c['label'], c['compared'], c['drift_pct'] and round(c['drift_pct']['mem_gbps'], 6), c['largest'], [w['load'] for w in c['warnings']]) for c in d['drift']['configs']]" "$T/c.json")" = \
	"[('a', False, None, None, []), ('b', True, 400.0, 'mem_gbps', ['none', 'null'])]"
check "JSON: a warning's effect is the verdict's" test \
	"$(py "[abs(w['effect_pct'] - (l['configs'][1]['comparison']['effect'] - 1) * 100) < 1e-9 for w, l in zip(d['drift']['configs'][1]['warnings'], d['loads'])]" "$T/c.json")" = "[True, True]"
check "JSON: every session's references, in order" test \
	"$(py "[(s['session_id'], [r['phase'] for r in s['refs']]) for s in sorted(d['drift']['sessions'], key=lambda s: s['session_id'])][0]" "$T/c.json")" = \
	"(1, ['start', 'round', 'round', 'round', 'end'])"

run compare a b --format csv
expect_rc "CSV: exit 0" 0
check "CSV: each run with its session's reference, its config's drift and its warning" test \
	"$(python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
print(len(rows), sorted(set((r["label"], r["ref_mem_gbps"], r["drift_mem_gbps_pct"], r["drift_warning"]) for r in rows)))' "$T/out")" = \
	"32 [('a', '20', '', '0'), ('b', '100', '400', '1')]"

run compare a b --format md
expect_rc "Markdown: exit 0" 0
expect_out "Markdown: the reference table" "^\| b \| 500\.0 \| 100\.00 \| 1100\.0 \| 2 \| 10 \| cpu \+0\.0%, mem \+400\.0%, disk \+10\.0% \|$"
expect_out "Markdown: the warning" "^- \*\*warning\*\*: none b vs a: the host's mem drifted \+400\.0%"

run report a b -o "$T/r.html"
expect_rc "HTML: exit 0" 0
check "HTML: a mark on the timeline for each reference" test "$(grep -c '<path class="ref"' "$T/r.html")" = 20
check "HTML: the reference per session under the timeline" test \
	"$(grep -c '^<tr><td>[0-9]*</td><td class="l">[ab]</td><td>5</td><td>500.0</td>' "$T/r.html")" = 4
check "HTML: the drift and its warning" grep -qF "<p class=\"warning\"><b>warning</b>: none b vs a: the host's mem drifted +400.0%" "$T/r.html"

# push takes the references with their sessions
if [ "$BACKEND" = sqlite ]; then
	run push --to "$T/archive.db" -q
	check "push copies the references" test "$(sqlite3 "$T/archive.db" "select count(*) from refs")" = 20
fi

# an imported session takes none, and shows none
run import hyperfine "$CT_FIXTURES/../fuzz/corpus/hyperfine/real-1.15" -L imp
check "an imported session stores no reference" test \
	"$(sql "select count(*) from refs r join sessions s on s.id = r.session_id join configs c on c.id = s.config_id where c.label = 'imp'")" = 0

# a store of schema 11 (no references) migrates, and compare shows none
sql "DROP TABLE refs" >/dev/null
sql "ALTER TABLE runs DROP COLUMN counters" >/dev/null
sql "DROP TABLE suites" >/dev/null
sql "DROP TABLE history_acks" >/dev/null
sql "ALTER TABLE sessions DROP COLUMN commit_sha" >/dev/null
sql "ALTER TABLE sessions DROP COLUMN commit_time" >/dev/null
sql "DROP TABLE bisect_steps" >/dev/null
sql "DROP TABLE bisections" >/dev/null
if [ "$BACKEND" = pg ]; then
	sql "UPDATE contend_meta SET value = '11' WHERE key = 'schema_version'" >/dev/null
else
	sql "PRAGMA user_version = 11"
fi
run compare a b
expect_rc "a schema-11 store opens: exit 0" 0
if [ "$BACKEND" = pg ]; then v=$(sql "select value from contend_meta where key = 'schema_version'"); else v=$(sql "PRAGMA user_version"); fi
cur=$(sed -n 's/^#define CT_STORE_SCHEMA //p' "$CT_FIXTURES/../../src/store/internal.h")
check "and is migrated to the current schema ($cur)" test "$v" = "$cur"
if grep -q "Host reference\|^warning:" "$T/out"; then not_ok "without references no reference is shown, no warning" "$(cat "$T/out")"; else ok "without references no reference is shown, no warning"; fi
run compare a b --format json
check "JSON: the figures are null and nothing warns" test \
	"$(py "(d['drift']['baseline']['cpu_speed'], d['drift']['configs'][1]['drift_pct'], d['drift']['configs'][1]['warnings'])" "$T/out")" = \
	"(None, {'cpu_speed': None, 'mem_gbps': None, 'disk_mbps': None}, [])"
