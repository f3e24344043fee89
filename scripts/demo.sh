#!/bin/sh
# make demo: runs suites/quick.suite and then suites/checkpoint-fill.suite
# on a modelled Solidigm D5-P5336 scaled to 8 GB (docs/vssd.md; about
# two minutes), records both in a fresh demo database under one label and
# writes the HTML report, ending with the report's path. The model has a
# real preconditioning curve, a steady state after several rounds, sweeps
# that saturate at its link and NAND, and checkpoint passes over a full
# drive slower than over an empty one (docs/vssd.md, "make demo on the
# model").
# DEMO_TARGET=PATH runs the quick suite on another target instead (the
# scratch file: DEMO_TARGET=./drivebench-scratch.dat), without the
# checkpoint fill (it would fill 90% of a file target's filesystem).
# Usage: scripts/demo.sh BUILD_DIR
set -e
build=${1:-build}
db="$build/demo.db"
report="$build/demo-report.html"
model="vssd:specs/solidigm-d5-p5336-122t.ini@8g"
target=${DEMO_TARGET:-$model}
[ -n "$target" ] || target=$model
rm -f "$db" "$db-wal" "$db-shm"
if [ "$target" = "$model" ]; then
	label="demo (D5-P5336 model)"
	echo "drivebench demo: suites/quick.suite and suites/checkpoint-fill.suite on $target"
	"$build/drivebench" suite --suite suites/quick.suite --skip checkpoint --db="$db" \
		--label="$label" "$target"
	"$build/drivebench" suite --suite suites/checkpoint-fill.suite --db="$db" \
		--label="$label" "$target"
else
	echo "drivebench demo: suites/quick.suite on $target"
	"$build/drivebench" suite --suite suites/quick.suite --db="$db" --label="demo" "$target"
fi
"$build/drivebench" report --db="$db" --out="$report" >/dev/null
echo
echo "HTML report: $(cd "$(dirname "$report")" && pwd)/$(basename "$report")"
