#!/bin/sh
# Progress while a session runs, as hyperfine shows it: --progress plain
# prints a line per run with its Time and, from a load's second ok run on,
# that load's mean and sd so far (checked against the Times it printed);
# on a terminal (script(1) gives one) the line rewritten in place shows the
# last run's Time and the running mean +- sd too.
. "$CT_TESTLIB"
plan 6

run run -w selftest --scale 0.05 -l none,null -n 4 --no-warmup --delay 0 --progress plain -L p
expect_rc "a session with --progress plain: exit 0" 0
grep '^\[none\] run ' "$T/err" >"$T/none"
nonempty "a line per run of none" "$(cat "$T/none")"
check "four of them" test "$(wc -l <"$T/none")" = 4
# each line's mean and sd against the Times of the lines up to it
bad=$(awk '{ for (i = 1; i <= NF; i++) { if ($(i + 1) == "s" && $(i + 2) == "ok") t[NR] = $i; if ($i == "mean") { m = $(i + 1); s = $(i + 4) } }
	n = NR; sum = 0; for (k = 1; k <= n; k++) sum += t[k]; mu = sum / n
	ss = 0; for (k = 1; k <= n; k++) ss += (t[k] - mu) ^ 2
	if (n >= 2) { sd = sqrt(ss / (n - 1)); if (m == "" || (m - mu) ^ 2 > 0.0011 ^ 2 || (s - sd) ^ 2 > 0.0011 ^ 2) print NR ": " $0 " (want " mu " +- " sd ")" }
	else if (m != "") print NR ": a mean after one run"
	m = "" }' "$T/none")
check "from the second run on, the mean +- sd of the Times so far (${bad:-all right})" test -z "$bad"

if command -v script >/dev/null 2>&1; then
	script -qfec "$CONTEND run -w selftest --scale 0.05 -l none -n 4 --no-warmup -L p" /dev/null >"$T/tty" 2>&1
	if grep -q '\[none\] run 4/4' "$T/tty"; then ok "on a terminal: a line per run, rewritten"; else not_ok "on a terminal: a line per run, rewritten" "$(tr '\r' '\n' <"$T/tty" | head -5)"; fi
	if grep -q 'last [0-9.]* s  mean [0-9.]* s ± [0-9.]*' "$T/tty"; then ok "the line shows the last Time and the running mean ± sd"; else not_ok "the line shows the last Time and the running mean ± sd" "$(tr '\r' '\n' <"$T/tty" | head -5)"; fi
else
	skip "on a terminal: a line per run, rewritten" "no script(1) here to give it a terminal"
	skip "the line shows the last Time and the running mean ± sd" "no script(1) here"
fi
