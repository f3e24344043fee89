#!/bin/sh
# test_holes.sh - the holes an adversarial test found (issue 28, items 1-8):
# SQLite siblings that are another file, files a job reads that are not
# regular files, unbounded job files, an unwritable database, model scales
# spelled differently, duplicate JSON keys, capacity out of range, read-only
# commands on an older database.
. "$(dirname "$0")/lib.sh"

NULLJOB="--ioengine=null --rw=randread --bs=4k --size=64k --name=j"

# 1. a -wal, -shm or -journal that is another file's hard link, or a file
# that is not SQLite's, is never written
for sib in wal shm journal; do
	d="$TMP/sib-$sib"; mkdir -p "$d"
	printf 'my thesis, chapter one.\n' >"$d/thesis.txt"
	ln "$d/thesis.txt" "$d/xt.db-$sib"
	expect_exit 3 "a hard-linked -$sib beside the database is refused" \
		run --db "$d/xt.db" $NULLJOB
	expect_output "xt.db-$sib.*links" "the refusal names the -$sib and its links"
	if [ "$(cat "$d/thesis.txt")" = "my thesis, chapter one." ]; then
		ok "the file linked as -$sib is intact"; else not_ok "the file linked as -$sib was written"; fi
	rm "$d/xt.db-$sib"
	printf 'not a journal at all, just text that is long enough\n' >"$d/xt.db-$sib"
	expect_exit 3 "a -$sib that is not SQLite's is refused" run --db "$d/xt.db" $NULLJOB
	expect_output "not SQLite's" "the refusal says the -$sib is not SQLite's"
	rm "$d/xt.db-$sib"
done
expect_exit 0 "with the siblings gone the database is written" run --db "$TMP/sib-wal/xt.db" $NULLJOB
# ... but another process's SQLite at work is no foreign file: runs
# creating one database at once each find the others' rollback journal
# mid-write (no magic yet) for a few milliseconds (a quarter of them were
# refused), and all store
failed=0
for round in 1 2 3; do
	rm -f "$TMP/cw.db" "$TMP/cw.db-wal" "$TMP/cw.db-shm"
	for i in 1 2 3 4 5 6; do
		"$DB" run --db "$TMP/cw.db" $NULLJOB >/dev/null 2>"$TMP/cw$i.err" &
	done
	wait
	for i in 1 2 3 4 5 6; do
		grep -q "results stored" "$TMP/cw$i.err" ||
			{ failed=$((failed + 1)); cat "$TMP/cw$i.err" >>"$TMP/cw.failures"; }
	done
done
check "18 runs creating databases six at a time all store ($failed refused)" test "$failed" = 0
[ -s "$TMP/cw.failures" ] && sed 's/^/# /' "$TMP/cw.failures"   # after the check: run.sh shows what follows it

# 2. a file a job names for reading is read before any worker starts, and
# only when it is a regular file: a FIFO never holds the program. This test
# shares the machine (and runs under ASan): it wants the refusal well before
# run_db's 120 s timeout; test_stop_latency.sh, which runs alone, holds it
# to a second
mkfifo "$TMP/fifo"
fifo_refused() {   # WHAT ARGS...: exits 2 without waiting, naming the FIFO
	what=$1; shift
	start=$(date +%s%N)
	run_db "$@"
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	if [ "$RC" -eq 2 ] && [ "$ms" -lt 20000 ]; then ok "$what is refused, not waited on (${ms} ms)"; else
		not_ok "$what (exit $RC after ${ms} ms, wanted 2 within 20 s)"; echo "$ERR" | head -5; fi
	expect_output "fifo.*is a FIFO, not a regular file" "$what: the message names the FIFO"
}
fifo_refused "vssd_model= naming a FIFO" run --ioengine=vssd --vssd_model="$TMP/fifo" \
	--rw=randread --bs=4k --size=64k --name=j --no-db
