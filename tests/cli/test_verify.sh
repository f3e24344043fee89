#!/bin/bash
# test_verify.sh - data verification from the command line: a write with
# verify=crc32c reads itself back; `drivebench verify` passes a clean file
# and names every kind of damage made with plain file writes (never
# written, header corrupt, stale, misdirected, torn, corrupt) with its
# exact offset, all of them by default and only the first with
# verify_fatal=1; a short file fails naming the missing range; past 1000
# failures the counts stay exact and the rest is said to be unlisted; the
# seed and jobs come from a stored run with --run; the fault engine's
# dropped and flipped writes are caught in the run as lost writes and
# corrupt blocks, after the writes and with verify_backlog, all of them or
# the first with verify_fatal=1.
. "$(dirname "$0")/lib.sh"

A="$TMP/a.dat"; B="$TMP/b.dat"; C="$TMP/c.dat"
job="--name=w --rw=write --bs=4k --size=256k --verify=crc32c"

# json_check FILE PYTHON: runs PYTHON with j = the first job's verify object
json_check() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]["drivebench"]["verify"]
f = j["failures"]
exec(sys.argv[2])
EOF
}

# --- a verified write --------------------------------------------------------
expect_exit 0 "a write with verify reads every block back" run --no-db $job \
	--filename="$A" --verify_seed=11
expect_output "verify: crc32c, seed 11, checked 64 of 64 units, 0 failed$" "the summary counts the units checked of those due"
expect_output "read: .* 262.14 kB in" "the verify reads count as reads"
expect_exit 0 "another run writes with another seed" run --no-db $job \
	--filename="$B" --verify_seed=22
expect_exit 0 "a clean file verifies" verify --no-db --seed 11 $job --filename="$A"
expect_output "checked 64 of 64 units, 0 failed$" "every unit of the region was checked"
expect_exit 1 "the wrong seed fails the verify" verify --no-db --seed 12 $job --filename="$A"
expect_output "stale at offset 0: written by another run \(seed 11" "another seed's blocks are stale"
expect_exit 2 "verify needs a seed" verify --no-db $job --filename="$A"
expect_output "needs the seed of the run that wrote the data" "the error says what is missing"
expect_exit 2 "verify needs a job" verify --no-db --seed 11
expect_exit 2 "an unknown method is refused by name" run --no-db $job --filename="$A" --verify=md4
expect_output "verify=md4: unknown method" "the error names the method"
expect_exit 2 "verify of a missing file writes nothing" verify --no-db --seed 11 $job \
	--filename="$TMP/missing.dat"
expect_output "'$TMP/missing.dat' does not exist: nothing the job wrote is there to verify" \
	"the error names the file that is not there"
check "the missing file was not created" test ! -e "$TMP/missing.dat"

# --- every kind of damage, one per block ----------------------------------------
cp "$A" "$C"
dd if=/dev/zero of="$C" bs=4096 seek=2 count=1 conv=notrunc status=none      # never written
dd if="$B" of="$C" bs=4096 skip=3 seek=3 count=1 conv=notrunc status=none    # stale
dd if="$A" of="$C" bs=4096 skip=5 seek=4 count=1 conv=notrunc status=none    # misdirected
dd if="$B" of="$C" bs=512 skip=52 seek=52 count=4 conv=notrunc status=none   # torn at 26624
python3 - "$C" <<'EOF'
import sys
f = open(sys.argv[1], "r+b")
def flip(at, mask):
    f.seek(at); b = f.read(1); f.seek(at); f.write(bytes([b[0] ^ mask]))
flip(7 * 4096 + 1000, 0x10)   # corrupt: one byte mid-payload
flip(8 * 4096 + 24, 0x01)     # header corrupt: the sequence field, magic intact
EOF
expect_exit 1 "verify finds the damage" verify --no-db --seed 11 $job --filename="$C"
expect_output "checked 64 of 64 units, 6 failed$" "with the default options every unit is checked"
expect_output "never written at offset 8192$" "a zeroed block: never written"
expect_output "stale at offset 12288: written by another run \(seed 22, seq 4\)" "another run's block: stale"
expect_output "misdirected at offset 16384: holds the block written for offset 20480" "a block from elsewhere: misdirected"
expect_output "torn at offset 24576: right up to offset 26624" "another run's tail sectors: torn"
expect_output "corrupt at offset 28672: first bad byte at offset 29672" "one flipped byte: corrupt"
expect_output "header corrupt at offset 32768$" "a flipped header byte: header corrupt"
expect_output "err=84" "the job's error is fio's verify error (EILSEQ)"
run_db verify --no-db --seed 11 $job --filename="$C" --output-format=json --output="$TMP/c.json"
check "JSON lists every failure with verdict and offsets, none left out" json_check "$TMP/c.json" '
assert j["checked"] == 64 and j["units"] == 64 and j["failed"] == 6 and j["seed"] == 11, j
assert j["unlisted"] == 0 and j["stopped_by_verify_fatal"] is False, j
got = [(x["verdict"], x["offset"]) for x in f]
assert got == [("never written", 8192), ("stale", 12288), ("misdirected", 16384),
               ("torn", 24576), ("corrupt", 28672), ("header corrupt", 32768)], got
