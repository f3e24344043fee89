#!/bin/bash
# test_checkpoint_raw.sh - checkpoints on a raw device (as root, on loop
# devices): `drivebench checkpoint DEVICE` lays each checkpoint's files out
# as regions of the device (recorded in the step detail), writes exactly
# those bytes and nothing else, passes > 1 over the same regions; the suite's
# checkpoint step does the same on a block target; checkpoints that do not
# fit are refused up front, a device with a filesystem without consent is
# refused with nothing written. A filesystem made for the checkpoints
# (checkpoint_fs = xfs) is test_checkpoint_fs.sh's.
. "$(dirname "$0")/lib.sh"

WORK=$(mktemp -d /var/tmp/drivebench-ckptraw.XXXXXX)
LOOPS=""
cleanup() {
	for l in $LOOPS; do losetup -d "$l" 2>/dev/null; done
	rm -rf "$WORK" "$TMP"
}
trap cleanup EXIT
SUITES=$(cd "$(dirname "$0")/../../suites" && pwd)
export DRIVEBENCH_WORKLOADS
DRIVEBENCH_WORKLOADS=$(cd "$(dirname "$0")/../../workloads" && pwd)

# --- a file target keeps its files next to it (TARGET.checkpoints) ---------
cat >"$WORK/small.suite" <<'EOF'
[suite]
name = small
[checkpoint]
step = checkpoint
checkpoint_size = 8MB
ranks = 2
count = 2
passes = 2
EOF
rm -f "$DRIVEBENCH_DB"
expect_exit 0 "a checkpoint step on a file target" suite --suite "$WORK/small.suite" "$WORK/file.dat"
expect_output "2 checkpoints as files in $WORK/file.dat.checkpoints" "prints the files mode"
check "files mode in the step detail" sql "$DRIVEBENCH_DB" '
import json
d = json.loads(c.execute("select detail from steps").fetchone()[0])
assert d["mode"] == "files" and d["checkpoints"] == 2, d
assert d["directory"].endswith("file.dat.checkpoints"), d
'
check "the files are there" test "$(find "$WORK/file.dat.checkpoints" -type f | wc -l)" -eq 8

# --- block devices (loop devices, root only) -------------------------------
if [ "$(id -u)" -ne 0 ]; then
	skip_all "raw device checkpoints need root"
fi
if ! command -v losetup >/dev/null || ! losetup -f >/dev/null 2>&1; then
	skip_all "losetup unavailable"
fi

# pattern_file PATH MIB: MIB MiB of a known 4-byte pattern (never zeros)
pattern_file() {
	python3 - "$1" "$2" <<'PY'
import sys
block = bytes([0xA5, 0x5A, 0xC3, 0x3C]) * (1 << 18)
with open(sys.argv[1], "wb") as f:
    for _ in range(int(sys.argv[2])):
        f.write(block)
PY
}
# new_loop NAME MIB [blank]: a patterned image (a sparse, blank one with
# "blank") under $WORK on a fresh loop device
new_loop() {
	if [ "${3:-}" = blank ]; then truncate -s "$2M" "$WORK/$1.img" || return 1
	else pattern_file "$WORK/$1.img" "$2" || return 1; fi
	LOOP=$(losetup -f --show "$WORK/$1.img") || return 1
	LOOPS="$LOOPS $LOOP"
}
digest() { dd if="$1" bs=1M iflag=direct status=none | sha256sum; }

new_loop raw 256 && raw=$LOOP
if [ -z "$raw" ]; then
	skip_all "could not attach a loop device"
fi

# (1) the command: 2 passes of 3 checkpoints of 8 MB over 4 ranks
rm -f "$DRIVEBENCH_DB"
expect_exit 0 "checkpoint on a loop device" \
	checkpoint --checkpoint-size 8MB --ranks 4 --count 3 --passes 2 "$raw"
