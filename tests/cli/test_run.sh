#!/bin/bash
# test_run.sh - `drivebench run` from the command line: jobs from options and
# job files, --set, JSON output, the default target, Ctrl-C, and every
# bad-input path (exit code 2 with a message naming the problem).
. "$(dirname "$0")/lib.sh"

# --- jobs from options, default target -----------------------------------
expect_exit 0 "run with fio options on the default target" \
	run --name=a --rw=randread --bs=4k --iodepth=4 --size=16m --runtime=1
expect_output "default target: $DRIVEBENCH_SCRATCH" "the default target is named"
check "scratch file created with 1 GiB" test "$(stat -c %s "$DRIVEBENCH_SCRATCH")" -eq $((1 << 30))
expect_output "read: .*B/s.*IOPS" "summary has bandwidth and IOPS"
expect_output "p99\.99" "summary has p99.99"

# --- JSON in fio's schema -------------------------------------------------
run_db run --name=j --ioengine=null --rw=randrw --bs=4k --iodepth=32 --size=256m \
	--output-format=json
check "json output exits 0" test "$RC" -eq 0
echo "$OUT" > "$TMP/out.json"
check "json follows fio's schema" python3 - "$TMP/out.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert "drivebench version" in d
j = d["jobs"][0]
r, w = j["read"], j["write"]
assert j["jobname"] == "j"
total = r["total_ios"] + w["total_ios"]
assert total == 256 * 256, total
assert r["io_bytes"] == r["total_ios"] * 4096
assert abs(r["iops"] * 4096 - r["bw_bytes"]) / r["bw_bytes"] < 1e-6
assert abs(r["bw"] - r["bw_bytes"] / 1024) <= 1
for k in ("1.000000", "50.000000", "99.990000", "99.999900"):
    assert k in r["clat_ns"]["percentile"], k
assert "trim" in j and j["trim"]["total_ios"] == 0
assert j["job options"]["rw"] == "randrw"
EOF

# --- job files, --set, trailing fio options -------------------------------
cat > "$TMP/two.fio" <<EOF
; comment
[global]
ioengine=null
bs=\${DB_TEST_BS}
size=64m

[first]
rw=read

[second]
rw=write
stonewall
EOF
export DB_TEST_BS=8k
run_db run "$TMP/two.fio" --output-format=json --set size=32m
check "job file runs" test "$RC" -eq 0
echo "$OUT" > "$TMP/two.json"
check "env substitution, --set and stonewall" python3 - "$TMP/two.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
a, b = d["jobs"]
assert a["read"]["io_bytes"] == 32 << 20 and a["read"]["total_ios"] == 4096
assert b["write"]["io_bytes"] == 32 << 20
assert a["groupid"] == 0 and b["groupid"] == 1
EOF
run_db run "$TMP/two.fio" --output-format=json --bs=4k
echo "$OUT" > "$TMP/three.json"
check "fio options after a job file override every job" python3 - "$TMP/three.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["jobs"][0]["read"]["total_ios"] == 64 * 256
EOF

# --- the demo job file parses and runs (shortened) ------------------------
expect_exit 0 "examples/demo.fio runs" run "$(dirname "$0")/../../examples/demo.fio" \
	--set runtime=200ms --set ramp_time=0 --set direct=0

# --- Ctrl-C --------------------------------------------------------------
start=$(date +%s%N)
timeout --preserve-status -s INT 1 "$DB" run --name=c --ioengine=null --rw=randread --bs=4k \
	--size=1g --time_based --runtime=60 > "$TMP/int.txt" 2>&1
rc=$?
end=$(date +%s%N)
check "SIGINT ends the run within a second" test $(((end - start) / 1000000)) -lt 2000
check "SIGINT run exits 1 (partial)" test "$rc" -eq 1
OUT=$(cat "$TMP/int.txt"); ERR=""
expect_output "PARTIAL" "interrupted results are marked partial"
expect_output "IOPS" "interrupted run still prints its results"

# --- bad input: exit 2 with the problem named -----------------------------
expect_exit 2 "nonexistent device" run --name=x --filename=/dev/nonexistent-db --rw=read
expect_output "/dev/nonexistent-db" "error names the missing target"
expect_exit 2 "size 0" run --name=x --filename="$TMP/new.dat" --rw=write --size=0
expect_output "size" "error names size"
expect_exit 2 "iodepth 0" run --name=x --ioengine=null --iodepth=0
expect_output "iodepth" "error names iodepth"
expect_exit 2 "rwmixread over 100" run --name=x --ioengine=null --rw=randrw --rwmixread=101
expect_output "rwmixread" "error names rwmixread"
expect_exit 2 "bssplit over 100%" run --name=x --ioengine=null --bssplit=4k/60:8k/50
expect_output "bssplit" "error names bssplit"
expect_exit 2 "unknown engine" run --name=x --ioengine=warp
expect_output "warp" "error names the engine"
expect_exit 2 "unknown option" run --name=x --frobnicate=1
expect_output "frobnicate" "error names the unknown option"
expect_exit 2 "unreadable job file" run "$TMP/missing.fio"
expect_output "missing.fio" "error names the job file"
printf '[j]\nrw=read\nbogus_option=1\n' > "$TMP/bad.fio"
expect_exit 2 "unknown option in a job file" run "$TMP/bad.fio"
expect_output "bad.fio:3.*bogus_option" "error names file, line and option"
expect_exit 2 "misaligned O_DIRECT block size" run --name=x --filename="$DRIVEBENCH_SCRATCH" \
	--rw=randread --bs=1000 --direct=1 --size=1m
