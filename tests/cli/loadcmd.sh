#!/bin/sh
# --load-cmd NAME=COMMAND: any program as a background load, with the real
# stress-ng and fio, and sh scripts whose output is known to the digit for
# the work counters (--load-work sums, --load-total takes a running total's
# growth, a regex without a group counts lines). The command runs in its
# own cgroup and directory, a command that ends fails the run with its
# status and last line, its whole tree is killed after each run (with and
# without a cgroup), runs of one name that ran different commands are never
# compared, and every mistake is one line and exit 2 with nothing stored.
. "$CT_TESTLIB"
plan 40

if ! command -v stress-ng >/dev/null 2>&1 || ! command -v fio >/dev/null 2>&1; then
	for i in $(seq 40); do skip "load-cmd" "stress-ng or fio is not installed"; done
	exit 0
fi
runs() { sql "select count(*) from runs"; }
# gone PATTERN: no process whose command line matches is left
none_match() { ! pgrep -f -- "$1" >/dev/null; }
gone() { wait_until 5 none_match "$1"; }

# stress-ng as a load: no work counter, its CPU as LCPU%
run run -w cmd -l none,vm --load-cmd 'vm=stress-ng --vm 1 --vm-bytes 128M' --dir "$T" \
	--no-warmup -n 2 --delay 1s -L a -- sleep 2
expect_rc "stress-ng as a load: exit 0" 0
expect_out "its row: Loads '-', its LCPU%" "^a +2 +2\.[0-9]+ +[0-9]+% +- +[0-9]+% "
[ "$(sql "select count(*) from runs where load = 'vm' and status = 'ok' and load_params = 'cmd=''stress-ng --vm 1 --vm-bytes 128M'''")" = 2 ] &&
	ok "stored as load vm with its command" || not_ok "stored with its command" "$(sql "select load, status, reason, load_params from runs")"
[ "$(sql "select count(*) from runs where load = 'vm' and (load_user_us + load_sys_us) * 1000.0 / wall_ns > 0.5")" = 2 ] &&
	ok "its CPU is the load's: over half a CPU in each run" || not_ok "its CPU is the load's" "$(sql "select load_user_us, load_sys_us, wall_ns from runs where load = 'vm'")"
gone '^stress-ng' && [ -z "$(leftovers)" ] && ok "no stress-ng process left" || not_ok "no stress-ng left" "$(pgrep -af stress-ng)"

# in its own cgroup and its own directory under --dir
run run -w cmd -l p --load-cmd "p=sh -c 'cat /proc/self/cgroup >$T/cg; pwd >$T/pwd; exec sleep 4242'" \
	--dir "$T" --no-warmup -n 1 --delay 0.5s -L c -- sleep 0.5
expect_rc "a command that records where it runs: exit 0" 0
if grep -q '^0::/.*contend' "$T/cg"; then
	grep -q '^0::/.*/load-p$' "$T/cg" && ok "it runs in its own cgroup" || not_ok "its own cgroup" "$(cat "$T/cg")"
else
	skip "its own cgroup" "no cgroup v2 contend can write here"
