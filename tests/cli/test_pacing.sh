#!/bin/bash
# test_pacing.sh - the pacing, shape, trim and job-control options, from the
# job files of tests/data/jobs/ (each uses its options as fio's docs do),
# checked for what they do, with margins a loaded 2-core machine keeps:
# rates, think time, number_ios, loops, startdelay, bsrange, offset
# modifiers, zoned / sequence distributions, strided zones, trims on a file
# and a loop device, flows, wait_for, exitall, latency_target, iodepth_low,
# and the errors of each.
. "$(dirname "$0")/lib.sh"
JOBS="$(cd "$(dirname "$0")/../data/jobs" && pwd)"

# run_job FILE ARGS...: runs a job file to JSON in $TMP/NAME.json
run_job() {
	name=$(basename "$1" .fio)
	f=$1
	shift
	run_db run "$JOBS/$f" --no-db --output-format=json "$@"
	echo "$OUT" > "$TMP/$name.json"
}

# jcheck WHAT FILE PYTHON: PYTHON runs with j = {jobname: job} of FILE's JSON
jcheck() {
	what=$1
	file=$2
	code=$3
	if python3 - "$TMP/$file.json" "$code" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
j = {}
for job in d["jobs"]:
    j.setdefault(job["jobname"], job)
def errors(job, d="read"):
    return job["drivebench"]["errors"][d]
exec(sys.argv[2])
PY
	then ok "$what"; else not_ok "$what"; head -c 600 "$TMP/$file.json"; echo; fi
}

# --- rate, rate_iops, poisson ------------------------------------------------
run_job rate.fio
check "rate.fio runs (exit $RC)" test "$RC" -eq 0
jcheck "rate=1m for 2 s writes about 2 MiB" rate '
b = j["rate-1m"]["write"]["io_bytes"]
assert 1.4e6 < b < 2.6e6, b'
jcheck "rate_iops=200 caps the IOPS (at most 200 a second over 2 s)" rate '
n = j["iops-200"]["read"]["total_ios"]
assert 280 <= n <= 402, n'
jcheck "rate_process=poisson keeps the mean rate" rate '
n = j["poisson-200"]["read"]["total_ios"]
assert 250 <= n <= 560, n'
jcheck "rate=R,W caps each direction" rate '
r, w = j["per-direction"]["read"]["io_bytes"], j["per-direction"]["write"]["io_bytes"]
assert 0.6e6 < r < 1.3e6 and 0.3e6 < w < 0.65e6, (r, w)'
run_job offload.fio
jcheck "io_submit_mode=offload holds 500 IOPS with 5 ms completions" offload '
n = j["fixed-rate-submit"]["read"]["total_ios"]
lat = j["fixed-rate-submit"]["read"]["clat_ns"]["mean"]
assert 700 <= n <= 1002 and lat >= 5e6, (n, lat)'
run_job rate-min.fio
check "rate_min not met fails the job (exit $RC)" test "$RC" -eq 1
expect_output "job 'slow': rate_min=1048576 B/s not met, got [0-9]+ B/s" "the failure names the rate found"
jcheck "the job's error is EIO, before its 6 s runtime" rate-min '
s = j["slow"]
assert s["error"] == 5 and s["read"]["runtime"] < 5900, (s["error"], s["read"]["runtime"])'

# --- thinktime, number_ios, loops, startdelay --------------------------------
run_job thinktime.fio
jcheck "thinktime=100ms every 2 of 10 I/Os takes at least 5 x 100 ms" thinktime '
t = j["think"]["drivebench"]["runtime_ns"]
assert j["think"]["read"]["total_ios"] == 10 and 495e6 <= t < 5e9, t'
jcheck "thinktime_blocks_type=issue with thinktime_spin: 2 think times of 50 ms" thinktime '
t = j["think-issue-spin"]["drivebench"]["runtime_ns"]
assert j["think-issue-spin"]["read"]["total_ios"] == 16 and 99e6 <= t < 5e9, t'
jcheck "thinktime_iotime=1s: a think time of 200 ms (an empty 100 ms sample) after each second" thinktime '
s = j["think-every-second"]["drivebench"]["series"]
empty = sum(1 for p in s if p["read"]["ios"] == 0)
assert 2 <= empty <= 6, empty'
run_job number-ios.fio
jcheck "number_ios=100 stops after 100 I/Os" number-ios '
assert j["hundred"]["read"]["total_ios"] == 100'
run_job loops.fio
jcheck "loops=3 moves 3 x the region" loops '
assert j["three-passes"]["read"]["io_bytes"] == 3 << 20'
jcheck "each loop starts at the region's start" loops '
assert errors(j["starts-again"]) == 3, errors(j["starts-again"])'
run_job startdelay.fio
jcheck "startdelay=1 starts the job a second later" startdelay '
d = j["later"]["job_start"] - j["now"]["job_start"]
assert 950 <= d < 4000, d'
jcheck "startdelay=1-2 starts it within the range" startdelay '
d = j["ranged"]["job_start"] - j["now"]["job_start"]
assert 950 <= d < 5000, d'

