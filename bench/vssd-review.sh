#!/bin/sh
# vssd-review.sh - runs review tests on a modelled drive through
# `drivebench run --ioengine=vssd`, as a user would, and prints the
# model's mean completion latency next to what the review measured on the
# real drive (figures the fit did not use: the 1/8 4K write peak fitted
# the P5430's write_ack_us, so it is not here), with the error ratio, then the
# median and worst error (issue 29). Latencies, not IOPS: in real time the
# runner, not the model, bounds IOPS at low depth on this machine (it
# hands each I/O back by sleeping). State: a sequential fill of the whole
# model (the reviews' preconditioning), then each case for RUNTIME s.
# Usage: sh bench/vssd-review.sh [DRIVEBENCH] (BUILD, RUNTIME, SCALE, SPEC env)
set -eu
db=${1:-${BUILD:-build}/drivebench}
runtime=${RUNTIME:-2}
scale=${SCALE:-4g}
spec=${SPEC:-$(pwd)/specs/solidigm-d5-p5430-30t.ini}
job=$(mktemp)
trap 'rm -f "$job"' EXIT
# name rw bs iodepth numjobs measured_us review (depth/jobs, as the review writes it)
cases="rw4k_1_1 randwrite 4k 1 1 11.8 seeds/002:4K-random-write-latency-1/1
rw4k_1_4 randwrite 4k 1 4 29.3 seeds/002:4K-random-write-latency-1/4
rr4k_1_1 randread 4k 1 1 99.8 seeds/002:4K-random-read-latency-1/1
rw64k_1_1 randwrite 64k 1 1 26.1 seeds/002:64K-random-write-latency-1/1
rr64k_1_1 randread 64k 1 1 228.2 seeds/002:64K-random-read-latency-1/1"
{
	printf '[global]\nioengine=vssd\nvssd_model=%s\nvssd_scale=%s\nsize=%s\n' "$spec" "$scale" "$scale"
	printf '[fill]\nrw=write\nbs=128k\niodepth=16\n'
	echo "$cases" | while read -r name rw bs qd jobs meas rev; do
		printf '[%s]\nstonewall\nrw=%s\nbs=%s\niodepth=%s\nnumjobs=%s\ngroup_reporting\nruntime=%s\ntime_based\n' \
			"$name" "$rw" "$bs" "$qd" "$jobs" "$runtime"
	done
} >"$job"
"$db" run --no-db --output-format=terse "$job" >"$job.out"
echo "$cases" | while read -r name rw bs qd jobs meas rev; do
	awk -F';' -v n="$name" -v m="$meas" -v r="$rev" '$3 == n {
		lat = ($6 > 0 ? $16 : $57)   # read or write clat mean (us)
		ratio = lat / m
		err = ratio >= 1 ? ratio : 1 / ratio
		printf "%-10s %-44s measured %8.1f us model %8.1f us ratio %.2f err %.2fx\n", n, r, m, lat, ratio, err
	}' "$job.out"
done | tee "$job.tab"
sed 's/.* err \([0-9.]*\)x$/\1/' "$job.tab" | sort -n | awk '{ e[NR] = $1 } END {
	med = NR % 2 ? e[(NR + 1) / 2] : (e[NR / 2] + e[NR / 2 + 1]) / 2
	printf "median error %.2fx, worst %.2fx over %d figures\n", med, e[NR], NR }'
rm -f "$job.out" "$job.tab"