printf "[j]\nioengine=null\nrw=read\nsize=64k\nbuffer_pattern='%s'\n" "$TMP/fifo" >"$TMP/pat.fio"
fifo_refused "a pattern file that is a FIFO" run --no-db "$TMP/pat.fio"
printf '[j]\nioengine=null\nsize=64k\ninclude %s\n' "$TMP/fifo" >"$TMP/inc.fio"
fifo_refused "an include that is a FIFO" run --no-db "$TMP/inc.fio"
fifo_refused "a job file that is a FIFO" run --no-db "$TMP/fifo"
fifo_refused "fio JSON to import that is a FIFO" import --label x --db "$TMP/imp.db" "$TMP/fifo"
printf '{"fio version": "fio-3.36", "jobs": []}\n' >"$TMP/empty.json"
fifo_refused "a spec sheet that is a FIFO" import --label x --db "$TMP/imp.db" \
	--spec "$TMP/fifo" "$TMP/empty.json"

# 3. job sections, clones and includes, and a suite's steps, are bounded
# as they are read
awk 'BEGIN { print "[global]\nioengine=null\nsize=64k"; for (i = 0; i < 100000; i++) print "[j]" }' \
	>"$TMP/many.fio"
start=$(date +%s%N)
expect_exit 2 "100,000 job sections are refused" run --no-db "$TMP/many.fio"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
expect_output "many.fio:4100: more than 4096 jobs" "the error names the line of the section too many"
if [ "$ms" -lt 30000 ]; then ok "refused while reading (${ms} ms)"; else not_ok "refusal took ${ms} ms"; fi
printf '[global]\nioengine=null\nsize=64k\n[a]\nnumjobs=4000\n[b]\nnumjobs=100\n' >"$TMP/clones.fio"
expect_exit 2 "4100 clones are refused" run --no-db "$TMP/clones.fio"
expect_output "clones.fio:6: job 'b': numjobs=100 brings the clones to 4100" "the error names the job and the count"
: >"$TMP/empty.fio"
awk -v f="$TMP/empty.fio" 'BEGIN { print "[j]\nioengine=null\nsize=64k"; for (i = 0; i < 2000; i++) print "include " f }' \
	>"$TMP/incs.fio"
expect_exit 2 "2000 includes are refused" run --no-db "$TMP/incs.fio"
expect_output "incs.fio:1028: more than 1024 includes" "the error names the include too many"
# a suite file's steps likewise (100,000 took 2.8 GB and over a minute)
awk 'BEGIN { print "[suite]\nname = x"; for (i = 0; i < 100000; i++) printf "[s%d]\nstep = measure\nrw = read\n", i }' \
	>"$TMP/many.suite"
start=$(date +%s%N)
expect_exit 2 "100,000 suite steps are refused" plan --suite "$TMP/many.suite" --capacity 1TB \
	--rated-write 1 --rated-read 1
ms=$(( ($(date +%s%N) - start) / 1000000 ))
expect_output "many.suite:3075: more than 1024 steps in the suite file" "the error names the step too many"
if [ "$ms" -lt 30000 ]; then ok "refused while reading (${ms} ms)"; else not_ok "refusal took ${ms} ms"; fi
expect_exit 2 "suite refuses them too, before any target" suite --suite "$TMP/many.suite" \
	--db "$TMP/many.db" "$TMP/many-target.dat"
check "nothing stored or laid out" test ! -e "$TMP/many.db" -a ! -e "$TMP/many-target.dat"
awk 'BEGIN { print "[suite]\nname = x"; for (i = 0; i < 1024; i++) printf "[s%d]\nstep = measure\nrw = read\n", i }' \
	>"$TMP/most.suite"
expect_exit 0 "1024 steps plan" plan --suite "$TMP/most.suite" --capacity 1TB --rated-write 1 --rated-read 1

# 4. a database that cannot take a write is found before the first I/O
mkdir -p "$TMP/ro" && chmod 777 "$TMP/ro"
"$DB" run --db "$TMP/ro/x.db" $NULLJOB >/dev/null 2>&1
rm -f "$TMP/ro/x.db-wal" "$TMP/ro/x.db-shm"
if [ "$(id -u)" -eq 0 ]; then
	chmod 755 "$TMP"
	as_other() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
else
	chmod 444 "$TMP/ro/x.db"
	as_other() { "$@"; }