# --- bsrange, offset modifiers -----------------------------------------------
run_job bsrange.fio
jcheck "bsrange=4k-16k: sizes average 10k (4k, 8k, 12k, 16k equally)" bsrange '
r = j["range"]["read"]
m = r["io_bytes"] / r["total_ios"]
assert r["total_ios"] == 4000 and 9000 < m < 11500 and r["io_bytes"] % 4096 == 0, m'
jcheck "bsrange=4k-4k,8k-64k: reads all 4k, writes 8k..64k" bsrange '
r, w = j["per-direction"]["read"], j["per-direction"]["write"]
assert r["io_bytes"] == 4096 * r["total_ios"]
m = w["io_bytes"] / w["total_ios"]
assert 30000 < m < 44000 and w["io_bytes"] % 8192 == 0, m'
run_job rw-modifier.fio
jcheck "rw=read:8k reads 0, 12k, 24k, 36k, then ends as fio (every I/O hits a listed offset)" rw-modifier '
assert errors(j["holes-read"]) == 4 and j["holes-read"]["read"]["total_ios"] == 0'
jcheck "rw=read:8k skips the 8k after each read" rw-modifier '
assert errors(j["holes-skipped"]) == 0 and j["holes-skipped"]["read"]["total_ios"] == 4'
jcheck "rw=read:-8k reads backwards and never the last 4k" rw-modifier '
assert errors(j["backwards-never-44k"]) == 0'
jcheck "rw=read:-8k: the second read is at size - 8k" rw-modifier '
assert errors(j["backwards-second-is-40k"]) == 1'
jcheck "rw=randread:4 with rw_sequencer=identical repeats each offset 4 times" rw-modifier '
e = errors(j["identical"])
assert e in (8, 12), e'

# --- distributions, strided zones --------------------------------------------
run_job zoned.fio
jcheck "zoned with an empty last share: half the I/Os in the first 5%" zoned '
e = errors(j["zone-1"])
assert 1800 < e < 2200, e'
jcheck "the empty share is the remaining 80% with 20% of the I/Os" zoned '
e = errors(j["zone-3-part"])
assert 90 < e < 230, e'
jcheck "zoned_abs: half the I/Os in the first 80k" zoned '
e = errors(j["abs-zone-1"])
assert 1800 < e < 2200, e'
run_job sequence.fio
jcheck "sequence:2,0,1 accesses block 0 twice in 6 I/Os" sequence '
assert errors(j["block-0-twice"]) == 2 and j["block-0-twice"]["read"]["total_ios"] == 4'
jcheck "block 0 is the second of the order" sequence '
assert errors(j["block-0-after-skip-2"]) == 1'
jcheck "random_sequence_stride=1 moves on by 3 blocks a pass (block 5 once)" sequence '
s = j["stride-block-5"]
assert errors(s) == 1 and s["read"]["total_ios"] == 11
assert s["drivebench"]["first_error"]["read"]["offset"] == 20480'
jcheck "block 5 is the fourth I/O" sequence '
assert errors(j["stride-block-5-after-skip-4"]) == 0'
run_job zonemode.fio
jcheck "zonemode=strided starts a zone every zonesize + zoneskip" zonemode '
assert errors(j["zone-starts"]) == 4'
jcheck "the skipped bytes are never read" zonemode '
s = j["skipped"]["read"]
assert errors(j["skipped"]) == 0 and s["io_bytes"] == 1 << 20, s["io_bytes"]'

# --- trims -------------------------------------------------------------------
for engine in io_uring libaio psync; do
	rm -f "$TMP/trim.dat"
	run_job trim.fio --set filename="$TMP/trim.dat" --set ioengine=$engine
	check "trim.fio on a file with $engine (exit $RC)" test "$RC" -eq 0
	jcheck "$engine: randtrim trims the region; trimwrite trims and writes each block" trim '
