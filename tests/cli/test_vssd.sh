#!/bin/bash
# test_vssd.sh - ioengine=vssd, the modelled drive (docs/vssd.md), through
# the ordinary runner: refusals by name (no model, a bad model file, a bad
# scale, a range past the scaled capacity, verify with an engine that keeps
# no data); a QD1 read takes the modelled path; the SLC cache absorbs a
# burst and the write rate falls once it is full; random writes on a full
# drive are slower than on a fresh one (garbage collection).
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
expect_output "fewer than the 8 garbage collection needs" "... naming the smallest"
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
