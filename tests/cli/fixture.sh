#!/bin/sh
# The committed store written by contend at 5785448 (tests/fixtures/store,
# made by make-v5.sh) migrates in place, and list and compare print from it
# what is expected, byte for byte: a plain pair, one load, the pair turned
# around, the two configs of an interleaved --vary session (paired by
# block), an oltp pair, three configs one of which has no runs of the
# workload, an interrupted session. v5-expected.txt was written by contend
# at 5785448 itself, and the one-way layers change kept every byte; it has
# changed since only where a commit says why (git log v5-expected.txt).
# FIXTURE_UPDATE=1 rewrites it with $CONTEND.
. "$CT_TESTLIB"

F="$CT_FIXTURES/store"
cmds='list
compare a b
compare a b -l process
compare b a
compare k+sysctl.vm.swappiness=10 k+sysctl.vm.swappiness=60
compare oa ob
compare a b f
compare int a'
plan $(($(echo "$cmds" | wc -l) + 3))

cp "$F/v5.db" "$CONTEND_DB"
export TZ=UTC
echo "$cmds" | while IFS= read -r c; do
	echo "\$ contend $c"
	rc=0
	# shellcheck disable=SC2086
	"$CONTEND" $c >"$T/o" 2>"$T/e" || rc=$?
	cat "$T/o" "$T/e"
	echo "exit $rc"
done >"$T/got"
if [ "${FIXTURE_UPDATE:-}" = 1 ]; then
	cp "$T/got" "$F/v5-expected.txt"
fi
# one assertion per command: its block of the output, as expected
i=0
echo "$cmds" | while IFS= read -r c; do
	i=$((i + 1))
	awk -v n="$i" '/^\$ contend / { k++ } k == n' "$T/got" >"$T/g"
	awk -v n="$i" '/^\$ contend / { k++ } k == n' "$F/v5-expected.txt" >"$T/w"
	if [ -s "$T/w" ] && cmp -s "$T/g" "$T/w"; then
		echo "ok $i - contend $c: as expected"
	else
		echo "not ok $i - contend $c: as expected"
		diff "$T/w" "$T/g" | sed 's/^/# /' | head -40
	fi
done
n=$(echo "$cmds" | wc -l)
_n=$n
cur=$(sed -n 's/^#define CT_STORE_SCHEMA //p' "$CT_FIXTURES/../../src/store/internal.h")
check "the store is at the current schema ($cur)" test "$(sql 'PRAGMA user_version')" = "$cur"
check "json_extract reads the oltp runs' tps" test "$(sql "SELECT count(*) FROM runs WHERE workload = 'oltp' AND json_extract(metrics, '$.tps') > 0")" = 6
check "the store is intact" test "$(sql 'PRAGMA integrity_check')" = ok
