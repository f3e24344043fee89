#!/bin/sh
# run.sh - runs every libFuzzer target of BUILD/fuzz for SECONDS each, one
# after another, from a copy of its seed corpus (tests/fuzz/corpus/NAME) in
# BUILD/fuzz-work, so the repository's corpus only grows when merged on
# purpose (docs/fuzzing.md). Prints one line per target: executions,
# seconds, crashes and coverage; exits 1 when any target found a crash.
# FUZZ_RESUME=1 keeps what an earlier run grew in the work corpus.
# Usage: tests/fuzz/run.sh BUILD SECONDS [TARGET...]
set -u
build=${1:?usage: run.sh BUILD SECONDS [TARGET...]}
seconds=${2:-60}
shift 2 2>/dev/null || shift $#
targets=${*:-jobfile suite options fio_import}
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$build" && pwd)
work=$build/fuzz-work
failed=0

# max_len per target: text parsers get small inputs, the importer whole
# fio JSON files (json+ output with bins runs to tens of KiB).
max_len() {
	case "$1" in
	fio_import) echo 65536 ;;
	*) echo 4096 ;;
	esac
}

# The options dictionary: every quoted option name in options.c, so new
# options are fuzzed without editing a list, plus tests/fuzz/NAME.dict.
make_dict() {
	dict=$work/$1.dict
	: >"$dict"
	if [ "$1" != fio_import ]; then
		sed -n '/option_table\[\] = {/,/^};/p' "$repo/src/workload/options.c" |
			grep -o '"[a-z_0-9]*"' | sort -u >>"$dict"
	fi
	[ -f "$repo/tests/fuzz/$1.dict" ] && cat "$repo/tests/fuzz/$1.dict" >>"$dict"
	echo "$dict"
}

printf '%-12s %12s %8s %8s %10s %10s\n' target executions seconds crashes cov ft
for t in $targets; do
	bin=$build/fuzz/fuzz_$t
	[ -x "$bin" ] || { echo "run.sh: no $bin (make fuzz builds it)" >&2; exit 2; }
	[ "${FUZZ_RESUME:-0}" = 1 ] || rm -rf "$work/$t"
	rm -rf "$work/$t.artifacts"
	mkdir -p "$work/$t" "$work/$t.artifacts"
	cp "$repo/tests/fuzz/corpus/$t"/* "$work/$t"/ 2>/dev/null
	log=$work/$t.log
	start=$(date +%s)
	"$bin" -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout=5 \
		-rss_limit_mb=2048 -print_final_stats=1 -dict="$(make_dict "$t")" \
		-artifact_prefix="$work/$t.artifacts/" "$work/$t" >"$log" 2>&1
	rc=$?
	took=$(( $(date +%s) - start ))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
	cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
	crashes=$(ls "$work/$t.artifacts" | wc -l)
	[ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ] && crashes=1
	printf '%-12s %12s %8s %8s %10s %10s\n' "$t" "${execs:-?}" "$took" "$crashes" \
		"${cov:-?}" "${ft:-?}"
	if [ "$crashes" -ne 0 ]; then
		failed=1
		echo "  $t: see $log and $work/$t.artifacts/" >&2
	fi
done
exit $failed
