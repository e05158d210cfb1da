#!/bin/sh
# compare and report pool every stored session of a label (the same
# workload parameters): with two sessions or more a side the sessions
# decide (Welch's t on their medians of logs), and the output says how
# many sessions and runs each label gave; --sessions latest takes one, and
# says the verdict spans sessions whose spread is unknown; --sessions IDS
# takes those; an interrupted session (or one whose contend is gone)
# counts only with --include-interrupted, and the output says so.
. "$CT_TESTLIB"
plan 38

SCHEMA=$(dirname "$CT_TESTLIB")/../../docs/schema/contend-1.json
py() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($1)" "$2"; }

tiny="-q -w selftest --scale 0.1 -l none -n 4 --no-warmup"
for i in 1 2 3; do
	for l in a b; do
		# shellcheck disable=SC2086
		"$CONTEND" run $tiny -L $l >/dev/null 2>"$T/err" || not_ok "session $i of $l" "$(cat "$T/err")"
	done
done
check "six sessions stored" test "$(sql "select count(*) from sessions where status = 'complete'")" = 6

run compare a b
expect_rc "compare over three sessions a side: exit 0" 0
expect_out "each label's sessions and runs are said" "^Sessions: 'a' 3 \(12 runs\); 'b' 3 \(12 runs\)$"
expect_out "the sessions decide, three against three" "^none +b vs a: .*; 3 vs 3 sessions: [0-9.e-]+ \(Welch on their medians\) +Holm p=[0-9.e-]+ by sessions: "
expect_out "Ratio's reference is every session's no-load runs" "the no-load mean of 'a' \(3 sessions, the latest 5\)"
nonempty "the verdict line is there" "$(grep '^none ' "$T/out")"

run compare a b --format json
expect_rc "the same as JSON: exit 0" 0
cp "$T/out" "$T/pooled.json"
if python3 - "$SCHEMA" "$T/pooled.json" <<'EOF' >"$T/valid" 2>&1; then ok "it validates against the schema"; else not_ok "it validates against the schema" "$(tail -3 "$T/valid")"; fi
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])),
                    cls=jsonschema.Draft202012Validator)
EOF
check "the comparison is decided by the sessions, 3 against 3" test \
	"$(py "[(c['comparison']['decided_by'], c['comparison']['scope'], c['comparison']['sessions_base'], c['comparison']['sessions_other']) for c in d['loads'][0]['configs'] if c['comparison']]" "$T/pooled.json")" = "[('sessions', 'sessions', 3, 3)]"
check "each cell lists its sessions, newest first" test \
	"$(py "[c['sessions'] for c in d['loads'][0]['configs']]" "$T/pooled.json")" = "[[5, 3, 1], [6, 4, 2]]"
check "each config says its sessions and runs" test \
	"$(py "[(c['label'], c['sessions'], c['runs'], c['unfinished_sessions']) for c in d['configs']]" "$T/pooled.json")" = "[('a', 3, 12, 0), ('b', 3, 12, 0)]"
check "the p-value is Welch's on the sessions" test \
	"$(py "abs(d['loads'][0]['configs'][1]['comparison']['decided_p'] - d['loads'][0]['configs'][1]['comparison']['sessions_welch_p']) < 1e-12" "$T/pooled.json")" = True

# one session a side: the machine's spread of sessions, from the configs
# it measured in two sessions or more (a and b, three each), decides
run compare a b --sessions latest
expect_rc "--sessions latest: exit 0" 0
expect_out "the machine's spread of sessions decides" "^none +b vs a: .*; 1 vs 1 sessions: [0-9.e-]+ \(t with the machine's spread of sessions\) +Holm p=[0-9.e-]+ by sessions\+machine: .*\(across sessions: this machine's sessions [0-9.]+ s apart or more move by [0-9.]+% \(CoV, from 6 pairs of 6 sessions of 2 configs\)\)$"
expect_out "from the latest session" "the no-load mean of 'a' \(session 5\)"
run compare a b --sessions latest --format json
check "as JSON: scope machine, 6 sessions of 2 configs, df 4" test \
	"$(py "[(c['comparison']['scope'], c['comparison']['decided_by'], c['comparison']['machine_sessions'], c['comparison']['machine_configs'], c['comparison']['machine_df'], c['comparison']['machine_sessions_cov'] >= 0) for c in d['loads'][0]['configs'] if c['comparison']]" "$T/out")" = "[('machine', 'sessions+machine', 6, 2, 4.0, True)]"
