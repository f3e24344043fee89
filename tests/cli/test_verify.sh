#!/bin/bash
# test_verify.sh - data verification from the command line: a write with
# verify=crc32c reads itself back; `drivebench verify` passes a clean file
# and names every kind of damage made with plain file writes (never
# written, header corrupt, stale, misdirected, torn, corrupt) with its
# exact offset; the seed and jobs come from a stored run with --run; the
# fault engine's dropped and flipped writes are caught in the run as a
# lost write and a corrupt block, after the writes and with verify_backlog.
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
expect_output "verify: crc32c, seed 11, 64 blocks checked, 0 failed" "the summary counts the blocks"
expect_output "read: .* 262.14 kB in" "the verify reads count as reads"
expect_exit 0 "another run writes with another seed" run --no-db $job \
	--filename="$B" --verify_seed=22
expect_exit 0 "a clean file verifies" verify --no-db --seed 11 $job --filename="$A"
expect_output "64 blocks checked, 0 failed" "every block of the region was checked"
expect_exit 1 "the wrong seed fails the verify" verify --no-db --seed 12 $job --filename="$A"
expect_output "stale at offset 0: written by another run \(seed 11" "another seed's blocks are stale"
expect_exit 2 "verify needs a seed" verify --no-db $job --filename="$A"
expect_output "needs the seed of the run that wrote the data" "the error says what is missing"
expect_exit 2 "verify needs a job" verify --no-db --seed 11
expect_exit 2 "verify=md5 is refused by name" run --no-db $job --filename="$A" --verify=md5
expect_output "verify=md5: not supported \(only crc32c\)" "the error names the method"
expect_exit 2 "verify of a missing file writes nothing" verify --no-db --seed 11 $job \
	--filename="$TMP/missing.dat"
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
expect_exit 1 "verify finds the damage" verify --no-db --seed 11 $job --filename="$C" \
	--continue_on_error=verify
expect_output "64 blocks checked, 6 failed" "six damaged blocks"
expect_output "never written at offset 8192$" "a zeroed block: never written"
expect_output "stale at offset 12288: written by another run \(seed 22, seq 4\)" "another run's block: stale"
expect_output "misdirected at offset 16384: holds the block written for offset 20480" "a block from elsewhere: misdirected"
expect_output "torn at offset 24576: right up to offset 26624" "another run's tail sectors: torn"
expect_output "corrupt at offset 28672: first bad byte at offset 29672" "one flipped byte: corrupt"
expect_output "header corrupt at offset 32768$" "a flipped header byte: header corrupt"
run_db verify --no-db --seed 11 $job --filename="$C" --continue_on_error=verify \
	--output-format=json --output="$TMP/c.json"
check "JSON lists every failure with verdict and offsets" json_check "$TMP/c.json" '
assert j["checked"] == 64 and j["failed"] == 6 and j["seed"] == 11, j
got = [(x["verdict"], x["offset"]) for x in f]
assert got == [("never written", 8192), ("stale", 12288), ("misdirected", 16384),
               ("torn", 24576), ("corrupt", 28672), ("header corrupt", 32768)], got
assert f[1]["found_seed"] == 22 and f[2]["found_offset"] == 20480
assert f[3]["bad_offset"] == 26624 and f[4]["bad_offset"] == 29672
assert f[4]["found_byte"] == f[4]["expected_byte"] ^ 0x10'
expect_exit 1 "without continue_on_error the job stops at the failing read" \
	verify --no-db --seed 11 $job --filename="$C" --iodepth=1 --bs=4k --set chunk_size=4k
expect_output "err=84" "the stop is reported as fio's verify error (EILSEQ)"

# --- --run: the seed and the jobs from the database ------------------------------
S="$TMP/s.dat"
expect_exit 0 "a stored run with a random seed" run --db "$TMP/v.db" $job --filename="$S"
expect_exit 0 "verify --run rebuilds the job and takes its seed" verify --db "$TMP/v.db" --run 1
expect_output "64 blocks checked, 0 failed" "the stored run's region verifies"
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
expect_exit 1 "verify_backlog finds the lost write while writing" run --no-db --name=w \
	--rw=write --bs=4k --size=256k --io_size=512k --verify=crc32c --verify_seed=5 \
	--verify_backlog=8 --filename="$TMP/d.dat" --ioengine=fault:psync \
	--fault_drop_offsets=8192 --fault_skip=64 --output-format=json --output="$TMP/b.json"
check "the backlog stopped the job at the lost write" json_check "$TMP/b.json" '
assert [(x["verdict"], x["offset"]) for x in f] == [("lost write", 8192)], f
d = json.load(open(sys.argv[1]))["jobs"][0]
assert d["write"]["io_bytes"] < 512 * 1024, d["write"]["io_bytes"]'
expect_exit 0 "random writes at depth verify clean" run --no-db --name=w --rw=randrw \
	--bs=4k --size=1m --iodepth=16 --verify=crc32c --filename="$TMP/f.dat" --time_based \
	--runtime=1 --ioengine=io_uring
expect_output "blocks checked, 0 failed" "mixed I/O checks what it wrote"
expect_exit 2 "overlapping clones are refused" run --no-db --name=w --rw=write --bs=4k \
	--size=64k --numjobs=2 --offset_increment=32k --verify=crc32c --filename="$TMP/g.dat"
expect_output "clone ranges that do not overlap" "the error says why"

# --- a suite step that verifies: the failure names the verdict and offset ------
dd if=/dev/zero of="$TMP/suite.dat" bs=1M count=8 status=none
printf '[suite]\nname = v\n[global]\nioengine = fault:psync\nsize = 4m\n[w]\nstep = measure\nrw = write\nbs = 4k\nverify = crc32c\nfault_flip_offsets = 8192\nfault_dir = write\n' \
	> "$TMP/v.suite"
expect_exit 1 "a suite step with a corrupted block fails" suite --suite "$TMP/v.suite" \
	--db "$TMP/s.db" --destroy-data "$TMP/suite.dat" "$TMP/suite.dat"
expect_output "step 1/1 'w': verify failed: 1 of [0-9]+ blocks, the first corrupt at offset 8192" \
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
for engine in null fault:null; do
	expect_exit 2 "verify with ioengine=$engine is refused" run --no-db --name=n \
		--ioengine=$engine --rw=write --bs=4k --size=64k --verify=crc32c
	expect_output "option 'verify': the null engine keeps no data to verify" "the error says why ($engine)"
done
