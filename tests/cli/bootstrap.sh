#!/bin/sh
# scripts/bootstrap's profiles (issue "part 18, a newcomer's first hour"):
# make run installs what building and running contend need, make check the
# test and bench tools besides. On a machine with nothing installed (a PATH
# of no tools, so every package is missing and no apt-get is found), the run
# profile names no test-only package.
. "$CT_TESTLIB"
plan 12

src=$(cd "$(dirname "$CT_TESTLIB")/../.." && pwd)
mkdir -p "$T/bin"
ln -s "$(command -v id)" "$T/bin/id"
fresh() { # fresh PROFILE: bootstrap's missing packages on an empty machine
	rc=0
	PATH="$T/bin" /bin/sh "$src/scripts/bootstrap" "$@" >"$T/out" 2>"$T/err" || rc=$?
	sed -n 's/^bootstrap: missing packages://p' "$T/err" | tr ' ' '\n' | sed '/^$/d' >"$T/missing"
}
testonly="chromium postgresql python3-jsonschema fio hyperfine stress-ng ministat groff-base r-base-core clang clang-format libclang-rt-dev sqlite3 procps time"

fresh run
expect_rc "bootstrap run on a fresh machine without apt-get: exit 1" 1
nonempty "it names what is missing" "$(cat "$T/missing")"
bad=$(for p in $testonly; do grep -qx "$p" "$T/missing" && echo "$p"; done)
[ -z "$bad" ] && ok "the run profile installs no test-only package" ||
	not_ok "the run profile installs no test-only package" "$bad"
need=$(for p in gcc make tar meson libsqlite3-dev libpq-dev; do grep -qx "$p" "$T/missing" || echo "$p"; done)
[ -z "$need" ] && ok "it installs what building and running need (cc, make, tar...)" ||
	not_ok "it installs what building and running need (cc, make, tar...)" "lacks: $need"

fresh check
expect_rc "bootstrap check on a fresh machine: exit 1" 1
for p in chromium postgresql python3-jsonschema r-base-core; do
	check "the check profile installs $p" grep -qx "$p" "$T/missing"
done

# --list: the profile's packages whatever is installed
rc=0
/bin/sh "$src/scripts/bootstrap" --list run >"$T/out" 2>"$T/err" || rc=$?
expect_rc "--list run: exit 0" 0
bad=$(for p in $testonly; do grep -qx "$p" "$T/out" && echo "$p"; done)
[ -z "$bad" ] && ok "--list run holds no test-only package" || not_ok "--list run holds no test-only package" "$bad"

# make run asks for the run profile, make check for the check profile
make -n -C "$src" run 2>/dev/null | grep -q '^scripts/bootstrap run$' &&
	ok "make run bootstraps the run profile" ||
	not_ok "make run bootstraps the run profile" "$(make -n -C "$src" run 2>&1 | head -3)"