assert all(x["units"] == 1 and x["len"] == 4096 for x in f), f
assert f[1]["found_seed"] == 22 and f[2]["found_offset"] == 20480
assert f[3]["bad_offset"] == 26624 and f[4]["bad_offset"] == 29672
assert f[4]["found_byte"] == f[4]["expected_byte"] ^ 0x10
assert json.load(open(sys.argv[1]))["jobs"][0]["error"] == 84'
expect_exit 1 "continue_on_error=verify checks the same units" verify --no-db --seed 11 $job \
	--filename="$C" --continue_on_error=verify
expect_output "checked 64 of 64 units, 6 failed$" "all six, as without it"
expect_output "err=0" "and the failures are not the job's error (fio's non-fatal error)"
for depth in 1 8; do
	expect_exit 1 "verify_fatal=1 stops at the first failure (iodepth=$depth)" verify --no-db \
		--seed 11 $job --filename="$C" --verify_fatal=1 --iodepth=$depth
	expect_output "checked 3 of 64 units, 1 failed; verify_fatal=1 stopped at the first failure" \
		"the summary says how far it got and why it stopped (iodepth=$depth)"
	expect_output "never written at offset 8192$" "the first bad unit is named (iodepth=$depth)"
	check "nothing after the first is checked or listed (iodepth=$depth)" \
		sh -c '! printf "%s\n" "$1" | grep -q "stale at offset"' - "$OUT"
	expect_output "err=84" "the stop is fio's verify error (iodepth=$depth)"
done
run_db verify --no-db --seed 11 $job --filename="$C" --verify_fatal=1 --continue_on_error=verify \
	--output-format=json --output="$TMP/fatal.json"
check "verify_fatal=1 wins over continue_on_error=verify, and the JSON says so" json_check "$TMP/fatal.json" '
assert (j["checked"], j["units"], j["failed"]) == (3, 64, 1), j
assert j["stopped_by_verify_fatal"] is True, j
assert [(x["verdict"], x["offset"]) for x in f] == [("never written", 8192)], f'

# --- a file shorter than what was written ------------------------------------
T="$TMP/t.dat"
cp "$A" "$T"
truncate -s 200000 "$T"
expect_exit 1 "a truncated file fails the verify" verify --no-db --seed 11 $job --filename="$T"
expect_output "checked 64 of 64 units, 16 failed$" "the units past the end count as failed"
expect_output "missing at offset 200000: \[200000, 262144\) lies past the end of the file \(16 units\)" \
	"the failure names the missing range [start, end)"
run_db verify --db "$TMP/t.db" --seed 11 $job --filename="$T" --output-format=json --output="$TMP/t.json"
check "JSON: one failure for the whole range, its units counted" json_check "$TMP/t.json" '
assert (j["checked"], j["units"], j["failed"], j["unlisted"]) == (64, 64, 16, 0), j
assert [(x["verdict"], x["offset"], x["len"], x["units"]) for x in f] == \
    [("missing", 200000, 62144, 16)], f'
check "the missing range is stored as a failure" sql "$TMP/t.db" '
assert c.execute("SELECT offset, len, verdict, units FROM verify_failures").fetchall() == \
    [(200000, 62144, "missing", 16)]
assert c.execute("SELECT verify_units, verify_checked, verify_failed FROM results").fetchall() == [(64, 64, 16)]'
dd if=/dev/zero of="$T" bs=4096 seek=5 count=1 conv=notrunc status=none
expect_exit 1 "a bad unit and a short file are both reported" verify --no-db --seed 11 $job --filename="$T"
expect_output "checked 64 of 64 units, 17 failed$" "the bad unit and the missing ones"
expect_output "never written at offset 20480$" "the bad unit before the end"
expect_output "missing at offset 200000" "and the missing range"
expect_exit 1 "with verify_fatal=1 the first bad unit stops it before the missing range" \
	verify --no-db --seed 11 $job --filename="$T" --verify_fatal=1