expect_output "1000" "error names the misaligned size"
expect_exit 2 "buffer memory over the limit" run --name=x --ioengine=null --bs=1g \
	--chunk_size=1g --iodepth=8 --size=64g --max-buffer-mem=1g
expect_output "8 GiB|8.00 GiB" "memory error gives the arithmetic"
expect_exit 2 "unknown output format" run --name=x --ioengine=null --output-format=xml
expect_exit 2 "no jobs" run
if [ "$(id -u)" -eq 0 ] && [ -e /dev/zram0 ] && [ "$(cat /sys/block/zram0/disksize)" -gt 0 ]; then
	zsize=$(cat /sys/block/zram0/disksize)
	expect_exit 2 "size larger than the device" run --name=x --filename=/dev/zram0 \
		--rw=read --size=$((zsize + 1048576))
	expect_output "beyond the end" "error says the range is beyond the device"
else
	dd if=/dev/zero of="$TMP/loop.img" bs=1M count=8 status=none
	if loopdev=$(losetup -f --show "$TMP/loop.img" 2>/dev/null); then
		expect_exit 2 "size larger than the device" run --name=x --filename="$loopdev" \
			--rw=read --size=16m
		expect_output "beyond the end" "error says the range is beyond the device"
		losetup -d "$loopdev"
	else
		skip "size larger than a device (no zram0 or loop device)"
	fi
fi

# --- drive snapshots before and after each job (issue 3) ------------------
run_db run --name=snap --filename="$TMP/snap.dat" --rw=randwrite --bs=4k --size=4m \
	--output-format=json
echo "$OUT" > "$TMP/snap.json"
check "run --json carries drive snapshots before and after" python3 - "$TMP/snap.json" <<'EOF2'
import json, sys
x = json.load(open(sys.argv[1]))["jobs"][0]["drivebench"]
b, a, d = x["drive_before"], x["drive_after"], x["drive_delta"]
assert b["kind"] == "file" and a["kind"] == "file"
assert a["timestamp_ms"] >= b["timestamp_ms"]
assert d["elapsed_ms"] >= 0
assert d["host_bytes_written"] is None   # a file has no drive counters
EOF2
# a block device: zram0 where it has a size, else a loop device (zram0 is
# often there with no size, and the check must not pass by not running)
snapdev=; snaploop=
if [ -b /dev/zram0 ] && [ "$(cat /sys/block/zram0/disksize 2>/dev/null)" -gt 0 ] 2>/dev/null; then
	snapdev=/dev/zram0; snapkind=zram
elif [ "$(id -u)" -eq 0 ] && dd if=/dev/zero of="$TMP/snap.img" bs=1M count=8 status=none &&
	snaploop=$(losetup -f --show "$TMP/snap.img" 2>/dev/null); then
	snapdev=$snaploop; snapkind=loop
fi
if [ -n "$snapdev" ]; then
	run_db run --name=z --filename="$snapdev" --rw=randread --bs=4k --size=4m --output-format=json
	echo "$OUT" > "$TMP/zsnap.json"
	check "snapshot of a block device ($snapdev) names it" python3 - "$TMP/zsnap.json" "$snapkind" "${snapdev#/dev/}" <<'EOF2'
import json, sys
b = json.load(open(sys.argv[1]))["jobs"][0]["drivebench"]["drive_before"]
assert b["kind"] == sys.argv[2] and b["kernel_name"] == sys.argv[3], b
assert b["logical_block_size"] >= 512
EOF2
	[ -n "$snaploop" ] && losetup -d "$snaploop"
else
	skip "snapshot of a block device: no sized /dev/zram0, and a loop device needs root and losetup"
fi

# --- the run is stored, one step per reporting group (issue 4) -------------
rm -f "$TMP/steps.db"
run_db run "$TMP/two.fio" --db="$TMP/steps.db" --label=steps
check "a job file's run is stored" test "$RC" -eq 0
check "each reporting group is a stored step holding its results" python3 - "$TMP/steps.db" <<'EOF2'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
steps = c.execute("SELECT id, idx, name, status FROM steps ORDER BY idx").fetchall()
assert [s[1] for s in steps] == [0, 1], steps
assert all(s[3] == "done" for s in steps), steps
for sid, idx, name, status in steps:
    jobs = [r[0] for r in c.execute("SELECT job_name FROM results WHERE step_id = ?", (sid,))]
    assert jobs == (["first"] if idx == 0 else ["second"]), (name, jobs)
assert c.execute("SELECT label FROM runs").fetchone()[0] == "steps"
EOF2
