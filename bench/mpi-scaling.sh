#!/bin/sh
# mpi-scaling.sh - drivebench-mpi on 1, 2 and 4 ranks of this machine, on
# the null engine and on zram: the aggregate IOPS of N ranks against the sum
# of N single-rank runs (N x the one-rank figure), and the ratio. A ratio
# near 1 says the ranks' merge and barriers cost nothing; below 1 the ranks
# share something (CPUs: ranks past the core count share them).
#   sh bench/mpi-scaling.sh [build/drivebench-mpi]
#   RANKS="1 2 4 8" RUNTIME=5 CASES="null zram" sh bench/mpi-scaling.sh
set -eu
bin=${1:-build/drivebench-mpi}
ranks=${RANKS:-1 2 4}
runtime=${RUNTIME:-3}
cases=${CASES:-null zram}
zram=${ZRAM:-/dev/zram0}
zram_sysfs=/sys/block/${zram#/dev/}
zram_sized=0

die() { echo "mpi-scaling: $*" >&2; exit 1; }
[ -x "$bin" ] || die "no drivebench-mpi at '$bin' (make mpi)"
command -v mpirun >/dev/null || die "mpirun not found (make mpi installs openmpi-bin)"
command -v python3 >/dev/null || die "python3 not found"
[ "$(id -u)" -ne 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

cleanup() { [ "$zram_sized" = 1 ] && echo 1 >"$zram_sysfs/reset" 2>/dev/null; return 0; }
trap cleanup EXIT

# iops N OPTIONS...: the aggregate read IOPS of N ranks
iops() {
	n=$1; shift
	mpirun --oversubscribe --bind-to none -np "$n" "$bin" run --name=scale --rw=randread \
		--bs=4k --time_based --runtime="$runtime" --output-format=json --no-db "$@" 2>/dev/null |
	python3 -c '
import json, sys
text = sys.stdin.read()
doc = json.JSONDecoder().raw_decode(text[text.find("{"):])[0]
print("%.0f" % doc["jobs"][0]["read"]["iops"])'
}

for c in $cases; do
	case $c in
	null) opts="--ioengine=null --size=1g" ;;
	zram)
		[ -b "$zram" ] || { echo "== zram: $zram is not present, skipped"; continue; }
		if [ "$(cat "$zram_sysfs/disksize")" -eq 0 ]; then
			echo 1G >"$zram_sysfs/disksize" || die "cannot size $zram (needs root)"
			zram_sized=1
		fi
		# every rank reads the same device: reads need no target of their own
		opts="--ioengine=psync --size=1g --filename=$zram --direct=1" ;;
	*) die "unknown case '$c' (null, zram)" ;;
	esac
	echo "== $c: $opts, ${runtime} s per run"
	one=$(iops 1 $opts)
	[ -n "$one" ] || die "the one-rank run of case $c failed"
	printf '%6s %16s %22s %8s\n' ranks "aggregate IOPS" "sum of 1-rank runs" ratio
	for n in $ranks; do
		agg=$(iops "$n" $opts)
		[ -n "$agg" ] || die "the $n-rank run of case $c failed"
		python3 -c "
n, one, agg = $n, $one, $agg
print('%6d %16.0f %22.0f %8.2f' % (n, agg, n * one, agg / (n * one)))"
	done
done
echo "cores: $(nproc); ranks beyond them share CPUs, so the ratio falls"