expect_output "checked 6 of 64 units, 1 failed; verify_fatal=1" "it stops at the first"
: > "$T"
expect_exit 1 "an empty file fails the verify" verify --no-db --seed 11 $job --filename="$T"
expect_output "missing at offset 0: \[0, 262144\) lies past the end of the file \(64 units\)" \
	"all of the region is missing"
check "the short file was not written to" test ! -s "$T"

# --- past 1000 failures: exact counts, a bounded list ----------------------------
W="$TMP/w.dat"
expect_exit 0 "an 8 MiB write" run --no-db --name=w --rw=write --bs=4k --size=8m \
	--verify=crc32c --verify_seed=3 --filename="$W"
expect_exit 1 "every unit of it fails with another seed" verify --db "$TMP/w.db" --seed 4 \
	--name=w --rw=write --bs=4k --size=8m --filename="$W"
expect_output "checked 2048 of 2048 units, 2048 failed$" "the counts are exact"
expect_output "    \.\.\. 990 more listed in the JSON and the database$" "the summary shows 10 and says where the rest are"
expect_output "    \.\.\. 1048 more failed units counted, not listed \(at most 1000 failures are kept\)" \
	"and how many no output lists"
check "the database keeps 1000 rows and the exact counts" sql "$TMP/w.db" '
assert c.execute("SELECT count(*), min(offset), max(offset) FROM verify_failures").fetchone() == \
    (1000, 0, 999 * 4096)
assert c.execute("SELECT verify_units, verify_checked, verify_failed FROM results").fetchall() == [(2048, 2048, 2048)]'
check "export of it" sh -c '"$1" export --db "$2" --format json 1 > "$3"' - "$DB" "$TMP/w.db" \
	"$TMP/w-export.json"
check "export says how many were not listed" python3 -c "
import json, sys
v = json.load(open(sys.argv[1]))[0]['results'][0]['verify']
assert (v['units'], v['checked'], v['failed'], v['unlisted']) == (2048, 2048, 2048, 1048), v
assert len(v['failures']) == 1000 and v['stopped_by_verify_fatal'] is False, v
" "$TMP/w-export.json"

# --- --run: the seed and the jobs from the database ------------------------------
S="$TMP/s.dat"
expect_exit 0 "a stored run with a random seed" run --db "$TMP/v.db" $job --filename="$S"
expect_exit 0 "verify --run rebuilds the job and takes its seed" verify --db "$TMP/v.db" --run 1
expect_output "checked 64 of 64 units, 0 failed$" "the stored run's region verifies"
check "the verify is stored with its counts" python3 -c "
import sqlite3
c = sqlite3.connect('$TMP/v.db')
rows = c.execute('SELECT verify_checked, verify_failed, verify_seed FROM results ORDER BY id').fetchall()
assert len(rows) == 2 and rows[1][:2] == (64, 0) and rows[0][2] == rows[1][2], rows"
dd if=/dev/zero of="$S" bs=4096 seek=9 count=1 conv=notrunc status=none
expect_exit 1 "verify --run with the job given takes just the seed" verify --db "$TMP/v.db" \
	--run 1 $job --filename="$S"
expect_output "never written at offset 36864" "the zeroed block is found"
check "the failure is stored with its verdict" python3 -c "
import sqlite3
c = sqlite3.connect('$TMP/v.db')
rows = c.execute('SELECT offset, verdict, len FROM verify_failures').fetchall()
assert rows == [(36864, 'never written', 4096)], rows"
expect_exit 0 "export of the failed verify" export --db "$TMP/v.db" --format json 3
check "export carries the verify: seed, counts and the failure" python3 -c "
import json, sqlite3, sys
r = json.loads(sys.argv[1])[0]['results'][0]
seed = sqlite3.connect('$TMP/v.db').execute('SELECT verify_seed FROM results WHERE run_id = 3').fetchone()[0]
v = r['verify']
assert v['seed'] == seed % 2**64 and v['checked'] == 64 and v['failed'] == 1, v
assert [(f['verdict'], f['offset']) for f in v['failures']] == [('never written', 36864)], v
" "$OUT"
expect_exit 1 "verify --run takes verify_fatal=1 through --set" verify --db "$TMP/v.db" --run 1 \
	--set verify_fatal=1
expect_output "checked 10 of 64 units, 1 failed; verify_fatal=1 stopped at the first failure" \
	"the stored jobs stop at the zeroed block"
