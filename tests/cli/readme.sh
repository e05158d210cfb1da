#!/bin/sh
# The README's examples as written: every `contend` line of the code blocks
# under "## Quick start" and "## Commands", `contend run` and
# `contend calibrate` through --dry-run (every check it makes before it
# starts: options, loads, a command that can be found, the tree, knobs the
# disk offers, a baseline with stored runs, sizes that fit), every other
# command for real, on a store holding the configs the examples name (a tiny
# kbuild each) and with ~/linux a tree with a Makefile.
. "$CT_TESTLIB"

readme=$(dirname "$CT_TESTLIB")/../../README.md
ex=$(awk '/^## / { s = ($0 ~ /^## (Quick start|Commands)$/) } /^```/ { f = !f; next } s && f && /^contend / { print }' "$readme" | sed 's/[[:space:]]*#.*$//')
# a renamed heading or an emptied block must fail here, not pass on nothing
nex=$(printf '%s\n' "$ex" | grep -c '^contend ')
if [ "$nex" -lt 20 ]; then
	echo "Bail out! only $nex 'contend' lines in the README's \"## Quick start\" and \"## Commands\" code blocks, at least 20 expected"
	exit 1
fi
plan $((nex + 4))

export HOME="$T"
mkdir -p "$T/linux"
printf 'all:\n\ttrue\n' >"$T/linux/Makefile"
printf '1\n2\n3\n' >"$T/a.txt"
printf '2\n3\n4\n' >"$T/b.txt"
printf '{"results":[{"command":"make","times":[1.5,1.6],"user":1,"system":0.1}]}\n' >"$T/hf.json"
for r in r1 r2; do
	printf '{"jobs":[{"jobname":"r","read":{"total_ios":9,"iops":90.5,"bw":362,"runtime":100,"clat_ns":{"mean":1e4,"N":9,"percentile":{"50.000000":9000,"99.000000":20000}}}}]}\n' >"$T/$r.json"
done
tiny="-l none -n 2 --quick --scale 0.05 --no-warmup --delay 0 --dir $T"
# shellcheck disable=SC2086
"$CONTEND" run -q -L rc3 $tiny >/dev/null 2>"$T/err"
check "the store holds rc3" test "$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label = 'rc3'")" = 2
# shellcheck disable=SC2086
"$CONTEND" run -q -L patched $tiny >/dev/null 2>"$T/err"
check "and patched" test "$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label = 'patched'")" = 2
# the labels the Quick start compares
labels="6.18.44 6.19-rc3 before after try+sysctl.vm.dirty_ratio=10 try+sysctl.vm.dirty_ratio=40"
n=0
for l in $labels; do
	n=$((n + 1))
	# a label as --vary names a config is no label -L takes: stored
	# under another, then named as --vary names it (no knob changed)
	# shellcheck disable=SC2086
	case $l in
	*+*=*) "$CONTEND" run -q -L "vary$n" $tiny >/dev/null 2>"$T/err" &&
		sql "update configs set label = '$l' where label = 'vary$n'" ;;
	*) "$CONTEND" run -q -L "$l" $tiny >/dev/null 2>"$T/err" ;;
	esac
done
check "and the Quick start's labels" test "$(sql "select count(distinct c.label) from runs r join configs c on c.id = r.config_id")" = 8

# the calibration the --target-effect example reads: rc3's of the default
# kbuild under none and io, eight runs 1% apart (a full-size kbuild's
# calibration would take minutes)
params="files=160 scale=1.00 jobs=$((4 * $(nproc)))"
for l in none io; do
	sql "insert into calibrations (config_id, workload, workload_params, load, session_id,
		created_at, higher_better, runs) select id, 'kbuild', '$params', '$l',
		(select max(id) from sessions), 1, 0, '[15.9,16.1,16.0,15.8,16.2,16.0,15.9,16.1]'
		from configs where label = 'rc3' limit 1"
done
check "and rc3's calibration of kbuild ($params) under none and io" test "$(sql "select count(*) from calibrations")" = 2

printf '%s\n' "$ex" >"$T/examples"
run_examples "$T/examples"
