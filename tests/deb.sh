#!/bin/sh
# The Debian package (make deb): it builds from the tree with debhelper,
# depends on the libraries' runtime packages and on no -dev package, holds
# the binary, the man page and bash completion, and its binary runs
# (--version, the man page names every command --help lists, profiles
# finds the shipped suites) from the package's files alone, unpacked
# under a temporary root.
# TAP; a skip with its reason where dpkg-buildpackage is not installed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "${T:?}"' EXIT
echo "1..11"
if ! command -v dpkg-buildpackage >/dev/null 2>&1; then
	why="dpkg-buildpackage is not installed (apt-get install debhelper)"
	# a failure under CT_STRICT (.ci/run), as tests/cli/lib.sh's skips
	[ "${CT_STRICT:-}" = 1 ] && echo "Bail out! skipped, which CT_STRICT makes a failure: $why" && exit 1
	for i in 1 2 3 4 5 6 7 8 9 10 11; do echo "ok $i # SKIP $why"; done
	exit 0
fi
# as make deb builds it, into a directory of the test's, by a builder
# dch would name
rc=0
DEBFULLNAME="A Builder" DEBEMAIL=builder@lab.test "$top/scripts/deb" "$T/deb" >"$T/out" 2>"$T/err" || rc=$?
deb=$(grep '/contend_[^/]*\.deb$' "$T/out" | grep -v dbgsym | head -n 1)
if [ $rc = 0 ] && [ -f "$deb" ]; then echo "ok 1 - make deb builds $(basename "$deb")"; else
	echo "not ok 1 - make deb builds the package"
	sed 's/^/# /' "$T/err" | head -n 20
	exit 0
fi
deps=$(dpkg-deb -f "$deb" Depends)
if [ -n "$deps" ] && echo "$deps" | grep -q libsqlite3 && ! echo "$deps" | grep -q -- '-dev'; then
	echo "ok 2 - it depends on runtime libraries only: $deps"
else
	echo "not ok 2 - it depends on runtime libraries only"
	echo "# Depends: $deps"
fi
dpkg-deb -c "$deb" | awk '{ print $6 }' >"$T/files"
miss=""
for f in ./usr/bin/contend ./usr/share/man/man1/contend.1.gz ./usr/share/bash-completion/completions/contend; do
	grep -qx "$f" "$T/files" || miss="$miss $f"
done
[ -z "$miss" ] && echo "ok 3 - it holds the binary, the man page and bash completion" ||
	echo "not ok 3 - it holds the binary, the man page and bash completion # missing:$miss"
dpkg-deb -x "$deb" "$T/root"
v=$("$T/root/usr/bin/contend" --version 2>&1)
want=$(dpkg-deb -f "$deb" Version)
case $v in *"$want"*) echo "ok 4 - the packaged binary runs: $v" ;; *) echo "not ok 4 - the packaged binary runs # got '$v', want version $want" ;; esac
# every library it links to is found, and no RPATH points into a build tree
if ldd "$T/root/usr/bin/contend" >"$T/ldd" 2>&1 && ! grep -q "not found" "$T/ldd" &&
	! readelf -d "$T/root/usr/bin/contend" | grep -Eq 'RPATH|RUNPATH'; then
	echo "ok 5 - it links only installed system libraries, with no RPATH"
else
	echo "not ok 5 - it links only installed system libraries, with no RPATH"
	sed 's/^/# /' "$T/ldd"
	readelf -d "$T/root/usr/bin/contend" | grep -E 'RPATH|RUNPATH' | sed 's/^/# /'
fi
cmds=$("$T/root/usr/bin/contend" --help 2>&1 | awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }')
zcat "$T/root/usr/share/man/man1/contend.1.gz" >"$T/page"
miss=""
for c in $cmds; do grep -q "^\.SS \"contend $c\"\|^\.B $c\$" "$T/page" || miss="$miss $c"; done
if [ -n "$cmds" ] && [ -z "$miss" ]; then echo "ok 6 - its man page has every command its --help lists ($(echo $cmds | wc -w))"; else
	echo "not ok 6 - its man page has every command its --help lists # missing:$miss"
fi
# the manual beside it: the README and docs/, readable and linked
miss=""
for f in ./usr/share/doc/contend/README.md ./usr/share/doc/contend/docs/usage.md ./usr/share/doc/contend/docs/statistics.md; do
	grep -qx "$f" "$T/files" || miss="$miss $f"
done
[ -z "$miss" ] && echo "ok 7 - it holds the README and docs/, uncompressed (its links work)" ||
	echo "not ok 7 - it holds the README and docs/, uncompressed # missing:$miss"
rec=$(dpkg-deb -f "$deb" Recommends)
case ", $rec," in
*", git,"* | *", git "*) echo "ok 8 - it recommends git, which bisect runs: $rec" ;;
*) echo "not ok 8 - it recommends git, which bisect runs # Recommends: $rec" ;;
esac
m=$(dpkg-deb -f "$deb" Maintainer)
[ "$m" = "A Builder <builder@lab.test>" ] && echo "ok 9 - its maintainer is who built it: $m" ||
	echo "not ok 9 - its maintainer is who built it # Maintainer: $m"
sha=$(git -C "$top" rev-parse --short=12 HEAD 2>/dev/null)
case $v in
*"+git"*".$sha"*) echo "ok 10 - its version names the commit it was built from: $v" ;;
*) echo "not ok 10 - its version names the commit it was built from # got '$v', HEAD $sha" ;;
esac
CONTEND_SUITES= "$T/root/usr/bin/contend" profiles >"$T/profiles" 2>&1
if grep -q "^hackbench " "$T/profiles" && grep -qx "./usr/share/contend/suites/fio.ini" "$T/files"; then
	echo "ok 11 - it ships the suites, and its binary finds them: $(awk 'NR > 1 && NF { n++ } END { print n - 1 }' "$T/profiles") profiles"
else
	echo "not ok 11 - it ships the suites, and its binary finds them"
	sed 's/^/# /' "$T/profiles" | head -n 5
fi