expect_exit 2 "--run and --seed together are refused" verify --db "$TMP/v.db" --run 1 --seed 3

# --- faults in the run: a dropped and a flipped write ----------------------------
# two passes over the range; the second pass's write at 8192 is dropped
expect_exit 1 "a dropped overwrite is a lost write" run --no-db --name=w --rw=write \
	--bs=4k --size=256k --io_size=512k --verify=crc32c --verify_seed=5 \
	--filename="$TMP/d.dat" --ioengine=fault:psync --fault_drop_offsets=8192 \
	--fault_skip=64
expect_output "lost write at offset 8192: holds write 3, last written 67" "the lost write names both writes"
expect_exit 1 "a flipped bit is a corrupt block" run --no-db --name=w --rw=randwrite \
	--bs=4k --size=256k --verify=crc32c --verify_seed=5 --filename="$TMP/e.dat" \
	--ioengine=fault:psync --fault_flip_offsets=12288 --fault_dir=write
expect_output "corrupt at offset 12288: first bad byte at offset 1[2-6][0-9]{3} " "the flipped block is found"
# three flipped writes: the verify phase after the writes reports all of
# them, or stops at the first with verify_fatal=1
flips="--name=w --rw=write --bs=4k --size=256k --verify=crc32c --verify_seed=5 \
	--filename=$TMP/h.dat --ioengine=fault:psync --fault_flip_offsets=8192:40960:200704 \
	--fault_dir=write"
expect_exit 1 "three flipped writes fail the verify phase" run --no-db $flips \
	--output-format=json --output="$TMP/h.json"
check "the verify phase checks every unit written and lists all three" json_check "$TMP/h.json" '
assert (j["checked"], j["units"], j["failed"]) == (64, 64, 3), j
assert [(x["verdict"], x["offset"]) for x in f] == \
    [("corrupt", 8192), ("corrupt", 40960), ("corrupt", 200704)], f'
expect_exit 1 "with verify_fatal=1 the verify phase stops at the first" run --no-db $flips \
	--verify_fatal=1
expect_output "checked 3 of 64 units, 1 failed; verify_fatal=1 stopped at the first failure" \
	"it says how far it got"
expect_output "corrupt at offset 8192: " "the first flipped write is named"
check "the later ones are not checked" sh -c '! printf "%s\n" "$1" | grep -q "offset 40960"' - "$OUT"
expect_exit 1 "verify_backlog finds the lost write while writing" run --no-db --name=w \
	--rw=write --bs=4k --size=256k --io_size=512k --verify=crc32c --verify_seed=5 \
	--verify_backlog=8 --filename="$TMP/d.dat" --ioengine=fault:psync \
	--fault_drop_offsets=8192 --fault_skip=64 --output-format=json --output="$TMP/b.json"
check "the backlog stopped the job at the lost write" json_check "$TMP/b.json" '
assert [(x["verdict"], x["offset"]) for x in f] == [("lost write", 8192)], f
d = json.load(open(sys.argv[1]))["jobs"][0]
assert d["write"]["io_bytes"] < 512 * 1024, d["write"]["io_bytes"]'
# two dropped overwrites in one backlog batch: both are reported (the
# batch is checked to its end, then the job stops writing); with
# verify_fatal=1 only the first
backlog="--name=w --rw=write --bs=4k --size=256k --io_size=512k --verify=crc32c \
	--verify_seed=5 --verify_backlog=8 --filename=$TMP/d.dat --ioengine=fault:psync \
	--fault_drop_offsets=8192:20480 --fault_skip=64"
expect_exit 1 "two lost writes in one backlog batch" run --no-db $backlog \
	--output-format=json --output="$TMP/b2.json"
check "both are listed, and the job stopped writing after that batch" json_check "$TMP/b2.json" '
assert [(x["verdict"], x["offset"]) for x in f] == [("lost write", 8192), ("lost write", 20480)], f
assert (j["checked"], j["units"], j["failed"]) == (72, 72, 2), j
d = json.load(open(sys.argv[1]))["jobs"][0]
assert d["write"]["io_bytes"] == 72 * 4096 and d["error"] == 84, (d["write"]["io_bytes"], d["error"])'
run_db run --no-db $backlog --verify_fatal=1 --output-format=json --output="$TMP/b3.json"
check "verify_fatal=1 stops the backlog at the first" json_check "$TMP/b3.json" '
assert [(x["verdict"], x["offset"]) for x in f] == [("lost write", 8192)], f
assert (j["checked"], j["units"], j["failed"]) == (67, 72, 1), j
assert j["stopped_by_verify_fatal"] is True, j'
# a mixed job whose read of 12288 comes back flipped: by default the
# workload stops there and the verify phase still checks every other unit
# it wrote, reporting the bad one once; verify_fatal=1 stops at once
mixed="--name=w --rw=randrw --bs=4k --size=64k --io_size=1m --verify=crc32c --verify_seed=5 \
	--filename=$TMP/m.dat --ioengine=fault:psync --fault_flip_offsets=12288 --fault_dir=read"
