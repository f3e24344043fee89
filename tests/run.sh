#!/bin/sh
# Runs every unit test binary and every command-line test script, then prints
# one closing line "N passed, N failed, N skipped". Exit status 1 when
# anything failed. With CI=true a skipped test fails the run too, unless
# tests/hardware-only.txt lists it (tests that need hardware CI does not
# have: an NVMe device with poll queues, a GPU); see docs/testing.md.
# TEST_JOBS=N runs N tests at a time (default 2, the CI machine's cores; 1
# runs them one after the other), except those tests/alone.txt lists, which
# run with no other test beside them, one after the other once every other
# test has ended (one wait for the others to end, not one before each);
# each test's lines are printed in that order whatever TEST_JOBS is, once
# it and every test before it have ended.
# TEST_LEAVE_OUT=FILE leaves out the tests FILE lists (`make asan`:
# tests/asan-leave-out.txt) and names them at the end; they are neither
# passed nor skipped.
# Usage: tests/run.sh BUILD_DIR [PATTERN]
build=${1:-build}
pattern=${2:-}
jobs=${TEST_JOBS:-2}
case "$jobs" in ''|*[!0-9]*|0) echo "tests/run.sh: TEST_JOBS=$jobs is not a count" >&2; exit 2 ;; esac
passed=0
failed=0
skipped=0
failures=""
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
allowed_list="$(dirname "$0")/hardware-only.txt"
alone_list="$(dirname "$0")/alone.txt"
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

# alone TEST: tests/alone.txt lists it
alone() {
	name=$(basename "$1")
	grep -v '^#' "$alone_list" 2>/dev/null | sed 's/ *|.*//' | grep -q -x -F -- "$name"
}

# start N TEST: runs TEST in the background, its output in $work/N.log and
# then its exit status in $work/N.rc; $work/N.running while it runs
start() {
	: >"$work/$1.running"
	date +%s >"$work/$1.start"
	(
		case "$2" in
		*.sh) timeout 600 bash "$2" >"$work/$1.log" 2>&1 </dev/null; rc=$? ;;
		*) timeout 600 "$2" >"$work/$1.log" 2>&1 </dev/null; rc=$? ;;
		esac
		secs=$(( $(date +%s) - $(cat "$work/$1.start") ))
		echo "$rc $secs" >"$work/$1.rc.tmp" && mv "$work/$1.rc.tmp" "$work/$1.rc"
		rm -f "$work/$1.running"
	) &
}

# running: how many tests run now
running() {
	set -- "$work"/*.running
	[ -e "$1" ] && echo $# || echo 0
}

# report TEST LOG RC SECONDS: counts TEST's checks in LOG and prints its
# line, with how long it ran (to keep the whole run within CI's budget)
report() {
	t=$1 log=$2 rc=$3 secs=$4
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
		echo "--- FAIL: $t (exit $rc, ${secs}s)"
		# the failed checks with what they printed, wherever they are in
		# the log (a check early in a long test is past its tail), then
		# the tail (a crash's last words)
		grep -n -A 12 -E '^not ok - |^\[  FAILED  \] ' "$log" | head -n 120
		echo "--- the last 40 lines of $t:"
		tail -n 40 "$log"
	elif [ "$s" -ne 0 ]; then
		echo "--- ok: $t ($p, $s skipped, ${secs}s)"
	else
		echo "--- ok: $t ($p, ${secs}s)"
	fi
}

# left_out TEST: TEST_LEAVE_OUT's file lists it
left_out() {
	[ -n "${TEST_LEAVE_OUT:-}" ] || return 1
	grep -v '^#' "$TEST_LEAVE_OUT" | sed 's/ *|.*//' | grep -q -x -F -- "$(basename "$1")"
}
if [ -n "${TEST_LEAVE_OUT:-}" ] && [ ! -r "$TEST_LEAVE_OUT" ]; then
	echo "tests/run.sh: TEST_LEAVE_OUT=$TEST_LEAVE_OUT cannot be read" >&2; exit 2
fi

# the tests, in order, one a line in $work/list: those that share the
# machine, then those of tests/alone.txt ($work/alone until then)
left=""
: >"$work/alone"
for t in "$build"/tests/test_* tests/cli/test_*.sh tests/nvme/test_*.sh; do
	[ -e "$t" ] || continue
	case "$t" in *.d|*.o) continue ;; esac
	[ -n "$pattern" ] && ! echo "$t" | grep -q "$pattern" && continue
	if left_out "$t"; then left="$left $(basename "$t")"; continue; fi
	if alone "$t"; then printf '%s\n' "$t" >>"$work/alone"; continue; fi
	printf '%s\n' "$t"
done >"$work/list"
cat "$work/alone" >>"$work/list"
total=$(wc -l <"$work/list")

# start tests in order while fewer than $jobs run (a test of
# tests/alone.txt once none runs, and none beside it); report them in order
next=1
done_n=1
solo=0
while [ "$done_n" -le "$total" ]; do
	[ "$solo" -ne 0 ] && [ -e "$work/$solo.rc" ] && solo=0
	while [ "$solo" -eq 0 ] && [ "$next" -le "$total" ] && [ "$(running)" -lt "$jobs" ]; do
		t=$(sed -n "${next}p" "$work/list")
		if alone "$t"; then
			[ "$(running)" -eq 0 ] || break
			solo=$next
		fi
		start "$next" "$t"
		next=$((next + 1))
	done
	if [ -e "$work/$done_n.rc" ]; then
		report "$(sed -n "${done_n}p" "$work/list")" "$work/$done_n.log" $(cat "$work/$done_n.rc")
		rm -f "$work/$done_n.log"
		done_n=$((done_n + 1))
		continue
	fi
	sleep 0.1
done
wait
[ -n "$failures" ] && echo "failing:$failures"
[ -n "$left" ] && echo "left out ($TEST_LEAVE_OUT; make check runs them):$left"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
