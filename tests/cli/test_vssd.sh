#!/bin/bash
# test_vssd.sh - ioengine=vssd, the modelled drive (docs/vssd.md), through
# the ordinary runner: refusals by name (no model, a bad model file, a bad
# scale, a range past the scaled capacity, verify with an engine that keeps
# no data); a QD1 read takes the modelled path; the SLC cache absorbs a
# burst and the write rate falls once it is full; random writes on a full
# drive are slower than on a fresh one (garbage collection); clat is the
# model's time from the runner's submit stamp (never negative, never below
# the controller's command latency, slat + clat = lat per I/O) at QD1 and
# 32, reads, writes, batches and two clones on one drive.
. "$(dirname "$0")/lib.sh"

model="$(pwd)/models/generic-qlc.ini"
v="--ioengine=vssd --vssd_model=$model"

expect_exit 2 "vssd without a model is refused" run --no-db --name=x --ioengine=vssd \
	--rw=read --bs=4k --size=1m
expect_output "ioengine=vssd needs vssd_model=" "... naming the option"
printf '[model]\ncell = plc\n' >"$TMP/bad.ini"
expect_exit 2 "a model file with a bad value is refused" run --no-db --name=x \
	--ioengine=vssd --vssd_model="$TMP/bad.ini" --rw=read --bs=4k --size=1m
expect_output "bad.ini:2: key 'cell': 'plc' is not a cell type" "... by file, line and key"
printf '[model]\nwarp = 9\n' >"$TMP/bad2.ini"
expect_exit 2 "an unknown model key is refused" run --no-db --name=x \
	--ioengine=vssd --vssd_model="$TMP/bad2.ini" --rw=read --bs=4k --size=1m
expect_output "bad2.ini:2: key 'warp': unknown key" "... by name"
printf '[drive]\ncapacity_tb = 1\n' >"$TMP/nomodel.ini"
expect_exit 2 "a spec file without [model] is refused" run --no-db --name=x \
	--ioengine=vssd --vssd_model="$TMP/nomodel.ini" --rw=read --bs=4k --size=1m
expect_output "no \[model\] section" "... saying what is missing"
expect_exit 2 "vssd_scale=2 is refused" run --no-db --name=x $v --vssd_scale=2 \
	--rw=read --bs=4k --size=1m
expect_output "option 'vssd_scale': 2 is not a fraction in \(0, 1\]" "... naming the option"
expect_exit 2 "a scale too small for garbage collection is refused" run --no-db --name=x $v \
	--vssd_scale=1/10000000 --rw=read --bs=4k --size=1m
expect_output "fewer than the 8 garbage collection needs" "... saying why"
expect_output "the smallest scale this model works at is [0-9]+m" "... and naming the smallest scale"
# too little spare (enough blocks per die, too few past what GC holds back):
# the scale named works, one MiB less does not
expect_exit 2 "a scale with too little spare for GC is refused" run --no-db --name=x \
	--ioengine=vssd --vssd_model=models/generic-qlc.ini --vssd_scale=1/20000 \
	--rw=write --bs=128k --size=1m
expect_output "too little spare: [0-9]+ blocks per die" "... saying why"
least=$(printf '%s\n' "$ERR" | sed -n 's/.*the smallest scale this model works at is \([0-9]*\)m .*/\1/p')
expect_output "vssd_scale=${least}m or vssd:MODEL@${least}m" "... naming the smallest (${least}m) as both options take it"
expect_exit 0 "the smallest scale named works" run --no-db --name=x \
	--ioengine=vssd --vssd_model=models/generic-qlc.ini --vssd_scale="${least}m" \
	--rw=write --bs=128k --size=1m
expect_exit 2 "... and one MiB less does not" run --no-db --name=x \
	--ioengine=vssd --vssd_model=models/generic-qlc.ini --vssd_scale="$((least - 1))m" \
	--rw=write --bs=128k --size=1m
