# TAP helpers for the shell tests of the real binary. Each test file sources
# this, calls plan N, then ok/fail per assertion. Every test gets its own
# temporary directory and results store, removed at exit.
set -u

: "${CONTEND:?CONTEND must point to the contend binary}"
T=$(mktemp -d /var/tmp/contend-test.XXXXXX)
export CONTEND_DB="$T/results.db"
# the knob journal of this test alone, never the machine's
export CONTEND_JOURNAL_DIR="$T/journal"
trap 'rm -rf "$T"' EXIT
_n=0

plan() { echo "1..$1"; }
ok() { _n=$((_n + 1)); echo "ok $_n - $1"; }
not_ok() { _n=$((_n + 1)); echo "not ok $_n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
skip() { _n=$((_n + 1)); echo "ok $_n - $1 # SKIP $2"; }
check() { # check DESC CMD... : passes when CMD succeeds
	d=$1; shift
	if "$@"; then ok "$d"; else not_ok "$d" "command failed: $*"; fi
}
# runs contend, keeping stdout in $T/out, stderr in $T/err, exit code in $rc
run() { rc=0; "$CONTEND" "$@" >"$T/out" 2>"$T/err" || rc=$?; }
expect_rc() { # expect_rc DESC CODE
	if [ "$rc" -eq "$2" ]; then ok "$1"; else
		not_ok "$1" "exit $rc, expected $2" "stderr: $(head -c 600 "$T/err")" "stdout: $(head -c 600 "$T/out")"
	fi
}
expect_out() { # expect_out DESC PATTERN (grep -E on stdout)
	if grep -Eq -- "$2" "$T/out"; then ok "$1"; else not_ok "$1" "no '$2' in stdout:" "$(head -c 1500 "$T/out")" "stderr: $(head -c 400 "$T/err")"; fi
}
expect_err() {
	if grep -Eq -- "$2" "$T/err"; then ok "$1"; else not_ok "$1" "no '$2' in stderr:" "$(head -c 800 "$T/err")"; fi
}
sql() { sqlite3 "$CONTEND_DB" "$1"; }
# processes whose command line mentions this test's directory (contend, its
# forked loads and foregrounds, tar children...)
# or whose working directory is in it (a compiler under make)
leftovers() {
	{
		pgrep -f -- "$T/" || true
		for p in /proc/[0-9]*; do
			case $(readlink "$p/cwd" 2>/dev/null) in "$T"/*) echo "${p#/proc/}" ;; esac
		done
	} | grep -v "^$$\$" | sort -u
}
# entries in this test's knob journal, and the original of one path there
journal_rows() {
	if [ -f "$CONTEND_JOURNAL_DIR/knobs" ]; then
		awk '!/^#/ { n++ } END { print n + 0 }' "$CONTEND_JOURNAL_DIR/knobs"
	else
		echo 0
	fi
}
journal_original() { awk -F'\t' -v p="$1" '$1 == p { print $3 }' "$CONTEND_JOURNAL_DIR/knobs"; }
