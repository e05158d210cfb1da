#!/bin/sh
# `contend compare` on stored sessions: a config recorded while two CPU hogs
# ran outside contend is a regression against a quiet one (exit 1 with
# --fail-on-regression); a second quiet config is not (exit 0).
. "$CT_TESTLIB"
plan 10

rec() { "$CONTEND" run -q -w selftest --scale 0.3 -l none,null -n 5 --delay 0.2s --dir "$T" -L "$1" >/dev/null 2>&1; }
rec a
yes >/dev/null &
h1=$!
yes >/dev/null &
h2=$!
rec b
kill $h1 $h2
wait $h1 $h2 2>/dev/null
rec c

run compare a b --fail-on-regression 5
expect_rc "a CPU-hogged config is a regression: exit 1" 1
expect_out "its rows are shown" "^b +5 +"
expect_out "the verdict says worse" "^none +b vs a: \\+[0-9.]+% .*Holm p=.* worse\$"
expect_err "the regression is named" "significantly slower than 'a' by more than 5%"
run compare a c --fail-on-regression 5
expect_rc "two quiet configs: exit 0" 0
expect_out "a verdict line per load" "^null +c vs a: "
run compare a
expect_rc "one label: exit 2" 2
run compare a zzz
expect_rc "a label without runs among the others: exit 0 with no test" 0
expect_out "says there are not enough runs" "zzz vs a: not enough runs"
run compare zzz a
expect_rc "a baseline without runs: exit 2" 2
