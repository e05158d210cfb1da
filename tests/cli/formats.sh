#!/bin/sh
# Every format of every command that prints results: JSON validated against
# docs/schema/contend-1.json (and counted against the store, read with
# sqlite3), CSV parsed by Python's csv module (every row as wide as the
# header, a row per stored run), Markdown tables whose rows have as many
# cells as their header; -o writes whole files, guesses the format from
# the extension and refuses what it cannot write; --progress plain prints
# a line per run. A label with a pipe, a tag, quotes and a comma comes out
# escaped in each format.
. "$CT_TESTLIB"
plan 63

SCHEMA=$(dirname "$CT_TESTLIB")/../../docs/schema/contend-1.json

# valid FILE: the JSON in FILE validates against the schema
valid() {
	python3 - "$SCHEMA" "$1" <<'EOF' >"$T/valid" 2>&1
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
jsonschema.validate(json.load(open(sys.argv[2])), schema, cls=jsonschema.Draft202012Validator)
EOF
}
check_valid() { # check_valid DESC FILE
	if valid "$2"; then ok "$1"; else not_ok "$1" "$(tail -5 "$T/valid")"; fi
}
# py EXPR FILE: EXPR over the JSON document d of FILE, printed
py() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($1)" "$2"; }
# csv_ok FILE: every row as wide as the header; prints the data rows
csv_rows() {
	python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
bad = [i for i, r in enumerate(rows) if len(r) != len(rows[0])]
print(len(rows) - 1 if rows and not bad else "ragged rows %s" % bad)' "$1"
}
# md_ok FILE: each table row has as many unescaped | as the row above it
md_ok() {
	python3 -c '
import re, sys
prev = None
for line in open(sys.argv[1]):
    if not line.startswith("|"):
        prev = None
        continue
    n = len(re.findall(r"(?<!\\)\|", line))
    if prev is not None and n != prev:
        sys.exit("row %r has %d cells, the row above %d" % (line, n, prev))
    prev = n' "$1"
}
expect_eq() { # expect_eq DESC GOT WANT
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "got '$2', expected '$3'"; fi
}

# two configs of the harness's own workload, under two loads; the first
# report goes to a file as JSON, the second session says each run
run run -w selftest -l none,null -n 3 --delay 0 -L a --format json -o "$T/run.json"
expect_rc "run --format json -o FILE: exit 0" 0
expect_eq "run -o: nothing on stdout" "$(wc -c <"$T/out")" 0
check_valid "run's JSON validates" "$T/run.json"
expect_eq "run's JSON holds its 6 runs" \
	"$(py 'sum(len(c["runs"]) for l in d["loads"] for c in l["configs"])' "$T/run.json")" 6
rc=0
"$CONTEND" run -w selftest -l none,null -n 3 --delay 0 -L b --progress plain >"$T/out" 2>"$T/err" || rc=$?
expect_rc "run --progress plain: exit 0" 0
expect_eq "--progress plain: a line per run" \
	"$(grep -cE '^\[(none|null)\] run [1-3]/3 \([1-6]/6\) [0-9.]+ s ok(  mean [0-9.]+ s ± [0-9.]+)?  elapsed' "$T/err")" 6

# compare in each format
for fmt in json csv md html; do
	rc=0
	"$CONTEND" compare a b --format $fmt >"$T/c.$fmt" 2>"$T/err" || rc=$?
	expect_rc "compare --format $fmt: exit 0" 0
done
check_valid "compare's JSON validates" "$T/c.json"
expect_eq "compare's JSON: a comparison per load" \
	"$(py 'sum(c["comparison"] is not None for l in d["loads"] for c in l["configs"])' "$T/c.json")" 2
expect_eq "compare's CSV: a row per stored run of a and b" "$(csv_rows "$T/c.csv")" \
	"$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label in ('a', 'b')")"
check "compare's Markdown tables are regular" md_ok "$T/c.md"
check "compare's Markdown has contest's table" grep -q '^| Config | \[runs\] | Time(s) |' "$T/c.md"
check "compare's HTML is one page" grep -q '</html>' "$T/c.html"

