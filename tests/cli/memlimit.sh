#!/bin/sh
# contend started inside a cgroup (a container's, a systemd unit's
# MemoryMax, a CI runner's) keeps what it starts inside it: the session's
# cgroup v2 group goes under contend's own, so the foreground and the loads
# stay under its limits; and the mem load, inside a real 2 GiB memory
# cgroup, is sized from the cgroup, not from the machine's MemAvailable, so
# the cgroup's OOM killer never ends it, and never pushes into swap; a
# --mem-size over the limit is capped; oltp --buffered's memory cgroup goes
# under it (v1); outside it, its limit is not applied.
. "$CT_TESTLIB"
plan 13

v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
# the session under contend's own cgroup v2 group
own="$v2/contend-test-own-$$"
# a cgroup is removed once the last of its processes is gone; a load that
# was just killed may still be freeing its memory
rmcg() {
	for d in "$@"; do
		i=0
		while [ -d "$d" ] && ! rmdir "$d" 2>/dev/null && [ $i -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
	done
}
trap 'rmcg "$own"; rm -rf "$T"' EXIT
if [ "$(id -u)" = 0 ] && [ -n "$v2" ] && mkdir "$own" 2>/dev/null; then
	rc=0
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' - "$own" "$CONTEND" run -w cmd -l p \
		--load-cmd "p=sh -c 'cat /proc/self/cgroup >$T/lcg; exec sleep 4243'" --no-warmup -n 1 \
		--delay 0.3s -L own -q -- sh -c "cat /proc/self/cgroup >$T/fcg" >"$T/out" 2>"$T/err" || rc=$?
	expect_rc "started inside a cgroup v2 group: exit 0" 0
	n=$(basename "$own")
	grep -q "^0::/$n/contend-[0-9]*/fg\$" "$T/fcg" && grep -q "^0::/$n/contend-[0-9]*/load-p\$" "$T/lcg" &&
		ok "the foreground and the load run under it" ||
		not_ok "the foreground and the load run under it" "fg: $(cat "$T/fcg")" "load: $(cat "$T/lcg")"
	rmcg "$own"
	[ ! -d "$own" ] && ok "nothing is left under it" || not_ok "nothing is left under it" "$(ls "$own")"
else
	for i in 1 2 3; do skip "under contend's own cgroup" "no cgroup v2 group can be made here (root and a cgroup2 mount needed)"; done
fi

skip_all() {
	for i in $(seq 10); do skip "mem under a memory cgroup" "$1"; done
	exit 0
}
[ "$(id -u)" = 0 ] || skip_all "making a memory cgroup needs root"
if [ -n "$v2" ] && grep -qw memory "$v2/cgroup.controllers" 2>/dev/null; then
	root=$v2 max=memory.max events=memory.events peak=memory.peak
	echo +memory >"$root/cgroup.subtree_control" 2>/dev/null
else
	root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/self/mounts)
	max=memory.limit_in_bytes events=memory.oom_control peak=memory.max_usage_in_bytes
fi
[ -n "$root" ] || skip_all "the kernel offers no memory cgroup controller (v1 or v2)"
cg="$root/contend-test-memlimit-$$"
mkdir "$cg" || skip_all "cannot make a cgroup under $root"
trap 'rmcg "$cg" "$own"; rm -rf "$T"' EXIT
echo $((2 << 30)) >"$cg/$max"
# runs contend with its arguments inside the cgroup
inside() {
	rc=0
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' - "$cg" "$CONTEND" "$@" \
		>"$T/out" 2>"$T/err" || rc=$?
}
# the target of the mem load's last run, in MiB
target_mib() {
	sql "select load_params from runs where load = 'mem' order by id desc limit 1" |
		sed -n 's/.*target=\([0-9.]*\)\([GM]\)iB.*/\1 \2/p' |
		awk '{ print $2 == "G" ? $1 * 1024 : $1 }'
}

inside run -w selftest -l none,mem -n 2 --no-warmup --delay 0.5s -L lim -q
expect_rc "inside a 2 GiB cgroup: exit 0" 0
check "both mem runs ok" test "$(sql "select count(*) from runs where load = 'mem' and status = 'ok'")" = 2
check "the load knows the cgroup's limit" test "$(sql "select count(*) from runs where load = 'mem' and load_params like '%memcg=2.0GiB%'")" = 2
t=$(target_mib)
pk=$(($(cat "$cg/$peak") >> 20))
check "its target ($t MiB) leaves room under 2 GiB, and the load touched it inside the cgroup (peak $pk MiB)" \
	awk -v t="$t" -v p="$pk" 'BEGIN { exit !(t > 0 && t < 2048 && p >= 0.8 * t) }'
check "the cgroup's OOM killer never ran" grep -qx "oom_kill 0" "$cg/$events"

inside run -w selftest -l none,mem -n 1 --no-warmup --delay 0.5s --mem-size 4G -L big -q
t=$(target_mib)
[ "$rc" = 0 ] && [ "$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label = 'big' and r.load = 'mem' and r.status = 'ok' and r.load_params like '%capped=yes%'")" = 1 ] &&
	awk -v t="$t" 'BEGIN { exit !(t > 0 && t < 2048) }' && grep -qx "oom_kill 0" "$cg/$events" &&
	ok "--mem-size 4G inside: capped under the limit ($t MiB), no OOM kill" ||
	not_ok "--mem-size 4G inside: capped under the limit, no OOM kill" "exit $rc, target $t MiB" "$(cat "$T/err")" "$(cat "$cg/$events")"

# oltp --buffered's own memory cgroup goes under contend's (v1), so the
# limit above contend still holds for the engine
if [ "$max" = memory.limit_in_bytes ]; then
	: >"$T/seen"
	(i=0; while [ $i -lt 400 ] && [ ! -s "$T/seen" ]; do
		ls -d "$cg"/contend-oltp-* >"$T/seen" 2>/dev/null
		sleep 0.05
		i=$((i + 1))
	done) &
	wp=$!
	inside run -q -w oltp --buffered --data-size 32M --mem-limit 8M --log-size 1M --duration 2s --ramp-max 0 --dir "$T" -n 1 -L obuf
	wait $wp
	[ "$rc" = 0 ] && [ -s "$T/seen" ] && ok "oltp --buffered inside: its memory cgroup is made under contend's" ||
		not_ok "oltp --buffered inside: its memory cgroup is made under contend's" "exit $rc" "$(cat "$T/err")" "seen: $(cat "$T/seen")"
	check "and removed after" sh -c "! ls -d '$cg'/contend-oltp-* 2>/dev/null"
else
	skip "oltp --buffered inside a memory cgroup" "cgroup v2: contend's own cgroup holds contend, so it hands no controller down and the engine's cgroup is made at the root"
	skip "and removed after" "cgroup v2"
fi

run run -w selftest -l none,mem -n 1 --no-warmup --delay 0.5s --mem-size 256M -L free -q
expect_rc "outside the cgroup: exit 0" 0
check "outside the cgroup its limit is not applied" test "$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label = 'free' and r.load = 'mem' and r.status = 'ok' and r.load_params not like '%memcg=2.0GiB%'")" = 1
