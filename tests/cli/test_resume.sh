#!/bin/bash
# test_resume.sh - `suite --resume` keeps completed work: a suite is killed
# with kill -9 in the middle of its multi-point steps (steady rounds, sweep
# points) several times and resumed each time. Every point stored before a
# kill must still be there after the resumes, the same rows (ids, figures),
# and the finished run must hold every point exactly once.
. "$(dirname "$0")/lib.sh"

target="$TMP/target.dat"
db="$TMP/resume.db"
dd if=/dev/zero of="$target" bs=1M count=32 status=none
cat > "$TMP/points.suite" <<'EOF'
[suite]
name = points

[global]
ioengine = psync
size = 32m
time_based = 1
runtime = 300ms

[fill]
step = precondition
precondition = sequential
capacities = 1
bs = 1m

[steady-4k]
step = steady
rw = randwrite
bs = 4k
metric = iops
window = 3
max_rounds = 6
; never steady, so every round runs
range_limit = 0.000001

[sweep-read]
step = sweep
rw = randread
bs = 4k
; 24 points: three kills, each after three more points, must fit before
; the suite ends even when a resume's first points run slowly
points = 1/1 2/1 4/1 8/1 16/1 32/1 1/2 2/2 4/2 8/2 16/2 32/2 1/4 2/4 4/4 8/4 16/4 32/4 1/3 2/3 4/3 8/3 16/3 32/3

[measure-read]
step = measure
rw = read
EOF

suite_bg() {
	"$DB" suite --suite "$TMP/points.suite" --db "$db" --destroy-data "$target" "$@" \
		"$target" >/dev/null 2>>"$TMP/suite.err" &
	pid=$!
}

