# lib.sh - what bench/vs-fio.sh and bench/parity.sh share: checking their
# shellcheck shell=sh disable=SC2154  # the caller sets the settings (below)
# settings and tools, the scratch file and zram target, one run of a tool
# read from its fio JSON, and the rounds that alternate fio and drivebench.
# Sourced (POSIX sh). The caller sets, before bench_setup:
#   drivebench fio runs runtime bench_dir   (binaries and RUNS/RUNTIME/BENCH_DIR)
#   scratch_size_mib                        (the scratch file's and zram's MiB)
# and reads $results after its rounds: one line per run,
#   "CASE TOOL IOPS BW_KIB SLAT_US CLAT_US LAT_US P50_US P99_US P999_US"
# (clat percentiles; "-" for a value the tool did not report).

bench_die() { echo "${bench_name:-bench}: $*" >&2; exit 2; }

# bench_number NAME VALUE: VALUE must be a whole number
bench_number() {
	case $2 in ''|*[!0-9]*) bench_die "$1 must be a number, not '$2'" ;; esac
}

# Checks the settings and tools, and names the scratch file and zram.
bench_setup() {
	bench_number RUNS "$runs"
	bench_number RUNTIME "$runtime"
	[ "$runs" -ge 1 ] || bench_die "RUNS must be at least 1"
	[ "$runtime" -ge 1 ] || bench_die "RUNTIME must be at least 1 second"
	command -v "$fio" >/dev/null 2>&1 || bench_die "fio not found (apt-get install fio)"
	command -v python3 >/dev/null 2>&1 || bench_die "python3 not found"
	[ -x "$drivebench" ] || bench_die "no drivebench binary at '$drivebench' (run make, or pass its path)"
	[ -d "$bench_dir" ] || bench_die "BENCH_DIR '$bench_dir' is not a directory"
	scratch=$bench_dir/vs-fio-scratch.dat
	if [ -e "$scratch" ] && [ ! -f "$scratch" ]; then
		bench_die "'$scratch' exists and is not a regular file; not touching it"
	fi
	zram=${ZRAM:-/dev/zram0}
	case $zram in /dev/zram[0-9]*) ;; *) bench_die "ZRAM must be a /dev/zramN device, not '$zram'" ;; esac
	zram_sysfs=/sys/block/${zram#/dev/}
	# A tool that falls back to its default target writes here, nowhere else.
	DRIVEBENCH_SCRATCH=$scratch
	export DRIVEBENCH_SCRATCH
	zram_was_unset=0
	zram_written=0
	results=""
	failed_runs=0
	trap bench_cleanup EXIT
	trap 'exit 130' INT TERM
}

# shellcheck disable=SC2317  # called from the EXIT trap
bench_cleanup() {
	# Give zram's memory back: reset it if we sized it, else discard the
	# part we wrote.
	if [ "$zram_was_unset" = 1 ]; then
		echo 1 >"$zram_sysfs/reset" 2>/dev/null
	elif [ "$zram_written" = 1 ]; then
		blkdiscard -o 0 -l "$((scratch_size_mib * 1024 * 1024))" "$zram" 2>/dev/null
	fi
	if [ "${KEEP_SCRATCH:-0}" != 1 ]; then
		rm -f "$scratch"
	fi
}

# Lays out the scratch file with written (random) data, once.
bench_layout_scratch() {
	want=$((scratch_size_mib * 1024 * 1024))
	have=0
	[ -f "$scratch" ] && have=$(stat -c %s "$scratch")
	[ "$have" -ge "$want" ] && return 0
	echo "== laying out $scratch ($scratch_size_mib MiB)"
	dd if=/dev/urandom of="$scratch" bs=1M count="$scratch_size_mib" \
		conv=fsync status=none || bench_die "cannot write '$scratch'"
}

# Prints why the zram device cannot be used, or nothing when it can.
bench_zram_unusable() {
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

# bench_prepare_zram empty|data: sizes the device when it is unset; "empty"
# discards the part the runs use (reads cost the device almost nothing),
# "data" fills it with random data (reads copy real pages; io_uring hands
# zram reads to io-wq workers, see docs/measurement.md).
bench_prepare_zram() {
	size=$(cat "$zram_sysfs/disksize") || return 1
	if [ "$size" -eq 0 ]; then
		echo "$((scratch_size_mib))M" >"$zram_sysfs/disksize" || return 1
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

# bench_json DIR: reads one tool's JSON on stdin and prints jobs[0].DIR's
# "IOPS BW_KIB SLAT_US CLAT_US LAT_US P50_US P99_US P999_US", or nothing
# when the output is not usable.
bench_json() {
	python3 -c '
import json, sys
text = sys.stdin.read()
start = text.find("{")  # skip notices printed before or after the JSON
try:
    doc = json.JSONDecoder().raw_decode(text[start:])[0]
    d = doc["jobs"][0][sys.argv[1]]
    pct = d["clat_ns"].get("percentile", {})
    def p(key):
        return "%.3f" % (pct[key] / 1e3) if key in pct else "-"
    print("%.1f %d %.3f %.3f %.3f %s %s %s" % (d["iops"], d["bw"],
          d["slat_ns"]["mean"] / 1e3, d["clat_ns"]["mean"] / 1e3,
          d["lat_ns"]["mean"] / 1e3,
          p("50.000000"), p("99.000000"), p("99.900000")))
except Exception:
    pass
' "$1"
}

# bench_run TOOL CASE DIR OPTIONS...: one run; appends to $results and
# prints the run's IOPS. FIO_EXTRA / DB_EXTRA are added for one tool only.
bench_run() {
	tool=$1 case_name=$2 dir=$3
	shift 3
	# stderr joins stdout so that nothing is written to a file
	if [ "$tool" = fio ]; then
		# shellcheck disable=SC2086
		out=$("$fio" "$@" ${FIO_EXTRA:-} --output-format=json 2>&1)
	else
		# the bench made its scratch file, not drivebench: consent to it
		# shellcheck disable=SC2086
		out=$("$drivebench" run "$@" ${DB_EXTRA:-} --destroy-data="$scratch" \
			--no-db --output-format=json 2>&1)
	fi
	rc=$?
	line=$(printf '%s' "$out" | bench_json "$dir")
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

# bench_rounds CASE DIR OPTIONS...: RUNS runs of each tool, alternating,
# the order flipped every round so neither always runs on a warmer machine.
bench_rounds() {
	case_name=$1 dir=$2
	shift 2
	echo "== $case_name: $*"
	i=1
	while [ "$i" -le "$runs" ]; do
		if [ $((i % 2)) -eq 1 ]; then first=fio second=drivebench
		else first=drivebench second=fio; fi
		printf '  run %d  %-10s ' "$i" "$first"
		bench_run "$first" "$case_name" "$dir" "$@"
		printf '  %-10s ' "$second"
		bench_run "$second" "$case_name" "$dir" "$@"
		echo " IOPS"
		i=$((i + 1))
	done
}

# Says what each tool gets beyond the common options, when anything.
bench_extras_note() {
	[ -n "${CPUS:-}" ] && echo "both tools: --cpus_allowed=$CPUS"
	if [ -n "${FIO_EXTRA:-}${DB_EXTRA:-}" ]; then
		echo "fio also gets: ${FIO_EXTRA:-(nothing)}; drivebench also gets: ${DB_EXTRA:-(nothing)}"
		[ "${FIO_EXTRA:-}" != "${DB_EXTRA:-}" ] &&
			echo "NOTE: the tools get different options: this is not like with like"
	fi
	return 0
}
