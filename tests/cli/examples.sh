#!/bin/sh
# The examples that end `contend --help` and each command's --help, as
# written: every command `contend --help` lists, at least three examples
# each, `run` and `calibrate` through --dry-run (every check the run
# makes, nothing run), `bisect start` through --dry-run too but with
# --step (which only names the first commit to boot), every other one for
# real, on a store holding the configs they name and in a repository with
# the tags they name.
. "$CT_TESTLIB"

# the commands from contend --help's list, not from this file
cmds=$("$CONTEND" --help | awk '/^commands:$/ { c = 1; next } c && /^$/ { c = 0 } c && $1 != "help" { print $1 }')
: >"$T/examples"
for c in $cmds; do
	"$CONTEND" "$c" --help | awk '/^examples:$/ { e = 1; next } e && /^  contend / { sub(/^  /, ""); print }' >"$T/ex.$c"
	cat "$T/ex.$c" >>"$T/examples"
done
"$CONTEND" --help | awk '/^examples:$/ { e = 1; next } e && /^  contend / { sub(/^  /, ""); print } e && /^$/ { e = 0 }' >>"$T/examples"
nex=$(grep -c '^contend ' "$T/examples")
few=$(for c in $cmds; do [ "$(grep -c "^contend " "$T/ex.$c")" -ge 3 ] || echo "$c"; done)
plan $((nex + 3))
nonempty "every command's --help ends with examples" "$(cat "$T/examples")"
check "at least three for each of the $(echo $cmds | wc -w) commands (short: ${few:-none})" test -n "$cmds" -a -z "$few"

export HOME="$T"
printf 'all:\n\ttrue\n' >"$T/Makefile"
printf '1\n2\n3\n' >"$T/a.txt"
printf '2\n3\n4\n' >"$T/b.txt"
printf '{"results":[{"command":"make","times":[1.5,1.6],"user":1,"system":0.1}]}\n' >"$T/hf.json"
for r in r1 r2; do
	printf '{"jobs":[{"jobname":"r","read":{"total_ios":9,"iops":90.5,"bw":362,"runtime":100,"clat_ns":{"mean":1e4,"N":9,"read_clat_p99":1,"percentile":{"50.000000":9000,"99.000000":20000}}}}]}\n' >"$T/$r.json"
done
tiny="-l none --quick --scale 0.05 --no-warmup --delay 0 --dir $T"
# session 1, a suite's job (profiles --session 1 shows its file)
printf '[global]\nworkload = cmd\nloads = none\nruns = 1\nno-warmup\ndelay = 0\n[job]\ncommand = true\n' >"$T/s.ini"
"$CONTEND" run -q -f "$T/s.ini" -L suite --dir "$T" >/dev/null 2>"$T/err"
for l in rc3 patched before after 6.1.0 6.2.0; do
	# rc3 with the 5 runs a calibration from it needs
	n=2
	[ "$l" = rc3 ] && n=5
	# shellcheck disable=SC2086
	"$CONTEND" run -q -L "$l" -n $n $tiny >/dev/null 2>"$T/err"
done
if [ "$BACKEND" = sqlite ]; then
	cp "$CONTEND_DB" "$T/old.db"
	"$CONTEND" push -q --to "$T/archive.db" >/dev/null 2>&1
fi
# the repository bisect's examples name: the tags of their range, and
# the boot hook of the kernel's loop
git init -q -b main "$T/repo" &&
	for i in 1 2 3 4; do
		echo "$i" >"$T/repo/f"
		git -C "$T/repo" add f
		git -C "$T/repo" -c user.name=t -c user.email=t@t commit -q -m "c$i"
	done
git -C "$T/repo" tag v6.6 HEAD~3 && git -C "$T/repo" tag v6.7 HEAD
printf '#!/bin/sh\nexit 0\n' >"$T/boot.sh" && chmod +x "$T/boot.sh"
check "the store holds the labels the examples name, and a suite's session first" test "$(sql "select count(distinct c.label) from runs r join configs c on c.id = r.config_id")" = 7 -a "$(sql "select workload_params like '%suite=s.ini/job#%' from runs where session_id = 1")" = 1

run_examples "$T/examples"