# points: results stored in the steady and sweep steps
points() {
	sql "$db" 'print(c.execute("""select count(*) from results r join steps s on s.id = r.step_id
    where s.kind in ("steady", "sweep")""").fetchone()[0])' 2>/dev/null || echo 0
}

# ready N: at least N such points are stored and the running step is a
# steady or sweep step with a point stored (a kill now cuts it)
ready() {
	sql "$db" '
n = c.execute("""select count(*) from results r join steps s on s.id = r.step_id
    where s.kind in ("steady", "sweep")""").fetchone()[0]
r = c.execute("""select count(*) from steps s where s.status = "running"
    and s.kind in ("steady", "sweep") and exists (select 1 from results where step_id = s.id)""").fetchone()[0]
assert n >= '"$1"' and r == 1
' 2>/dev/null
}

# snapshot FILE: every stored result as a row of its figures
snapshot() {
	sql "$db" '
import json
rows = c.execute("""select r.id, s.idx, r.point, r.job_name, r.runtime_ns,
    (select group_concat(d.dir || ":" || d.ios || ":" || d.bytes || ":" || d.iops || ":" || d.lat_mean, ",")
     from result_dirs d where d.result_id = r.id),
    (select count(*) from bins b where b.result_id = r.id)
    from results r join steps s on s.id = r.step_id order by r.id""").fetchall()
json.dump([list(r) for r in rows], open("'"$1"'", "w"))
'
}

# kept FILE: every row of the snapshot FILE is in the database as it was
kept() {
	sql "$db" '
import json
old = json.load(open("'"$1"'"))
rows = c.execute("""select r.id, s.idx, r.point, r.job_name, r.runtime_ns,
    (select group_concat(d.dir || ":" || d.ios || ":" || d.bytes || ":" || d.iops || ":" || d.lat_mean, ",")
     from result_dirs d where d.result_id = r.id),
    (select count(*) from bins b where b.result_id = r.id)
    from results r join steps s on s.id = r.step_id order by r.id""").fetchall()
now = {r[0]: list(r) for r in rows}
lost = [r for r in old if now.get(r[0]) != r]
assert not lost, "lost or changed: %s" % lost[:3]
'
}

# --- kill -9 in the middle of the multi-point steps, resume, again ------------------
kills=0
in_steps=0
kept_points=0
stored=0
finished=0
for round in 1 2 3 4 5 6; do
	if [ $round -eq 1 ]; then suite_bg; else suite_bg --resume; fi
	# wait for three more points than the kill before left (a resumed
	# steady step runs a window of 3 rounds), then a random moment
	for i in $(seq 1 400); do
		ready $((stored + 3)) && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.05
	done
	ms=$((RANDOM % 300))
	sleep "0.$(printf '%03d' $ms)"
	if ! kill -9 $pid 2>/dev/null; then
		wait $pid 2>/dev/null
		finished=1
		break
	fi
	wait $pid 2>/dev/null
	kills=$((kills + 1))
	stored=$(points)
	snapshot "$TMP/snap-$kills.json"
	# the step that was cut: a steady or sweep step, with points stored
	n=$(sql "$db" 'r = c.execute("""select s.kind, (select count(*) from results
    where step_id = s.id) from steps s where s.status = "running" """).fetchone()
print(r[1] if r and r[0] in ("steady", "sweep") else 0)')
	if [ "$n" -gt 0 ]; then in_steps=$((in_steps + 1)); kept_points=$((kept_points + n)); fi
	echo "# kill $kills after $ms ms more: $n point(s) of the cut step stored"
	for k in $(seq 1 $kills); do
		kept "$TMP/snap-$k.json" || not_ok "kill $kills: rows stored before kill $k were lost"
	done
done
echo "# $kills kills, $in_steps inside a steady or sweep step with $kept_points point(s) stored there"
check "killed $kills times, $in_steps of them inside a multi-point step with points stored" \
	test "$kills" -ge 3 -a "$in_steps" -ge 3
if [ $finished -eq 0 ]; then
	expect_exit 0 "the last resume completes the suite" suite --suite "$TMP/points.suite" \
		--destroy-data "$target" --db "$db" --resume "$target"
fi
check "resumes said what they kept" grep -q "keeping its [0-9]* completed point" "$TMP/suite.err"
for k in $(seq 1 $kills); do
	check "after the last resume: every row stored before kill $k is there as it was" \
		kept "$TMP/snap-$k.json"
done
check "one finished run, every step done, integrity ok" sql "$db" '
assert c.execute("pragma integrity_check").fetchone()[0] == "ok"
runs = c.execute("select finished_ms, partial from runs").fetchall()
assert len(runs) == 1 and runs[0][0] > 0 and runs[0][1] == 0, runs
steps = c.execute("select name, status from steps order by idx").fetchall()
assert steps == [("fill", "done"), ("steady-4k", "done"), ("sweep-read", "done"),
                 ("measure-read", "done")], steps
'
check "every sweep point exactly once, at its point" sql "$db" '
rows = c.execute("""select r.point, r.iodepth, r.numjobs from results r join steps s
    on s.id = r.step_id where s.name = "sweep-read" order by r.point""").fetchall()
want = [(p, q, j) for p, (q, j) in enumerate((q, j) for j in (1, 2, 4, 3) for q in (1, 2, 4, 8, 16, 32))]
assert rows == want, rows
'
check "every steady round exactly once, numbered on, at least max_rounds" sql "$db" '
rows = c.execute("""select r.point, r.job_name from results r join steps s
    on s.id = r.step_id where s.name = "steady-4k" order by r.point""").fetchall()
assert len(rows) >= 6, rows
assert rows == [(i, "steady-4k-round%d" % (i + 1)) for i in range(len(rows))], rows
import json
d = json.loads(c.execute("select detail from steps where name = \"steady-4k\"").fetchone()[0])
assert len(d["rounds"]) == len(rows) and d["reached"] is False, d
assert 0 <= d["window_start"] <= len(rows) - 3, d
'
check "one fill and one measure" sql "$db" '
for name in ("fill", "measure-read"):
    n = c.execute("select count(*) from results r join steps s on s.id = r.step_id"
                  " where s.name = ?", (name,)).fetchone()[0]
    assert n == 1, (name, n)
'
check "integrity ok, whole results only" whole_results "$db"
