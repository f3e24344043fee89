#!/bin/sh
# vs-fio.sh - runs fio and drivebench with the same options on the same
# target, alternating, and prints median IOPS and mean latency side by side.
# Usage: bench/vs-fio.sh [DRIVEBENCH_BINARY]     (see bench/README.md)
# Writes only to its scratch file and to $ZRAM (/dev/zram0); nothing else.
set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_name=vs-fio
drivebench=${1:-$repo/build/drivebench}
fio=${FIO:-fio}
runs=${RUNS:-5}
runtime=${RUNTIME:-5}
bench_dir=${BENCH_DIR:-$repo}
cases=${CASES:-"null file zram zramdata write"}
scratch_size_mib=1024

for c in $cases; do
	case $c in null|file|zram|zramdata|write) ;;
	*) bench_die "unknown case '$c' in CASES (null, file, zram, zramdata, write)" ;;
	esac
done
bench_setup

# Both tools get the same options: fio's defaults (batching included) on
# both sides, so the comparison is like with like (bench/README.md).
common="--time_based --runtime=$runtime --size=${scratch_size_mib}m"
[ -n "${CPUS:-}" ] && common="$common --cpus_allowed=$CPUS"
skipped=""
echo "fio: $("$fio" --version)   drivebench: $drivebench"
bench_extras_note
echo "$runs runs of ${runtime}s per tool and case; IOPS of each run:"

for c in $cases; do
	case $c in
	null)
		# shellcheck disable=SC2086
		bench_rounds "null-4k-randread-qd32" read --name=null \
			--ioengine=null --rw=randread --bs=4k --iodepth=32 $common
		;;
	file)
		bench_layout_scratch
		# shellcheck disable=SC2086
		bench_rounds "file-4k-randread-qd32" read --name=file \
			--filename="$scratch" --ioengine=io_uring --direct=1 \
			--rw=randread --bs=4k --iodepth=32 $common
		;;
	zram|zramdata)
		why=$(bench_zram_unusable)
		mode=empty; name='zram-4k-randread-qd32'
		[ "$c" = zramdata ] && { mode=data; name='zram-data-4k-randread-qd32'; }
		if [ -n "$why" ]; then
			echo "== $c: skipped: $why"
			skipped="$skipped $c"
		elif bench_prepare_zram $mode; then
			# shellcheck disable=SC2086
			bench_rounds "$name" read --name=zram \
				--filename="$zram" --ioengine=io_uring --direct=1 \
				--rw=randread --bs=4k --iodepth=32 $common
		else
			echo "== $c: skipped: cannot prepare $zram"
			skipped="$skipped $c"
		fi
		;;
	write)
		bench_layout_scratch
		# shellcheck disable=SC2086
		bench_rounds "file-128k-seqwrite-qd16" write --name=write \
			--filename="$scratch" --ioengine=io_uring --direct=1 \
			--rw=write --bs=128k --iodepth=16 $common
		;;
	esac
done

printf '%s' "$results" | python3 -c '
import statistics, sys
rows, order = {}, []
for line in sys.stdin:
    case, tool, iops, bw, slat, clat, lat = line.split()[:7]
    if case not in rows:
        rows[case] = {"fio": ([], []), "drivebench": ([], [])}
        order.append(case)
    rows[case][tool][0].append(float(iops))
    rows[case][tool][1].append(float(lat))

def med(values):
    return statistics.median(values) if values else None

def num(v, fmt):
    return fmt % v if v is not None else "-"

print()
print("%-24s %12s %12s %6s %10s %10s %6s" % ("case", "fio IOPS",
      "db IOPS", "ratio", "fio lat", "db lat", "lat"))
print("%-24s %12s %12s %6s %10s %10s %6s" % ("", "(median)", "(median)",
      "db/fio", "(us mean)", "(us mean)", "db/fio"))
ratios = {}
for case in order:
    fio_iops, fio_lat = (med(v) for v in rows[case]["fio"])
    db_iops, db_lat = (med(v) for v in rows[case]["drivebench"])
    ratio = db_iops / fio_iops if fio_iops and db_iops is not None else None
    lat_ratio = db_lat / fio_lat if fio_lat and db_lat is not None else None
    ratios[case] = (ratio, lat_ratio)
    print("%-24s %12s %12s %6s %10s %10s %6s" % (case,
          num(fio_iops, "%.0f"), num(db_iops, "%.0f"), num(ratio, "%.2f"),
          num(fio_lat, "%.2f"), num(db_lat, "%.2f"), num(lat_ratio, "%.2f")))

def goal(text, cases, test):
    got = [(c, ratios[c]) for c in cases if c in ratios]
    if not got or any(r is None for c, (r, l) in got):
        verdict = "n/a (not measured)"
    else:
        verdict = "met" if all(test(r, l) for c, (r, l) in got) else "NOT met"
    print("  %-58s %s" % (text, verdict))

print()
print("goals (drivebench vs fio):")
goal("zram io_uring 4k randread IOPS >= 1.3x",
     ["zram-4k-randread-qd32"], lambda r, l: r >= 1.3)
goal("null engine 4k randread IOPS >= 1.5x",
     ["null-4k-randread-qd32"], lambda r, l: r >= 1.5)
goal("no case below 1.0x", order, lambda r, l: r >= 1.0)
goal("mean latency within 5% where the device is the limit (file)",
     ["file-4k-randread-qd32", "file-128k-seqwrite-qd16"],
     lambda r, l: l is not None and abs(l - 1.0) <= 0.05)
'
[ -n "$skipped" ] && echo "skipped:$skipped"
if [ "$failed_runs" -gt 0 ]; then
	echo "$failed_runs run(s) failed; their numbers are missing above" >&2
	exit 1
fi
exit 0
