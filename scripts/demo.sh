#!/bin/sh
# make demo: runs suites/quick.suite on the default target (the scratch
# file, about two minutes), records it in a fresh demo database and writes
# the HTML report from it, ending with the report's path.
# Usage: scripts/demo.sh BUILD_DIR
set -e
build=${1:-build}
db="$build/demo.db"
report="$build/demo-report.html"
rm -f "$db" "$db-wal" "$db-shm"
echo "drivebench demo: suites/quick.suite on the default target"
"$build/drivebench" suite --suite suites/quick.suite --db="$db" --label="demo (scratch file)"
"$build/drivebench" report --db="$db" --out="$report" >/dev/null
echo
echo "HTML report: $(cd "$(dirname "$report")" && pwd)/$(basename "$report")"
