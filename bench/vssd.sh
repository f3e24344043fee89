#!/bin/sh
# vssd.sh - what the modelled drive costs the host: CPU time per modelled
# I/O of ioengine=vssd against the null engine on the same job (4 KiB
# random reads of written data, then 4 KiB random writes), and so how many
# modelled I/Os per second one core could drive. A benchmark, not a test.
# Usage: bench/vssd.sh [DRIVEBENCH] [IOS=400000]
set -eu
db=${1:-build/drivebench}
ios=${2:-400000}
model=${MODEL:-models/generic-qlc.ini}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# cpu ENGINE_ARGS...: user+sys seconds of one run of the job file
cpu() {
	cat >"$tmp/j.fio" <<JOB
[global]
size=2g
iodepth=64
$1
[fill]
rw=write
bs=1m
[reads]
stonewall
rw=randread
bs=4k
number_ios=$ios
[writes]
stonewall
rw=randwrite
bs=4k
number_ios=$ios
JOB
	/usr/bin/time -f "%U %S" -o "$tmp/t" "$db" run --no-db --output-format=terse "$tmp/j.fio" >/dev/null
	awk '{ print $1 + $2 }' "$tmp/t"
}

null=$(cpu "ioengine=null")
vssd=$(cpu "ioengine=vssd
vssd_model=$model")
awk -v n="$null" -v v="$vssd" -v ios="$ios" 'BEGIN {
	per = (v - n) / (2 * ios) * 1e9
	printf "null  %.2f s CPU, vssd %.2f s CPU for 2 x %d I/Os (plus a 2 GiB fill)\n", n, v, ios
	rate = 0
	if (per > 0)
		rate = 1e3 / per
	printf "the engine: %.0f ns of CPU per I/O over the null engine: %.2f M modelled I/Os per second per core\n", per, rate
}'
