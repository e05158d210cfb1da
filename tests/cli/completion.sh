#!/bin/sh
# zsh's and fish's completions (which ask bash's for the line, so the three
# never differ) are checked at the end through fish's own engine
# (complete -C) and zsh's candidate function.
# The bash completion, sourced in a bash without the bash-completion
# package: COMP_WORDS, COMP_CWORD, COMP_LINE and COMP_POINT set as bash
# sets them, _contend called, COMPREPLY checked against what the real binary
# says - its commands, a command's options, the loads, the workloads - and
# against the labels of a store made here, found through the --db given on
# the line.
. "$CT_TESTLIB"

script=${CT_COMPLETION:-$(dirname "$CT_TESTLIB")/../../completion/contend.bash}
total=46
plan $total
if ! command -v bash >/dev/null 2>&1; then
	i=0
	while [ $i -lt $total ]; do skip "completion" "bash is not installed"; i=$((i + 1)); done
	exit 0
fi

mkdir -p "$T/bin" "$T/subdir"
ln -s "$CONTEND" "$T/bin/contend"
cat >"$T/drive.bash" <<'EOF'
# drive.bash SCRIPT LINE: COMPREPLY for LINE, the cursor at its end, one a line
. "$1" || exit 1
line=$2
COMP_LINE=$line
COMP_POINT=${#line}
read -ra COMP_WORDS <<<"$line"
[[ $line == *' ' ]] && COMP_WORDS+=("")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_contend contend "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
((${#COMPREPLY[@]})) && printf '%s\n' "${COMPREPLY[@]}"
exit 0
EOF
# comp LINE: the completions of LINE in $T/comp, sorted
comp() {
	PATH="$T/bin:$PATH" bash --norc --noprofile "$T/drive.bash" "$script" "$1" 2>"$T/comperr" |
		sort >"$T/comp"
}
# expect DESC WANTED...: $T/comp is exactly WANTED
expect() {
	d=$1; shift
	if [ $# = 0 ]; then : >"$T/want"; else printf '%s\n' "$@" | sort >"$T/want"; fi
	if cmp -s "$T/want" "$T/comp"; then ok "$d"; else
		not_ok "$d" "wanted: $(echo $(cat "$T/want"))" "got: $(echo $(cat "$T/comp"))" "stderr: $(head -c 300 "$T/comperr")"
	fi
}
# has DESC WANTED...: $T/comp holds every WANTED
has() {
	d=$1; shift
	miss=""
	for w in "$@"; do grep -qxF -- "$w" "$T/comp" || miss="$miss $w"; done
	if [ -z "$miss" ]; then ok "$d"; else
		not_ok "$d" "missing:$miss" "got: $(echo $(cat "$T/comp"))" "stderr: $(head -c 300 "$T/comperr")"
	fi
}

rc=0
bash --norc --noprofile -c '. "$1" && complete -p contend && ! declare -F _init_completion' sh "$script" >"$T/out" 2>&1 || rc=$?
if [ $rc = 0 ] && grep -q -- "-F _contend contend" "$T/out"; then
	ok "sourced without bash-completion, it completes contend"
else
	not_ok "sourced without bash-completion, it completes contend" "$(head -c 400 "$T/out")"
fi

# the store whose labels are offered
run run -w selftest -l none -n 2 -L mylabel --db "$T/x.db" -q
expect_rc "a store with label mylabel" 0
run run -w selftest -l none -n 2 --scale 0.05 -L k1 --db "$T/x.db" -q
# a label as --set names a config (no knob changed: named here)
sqlite3 "$T/x.db" "update configs set label = 'k1+sysctl.vm.swappiness=10' where label = 'k1'" && rc=0 || rc=$?
expect_rc "and one whose label holds '=', as --set names its config" 0

# what the binary says, read before it is compared: an empty list would
# be matched by a completion that offers nothing
cmds=$("$CONTEND" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }')
rcmds=$(printf '%s\n' $cmds | grep '^r')
lo=$("$CONTEND" run --help | grep -oE -- '--lo[a-z-]*' | sort -u)
copts=$("$CONTEND" compare --help | grep -oE '^ +(-., )?--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+')
loads=$("$CONTEND" loads | awk 'NR > 1 && !NF { exit } NR > 1 { print $1 }' | grep -vxE 'none|process')
nonempty "contend --help lists commands" "$cmds"
nonempty "some start with r" "$rcmds"
nonempty "run --help has options starting with --lo" "$lo"
nonempty "compare --help has long options" "$copts"
nonempty "contend loads lists loads beside none and process" "$loads"

comp "contend "
expect "contend <tab>: the commands of contend --help" $cmds
comp "contend r"
expect "contend r<tab>: those starting with r" $rcmds
comp "contend --v"
expect "contend --v<tab>: --version" --version

comp "contend run --lo"
expect "contend run --lo<tab>: --loads, --log-size" $lo
comp "contend compare --"
expect "contend compare --<tab>: every long option of compare --help" $copts

# subcommands: bisect's, history's ack, fleet's summary, and a
# subcommand's own options
bsubs=$("$CONTEND" bisect --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }')
sopts=$("$CONTEND" bisect status --help | grep -oE '^ +(-., )?--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+')
nonempty "bisect --help lists its subcommands" "$bsubs"
nonempty "bisect status --help lists its options" "$sopts"
comp "contend bisect "
expect "contend bisect <tab>: its subcommands" $bsubs
has "they are start, status, log, reset, resume, report, step, judge" start status log reset resume report step judge
comp "contend history a"
expect "contend history a<tab>: ack" ack
comp "contend bisect status --"
expect "contend bisect status --<tab>: status's options, not start's" $sopts
comp "contend fleet "
expect "contend fleet <tab>: summary" summary
comp "contend fleet summary --baseline-m"
expect "contend fleet summary --baseline-m<tab>: summary's option" --baseline-machine

comp "contend run -l none,pr"
expect "contend run -l none,pr<tab>: none,process" none,process
comp "contend run --loads none,process,"
has "--loads none,process,<tab>: every other load after the list" $(printf 'none,process,%s\n' $loads)
if grep -qE '^none,process,(none|process)$' "$T/comp"; then
	not_ok "and not the loads already in it" "$(echo $(cat "$T/comp"))"
else ok "and not the loads already in it"; fi
comp "contend run -w "
has "contend run -w <tab>: the workloads" kbuild cmd oltp selftest

comp "contend compare --db $T/x.db "
expect "contend compare --db STORE <tab>: its labels" mylabel k1+sysctl.vm.swappiness=10
comp "contend compare --db=$T/x.db my"
expect "--db=STORE my<tab>: mylabel" mylabel
(
	CONTEND_DB=$T/x.db
	export CONTEND_DB
	comp "contend compare m"
	expect "without --db, the labels of \$CONTEND_DB" mylabel
	comp "contend compare --db $T/none.db "
	expect "with a --db that holds no store, none of them"
)
_n=$((_n + 2))
comp "contend run --db $T/x.db --baseline m"
expect "run --baseline m<tab>: a stored label" mylabel
# bash splits the word at '=': what it replaces is the part after it
comp "contend compare --db $T/x.db k1+sysctl.vm.swappiness="
expect "a label with '=': the part after the '='" 10

comp "contend run --load-cmd vm=true -l io,v"
expect "-l io,v<tab> after --load-cmd vm=...: the load it defines" io,vm

comp "contend run --format "
expect "run --format <tab>: the five formats" text json csv md html
comp "contend list --format "
expect "list --format <tab>: no html" text json csv md

comp "contend run --db $T/x."
expect "run --db PATH<tab>: files" "$T/x.db"
comp "contend run --dir $T/sub"
expect "run --dir PATH<tab>: directories" "$T/subdir"

# --vary and --set: knob names, then the values a disk offers
comp "contend run --vary "
has "--vary <tab>: iosched= and sysctl." "iosched=" "sysctl."
comp "contend run --set sysctl.vm.dirty_r"
expect "--set sysctl.vm.dirty_r<tab>: the setting under /proc/sys" "sysctl.vm.dirty_ratio="
comp "contend run --vary sysctl.v"
has "--vary sysctl.v<tab>: a directory of /proc/sys ends in ." "sysctl.vm."
disk=$(for s in /sys/block/*/queue/scheduler; do [ "$(wc -w <"$s")" -ge 2 ] && echo "$s" && break; done)
if [ -n "$disk" ]; then
	d=${disk#/sys/block/}
	d=${d%%/*}
	comp "contend run --vary iosched@$d="
	# shellcheck disable=SC2046
	expect "--vary iosched@DISK=<tab>: the schedulers that disk offers" $(tr -d '[]' <"$disk")
else
	skip "--vary iosched@DISK=<tab>" "no disk here offers a choice of I/O schedulers"
fi

# fish, through its own completion engine
fish_script=$(dirname "$script")/contend.fish
if command -v fish >/dev/null 2>&1; then
	fishc() { PATH="$T/bin:$PATH" fish --no-config -c "source '$fish_script'; complete -C '$1'" 2>"$T/comperr" | cut -f1 | sort >"$T/comp"; }
	fishc "contend comp"
	expect "fish: contend comp<tab>: compare" compare
	fishc "contend run --vary sysctl.vm.dirty_r"
	expect "fish: --vary sysctl.vm.dirty_r<tab>: the whole setting" "sysctl.vm.dirty_ratio="
	fishc "contend compare --db $T/x.db my"
	expect "fish: compare <tab>: the stored labels" mylabel
else
	for d in "fish: contend comp<tab>" "fish: --vary<tab>" "fish: compare <tab>"; do skip "$d" "fish is not installed"; done
fi

# zsh: the candidates its _contend adds, and the function registered
zsh_script=$(dirname "$script")/contend.zsh
if command -v zsh >/dev/null 2>&1; then
	zshc() { PATH="$T/bin:$PATH" zsh -fc "autoload -U compinit && compinit -u -D; source '$zsh_script'; print -r -- \${_comps[contend]}; _contend_candidates '$1'" 2>"$T/comperr" | sort >"$T/comp"; }
	zshc "contend comp"
	expect "zsh: registered for contend, and contend comp<tab>: compare" _contend compare
	if [ -n "$disk" ]; then
		first=$(tr -d '[]' <"$disk" | awk '{ print $1 }')
		dev=${disk#/sys/block/}
		dev=${dev%%/*}
		zshc "contend run --set iosched@$dev=$(echo "$first" | cut -c1)"
		has "zsh: --set iosched@DISK=x<tab>: whole words" "iosched@$dev=$first"
	else
		skip "zsh: --set iosched@DISK=x<tab>" "no disk here offers a choice of I/O schedulers"
	fi
	zshc "contend run --format "
	expect "zsh: --format <tab>: the five formats" _contend text json csv md html
else
	for d in "zsh: contend comp<tab>" "zsh: --set<tab>" "zsh: --format<tab>"; do skip "$d" "zsh is not installed"; done
fi