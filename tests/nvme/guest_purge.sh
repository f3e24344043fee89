# guest_purge.sh - sourced by guest.sh (inside the guest): the purge
# methods (`purge = ...`, issue 30 item 4) and a suite on two namespaces of
# two controllers at once (item 7). Uses guest.sh's run and the
# namespaces $A1 $A2 $B1 $B2 that guest.sh mapped. QEMU 7.2's controller
# offers Format NVM and Dataset Management but no Sanitize (SANICAP 0), so
# the sanitize methods are checked by their refusal here and by the
# command's dwords in tests/unit/test_nvme.c.
P=/work/purge
mkdir -p $P
purge_suite() { # NAME METHOD: a suite of one purge step with that method
	printf '[wipe]\nstep = purge\npurge = %s\n' "$2" >$P/$1.suite
}
reads_zero() { # DEV [BYTES]: 0 when the namespace (its first BYTES) reads back as zeros
	echo 3 >/proc/sys/vm/drop_caches
	cmp -s -n ${2:-$(($(cat /sys/class/block/${1#/dev/}/size) * 512))} "$1" /dev/zero
}
for m in shred sanitize-crypto sanitize-block sanitize strongest format discard; do
	purge_suite $m $m
done
# refused before any I/O, with consent given: an unknown method, the
# sanitizes QEMU does not offer, a format of a partition (B2p1)
run purge_unknown drivebench suite --suite=$P/shred.suite --db=$P/db.sqlite \
	--destroy-data=DBNVME0A:ns1 "$A1"
for m in sanitize-crypto sanitize-block sanitize; do
	run purge_$m drivebench suite --suite=$P/$m.suite --db=$P/db.sqlite \
		--destroy-data=DBNVME0A:ns1 "$A1"
done
run purge_partition drivebench suite --suite=$P/format.suite --db=$P/db.sqlite \
	--destroy-data=DBNVME0B:ns2 "${B2}p1"
# A1 still holds the 8 MiB the job wrote: nothing was purged
reads_zero "$A1" 8388608; echo $? >$R/purge_kept.rc
# the strongest method offered: without consent refused (B2 carries a
# partition table; A1's data has no signature the gate knows, so A1 needs
# none), with it the namespace reads back as zeros and the run stores the
# method it used
run purge_strongest_refused drivebench suite --suite=$P/strongest.suite \
	--db=$P/db.sqlite "$B2"
run purge_strongest drivebench suite --suite=$P/strongest.suite --db=$P/db.sqlite \
	--destroy-data=DBNVME0A:ns1 "$A1"
reads_zero "$A1"; echo $? >$R/purge_strongest_after.rc
# an explicit discard (Dataset Management deallocate) of B1, which holds
# the 1 MiB gate_consent wrote
reads_zero "$B1" 1048576; echo $? >$R/purge_discard_before.rc
run purge_discard drivebench suite --suite=$P/discard.suite --db=$P/db.sqlite \
	--destroy-data=DBNVME0B:ns1 "$B1"
reads_zero "$B1"; echo $? >$R/purge_discard_after.rc
cp $P/db.sqlite $R/purge.sqlite 2>/dev/null

# item 7: one suite on a namespace of each controller at once, each its
# own run and drive
printf '[global]\nioengine = psync\ndirect = 1\nbs = 4k\nsize = 4m\n%s\n' \
	'[wipe]
step = purge
purge = strongest
[w]
step = measure
rw = randwrite
runtime = 1s
time_based = 1' >$P/multi.suite
run multi drivebench suite --suite=$P/multi.suite --db=$P/multi.sqlite \
	--destroy-data=DBNVME0A:ns2 --destroy-data=DBNVME0B:ns1 --target "$A2" --target "$B1"
cp $P/multi.sqlite $R/multi.sqlite 2>/dev/null
