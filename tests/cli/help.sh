#!/bin/sh
# Every range a --help states is the one the parser takes: for each option
# of run, calibrate, compare and stats whose help gives a range, the bounds it names
# are probed - a value on an open bound or outside is refused with one line
# naming the option, one on a closed bound or inside is taken (run: through
# --dry-run, so nothing runs). Then the help and usage of every command.
. "$CT_TESTLIB"

# "name|range" for each ranged option of `contend CMD --help`
ranges() {
	"$CONTEND" "$1" --help | awk '
		/^ *(-., )?--[a-z-]+ [A-Z]/ { flush(); match($0, /--[a-z-]+/); name = substr($0, RSTART + 2, RLENGTH - 2); text = $0; next }
		/^ *(-., )?--[a-z-]+/ { flush(); next }
		/^                        / { text = text " " $0; next }
		{ flush() }
		END { flush() }
		function flush() {
			if (name != "" && match(text, /[0-9.]+[A-Za-z]* to [0-9.]+[A-Za-z]*|at least [0-9.]+|[0-9.]+[A-Za-z]* (<|<=) [A-Z]+ (<|<=) [0-9.]+[A-Za-z]*|[A-Z]+ (<|<=|>|>=) [0-9.]+[A-Za-z]*/))
				print name "|" substr(text, RSTART, RLENGTH)
			name = ""
		}'
}

num() { echo "$1" | sed 's/[A-Za-z]*$//'; }
unit() { echo "$1" | sed 's/^[0-9.]*//'; }
calc() { awk "BEGIN { printf \"%.10g\", ($1) }"; }

# probe CMD OPT VALUE WANT: WANT is take or refuse
probe() {
	pc=$1 po=$2 pv=$3 want=$4
	case $pc in
	run | calibrate)
		rc=0
		# --every spaces the sessions --sessions runs
		set --
		[ "$po" = every ] && set -- --sessions 2
		"$CONTEND" "$pc" --dry-run -w selftest -l none,process,io,read,list,mem,dbench "$@" "--$po" "$pv" >"$T/out" 2>"$T/err" || rc=$?
		if [ $rc != 0 ] && grep -q "applies to" "$T/err"; then
			# the engine's options, with what the others ask of them
			set -- --reads 1000 --writes 0 --pool-size 0
			[ "$po" = mem-limit ] && set -- "$@" --buffered
			rc=0
			"$CONTEND" "$pc" --dry-run -w oltp -l none "$@" "--$po" "$pv" >"$T/out" 2>"$T/err" || rc=$?
		fi
		if [ $rc != 0 ] && grep -q "applies to" "$T/err"; then
			# the latency workload's, its custom task long enough for any period
			rc=0
			"$CONTEND" "$pc" --dry-run -w latency -l none --task custom --cpu 10 --period 10ms \
				--duration 60s "--$po" "$pv" >"$T/out" 2>"$T/err" || rc=$?
		fi
		if [ $rc != 0 ] && grep -q "applies to" "$T/err"; then
			# the pgbench workload's (a dry run asks for the server's programs)
			rc=0
			"$CONTEND" "$pc" --dry-run -w pgbench -l none "--$po" "$pv" >"$T/out" 2>"$T/err" || rc=$?
		fi
		;;
	compare) rc=0; "$CONTEND" compare "--$po" "$pv" a b >"$T/out" 2>"$T/err" || rc=$? ;;
	stats) rc=0; "$CONTEND" stats "--$po" "$pv" "$T/x" >"$T/out" 2>"$T/err" || rc=$? ;;
	esac
	named=no
	grep -q -- "--$po" "$T/err" && named=yes
	# --target-effect's value was taken when the dry run goes on to look
	# for the calibration it plans from (there is none here)
	if [ "$po" = target-effect ] && grep -q "has no calibration" "$T/err"; then
		named=no rc=0
	fi
	if [ "$want" = refuse ]; then
		[ $rc = 2 ] && [ $named = yes ] && [ "$(wc -l <"$T/err")" = 1 ] && return 0
	else
		[ $named = no ] && { [ "$pc" != run ] && [ "$pc" != calibrate ] || [ $rc = 0 ]; } && return 0
	fi
	echo "# $pc --$po $pv: wanted $want, got exit $rc: $(head -c 300 "$T/err")"
	return 1
}