assert j["discard"]["trim"]["io_bytes"] == 1 << 20 and j["discard"]["write"]["total_ios"] == 0
t = j["trim-then-write"]
assert t["trim"]["io_bytes"] == 256 << 10 and t["write"]["io_bytes"] == 256 << 10'
	check "$engine: the trimmed blocks read back as zeros (past trimwrite's 256k)" \
		cmp -s -i 262144:0 -n 786432 "$TMP/trim.dat" /dev/zero
	check "$engine: and are holes: the file occupies about 256 KiB of its 1 MiB" \
		test "$(du -k "$TMP/trim.dat" | cut -f1)" -le 320
	check "$engine: trimwrite wrote its blocks again" \
		test "$(head -c 262144 "$TMP/trim.dat" | tr -d '\0' | wc -c)" -gt 200000
done
dd if=/dev/urandom of="$TMP/theirs.dat" bs=64k count=16 2>/dev/null
expect_exit 3 "a trim of a file drivebench did not create is refused" \
	run --no-db --name=t --filename="$TMP/theirs.dat" --rw=trim --bs=64k --size=1m
expect_output "refusing to write to" "the write gate names the file"
if truncate -s 16m "$TMP/loop.img" && loopdev=$(losetup -f --show "$TMP/loop.img" 2>/dev/null); then
	id=$(basename "$loopdev")
	run_db run --no-db --name=w --filename="$loopdev" --rw=write --bs=64k --size=4m \
		--direct=1 --destroy-data="$id"
	run_job trim.fio --set filename="$loopdev" --set size=4m --set direct=1 \
		--destroy-data="$id"
	check "randtrim on a loop device (exit $RC)" test "$RC" -eq 0
	jcheck "the device's trims are counted" trim '
assert j["discard"]["trim"]["io_bytes"] == 4 << 20'
	run_db run --no-db --name=d --filename="$loopdev" --rw=randtrim --bs=64k --size=4m \
		--destroy-data="$id"
	check "the discarded device reads back zeros" cmp -s -n 4194304 "$loopdev" /dev/zero
	mkfs.ext4 -q -F "$loopdev" >/dev/null 2>&1
	expect_exit 3 "randtrim on a device with a filesystem is refused" \
		run --no-db --name=t --filename="$loopdev" --rw=randtrim --bs=64k --size=1m
	expect_output "carries an ext4 filesystem" "the refusal names the filesystem"
	losetup -d "$loopdev"
else
	ok "loop device trims (skipped: no loop device here)"
fi

# --- flows, wait_for, exitall ------------------------------------------------
run_job flow.fio
jcheck "flow=1 and flow=8 share I/O about 1:8" flow '
a, b = j["job2"]["write"]["total_ios"], j["job1"]["read"]["total_ios"]
assert a > 0 and 6 < b / a < 10, (a, b)'
run_job waitfor.fio
jcheck "wait_for=writers starts the readers when the writers are done" waitfor '
w, r = j["writers"], j["readers"]
assert r["job_start"] >= w["job_start"] + 450, (w["job_start"], r["job_start"])'
run_job exitall.fio
jcheck "exitall ends the group's other jobs when the first finishes" exitall '
l = j["long"]["drivebench"]["runtime_ns"]
assert l < 5e9 and not j["long"]["drivebench"]["partial"], l'
run_db run --no-db --exitall_on_error --name=bad --ioengine=fault:null --size=1m \
	--fault_eio_offsets=512k --name=long --ioengine=null --size=64m --runtime=30 --time_based \
	--output-format=json
echo "$OUT" > "$TMP/eoe.json"
jcheck "exitall_on_error ends the others when a job fails" eoe '
assert j["bad"]["error"] == 5 and j["long"]["drivebench"]["runtime_ns"] < 5e9'
run_db run --no-db --name=a --ioengine=null --size=64m --runtime=300ms --time_based \
	--exitall --exit_what=all --name=b --ioengine=null --size=64m --runtime=30 --time_based \
	--name=c --stonewall --ioengine=null --size=64m --runtime=30 --time_based \
	--output-format=json
echo "$OUT" > "$TMP/ewall.json"
jcheck "exit_what=all also ends the jobs after a stonewall" ewall '
assert j["b"]["drivebench"]["runtime_ns"] < 5e9 and j["c"]["drivebench"]["runtime_ns"] < 1e9'