expect_output "3 checkpoints as regions of $raw from offset 0" "prints the region mode"
expect_output "^pass 2 checkpoint 3/3: 8.0 MB" "a progress line per checkpoint"
check "every checkpoint stored with its pass and index" sql "$DRIVEBENCH_DB" '
rows = c.execute("select job_name, pass, pass_index from results order by id").fetchall()
want = [("pass%d-ckpt%03d" % (p, i), p, i) for p in (1, 2) for i in (1, 2, 3)]
assert rows == want, rows
'
check "each checkpoint wrote the plan's bytes" sql "$DRIVEBENCH_DB" '
for rid, b in c.execute("select r.id, sum(d.bytes) from results r join result_dirs d on d.result_id = r.id group by r.id"):
    assert b == 8000000, (rid, b)
'
check "the steps record region mode and the regions" sql "$DRIVEBENCH_DB" '
import json
steps = c.execute("select name, status, detail from steps order by id").fetchall()
assert [(n, s) for n, s, _ in steps] == [("pass 1", "done"), ("pass 2", "done")], steps
for _, _, text in steps:
    d = json.loads(text)
    assert d["mode"] == "regions" and d["device"] == "'"$raw"'" and d["offset"] == 0, d
    assert d["checkpoints"] == 3 and len(d["regions"]) == 3 * 8, d
    total = 0
    for i, r in enumerate(d["regions"]):
        assert r["offset"] % 4096 == 0, r
        if i:
            p = d["regions"][i - 1]
            assert r["offset"] == p["offset"] + (p["length"] + 4095) // 4096 * 4096, (p, r)
        total += r["length"]
    assert total == 3 * 8000000, total
    assert d["bytes_needed"] == 3 * d["span"], d
'
sqlite3 "$DRIVEBENCH_DB" "select detail from steps where name = 'pass 1'" >"$WORK/regions.json"
check "the regions hold what was written; nothing else was touched" python3 - "$raw" "$WORK/regions.json" <<'PY'
import json, os, sys
dev, d = sys.argv[1], json.load(open(sys.argv[2]))
pat = bytes([0xA5, 0x5A, 0xC3, 0x3C]) * 1024
fd = os.open(dev, os.O_RDONLY)
size = os.lseek(fd, 0, os.SEEK_END)
def at(off, n):
    return os.pread(fd, n, off)
end = 0
for r in d["regions"]:
    # written: neither the pattern nor zeros, from the first byte to the last
    head = at(r["offset"], 4096)
    last = at(r["offset"] + r["length"] - 4096, 4096)
    assert head != pat and head.count(0) < 4096, r
    assert last != pat and last.count(0) < 4096, r
    # the rest of the region's last 4 KiB block is the pattern again
    stop = r["offset"] + r["length"]
    pad = (-stop) % 4096
    if pad:
        assert at(stop, pad) == pat[stop % 4:stop % 4 + pad], r
    end = max(end, stop + pad)