printf '1\n2\n3\n' >"$T/x"
bad=0
n=0
for c in run calibrate compare stats; do
	for r in $(ranges $c | tr ' ' '~'); do
		o=${r%%|*}
		set -- $(echo "${r#*|}" | tr '~' ' ')
		n=$((n + 1))
		case "$*" in
		*" to "*)
			a=$1 b=$3
			probe $c $o "$a" take || bad=$((bad + 1))
			probe $c $o "$b" take || bad=$((bad + 1))
			probe $c $o "$(calc "$b + 1")" refuse || bad=$((bad + 1))
			[ "$a" -ge 1 ] && { probe $c $o "$(calc "$a - 1")" refuse || bad=$((bad + 1)); }
			;;
		"at least "*)
			probe $c $o "$3" take || bad=$((bad + 1))
			probe $c $o "$(calc "$3 - 1")" refuse || bad=$((bad + 1))
			;;
		*" "[\<]*" "*" "[\<]*)
			lo=$(num "$1") u=$(unit "$1") hi=$(num "$5")
			probe $c $o "$(calc "($lo + $hi) / 2")$u" take || bad=$((bad + 1))
			[ "$2" = "<" ] && w=refuse || w=take
			probe $c $o "$1" $w || bad=$((bad + 1))
			[ "$4" = "<" ] && w=refuse || w=take
			probe $c $o "$5" $w || bad=$((bad + 1))
			[ "$4" = "<=" ] && { probe $c $o "$(calc "$hi + 1")$u" refuse || bad=$((bad + 1)); }
			;;
		*)
			v=$(num "$3") u=$(unit "$3")
			case $2 in
			">") probe $c $o "$3" refuse && probe $c $o "$(calc "$v + 1")$u" take || bad=$((bad + 1)) ;;
			">=") probe $c $o "$3" take && probe $c $o "$(calc "$v > 0 ? $v / 2 : $v - 1")$u" refuse || bad=$((bad + 1)) ;;
			"<") probe $c $o "$3" refuse && probe $c $o "$(calc "$v / 2")$u" take || bad=$((bad + 1)) ;;
			"<=") probe $c $o "$3" take && probe $c $o "$(calc "$v + 1")$u" refuse || bad=$((bad + 1)) ;;
			esac
			;;
		esac
	done
done
# every command contend --help lists (not a list of this file's)
cmds=$("$CONTEND" --help | awk '/^commands:$/ { c = 1; next } c && /^$/ { c = 0 } c && $1 != "help" { print $1 }')
ncmds=$(echo $cmds | wc -w)
plan $((ncmds + 17))
[ "$n" -ge 15 ] && ok "the help states ranges for $n options" || not_ok "the help states ranges for $n options"
[ "$bad" = 0 ] && ok "every stated bound is the parser's ($n options)" || not_ok "every stated bound is the parser's" "$bad probes disagree"

check "contend --help lists the commands ($ncmds)" test "$ncmds" -ge 15
for c in $cmds; do
	rc=0
	"$CONTEND" help $c >"$T/h1" 2>&1 || rc=$?
	"$CONTEND" $c -h >"$T/h2" 2>&1 || rc=$((rc + $?))
	nex=$(awk '/^examples:$/ { e = 1; next } e && /^  contend / { n++ } END { print n + 0 }' "$T/h1")
	[ $rc = 0 ] && cmp -s "$T/h1" "$T/h2" && grep -q "^usage: contend $c" "$T/h1" && [ "$nex" -ge 3 ] &&
		ok "help $c and $c -h: its usage and $nex examples" ||
		not_ok "help $c and $c -h: its usage and three examples or more ($nex)" "$(head -c 200 "$T/h1")"
done
run help
expect_out "help lists --version" "--version"
run run --bogus
expect_err "an unknown option: one line naming it" "^contend: run: unknown option '--bogus' \\(see: contend run --help\\)\$"
run loads --db x
expect_rc "loads takes no --db: exit 2" 2
expect_err "and says so in one line" "^contend: loads: unknown option '--db' \\(see: contend loads --help\\)\$"
[ "$(wc -l <"$T/err")" = 1 ] && ok "one line" || not_ok "one line" "$(cat "$T/err")"