fi
case $(cat "$T/pwd") in "$T"/*/load-p) ok "it runs in its own directory under --dir" ;; *) not_ok "its own directory" "$(cat "$T/pwd")" ;; esac
gone 'sleep 4242' && ok "the command is killed at the end of the run" || not_ok "the command is killed" "$(pgrep -af 'sleep 4242')"

# the whole tree, also what left the process group, with and without a cgroup
for cg in "" --no-cgroup; do
	# shellcheck disable=SC2086
	run run -w cmd -l t --load-cmd "t=sh -c 'setsid sleep 4243 & exec sleep 4244'" --dir "$T" \
		--no-warmup -n 1 --delay 0.5s -L t $cg -- sleep 0.5
	expect_rc "a command with a child in its own session${cg:+ ($cg)}: exit 0" 0
	gone 'sleep 424[34]' && ok "its whole tree is killed${cg:+ ($cg)}" || not_ok "its whole tree is killed${cg:+ ($cg)}" "$(pgrep -af 'sleep 424')"
done

# a command that ends fails the run: at once (status, last line) or later
n=$(runs)
run run -w cmd -l x --load-cmd 'x=stress-ng --no-such-option' --dir "$T" --no-warmup -n 1 \
	--delay 0.5s -L x -- sleep 0.5
[ "$rc" -ne 0 ] && ok "a command that exits at once: non-zero exit ($rc)" || not_ok "exits at once: non-zero exit" "$(cat "$T/out")"
[ "$(sql "select reason from runs where load = 'x'")" = "load 'x': 'stress-ng' exited with status 1 before the run ended: Try 'stress-ng --help' for more information." ] &&
	ok "its run failed with the status and last line" || not_ok "status and last line" "$(sql "select status, reason from runs where load = 'x'")"
run run -w cmd -l e --load-cmd 'e=stress-ng --vm 1 --vm-bytes 64M --timeout 1' --dir "$T" \
	--no-warmup -n 1 --delay 0.2s -L e -- sleep 3
[ "$(sql "select status from runs where load = 'e'")" = failed ] &&
	sql "select reason from runs where load = 'e'" | grep -q "^load 'e': 'stress-ng' exited with status 0 before the run ended" &&
	ok "a command that ends during the run fails it" || not_ok "ends during the run" "$(sql "select status, reason, wall_ns from runs where load = 'e'")"

# fio's IOPS counted from its progress lines
run run -w cmd -l f --load-cmd 'f=fio --name=w --rw=randwrite --bs=4k --size=32M --time_based --runtime=600 --ioengine=psync --eta=always --eta-newline=1 --filename=fio.dat' \
	--load-work 'f=w=([0-9.]+[kM]?) IOPS' --dir "$T" --no-warmup -n 2 --delay 2s -L f -- sleep 2
expect_rc "fio as a load, its IOPS counted: exit 0" 0
[ "$(sql "select count(*) from runs where load = 'f' and load_work > 0 and load_unit_scale = 1000 and load_params like '% work=''w=([0-9.]+[kM]?) IOPS'''")" = 2 ] &&
	ok "each run counted fio's work" || not_ok "each run counted fio's work" "$(sql "select load_work, load_unit_scale, load_params from runs where load = 'f'")"
expect_out "the Loads column has the count" "^f +2 +2\.[0-9]+ +[0-9]+% +[1-9][0-9]* "
gone '^fio ' && ok "no fio left" || not_ok "no fio left" "$(pgrep -af fio)"

# the counters, to the digit: "done 1" before the run starts, then
# 2.5k, a line that does not match, 3.5k and 1Ki during it
script='sh -c '\''echo "done 1"; sleep 1.5; echo "done 2.5k"; echo noise; echo "done 3.5k"; echo "done 1Ki"; exec sleep 4245'\'
run run -w cmd -l s1,s2,s3 --load-cmd "s1=$script" --load-cmd "s2=$script" --load-cmd "s3=$script" \
	--load-work 's1=done ([0-9.]+[kKMG]?i?)' --load-total 's2=done ([0-9.]+[kKMG]?i?)' \
	--load-work 's3=^done' --dir "$T" --no-warmup -n 1 --delay 0.5s -L s -- sleep 3
expect_rc "three counted scripts: exit 0" 0
[ "$(sql "select load_work from runs where load = 's1'")" = 7024000 ] &&
	ok "--load-work sums the numbers: 2500 + 3500 + 1024" || not_ok "--load-work sums" "$(sql "select load, load_work from runs")"
[ "$(sql "select load_work from runs where load = 's2'")" = 4523000 ] &&
	ok "--load-total counts a total's growth, a fall as a new start: 2499 + 1000 + 1024" || not_ok "--load-total" "$(sql "select load, load_work from runs")"
[ "$(sql "select load_work from runs where load = 's3'")" = 3000 ] &&
	ok "a regex without a group counts lines: 3" || not_ok "counts lines" "$(sql "select load, load_work from runs")"

# the command from a file, an argument per line (spaces kept)
printf '%s\n' sh -c "printf '%s\\n' \"\$0\" >$T/at.out; exec sleep 4246" 'a b' >"$T/args"
run run -w cmd -l at --load-cmd "at=@$T/args" --dir "$T" --no-warmup -n 1 --delay 0.5s -L at -- sleep 0.5
expect_rc "--load-cmd NAME=@FILE: exit 0" 0
[ "$(cat "$T/at.out" 2>/dev/null)" = "a b" ] && ok "each line is one argument, spaces and all" || not_ok "a line per argument" "$(cat "$T/at.out" 2>&1)"

# compared only when the same command ran
run run -w cmd -l vm --load-cmd 'vm=stress-ng --vm 1 --vm-bytes 128M' --dir "$T" --no-warmup -n 2 \
	--delay 1s -L a2 -- sleep 2
run compare a a2 -l vm
expect_rc "compare of two configs that ran the same command: exit 0" 0
run run -w cmd -l vm --load-cmd 'vm=stress-ng --vm 1 --vm-bytes 64M' --dir "$T" --no-warmup -n 2 \
	--delay 1s -L b -- sleep 2
run compare a b -l vm
expect_rc "compare of configs that ran different commands as vm: exit 2" 2
expect_err "it names both commands" "load 'vm' ran different commands in 'a' \(cmd='stress-ng --vm 1 --vm-bytes 128M'\) and 'b' \(cmd='stress-ng --vm 1 --vm-bytes 64M'\): not compared"

# mistakes: one line, exit 2, nothing stored, nothing left
n=$(runs)
printf 'sleep\n\n10\n' >"$T/blank"
bad() { # bad DESC PATTERN ARGS...
	d=$1 p=$2
	shift 2
	run run -w cmd --dir "$T" --no-warmup -n 1 -L bad "$@" -- true
	if [ "$rc" = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -Eq -- "$p" "$T/err"; then ok "$d"; else
		not_ok "$d" "exit $rc" "$(cat "$T/err")"
	fi
}
bad "a defined load not in -l" "defined by --load-cmd but not run: name it in -l" -l none --load-cmd 'vm=stress-ng --vm 1'
bad "--load-work of no --load-cmd" "--load-work zz: no --load-cmd zz=" -l none --load-work 'zz=x'
bad "a built-in load's name" "load 'io' is already defined \(a built-in load\)" -l io --load-cmd 'io=stress-ng --vm 1'
bad "a name with a capital" "load name 'Vm': a lower-case letter" -l none --load-cmd 'Vm=stress-ng'
bad "a command that is not there" "--load-cmd vm: cannot run 'no-such-prog-xyz': command not found" -l vm --load-cmd 'vm=no-such-prog-xyz'
bad "a regex that does not compile" "--load-cmd vm: --load-work '\(\[0-9\]'" -l vm --load-cmd 'vm=stress-ng' --load-work 'vm=([0-9]'
bad "a file that is not there" "--load-cmd vm: cannot read '.*/missing'" -l vm --load-cmd "vm=@$T/missing"
bad "an empty line in the file" "--load-cmd vm: line 2 of '.*/blank' is empty" -l vm --load-cmd "vm=@$T/blank"
bad "no command" "--load-cmd vm=: give NAME=COMMAND" -l vm --load-cmd 'vm='
bad "a quote left open" "--load-cmd vm: a quote is left open" -l vm --load-cmd "vm=sh -c 'x"
[ "$(runs)" = "$n" ] && [ -z "$(leftovers)" ] && ok "nothing stored, nothing left" || not_ok "nothing stored, nothing left" "$(runs) runs, was $n; $(leftovers)"
