#!/bin/sh
# Runs every unit test binary and every command-line test script, then prints
# one closing line "N passed, N failed". Exit status 1 when anything failed.
# Usage: tests/run.sh BUILD_DIR [PATTERN]
build=${1:-build}
pattern=${2:-}
passed=0
failed=0
failures=""
log=$(mktemp)
export DRIVEBENCH_BIN="$(cd "$build" && pwd)/drivebench"

count() { # file: counts cmocka and cli result lines
	p=$(grep -c -E '^\[       OK \]|^ok - ' "$1")
	f=$(grep -c -E '^\[  FAILED  \] [a-z_]|^not ok - ' "$1")
	echo "$p $f"
}

for t in "$build"/tests/test_* tests/cli/test_*.sh; do
	[ -e "$t" ] || continue
	case "$t" in *.d|*.o) continue ;; esac
	[ -n "$pattern" ] && ! echo "$t" | grep -q "$pattern" && continue
	case "$t" in
	*.sh) timeout 600 bash "$t" >"$log" 2>&1; rc=$? ;;
	*) timeout 600 "$t" >"$log" 2>&1; rc=$? ;;
	esac
	set -- $(count "$log")
	p=$1; f=$2
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi  # crash or abort
	passed=$((passed + p)); failed=$((failed + f))
	if [ "$f" -ne 0 ]; then
		failures="$failures $t"
		echo "--- FAIL: $t (exit $rc)"
		tail -n 40 "$log"
	else
		echo "--- ok: $t ($p)"
	fi
done
rm -f "$log"
[ -n "$failures" ] && echo "failing:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