# a default the help states is the one the command takes: -n's in run's
# help (full and quick profile) and calibrate's (alone and with
# --sessions), against the runs each dry run plans
help_n() {
	"$CONTEND" "$1" --help | grep -E '^  -n, --runs N' | case $2 in
	default) sed -n 's/.*(default \([0-9][0-9]*\).*/\1/p' ;;
	quick) sed -n 's/.*, quick \([0-9][0-9]*\).*/\1/p' ;;
	sessions) sed -n 's/.*, \([0-9][0-9]*\) with --sessions.*/\1/p' ;;
	esac
}
plan_n() { "$CONTEND" "$@" --dry-run -w selftest -l none 2>"$T/err" | sed -n 's/^runs: *\([0-9][0-9]*\) per load.*/\1/p'; }
for c in "run default" "run quick --quick" "calibrate default" "calibrate sessions --sessions 2"; do
	set -- $c
	h=$(help_n "$1" "$2")
	cmd=$1
	shift 2
	d=$(plan_n "$cmd" "$@")
	what=$(echo "$cmd $*" | sed 's/ *$//')
	if [ -n "$h" ] && [ "$h" = "$d" ]; then ok "$what: --help's default -n ($h) is the dry run's"; else
		not_ok "$what: --help's default -n is the dry run's" "help '$h', dry run '$d'" "$(head -c 300 "$T/err")"
	fi
done
rc=0
"$CONTEND" calibrate --help >"$T/h" 2>&1 || rc=$?
h=$(help_n calibrate default)
[ $rc = 0 ] && [ -n "$h" ] && grep -q "^Runs the workload -n times (default $h) under each load" "$T/h" && ok "calibrate's intro states its -n default ($h)" || not_ok "calibrate's intro states its -n default" "$(head -c 300 "$T/h")"
bl=$("$CONTEND" bisect --help | grep -A1 -E '^  -l, --loads LOAD' | tr -s ' \n' ' ' | sed -n 's/.*(default \([a-z]*\);.*/\1/p')
nonempty "bisect --help states -l's default" "$bl"
git init -q "$T/brepo" && git -C "$T/brepo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m a &&
	git -C "$T/brepo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m b
rc=0
(cd "$T/brepo" && "$CONTEND" bisect start --dry-run --good HEAD~1 --bad HEAD --db "$T/b.db" -w cmd -- true) >"$T/out" 2>"$T/err" || rc=$?
expect_out "bisect --help's default load ($bl) is the one a step is measured under" "under load $bl,"

# the workloads' and loads' own options (declared in their ops): each
# heading of run's --help names who takes the options under it, and each
# of those options given to a workload and loads that take none of them is
# refused with one line naming every workload and load the heading names
"$CONTEND" run --help | awk '
	/^  (workloads?|loads?) .*:$/ { head = $0; sub(/^  /, "", head); next }
	/^  [^ ]/ { head = "" }
	head != "" && /^      --[a-z]/ { match($0, /--[a-z-]+( [A-Z]+)?/); print substr($0, RSTART, RLENGTH) "|" head }' >"$T/plug"
np=$(grep -c . "$T/plug")
[ "$np" -ge 25 ] && ok "run --help lists $np options of workloads and loads under headings" ||
	not_ok "run --help lists the options of workloads and loads under headings" "$np found" "$(head -c 300 "$T/plug")"
bad=""
while IFS='|' read -r opt head; do
	o=${opt%% *}
	case $opt in
	*" SIZE") v=64M ;; *" N") v=1 ;; *" D") v=1s ;; *" DIR") v=/tmp ;; *" X" | *" TPS") v=1 ;;
	*" PCT") v=10 ;; *" THETA") v=0.5 ;; *" LIST") v=audio ;; *" CMD" | *" ARGS") v=true ;;
	*" M") v=spin ;; *" E") v=psync ;; *" "*) v=x ;; *) v="" ;;
	esac
	case $head in *"workload cmd"* | *"workloads cmd"* | *" cmd,"* | *" cmd;"*) continue ;; esac
	rc=0
	if [ -n "$v" ]; then
		"$CONTEND" run --dry-run -w cmd -l none "$o" "$v" -- true >"$T/out" 2>"$T/err" || rc=$?
	else
		"$CONTEND" run --dry-run -w cmd -l none "$o" -- true >"$T/out" 2>"$T/err" || rc=$?
	fi
	names=$(echo "$head" | sed 's/:$//; s/workloads\{0,1\} //; s/loads\{0,1\} //g; s/[,;]/ /g')
	miss=""
	for w in $names; do grep -Eq "[ ,]$w(,|;| only)" "$T/err" || miss="$miss $w"; done
	if [ $rc != 2 ] || [ "$(wc -l <"$T/err")" != 1 ] || ! grep -q -- "$o applies to" "$T/err" || [ -n "$miss" ]; then
		bad="$bad $o (exit $rc, missing:$miss: $(head -c 150 "$T/err"))"
	fi
done <"$T/plug"
[ -z "$bad" ] && ok "each is refused where nobody takes it, naming who does" ||
	not_ok "each is refused where nobody takes it, naming who does" "$bad"