assert end == d["bytes_needed"], (end, d["bytes_needed"])
# every byte after the last region is untouched
off = end
while off < size:
    n = min(1 << 20, size - off)
    block = at(off, n)
    assert block == (pat * ((n // len(pat)) + 1))[:n], off
    off += n
PY
check "the report shows the region-mode checkpoints" \
	sh -c '"$0" report --out "$1" >/dev/null 2>&1' "$DB" "$WORK/report.html"
check "the report's checkpoint section" grep -q "DLIO checkpoints" "$WORK/report.html"

# (3) checkpoints that do not fit: refused up front, nothing written or stored
before=$(digest "$raw")
rm -f "$DRIVEBENCH_DB"
expect_exit 2 "checkpoints larger than the device are refused" \
	checkpoint --checkpoint-size 100MB --ranks 4 --count 3 --passes 1 "$raw"
expect_output "need 300023808 bytes; 268435456 are available" "says the bytes needed and available"
check "the device is untouched" test "$(digest "$raw")" = "$before"
check "no database written" test ! -e "$DRIVEBENCH_DB"
expect_exit 2 "not one checkpoint fits" checkpoint --checkpoint-size 1000GB --ranks 2 "$raw"
expect_output "not one checkpoint" "says why"
cat >"$WORK/big.suite" <<'EOF'
[suite]
name = big
[checkpoint]
step = checkpoint
checkpoint_size = 64MB
ranks = 4
count = 5
passes = 1
EOF
rm -f "$DRIVEBENCH_DB"
expect_exit 2 "a suite's checkpoints larger than the device are refused" \
	suite --suite "$WORK/big.suite" "$raw"
expect_output "5 checkpoints of 64028672 bytes \(as regions of $raw\) need 320143360 bytes; 268435456 are available" \
	"the suite says the bytes needed and available"
check "the device is still untouched" test "$(digest "$raw")" = "$before"

# (4) a device with a filesystem: refused without consent, nothing written
new_loop ext4 64 && ext4=$LOOP
check "ext4 made on $ext4" mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$ext4"
before=$(digest "$ext4")
rm -f "$DRIVEBENCH_DB"
expect_exit 3 "a device with ext4 is refused without consent" \
	checkpoint --checkpoint-size 8MB --ranks 2 --count 1 --passes 1 "$ext4"
expect_output "ext4" "the refusal names the filesystem"
expect_output "destroy-data" "and how to consent"
check "the ext4 device is untouched" test "$(digest "$ext4")" = "$before"
check "no database written for the refusal" test ! -e "$DRIVEBENCH_DB"
expect_exit 3 "the suite's checkpoint step is refused on it too" \
	suite --suite "$WORK/small.suite" "$ext4"
check "the ext4 device is still untouched" test "$(digest "$ext4")" = "$before"
expect_exit 0 "--destroy-data with the kernel name consents" \
	checkpoint --checkpoint-size 8MB --ranks 2 --count 1 --passes 1 \
	--destroy-data "$(basename "$ext4")" "$ext4"
check "ext4 made again on $ext4" mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$ext4"
expect_exit 0 "the suite's --destroy-data consents to the regions too" \
	suite --suite "$WORK/small.suite" --destroy-data "$(basename "$ext4")" "$ext4"
expect_output "2 checkpoints as regions of $ext4" "and writes them as regions"

# (2) the whole quick suite on a 1 GiB loop device, every timed part at
# 0.15 of its time (--time-scale; 81 s at full time on 2 cores, 17 s at
# 0.15): every step done, the checkpoint step as regions of the device
# (nothing here reads back what the device held before: a blank image)
new_loop quick 1024 blank && quick=$LOOP
rm -f "$DRIVEBENCH_DB"
OUT=$(timeout 600 "$DB" suite --suite "$SUITES/quick.suite" --time-scale 0.15 "$quick" \
	2>"$TMP/stderr"); RC=$?
ERR=$(cat "$TMP/stderr")
check "the whole quick suite on a loop device" test "$RC" -eq 0
expect_output "3 checkpoints as regions of $quick" "the suite prints the region mode"
check "every step done" sql "$DRIVEBENCH_DB" '
rows = c.execute("select name, status from steps order by id").fetchall()
assert len(rows) == 24 and all(s == "done" for _, s in rows), rows
assert rows[-1][0] == "checkpoint", rows
'
check "9 checkpoints stored, regions recorded" sql "$DRIVEBENCH_DB" '
import json
n = c.execute("select count(*) from results r join steps s on s.id = r.step_id where s.name = \"checkpoint\" and r.pass is not null").fetchone()[0]
assert n == 9, n
d = json.loads(c.execute("select detail from steps where name = \"checkpoint\"").fetchone()[0])
assert d["mode"] == "regions" and d["checkpoints"] == 3 and len(d["regions"]) == 24, d
'
check "--time-scale 0.15: a point ran 0.15 s and its stored options say so" sql "$DRIVEBENCH_DB" '
import json
o, ns = c.execute("select options_json, runtime_ns from results where job_name = \"seq-read-128k\"").fetchone()
o = json.loads(o)
assert o["runtime"] == "150000us" and o["ramp_time"] == "30000us", o
assert 0.145e9 <= ns <= 0.25e9, ns
'
