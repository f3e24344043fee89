#!/bin/sh
# vssd-rate.sh - how many modelled 4K I/Os per CPU-second the vssd model
# sustains on one core (issue 15 asks 2M): the virtual-time simulator
# (bench/vssd_sim.c over src/vssd/sim.c, no sleeping) on a filled drive,
# 4K random reads, then 4K random writes after the drive was randomly
# overwritten; next to it the null engine's IOPS through the runner on
# the same job, and the real-time vssd engine's at QD256. A benchmark,
# not a test. Usage: sh bench/vssd-rate.sh [MODEL [SCALE]] (run make first)
set -eu
build=${BUILD:-build}
model=${1:-specs/solidigm-d7-ps1030-12t.ini}
scale=${2:-8g}
ios=${IOS:-2000000}
cc=${CC:-cc}
$cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Isrc -o "$build/vssd_sim" \
	bench/vssd_sim.c "$build/libdrivebench.a" -lm
echo "== the model alone (virtual time): $model at $scale"
"$build/vssd_sim" "$model" "$scale" write:128k:16:1x randread:4k:256:$ios:10 \
	randwrite:4k:256:1x randwrite:4k:256:$ios
echo "== the null engine through the runner (reference), 4K randread QD256"
"$build/drivebench" run --no-db --name=n --ioengine=null --rw=randread --bs=4k \
	--iodepth=256 --size=1g --runtime=5 --time_based --output-format=terse | awk -F";" '{ print $3 ": read IOPS " $8 }'
echo "== the vssd engine in real time, 4K randread QD256 (fill first)"
cat >/tmp/vssd-rate.$$.fio <<JOB
[global]
ioengine=vssd
vssd_model=$model
vssd_scale=$scale
size=4g
[fill]
rw=write
bs=128k
iodepth=16
[rr]
stonewall
rw=randread
bs=4k
iodepth=256
runtime=5
time_based
JOB
"$build/drivebench" run --no-db --output-format=terse /tmp/vssd-rate.$$.fio | awk -F";" '$3 == "rr" { print $3 ": read IOPS " $8 }'
rm -f /tmp/vssd-rate.$$.fio
