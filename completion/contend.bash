# bash completion for contend. Everything that can change is asked of the
# contend being completed at completion time: the commands (contend --help),
# a command's options and which take a value (contend CMD --help), the
# loads (contend loads), the workloads (run --help) and the stored labels
# and sessions (contend list, with the --db given earlier on the line), so
# it never goes stale. It needs no bash-completion package.

# The contend the line runs: its first word if that is a path, else PATH's.
_contend_bin()
{
	local b=${_contend_words[0]}
	# shellcheck disable=SC2088 # a literal ~ typed on the line
	case $b in
	"~/"*) b=$HOME/${b#"~/"} ;;
	esac
	case $b in
	*/*) [[ -x $b ]] && printf '%s\n' "$b" && return ;;
	esac
	printf '%s\n' contend
}

# "NAME 1" for an option that takes a value, "NAME 0" for a flag, from
# the option lines of a --help ("  -w, --workload NAME   ...").
_contend_optspec()
{
	# shellcheck disable=SC2086 # "bisect status": a command and its subcommand
	"$_contend_exe" $1 --help 2>/dev/null | awk '
		/^ +(-[A-Za-z], )?--[a-z0-9][a-z0-9-]*/ {
			line = $0
			sub(/^ +/, "", line)
			v = (line ~ /^(-[A-Za-z], )?--[a-z0-9-]+ [A-Z]/) ? 1 : 0
			if (line ~ /^-[A-Za-z], /) { print substr(line, 1, 2), v; line = substr(line, 5) }
			split(line, f, " ")
			print f[1], v
		}'
}

# The commands of contend --help, or with $1 the subcommands of contend
# $1 --help (bisect's start, status...; none for most commands).
_contend_commands()
{
	"$_contend_exe" ${1:+"$1"} --help 2>/dev/null |
		awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }'
}

_contend_loads()
{
	"$_contend_exe" loads 2>/dev/null | awk 'NR > 1 && !NF { exit } NR > 1 { print $1 }'
	# and the loads --load-cmd NAME=... defines on this line
	local i w
	for ((i = 1; i < ${#COMP_WORDS[@]}; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $w == --load-cmd && $((i + 1)) -lt ${#COMP_WORDS[@]} ]]; then
			w=${COMP_WORDS[i + 1]}
			# bash splits "vm=cmd" into vm, =, cmd
			[[ ${COMP_WORDS[i + 2]-} == =* ]] && w+==
		elif [[ $w == --load-cmd=* ]]; then
			w=${w#--load-cmd=}
		else
			continue
		fi
		[[ $w == ?*=* ]] && printf '%s\n' "${w%%=*}"
	done
}

# The words after "-w, --workload NAME" in run's help, parentheses dropped:
# "kbuild (default), cmd (the command after --), oltp, latency, selftest".
_contend_workloads()
{
	local w
	w=$("$_contend_exe" run --help 2>/dev/null | awk '
		/^ +(-., )?--workload / { on = 1; sub(/^.*--workload +[A-Z]+/, ""); text = $0; next }
		on && /^ +(-., )?--[a-z]/ { exit }
		on { text = text " " $0 }
		END {
			while (match(text, /\([^()]*\)/))
				text = substr(text, 1, RSTART - 1) substr(text, RSTART + RLENGTH)
			n = split(text, f, /[ ,]+/)
			for (i = 1; i <= n; i++)
				if (f[i] ~ /^[a-z][a-z0-9_]*$/ && f[i] != "or" && f[i] != "and")
					print f[i]
		}')
	printf '%s\n' "${w:-kbuild$'\n'cmd$'\n'oltp$'\n'latency$'\n'selftest}"
}

# The knobs --vary and --set take, for the word $1 typed so far:
# "iosched=", "iosched@DISK=" for each disk that offers a choice of
# schedulers, "sysctl." and
# under it the names of /proc/sys (a directory ends in ".", a setting in
# "="), and after "iosched...=" the schedulers the disk offers.
_contend_knobs()
{
	local cur=$1 k v d p e s
	case $cur in
	iosched*=*)
		k=${cur%%=*}
		d=${k#iosched@}
		[[ $k == iosched ]] && d='*'
		# shellcheck disable=SC2086 # d may be a glob
		for s in /sys/block/$d/queue/scheduler; do
			[[ -r $s ]] && tr -d '[]' <"$s" | tr ' ' '\n' | grep . | sed "s|^|$k=|"
		done | sort -u
		;;
	sysctl.*)
		p=${cur#sysctl.}
		d=${p%.*}
		[[ $p == *.* ]] || d=
		for e in "/proc/sys${d:+/${d//.//}}"/*; do
			[[ -e $e ]] || continue
			v=sysctl.${e#/proc/sys/}
			v=${v//\//.}
			[[ -d $e ]] && printf '%s.\n' "$v" || printf '%s=\n' "$v"
		done
		;;
	*)
		printf '%s\n' iosched= sysctl.
		# the disks that offer a choice
		for s in /sys/block/*/queue/scheduler; do
			[[ -r $s && $(wc -w <"$s") -ge 2 ]] || continue
			d=${s#/sys/block/}
			printf 'iosched@%s=\n' "${d%%/*}"
		done
		;;
	esac
}

# Stored labels (what=label) or session ids (what=id) of `contend list`,
# cut at the columns its header gives, so a label may hold spaces.
_contend_stored()
{
	local what=$1 i db=
	for ((i = 1; i < ${#_contend_words[@]} - 1; i++)); do
		case ${_contend_words[i]} in
		--db) db=${_contend_words[i + 1]} ;;
		--db=*) db=${_contend_words[i]#--db=} ;;
		esac
	done
	# shellcheck disable=SC2088 # a literal ~ typed on the line
	case $db in
	"~/"*) db=$HOME/${db#"~/"} ;;
	esac
	"$_contend_exe" list ${db:+--db "$db"} 2>/dev/null | awk -v what="$what" '
		NR == 1 { if ($1 != "id") exit; from = index($0, "label"); to = index($0, "workload"); next }
		what == "id" { print $1; next }
		{ l = substr($0, from, to - from); sub(/ +$/, "", l); if (l != "") print l }' | sort -u
}

# Splits the line up to the cursor into words as the shell would (quotes
# and backslashes honoured, "--db=x" one word): _contend_words holds them
# unquoted, _contend_raw the current one as typed, _contend_quoted whether
# the cursor is inside quotes.
_contend_split()
{
	local line c word='' raw='' q='' i have=0
	if [[ -n ${COMP_LINE+x} ]]; then
		line=${COMP_LINE:0:${COMP_POINT:-${#COMP_LINE}}}
	else
		line="${COMP_WORDS[*]:0:COMP_CWORD+1}"
	fi
	_contend_words=()
	for ((i = 0; i < ${#line}; i++)); do
		c=${line:i:1}
		if [[ -z $q && ( $c == ' ' || $c == $'\t' || $c == $'\n' ) ]]; then
			((have)) && _contend_words+=("$word")
			word='' raw='' have=0
			continue
		fi
		raw+=$c
		have=1
		if [[ $q == "'" ]]; then
			[[ $c == "'" ]] && q= || word+=$c
		elif [[ $c == "\\" && $q != "'" ]]; then
			((i++))
			c=${line:i:1}
			raw+=$c
			word+=$c
		elif [[ -z $q && ( $c == "'" || $c == '"' ) ]]; then
			q=$c
		elif [[ $q == '"' && $c == '"' ]]; then
			q=
		else
			word+=$c
		fi
	done
	_contend_words+=("$word")
	_contend_raw=$raw
	_contend_quoted=$q
}

# Adds the candidates (one a line on stdin) that extend $1 to COMPREPLY,
# as readline will insert them: escaped unless inside quotes, and without
# what precedes the last break character (= or :) of the word, which
# readline keeps. $2 is what precedes the value in the word ("--db=").
_contend_add()
{
	local cur=$1 pre=${2-} c lead rep=$_contend_raw wb=${COMP_WORDBREAKS-$' \t\n"\'><=;|&(:'}
	local -i i
	if [[ -z $_contend_quoted ]]; then
		for ((i = ${#rep} - 1; i >= 0; i--)); do
			if [[ $wb == *"${rep:i:1}"* && ${rep:i:1} != [\"\'] ]]; then
				rep=${rep:i+1}
				break
			fi
		done
	fi
	lead=${_contend_raw%"$rep"}
	while IFS= read -r c; do
		[[ -n $c && $c == "$cur"* ]] || continue
		# escaped only when the shell needs it (a label with a space)
		[[ -z $_contend_quoted && $_contend_files != 1 && $c == *[!A-Za-z0-9_.,=+:@/%^-]* ]] &&
			printf -v c '%q' "$c"
		c=$pre$c
		COMPREPLY+=("${c#"$lead"}")
	done
}


_contend()
{
	local _contend_exe _contend_raw _contend_quoted _contend_files=0
	local -a _contend_words
	local cur prev cmd='' i w spec opt='' pre='' takes cands='' dashdash=0 first_after=0
	COMPREPLY=()
	_contend_split
	_contend_exe=$(_contend_bin)
	cur=${_contend_words[-1]}
	prev=
	((${#_contend_words[@]} > 1)) && prev=${_contend_words[-2]}

	# the command: the first word after contend's own options
	for ((i = 1; i < ${#_contend_words[@]} - 1; i++)); do
		w=${_contend_words[i]}
		[[ $w == -* ]] && continue
		cmd=$w
		break
	done
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			cands=$(printf '%s\n' --help --version)
		else
			cands=$(_contend_commands)
		fi
		_contend_add "$cur" <<<"$cands"
		return 0
	fi

	# a command with subcommands (bisect, history, fleet): the word after
	# it names one, whose own --help gives the options
	local subs sub='' at=$i
	subs=$(_contend_commands "$cmd")
	if [[ -n $subs ]]; then
		if ((at + 1 < ${#_contend_words[@]} - 1)); then
			w=${_contend_words[at + 1]}
			grep -qxF -- "$w" <<<"$subs" && sub=$w && ((i++))
		elif [[ $cur != -* ]]; then
			_contend_add "$cur" <<<"$subs"
			return 0
		fi
	fi
	spec=$(_contend_optspec "$cmd${sub:+ $sub}")
	# after "--" in run and calibrate: the command, then its files
	for ((i = i + 1; i < ${#_contend_words[@]} - 1; i++)); do
		if [[ ${_contend_words[i]} == -- ]]; then
			dashdash=1
			((i == ${#_contend_words[@]} - 2)) && first_after=1
			break
		fi
	done
	if ((dashdash)); then
		_contend_files=1
		compopt -o filenames 2>/dev/null
		if ((first_after)); then
			cands=$(compgen -c -- "$cur" | sort -u)
		else
			cands=$(compgen -f -- "$cur")
		fi
		_contend_add "$cur" <<<"$cands"
		return 0
	fi

	# the option whose value is being typed: "--db=x", or "--db x"
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*}
		pre=${cur%%=*}=
		cur=${cur#*=}
	elif [[ $prev == -* ]]; then
		takes=$(awk -v o="$prev" '$1 == o { print $2; exit }' <<<"$spec")
		[[ $takes == 1 ]] && opt=$prev
	fi
	case $opt in
	"") ;;
	-l | --loads)
		# the list so far stays; the loads not in it yet complete its last item
		local given='' l
		[[ $cur == *,* ]] && given=${cur%,*},
		compopt -o nospace 2>/dev/null
		cands=$(_contend_loads | while IFS= read -r l; do
			[[ ,$given == *",$l,"* ]] || printf '%s\n' "$given$l"
		done)
		;;
	-w | --workload) cands=$(_contend_workloads) ;;
	-f | --file)
		# a suite file, or a shipped one by name (contend profiles)
		cands=$("$_contend_exe" profiles 2>/dev/null | awk 'NR > 1 && NF && $1 != "Run" { print $1 }')
		compopt -o default 2>/dev/null
		;;
	--format)
		cands=$(printf '%s\n' text json csv md)
		[[ $cmd == run || $cmd == compare || $cmd == report || $cmd == history || $cmd == fleet ]] &&
			cands+=$'\nhtml'
		;;
	--progress) cands=$(printf '%s\n' auto plain none) ;;
	--profile) cands=$(printf '%s\n' quick full) ;;
	--order) cands=$(printf '%s\n' interleaved sequential) ;;
	--engine) cands=$(printf '%s\n' psync io_uring) ;;
	--selftest-mode) cands=$(printf '%s\n' spin sleep fail) ;;
	--task)
		# a comma-separated list: complete its last element
		local done_=${cur%,*}
		[[ $cur == *,* ]] && done_+=, || done_=""
		cands=$(printf '%s\n' audio video x gaming custom | sed "s/^/$done_/")
		;;
	--probe) cands=$(printf '%s\n' wakeup wakeup=1ms wakeup=5ms) ;;
	--vary | --set)
		compopt -o nospace 2>/dev/null
		cands=$(_contend_knobs "$cur")
		;;
	--baseline | -L | --label | --from) cands=$(_contend_stored label) ;;
	--session) cands=$(_contend_stored id) ;;
	-o | --output | --db)
		_contend_files=1
		compopt -o filenames 2>/dev/null
		cands=$(compgen -f -- "$cur")
		;;
	--dir | --other-dir | --list-dir | --tar-tree | --tree)
		_contend_files=1
		compopt -o filenames 2>/dev/null
		cands=$(compgen -d -- "$cur")
		;;
	esac
	if [[ -n $opt ]]; then
		_contend_add "$cur" "$pre" <<<"$cands"
		return 0
	fi

	if [[ $cur == -* ]]; then
		cands=$(awk '$1 ~ /^--/ { print $1 }' <<<"$spec")
	else
		case $cmd in
		compare | report | plan) cands=$(_contend_stored label) ;;
		stats)
			_contend_files=1
			compopt -o filenames 2>/dev/null
			cands=$(compgen -f -- "$cur")
			;;
		help) cands=$(_contend_commands) ;;
		*) cands=$(awk '$1 ~ /^--/ { print $1 }' <<<"$spec") ;;
		esac
	fi
	_contend_add "$cur" <<<"$cands"
	return 0
}

complete -F _contend contend

# Run rather than sourced (bash contend.bash --complete LINE): the whole
# words that complete LINE, one a line - what zsh's and fish's completions
# ask for, so the three shells complete alike.
if [[ ${BASH_SOURCE[0]} == "$0" && ${1-} == --complete ]]; then
	COMP_WORDBREAKS=$' \t\n'
	COMP_LINE=${2-}
	COMP_POINT=${#COMP_LINE}
	read -ra COMP_WORDS <<<"$COMP_LINE"
	[[ $COMP_LINE == *" " || -z $COMP_LINE ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	_contend contend "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	((${#COMPREPLY[@]})) && printf '%s\n' "${COMPREPLY[@]}"
	exit 0
fi