run compare a b --sessions latest --within-session
expect_out "--within-session: the runs decide, and it says so" "^none +b vs a: .* by U: .*\(within these sessions, as --within-session asks\)$"
run compare a b --sessions latest --format md
expect_out "Markdown carries the machine's spread" "^\| none \| b \|.*\| sessions\+machine \| .*\(across sessions: this machine's sessions [0-9.]+ s apart or more move by [0-9.]+% \(CoV, from 6 pairs of 6 sessions of 2 configs\)\) \|$"
run compare a b --sessions latest --format html
expect_out "HTML carries it" "<span class=\"note\">\(across sessions: this machine&#39;s sessions [0-9.]+ s apart or more move by [0-9.]+% \(CoV, from 6 pairs of 6 sessions of 2 configs\)\)</span>"
if grep -q "^Sessions:" "$T/out"; then not_ok "no Sessions line for one session each"; else ok "no Sessions line for one session each"; fi
run compare a b --sessions latest --format csv
csvcol() { python3 -c "import csv, sys; print(sorted({(r['label'], r[sys.argv[1]]) for r in csv.DictReader(open(sys.argv[2]))}))" "$1" "$2"; }
check "CSV: b's runs carry its verdict, decided by the machine's spread" test \
	"$(csvcol decided_by "$T/out")" = "[('a', ''), ('b', 'sessions+machine')]"
check "CSV: and the spread's CoV" test \
	"$(python3 -c "import csv, sys; print({r['label']: r['machine_sessions_cov'] != '' and float(r['machine_sessions_cov']) >= 0 for r in csv.DictReader(open(sys.argv[1]))})" "$T/out")" = "{'a': False, 'b': True}"
note=$("$CONTEND" compare a b --sessions latest 2>/dev/null | grep -o "across sessions: this machine's sessions [0-9.]* s apart or more move by [0-9.]*% (CoV, from 6 pairs of 6 sessions of 2 configs)" | head -1)
check "CSV: and the note the text prints" test \
	"$(csvcol verdict_note "$T/out")" = "[('a', ''), ('b', \"$note\")]"

run compare a b --sessions 1,3,2,4 --format json
expect_rc "--sessions 1,3,2,4: exit 0" 0
check "only those sessions count" test \
	"$(py "[c['sessions'] for c in d['loads'][0]['configs']]" "$T/out")" = "[[3, 1], [4, 2]]"

# three sessions sharing one CPU with two CPU hogs (pinned there, so each
# session is slowed alike, about threefold): the sessions say so, and a
# gate fails on it
for i in 1 2 3; do
	taskset -c 0 yes >/dev/null &
	h1=$!
	taskset -c 0 yes >/dev/null &
	h2=$!
	# shellcheck disable=SC2086
	taskset -c 0 "$CONTEND" run $tiny -L slow >/dev/null 2>&1
	kill $h1 $h2
	wait $h1 $h2 2>/dev/null
done
run compare a slow --fail-on-regression 5
expect_rc "a slower config over three sessions a side fails the gate: exit 1" 1
expect_out "the sessions decide it is worse" "^none +slow vs a: \+[0-9.]+% .*; 3 vs 3 sessions: .* by sessions: worse$"

# an interrupted session is left out unless asked
sql "update sessions set status = 'interrupted' where id = 5" >/dev/null
run compare a b
expect_out "the interrupted session is left out" "^Sessions: 'a' 2 \(8 runs\); 'b' 3 \(12 runs\)$"
expect_out "and the latest finished one is the reference" "the no-load mean of 'a' \(2 sessions, the latest 3\)"
run compare a b --include-interrupted
expect_out "--include-interrupted counts it, and says so" "^Sessions: 'a' 3 \(12 runs, 1 interrupted, used as asked\); 'b' 3 \(12 runs\)$"
run report a b --include-interrupted --format md
expect_rc "report takes it too: exit 0" 0
expect_out "and decides by the sessions" "\| sessions \|"

# a session left 'running' by a contend that is gone (killed, a reboot):
# compare marks it interrupted, as list does, and leaves it out
sh -c 'exit 0' &
dead=$!
wait $dead
sql "update sessions set status = 'running', ended_at = NULL, pid = $dead where id = 3" >/dev/null
run compare a b
expect_out "a session whose contend is gone is left out" "^Sessions: 'a' 1 \(4 runs\); 'b' 3 \(12 runs\)$"
check "and marked interrupted in the store" test "$(sql "select status from sessions where id = 3")" = interrupted

run compare a b --sessions latest,1
expect_rc "a bad --sessions: exit 2" 2
expect_err "it says what --sessions takes" "^contend: compare: --sessions takes all, latest or session ids separated by commas"

# the quick profile's 3 runs a load make a table, not a verdict: its
# header says so, and says nothing with enough runs
run run -w selftest --scale 0.02 --quick -l none --no-warmup -L q
expect_out "a quick session says its runs are too few for a verdict" "^profile: quick .*; its 3 runs a load make a table, too few for a verdict \(-n 4\)$"
run run -w selftest --scale 0.02 --quick -l none --no-warmup -n 4 -L q
if grep -q "too few for a verdict" "$T/out"; then not_ok "with -n 4 it does not"; else ok "with -n 4 it does not"; fi
