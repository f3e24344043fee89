#!/bin/sh
# guest.sh - runs inside the QEMU guest (tests/nvme/test_nvme_qemu.sh boots
# it). Every command's standard output, standard error and exit status go
# to /results/NAME.{out,err,rc}; the host checks them after the guest powers
# off. The results leave as a tar archive written onto the raw disk /dev/vda.
R=/results
echo "$(cut -d' ' -f1 /proc/uptime)s guest script starts"
mkdir -p $R /work
export DRIVEBENCH_DB=/work/db.sqlite
export HOME=/work
cd /work || exit 1

# run NAME CMD...: runs CMD, keeping what it printed and its exit status
run() {
	name=$1; shift
	"$@" >"$R/$name.out" 2>"$R/$name.err"
	echo $? >"$R/$name.rc"
	echo "$(cut -d' ' -f1 /proc/uptime)s $name exit $(cat $R/$name.rc)"
}

# the devices the kernel found, for the host's checks and for diagnosis
ls -l /dev/nvme* /dev/ng* >$R/devices.txt 2>&1
for d in /sys/class/nvme/nvme*; do
	echo "$(basename $d) $(cat $d/serial) $(cat $d/model)"
done >$R/controllers.txt 2>&1
cat /proc/partitions >$R/partitions.txt

# map a controller serial and nsid to its block device (enumeration order
# of controllers is not fixed)
dev_of() {
	for d in /sys/class/nvme/nvme*; do
		[ "$(cat $d/serial | tr -d ' ')" = "$1" ] || continue
		for n in $d/nvme*n$2 /sys/class/block/$(basename $d)n$2; do
			[ -e "$n" ] && { echo /dev/$(basename $n); return; }
		done
		# native multipath: the namespace hangs off the subsystem
		for n in /sys/class/block/nvme*n$2; do
			[ "$(cat $n/device/serial 2>/dev/null | tr -d ' ')" = "$1" ] && {
				echo /dev/$(basename $n); return; }
		done
	done
}
for spec in A:1 A:2 B:1 B:2 B:3; do
	ser=DBNVME0${spec%%:*}; ns=${spec##*:}
	echo "$spec $(dev_of $ser $ns)"
done >$R/map.txt
dev() { grep "^$1 " $R/map.txt | cut -d' ' -f2; }
A1=$(dev A:1) A2=$(dev A:2) B1=$(dev B:1) B2=$(dev B:2) B3=$(dev B:3)
. /guest_uring_cmd.sh

# item 2: identity and health
run info_a1 drivebench info --json "$A1"
run info_a2 drivebench info --json "$A2"
run info_b1 drivebench info --json "$B1"
run info_a1_text drivebench info "$A1"
# a job of known size on A1: 8 MiB written, then 8 MiB read, 4 KiB direct
run job_w drivebench run --name=w --filename="$A1" --rw=write --bs=4k \
	--size=8m --direct=1 --ioengine=psync --output-format=json --destroy-data=DBNVME0A:ns1
run job_r drivebench run --name=r --filename="$A1" --rw=read --bs=4k \
	--size=8m --direct=1 --ioengine=psync --output-format=json --destroy-data=DBNVME0A:ns1
run info_a1_after drivebench info --json "$A1"

# item 3: the write gate
run gate_ext4 drivebench run --name=g --filename="$B1" --rw=write --bs=4k \
	--size=1m --direct=1
run gate_part drivebench run --name=g --filename="$B2" --rw=write --bs=4k \
	--size=1m --direct=1
run gate_part1 drivebench info --json "${B2}p1"
run gate_other drivebench run --name=g --filename="$B1" --rw=write --bs=4k \
	--size=1m --direct=1 --destroy-data=DBNVME0A:ns1
run gate_sibling drivebench run --name=g --filename="$B1" --rw=write --bs=4k \
	--size=1m --direct=1 --destroy-data=DBNVME0B:ns2
run gate_bare drivebench run --name=g --filename="$B1" --rw=write --bs=4k \
	--size=1m --direct=1 --destroy-data=DBNVME0B
run gate_consent drivebench run --name=g --filename="$B1" --rw=write --bs=4k \
	--size=1m --direct=1 --destroy-data=DBNVME0B:ns1
run gate_zoned drivebench info --json "$B3"

# item 4 and 7: the purge methods, a suite on two controllers (guest_purge.sh)
. /guest_purge.sh

# item 4: the purge step's Format NVM (nvme_format = 1), behind the gate
printf '[wipe]\nstep = purge\nnvme_format = 1\n' >/work/format.suite
zero() { # DEV: 0 when the whole namespace reads back as zeros
	echo 3 >/proc/sys/vm/drop_caches
	cmp -s -n $(($(cat /sys/class/block/${1#/dev/}/size) * 512)) "$1" /dev/zero
}
zero "$B2"; echo $? >$R/format_before.rc
run format_refused drivebench suite --suite=/work/format.suite "$B2"
run format_b1 drivebench suite --suite=/work/format.suite --destroy-data=DBNVME0B:ns2 "$B2"
zero "$B2"; echo $? >$R/format_after.rc
run format_info drivebench info --json "$B2"

# side by side: fio on the same namespace, when it was packed
if command -v fio >/dev/null; then
	run fio_r fio --name=r --filename="$A2" --rw=randread --bs=4k --size=16m \
		--direct=1 --ioengine=io_uring --iodepth=16 --runtime=2 --time_based \
		--output-format=json
fi
. /guest_zbd.sh   # item 6: zoned namespace (zonemode=zbd)
echo done >$R/guest-done
out=$(dev_of DBRESULT 1)
[ -n "$out" ] || { echo "guest: no result namespace"; exit 1; }
(cd / && tar cf "$out" results)
sync