# run and report in the other formats: the same printers, each checked
for fmt in csv md html; do
	run run -w selftest -l none -n 2 -L "r$fmt" --format $fmt
	cp "$T/out" "$T/run.$fmt"
	run report a b --format $fmt
	cp "$T/out" "$T/rep.$fmt"
done
expect_eq "run --format csv: a row per run" "$(csv_rows "$T/run.csv")" 2
check "run --format md: regular tables" md_ok "$T/run.md"
check "run --format html: one page" grep -q '<svg class="dotplot" data-load="none"' "$T/run.html"
expect_eq "report --format csv: a row per stored run of a and b" "$(csv_rows "$T/rep.csv")" \
	"$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label in ('a', 'b')")"
check "report --format md: regular tables" md_ok "$T/rep.md"
check "report --format html: the timeline" grep -q '<svg class="timeline"' "$T/rep.html"

# report: one label, a session by id, a bad id
run report a
expect_rc "report LABEL: exit 0" 0
expect_out "report LABEL prints the table" '^a +3 '
sid=$(sql "select min(id) from sessions")
run report --session "$sid" --format json
expect_rc "report --session ID --format json: exit 0" 0
cp "$T/out" "$T/r.json"
expect_eq "report --session: that session's label" "$(py 'd["loads"][0]["configs"][0]["label"]' "$T/r.json")" a
run report --session 999
expect_rc "report --session of no session: exit 2" 2
expect_err "it says which" 'no session 999'

# list and sysinfo and stats
run list --format json
cp "$T/out" "$T/l.json"
check_valid "list's JSON validates" "$T/l.json"
expect_eq "list's JSON: every session" "$(py 'len(d["sessions"])' "$T/l.json")" "$(sql 'select count(*) from sessions')"
run list --format csv
cp "$T/out" "$T/l.csv"
expect_eq "list's CSV: a row per session" "$(csv_rows "$T/l.csv")" "$(sql 'select count(*) from sessions')"
run list --format md
cp "$T/out" "$T/l.md"
check "list's Markdown table is regular" md_ok "$T/l.md"
run sysinfo --format json
cp "$T/out" "$T/s.json"
check_valid "sysinfo's JSON validates" "$T/s.json"
fp=$("$CONTEND" sysinfo | awk '/^fingerprint:/ { print $2 }')
expect_eq "sysinfo's JSON: the fingerprint text shows" "$(py 'd["sysinfo"]["fingerprint"]' "$T/s.json")" "$fp"
run sysinfo --format csv
expect_out "sysinfo's CSV: name,value rows" "^fingerprint,$fp\$"
run sysinfo --format md
expect_out "sysinfo's Markdown: a fact per row" "^\| fingerprint \| $fp \|\$"
printf '1\n2\n3\n4\n' >"$T/x"
printf '2\n3\n4\n5\n6\n' >"$T/y"
run stats "$T/x" "$T/y" --format json
cp "$T/out" "$T/st.json"
check_valid "stats' JSON validates" "$T/st.json"
run stats "$T/x" "$T/y" --format csv
cp "$T/out" "$T/st.csv"
expect_eq "stats' CSV: a row per number" "$(csv_rows "$T/st.csv")" 9
run stats "$T/x" "$T/y" --format md
cp "$T/out" "$T/st.md"
check "stats' Markdown tables are regular" md_ok "$T/st.md"

# the schema is not vacuous: a document missing a key fails it
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); del d["loads"][0]["configs"][0]["ratio"]; json.dump(d, open(sys.argv[2], "w"))' "$T/c.json" "$T/bad.json"
if valid "$T/bad.json"; then not_ok "a document without a key fails the schema"; else ok "a document without a key fails the schema"; fi