# --- latency_target, iodepth_low ---------------------------------------------
run_job latency-target.fio --set filename="$TMP/lat.dat"
jcheck "latency_target finds a depth below iodepth and writes fio's fields" latency-target '
p = j["profile"]
assert 1 <= p["latency_depth"] < 64, p["latency_depth"]
assert p["latency_target"] == 20 and p["latency_window"] == 50000
assert p["latency_percentile"] == 90.0 and p["read"]["total_ios"] > 0'
expect_exit 1 "a latency target missed at iodepth 1 fails the job" run --no-db --name=l \
	--ioengine=null --null_latency=10us --size=1m --latency_target=1us
expect_output "latency of [0-9]+ ns exceeds latency_target \(1000 ns\) at iodepth 1" \
	"the failure names the latency and the target"
run_job iodepth-low.fio
jcheck "iodepth_low=4 of 16 keeps fewer I/Os in flight" iodepth-low '
f, l = j["full"]["read"]["total_ios"], j["low"]["read"]["total_ios"]
assert l < 0.85 * f, (f, l)'

# --- errors -----------------------------------------------------------------
expect_exit 2 "zonemode=zbd off a zoned device is refused" run --no-db --name=z --ioengine=null --zonemode=zbd
expect_output "zonemode=zbd needs a zoned block device" "naming what it needs (tests/cli/test_zbd.sh has the rest)"
expect_exit 2 "wait_for naming no earlier job is refused" run --no-db --name=a \
	--ioengine=null --wait_for=nobody
expect_output "wait_for=nobody: no job of that name before it" "naming the job"
expect_exit 2 "rate with rate_iops is refused" run --no-db --name=a --ioengine=null \
	--rate=1m --rate_iops=100
expect_output "rate and rate_iops .* cannot be combined" "saying why"
expect_exit 2 "a sequence block past the range is refused" run --no-db --name=a \
	--ioengine=null --rw=randread --size=48k --random_distribution=sequence:2,12
expect_output "sequence block 12 is out of bounds \(the range holds 12 blocks\)" "naming the block"
expect_exit 2 "zonemode=strided without zonesize is refused" run --no-db --name=a \
	--ioengine=null --zonemode=strided
expect_output "strided needs zonesize" "naming the missing option"
expect_exit 2 "verify with trims is refused" run --no-db --name=a --filename="$TMP/v.dat" \
	--rw=randtrim --verify=crc32c
expect_output "trims are not verified" "saying so"
expect_exit 2 "latency_target below 1us is refused" run --no-db --name=a --ioengine=null \
	--latency_target=500ns
expect_output "option 'latency_target': below 1us" "naming the unit"
cat > "$TMP/bad.fio" <<EOF
[a]
ioengine=null
rw=randread:x
EOF
expect_exit 2 "a bad offset modifier in a job file is refused" run "$TMP/bad.fio" --no-db
expect_output "bad.fio:3: .*option 'rw': offset modifier: bad size 'x'" "naming file, line and option"

# --- every wait gives way to a stop within a second ---------------------------
ms_now() { echo $(($(date +%s%N) / 1000000)); }
# stop_within_second WHAT ARGS...: SIGTERM after 0.5 s; exit 1 (partial) within 1 s
stop_within_second() {
	what=$1; shift
	"$DB" "$@" >"$TMP/stop.out" 2>"$TMP/stop.err" &
	pid=$!
	sleep 0.5
	t0=$(ms_now)
	kill -TERM $pid
	wait $pid
	rc=$?
	took=$(($(ms_now) - t0))
	echo "# $what: SIGTERM honoured after $took ms, exit $rc"
	check "$what: SIGTERM exits 1 (exit $rc)" test "$rc" -eq 1
	check "$what: within a second ($took ms)" test "$took" -lt 1000
	check "$what: the results so far are marked partial" grep -qi "partial" "$TMP/stop.out"
}
stop_within_second "thinktime=1d" run --no-db --name=j --ioengine=null --size=1m --thinktime=1d
stop_within_second "startdelay=1d" run --no-db --name=j --ioengine=null --size=1m --startdelay=1d
stop_within_second "rate=1 (a byte a second)" run --no-db --name=j --ioengine=null --size=1m --rate=1
stop_within_second "rate_iops=1 offloaded, 1d completions" run --no-db --name=j \
	--ioengine=null --size=1m --rate_iops=1 --io_submit_mode=offload --null_latency=1d \
	--iodepth=4
stop_within_second "wait_for a job of an hour" run --no-db --name=a --ioengine=null --size=1m \
	--runtime=1h --time_based --name=b --ioengine=null --size=1m --wait_for=a
