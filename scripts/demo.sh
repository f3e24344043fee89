#!/bin/sh
# make demo: runs examples/demo.fio on the default target (the scratch file)
# and prints the summary. Usage: scripts/demo.sh BUILD_DIR
set -e
build=${1:-build}
echo "drivebench demo: examples/demo.fio on the default target"
"$build/drivebench" run examples/demo.fio
