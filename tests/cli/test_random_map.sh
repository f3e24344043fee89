#!/bin/bash
# test_random_map.sh - fio's random map when a random job's I/O sizes vary
# (bssplit, a block size per direction of randrw): each smallest block of
# the range is done exactly once a pass, an I/O cut short at the first
# block an earlier one did (fio's mark_random_map), so a size-bound job
# does its size exactly. Seen in the per-I/O log's offsets and sizes (it
# wrote 68 of 256 blocks twice, missed 78, and 1101824 bytes for 1 MiB).
. "$(dirname "$0")/lib.sh"

# coverage LOG...: every 4k block of the first MiB covered how often, as
# "once=N twice=N never=N bytes=N" (log lines: t, value, dir, bs, offset, prio)
coverage() {
	python3 - "$@" <<'PY'
import sys
count = [0] * 256
total = 0
for name in sys.argv[1:]:
    for line in open(name):
        f = [x.strip() for x in line.split(",")]
        bs, off = int(f[3]), int(f[4])
        total += bs
        for b in range(off // 4096, (off + bs + 4095) // 4096):
            count[b] += 1
print("once=%d twice=%d never=%d bytes=%d" % (count.count(1), sum(c > 1 for c in count),
      count.count(0), total))
PY
}

# logged NAME WHAT OPTIONS...: runs a 1 MiB psync job with a per-I/O log
# of offsets; its coverage in $got
logged() {
	local name=$1 what=$2
	shift 2
	expect_exit 0 "$what" run --no-db --name="$name" --ioengine=psync --size=1m \
		--filename="$TMP/m.dat" --write_iops_log="$name" --log_offset=1 "$@"
	got=$(coverage "${name}_iops.1.log")
}

cd "$TMP" || exit 1
logged m "randwrite with bssplit=4k/50:64k/50, size=1m" --rw=randwrite --bssplit=4k/50:64k/50
check "every 4k block written exactly once, 1 MiB in all ($got)" \
	test "$got" = "once=256 twice=0 never=0 bytes=1048576"
check "I/Os cut short at a done block have sizes between (not only 4k and 64k)" \
	test "$(awk -F', ' '$4 != 4096 && $4 != 65536' m_iops.1.log | wc -l)" -gt 0
logged r "randrw with bs=4k,16k, size=1m" --rw=randrw --bs=4k,16k
check "reads and writes share the map: each block once ($got)" \
	test "$got" = "once=256 twice=0 never=0 bytes=1048576"
logged n "norandommap keeps fio's overlaps" --rw=randwrite --bssplit=4k/50:64k/50 --norandommap
check "norandommap: blocks written more than once ($got)" \
	test "${got#*twice=0 }" = "$got"

expect_exit 0 "time_based: the map starts over after a pass" run --no-db --name=t \
	--ioengine=null --rw=randwrite --bssplit=4k/50:64k/50 --size=1m --time_based \
	--runtime=200ms --output-format=json
check "... and the job runs on past 1 MiB" python3 -c "
import json, sys
j = json.loads(sys.argv[1])['jobs'][0]['write']
assert j['io_bytes'] > 4 * 1048576, j['io_bytes']" "$OUT"