# -o: the format from the extension, whole files, bad paths
run compare a b -o "$T/o.md"
expect_rc "-o FILE.md: exit 0" 0
check "-o FILE.md writes Markdown" grep -q '^| Config |' "$T/o.md"
echo "old report" >"$T/o.csv"
run compare a b -o "$T/o.csv"
check "-o over an old file replaces it" grep -q '^session_id,label,' "$T/o.csv"
expect_eq "-o leaves no temporary file" "$(find "$T" -maxdepth 1 -name '.o.*' | wc -l)" 0
run compare a b -o "$T/missing/x.json"
expect_rc "-o into a missing directory: exit 2" 2
expect_err "it names the file" "missing/x.json"
run list --format html
expect_rc "list --format html: exit 2" 2
expect_err "it names the formats list takes" 'format must be one of text, json, csv, md,'
run list -o "$T/l.html"
expect_rc "list -o FILE.html: exit 2" 2
expect_err "it says where html goes" 'html is for run, compare and report'

# a hostile label, escaped in every format: -L refuses it, but a store
# from elsewhere (an older contend, a fleet's push) may hold one - named so
# here; and a hostile argument, which the stored command line must quote
bad='x|y<b>"q",z'
run run -w cmd -l none -n 2 --delay 0 -L argq -- sh -c 'exit 0' "$bad"
expect_rc "a run whose command takes | < > \" , in an argument: exit 0" 0
# the stored command line reads back, through a shell, as it was given
# (in a subshell in $T: a broken quoting must not redirect into the cwd)
argv=$(sql "select argv from sessions order by id desc limit 1")
got=$(cd "$T" && eval "set -- $argv" 2>/dev/null &&
	while [ $# -gt 1 ]; do shift; done && echo "$1")
expect_eq "the stored command line keeps the argument's quoting" "$got" "$bad"
run run -w selftest -l none -n 2 -L hostile
sql "update configs set label = '$bad' where label = 'hostile'"
run compare a "$bad" -l none --format csv
cp "$T/out" "$T/h.csv"
expect_eq "CSV quotes it: the label comes back whole" \
	"$(python3 -c 'import csv, sys; print(sorted({r["label"] for r in csv.DictReader(open(sys.argv[1]))})[-1])' "$T/h.csv")" "$bad"
run compare a "$bad" -l none --format md
cp "$T/out" "$T/h.md"
check "Markdown escapes it: tables stay regular" md_ok "$T/h.md"
check "Markdown escapes it: no raw tag" sh -c "! grep -q '<b>' '$T/h.md'"
run compare a "$bad" -l none --format json
cp "$T/out" "$T/h.json"
expect_eq "JSON carries it exactly" "$(py 'd["loads"][0]["configs"][1]["label"]' "$T/h.json")" "$bad"
check_valid "and validates" "$T/h.json"

# oltp's document: scores, metrics, from the committed fixture store
cp "$CT_FIXTURES/store/v5.db" "$T/v5.db"
run report oa ob --db "$T/v5.db" --format json
cp "$T/out" "$T/oltp.json"
check_valid "an oltp report's JSON validates" "$T/oltp.json"
expect_eq "it holds each run's tps and score" \
	"$(py 'all(r["metrics"]["tps"] > 0 and r["score"] > 0 for c in d["loads"][0]["configs"] for r in c["runs"] if r["status"] == "ok")' "$T/oltp.json")" True

# sessions from two machines (as a fleet's store gathers them): list says
# whose each is, compare says the configs differ in their machine
run list --format json
cp "$T/out" "$T/l2.json"
expect_eq "every session has a UUID of its own" \
	"$(py 'len({s["uuid"] for s in d["sessions"] if s["uuid"]}) == len(d["sessions"])' "$T/l2.json")" True
run list
expect_eq "sessions of one machine: no machine column" "$(grep -c 'machine' "$T/out")" 0
b=$(sql "select s.id from sessions s join configs c on c.id = s.config_id where c.label = 'b'")
sql "update sessions set hostname = 'build2', machine_id = 'aabbccddeeff00112233445566778899' where id = $b"
run list
expect_out "sessions of two machines: list says whose" "^$b .* b .*  build2 \\(aabbccdd\\)\$"
run compare a b
expect_out "compare says the configs differ in their machine" '^configs differ in: machine \(a: [^,]*, b: build2 \(aabbccdd\)\)'
