#!/bin/bash
# test_suite.sh - `drivebench suite` from the command line: quick.suite by
# name, option errors, Ctrl-C leaves a resumable run, and the resume test:
# a small suite killed with kill -9 at several moments and resumed each time
# until done is stored as one run with every step exactly once, and the
# database passes PRAGMA integrity_check.
. "$(dirname "$0")/lib.sh"

target="$TMP/target.dat"
dd if=/dev/zero of="$target" bs=1M count=64 status=none
cat > "$TMP/tiny.suite" <<'EOF'
[suite]
name = tiny

[global]
ioengine = psync
bs = 64k
time_based = 1
runtime = 300ms

[purge]
step = purge

[fill]
step = precondition
precondition = sequential
capacities = 2
bs = 128k

[steady-4k]
step = steady
rw = randwrite
bs = 4k
metric = iops
window = 3
max_rounds = 4
; never steady, so every round runs
range_limit = 0.000001

[sweep-read]
step = sweep
rw = randread
bs = 4k
points = 1/1 4/1 2/2

[rest]
step = idle
idle = 500ms

[measure-read]
step = measure
rw = read
EOF
# tiny ARGS...: runs tiny.suite on the target; exec, so that the background
# job's pid is drivebench itself (only ever called with &)
tiny() { exec "$DB" suite --suite "$TMP/tiny.suite" --destroy-data "$target" "$@" "$target"; }

# checks DB: one finished suite run with every step of tiny.suite once
check_tiny_run() {
	sql "$1" '
assert c.execute("pragma integrity_check").fetchone()[0] == "ok"
runs = c.execute("select id, source, finished_ms from runs").fetchall()
assert len(runs) == 1 and runs[0][1] == "suite" and runs[0][2] > 0, runs
steps = c.execute("select idx, name, status from steps order by idx").fetchall()
names = ["purge", "fill", "steady-4k", "sweep-read", "rest", "measure-read"]
assert [s[1] for s in steps] == names, steps
assert all(s[2] == "done" for s in steps), steps
# every point once; a resumed steady step runs a window (3) after its kept rounds
want = {"purge": 0, "fill": 1, "steady-4k": 4, "sweep-read": 3, "rest": 0, "measure-read": 1}
for idx, name, _ in steps:
    points = [p for (p,) in c.execute("select r.point from results r join steps s"
                                      " on s.id = r.step_id where s.idx = ? order by r.point", (idx,))]
    assert points == list(range(len(points))), (name, points)
    n = len(points)
    assert n == want[name] or (name == "steady-4k" and 4 <= n <= 4 + 3 * 5), (name, n)
assert c.execute("select count(*) from results where step_id is null or step_id"
                 " not in (select id from steps)").fetchone()[0] == 0
assert c.execute("select count(*) from result_dirs where result_id not in"
                 " (select id from results)").fetchone()[0] == 0
'
}

# --- options and errors ---------------------------------------------------------
expect_exit 0 "suite --help" suite --help
expect_output "--resume" "help names --resume"
expect_exit 2 "an unknown option is refused" suite --bogus "$target"
expect_exit 2 "an unknown step in --only is refused" suite --suite "$TMP/tiny.suite" \
	--db "$TMP/err.db" --only nope "$target"
expect_output "has no step 'nope'" "the unknown step is named"
expect_exit 2 "a missing suite is refused" suite --suite "$TMP/none.suite" --db "$TMP/err.db" "$target"
expect_exit 2 "resume without a run is refused" suite --resume --db "$TMP/nothing.db" "$target"
expect_output "nothing to resume" "resume says there is nothing to resume"
expect_exit 3 "writing over a file drivebench did not create needs consent" \
	suite --suite "$TMP/tiny.suite" --db "$TMP/err.db" --only purge "$target"

# --- quick.suite by name, on the default scratch file ---------------------------------
expect_exit 0 "quick.suite runs by name (two of its steps)" suite --suite quick \
	--db "$TMP/quick.db" --only purge,seq-read-128k
expect_output "step 2/2 seq-read-128k measure: done in" "progress log lines when not a terminal"
check "quick.suite steps stored" sql "$TMP/quick.db" '
assert [r[0] for r in c.execute("select name from steps order by idx")] == ["purge", "seq-read-128k"]
assert c.execute("select count(*) from results").fetchone()[0] == 1
'

# --- Ctrl-C leaves a resumable run -------------------------------------------------
tiny --db "$TMP/int.db" >/dev/null 2>"$TMP/int.err" &
pid=$!
sleep 1.2
start=$(date +%s%N)
kill -INT $pid
wait $pid
rc=$?
took=$((($(date +%s%N) - start) / 1000000))
if [ $rc -eq 1 ]; then ok "Ctrl-C exits 1"; else not_ok "Ctrl-C exits 1 (exit $rc)"; cat "$TMP/int.err"; fi
if [ $took -lt 1500 ]; then ok "Ctrl-C stops within a second ($took ms)"; else not_ok "Ctrl-C took $took ms"; fi
if grep -q "interrupted: resume with drivebench suite --resume" "$TMP/int.err"; then
	ok "Ctrl-C says how to resume"; else not_ok "Ctrl-C says how to resume"; cat "$TMP/int.err"; fi
