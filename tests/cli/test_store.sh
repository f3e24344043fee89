#!/bin/bash
# test_store.sh - the results database from the command line: `run --db`
# records runs, kill -9 in the middle of a batch of stores leaves a database
# that passes PRAGMA integrity_check with whole results only, a run killed
# while it is stored (or failing to store) is absent or whole, and `export`
# writes JSON and CSV and rejects a missing database or an unknown run.
. "$(dirname "$0")/lib.sh"

db="$TMP/results.db"

# A job file with many small jobs: each run stores one result per job, one
# transaction each, so a kill lands between or inside those transactions.
{
	printf '[global]\nioengine=null\nrw=randrw\nbs=4k\nsize=256k\n'
	for i in $(seq 1 150); do printf '[job%d]\n' "$i"; done
} > "$TMP/many.fio"

# --- a whole run is recorded --------------------------------------------------
expect_exit 0 "run --db records a run" run --db "$db" --ioengine=null --rw=randread \
	--bs=4k --size=1m --name=first
expect_output "stored in .* as run 1" "run names the stored run"
check "the run has one result with both directions" sql "$db" '
assert c.execute("select count(*) from results").fetchone()[0] == 1
assert c.execute("select count(*) from result_dirs").fetchone()[0] == 2
assert c.execute("select ios from result_dirs where dir = \"read\"").fetchone()[0] == 256
'

# --- crash during a batch of stores ------------------------------------------
# time one whole run first, so the kills spread over it however fast this
# build is (a sanitizer build is several times slower)
t0=$(date +%s%N)
"$DB" run --db "$db" "$TMP/many.fio" >/dev/null 2>&1
span=$((($(date +%s%N) - t0) / 1000000))
[ "$span" -ge 20 ] || span=20
killed=0
for i in $(seq 1 20); do
	"$DB" run --db "$db" "$TMP/many.fio" >/dev/null 2>&1 &
	pid=$!
	# 5% .. 95% of a run: from before the first store to the last ones
	ms=$((span * (5 + RANDOM % 91) / 100))
	sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
	if kill -9 "$pid" 2>/dev/null; then killed=$((killed + 1)); fi
	wait "$pid" 2>/dev/null
done
echo "# $killed of 20 runs killed"
check "some runs were killed before they ended" test "$killed" -gt 0

check "after kill -9: integrity_check ok, only whole results" whole_results "$db"
check "after kill -9: every result has both directions and all its percentiles" sql "$db" '
results = c.execute("select count(*) from results").fetchone()[0]
assert results > 1, results
bad = c.execute("""select count(*) from results r where
    (select count(*) from result_dirs d where d.result_id = r.id) != 2""").fetchone()[0]
assert bad == 0, "results without their directions: %d" % bad
# the same percentile list for every job: 2 dirs x clat/lat
counts = set(n for (n,) in c.execute("""select count(p.pct) from results r
    left join percentiles p on p.result_id = r.id group by r.id"""))
assert len(counts) == 1 and counts.pop() > 0, counts
'
check "a killed run is absent or whole: never part of its results" sql "$db" '
for run, fin, n in c.execute("""select r.id, r.finished_ms,
    (select count(*) from results where run_id = r.id) from runs r where id > 1"""):
    assert fin > 0 and n == 150, (run, fin, n)
'

# --- kill -9 while the run is being stored ----------------------------------------
# `run` writes its summary (--output FILE, closed before the store) and then
# stores the run: a kill after the summary is complete and before the exit
# lands in the store. The old code left such runs unfinished with part of
# their results; now the store is one transaction.
# NJOBS results a run: 400; 200 under the sanitizers, whose store of a run
# grows faster than its count of results (each result's JSON sums its
# group): 200 take them longer to store (about 1.7 s) than 400 take the
# plain build (about 0.8 s), so the window the kills aim at is no narrower,
# and each run and its store take half the time or less
NJOBS=400
[ "$ASAN_BUILD" = 1 ] && NJOBS=200
{
	printf '[global]\nioengine=null\nrw=randread\nbs=4k\nsize=64k\n'
	for i in $(seq 1 $NJOBS); do printf '[job%d]\n' "$i"; done
} > "$TMP/more.fio"
sdb="$TMP/store-kill.db"
# the ms from a run's summary being complete to its exit (the store) is
# measured on one whole run first, in $window
summary_done() { [ -s "$TMP/sum.txt" ] && grep -q "^job$NJOBS" "$TMP/sum.txt"; }
"$DB" run --db "$sdb" "$TMP/more.fio" --output "$TMP/sum.txt" >/dev/null 2>&1 &
pid=$!
until summary_done || ! kill -0 $pid 2>/dev/null; do sleep 0.002; done
t0=$(date +%s%N)
wait $pid
window=$((($(date +%s%N) - t0) / 1000000))
echo "# storing $NJOBS results took about $window ms"
in_store=0
for i in $(seq 1 12); do
	rm -f "$TMP/sum.txt"
	"$DB" run --db "$sdb" "$TMP/more.fio" --output "$TMP/sum.txt" >/dev/null 2>&1 &
	pid=$!
	until summary_done || ! kill -0 $pid 2>/dev/null; do sleep 0.002; done
	ms=$((RANDOM % (window > 2 ? window - 1 : 1)))
	sleep "0.$(printf '%03d' $ms)"
	if kill -9 $pid 2>/dev/null; then in_store=$((in_store + 1)); fi
	wait $pid 2>/dev/null
done
echo "# $in_store of 12 kills landed while the run was being stored"
check "kills landed during the store ($in_store of 12)" test "$in_store" -ge 3
check "after kills during the store: integrity ok, whole results" whole_results "$sdb"
check "after kills during the store: every run whole ($NJOBS results, ended), no partial run" sql "$sdb" '
rows = c.execute("""select r.id, r.finished_ms, (select count(*) from results
    where run_id = r.id) from runs r""").fetchall()