fi
# a 30 s run: refused well before it would end, however loaded the machine
start=$(date +%s%N)
OUT=$(as_other timeout 90 "$DB" run --db "$TMP/ro/x.db" --ioengine=null --rw=read --bs=4k \
	--size=64k --name=j --time_based --runtime=30 2>"$TMP/stderr"); RC=$?; ERR=$(cat "$TMP/stderr")
ms=$(( ($(date +%s%N) - start) / 1000000 ))
if [ "$RC" -eq 2 ] && [ "$ms" -lt 20000 ]; then ok "a read-only database is refused before the run (${ms} ms)"; else
	not_ok "a read-only database (exit $RC after ${ms} ms, wanted 2 before the 30 s run)"; echo "$ERR" | head -3; fi
expect_output "x.db: cannot write the results database" "the refusal names the database"
if echo "$OUT" | grep -q "READ:"; then not_ok "the workload ran"; else ok "no workload ran"; fi
# suite and checkpoint likewise, before their first step
truncate -s 16m "$TMP/ro/t.dat"; chmod 666 "$TMP/ro/t.dat"; mkdir -m 777 "$TMP/ro/ck"
for cmd in "suite --suite quick --time-scale 0.01 --db $TMP/ro/x.db $TMP/ro/t.dat" \
	"checkpoint --db $TMP/ro/x.db --checkpoint-size 1m --ranks 1 $TMP/ro/ck"; do
	set -- $cmd
	OUT=$(as_other timeout 60 "$DB" "$@" 2>"$TMP/stderr"); RC=$?; ERR=$(cat "$TMP/stderr")
	if [ "$RC" -eq 2 ] && printf '%s\n' "$ERR" | grep -qE "x.db: (cannot write the results database|.*readonly database)"; then
		ok "$1 with a read-only database is refused, naming it"
	else not_ok "$1 with a read-only database: exit $RC"; echo "$ERR" | head -3; fi
done
check "nothing was written to the target or the directory" \
	test -z "$(ls "$TMP/ro/ck")" -a "$(stat -c %b "$TMP/ro/t.dat")" = 0

# 5. equal model scales spelled differently are one modelled drive (at a
# scale the model works at: a suite reads the model before its targets)
MODEL="$(pwd)/models/generic-qlc.ini"
printf '[suite]\nname = t\n[m]\nstep = measure\nrw = read\nruntime = 100ms\ntime_based = 1\n' \
	>"$TMP/t.suite"
for pair in "6g 6G" "6g 6144m" "1/1000 0.001"; do
	set -- $pair
	expect_exit 2 "vssd:M@$1 and vssd:M@$2 are refused as one drive" suite --suite "$TMP/t.suite" \
		--db "$TMP/dup.db" --target "vssd:$MODEL@$1" --target "vssd:$MODEL@$2"
	expect_output "targets 1 and 2 are one drive" "@$1 and @$2: the duplicate is named"
done
test ! -e "$TMP/dup.db" && ok "the duplicates stored nothing" || not_ok "a duplicate stored something"

# 6. a key given twice in imported JSON is refused with its path
"$DB" run --no-db $NULLJOB --output-format=json >"$TMP/one.json" 2>/dev/null
python3 - "$TMP/one.json" "$TMP/dup.json" "$TMP/duptop.json" <<'PY'
import sys
t = open(sys.argv[1]).read()
i = t.index('"iops"'); j = t.index('\n', i)
open(sys.argv[2], "w").write(t[:j] + '\n"iops": "x",' + t[j:])
k = t.index('{') + 1
open(sys.argv[3], "w").write(t[:k] + '"jobs": [],' + t[k:])
PY
expect_exit 2 "a duplicate key in a job's read object is refused" import --label x \
	--db "$TMP/json.db" "$TMP/dup.json"
expect_output 'the key "iops" is given twice in jobs\[0\]\.read' "the error names the key and its path"
expect_exit 2 "a duplicate top-level key is refused" import --label x --db "$TMP/json.db" "$TMP/duptop.json"
expect_output 'the key "jobs" is given twice in the top-level object' "the top-level duplicate is named"
expect_exit 0 "the same file without the duplicate imports" import --label x --db "$TMP/json.db" "$TMP/one.json"

