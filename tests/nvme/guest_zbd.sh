# guest_zbd.sh - sourced by guest.sh: zonemode=zbd on the zoned namespace
# B3 (controller DBNVME0B nsid 3: 64 MiB, 4 MiB zones, 4096-byte blocks).
# Each job keeps to its own zones: 0-3 sequential, 4-7 random with
# max_open_zones=2, 8-11 fio then drivebench, 12-15 the reset threshold.
# The zone reports (blkzone, 512-byte sectors) go to zbd_rep_NAME.txt for
# tests/nvme/checks.sh.
rep() { blkzone report "$B3" >$R/zbd_rep_$1.txt 2>&1; }
Z="--filename=$B3 --direct=1 --output-format=json"
C=--destroy-data=DBNVME0B:ns3
run zbd_info drivebench info --json "$B3"
run zbd_info_text drivebench info "$B3"
rep 0
# the write gate's verdict is info's (zbd_info); with consent but without
# zonemode=zbd a write job is refused
run zbd_plain drivebench run --name=p $Z --rw=write --bs=64k --size=4m $C
# QD4 on this kernel (6.1) with scheduler none could reorder a zone's
# writes: refused; then sequential: 6 MiB at the pointers of zones 0-3
run zbd_qd4 drivebench run --name=q $Z --rw=write --bs=64k --size=16m --io_size=6m \
	--ioengine=io_uring --iodepth=4 --zonemode=zbd $C
run zbd_seq drivebench run --name=s $Z --rw=write --bs=64k --size=16m --io_size=6m \
	--ioengine=io_uring --iodepth=1 --zonemode=zbd $C
rep seq
# zone 1 (2 MiB written): 3 MiB more would cross the zone, full by then
run zbd_full drivebench run --name=f $Z --rw=write --bs=64k --offset=4m --size=4m \
	--io_size=3m --ioengine=psync --zonemode=zbd $C
rep full
# random writes over zones 4-7, at most 2 open
run zbd_rand drivebench run --name=r $Z --rw=randwrite --bs=16k --offset=16m --size=16m \
	--io_size=3m --ioengine=io_uring --iodepth=1 --max_open_zones=2 --zonemode=zbd $C
rep rand
# fio's zonemode=zbd on zones 8-11, then drivebench's same job after it
if command -v fio >/dev/null; then
	run zbd_fio fio --name=f $Z --rw=write --bs=64k --offset=32m --size=16m --io_size=4m \
		--ioengine=psync --zonemode=zbd
	rep fio
fi
run zbd_db drivebench run --name=d $Z --rw=write --bs=64k --offset=32m --size=16m \
	--io_size=4m --ioengine=psync --zonemode=zbd $C
rep db
# zones 12-15: two filled, then random writes without resets (full zones are
# passed over) and with zone_reset_threshold=0.5, zone_reset_frequency=0.25
run zbd_fill drivebench run --name=fill $Z --rw=write --bs=256k --offset=48m --size=16m \
	--io_size=8m --ioengine=psync --zonemode=zbd $C
rep fill
run zbd_noreset drivebench run --name=nr $Z --rw=randwrite --bs=64k --offset=48m \
	--size=16m --io_size=1m --ioengine=psync --zonemode=zbd $C
rep noreset
run zbd_reset drivebench run --name=rs $Z --rw=randwrite --bs=64k --offset=48m \
	--size=16m --io_size=1m --ioengine=psync --zonemode=zbd --zone_reset_threshold=0.5 \
	--zone_reset_frequency=0.25 $C
rep reset
