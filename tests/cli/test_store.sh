#!/bin/bash
# test_store.sh - the results database from the command line: `run --db`
# records runs, kill -9 in the middle of a batch of stores leaves a database
# that passes PRAGMA integrity_check with whole results only, and `export`
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
check "killed runs are left unfinished, ended ones have every result" sql "$db" '
unfinished = c.execute("select count(*) from runs where finished_ms = 0").fetchone()[0]
assert unfinished > 0
# at least one kill landed inside the batch of stores
mid = c.execute("""select count(*) from runs r where finished_ms = 0 and
    (select count(*) from results where run_id = r.id) between 1 and 149""").fetchone()[0]
assert mid > 0
for run, n in c.execute("""select r.id, (select count(*) from results where run_id = r.id)
    from runs r where finished_ms != 0 and id > 1"""):
    assert n == 150, (run, n)
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
