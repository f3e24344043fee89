#!/bin/bash
# test_verify_methods.sh - fio's verify methods from job files
# (tests/data/jobs/verify-*.fio): for every method a write phase, then a
# verify phase that passes a clean file and, after one byte of the file is
# flipped, names that unit and byte; the md5 and sha256 digests in the
# headers are what Python's hashlib computes over the data; verify_offset
# moves the header; verify=pattern writes the pattern itself (read back
# byte for byte, %o the block's offset); verify_dump writes the received
# and the expected block, which differ at the flipped byte, and a header
# failure's block, through the output gate.
. "$(dirname "$0")/lib.sh"

J=$(cd "$(dirname "$0")/../data/jobs" && pwd)
F="$TMP/m.dat"

# json_verify FILE PYTHON: PYTHON with v = the first job's verify object
json_verify() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
v = json.load(open(sys.argv[1]))["jobs"][0]["drivebench"]["verify"]
exec(sys.argv[2])
EOF
}

flip() { # FILE OFFSET: flips bit 4 of the byte at OFFSET
	python3 - "$1" "$2" <<'EOF'
import sys
f = open(sys.argv[1], "r+b"); at = int(sys.argv[2])
f.seek(at); b = f.read(1); f.seek(at); f.write(bytes([b[0] ^ 0x10]))
EOF
}

# --- every method: write, verify clean, catch one flipped byte --------------
for m in crc32c md5 crc64 crc32 crc16 crc7 sha1 sha256 sha512 sha3-224 sha3-256 \
	sha3-384 sha3-512 xxhash meta pattern_hdr pattern; do
	extra=()
	case $m in pattern*) extra=(--set 'verify_pattern=0x5aa5%o') ;; esac
	rm -f "$F"
	expect_exit 0 "verify=$m: the write phase runs" run --no-db "$J/verify-write.fio" \
		--set filename="$F" --set verify=$m "${extra[@]}"
	expect_exit 0 "verify=$m: the verify phase passes the clean file" run --no-db \
		"$J/verify-read.fio" --set filename="$F" --set verify=$m "${extra[@]}" \
		--output-format=json --output="$TMP/ok.json"
	check "verify=$m: 64 units checked, none failed, the method named" json_verify "$TMP/ok.json" "
assert v['method'] == '$m' and v['checked'] == 64 and v['failed'] == 0, v"
	flip "$F" $((5 * 4096 + 1234))
	expect_exit 1 "verify=$m: the verify phase fails on a flipped byte" run --no-db \
		"$J/verify-read.fio" --set filename="$F" --set verify=$m "${extra[@]}" \
		--output-format=json --output="$TMP/bad.json"
	check "verify=$m: the one bad unit and byte are named" json_verify "$TMP/bad.json" "
f = v['failures']
# a read job stops its reads at a failure (docs/verify.md): 6 checked
assert v['failed'] == 1 and v['checked'] == 6, v
assert f[0]['verdict'] == 'corrupt' and f[0]['offset'] == 20480, f
assert f[0]['bad_offset'] == 20480 + 1234 and f[0]['found_byte'] ^ f[0]['expected_byte'] == 0x10, f"
done

