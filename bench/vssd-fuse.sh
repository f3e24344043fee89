#!/bin/bash
# vssd-fuse.sh - the overhead of `drivebench vssd-serve` (docs/vssd.md, "The
# model as a block device"): the same jobs (a 512 MiB fill, then 4K random
# read QD16, at QD1 (the added latency per request) and 128K sequential
# read QD16, 5 s each) on the vssd engine
# directly and through FUSE + a direct-I/O loop device (libaio) on the same
# model and scale; prints each job's IOPS and mean latency on both and the
# ratio. Needs root and /dev/fuse. Usage: bench/vssd-fuse.sh [MODEL [SCALE]]
set -eu
db=$(pwd)/${BUILD:-build}/drivebench
model=$(realpath "${1:-specs/solidigm-d5-p5430-30t.ini}")
scale=${2:-4g}
. "$(dirname "$0")/serve_lib.sh" fuse-bench
cat >"$work/jobs.fio" <<JOBS
[global]
size=512m
direct=1
[fill]
rw=write
bs=1m
iodepth=8
[rr4k]
stonewall
rw=randread
bs=4k
iodepth=16
time_based=1
runtime=5
[rr4k-qd1]
stonewall
rw=randread
bs=4k
iodepth=1
time_based=1
runtime=5
[seq128k]
stonewall
rw=read
bs=128k
iodepth=16
time_based=1
runtime=5
JOBS
# figures FILE: "job IOPS lat_us" per job of drivebench's JSON output
figures() {
	python3 - "$1" <<'PY'
import json, sys
for j in json.load(open(sys.argv[1]))["jobs"]:
    d = j["read"] if j["read"]["io_bytes"] else j["write"]
    print(j["jobname"], round(d["iops"]), round(d["lat_ns"]["mean"] / 1000, 1))
PY
}
"$db" run --no-db --output-format=json --output="$work/direct.json" --ioengine=vssd \
	--vssd_model="$model" --vssd_scale="$scale" --filename="vssd:$model@$scale" "$work/jobs.fio"
serve_start "$db" "$model" "$scale"
"$db" run --no-db --output-format=json --output="$work/fuse.json" --ioengine=libaio \
	--filename="$loop" "$work/jobs.fio"
echo "job        direct IOPS  lat_us | fuse+loop IOPS  lat_us | IOPS ratio  added lat_us"
join <(figures "$work/direct.json") <(figures "$work/fuse.json") |
	awk '{ printf "%-10s %11d %7.1f | %14d %7.1f | %10.3f %13.1f\n", $1, $2, $3, $4, $5, $4 / $2, $5 - $3 }'
