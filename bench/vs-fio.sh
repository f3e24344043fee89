#!/bin/sh
# vs-fio.sh - runs fio and drivebench with the same options on the same
# target, alternating, and prints median IOPS and mean latency side by side.
# Usage: bench/vs-fio.sh [DRIVEBENCH_BINARY]     (see bench/README.md)
# Writes only to its scratch file and to /dev/zram0; nothing else.
set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
drivebench=${1:-$repo/build/drivebench}
fio=${FIO:-fio}
runs=${RUNS:-5}
runtime=${RUNTIME:-5}
bench_dir=${BENCH_DIR:-$repo}
cases=${CASES:-"null file zram zramdata write"}
scratch=$bench_dir/vs-fio-scratch.dat
scratch_size_mib=1024
zram=/dev/zram0
zram_sysfs=/sys/block/zram0

die() { echo "vs-fio: $*" >&2; exit 2; }

case $runs in ''|*[!0-9]*) die "RUNS must be a number, not '$runs'" ;; esac
case $runtime in ''|*[!0-9]*) die "RUNTIME must be seconds, not '$runtime'" ;; esac
[ "$runs" -ge 1 ] || die "RUNS must be at least 1"
for c in $cases; do
	case $c in null|file|zram|zramdata|write) ;;
	*) die "unknown case '$c' in CASES (null, file, zram, zramdata, write)" ;;
	esac
done
command -v "$fio" >/dev/null 2>&1 || die "fio not found (apt-get install fio)"
command -v python3 >/dev/null 2>&1 || die "python3 not found"
[ -x "$drivebench" ] || die "no drivebench binary at '$drivebench' (run make, or pass its path)"
[ -d "$bench_dir" ] || die "BENCH_DIR '$bench_dir' is not a directory"
if [ -e "$scratch" ] && [ ! -f "$scratch" ]; then
	die "'$scratch' exists and is not a regular file; not touching it"
fi
# A tool that falls back to its default target writes here, nowhere else.
DRIVEBENCH_SCRATCH=$scratch
export DRIVEBENCH_SCRATCH