expect_exit 1 "a bad read in a mixed job" run --no-db $mixed --output-format=json --output="$TMP/m.json"
check "the verify phase ran after it, the unit is reported once" json_check "$TMP/m.json" '
assert [(x["verdict"], x["offset"]) for x in f] == [("corrupt", 12288)], f
assert (j["checked"], j["units"], j["failed"]) == (15, 15, 1), j
d = json.load(open(sys.argv[1]))["jobs"][0]
assert d["read"]["io_bytes"] == 65536 + 11 * 4096 and d["error"] == 84, d["read"]["io_bytes"]'
expect_exit 1 "the same with verify_fatal=1" run --no-db $mixed --verify_fatal=1 \
	--output-format=json --output="$TMP/m1.json"
check "it stops at the bad read, no verify phase" json_check "$TMP/m1.json" '
assert (j["checked"], j["units"], j["failed"], j["stopped_by_verify_fatal"]) == (4, 4, 1, True), j
assert json.load(open(sys.argv[1]))["jobs"][0]["read"]["io_bytes"] == 65536'
expect_exit 0 "random writes at depth verify clean" run --no-db --name=w --rw=randrw \
	--bs=4k --size=1m --iodepth=16 --verify=crc32c --filename="$TMP/f.dat" --time_based \
	--runtime=1 --ioengine=io_uring
expect_output "checked ([0-9]+) of \\1 units, 0 failed$" "mixed I/O checks what it wrote, every unit due"
expect_exit 2 "overlapping clones are refused" run --no-db --name=w --rw=write --bs=4k \
	--size=64k --numjobs=2 --offset_increment=32k --verify=crc32c --filename="$TMP/g.dat"
expect_output "clone ranges that do not overlap" "the error says why"

# --- a suite step that verifies: the failure names the verdict and offset ------
dd if=/dev/zero of="$TMP/suite.dat" bs=1M count=8 status=none
printf '[suite]\nname = v\n[global]\nioengine = fault:psync\nsize = 4m\n[w]\nstep = measure\nrw = write\nbs = 4k\nverify = crc32c\nfault_flip_offsets = 8192\nfault_dir = write\n' \
	> "$TMP/v.suite"
expect_exit 1 "a suite step with a corrupted block fails" suite --suite "$TMP/v.suite" \
	--db "$TMP/s.db" --destroy-data "$TMP/suite.dat" "$TMP/suite.dat"
expect_output "step 1/1 'w': verify failed: 1 bad, checked 1024 of 1024 units; the first corrupt at offset 8192" \
	"the step's error names the verdict and offset"
check "the step's result and failure are stored, the step failed" python3 -c "
import sqlite3
c = sqlite3.connect('$TMP/s.db')
assert c.execute('SELECT verify_failed FROM results').fetchall() == [(1,)]
assert c.execute('SELECT offset, verdict FROM verify_failures').fetchall() == [(8192, 'corrupt')]
assert c.execute('SELECT status FROM steps').fetchall() == [('failed',)]"
printf '[suite]\nname = v\n[w]\nstep = measure\nrw = write\nverify = crc32c\nverify_only = 1\n' > "$TMP/vo.suite"
expect_exit 2 "verify_only in a suite step is refused" suite --suite "$TMP/vo.suite" \
	--db "$TMP/s.db" "$TMP/suite.dat"
expect_output "option 'verify_only': not in a suite" "the error names the option"

# --- an engine that keeps no data cannot verify ------------------------------------
# (the engines' ENGINE_KEEPS_DATA flag; a fault engine has its inner one's)
for engine in null fault:null cufile fault:cufile; do
	expect_exit 2 "verify with ioengine=$engine is refused" run --no-db --name=n \
		--ioengine=$engine --rw=write --bs=4k --size=64k --verify=crc32c
	expect_output "option 'verify': the $engine engine keeps no data to verify" "the error says why ($engine)"
done
