#!/bin/sh
# fio-examples.sh - the yardstick of fio job-file parity: runs every job file
# of fio's own examples/ folder (from a fio checkout; nothing of it is kept
# in this repository) with drivebench, unchanged but for the target, size
# and runtime, and says which run and give JSON with I/O, which are refused
# (and why), and which need hardware, a service or another program's engine.
#
# usage: sh bench/fio-examples.sh [DRIVEBENCH] FIO_EXAMPLES_DIR
#   prints one line per file and the totals; exit 0.
# Each file runs as
#   drivebench run FILE --set directory=TMP --set filename=ex.dat
#       --set size=16m --set runtime=1 --output-format=json --no-db
# (directory= as well as filename=, because several examples name a
# directory of their own, and fio joins directory= and filename=).
set -u
bin=${1:-build/drivebench}
dir=${2:-}
if [ -z "$dir" ]; then
	dir=$bin
	bin=build/drivebench
fi
[ -d "$dir" ] || { echo "usage: $0 [DRIVEBENCH] FIO_EXAMPLES_DIR" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
dir=$(cd "$dir" && pwd)
tmp=$(mktemp -d /var/tmp/drivebench-fio-examples.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# needs NAME: why the example cannot run here (empty when it can)
needs() {
	case "$1" in
	cpp_null) echo "an external engine (C++ null engine built by hand)" ;;
	dev-dax|libpmem) echo "persistent memory (DAX)" ;;
	dfs) echo "a DAOS pool" ;;
	gfapi) echo "a GlusterFS volume" ;;
	gpudirect-rdmaio-*|rdmaio-*) echo "RDMA hardware" ;;
	http-*) echo "an HTTP/S3/Swift/WebDAV service" ;;
	ime) echo "DDN IME" ;;
	libblkio-*) echo "libblkio and a virtio/vfio device" ;;
	libcufile-*|libhipfile-*) echo "a GPU and fio's libcufile/libhipfile engines (see drivebench gds)" ;;
	libhdfs) echo "an HDFS cluster" ;;
	libiscsi) echo "an iSCSI target" ;;
	libzbc-*|zbd-*|xnvme-zoned) echo "a zoned block device" ;;
	mtd) echo "an MTD flash device" ;;
	nbd) echo "an NBD server" ;;
	netio*) echo "fio's network engine and a peer" ;;
	nfs) echo "an NFS server (libnfs)" ;;
	rados|rbd) echo "a Ceph cluster" ;;
	sg_*) echo "a SCSI generic device" ;;
	uring-cmd-*) echo "an NVMe generic character device (io_uring passthrough)" ;;
	xnvme-*) echo "the xNVMe library and an NVMe device" ;;
	cross-stripe-verify) echo "a 3.7 TB NVMe drive (30 clones, offset_increment=124g)" ;;
	atomic-verify) echo "a device with atomic writes (RWF_ATOMIC: SCSI or NVMe, as the file says)" ;;
	exec) [ -x /usr/sbin/turbostat ] || echo "turbostat (the program it runs)" ;;
	numa) [ -d /sys/devices/system/node/node1 ] || echo "a second NUMA node" ;;
	*) echo "" ;;
	esac
}

# sprandom.fio reads bs= from $FIO_BS, as its header says to run it
export FIO_BS=${FIO_BS:-4096}

runs=0 refused=0 special=0 empty=0
for f in "$dir"/*.fio; do
	name=$(basename "$f" .fio)
	why=$(needs "$name")
	if [ -n "$why" ]; then
		special=$((special + 1))
		printf '%-34s needs %s\n' "$name" "$why"
		continue
	fi
	rm -rf "$tmp/d" && mkdir "$tmp/d"
	# 180 s: 1mbs_clients starts its last job after 124 s, as fio does
	out=$(cd "$tmp" && timeout 180 "$bin" run "$f" --no-db --output-format=json \
		--set directory="$tmp/d" --set filename=ex.dat --set size=16m \
		--set runtime=1 2>"$tmp/err")
	rc=$?
	if [ $rc -eq 0 ] || [ $rc -eq 1 ]; then
		ios=$(printf '%s' "$out" | python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
except Exception:
    print(0); sys.exit()
print(sum(j.get(k, {}).get("total_ios", 0) for j in d.get("jobs", [])
          for k in ("read", "write", "trim")))' 2>/dev/null)
		if [ "${ios:-0}" -gt 0 ]; then
			runs=$((runs + 1))
			printf '%-34s runs (%s I/Os, exit %s)\n' "$name" "$ios" "$rc"
		else
			empty=$((empty + 1))
			printf '%-34s ran with no I/O (exit %s): %s\n' "$name" "$rc" \
				"$(head -c 160 "$tmp/err" | tr '\n' ' ')"
		fi
	else
		refused=$((refused + 1))
		printf '%-34s refused (exit %s): %s\n' "$name" "$rc" \
			"$(grep -v 'default target' "$tmp/err" | head -1 | cut -c1-160)"
	fi
done
total=$((runs + refused + empty))
echo "runs: $runs of $total that need no special hardware; refused: $refused; no I/O: $empty; need hardware, a service or another engine: $special"
