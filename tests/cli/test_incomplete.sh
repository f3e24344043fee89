#!/bin/bash
# test_incomplete.sh - runs that are not whole are never shown as if whole:
# a suite killed with kill -9 in the middle of its sweep (incomplete: it
# never finished), a run stopped with Ctrl-C (partial) and a run an older
# build left unfinished; `compare`, `report` and `export` name each one in a
# warning line, the report marks it, export's JSON says "incomplete"; whole
# runs get no warning, and the suite, once resumed to its end, neither.
. "$(dirname "$0")/lib.sh"

db="$TMP/runs.db"
target="$TMP/target.dat"
dd if=/dev/zero of="$target" bs=1M count=16 status=none
cat > "$TMP/sweep.suite" <<'EOF'
[suite]
name = sweep

[global]
ioengine = psync
size = 16m
time_based = 1
runtime = 400ms

[sweep-read]
step = sweep
rw = randread
bs = 4k
points = 1/1 2/1 4/1 8/1 16/1 32/1
EOF

# results DB: how many results are stored
results() { sql "$db" 'print(c.execute("select count(*) from results").fetchone()[0])' 2>/dev/null || echo 0; }

# run 1: whole, a 4K random read at 1/1 like the suite's first point
expect_exit 0 "a whole run" run --db "$db" --ioengine=psync --rw=randread --bs=4k --size=16m \
	--time_based --runtime=300ms --filename="$target" --name=rr

# run 2: the suite, killed with kill -9 once two points are stored
"$DB" suite --suite "$TMP/sweep.suite" --db "$db" --destroy-data "$target" "$target" \
	>/dev/null 2>"$TMP/suite.err" &
pid=$!
for i in $(seq 1 200); do
	[ "$(results)" -ge 3 ] && break
	sleep 0.05
done
kill -9 $pid 2>/dev/null && killed=1 || killed=0
wait $pid 2>/dev/null
check "the suite was killed in the middle of its sweep" test $killed -eq 1
check "run 2 is a suite run that never finished, with part of its points" sql "$db" '
src, fin, n = c.execute("select source, finished_ms, (select count(*) from results"
                        " where run_id = 2) from runs where id = 2").fetchone()
assert src == "suite" and fin == 0 and 1 <= n < 6, (src, fin, n)
'

# run 3: stopped with Ctrl-C (partial)
"$DB" run --db "$db" --ioengine=psync --rw=randread --bs=4k --size=16m --time_based \
	--runtime=30s --filename="$target" --name=rr >/dev/null 2>&1 &
pid=$!
sleep 1
kill -INT $pid
wait $pid
check "run 3 was stopped early (partial)" sql "$db" '
assert c.execute("select finished_ms > 0, partial from runs where id = 3").fetchone() == (1, 1)
'

# run 4: what an older build left after a kill during its store
expect_exit 0 "a fourth run" run --db "$db" --ioengine=null --rw=randread --bs=4k --size=1m --name=rr
sql "$db" 'c.execute("update runs set finished_ms = 0 where id = 4"); c.commit()'

# --- compare -------------------------------------------------------------------
expect_exit 0 "compare two whole runs" compare --db "$db" 1 1
check "two whole runs: no warning" test -z "$(printf '%s\n%s' "$OUT" "$ERR" | grep -i 'warning\|incomplete\|partial')"

expect_exit 0 "compare a whole run with the killed suite" compare --db "$db" 1 2
expect_output "^drivebench compare: warning: B: run 2 \(suite\) is incomplete: it never finished" \
	"compare warns, naming the killed suite run"
expect_output "drivebench suite --resume continues it" "the warning says the suite can be resumed"
expect_output "^A = 1 \(run 1\), B = 2 \(run 2, INCOMPLETE\)" "the header marks B incomplete"
expect_output "^1 shared point" "the shared point is still compared"
expect_output "^warning: B holds a run that is not whole" "the table ends with the warning too"

expect_exit 0 "compare with the Ctrl-C run" compare --db "$db" 3 1
expect_output "warning: A: run 3 \(run\) is partial: it was stopped before it completed" \
	"compare warns about the partial run"
expect_output "^A = 3 \(run 3, PARTIAL\)" "the header marks A partial"

expect_exit 0 "compare with the run an older build left unfinished" compare --db "$db" 1 4
expect_output "warning: B: run 4 \(run\) is incomplete" "compare warns about the unfinished run"

# --- report ----------------------------------------------------------------------
expect_exit 0 "report of the four runs" report --db "$db" 1 2 3 4 --out "$TMP/all.html"
for r in "2 suite incomplete" "3 run partial" "4 run incomplete"; do
	set -- $r
	expect_output "drivebench report: warning: run $1 \($2\) is $3" "report warns: run $1 ($2) is $3"
done
check "the page has one warning box naming runs 2, 3 and 4" python3 - "$TMP/all.html" <<'EOF'
import re, sys
html = open(sys.argv[1]).read()
boxes = re.findall(r'<div class="warn">(.*?)</div>', html, re.S)
assert len(boxes) == 1, boxes
for r in ("run 2 (suite) is incomplete", "run 3 (run) is partial", "run 4 (run) is incomplete"):
    assert r in boxes[0], r
assert "run 1 " not in boxes[0]
assert html.index('<div class="warn">') < html.index("<table")
marks = re.findall(r'<td class="l">([^<]*)<span class="warn">(\w+)</span>', html)
assert sorted(marks) == [("run 2", "incomplete"), ("run 3", "partial"), ("run 4", "incomplete")], marks
EOF
expect_exit 0 "report of the whole run" report --db "$db" 1 --out "$TMP/one.html"
check "a whole run: no warning on standard error" test -z "$ERR"
check "a whole run: no warning on the page" test "$(grep -c 'class="warn"' "$TMP/one.html")" -eq 0

# --- export ----------------------------------------------------------------------
expect_exit 0 "export json of every run" export --db "$db" --format json
printf '%s\n' "$OUT" > "$TMP/all.json"
check "export json: \"incomplete\" for runs 2 and 4, not for 1 and 3" python3 - "$TMP/all.json" <<'EOF'
import json, sys
runs = {r["id"]: r for r in json.load(open(sys.argv[1]))}
assert {i: r["incomplete"] for i, r in runs.items()} == {1: False, 2: True, 3: False, 4: True}, runs.keys()
assert runs[3]["partial"] is True and runs[2]["finished_ms"] == 0
EOF
check "export warns once per run that is not whole" test "$(printf '%s\n' "$ERR" | grep -c '^drivebench export: warning: run [234] ')" -eq 3
expect_exit 0 "export csv of the killed suite" export --db "$db" --format csv 2
expect_output "drivebench export: warning: run 2 \(suite\) is incomplete" "csv export warns too"
expect_exit 0 "export csv of the whole run" export --db "$db" --format csv 1
check "a whole run exports without a warning" test -z "$ERR"

# --- resumed to its end, the suite is whole ------------------------------------------
expect_exit 0 "the killed suite resumes to its end" suite --resume --db "$db" \
	--destroy-data "$target" "$target"
expect_exit 0 "compare with the resumed suite" compare --db "$db" 1 2
check "the finished suite gets no warning" test -z "$(printf '%s\n%s' "$OUT" "$ERR" | grep -i 'warning\|incomplete')"
