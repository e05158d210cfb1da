#!/bin/sh
# contend plan: the sessions a side an effect needs, from the labels' runs
# (the spread within a session) and this machine's spread of sessions
# (every config measured in two sessions or more). What is checked is what
# the arithmetic must give whatever the machine's noise: more runs a
# session never need more sessions, a larger effect never more, and
# without a config of two sessions the between-session spread is unknown
# and said so.
. "$CT_TESTLIB"
plan 16

sel="-q -w selftest --scale 0.05 --delay 0 --no-warmup --dir $T -l none,null"
# shellcheck disable=SC2086
"$CONTEND" run $sel -n 4 -L one >/dev/null 2>&1
run plan --effect 5 one
expect_rc "one session of one label: exit 0" 0
expect_out "the header says the change, confidence and power" "^contend plan: workload selftest \(.*\), a \+5% change, 95% confidence, 80% power\$"
expect_out "a row per load, the between-session spread unknown" "^none +[0-9.]+% +\? +[0-9>]+ +[0-9>]+ +[0-9>]+ +[0-9>]+\$"
expect_out "and it says how to measure it" "contend calibrate --sessions 4\$"
expect_out "... spread in time" "^\[--every D\] measures it\$"
# shellcheck disable=SC2086
"$CONTEND" calibrate $sel -n 5 -L cal --sessions 3 >/dev/null 2>&1
run plan --effect 5 one
expect_rc "with a calibration of three sessions: exit 0" 0
expect_out "the between-session spread is known" "^none +[0-9.]+% +[0-9.]+% +[0-9>]+ "
expect_out "and from where" "^between CoV: from the pairs of sessions of one config this machine measured \(up to\$"
# the arithmetic: sessions at n = 3, 5, 10, 20 never grow; a larger effect
# never needs more
k5=$(awk '$1 == "none" { print $4, $5, $6, $7 }' "$T/out")
nonempty "the sessions a side at n = 3, 5, 10, 20: $k5" "$k5"
check "more runs a session need no more sessions ($k5)" awk -v k="$k5" 'BEGIN { n = split(k, a, " "); for (i = 2; i <= n; i++) if (a[i] + 0 > a[i - 1] + 0 && a[i - 1] !~ />/) exit 1 }'
run plan --effect 50 one -l none
k50=$(awk '$1 == "none" { print $4 }' "$T/out")
nonempty "the sessions a side for +50%: $k50" "$k50"
check "+50% needs no more sessions than +5% ($k50 against ${k5%% *})" awk -v a="$k50" -v b="${k5%% *}" 'BEGIN { exit !(b ~ />/ || a + 0 <= b + 0) }'
check "-l none: that load alone" test "$(grep -c '^null ' "$T/out")" = 0 -a "$(grep -c '^none ' "$T/out")" = 1
run plan one
expect_rc "no --effect: exit 2" 2
expect_err "it names it" "plan: needs --effect PCT"
run plan --effect 5 nosuch
expect_rc "a label with no session: exit 2" 2
