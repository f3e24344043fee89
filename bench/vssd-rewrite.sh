#!/bin/sh
# vssd-rewrite.sh - the checkpoint drift the models can show: each drive
# whose review ran DLIO's checkpoints, at the fit's scale, with the share
# of it the review's checkpoints filled (METHODOLOGY.md 5: 15 x 1,636 GB
# of 30.72 TB, 33 of 61.44, 66 of 122.88, 130 of 245.76) and with all of
# it (a filesystem without discard that has put blocks on every LBA by
# pass 3), rewritten in place and in a random order of 4 MiB chunks, off
# the clock (bench/vssd_rewrite.c). Prints each pass's WAF. A benchmark,
# not a test (docs/checkpoint.md). Usage: sh bench/vssd-rewrite.sh (after make)
set -eu
build=${BUILD:-build}
cc=${CC:-cc}
chunk=${CHUNK:-4m}
$cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Isrc -o "$build/vssd_rewrite" \
	bench/vssd_rewrite.c "$build/libdrivebench.a" -lm
# spec scale fill (the review's share)
for drive in "solidigm-d5-p5430-30t 4g 0.799" "dapustor-j5060-61t 8g 0.879" \
	"solidigm-d5-p5336-122t 8g 0.879" "micron-6600-ion-245t 8g 0.865"; do
	set -- $drive
	for fill in "$3" 1; do
		for order in inplace random; do
			printf '%-24s %s fill %-5s %-7s ' "$1" "$2" "$fill" "$order"
			"$build/vssd_rewrite" "specs/$1.ini" "$2" "$fill" "$chunk" "$order" |
				awk '/^pass/ { printf " pass %s %s", $2, $4 } END { print "" }'
		done
	done
done