# 7. capacity_tb out of range is said so, in a model and in a spec sheet
for v in 1e300 -2 0; do
	sed "s/^capacity_tb.*/capacity_tb = $v/" models/generic-qlc.ini >"$TMP/cap.ini"
	expect_exit 2 "a model with capacity_tb = $v is refused" run --no-db --ioengine=vssd \
		--vssd_model="$TMP/cap.ini" --rw=read --bs=4k --size=64k --name=j
	expect_output "cap.ini:[0-9]+: key 'capacity_tb': '$v' is out of range" "capacity_tb = $v: out of range, with file and line"
done
printf '[drive]\nmodel = a\ncapacity_tb = 1e300\n' >"$TMP/capspec.ini"
expect_exit 2 "a spec sheet with capacity_tb = 1e300 is refused" import --label x --db "$TMP/cap.db" \
	--spec "$TMP/capspec.ini" "$TMP/one.json"
expect_output "capspec.ini:3:capacity_tb: '1e300' is out of range" "the sheet's value is named out of range"

# 8. report, compare and export read an older schema as it is or refuse,
# naming the command that migrates; none of them writes the database.
# A real older database (tests/data/schema9.db: one drive of the review
# fixture as a schema-9 build stored it) is read:
FIX="$TMP/fixture9.db"; cp "$(dirname "$0")/../data/schema9.db" "$FIX"
before=$(sha256sum "$FIX" | cut -d' ' -f1)
expect_exit 0 "export reads a schema-9 database as it is" export --db "$FIX" --format csv
expect_exit 0 "report reads it" report --db "$FIX" --out "$TMP/fix.html"
after=$(sha256sum "$FIX" | cut -d' ' -f1)
if [ "$before" = "$after" ]; then ok "the schema-9 database is unchanged"; else not_ok "reading changed the schema-9 database"; fi
python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('pragma user_version').fetchone()[0])" "$FIX" | grep -qx 9 \
	&& ok "it is still schema 9" || not_ok "its schema version changed"
# a database that claims an older version than its tables are: refused
"$DB" run --db "$TMP/old.db" $NULLJOB --label a >/dev/null 2>&1
python3 - "$TMP/old.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
v = c.execute("pragma user_version").fetchone()[0]
c.execute("pragma journal_mode = delete")
c.execute("pragma user_version = %d" % (v - 1)); c.commit(); c.close()
PY
before=$(sha256sum "$TMP/old.db" | cut -d' ' -f1)
for cmd in "report --db $TMP/old.db --out $TMP/old.html" "compare --db $TMP/old.db 1 1" \
	"export --db $TMP/old.db --format json"; do
	set -- $cmd
	expect_exit 2 "$1 on an older schema is refused" "$@"
	expect_output "schema version [0-9]+ is older.*could not be read as it is; .drivebench $1. never changes a database: .drivebench migrate --db" \
		"$1: the refusal names the command that migrates"
done
after=$(sha256sum "$TMP/old.db" | cut -d' ' -f1)
if [ "$before" = "$after" ]; then ok "the older database is unchanged"; else not_ok "a read-only command changed the database"; fi
test ! -e "$TMP/old.db-wal" && ok "no -wal was made beside it" || not_ok "a -wal was made"
"$DB" run --db "$TMP/cur.db" $NULLJOB --label b >/dev/null 2>&1
rm -f "$TMP/cur.db-wal" "$TMP/cur.db-shm"
chmod 444 "$TMP/cur.db"
before=$(sha256sum "$TMP/cur.db" | cut -d' ' -f1)
expect_exit 0 "export reads a current database" export --db "$TMP/cur.db" --format json
expect_exit 0 "report reads it" report --db "$TMP/cur.db" --out "$TMP/cur.html"
after=$(sha256sum "$TMP/cur.db" | cut -d' ' -f1)
if [ "$before" = "$after" ]; then ok "reading left the database unchanged"; else not_ok "reading changed the database"; fi
chmod 644 "$TMP/cur.db"
expect_exit 0 "migrate on a current database" migrate --db "$TMP/cur.db"
expect_output "cur.db: schema version [0-9]+" "migrate says the version"
expect_exit 2 "migrate never creates a database" migrate --db "$TMP/none.db"
test ! -e "$TMP/none.db" && ok "no database was created" || not_ok "migrate created a database"