expect_output "too little spare" "... for the reason given"
# whether a scale works is not monotonic (blocks per die are rounded): a
# scale above the smallest, just below a rounding step, is refused too,
# naming the same smallest and the nearest above it that works
expect_exit 2 "7500m, above the smallest but short of spare, is refused" run --no-db --name=x \
	--ioengine=vssd --vssd_model=models/generic-qlc.ini --vssd_scale=7500m \
	--rw=write --bs=128k --size=1m
expect_output "the smallest scale this model works at is ${least}m " \
	"... naming the same smallest (${least}m), below 7500m"
next=$(printf '%s\n' "$ERR" | sed -n 's/.*the nearest above 7500m that works is \([0-9]*\)m .*/\1/p')
check "... and the nearest above 7500m that works (${next:-none}m)" test -n "$next"
expect_exit 0 "the nearest scale named works" run --no-db --name=x \
	--ioengine=vssd --vssd_model=models/generic-qlc.ini --vssd_scale="${next:-1}m" \
	--rw=write --bs=128k --size=1m
expect_exit 2 "... and one MiB less does not" run --no-db --name=x \
	--ioengine=vssd --vssd_model=models/generic-qlc.ini --vssd_scale="$((${next:-1} - 1))m" \
	--rw=write --bs=128k --size=1m
# a large drive (its full capacity fails the memory check, so the search
# cannot start from it): the smallest scale is still named, and works
expect_exit 2 "a 30 TB model at too small a scale is refused" run --no-db --name=x \
	--ioengine=vssd --vssd_model=specs/solidigm-d5-p5430-30t.ini --vssd_scale=1g \
	--rw=read --bs=4k --size=1m
least=$(printf '%s\n' "$ERR" | sed -n 's/.*the smallest scale this model works at is \([0-9]*\)m .*/\1/p')
if [ -n "$least" ]; then ok "... naming the smallest scale (${least}m)"; else not_ok "no smallest scale named: $ERR"; fi
expect_exit 0 "... which works" run --no-db --name=x \
	--ioengine=vssd --vssd_model=specs/solidigm-d5-p5430-30t.ini --vssd_scale="${least:-0}m" \
	--rw=read --bs=4k --size=1m
expect_exit 2 "a range past the scaled capacity is refused" run --no-db --name=x $v \
	--rw=read --bs=4k --size=100g
expect_output "past the modelled drive's" "... naming both"
expect_exit 2 "verify with vssd is refused (it keeps no data)" run --no-db --name=x $v \
	--rw=write --bs=4k --size=1m --verify=crc32c
expect_output "the vssd engine keeps no data to verify" "... as with null"

# one process, one drive: the jobs of a job file age it in turn (the
# default scale, 1/1000: 61.44 GB with a 300 MB SLC cache; 240 MiB of it
# hold a whole number of SLC blocks per die)
cat >"$TMP/age.fio" <<JOB
[global]
ioengine=vssd
vssd_model=$model
[burst]
rw=write
bs=128k
iodepth=32
size=128m
[past-cache]
stonewall
rw=write
bs=128k
iodepth=32
offset=128m
size=1g
[qd1-read]
stonewall
rw=randread
bs=16k
iodepth=1
size=1g
number_ios=2000
[fresh-randwrite]
stonewall
rw=randwrite
bs=16k
iodepth=32
offset=4g
size=1g
runtime=2
time_based
JOB
expect_exit 0 "a job file ages the modelled drive" run --no-db --output-format=json "$TMP/age.fio"
printf '%s' "$OUT" >"$TMP/age.json"
check "the SLC cache absorbs the burst; past it the rate falls below half" python3 - "$TMP/age.json" <<'PY'
import json, sys
jobs = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
burst, past = jobs["burst"]["write"]["bw_bytes"], jobs["past-cache"]["write"]["bw_bytes"]
print("burst", burst, "past cache", past)
assert past < burst / 2, (burst, past)
PY
check "a QD1 16K read of written data takes the modelled path (5+80+10+4 us)" python3 - "$TMP/age.json" <<'PY'
import json, sys
jobs = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
lat = jobs["qd1-read"]["read"]["clat_ns"]["percentile"]["50.000000"] / 1000
# command 5 us + QLC tR 80 us + 16 KiB over a 1600 MB/s channel (10.2 us)
# + 16 KiB over PCIe 4 x4 (2.1 us); a read may wait behind a program
print("QD1 median", lat, "us")
assert 95 <= lat <= 115, lat
PY
check "random writes after the fill are slower than the SLC burst" \
	python3 - "$TMP/age.json" <<'PY'
