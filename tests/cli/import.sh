#!/bin/sh
# contend import hyperfine with the real hyperfine: its --export-json
# files stored as sessions (a session per command, a run per time, failed
# where hyperfine saw a non-zero exit), compared like contend's own; files
# that are not such exports are one line and exit 2, among them an export
# in the shape of hyperfine 1.2, which kept no per-run times (a committed
# file, tests/fixtures/hyperfine/v1.2-no-times.json).
. "$CT_TESTLIB"
plan 15

if ! command -v hyperfine >/dev/null 2>&1; then
	for i in $(seq 13); do skip "import hyperfine" "hyperfine is not installed"; done
	exit 0
fi
hf() { hyperfine -N --style none --runs 6 --warmup 1 "$@" >/dev/null 2>&1; }
hf --export-json "$T/a.json" "sleep 0.01" "sleep 0.02"
hf --export-json "$T/b.json" "sleep 0.01" "sleep 0.02"
run import hyperfine "$T/a.json" -L a
expect_rc "import: exit 0" 0
expect_out "it says what it stored" "^imported 2 commands \(12 runs\) from '.*a.json' as 'a'"
[ "$(sql "select count(*) from sessions where workload = 'cmd' and profile = 'imported' and status = 'complete'")" = 2 ] &&
	ok "a session per command" || not_ok "a session per command" "$(sql "select * from sessions")"
want=$(python3 -c "import json,sys; print(round(json.load(open(sys.argv[1]))['results'][1]['times'][3] * 1e9))" "$T/a.json")
[ "$(sql "select wall_ns from runs where workload_params = 'sleep 0.02' and seq = 4")" = "$want" ] &&
	ok "each time is a run's Time, to the nanosecond" || not_ok "each time is a run's Time" "want $want: $(sql "select seq, wall_ns from runs where workload_params = 'sleep 0.02'")"
run import hyperfine "$T/b.json" -L b
expect_rc "a second export under another label: exit 0" 0
run compare a b
expect_rc "compare of two imports: exit 0" 0
expect_out "compare gives a verdict on them" "b vs a:"

# a failing command: its runs are failed runs
hyperfine -N --style none --runs 4 -i --export-json "$T/f.json" "false" >/dev/null 2>&1
run import hyperfine "$T/f.json" -L f
expect_rc "an export of a failing command: exit 0" 0
[ "$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label = 'f' and r.status = 'failed' and r.reason = 'hyperfine saw exit status 1'")" = 4 ] &&
	ok "its runs are stored failed, with the exit status" || not_ok "its runs are stored failed" "$(sql "select status, reason from runs where workload_params = 'false'")"

# not an export: one line, exit 2, nothing stored
n=$(sql "select count(*) from runs")
printf 'not json\n' >"$T/x.json"
run import hyperfine "$T/x.json" -L x
expect_rc "not JSON: exit 2" 2
run import hyperfine "$CT_FIXTURES/hyperfine/v1.2-no-times.json" -L old
expect_rc "hyperfine 1.2's export (no times): exit 2" 2
expect_err "it says the times are missing" "has no \"times\" \(hyperfine before 1.3"
[ "$(wc -l <"$T/err")" = 1 ] && [ "$(sql "select count(*) from runs")" = "$n" ] &&
	ok "one line, nothing stored" || not_ok "one line, nothing stored" "$(cat "$T/err")"
# a command with a newline in it and a time that is no number: the
# message quotes the command, so it is still one line (libFuzzer found it)
printf '{"results": [{"command": "sleep 1\\nfalse", "times": [0.5, "x"]}]}\n' >"$T/nl.json"
run import hyperfine "$T/nl.json" -L nl
expect_rc "a command with a newline and a bad time: exit 2" 2
[ "$(wc -l <"$T/err")" = 1 ] && grep -Fq "('sleep 1\nfalse'): time 2 is not a positive number" "$T/err" &&
	ok "one line, the command quoted" || not_ok "one line, the command quoted" "$(cat "$T/err")"