expect_exit 0 "--resume without --suite finds the suite of the run" suite --resume \
	--db "$TMP/int.db" --destroy-data "$target" "$target"
check "the interrupted and resumed suite is one whole run" check_tiny_run "$TMP/int.db"
expect_exit 2 "a finished suite run cannot be resumed" suite --resume --db "$TMP/int.db" "$target"
expect_output "finished" "the refusal says the run finished"

# --- kill -9 at several moments, resume each time ------------------------------------
db="$TMP/kill.db"
killed=0
finished=0
for delay in 0.15 0.6 1.1 1.7 2.3; do
	# a kill before the run row was stored leaves nothing to resume: start
	# afresh then (a loaded machine reaches the store later)
	if [ "$(sqlite3 "$db" "SELECT count(*) FROM runs" 2>/dev/null || echo 0)" = 0 ]; then
		tiny --db "$db" >/dev/null 2>&1 &
	else tiny --db "$db" --resume >/dev/null 2>&1 & fi
	pid=$!
	sleep $delay
	if kill -0 $pid 2>/dev/null; then
		kill -9 $pid
		wait $pid 2>/dev/null
		killed=$((killed + 1))
	else
		wait $pid 2>/dev/null
		finished=1
		break
	fi
done
if [ $killed -ge 3 ]; then ok "suite killed with kill -9 $killed times"; else not_ok "only $killed kills landed"; fi
if [ $finished -eq 0 ]; then
	expect_exit 0 "the last resume completes the suite" suite --suite "$TMP/tiny.suite" \
		--destroy-data "$target" --db "$db" --resume "$target"
fi
check "after kill -9 and resume: one run, every step once, integrity ok" check_tiny_run "$db"

# the report of a suite run charts its steady-state rounds and verdict
expect_exit 0 "report of the resumed suite run" report --db "$db" --out "$TMP/suite.html"
check "the report has the steady-state section" grep -q "Steady state (SNIA PTS)" "$TMP/suite.html"
check "the report states the steady verdict" grep -q -E "steady state (reached after|<b>not reached</b>)" "$TMP/suite.html"

# --- the quick suite itself, killed with kill -9 at several moments ---------------
# (the issue's resume test: every step stored exactly once, one run,
# integrity; at a quarter of its time, --time-scale 0.25, which the resumes
# repeat, killed at the moments of it that 3, 7, 11 and 16 s were at half
# time)
qdb="$TMP/quick-kill.db"
qkilled=0
for delay in 1.5 3.5 5.5 8; do
	if [ $qkilled -eq 0 ]; then
		"$DB" suite --suite quick --time-scale 0.25 --db "$qdb" >/dev/null 2>&1 &
	else
		"$DB" suite --suite quick --time-scale 0.25 --db "$qdb" --resume >/dev/null 2>&1 &
	fi
	pid=$!
	sleep $delay
	if kill -0 $pid 2>/dev/null; then
		kill -9 $pid
		wait $pid 2>/dev/null
		qkilled=$((qkilled + 1))
	else
		wait $pid 2>/dev/null
		break
	fi
done
if [ $qkilled -ge 3 ]; then ok "quick suite killed with kill -9 $qkilled times"; else
	not_ok "only $qkilled kills of the quick suite landed"; fi
run_db suite --suite quick --time-scale 0.25 --db "$qdb" --resume
check "the last resume completes the quick suite" test "$RC" -eq 0
check "quick suite after kill -9 and resume: one run, every step once, integrity ok" sql "$qdb" '
assert c.execute("pragma integrity_check").fetchone()[0] == "ok"
runs = c.execute("select id, source, finished_ms from runs").fetchall()
assert len(runs) == 1 and runs[0][1] == "suite" and runs[0][2] > 0, runs
steps = c.execute("select idx, name, kind, status from steps order by idx").fetchall()
assert len(steps) == 24 and len({s[1] for s in steps}) == 24, steps
assert [s[0] for s in steps] == list(range(24)), steps
assert all(s[3] == "done" for s in steps), steps
for idx, name, kind, _ in steps:
    n = c.execute("select count(*) from results r join steps s on s.id = r.step_id"
                  " where s.idx = ?", (idx,)).fetchone()[0]
    assert (n == 0) == (kind in ("purge", "idle")), (name, kind, n)
assert c.execute("select count(*) from results where step_id is null").fetchone()[0] == 0
assert c.execute("select count(*) from result_dirs where result_id not in"
                 " (select id from results)").fetchone()[0] == 0
'