import json, sys
jobs = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
print("fresh randwrite", jobs["fresh-randwrite"]["write"]["bw_bytes"])
assert jobs["fresh-randwrite"]["write"]["bw_bytes"] < jobs["burst"]["write"]["bw_bytes"]
PY

# clat on the model: a command reaches the drive at the runner's submit
# stamp, so no I/O completes sooner after it than the test model's
# command_us (5 us), and none before it (the report: clat min 93 ns, max
# 18446744073709551439, once the submit call took longer than the model's
# latency). Six short jobs on one drive; per-I/O logs for two of them.
pts="$(pwd)/tests/data/models/test-pts.ini"
cat >"$TMP/clat.fio" <<JOB
[global]
ioengine=vssd
vssd_model=$pts
vssd_scale=128m
filename=vssd:$pts@128m
size=128m
bs=4k
runtime=500ms
time_based
[randwrite-qd1]
rw=randwrite
iodepth=1
write_lat_log=$TMP/qd1
[randwrite-qd32]
stonewall
rw=randwrite
iodepth=32
[randread-qd32]
stonewall
rw=randread
iodepth=32
[write-128k-qd4]
stonewall
rw=write
bs=128k
iodepth=4
[randrw-qd8-two-clones]
stonewall
rw=randrw
iodepth=8
numjobs=2
group_reporting
[batched-qd16]
stonewall
rw=randwrite
iodepth=16
iodepth_batch_submit=8
iodepth_batch_complete_max=8
write_lat_log=$TMP/batch
JOB
expect_exit 0 "jobs at QD1..32 on the test model" run --no-db --output-format=json "$TMP/clat.fio"
printf '%s' "$OUT" >"$TMP/clat.json"
check "clat: the model's command latency <= min <= mean <= max < 1e12 ns; slat + clat = lat" \
	python3 - "$TMP/clat.json" <<'PY'
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
assert len(jobs) == 6, [j["jobname"] for j in jobs]
for j in jobs:
    for d in ("read", "write"):
        x = j[d]
        if x["total_ios"] == 0:
            continue
        c, s, l = x["clat_ns"], x["slat_ns"], x["lat_ns"]
        print(j["jobname"], d, x["total_ios"], "clat min", c["min"], "max", c["max"],
              "p99", c["percentile"]["99.000000"])
        assert 5000 <= c["min"] <= c["mean"] <= c["max"] < 1e12, (j["jobname"], d, c)
        assert max(c["percentile"].values()) < 1e12, (j["jobname"], d)
        assert l["min"] >= c["min"] and l["max"] >= c["max"], (j["jobname"], d)
        assert abs(s["mean"] + c["mean"] - l["mean"]) <= 1e-6 * l["mean"] + 1, \
            (j["jobname"], d, s["mean"], c["mean"], l["mean"])
PY
check "per I/O (fio's latency logs): clat >= 5 us and slat + clat = lat" python3 - "$TMP" <<'PY'
import glob, sys
for name in ("qd1", "batch"):
    col = {}
    for kind in ("slat", "clat", "lat"):
        log, = glob.glob("%s/%s_%s.*.log" % (sys.argv[1], name, kind))
        col[kind] = [int(line.split(",")[1]) for line in open(log)]
    n = len(col["clat"])
    print(name, n, "I/Os, clat min", min(col["clat"]), "max", max(col["clat"]))
    assert n > 100 and len(col["slat"]) == n == len(col["lat"]), name
    for s, c, l in zip(col["slat"], col["clat"], col["lat"]):
        assert 5000 <= c < 10**12 and s >= 0 and s + c == l, (name, s, c, l)
PY
