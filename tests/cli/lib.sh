# lib.sh - helpers for command-line tests. Each check prints "ok - what" or
# "not ok - what"; tests/run.sh counts them. Source it, then call the checks.
DB=${DRIVEBENCH_BIN:-$(pwd)/build/drivebench}
TMP=$(mktemp -d /tmp/drivebench-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
export DRIVEBENCH_SCRATCH="$TMP/scratch.dat"
export DRIVEBENCH_DB="$TMP/test.db"

# a sanitizer build (make asan): memory and speed figures are not the program's
if ldd "$DB" 2>/dev/null | grep -q libasan; then ASAN_BUILD=1; else ASAN_BUILD=0; fi

ok() { echo "ok - $*"; }
# skip WHAT: a check that could not run here (tests/run.sh counts it; under
# CI=true it fails unless tests/hardware-only.txt lists it); skip_all WHY:
# the rest of the script cannot run
skip() { echo "skip - $*"; }
skip_all() { skip "$*"; exit 0; }
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

# sql DB PYTHON: runs PYTHON with c = a sqlite3 connection to DB; a failed
# assert makes it exit non-zero (use it with check)
sql() {
	python3 - "$1" "$2" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
exec(sys.argv[2])
PY
}

# whole_results DB: PRAGMA integrity_check ok, no orphan rows, every result
# with its directions and histogram bins adding up to its completions (what
# a kill -9 must leave behind)
whole_results() {
	sql "$1" '
assert c.execute("pragma integrity_check").fetchone()[0] == "ok"
assert c.execute("pragma foreign_key_check").fetchall() == []
bad = c.execute("""select count(*) from results r where
    (select count(*) from result_dirs d where d.result_id = r.id) = 0""").fetchone()[0]
assert bad == 0, "results without directions: %d" % bad
bad = c.execute("""select count(*) from result_dirs d where d.clat_n !=
    coalesce((select sum(count) from bins b where b.result_id = d.result_id
              and b.dir = d.dir), 0)""").fetchone()[0]
assert bad == 0, "directions whose bins are incomplete: %d" % bad
for t in ("result_dirs", "percentiles", "bins", "series"):
    n = c.execute("select count(*) from %s where result_id not in (select id from results)" % t).fetchone()[0]
    assert n == 0, t
'
}
