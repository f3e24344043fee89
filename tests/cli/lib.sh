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

# CKPT_STRACE: strace's options for ckpt_truncations: every ftruncate and
# fallocate, the writes (the progress lines on stderr), and what creates,
# removes or renames a file, each descriptor with its path (-y)
# (LeakSanitizer cannot work under ptrace: a traced run of a sanitizer
# build checks no leaks, STRACE_ENV)
STRACE_ENV="-E ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
CKPT_STRACE="$STRACE_ENV -f -y -qq -s 200 -e trace=ftruncate,fallocate,write,open,openat,creat,unlink,unlinkat,rename,renameat,renameat2"

# ckpt_truncations TRACE FILES [same-files]: TRACE is a checkpoint run (the
# command, or a suite's checkpoint step) under strace $CKPT_STRACE; a
# checkpoint's calls are those before its progress line ("pass P
# checkpoint I/N", the command's or the suite log's). Passes when each
# checkpoint of pass 1 created its FILES files (O_EXCL) and truncated
# none, each checkpoint of a later pass truncated each of its FILES files
# to 0 once (ftruncate(fd, 0)) and sized none, no checkpoint file was
# ever extended or allocated before its writes (no ftruncate to a size,
# no fallocate), and at least one later-pass checkpoint was traced; with
# same-files also no checkpoint file created (O_EXCL) after pass 1, nor
# any removed or renamed. Prints what differs, and a summary.
ckpt_truncations() {
	python3 - "$1" "$2" "${3:-}" <<'PY'
import re, sys
trace, files, same = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "same-files"
calls, pending = [], {}
for line in open(trace, errors="replace"):
    m = re.match(r"(\d+) +(.*)$", line.rstrip("\n"))
    if not m:
        continue
    pid, rest = m.groups()
    if rest.endswith("<unfinished ...>"):
        pending[pid] = rest[:-len("<unfinished ...>")]
        continue
    r = re.match(r"<\.\.\. \w+ resumed>(.*)$", rest)
    if r:
        rest = pending.pop(pid, "") + r.group(1)
    calls.append(rest)
bad, done = [], []
truncated, created = {}, set()   # since the last progress line
for c in calls:
    f = re.match(r"ftruncate\(\d+<([^>]*/ckpt-[^>]*)>, (\d+)\) += 0", c)
    if f:
        truncated.setdefault(f.group(1), []).append(int(f.group(2)))
        continue
    if re.match(r"fallocate\(\d+<[^>]*/ckpt-", c):
        bad.append("a checkpoint file allocated before its writes: " + c)
        continue
    o = re.match(r"(?:open|openat|creat)\(.*?\"([^\"]*/ckpt-[^\"]*)\".*O_EXCL.*= \d+", c)
    if o:
        created.add(o.group(1))
        continue
    if re.match(r"(unlink|unlinkat|rename|renameat|renameat2)\(.*/ckpt-.*= 0", c):
        if same:
            bad.append("a checkpoint file removed or renamed: " + c)
        continue
    w = re.match(r"write\(2<[^>]*>, \".*?pass (\d+) checkpoint (\d+)/(\d+):", c)
    if not w:
        continue
    p, i = int(w.group(1)), int(w.group(2))
    done.append((p, i))
    where = "pass %d checkpoint %d" % (p, i)
    if p == 1 and len(created) < files:
        bad.append("%s: %d files created, not %d" % (where, len(created), files))
    if p > 1 and len(truncated) != files:
        bad.append("%s: %d files truncated, not %d" % (where, len(truncated), files))
    for path, seq in sorted(truncated.items()):
        if seq != ([] if p == 1 else [0]):
            bad.append("%s: %s: ftruncate sizes %s" % (where, path, seq))
    if same and p > 1 and created:
        bad.append("%s: files created again: %s" % (where, sorted(created)[0]))
    truncated, created = {}, set()
later = sum(1 for p, _ in done if p > 1)
for b in bad[:10]:
    print("#", b)
print("# %d checkpoints traced (%d of a later pass), %d findings" % (len(done), later, len(bad)))
sys.exit(0 if done and later and not bad else 1)
PY
}