# --- the digests are the data's, as hashlib has them --------------------------
for m in md5:64 sha256:80; do
	name=${m%%:*}; hl=${m##*:}
	rm -f "$F"
	run_db run --no-db "$J/verify-write.fio" --set filename="$F" --set verify=$name
	check "verify=$name: every header holds hashlib's $name of its data" python3 - "$F" "$name" "$hl" <<'EOF'
import hashlib, struct, sys
data = open(sys.argv[1], "rb").read(); name = sys.argv[2]; hl = int(sys.argv[3])
for k in range(64):
    u = data[k * 4096:(k + 1) * 4096]
    magic, version, hlen, ulen = struct.unpack_from("<IHHI", u)
    method, = struct.unpack_from("<I", u, 40)
    assert magic == 0x46564244 and version == 2 and hlen == hl and ulen == 4096, (k, version, hlen)
    d = hashlib.new(name, u[hl:]).digest()
    assert u[48:48 + len(d)] == d, k
    assert struct.unpack_from("<Q", u, 16)[0] == k * 4096
EOF
done

# --- verify_offset: the header lives elsewhere in the block --------------------
rm -f "$F"
expect_exit 0 "verify_offset=1k: the write phase runs" run --no-db "$J/verify-write.fio" \
	--set filename="$F" --set verify=md5 --set verify_offset=1k
check "verify_offset=1k: each header is at byte 1024 of its block, not 0" python3 - "$F" <<'EOF'
import sys
d = open(sys.argv[1], "rb").read()
assert all(d[k * 4096 + 1024:k * 4096 + 1028] == b"DBVF" for k in range(64))
assert not any(d[k * 4096:k * 4096 + 4] == b"DBVF" for k in range(64))
EOF
expect_exit 0 "verify_offset=1k: the verify phase swaps it back and passes" run --no-db \
	"$J/verify-read.fio" --set filename="$F" --set verify=md5 --set verify_offset=1k
expect_exit 1 "verify_offset=1k: a verify phase without it finds no header" run --no-db \
	"$J/verify-read.fio" --set filename="$F" --set verify=md5
expect_output "never written at offset 0" "the headerless start reads as never written"
expect_exit 2 "verify_offset inside the header's own place is refused" run --no-db \
	"$J/verify-write.fio" --set filename="$TMP/o.dat" --set verify=md5 --set verify_offset=16
expect_output "option 'verify_offset': 16 does not hold the 64-byte header" "the error gives the header's size"

# --- verify_pattern: what is written is the pattern --------------------------------
rm -f "$F"
expect_exit 0 "verify=pattern writes and checks" run --no-db "$J/verify-pattern.fio" --set filename="$F"
check "the file is 0xaa555aa5 over and over" python3 - "$F" <<'EOF'
import sys
d = open(sys.argv[1], "rb").read()
assert len(d) == 65536 and d == bytes([0xaa, 0x55, 0x5a, 0xa5]) * 16384
EOF
rm -f "$F"
expect_exit 0 "verify_pattern with %o and a string" run --no-db "$J/verify-pattern.fio" \
	--set filename="$F" --set 'verify_pattern=%o"dbv"'
check "each block holds its offset (8 bytes, little-endian) and \"dbv\", from its start" python3 - "$F" <<'EOF'
import struct, sys
d = open(sys.argv[1], "rb").read()
for k in range(16):
    one = struct.pack("<Q", k * 4096) + b"dbv"
    want = (one * (4096 // 11 + 1))[:4096]
    assert d[k * 4096:(k + 1) * 4096] == want, k
EOF
cp "$F" "$TMP/moved.dat"
dd if="$F" of="$TMP/moved.dat" bs=4096 skip=2 seek=6 count=1 conv=notrunc status=none
expect_exit 1 "verify=pattern with %o finds a block of another offset" verify --no-db --seed 1 \
	"$J/verify-pattern.fio" --set filename="$TMP/moved.dat" --set 'verify_pattern=%o"dbv"'
expect_output "misdirected at offset 24576: holds the block written for offset 8192" \
	"the block's own offset names where it belongs"
expect_exit 2 "verify=pattern without a pattern is refused" run --no-db --name=p \
	--filename="$TMP/p.dat" --rw=write --size=64k --verify=pattern
expect_output "verify=pattern needs verify_pattern" "the error names what is missing"
expect_exit 2 "a bad pattern is refused with its place" run --no-db "$J/verify-pattern.fio" \
	--set filename="$TMP/p.dat" --set 'verify_pattern=0x12"ab'
expect_output "option 'verify_pattern': bad pattern '0x12\"ab': string without its closing" "the error shows where"

# --- a surface scan: write, then verify in a second phase of the same run ----------
rm -f "$F"
expect_exit 0 "the surface scan's two phases run" run --no-db "$J/verify-scan.fio" \
	--set filename="$F" --output-format=json --output="$TMP/scan.json"
check "the verify phase checks every 512-byte unit with the run's own seed" python3 - "$TMP/scan.json" <<'EOF2'
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
w, r = jobs[0]["drivebench"]["verify"], jobs[1]["drivebench"]["verify"]
assert jobs[1]["jobname"] == "verify-phase" and r["method"] == "meta", r
assert r["checked"] == 2048 and r["units"] == 2048 and r["failed"] == 0, r
assert w["seed"] == r["seed"] and w["checked"] == 0, (w, r)
EOF2
check "every unit: a 48-byte meta header, then the pattern" python3 - "$F" <<'EOF2'
import sys
d = open(sys.argv[1], "rb").read()
assert len(d) == 1 << 20
for u in range(2048):
    b = d[u * 512:(u + 1) * 512]
    assert b[:4] == b"DBVF" and b[48:] == bytes([0xaa, 0x55, 0x5a, 0xa5]) * 116, u
EOF2
run_db run --no-db --name=alone --rw=read --verify=meta --filename="$F" --size=64k
check "a job that only reads, with no writer before it and no seed, is refused (exit 2)" \
	test "$RC" -eq 2
expect_output "a job that only reads checks data an earlier job or run wrote" "the error says where a seed comes from"

# --- verify_dump: the received and the expected block ---------------------------------
rm -f "$F"
run_db run --no-db "$J/verify-write.fio" --set filename="$F" --set verify=crc32c
flip "$F" $((3 * 4096 + 777))
dd if=/dev/zero of="$F" bs=4096 seek=9 count=1 conv=notrunc status=none
mkdir "$TMP/dump"
# drivebench verify checks every unit (a read job stops at its first failure)
OUT=$(cd "$TMP/dump" && timeout 120 "$DB" verify --no-db --seed 4242 "$J/verify-dump.fio" \
	--set filename="$F" 2>"$TMP/stderr"); RC=$?; ERR=$(cat "$TMP/stderr")
check "verify_dump: the verify fails (exit 1)" test "$RC" -eq 1
check "verify_dump: the bad block as received and as expected, fio's names" \
	test -f "$TMP/dump/m.dat.12288.received" -a -f "$TMP/dump/m.dat.12288.expected"
check "verify_dump: a header failure's block as hdr_fail" test -f "$TMP/dump/m.dat.36864.hdr_fail"
check "verify_dump: nothing else is dumped" test "$(ls "$TMP/dump" | wc -l)" -eq 3
check "verify_dump: the two differ at the flipped byte only" \
	test "$(cmp -l "$TMP/dump/m.dat.12288.received" "$TMP/dump/m.dat.12288.expected" | awk '{print $1}')" = 778
check "verify_dump: the received block is the file's" \
	cmp -s "$TMP/dump/m.dat.12288.received" <(dd if="$F" bs=4096 skip=3 count=1 status=none)
check "verify_dump: hdr_fail holds the zeroed block" \
	cmp -s "$TMP/dump/m.dat.36864.hdr_fail" <(head -c 4096 /dev/zero)
# a dump file that would replace a results database is refused
rm -f "$TMP/dump"/*
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("create table t(x)"); c.commit()' "$TMP/kept.db"
ln -s "$TMP/kept.db" "$TMP/dump/m.dat.12288.received"
OUT=$(cd "$TMP/dump" && timeout 120 "$DB" verify --no-db --seed 4242 "$J/verify-dump.fio" \
	--set filename="$F" 2>"$TMP/stderr"); RC=$?; ERR=$(cat "$TMP/stderr")
check "verify_dump: the run fails rather than overwrite a database" test "$RC" -eq 1
expect_output "verify_dump: refusing to replace 'm.dat.12288.received': it is a results database" "the gate's reason is given"
check "verify_dump: the database is untouched" python3 -c '
import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute("select * from t")' "$TMP/kept.db"

# --- options fio has that drivebench refuses, by name -------------------------
expect_exit 2 "verify=null is refused" run --no-db "$J/verify-write.fio" --set filename="$TMP/n.dat" \
	--set verify=null
expect_output "verify=null \(pretend to verify\) is not supported" "the error names it"
expect_exit 2 "verify_state_save=1 is refused" run --no-db "$J/verify-write.fio" \
	--set filename="$TMP/n.dat" --set verify_state_save=1
expect_output "drivebench writes no verify state file" "the error says where the state is kept"

# --- verify_write_sequence=0: clones may share their blocks (atomic-verify) -----
ov="--name=ov --filename=$TMP/ov.dat --rw=randwrite --bs=4k --size=64k --numjobs=2 --verify=crc64"
expect_exit 2 "overlapping clones with the sequence check are refused" run --no-db $ov
expect_output "needs clone ranges that do not overlap" "the error says why"
rm -f "$TMP/ov.dat"
run_db run --no-db $ov --verify_write_sequence=0
check "with verify_write_sequence=0 they run (fio's atomic-verify)" test "$RC" -ne 2
check "and the overlap is not refused" sh -c '! printf "%s\n" "$1" | grep -q "do not overlap"' _ "$ERR"
