#!/bin/sh
# test_zbd.sh - zonemode=zbd's option errors on this machine, which has no
# zoned block device (the zone logic itself: tests/unit/test_zbd.c; on an
# emulated ZNS namespace: tests/nvme/guest_zbd.sh). As fio, zonemode=zbd
# wants a zoned block device; unlike fio, drivebench does not emulate zones
# of zonesize on a regular file or a plain block device: it refuses them.
. "$(dirname "$0")/lib.sh"

f=$TMP/plain.dat
expect_exit 2 "zonemode=zbd on a regular file is refused" run --no-db --name=z \
	--filename=$f --size=1m --rw=write --direct=1 --zonemode=zbd
expect_output "job 'z': zonemode=zbd needs a zoned block device; $f is not one" \
	"naming the job and the file"
[ -e "$f" ] && not_ok "the refused job created $f" || ok "nothing was written"
expect_exit 2 "zbd writes without direct=1 are refused" run --no-db --name=z \
	--filename=$f --size=1m --rw=write --zonemode=zbd
expect_output "zbd writes need direct=1" "saying direct=1 is needed"
expect_exit 2 "an unknown zonemode is refused" run --no-db --name=z --ioengine=null \
	--zonemode=sequential
expect_output "option 'zonemode': bad value 'sequential' \(none, strided, zbd\)" "listing the modes"
for o in zonecapacity=1m job_max_open_zones=1 read_beyond_wp=1 ignore_zone_limits=1; do
	expect_exit 2 "fio's ${o%%=*} is refused" run --no-db --name=z --ioengine=null \
		--zonemode=zbd --$o
	expect_output "option '${o%%=*}': fio's zonemode=zbd option is not supported" "naming it"
done
for o in zonesize zonerange zoneskip; do
	expect_exit 2 "$o with zonemode=zbd is refused" run --no-db --name=z --ioengine=null \
		--zonemode=zbd --$o=1m
	expect_output "option '$o': not with zonemode=zbd" "naming it"
done
expect_exit 2 "max_open_zones without zonemode=zbd is refused" run --no-db --name=z \
	--ioengine=null --max_open_zones=2
expect_output "option 'max_open_zones': needs zonemode=zbd" "naming it"
expect_exit 2 "zone_reset_frequency without zonemode=zbd is refused" run --no-db --name=z \
	--ioengine=null --zone_reset_frequency=0.5
expect_output "option 'zone_reset_frequency': needs zonemode=zbd" "naming it"
for v in 1.5 -0.1 half; do
	expect_exit 2 "zone_reset_threshold=$v is refused" run --no-db --name=z \
		--ioengine=null --zonemode=zbd --zone_reset_threshold=$v
	expect_output "'$v' is not a number from 0 to 1" "saying the range"
done
expect_exit 2 "zonemode=zbd with verify is refused" run --no-db --name=z \
	--filename=$f --size=1m --rw=write --direct=1 --zonemode=zbd --verify=crc32c
expect_output "zbd with verify is not supported" "saying so"
expect_exit 2 "zonemode=zbd with trims is refused" run --no-db --name=z \
	--ioengine=null --rw=trim --direct=1 --zonemode=zbd
expect_output "zbd takes read, write" "saying which modes"
