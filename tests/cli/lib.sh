# lib.sh - helpers for command-line tests. Each check prints "ok - what" or
# "not ok - what"; tests/run.sh counts them. Source it, then call the checks.
DB=${DRIVEBENCH_BIN:-$(pwd)/build/drivebench}
TMP=$(mktemp -d /tmp/drivebench-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
export DRIVEBENCH_SCRATCH="$TMP/scratch.dat"
export DRIVEBENCH_DB="$TMP/test.db"

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; }

# run_db ARGS...: runs drivebench; standard output in $OUT, standard error
# in $ERR, exit code in $RC.
run_db() {
	OUT=$(timeout 120 "$DB" "$@" 2>"$TMP/stderr")
	RC=$?
	ERR=$(cat "$TMP/stderr")
}

# expect_exit CODE WHAT ARGS...
expect_exit() {
	code=$1; what=$2; shift 2
	run_db "$@"
	if [ "$RC" -eq "$code" ]; then ok "$what"; else
		not_ok "$what (exit $RC, wanted $code)"; printf '%s\n%s\n' "$OUT" "$ERR" | head -20; fi
}

# expect_output PATTERN WHAT: grep -E PATTERN in the last $OUT and $ERR
expect_output() {
	if printf '%s\n%s\n' "$OUT" "$ERR" | grep -q -E -- "$1"; then ok "$2"; else
		not_ok "$2 (no /$1/ in output)"; printf '%s\n%s\n' "$OUT" "$ERR" | head -20; fi
}

# check WHAT COMMAND...: passes when the command succeeds
check() {
	what=$1; shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}
