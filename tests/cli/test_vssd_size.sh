#!/bin/bash
# test_vssd_size.sh - a job on a modelled drive without size= covers the
# whole modelled drive, and size=N% is a share of it (issue 29.1; as fio
# sizes a job to its device): before, the runner's 1 GiB default applied,
# so a job on an 8 GiB model wrote an eighth of it (WAF 1 for ever) and a
# job on a 512 MiB model was refused as past its end.
. "$(dirname "$0")/lib.sh"

m="$(pwd)/tests/data/models/test-tlc.ini"
w="run --no-db --name=w --ioengine=vssd --vssd_model=$m --vssd_scale=512m --rw=write \
	--bs=128k --iodepth=16 --output-format=terse"
written() { printf '%s\n' "$OUT" | awk -F';' '$3 == "w" { print $47 }'; }

expect_exit 0 "a sequential write with no size= runs on a 512 MiB model" $w
check "... and writes the whole model (524288 KiB)" [ "$(written)" = 524288 ]
expect_exit 0 "size=25% runs" $w --size=25%
check "... and writes a quarter of the model (131072 KiB)" [ "$(written)" = 131072 ]
expect_exit 0 "size=100% runs" $w --size=100%
check "... and writes the whole model" [ "$(written)" = 524288 ]
expect_exit 0 "size= in bytes still wins" $w --size=64m
check "... 65536 KiB" [ "$(written)" = 65536 ]
expect_exit 2 "a size past the model is still refused" $w --size=1g
expect_output "past the modelled drive's 536870912" "... naming the model's capacity"
printf '[model]\nwarp = 9\n' >"$TMP/bad.ini"
expect_exit 2 "no size= and an unreadable model: refused by file, line and key" run --no-db \
	--name=x --ioengine=vssd --vssd_model="$TMP/bad.ini" --rw=write --bs=4k
expect_output "bad.ini:2: key 'warp': unknown key" "... naming it"

# the issue's shape, short: 16K random writes at QD32 on the P5336 at 8g
# with no size= spread over the whole 8 GiB (offsets past 1 GiB appear)
p="$(pwd)/specs/solidigm-d5-p5336-122t.ini"
expect_exit 0 "the issue's job (P5336 at 8g, randwrite 16k QD32, no size) runs" run --no-db \
	--name=r --ioengine=vssd --vssd_model="$p" --vssd_scale=8g --rw=randwrite --bs=16k \
	--iodepth=32 --runtime=1 --time_based --write_lat_log="$TMP/r" --log_offset=1
check "... its offsets reach past 7 GiB of the 8" python3 - "$TMP" <<'PY'
import glob, sys
log, = glob.glob(sys.argv[1] + "/r_clat.*.log")
offs = [int(l.split(",")[4]) for l in open(log)]
print(len(offs), "writes, highest offset", max(offs))
assert len(offs) > 1000 and max(offs) > 7 * 2**30 and max(offs) < 8 * 2**30
PY
