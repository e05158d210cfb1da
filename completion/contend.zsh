#compdef contend
# zsh completion for contend: bash's (contend.bash), asked of bash for the
# words typed so far, so the completions of the three shells never differ.
# Install as _contend in $fpath (or source it after compinit). bash finds
# contend.bash through $CONTEND_BASH_COMPLETION, beside this file, or
# where bash-completion keeps it.

# The candidates for the line $1, one a line, as whole words.
_contend_candidates() {
	local f script
	for f in $CONTEND_BASH_COMPLETION ${_contend_dir:-.}/contend.bash \
		/usr/share/bash-completion/completions/contend \
		/usr/local/share/bash-completion/completions/contend; do
		[[ -r $f ]] && script=$f && break
	done
	[[ -n $script ]] || return 1
	bash --norc --noprofile "$script" --complete "$1" 2>/dev/null
}

_contend() {
	local -a cands open
	local c
	cands=("${(@f)$(_contend_candidates "${BUFFER[1,CURSOR]}")}")
	for c in $cands; do
		[[ -z $c ]] && continue
		# a word that goes on (knob=, sysctl.vm., a list, a directory)
		# takes no space after it
		if [[ $c == *[=.,/] ]]; then
			open+=("$c")
		else
			compadd -Q -- "$c"
		fi
	done
	(($#open)) && compadd -Q -S '' -- $open
	return 0
}

# where this file is, for contend.bash beside it
typeset -g _contend_dir=${${(%):-%x}:A:h}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
	_contend "$@"
else
	compdef _contend contend
fi
