#!/bin/sh
# A store that cannot be written can still be read: on a read-only mount (a
# tmpfs remounted ro, as root) and as a file its reader may not write (mode
# 0444, read by an unprivileged user), list, compare and report work, and a
# run or a calibration says in one line why it cannot write and exits 3. A
# read-only store of an older schema cannot be migrated: one line, exit 3.
. "$CT_TESTLIB"
plan 18

if [ "$(id -u)" != 0 ]; then
	for i in $(seq 18); do skip "read-only stores" "needs root to mount a read-only filesystem"; done
	exit 0
fi
RO="$T/ro"
trap 'umount "$RO" 2>/dev/null; rm -rf "$T"' EXIT
one_line() { # one_line DESC: stderr is one line
	if [ "$(wc -l <"$T/err")" = 1 ]; then ok "$1"; else not_ok "$1" "$(cat "$T/err")"; fi
}

for l in a b; do
	run run -w selftest -l none,null -n 5 --delay 0 -L $l
	expect_rc "a store with $l: exit 0" 0
done
mkdir "$RO"
mount -t tmpfs -o size=64m tmpfs "$RO"
cp "$CONTEND_DB" "$RO/r.db"
cp "$CT_FIXTURES/store/v5.db" "$RO/old.db"
mount -o remount,ro "$RO"

run list --db "$RO/r.db"
expect_rc "list on a read-only mount: exit 0" 0
expect_out "it lists both sessions" '^2 .* b .* complete'
run compare a b --db "$RO/r.db"
expect_rc "compare on a read-only mount: exit 0" 0
expect_out "with its verdicts" '^null +b vs a: '
run report a b --db "$RO/r.db" --format json
expect_rc "report on a read-only mount: exit 0" 0
run run -w selftest -l none -n 1 -L c --db "$RO/r.db"
expect_rc "run on a read-only mount: exit 3" 3
expect_err "it says why it cannot write" "cannot write results store '$RO/r.db': Read-only file system"
one_line "in one line"
run calibrate --from a -w selftest --db "$RO/r.db"
expect_rc "calibrate --from on a read-only mount: exit 3" 3
expect_err "it says the store was opened read-only" "it was opened read-only"
run list --db "$RO/old.db"
expect_rc "an older schema on a read-only mount: exit 3" 3
expect_err "it says to copy it" "is read-only and at schema 5, older than this contend's [0-9]+: copy it"

# a file its reader may not write: an unprivileged user's copy of the
# binary in a directory it can reach (the build tree may not be)
chmod 755 "$T"
mkdir -m 755 "$T/np"
cp "$CONTEND" "$T/np/contend"
cp "$CONTEND_DB" "$T/np/r.db"
chmod 444 "$T/np/r.db"
chmod 777 "$T/np"
np() { rc=0; setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$T/np" "$T/np/contend" "$@" --db "$T/np/r.db" >"$T/out" 2>"$T/err" || rc=$?; }
np compare a b
expect_rc "compare of a file its user may not write: exit 0" 0
np list
expect_out "list shows it" '^1 .* a .* complete'
np run -w selftest -l none -n 1 -L c
expect_rc "run into it: exit 3" 3
expect_err "it says why" "cannot write results store '$T/np/r.db': Permission denied"
