#!/bin/sh
# parity.sh - fio and drivebench, alternating, with the same options for
# every engine (psync, libaio, io_uring), queue depth (1, 16), target (a
# file, zram with data) and direction (4k random read, 4k random write),
# and the table of drivebench / fio ratios of the medians: IOPS, bandwidth,
# slat/clat/lat means and clat p50/p99/p99.9 (issue 13's parity table).
# Usage: bench/parity.sh [DRIVEBENCH_BINARY]           (see bench/README.md)
# Writes only to its scratch file and, with TARGETS containing zram, to
# $ZRAM (/dev/zram0, whose contents are lost); nothing else.
set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_name=parity
drivebench=${1:-$repo/build/drivebench}
fio=${FIO:-fio}
runs=${RUNS:-5}
runtime=${RUNTIME:-5}
bench_dir=${BENCH_DIR:-$repo}
targets=${TARGETS:-file}
engines=${ENGINES:-"psync libaio io_uring"}
depths=${DEPTHS:-"1 16"}
rws=${RWS:-"randread randwrite"}
scratch_size_mib=${SIZE_MIB:-1024}

bench_number SIZE_MIB "$scratch_size_mib"
for t in $targets; do
	case $t in file|zram) ;; *) bench_die "unknown target '$t' in TARGETS (file, zram)" ;; esac
done
for e in $engines; do
	case $e in psync|libaio|io_uring) ;;
	*) bench_die "unknown engine '$e' in ENGINES (psync, libaio, io_uring)" ;;
	esac
done
for d in $depths; do bench_number DEPTHS "$d"; done
for r in $rws; do
	case $r in randread|randwrite|read|write) ;;
	*) bench_die "unknown direction '$r' in RWS (randread, randwrite, read, write)" ;;
	esac
done
bench_setup

common="--time_based --runtime=$runtime --size=${scratch_size_mib}m --direct=1 --bs=4k"
[ -n "${CPUS:-}" ] && common="$common --cpus_allowed=$CPUS"
echo "fio: $("$fio" --version)   drivebench: $drivebench"
bench_extras_note
[ "$runs" -lt 5 ] && echo "NOTE: RUNS=$runs: fewer than 5 runs, not the issue's medians"
echo "$runs runs of ${runtime}s per tool and case; IOPS of each run:"

skipped=""
for t in $targets; do
	if [ "$t" = file ]; then
		bench_layout_scratch
		path=$scratch
	else
		why=$(bench_zram_unusable)
		if [ -n "$why" ]; then
			echo "== zram: skipped: $why"
			skipped="$skipped zram"
			continue
		fi
		bench_prepare_zram data || { echo "== zram: skipped: cannot prepare $zram"; skipped="$skipped zram"; continue; }
		path=$zram
	fi
	for rw in $rws; do
		case $rw in *read) dir='read' ;; *) dir='write' ;; esac
		for e in $engines; do
			for qd in $depths; do
				# shellcheck disable=SC2086
				bench_rounds "$t-$e-$rw-qd$qd" "$dir" --name=parity \
					--filename="$path" --ioengine="$e" --rw="$rw" \
					--iodepth="$qd" $common
			done
		done
	done
done

printf '%s' "$results" | python3 -c '
import statistics, sys

FIELDS = ["iops", "bw", "slat", "clat", "lat", "p50", "p99", "p99.9"]
rows, order = {}, []
for line in sys.stdin:
    parts = line.split()
    case, tool, values = parts[0], parts[1], parts[2:]
    if case not in rows:
        rows[case] = {"fio": [], "drivebench": []}
        order.append(case)
    rows[case][tool].append([None if v == "-" else float(v) for v in values])

def medians(runs):
    out = []
    for i in range(len(FIELDS)):
        vals = [r[i] for r in runs if r[i] is not None]
        out.append(statistics.median(vals) if vals else None)
    return out

def ratio(db, fio):
    if db is None or fio is None:
        return "-"
    if fio == 0:
        return "0=0" if db == 0 else "x/0"
    r = db / fio
    # outside 0.9..1.1 is marked: where the device is the limit the goal
    # is every ratio inside
    return ("%.2f" % r) + ("*" if r < 0.9 or r > 1.1 else " ")

print()
print("drivebench / fio, medians of the runs of each tool (* outside 0.9..1.1;"
      " 0=0: both report none,")
print("as fio reports no slat for psync); the IOPS and mean lat (us) of fio for scale")
head = "%-28s %9s %8s" % ("case", "fio IOPS", "fio lat")
head += "".join(" %7s" % f for f in FIELDS)
print(head)
outside = 0
for case in order:
    f, d = medians(rows[case]["fio"]), medians(rows[case]["drivebench"])
    cells = [ratio(d[i], f[i]) for i in range(len(FIELDS))]
    outside += sum(c.endswith("*") for c in cells)
    print("%-28s %9s %8s" % (case, "%.0f" % f[0] if f[0] is not None else "-",
          "%.2f" % f[4] if f[4] is not None else "-") +
          "".join(" %7s" % c for c in cells))
# a split that differs in kind: one tool puts time in slat that the other
# puts in clat (slat above a tenth of lat in one tool and not the other)
kind = []
for case in order:
    f, d = medians(rows[case]["fio"]), medians(rows[case]["drivebench"])
    if None in (f[2], f[4], d[2], d[4]) or not f[4] or not d[4]:
        continue
    if (f[2] > 0.1 * f[4]) != (d[2] > 0.1 * d[4]):
        kind.append(case)
print()
print("ratios outside 0.9..1.1: %d" % outside)
print("slat/clat split that differs in kind: %s" % (", ".join(kind) or "none"))
'
[ -n "$skipped" ] && echo "skipped:$skipped"
if [ "$failed_runs" -gt 0 ]; then
	echo "$failed_runs run(s) failed; their numbers are missing above" >&2
	exit 1
fi
exit 0