zram_was_unset=0
zram_written=0
# shellcheck disable=SC2317  # called from the EXIT trap
cleanup() {
	# Give zram's memory back: reset it if we sized it, else discard the
	# part we wrote.
	if [ "$zram_was_unset" = 1 ]; then
		echo 1 >"$zram_sysfs/reset" 2>/dev/null
	elif [ "$zram_written" = 1 ]; then
		blkdiscard -o 0 -l "$((scratch_size_mib * 1024 * 1024))" \
			"$zram" 2>/dev/null
	fi
	if [ "${KEEP_SCRATCH:-0}" != 1 ]; then
		rm -f "$scratch"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# json_result DIR: reads one tool's JSON on stdin, prints "IOPS MEAN_LAT_US"
# for jobs[0].DIR (fio's schema), or nothing when the output is not usable.
json_result() {
	python3 -c '
import json, sys
text = sys.stdin.read()
start = text.find("{")  # skip notices printed before or after the JSON
try:
    doc = json.JSONDecoder().raw_decode(text[start:])[0]
    job = doc["jobs"][0][sys.argv[1]]
    print("%.1f %.3f" % (job["iops"], job["lat_ns"]["mean"] / 1000.0))
except Exception:
    pass
' "$1"
}

results=""   # lines: "CASE TOOL IOPS LAT_US"
failed_runs=0

# run_tool TOOL CASE DIR OPTIONS...: one run; appends to $results.
run_tool() {
	tool=$1 case_name=$2 dir=$3
	shift 3
	# stderr joins stdout so that nothing is written to a file
	if [ "$tool" = fio ]; then
		out=$("$fio" "$@" --output-format=json 2>&1)
	else
		# the bench made its scratch file, not drivebench: consent to it
		out=$("$drivebench" run "$@" --destroy-data="$scratch" --no-db \
			--output-format=json 2>&1)
	fi
	rc=$?
	line=$(printf '%s' "$out" | json_result "$dir")
	if [ "$rc" -ne 0 ] || [ -z "$line" ]; then
		echo >&2
		echo "    $tool failed (exit $rc):" >&2
		printf '%s\n' "$out" | head -n 8 | sed 's/^/      /' >&2
		printf '%-11s' "-"
		failed_runs=$((failed_runs + 1))
		return 1
	fi
	results="$results$case_name $tool $line
"
	printf '%-11s' "${line%%.*}"
}

# bench_case CASE DIR OPTIONS...: RUNS runs of each tool, alternating, the
# order flipped every round so neither always runs on a warmer machine.
bench_case() {
	case_name=$1 dir=$2
	shift 2
	echo "== $case_name: $*"
	i=1
	while [ "$i" -le "$runs" ]; do
		if [ $((i % 2)) -eq 1 ]; then first=fio second=drivebench
		else first=drivebench second=fio; fi
		printf '  run %d  %-10s ' "$i" "$first"
		run_tool "$first" "$case_name" "$dir" "$@"
		printf '  %-10s ' "$second"
		run_tool "$second" "$case_name" "$dir" "$@"
		echo " IOPS"
		i=$((i + 1))
	done
}

# Lays out the scratch file with written (non-zero) data, once.
layout_scratch() {
	want=$((scratch_size_mib * 1024 * 1024))
	have=0
	[ -f "$scratch" ] && have=$(stat -c %s "$scratch")
	[ "$have" -ge "$want" ] && return 0
	echo "== laying out $scratch ($scratch_size_mib MiB)"
	dd if=/dev/urandom of="$scratch" bs=1M count="$scratch_size_mib" \
		conv=fsync status=none || die "cannot write '$scratch'"
}

# Prints why zram0 cannot be used, or nothing when it can.
zram_unusable() {
	[ -b "$zram" ] || { echo "$zram is not present"; return; }
	[ "$(id -u)" -eq 0 ] || { echo "writing $zram needs root"; return; }
	if grep -q "^$zram " /proc/swaps 2>/dev/null; then
		echo "$zram is in use as swap"; return
	fi
	if grep -q "^$zram " /proc/mounts 2>/dev/null; then
		echo "$zram is mounted"; return
	fi
	if [ -n "$(ls -A "$zram_sysfs/holders" 2>/dev/null)" ]; then
		echo "$zram is held by another device"; return
	fi
}

# Sizes zram0 when it is unset. "empty" discards the part we read, so reads
# cost the device almost nothing and the tools' own cost shows; "data" fills
# it, so reads copy real pages (on this kernel zram reads go through one
# io_uring io-wq worker, which then bounds both tools alike).
prepare_zram() {
	size=$(cat "$zram_sysfs/disksize") || return 1
	if [ "$size" -eq 0 ]; then
		echo 1G >"$zram_sysfs/disksize" || return 1
		zram_was_unset=1
		size=$(cat "$zram_sysfs/disksize")
	fi
	[ "$size" -ge $((scratch_size_mib * 1024 * 1024)) ] || {
		echo "  $zram is smaller than $scratch_size_mib MiB" >&2; return 1; }
	zram_written=1
	if [ "$1" = empty ]; then
		echo "== discarding the first $scratch_size_mib MiB of $zram"
		blkdiscard -o 0 -l $((scratch_size_mib * 1024 * 1024)) "$zram"
	else
		echo "== writing the first $scratch_size_mib MiB of $zram"
		dd if=/dev/urandom of="$zram" bs=1M count="$scratch_size_mib" \
			oflag=direct status=none
	fi
}

common="--time_based --runtime=$runtime --size=${scratch_size_mib}m"
skipped=""
echo "fio: $("$fio" --version)   drivebench: $drivebench"
echo "$runs runs of ${runtime}s per tool and case; IOPS of each run:"

for c in $cases; do
	case $c in
	null)
		# shellcheck disable=SC2086
		bench_case "null-4k-randread-qd32" read --name=null \
			--ioengine=null --rw=randread --bs=4k --iodepth=32 $common
		;;
	file)
		layout_scratch
		# shellcheck disable=SC2086
		bench_case "file-4k-randread-qd32" read --name=file \
			--filename="$scratch" --ioengine=io_uring --direct=1 \
			--rw=randread --bs=4k --iodepth=32 $common
		;;
	zram|zramdata)
		why=$(zram_unusable)
		mode=empty; name=zram-4k-randread-qd32
		[ "$c" = zramdata ] && { mode=data; name=zram-data-4k-randread-qd32; }
		if [ -n "$why" ]; then
			echo "== $c: skipped: $why"
			skipped="$skipped $c"
		elif prepare_zram $mode; then
			# shellcheck disable=SC2086
			bench_case "$name" read --name=zram \
				--filename="$zram" --ioengine=io_uring --direct=1 \
				--rw=randread --bs=4k --iodepth=32 $common
		else
			echo "== $c: skipped: cannot prepare $zram"
			skipped="$skipped $c"
		fi
		;;
	write)
		layout_scratch
		# shellcheck disable=SC2086
		bench_case "file-128k-seqwrite-qd16" write --name=write \
			--filename="$scratch" --ioengine=io_uring --direct=1 \
			--rw=write --bs=128k --iodepth=16 $common
		;;
	esac
done

printf '%s' "$results" | python3 -c '
import statistics, sys
rows, order = {}, []
for line in sys.stdin:
    case, tool, iops, lat = line.split()
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
