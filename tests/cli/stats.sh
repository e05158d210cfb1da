#!/bin/sh
# `contend stats` on the seed's io_load times: the figures the thread
# computed by hand (and R), not this code's own output; then bad input.
. "$CT_TESTLIB"
plan 38

printf '176.52\n181.21\n189.31\n198.59\n198.96\n204.19\n' >"$T/nopre"
printf '# 2.5.38-mm2, sorted\n190.04\n195.49\n\n199.44\n200.14  # a comment\n221.99\n263.03\n' >"$T/pre"

# jnum KEY [N]: the Nth value of KEY in the JSON output, rounded by the caller
jnum() { grep -o "\"$1\": [^,}]*" "$T/out" | sed -n "${2:-1}p" | sed 's/.*: //'; }
near() { # near DESC VALUE WANT DECIMALS
	got=$(printf "%.${4}f" "$2" 2>/dev/null)
	if [ "$got" = "$3" ]; then ok "$1 = $3"; else not_ok "$1 = $3" "got $2"; fi
}

run stats --format json "$T/nopre" "$T/pre"
expect_rc "json: exit 0" 0
near "NoPre mean" "$(jnum mean 1)" 191.463 3
near "NoPre CI low" "$(jnum ci_low 1)" 179.948 3
near "NoPre CI high" "$(jnum ci_high 1)" 202.979 3
near "NoPre sd" "$(jnum sd 1)" 10.973 3
near "NoPre median" "$(jnum median 1)" 193.95 2
near "NoPre AAD from the median" "$(jnum aad_median 1)" 9.117 3
near "Pre mean" "$(jnum mean 2)" 211.688 3
near "Pre CI low" "$(jnum ci_low 2)" 182.92 2
near "Pre CI high" "$(jnum ci_high 2)" 240.45 2
near "Pre sd" "$(jnum sd 2)" 27.410 3
near "Pre median" "$(jnum median 2)" 199.79 2
near "Pre AAD from the median" "$(jnum aad_median 2)" 16.698 3
[ "$(python3 -c 'import json, sys; print(json.load(sys.stdin)["datasets"][1]["outliers"])' <"$T/out")" = "[{'index': 5, 'value': 263.03}]" ] && ok "263.03 flagged as an outlier" || not_ok "263.03 flagged as an outlier" "$(cat "$T/out")"
near "Welch t" "$(jnum welch_t)" -1.678 3
near "Welch df" "$(jnum welch_df)" 6.56 2
near "Welch p (not the thread's 0.057)" "$(jnum welch_p)" 0.140 3
near "exact Mann-Whitney p" "$(jnum mann_whitney_p)" 0.132 3
expect_out "verdict" '"verdict": "no significant difference"'

run stats "$T/nopre" "$T/pre"
# the Hodges-Lehmann ratio with the interval of the exact Mann-Whitney
# test: R's wilcox.test(log(pre), log(nopre), conf.int = TRUE) gives
# 1.0777 [0.9802, 1.2882] (tests/fixtures/stats/reference.txt, io hl95)
expect_out "text: the effect with the rank test's interval" '^\+ vs x: \+7\.8% \[-2\.0%, \+28\.8%\] .* U decides: no significant difference$'
expect_out "text: the dot plot" '^\|.*A.*\|$'

printf '10\n11\n12\n10\n11\n' >"$T/a"
printf '20\n21\n22\n20\n21\n' >"$T/b"
run stats "$T/a" "$T/b"
expect_out "a real difference is called larger" " larger\$"

printf '1\nabc\n3\n' >"$T/bad"
run stats "$T/nopre" "$T/bad"; expect_rc "a non-number: exit 2" 2
expect_err "names the file and line" "'$T/bad' line 2: 'abc' is not a decimal number"
: >"$T/empty"
run stats "$T/empty"; expect_rc "an empty file: exit 2" 2
printf '5\n' >"$T/one"
run stats "$T/one"; expect_rc "one value: exit 2" 2
expect_err "one value explained" "holds one number"
run stats "$T/missing"; expect_rc "a missing file: exit 2" 2
run stats --confidence 0 "$T/nopre"; expect_rc "--confidence 0: exit 2" 2
run stats --paired "$T/nopre" "$T/a"; expect_rc "--paired with unequal lengths: exit 2" 2

# input hygiene: a byte order mark and CRLF line ends are read; hex is not
# a measurement; a binary file's bytes are escaped in the message
printf '\357\273\2771\r\n2\r\n3\r\n4\r\n' >"$T/bom"
printf '1\n2\n3\n4\n' >"$T/plain"
run stats --format json "$T/bom" "$T/plain"
expect_rc "a BOM and CRLF ends: exit 0" 0
[ "$(python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["datasets"][0]["n"], d["datasets"][0]["mean"])' <"$T/out")" = "4 2.5" ] && ok "read as the same four numbers" || not_ok "read as the same four numbers" "$(cat "$T/out")"
printf '1\n0x10\n3\n' >"$T/hex"
run stats "$T/hex" "$T/plain"
expect_rc "hex: exit 2" 2
expect_err "hex is not a decimal number" "line 2: '0x10' is not a decimal number"
printf '1\n\001\377\376x\n' >"$T/bin"
run stats "$T/bin" "$T/plain"
expect_rc "a binary file: exit 2" 2
expect_err "its bytes come out escaped" "line 2: '\\\\x01\\\\xff\\\\xfex' is not a decimal number"
if LC_ALL=C grep -q "$(printf '\377')" "$T/err"; then not_ok "no raw byte reaches the terminal"; else ok "no raw byte reaches the terminal"; fi
printf '5\n5\n5\n5\n' >"$T/c1"
cp "$T/c1" "$T/c2"
run stats --format json "$T/c1" "$T/c2"
[ "$(python3 -c 'import json, sys; print(json.load(sys.stdin)["comparisons"][0]["mann_whitney_p"])' <"$T/out")" = "1.0" ] && ok "two identical constant samples: Mann-Whitney p = 1" || not_ok "two identical constant samples: Mann-Whitney p = 1" "$(cat "$T/out")"
