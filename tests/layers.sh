#!/bin/sh
# The layers of docs/architecture.md, checked on the source itself: every
# #include under src/ is an edge from the including file's folder to the
# folder of what it includes (a public header in include/contend/ belongs
# to the layer that implements it), and every edge must point down the
# table below - a layer may use any layer under it, never one beside or
# above. No function in src/ may be longer than 150 lines either.
#
# usage: tests/layers.sh [SRC_DIR]   (default: the src/ beside this script)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
src=${1:-$top/src}
inc=$(cd "$src/../include/contend" 2>/dev/null && pwd) || inc=$top/include/contend
MAX_LINES=150

# each layer and the layers under it that it may include
allowed() {
	case $1 in
	cli) echo "bisect report session workloads loads oltp latency store stats core" ;;
	bisect) echo "report session workloads loads oltp latency store stats core" ;;
	session) echo "workloads loads oltp latency store stats core" ;;
	report) echo "store stats core" ;;
	workloads | loads) echo "oltp latency core" ;;
	oltp | latency | store | stats) echo "core" ;;
	core) echo "" ;;
	*) echo "?" ;;
	esac
}

# the layer of a public header
header_layer() {
	case $1 in
	common.h | env.h | option.h | util.h | proc.h | signals.h | sysinfo.h | monitor.h | run.h | figure.h | knob.h | srctree.h | tartree.h | hist.h | reference.h | git.h | counters.h | perfcount.h | taskacct.h | journal.h) echo core ;;
	oltp.h) echo oltp ;;
	latency.h) echo latency ;;
	load.h) echo loads ;;
	workload.h) echo workloads ;;
	store.h) echo store ;;
	stats.h) echo stats ;;
	report.h | history.h | fleet.h) echo report ;;
	session.h | import.h) echo session ;;
	bisection.h) echo bisect ;;
	*) echo "?" ;;
	esac
}

bad=0
n_edges=0
for f in $(find "$src" "$inc" -name '*.[ch]' | sort); do
	case $f in
	"$inc"/*) from=$(header_layer "${f#"$inc"/}") ;;
	*) from=$(echo "${f#"$src"/}" | cut -d/ -f1) ;;
	esac
	dir=$(dirname "$f")
	for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
		case $h in
		contend/*) to=$(header_layer "${h#contend/}") ;;
		*)
			# a private header: the folder it resolves to
			if [ -e "$dir/$h" ]; then
				p=$(cd "$(dirname "$dir/$h")" && pwd)
				to=$(echo "${p#"$src"/}" | cut -d/ -f1)
				[ "$p" = "$src" ] && to="?"
			else
				to="?"
			fi
			;;
		esac
		n_edges=$((n_edges + 1))
		[ "$to" = "$from" ] && continue
		if [ "$to" = "?" ]; then
			echo "layers: ${f#"$top"/} includes \"$h\", which belongs to no layer"
			bad=$((bad + 1))
			continue
		fi
		case " $(allowed "$from") " in
		*" $to "*) ;;
		*)
			echo "layers: ${f#"$top"/} ($from) includes \"$h\" ($to): $from may use only: $(allowed "$from")"
			bad=$((bad + 1))
			;;
		esac
	done
done

# functions: from the line that opens a body at column 0 to the one that
# closes it (kernel style puts both braces of a function alone on a line)
long=$(find "$src" -name '*.c' | sort | xargs awk -v max=$MAX_LINES '
	FNR == 1 { open = 0 }
	/^\{$/ { open = FNR; name = prev }
	/^\}$/ && open { if (FNR - open + 1 > max) printf "%s:%d: %s is %d lines\n", FILENAME, open, name, FNR - open + 1; open = 0 }
	{ if ($0 ~ /^[a-zA-Z_].*\(/) prev = $0 }')
if [ -n "$long" ]; then
	echo "$long" | sed "s|^$top/||; s|^|layers: a function over $MAX_LINES lines: |"
	bad=$((bad + $(echo "$long" | wc -l)))
fi

if [ "$bad" -gt 0 ]; then
	echo "layers: $bad problem(s) in $n_edges includes"
	exit 1
fi
echo "layers: $n_edges includes point down the layers; no function over $MAX_LINES lines"
