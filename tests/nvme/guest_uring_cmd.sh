# guest_uring_cmd.sh - issue 30.5 in the guest: ioengine=io_uring_cmd on the
# namespaces' character devices (/dev/ngXnY). Sourced by guest.sh once $A1..
# $B3 name the block devices and run() is defined; the host's checks are
# checks.sh's "io_uring_cmd" section.
ng_of() { b=$(basename "$1"); echo "/dev/ng${b#nvme}"; }
NA1=$(ng_of "$A1") NA2=$(ng_of "$A2") NB1=$(ng_of "$B1") NB2=$(ng_of "$B2")
echo "$NA1 $NA2 $NB1 $NB2" >$R/uc_devices.txt
ls -l /dev/ng* >>$R/uc_devices.txt 2>&1
UC="--no-db --ioengine=io_uring_cmd --cmd_type=nvme"

# what it writes is there: 4 MiB of 0x5a bytes written as NVMe Write
# commands on A:2 (4096-byte LBAs), read back through the block device
run uc_write drivebench run --name=w --filename="$NA2" $UC --rw=write --bs=64k \
	--size=4m --iodepth=8 --buffer_pattern=0x5a --output-format=json
tr '\0' '\132' </dev/zero | head -c 4194304 >/tmp/uc_pattern
echo 3 >/proc/sys/vm/drop_caches
cmp -s -n 4194304 "$A2" /tmp/uc_pattern; echo $? >$R/uc_write_cmp.rc
# verify= in the engine's own job, on A:1 (512-byte LBAs), each option once
run uc_verify drivebench run --name=v --filename="$NA1" $UC --rw=randwrite --bs=4k \
	--size=2m --iodepth=16 --verify=crc32c --output-format=json
run uc_verify_opts drivebench run --name=v --filename="$NA1" $UC --rw=randwrite --bs=8k \
	--size=1m --iodepth=4 --verify=crc32c --fixedbufs=1 --registerfiles=1 \
	--writefua=1 --readfua=1 --output-format=json
# fixedbufs with small and with large buffers (up to the queue's
# max_segments pages registered), a vectored read without verify
run uc_vec_read drivebench run --name=v --filename="$NA1" $UC --rw=randread --bs=8k \
	--size=256k --iodepth=4 --nonvectored=0 --number_ios=32 --output-format=json
run uc_fb_write drivebench run --name=v --filename="$NA1" $UC --rw=randwrite --bs=8k \
	--size=256k --iodepth=4 --fixedbufs=1 --number_ios=32 --output-format=json
run uc_fb_big drivebench run --name=v --filename="$NA1" $UC --rw=randread --bs=512k \
	--size=4m --iodepth=4 --fixedbufs=1 --number_ios=8 --output-format=json
run uc_verify_vec drivebench run --name=v --filename="$NA1" $UC --rw=randwrite --bs=8k \
	--size=1m --iodepth=4 --verify=crc32c --nonvectored=0 --output-format=json
run uc_sqpoll drivebench run --name=s --filename="$NA1" $UC --rw=randread --bs=4k \
	--size=1m --iodepth=4 --sqthread_poll=1 --number_ios=64 --output-format=json
run uc_hipri drivebench run --name=h --filename="$NA1" $UC --rw=randread --bs=4k \
	--size=1m --iodepth=4 --hipri=1 --number_ios=64 --output-format=json

# a trim is Dataset Management (deallocate): the 4 MiB read back as zeros
run uc_trim drivebench run --name=t --filename="$NA2" $UC --rw=trim --bs=1m \
	--size=4m --output-format=json
echo 3 >/proc/sys/vm/drop_caches
cmp -s -n 4194304 "$A2" /dev/zero; echo $? >$R/uc_trim_zero.rc

# offsets and sizes in whole LBAs of the namespace (4096 on A:2, 512 on A:1)
run uc_unaligned_offset drivebench run --name=u --filename="$NA2" $UC --rw=read \
	--bs=4k --offset=512 --size=64k
run uc_unaligned_bs drivebench run --name=u --filename="$NA2" $UC --rw=read \
	--bs=512 --size=64k
run uc_aligned_512 drivebench run --name=u --filename="$NA1" $UC --rw=read \
	--bs=512 --offset=512 --size=64k
run uc_mdts drivebench run --name=u --filename="$NA2" $UC --rw=read --bs=1m --size=4m
run uc_block_dev drivebench run --name=u --filename="$A2" $UC --rw=read --bs=4k --size=64k
run uc_other_engine drivebench run --name=u --filename="$NA2" --ioengine=psync \
	--rw=read --bs=4k --size=64k

# the write gate: ngXnY is the drive nvmeXnY is (SERIAL:nsN)
run uc_gate_ext4 drivebench run --name=g --filename="$NB1" $UC --rw=write --bs=4k --size=1m
run uc_gate_part drivebench run --name=g --filename="$NB2" $UC --rw=write --bs=4k --size=1m
run uc_gate_sibling drivebench run --name=g --filename="$NB1" $UC --rw=write --bs=4k \
	--size=1m --destroy-data=DBNVME0B:ns2
# consent by the namespace's ID; written far from ext4's superblocks
run uc_gate_consent drivebench run --name=g --filename="$NB1" $UC --rw=write --bs=4k \
	--offset=32m --size=1m --destroy-data=DBNVME0B:ns1

# side by side on A:2: fio's io_uring_cmd, drivebench's, alternated 3 times;
# drivebench's io_uring on the block device as a third column
JOB="--name=rr --rw=randread --bs=4k --size=16m --iodepth=16 --runtime=1 --time_based --output-format=json"
# round 1 between health logs: the controller's read commands against the
# I/Os each tool counted
run uc_health_0 drivebench info --json "$A2"
for i in 1 2 3; do
	run uc_fio_$i fio $JOB --filename="$NA2" --ioengine=io_uring_cmd --cmd_type=nvme
	[ $i = 1 ] && run uc_health_1 drivebench info --json "$A2"
	run uc_db_$i drivebench run $JOB --filename="$NA2" $UC
	[ $i = 1 ] && run uc_health_2 drivebench info --json "$A2"
	run uc_dbblk_$i drivebench run --no-db $JOB --filename="$A2" --ioengine=io_uring --direct=1
done
