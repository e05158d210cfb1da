#!/bin/sh
# `contend restore` after a simulated crash: an entry of the machine's knob
# journal holds vda's scheduler as it was, the scheduler is changed as a
# session would have left it, and restore puts it back, clears the entry
# and then has nothing to do. Entries of an earlier boot, of a running
# contend, ones that cannot be written, a user who is not root and the
# journal rows an older results store kept get their own answers. vda's
# scheduler is put back on any exit.
. "$CT_TESTLIB"

S=/sys/block/vda/queue/scheduler
if [ "$(id -u)" != 0 ]; then
	skip_all "not root"
fi
if [ ! -w "$S" ]; then
	skip_all "no $S"
fi

sched() { sed 's/.*\[\(.*\)\].*/\1/' "$S"; }
orig=$(sched)
# another scheduler the disk offers (bfq is often a module not loaded)
other=$(tr -d '[]' <"$S" | tr ' ' '\n' | grep -vx "$orig" | grep . | head -n 1)
holder=
cleanup() {
	[ -n "$holder" ] && kill "$holder" 2>/dev/null
	[ "$(sched)" = "$orig" ] || echo "$orig" >"$S"
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

boot=$(cat /proc/sys/kernel/random/boot_id)
dead=$(sh -c 'echo $$')
# journal PATH KNOB ORIGINAL PID BOOT: an entry as a session writes it,
# with the start time of PID (0 when it does not run)
J="$CONTEND_JOURNAL_DIR/knobs"
journal() {
	start=$(awk '{ print $22 }' "/proc/$4/stat" 2>/dev/null || echo 0)
	mkdir -p "$CONTEND_JOURNAL_DIR"
	[ -f "$J" ] || echo "# contend knob journal 1" >"$J"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t1767225600000000000\n' "$1" "$2" "$3" "$4" "${start:-0}" "$5" >>"$J"
}
rows() { journal_rows; }

plan 35

run help
expect_out "help lists restore" "^  restore +put back knobs"
run restore
expect_rc "an empty journal: exit 0" 0
expect_out "says so" "^nothing to restore\$"
run restore extra
expect_rc "an extra argument: exit 2" 2

# the crash: journal first, then the change, then nothing
journal "$S" iosched "$orig" "$dead" "$boot"
echo "$other" >"$S"
[ "$(sched)" = "$other" ] && ok "the scheduler was changed to $other" || not_ok "the scheduler was changed to $other" "$(cat "$S")"
run restore
expect_rc "restore: exit 0" 0
expect_out "one line per knob" "^restored iosched \\($S\\): $other -> $orig\$"
[ "$(sched)" = "$orig" ] && ok "the scheduler is $orig again" || not_ok "the scheduler is $orig again" "$(cat "$S")"
[ "$(rows)" = 0 ] && ok "the journal is empty" || not_ok "the journal is empty" "$(cat "$J")"
run restore
expect_rc "a second restore: exit 0" 0
expect_out "has nothing to restore" "^nothing to restore\$"

# an earlier boot: the reboot already reset it, so it is not written
journal "$S" iosched "$other" "$dead" "00000000-0000-0000-0000-000000000000"
run restore
expect_rc "an earlier boot's row: exit 0" 0
expect_out "is cleared, with the value found" "^cleared iosched \\($S\\): changed in an earlier boot, left at its boot value $orig \\(was $other before that change\\)\$"
[ "$(sched)" = "$orig" ] && ok "and not written" || not_ok "and not written" "$(cat "$S")"
[ "$(rows)" = 0 ] && ok "its row is gone" || not_ok "its row is gone" "$(cat "$J")"

# a contend still running holds its knob (a process named contend: the
# kernel names a process after the file it executes)
ln -s "$(command -v sleep)" "$T/contend"
"$T/contend" 60 &
holder=$!
journal "$S" iosched "$orig" "$holder" "$boot"
echo "$other" >"$S"
run restore
expect_rc "a held knob: exit 3" 3
expect_err "names the running contend" "^contend: not restored iosched \\($S\\): in use by a running contend \\(pid $holder\\); --force restores it anyway\$"
[ "$(sched)" = "$other" ] && ok "a held knob is left alone" || not_ok "a held knob is left alone" "$(cat "$S")"
[ "$(rows)" = 1 ] && ok "and stays in the journal" || not_ok "and stays in the journal"
run restore --force
expect_rc "--force: exit 0" 0
expect_out "--force restores it" "^restored iosched \\($S\\): $other -> $orig\$"
[ "$(sched)" = "$orig" ] && ok "the scheduler is back" || not_ok "the scheduler is back" "$(cat "$S")"
kill "$holder"
wait "$holder" 2>/dev/null
holder=

# an original the kernel refuses: reported, kept
journal "$S" iosched nosuch "$dead" "$boot"
run restore
expect_rc "a value that cannot be restored: exit 3" 3
expect_err "says what failed" "^contend: cannot set knob 'iosched' \\($S\\) to 'nosuch': Invalid argument \\(kept in the journal\\)\$"
[ "$(rows)" = 1 ] && ok "the row is kept" || not_ok "the row is kept"
[ "$(sched)" = "$orig" ] && ok "the scheduler is unchanged" || not_ok "the scheduler is unchanged" "$(cat "$S")"
echo "# contend knob journal 1" >"$J"

# not root: one clear line, exit 3, nothing touched. The user runs a copy of
# the binary in a directory it can reach: the build tree may sit under a
# directory only root can enter (a clone in /root or a mktemp -d directory).
chmod 755 "$T"
mkdir -m 777 "$T/np"
cp "$CONTEND" "$T/np/contend"
chmod 755 "$T/np/contend"
np() { rc=0; setpriv --reuid=65534 --regid=65534 --clear-groups env CONTEND_DB="$T/np/r.db" "$T/np/contend" "$@" >"$T/out" 2>"$T/err" || rc=$?; }
np restore
expect_rc "not root, empty journal: exit 0" 0
journal "$S" iosched "$other" "$dead" "$boot"
np restore
expect_rc "not root with an entry: exit 3" 3
expect_err "says root is needed" "^contend: restoring knobs needs root: iosched \\($S\\)\$"
[ "$(sched)" = "$orig" ] && ok "nothing was written" || not_ok "nothing was written" "$(cat "$S")"
[ "$(rows)" = 1 ] && ok "the entry is kept for root" || not_ok "the entry is kept for root"
echo "# contend knob journal 1" >"$J"

# an older store's journal rows move into the machine's journal: restore
# --db takes them over and puts the knob back; the store keeps none
"$CONTEND" run -q -w selftest --scale 0.01 -l none -n 1 --no-warmup --delay 0 --dir "$T" --db "$T/old.db" >/dev/null 2>&1
sqlite3 "$T/old.db" "insert into knob_journal (path, knob, original, session_pid, boot_id, created_at)
	values ('$S', 'iosched', '$orig', $dead, '$boot', 1)"
echo "$other" >"$S"
run restore --db "$T/old.db"
expect_rc "restore --db takes over an older store's journal: exit 0" 0
expect_out "and restores from it" "^restored iosched \\($S\\): $other -> $orig\$"
[ "$(sched)" = "$orig" ] && ok "the scheduler is back" || not_ok "the scheduler is back" "$(cat "$S")"
[ "$(sqlite3 "$T/old.db" 'select count(*) from knob_journal')" = 0 ] && ok "the store's rows are gone" || not_ok "the store's rows are gone"
