#!/bin/sh
# cachegrind.sh - instructions per I/O of the run loop: runs a null-engine
# job and a psync job on a small file in /tmp under cachegrind, each with a
# fixed I/O count N and again with 2N, and prints (Ir(2N) - Ir(N)) / N, so
# the startup and the report cancel out and what is left is the per-I/O
# path. A script, not a test: compare its output before and after a change
# to the loop (valgrind must be installed).
# Usage: sh bench/cachegrind.sh [DRIVEBENCH] [N]
set -e
DB=${1:-build/drivebench}
N=${2:-100000}
WORK=$(mktemp -d /tmp/drivebench-cachegrind.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
FILE="$WORK/target.dat"
dd if=/dev/zero of="$FILE" bs=1M count=16 2>/dev/null

# instructions IOS ARGS...: Ir of one run of IOS I/Os
instructions() {
	ios=$1; shift
	valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$WORK/cg.out" \
		"$DB" run --no-db --name=cg --rw=randread --bs=4k --number_ios="$ios" \
		--output-format=terse "$@" >/dev/null 2>"$WORK/cg.err" ||
		{ cat "$WORK/cg.err" >&2; exit 1; }
	awk '/^summary:/ {print $2}' "$WORK/cg.out"
}

# per_io NAME ARGS...: prints the case's Ir per I/O
per_io() {
	name=$1; shift
	one=$(instructions "$N" "$@")
	two=$(instructions $((2 * N)) "$@")
	awk -v name="$name" -v one="$one" -v two="$two" -v n="$N" 'BEGIN {
		printf "%-8s Ir/I/O %8.1f   (Ir %d for %d I/Os, %d for %d)\n",
			name, (two - one) / n, one, n, two, 2 * n }'
}

per_io null --ioengine=null --size=1g
per_io psync --ioengine=psync --filename="$FILE" --size=16m --io_size=1g
