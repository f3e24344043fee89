#!/bin/bash
# test_uring_cmd.sh - ioengine=io_uring_cmd where there is no NVMe device:
# every target that is not an NVMe namespace's character device (a regular
# file, a missing path, another character device, the default scratch file)
# is a clear error naming it, before anything is created or written; fio's
# options it does not do, and job options that do not apply, are refused.
# Its commands on a real /dev/ngXnY are tested in the QEMU guest
# (tests/nvme/guest_uring_cmd.sh).
. "$(dirname "$0")/lib.sh"

UC="--ioengine=io_uring_cmd --cmd_type=nvme"
echo data >"$TMP/file.dat"
expect_exit 2 "io_uring_cmd on a regular file is refused" run --no-db --name=u $UC \
	--filename="$TMP/file.dat" --rw=read --bs=4k --size=4k
expect_output "ioengine=io_uring_cmd drives an NVMe namespace's character device \(/dev/ngXnY\); '$TMP/file.dat' is a regular file" \
	"the error names the file and what it is"
expect_exit 2 "io_uring_cmd on a character device that is not NVMe is refused" run --no-db \
	--name=u $UC --filename=/dev/null --rw=read --bs=4k --size=4k
expect_output "'/dev/null' is a character device" "the error says what /dev/null is"
expect_exit 2 "io_uring_cmd on a missing file is refused" run --no-db --name=u $UC \
	--filename="$TMP/missing.dat" --rw=write --bs=4k --size=4k
expect_output "'$TMP/missing.dat' is missing" "the error says it is missing"
[ ! -e "$TMP/missing.dat" ] && ok "nothing was created" || not_ok "nothing was created"
expect_exit 2 "io_uring_cmd with no filename (the scratch file) is refused" run --no-db \
	--name=u $UC --rw=read --bs=4k --size=4k
expect_output "ioengine=io_uring_cmd needs filename=/dev/ngXnY" "the error says what it needs"
[ ! -e "$DRIVEBENCH_SCRATCH" ] && ok "the scratch file was not laid out" \
	|| not_ok "the scratch file was not laid out"

# fio's io_uring_cmd options that drivebench does not do: refused, never ignored
for opt in pi_act=1 md_per_io_size=8 write_mode=zeroes sqthread_poll_cpu=1 deac=1; do
	expect_exit 2 "$opt is refused" run --no-db --name=u $UC --filename=/dev/null --$opt
	expect_output "option '${opt%%=*}': not supported by drivebench's io_uring_cmd" "$opt: the error names it"
done
expect_exit 2 "cmd_type=bsg is refused" run --no-db --name=u --ioengine=io_uring_cmd --cmd_type=bsg
expect_output "has only cmd_type=nvme" "the error names the one cmd_type"
expect_exit 2 "sync=1 is refused with io_uring_cmd" run --no-db --name=u $UC \
	--filename=/dev/null --sync=1
expect_output "option 'sync': ioengine=io_uring_cmd sends NVMe commands" "the error names sync"
expect_exit 2 "readfua with another engine is refused" run --no-db --name=u --ioengine=psync \
	--filename="$TMP/file.dat" --readfua=1 --size=4k --bs=4k
expect_output "option 'readfua' is an option of ioengine=io_uring_cmd" "the error names the engine"
