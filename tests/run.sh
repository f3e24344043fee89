#!/bin/sh
# Runs every unit test binary and every command-line test script, then prints
# one closing line "N passed, N failed, N skipped". Exit status 1 when
# anything failed. With CI=true a skipped test fails the run too, unless
# tests/hardware-only.txt lists it (tests that need hardware CI does not
# have: an NVMe device with poll queues, a GPU); see docs/testing.md.
# Usage: tests/run.sh BUILD_DIR [PATTERN]
build=${1:-build}
pattern=${2:-}
passed=0
failed=0
skipped=0
failures=""
log=$(mktemp)
allowed_list="$(dirname "$0")/hardware-only.txt"
export DRIVEBENCH_BIN="$(cd "$build" && pwd)/drivebench"

# skips TEST LOG: the skipped tests' lines, once each (cmocka prints a
# skipped test twice: when it skips and in its closing list)
skips() {
	{
		grep -E '^\[  SKIPPED \] [a-z_]' "$2" | sort -u
		grep -E '^skip - ' "$2"
	}
}

# allowed TEST LINE: the skip is on the hardware-only list
allowed() {
	name=$(basename "$1")
	grep -v '^#' "$allowed_list" 2>/dev/null | while IFS='|' read -r test what; do
		what=$(echo "$what" | sed 's/^ *//; s/ *$//')
		test=$(echo "$test" | sed 's/ *$//')
		[ "$test" = "$name" ] && printf '%s\n' "$2" | grep -q -F -- "$what" && echo yes
	done | grep -q yes
}

for t in "$build"/tests/test_* tests/cli/test_*.sh; do
	[ -e "$t" ] || continue
	case "$t" in *.d|*.o) continue ;; esac
	[ -n "$pattern" ] && ! echo "$t" | grep -q "$pattern" && continue
	case "$t" in
	*.sh) timeout 600 bash "$t" >"$log" 2>&1; rc=$? ;;
	*) timeout 600 "$t" >"$log" 2>&1; rc=$? ;;
	esac
	p=$(grep -c -E '^\[       OK \]|^ok - ' "$log")
	f=$(( $(grep -E '^\[  FAILED  \] [a-z_]' "$log" | sort -u | wc -l) +
	      $(grep -c -E '^not ok - ' "$log") ))
	s=$(skips "$t" "$log" | wc -l)
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi  # crash or abort
	if [ "${CI:-}" = true ] && [ "$s" -gt 0 ]; then
		skips "$t" "$log" >"$log.skips"
		while IFS= read -r line; do
			allowed "$t" "$line" && continue
			echo "--- skipped in CI (not hardware-only): $t: $line"
			f=$((f + 1))
		done <"$log.skips"
		rm -f "$log.skips"
	fi
	passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
	if [ "$f" -ne 0 ]; then
		failures="$failures $t"
		echo "--- FAIL: $t (exit $rc)"
		tail -n 40 "$log"
	elif [ "$s" -ne 0 ]; then
		echo "--- ok: $t ($p, $s skipped)"
	else
		echo "--- ok: $t ($p)"
	fi
done
rm -f "$log"
[ -n "$failures" ] && echo "failing:$failures"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
