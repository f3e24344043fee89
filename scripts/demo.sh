#!/bin/sh
# make demo: runs examples/demo.fio on the default target (the scratch
# file), records it in a fresh demo database and writes the HTML report.
# Usage: scripts/demo.sh BUILD_DIR
set -e
build=${1:-build}
db="$build/demo.db"
report="$build/demo-report.html"
rm -f "$db" "$db-wal" "$db-shm"
echo "drivebench demo: examples/demo.fio on the default target"
"$build/drivebench" run examples/demo.fio --db="$db" --label="demo (scratch file)"
"$build/drivebench" report --db="$db" --out="$report" >/dev/null
echo
echo "HTML report: $(cd "$(dirname "$report")" && pwd)/$(basename "$report")"
