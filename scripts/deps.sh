#!/bin/sh
# Installs the Debian packages drivebench needs to build and test, when any
# is missing. Needs root (or sudo) only when something must be installed.
# Extra package names on the command line are needed too (`make fuzz` adds
# clang and libFuzzer's runtime: clang libclang-rt-dev). python3-numpy and
# python3-pandas are for fio's fiologparser_hist.py in the tests.
# libfuse3-dev and fuse3 serve the model as a file (drivebench vssd-serve).
# xfsprogs has mkfs.xfs for checkpoints on XFS (checkpoint_fs = xfs).
# qemu-system-x86, busybox-static and cpio boot the NVMe tests (tests/nvme/);
# prometheus-node-exporter and prometheus (promtool) test --metrics-file
# (tests/cli/test_metrics.sh); curl scrapes the exporter there.
set -e
need="gcc make pkg-config liburing-dev libaio-dev libsqlite3-dev libcjson-dev \
libcmocka-dev libblkid-dev libssl-dev libfuse3-dev fuse3 fio util-linux mount fdisk e2fsprogs xfsprogs python3 chromium strace \
python3-numpy python3-pandas qemu-system-x86 busybox-static cpio prometheus-node-exporter prometheus curl $*"
missing=""
for p in $need; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
		|| missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing$missing"
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing
