#!/bin/bash
# The oltp engine against fio in the same run, on the same files:
#  1. read path: --reads 1 --writes 0 --pool-size 0 (every transaction is one
#     8 KiB O_DIRECT pread) against fio randread bs=8k psync, at 1 and at
#     4 x CPUs clients/jobs, on the data file a contend run left behind;
#  2. sync write path: one client, a pool holding the whole (1 MiB) data file
#     and no DB writers, so after the ramp-up only the log writer's commit
#     records reach the disk, one per write (group_mean 1), against fio
#     write O_DIRECT|O_DSYNC psync with the record's size on the kept oltp.log;
#  3. CPU per I/O of each pair: contend's user_s+sys_s (getrusage of the
#     engine over the measurement) over its I/Os, fio's usr+sys over its I/Os;
#  4. peak RSS of the read case with the default pool (data/32): the largest
#     RSS of any process of contend's tree (/usr/bin/time %M, ru_maxrss: the
#     forked engine foreground, which also counts the pages it shares with
#     contend), against the pool + 32 MiB.
# Both sides skip their first RAMP s (contend --ramp-max, fio --ramp_time):
# contend writes its data file just before it measures. fio runs threads
# (--thread) as the engine does, and picks pages uniformly with repeats
# (--norandommap), as the engine does. Prints ratios contend/fio.
set -euo pipefail
cd "$(dirname "$0")/.."
CONTEND=${CONTEND:-build/contend}
SECS=${SECS:-15}  # measured seconds per side and case
RAMP=${RAMP:-3}   # seconds skipped first by both sides
DATA=${DATA:-4G}  # data file of the read cases; the default pool is DATA/32
DIR=${DIR:-/var/tmp}
command -v fio >/dev/null || { echo "bench: fio is missing (apt-get install fio)" >&2; exit 3; }
command -v sqlite3 >/dev/null || { echo "bench: sqlite3 is missing (apt-get install sqlite3)" >&2; exit 3; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is missing (apt-get install time)" >&2; exit 3; }
T=$(mktemp -d "$DIR/contend-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
ncpu=$(nproc)
hi=$((4 * ncpu))
: >"$T/notes"
load0=$(cut -d' ' -f1 /proc/loadavg)

pre=() # a command crun runs contend under
crun() { # crun LABEL ARGS... -> "name=value ...|workload_params" of the oltp run
	local label=$1
	shift
	sync
	if ! ${pre[@]+"${pre[@]}"} "$CONTEND" run -q --db "$T/r.db" -w oltp -l none -n 1 -L "$label" \
		--duration "${SECS}s" "$@" >/dev/null 2>"$T/err"; then
		cat "$T/err" >&2
		exit 1
	fi
	sed "s/^/$label: /" "$T/err" >>"$T/notes"
	local row keys sel k
	# the metrics the comparison needs, read with SQL's json_extract
	keys="tps read_iops read_p50_us dbw_iops log_iops log_p50_us log_mbps group_mean hit_ratio"
	keys="$keys measured_s user_s sys_s"
	sel=""
	for k in $keys; do
		sel="$sel || ' $k=' || coalesce(json_extract(metrics, '\$.$k'), 'nan')"
	done
	row=$(sqlite3 "$T/r.db" "select status, reason, ''$sel, workload_params from runs \
		where id = (select max(id) from runs)")
	case $row in
	ok\|*) ;;
	*) echo "bench: $label: run failed: $row" >&2; exit 1 ;;
	esac
	echo "${row#ok|*|}"
}
fjson() { # fjson ARGS... -> "iops cpu_s ios p50_us" of one fio run (all jobs)
	sync
	fio --output-format=json --thread --group_reporting --time_based \
		--runtime="$SECS" --ramp_time="$RAMP" "$@" | python3 -c '
import json, sys
j = json.load(sys.stdin)["jobs"][0]
d = j["read"] if j["read"]["total_ios"] else j["write"]
# group_reporting sums job_runtime over the jobs and gives usr/sys_cpu
# as percentages of that sum, so this is the CPU time of all jobs
cpu = (j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] / 1000
print(d["iops"], cpu, d["total_ios"], d["clat_ns"]["percentile"]["50.000000"] / 1e3)'
}

# 1. read path; the first run keeps its files for fio
mkdir "$T/keep"
r1=$(crun read-1 --dir "$T/keep" --keep-files --data-size "$DATA" --pool-size 0 \
	--reads 1 --writes 0 --clients 1 --ramp-max "${RAMP}s")
