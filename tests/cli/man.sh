#!/bin/sh
# The man page is the help's twin: groff formats it without a warning,
# every command `contend --help` lists has its entry, synopsis and example,
# every long option a command's --help prints is in that command's
# subsection under OPTIONS (so an option added without docs fails here), the
# exit codes 0-5 are listed and the variables the help names are documented.
. "$CT_TESTLIB"

page=${CT_MANPAGE:-$(dirname "$CT_TESTLIB")/../../docs/contend.1}
[ -r "$page" ] || { echo "Bail out! no man page at $page"; exit 1; }

# The source as text to search: comments dropped, \- as -, no font or
# break escapes, so `\fB\-\-db\fR` reads --db.
sed -e '/^\.\\"/d' -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f([A-Z][A-Z]//g' \
	-e 's/\\[:&%]//g' "$page" >"$T/page"

# section NAME: the lines under .SH NAME, up to the next .SH
section() {
	awk -v want="$1" '
		/^\.SH / { s = substr($0, 5); gsub(/"/, "", s); on = (s == want); next }
		on' "$T/page"
}
# subsection CMD: the lines under .SS "contend CMD", up to the next .SS or .SH
subsection() {
	awk -v want="contend $1" '
		/^\.S[SH] / { s = substr($0, 5); gsub(/"/, "", s); on = (s == want); next }
		on' "$T/page"
}
# has_opt FILE OPT: OPT (like --db or -w) stands alone in FILE
has_opt() { grep -Eq -- "(^|[^A-Za-z0-9-])$2([^A-Za-z0-9-]|\$)" "$1"; }

rc=0
"$CONTEND" --help >"$T/help" 2>&1 || rc=$?
cmds=$(awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' "$T/help")
ncmds=$(printf '%s\n' $cmds | grep -c .)
plan $((10 + 3 * ncmds))

if ! command -v groff >/dev/null 2>&1; then
	skip "groff -man -ww -z: no warning" "groff is not installed (apt-get install groff)"
else
	rc=0
	groff -man -ww -z "$page" >"$T/groff" 2>&1 || rc=$?
	if [ $rc = 0 ] && [ ! -s "$T/groff" ]; then ok "groff -man -ww -z: no warning"; else
		not_ok "groff -man -ww -z: no warning" "exit $rc" "$(head -c 1500 "$T/groff")"
	fi
fi
if ! command -v man >/dev/null 2>&1; then
	skip "man -l renders it without a message" "man is not installed"
else
	rc=0
	MANWIDTH=80 man -l "$page" >"$T/man" 2>"$T/manerr" || rc=$?
	if [ $rc = 0 ] && [ ! -s "$T/manerr" ] && grep -q "EXIT STATUS" "$T/man"; then
		ok "man -l renders it without a message"
	else
		not_ok "man -l renders it without a message" "exit $rc" "$(head -c 1500 "$T/manerr")"
	fi
fi

# a help that lists no commands would pass everything below
if [ "$ncmds" -ge 8 ]; then ok "contend --help lists $ncmds commands"; else
	not_ok "contend --help lists $ncmds commands" "$(head -c 600 "$T/help")"
fi

allopts=""
section COMMANDS >"$T/commands"
section SYNOPSIS >"$T/synopsis"
section EXAMPLES >"$T/examples"
for c in $cmds; do
	d="$c: an entry under COMMANDS and a line in SYNOPSIS"
	if ! awk -v c="$c" 'prev == ".TP" && $0 == ".B " c { f = 1 } { prev = $0 } END { exit !f }' "$T/commands"; then
		not_ok "$d" "no '.TP' then '.B $c' under COMMANDS"
	elif ! grep -Eq "^\.B contend $c( |\$)" "$T/synopsis"; then
		not_ok "$d" "no '.B contend $c' under SYNOPSIS"
	else
		ok "$d"
	fi

	d="$c: every long option of its --help in its subsection under OPTIONS"
	if [ "$c" = help ]; then
		# `contend help CMD` is `contend CMD --help`: no options of its own
		d="help: its entry says it prints a command's --help"
		if awk '$0 == ".B help" { on = 1 } on && /--help/ { f = 1 } END { exit !f }' "$T/commands"; then
			ok "$d"
		else
			not_ok "$d" "the help entry does not name --help"
		fi
	else
		rc=0
		"$CONTEND" "$c" --help >"$T/ch" 2>&1 || rc=$?
		subsection "$c" >"$T/sub"
		# calibrate takes run's options, as its subsection says
		[ "$c" = calibrate ] && subsection run >>"$T/sub"
		# and so do bisect start and judge
		[ "$c" = bisect ] && subsection run >>"$T/sub"
		opts=$(grep -oE '^ +(-[A-Za-z], )?--[a-z0-9][a-z0-9-]*' "$T/ch" | sed 's/^ *//; s/,//' | grep -v -- '--help')
		allopts="$allopts $opts"
		missing=""
		for o in $opts; do has_opt "$T/sub" "$o" || missing="$missing $o"; done
		if [ $rc != 0 ]; then
			not_ok "$d" "contend $c --help: exit $rc" "$(head -c 300 "$T/ch")"
		elif [ ! -s "$T/sub" ]; then
			not_ok "$d" "no '.SS \"contend $c\"' under OPTIONS"
		elif [ -n "$missing" ]; then
			not_ok "$d" "not in the page's 'contend $c' subsection:$missing"
		else
			ok "$d ($(printf '%s\n' $opts | grep -c -- '^--'))"
		fi
	fi

	d="$c: an example under EXAMPLES"
	if grep -Eq "^contend $c( |\$)" "$T/examples"; then ok "$d"; else not_ok "$d" "no line 'contend $c ...' under EXAMPLES"; fi
done

# options read from no command's --help would pass every check above
nonempty "the commands' --help list long options to look for" "$allopts"

# the options of contend itself (--version), and --help
section OPTIONS >"$T/options"
own=$(grep -oE '^ +--[a-z0-9][a-z0-9-]*' "$T/help")
nonempty "contend --help lists options of its own ($(echo $own))" "$own"
missing=""
for o in $own --help -h; do
	has_opt "$T/options" "$o" || missing="$missing $o"
done
if [ -z "$missing" ]; then ok "contend's own options under OPTIONS"; else
	not_ok "contend's own options under OPTIONS" "missing:$missing"
fi

# the workloads' and loads' options: the page's list is the one contend
# prints from the tables in their ops (scripts/man-options writes it)
rc=0
"$CONTEND" run --man-options >"$T/plugins" 2>&1 || rc=$?
n=$(grep -c '^\.TP$' "$T/plugins")
if [ $rc = 0 ] && [ "$n" -ge 20 ]; then ok "contend run --man-options lists $n options"; else
	not_ok "contend run --man-options lists the plug-ins' options" "exit $rc, $n entries"
fi
# the page's own lines between BEGIN and END, not the text with escapes dropped
awk '$0 == ".\\\" BEGIN contend run --man-options" { on = 1; next }
	$0 == ".\\\" END contend run --man-options" { on = 0 } on' "$page" >"$T/block"
if cmp -s "$T/plugins" "$T/block"; then ok "the page's list of them is contend's (make man)"; else
	not_ok "the page's list of them is contend's (make man)" \
		"$(diff "$T/block" "$T/plugins" | head -20)"
fi

section "EXIT STATUS" >"$T/exit"
missing=""
for n in 0 1 2 3 4 5; do
	awk -v n="$n" 'prev == ".TP" && $0 == ".B " n { f = 1 } { prev = $0 } END { exit !f }' "$T/exit" ||
		missing="$missing $n"
done
if [ -z "$missing" ]; then ok "EXIT STATUS lists 0 to 4"; else not_ok "EXIT STATUS lists 0 to 4" "missing:$missing"; fi

# every $VARIABLE a --help mentions (CONTEND_DB, XDG_DATA_HOME, ...)
section ENVIRONMENT >"$T/env"
vars=$(for c in $cmds; do [ "$c" = help ] || "$CONTEND" "$c" --help 2>/dev/null; done |
	grep -oE '\$[A-Z][A-Z0-9_]*' | tr -d '$' | sort -u)
missing=""
for v in $vars; do grep -qx "\.B $v" "$T/env" || missing="$missing $v"; done
if [ -n "$vars" ] && [ -z "$missing" ]; then ok "ENVIRONMENT documents $(echo $vars)"; else
	not_ok "ENVIRONMENT documents the variables the help names" "missing:${missing:- (the help names none)}"
fi
