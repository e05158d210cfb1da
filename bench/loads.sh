#!/bin/sh
# Load strength against a peer in the same run: the io load's write rate
# against fio's buffered sequential rewrite of a file written in full and
# flushed first, its pages left in the cache (--invalidate=0), as the io load
# writes its file before it runs and then rewrites it; the read load's rate
# against
# fio's sequential read of the disk (O_DIRECT, because the read load drops
# the cache behind itself so every byte comes from the disk), and the
# process load's CPU use against the CPU count. Prints ratios. fio skips its
# first 3 s (--ramp_time) as contend measures a load only after its 3 s
# start-up delay, so both see the same phase of the page cache filling.
set -eu
cd "$(dirname "$0")/.."
CONTEND=${CONTEND:-build/contend}
SIZE=${SIZE:-$(awk '/MemTotal/ {print $2 "k"}' /proc/meminfo)} # RAM, as the loads default
SECS=${SECS:-20}
DIR=${DIR:-/var/tmp}
T=$(mktemp -d "$DIR/contend-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
command -v fio >/dev/null || { echo "bench: fio is missing (apt-get install fio)" >&2; exit 3; }
ncpu=$(nproc)

settle() { # each side starts with no dirty pages and a cold cache
	sync
	[ "$(id -u)" = 0 ] && echo 3 >/proc/sys/vm/drop_caches || true
}
cload() { # cload LOAD -> MB/s of the load and LCPU% while a foreground sleeps SECS
	settle
	"$CONTEND" run -q --db "$T/r.db" -w selftest --selftest-mode sleep --scale "$SECS" \
		-l "$1" --file-size "$SIZE" -n 1 --no-warmup --dir "$T" -L "bench-$1" >/dev/null
	sqlite3 "$T/r.db" "select load_work/load_unit_scale/(wall_ns/1e9), \
		(load_user_us+load_sys_us)*1e3*100.0/wall_ns from runs where load='$1' \
		order by id desc limit 1"
}
fiobw() { # fiobw ARGS... -> MB/s (1e6 bytes); the caller settles
	fio --output-format=json "$@" | python3 -c \
		"import json,sys; j=json.load(sys.stdin)['jobs'][0]; \
		print((j['write']['bw_bytes']+j['read']['bw_bytes'])/1e6)"
}

io=$(cload io | cut -d'|' -f1)
settle
fio --name=prep --filename="$T/fio.dat" --rw=write --bs=1M --size="$SIZE" --end_fsync=1 \
	>/dev/null
# fio's first rewrite after its layout runs far slower than later ones here
# (880 against 4464 MB/s in one measurement); the peer is its second
fw1=$(fiobw --name=w --filename="$T/fio.dat" --rw=write --bs=1M --size="$SIZE" --invalidate=0 \
	--time_based --runtime="$SECS" --ramp_time=3 --ioengine=psync)
fw=$(fiobw --name=w --filename="$T/fio.dat" --rw=write --bs=1M --size="$SIZE" --invalidate=0 \
	--time_based --runtime="$SECS" --ramp_time=3 --ioengine=psync)
rm -f "$T/fio.dat"
rd=$(cload read | cut -d'|' -f1)
fio --name=prep --filename="$T/fio.dat" --rw=write --bs=1M --size="$SIZE" --end_fsync=1 \
	>/dev/null
settle
fr=$(fiobw --name=r --filename="$T/fio.dat" --rw=read --bs=1M --size="$SIZE" --direct=1 \
	--time_based --runtime="$SECS" --ramp_time=3 --ioengine=psync)
rm -f "$T/fio.dat"
lcpu=$(cload process | cut -d'|' -f2)

python3 - "$io" "$fw" "$rd" "$fr" "$lcpu" "$ncpu" "$fw1" <<'PY'
import sys
io, fw, rd, fr, lcpu, n, fw1 = map(float, sys.argv[1:])
print(f"io load:      {io:8.1f} MB/s  fio buffered rewrite {fw:6.1f} MB/s  ratio {io/fw:.2f} (target >= 0.9)")
print(f"              (fio's first rewrite after laying out its file: {fw1:.1f} MB/s)")
print(f"read load:    {rd:8.1f} MB/s  fio direct read    {fr:8.1f} MB/s  ratio {rd/fr:.2f} (target >= 0.9)")
print(f"process load: LCPU {lcpu:6.1f}% on {n:.0f} CPUs  ratio {lcpu/(100*n):.2f} of all CPUs (target >= 0.95)")
PY