assert rows, rows
for run, fin, n in rows:
    assert fin > 0 and n == '"$NJOBS"', (run, fin, n)
assert c.execute("select count(*) from results where run_id not in (select id from runs)").fetchone()[0] == 0
'

# --- a failure while storing: nothing of the run is stored -----------------------
fdb="$TMP/store-fail.db"
expect_exit 0 "a first run to keep" run --db "$fdb" --ioengine=null --size=1m --name=keep
sql "$fdb" '
c.execute("""create trigger fail_job120 before insert on results when new.job_name = "job120"
    begin select raise(abort, "injected failure"); end""")
c.commit()'
expect_exit 1 "a store failure after 119 results exits 1" run --db "$fdb" "$TMP/many.fio"
expect_output "nothing stored: .*injected failure .*job120" "the failure says nothing was stored and why"
check "the failed run left no run and no result" sql "$fdb" '
assert c.execute("select count(*) from runs").fetchone()[0] == 1
assert c.execute("select count(*) from results").fetchone()[0] == 1
assert c.execute("select count(*) from steps").fetchone()[0] == 1
'
expect_exit 0 "the database still takes runs after the crashes" run --db "$db" \
	--ioengine=null --rw=write --bs=64k --size=1m --name=after

# --- export ------------------------------------------------------------------------
expect_exit 0 "export --format json" export --db "$db" --format json 1
echo "$OUT" > "$TMP/export.json"
check "export json parses and has the run's figures" python3 -c '
import json, sys
runs = json.load(open(sys.argv[1]))
assert len(runs) == 1 and runs[0]["id"] == 1
r = runs[0]["results"][0]
assert r["job"] == "first" and r["rw"] == "randread" and r["bs"] == 4096
assert r["read"]["ios"] == 256 and r["read"]["bytes"] == 1048576
assert r["read"]["clat"]["percentiles"]["99.000000"] > 0
assert r["write"]["ios"] == 0
assert r["options"]["rw"] == "randread"
' "$TMP/export.json"

run_db export --db "$db" --format json
echo "$OUT" > "$TMP/all.json"
check "export json without RUN has every run" python3 -c '
import json, sqlite3, sys
runs = json.load(open(sys.argv[1]))
n = sqlite3.connect(sys.argv[2]).execute("select count(*) from runs").fetchone()[0]
assert len(runs) == n, (len(runs), n)
' "$TMP/all.json" "$db"

expect_exit 0 "export --format csv" export --db "$db" --format=csv 1
check "csv has the header" test "$(echo "$OUT" | head -1)" = \
	"run_id,label,job,rw,bs,iodepth,numjobs,dir,ios,bytes,runtime_ms,iops,bw_bytes,lat_mean_ns,clat_p99_ns,clat_p99_9_ns,clat_p99_99_ns"
check "csv has one row for the randread job" test "$(echo "$OUT" | wc -l)" -eq 2
expect_output "^1,,first,randread,4096,1,1,read,256,1048576," "csv row values"
check "csv p99 fields are numbers" python3 -c '
import csv, io, sys
rows = list(csv.DictReader(io.StringIO(sys.argv[1])))
assert int(rows[0]["clat_p99_ns"]) > 0 and int(rows[0]["clat_p99_99_ns"]) >= int(rows[0]["clat_p99_ns"])
assert float(rows[0]["iops"]) > 0
' "$OUT"

last=$(sql "$db" 'print(c.execute("select max(id) from runs").fetchone()[0])')
expect_exit 0 "export csv of a mixed run" export --db "$db" --format csv "$last"
expect_output ",after,write,65536,1,1,write,16," "write job exports its write direction"

expect_exit 2 "unknown run id" export --db "$db" --format csv 1 9999
expect_output "no run 9999" "the unknown run is named"
expect_exit 2 "missing database" export --db "$TMP/none.db" --format json
expect_output "none.db" "the missing database is named"
check "export did not create the missing database" test ! -e "$TMP/none.db"
expect_exit 2 "format is required" export --db "$db"
expect_exit 2 "unknown format" export --db "$db" --format xml
expect_exit 2 "not a run id" export --db "$db" --format csv abc
expect_exit 2 "unknown option" export --db "$db" --format csv --bogus
expect_exit 0 "export --help" export --help
expect_output "--format json.csv" "help shows the formats"

sql "$TMP/newer.db" 'c.execute("create table t (x)"); c.execute("pragma user_version = 42"); c.commit()'
expect_exit 2 "a newer schema is refused" export --db "$TMP/newer.db" --format json
expect_output "newer.db: schema version 42 is newer" "the refusal names the file and version"

echo "not a database, just some text that is long enough ......................." > "$TMP/text.db"
expect_exit 2 "a file that is not a database is refused" export --db "$TMP/text.db" --format csv
expect_output "text.db" "the refusal names the file"

# --- a database on a full filesystem: exit 1 (a run failure), saying so --------
if [ "$(id -u)" -eq 0 ] && mkdir -p "$TMP/full" && mount -t tmpfs -o size=64k tmpfs "$TMP/full"; then
	for left in 0 8; do
		dd if=/dev/zero of="$TMP/full/fill" bs=4k count=$((16 - left)) status=none 2>/dev/null
		expect_exit 1 "a database opened on a full filesystem ($left KiB free): exit 1" \
			run --db "$TMP/full/r$left.db" --name=x --ioengine=null --size=1m
		expect_output "the filesystem holding the database is full" \
			"... says the filesystem is full ($left KiB free)"
		rm -f "$TMP/full/fill"
	done
	umount "$TMP/full"
else
	skip "the full-filesystem checks need root (a small tmpfs)"
fi