kept=("$T"/keep/contend.*/wl-oltp)
[ ${#kept[@]} = 1 ] && [ -f "${kept[0]}/oltp.data" ] && [ -f "${kept[0]}/oltp.log" ] ||
	{ echo "bench: no kept oltp.data/oltp.log under $T/keep" >&2; exit 1; }
data=${kept[0]}/oltp.data
log=${kept[0]}/oltp.log
fread() { # fread JOBS
	fjson --name=randread --filename="$data" --size="$(stat -c %s "$data")" --rw=randread \
		--bs=8k --direct=1 --ioengine=psync --norandommap --randrepeat=0 --numjobs="$1"
}
f1=$(fread 1)
rh=$(crun read-hi --dir "$T" --data-size "$DATA" --pool-size 0 \
	--reads 1 --writes 0 --clients "$hi" --ramp-max "${RAMP}s")
fh=$(fread "$hi")

# 2. sync write path: group commit with a group of one
rw=$(crun log-1 --dir "$T" --data-size 1M --pool-size 1M --clients 1 --reads 1 --writes 1 \
	--db-writers 0 --ramp-max "${RAMP}s")
rec=$(python3 -c '
import sys
m = dict(kv.split("=") for kv in sys.argv[1].split("|")[0].split())
print(round(float(m["log_mbps"]) * 1e6 / float(m["log_iops"]) / float(m["group_mean"]) / 512) * 512)' "$rw")
fw=$(fjson --name=logwrite --filename="$log" --size="$(stat -c %s "$log")" --rw=write \
	--bs="$rec" --direct=1 --sync=dsync --ioengine=psync)

# 4. memory with the default pool
rm -rf "${kept[0]}" # the fio runs are done
pre=(/usr/bin/time -f %M -o "$T/rss")
rmem=$(crun mem --dir "$T" --data-size "$DATA" --reads 1 --writes 0 --clients "$hi" \
	--ramp-max "${RAMP}s")
pre=()
rss=$(tail -n 1 "$T/rss")

python3 - "$ncpu" "$hi" "$SECS" "$DATA" "$rec" "$load0" "$r1" "$f1" "$rh" "$fh" "$rw" "$fw" "$rmem" "$rss" <<'PY'
import re, sys
ncpu, hi, secs, data, rec, load0 = sys.argv[1:7]
r1, f1, rh, fh, rw, fw, rmem, rss = sys.argv[7:]

def cm(row):  # contend "metrics|params" -> dict, with params
    m = dict(kv.split("=", 1) for kv in row.split("|")[0].split())
    m = {k: float(v) for k, v in m.items()}
    m["params"] = row.split("|", 1)[1]
    return m

def fm(row):
    iops, cpu, ios, p50 = map(float, row.split())
    return {"iops": iops, "cpu": cpu, "ios": ios, "p50": p50}

def size(s):  # ct_fmt_size's "128.0 MiB" -> bytes
    n, u = s.split()
    return float(n) * 1024 ** ["B", "KiB", "MiB", "GiB", "TiB"].index(u)

def cpu_per_io(m, classes):
    ios = sum(m[c + "_iops"] for c in classes) * m["measured_s"]
    return (m["user_s"] + m["sys_s"]) / ios * 1e6 if ios else float("nan")

print(f"oltp engine vs fio: {secs} s per side, data {data}, {ncpu} CPUs, "
      f"T = 1 and {hi} (4 x CPUs); load average {load0} at the start, "
      f"{open('/proc/loadavg').read().split()[0]} at the end")
fmt = "{:<24} {:>10} {:>10} {:>7}  {}"
print(fmt.format("", "contend", "fio", "ratio", "target"))
rows = []
for name, c, f in (("1", r1, f1), (hi, rh, fh)):
    c, f = cm(c), fm(f)
    print(fmt.format(f"read IOPS T={name}", f"{c['read_iops']:.0f}", f"{f['iops']:.0f}",
                     f"{c['read_iops'] / f['iops']:.2f}", ">= 0.95"))
    print(fmt.format(f"  read p50 us", f"{c['read_p50_us']:.1f}", f"{f['p50']:.1f}",
                     f"{c['read_p50_us'] / f['p50']:.2f}", ""))
    cc, fc = cpu_per_io(c, ["read"]), f["cpu"] / f["ios"] * 1e6
    rows.append((f"CPU us/IO read T={name}", cc, fc))
c, f = cm(rw), fm(fw)
print(fmt.format(f"log IOPS ({rec} B dsync)", f"{c['log_iops']:.0f}", f"{f['iops']:.0f}",
                 f"{c['log_iops'] / f['iops']:.2f}", ">= 0.95"))
print(fmt.format(f"  log write p50 us", f"{c['log_p50_us']:.1f}", f"{f['p50']:.1f}",
                 f"{c['log_p50_us'] / f['p50']:.2f}", ""))
print(f"  (contend: tps {c['tps']:.0f}, group_mean {c['group_mean']:.2f}, "
      f"read_iops {c['read_iops']:.0f}, dbw_iops {c['dbw_iops']:.0f}, "
      f"hit_ratio {c.get('hit_ratio', float('nan')):.3f})")
rows.append(("CPU us/IO log write", cpu_per_io(c, ["read", "dbw", "log"]), f["cpu"] / f["ios"] * 1e6))
for name, cc, fc in rows:
    print(fmt.format(name, f"{cc:.1f}", f"{fc:.1f}", f"{cc / fc:.2f}", "<= 1.20"))
m = cm(rmem)
pool = size(re.search(r"pool=([\d.]+ \w+)", m["params"]).group(1))
peak = float(rss) * 1024
lim = pool + 32 * 2**20
print(fmt.format(f"peak RSS MiB T={hi}", f"{peak / 2**20:.1f}", "-",
                 f"{peak / lim:.2f}", f"<= 1.00 of pool {pool / 2**20:.0f} MiB + 32 MiB"))
print(f"  (ru_maxrss of contend's tree, i.e. of the engine foreground; that run: "
      f"read_iops {m.get('read_iops', 0):.0f})")
PY
if [ -s "$T/notes" ]; then
	echo "notes from contend:"
	sort -u "$T/notes" | sed 's/^/  /'
fi
