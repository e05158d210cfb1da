#!/bin/sh
# Bad input gets one clear line on stderr and the documented exit code
# (2 usage/input, 3 environment), and the read-only commands work.
. "$CT_TESTLIB"
plan 36

run; expect_rc "no command: exit 2" 2
run bogus; expect_rc "unknown command: exit 2" 2
expect_err "unknown command named" "'bogus' is not a contend command"
run --help; expect_rc "--help: exit 0" 0

run loads; expect_rc "loads: exit 0" 0
expect_out "loads lists io with its unit" "^io +MB written"
expect_out "loads lists dbench" "^dbench +operations"
expect_out "and the options a load declares" "^io_other +MB written .*; options: --other-dir, --file-size\$"
expect_out "the null load is listed as the harness's self-test" "^null +ticks .*\\[harness self-test\\]\$"

run sysinfo; expect_rc "sysinfo: exit 0" 0
expect_out "sysinfo shows the kernel release" "^kernel release: +$(uname -r)\$"
expect_out "sysinfo shows a fingerprint" "^fingerprint: +[0-9a-f]{16}\$"

run list; expect_rc "list without a store: exit 2" 2
if [ "$BACKEND" = pg ]; then
	expect_err "list says there is no store" "^contend: no results store at 'postgresql://.*' \\(no contend tables\\)\$"
else
	expect_err "list says there is no store" "^contend: no results store at '$T/results.db'\$"
fi
check "and makes none" test ! -e "$T/results.db"

run run -w nosuch; expect_rc "unknown workload: exit 2" 2
expect_err "unknown workload named" "unknown workload 'nosuch'"
run run -l io,bogus; expect_rc "unknown load: exit 2" 2
expect_err "unknown load named" "unknown load 'bogus'"
run run -n 0; expect_rc "zero runs: exit 2" 2
run run -n abc; expect_rc "non-numeric runs: exit 2" 2
expect_err "bad number named, with the rule" "^contend: run: --runs must be a whole number, 1 to 100000, not 'abc' \\(see: contend run --help\\)\$"
run run --file-size 10x; expect_rc "bad size: exit 2" 2
run run -w cmd; expect_rc "cmd without a command: exit 2" 2
run run --tree "$T/no-such-tree" -l none -n 1 --no-warmup; expect_rc "missing tree: exit 2" 2
expect_err "missing tree named" "no-such-tree"
run run -w selftest -l none -n 1 --db /proc/results.db
expect_rc "unwritable store: exit 3" 3
: >"$T/plain"
run run -w selftest -l none -n 1 --db "$T/plain/results.db"
expect_rc "store path under a file: exit 2" 2
expect_err "store path named" "plain/results.db"
run run -w selftest -l io --file-size 100T -n 1 --no-warmup --dir "$T" --delay 0.1s
expect_rc "no space for the load file: exit 3" 3
if [ -z "$(ls -d "$T"/contend.* 2>/dev/null)" ]; then ok "nothing left in the work dir"; else not_ok "nothing left in the work dir" "$(ls -A "$T")"; fi
run run -w selftest -l none,list --list-dir "$T/no-such-dir" -n 1
expect_rc "missing --list-dir: exit 2" 2
run run -w selftest -l none,ctar --tar-tree "$T/no-such-tar-tree" -n 1
expect_rc "missing --tar-tree: exit 2" 2
expect_err "missing --tar-tree named" "ctar: cannot read tree '.*no-such-tar-tree'"
run run -w selftest -l none --tar-tree "$T" -n 1
expect_rc "--tar-tree without a tar load: exit 2" 2
store_exists && not_ok "bad input, found before anything runs, makes no store" ||
	ok "bad input, found before anything runs, makes no store"
