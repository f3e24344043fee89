#!/bin/bash
# test_safety.sh - `drivebench run` refuses to write over data: existing
# files it did not create, and (as root, on loop devices) devices carrying
# ext4 or a GPT partition table, or mounted ones. Refusal is exit 3 with the
# reason and leaves the target byte-for-byte unchanged; --destroy-data=ID
# consents (never for a mounted device); reads need no consent.
. "$(dirname "$0")/lib.sh"

WORK=$(mktemp -d /var/tmp/drivebench-safety.XXXXXX)
LOOPS=""
MOUNTS=""
cleanup() {
	for m in $MOUNTS; do umount "$m" 2>/dev/null; done
	for l in $LOOPS; do losetup -d "$l" 2>/dev/null; done
	rm -rf "$WORK" "$TMP"
}
trap cleanup EXIT

# digest FILE_OR_DEVICE: sha256 of every byte, read past the page cache so
# an O_DIRECT write is seen
digest() {
	if [ -b "$1" ]; then
		dd if="$1" bs=1M iflag=direct status=none | sha256sum
	else
		sha256sum <"$1"
	fi
}

WRITE="--name=w --rw=write --bs=64k --size=4m --ioengine=psync"
READ="--name=r --rw=read --bs=64k --size=4m --ioengine=psync"

# expect_refused WHAT REASON_PATTERN TARGET ARGS...: exit 3, the reason
# named, the target unchanged
expect_refused() {
	local label=$1 reason=$2 target=$3 before
	shift 3
	before=$(digest "$target")
	expect_exit 3 "$label: refused with exit 3" run "$@"
	expect_output "$reason" "$label: names the reason"
	check "$label: target unchanged" test "$(digest "$target")" = "$before"
}

# --- regular files --------------------------------------------------------
existing="$WORK/existing.dat"
dd if=/dev/urandom of="$existing" bs=1M count=4 status=none
expect_refused "existing file not created by drivebench" \
	"not created by drivebench" "$existing" \
	$WRITE --direct=0 --filename="$existing"
expect_refused "existing file, consent naming another file" \
	"not created by drivebench" "$existing" \
	$WRITE --direct=0 --filename="$existing" --destroy-data="$WORK/other.dat"
expect_exit 0 "existing file, reading needs no consent" \
	run $READ --direct=0 --filename="$existing"
before=$(digest "$existing")
expect_exit 0 "existing file written with --destroy-data=PATH" \
	run $WRITE --direct=0 --filename="$existing" --destroy-data="$existing"
check "existing file was written" test "$(digest "$existing")" != "$before"

created="$WORK/created.dat"
expect_exit 0 "new file is created and written" \
	run $WRITE --direct=0 --filename="$created"
check "created file carries the drivebench mark" python3 -c \
	'import os,sys; sys.exit(os.getxattr(sys.argv[1], "user.drivebench.created") != b"1")' \
	"$created"
expect_exit 0 "file drivebench created is written again without consent" \
	run $WRITE --direct=0 --filename="$created"

# --- block devices (loop devices, root only) ------------------------------
if [ "$(id -u)" -ne 0 ]; then
	skip_all "block device checks need root"
fi
if ! command -v losetup >/dev/null || ! losetup -f >/dev/null 2>&1; then
	skip_all "losetup unavailable"
fi

# new_loop NAME: a 16 MiB image under $WORK on a fresh loop device; sets LOOP
new_loop() {
	truncate -s 16M "$WORK/$1.img" || return 1
	LOOP=$(losetup -f --show "$WORK/$1.img") || return 1
	LOOPS="$LOOPS $LOOP"
}

new_loop clean && clean=$LOOP
new_loop ext4 && ext4=$LOOP
new_loop gpt && gpt=$LOOP
new_loop mounted && mounted=$LOOP
if [ -z "$clean" ] || [ -z "$ext4" ] || [ -z "$gpt" ] || [ -z "$mounted" ]; then
	skip_all "could not attach loop devices"
fi
mkfs_ext4() { mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$1"; }
check "ext4 made on $ext4" mkfs_ext4 "$ext4"
check "ext4 made on $mounted" mkfs_ext4 "$mounted"
mkdir "$WORK/mnt"
check "$mounted mounted" mount "$mounted" "$WORK/mnt"
MOUNTS="$WORK/mnt"
sync

ext4_id=${ext4#/dev/}
gpt_id=${gpt#/dev/}
mounted_id=${mounted#/dev/}

# reads first, while every device still holds what it was given
for dev in "$clean" "$ext4" "$gpt" "$mounted"; do
	expect_exit 0 "reading $dev needs no consent" \
		run $READ --direct=1 --filename="$dev"
done

# ext4: refused, a wrong ID refused, the right ID writes
expect_refused "ext4 device" "$ext4 carries an ext4 filesystem" "$ext4" \
	$WRITE --direct=1 --filename="$ext4"
expect_output "--destroy-data=$ext4_id" "ext4 device: says how to consent"
expect_refused "ext4 device, wrong ID" "ext4" "$ext4" \
	$WRITE --direct=1 --filename="$ext4" --destroy-data="not-$ext4_id"
expect_refused "ext4 device, path instead of ID" "ext4" "$ext4" \
	$WRITE --direct=1 --filename="$ext4" --destroy-data="$ext4"
before=$(digest "$ext4")
expect_exit 0 "ext4 device written with --destroy-data=$ext4_id" \
	run $WRITE --direct=1 --filename="$ext4" --destroy-data="$ext4_id"
check "ext4 device was written" test "$(digest "$ext4")" != "$before"

# GPT partition table
if command -v sfdisk >/dev/null; then
	check "gpt label on $gpt" sh -c "printf 'label: gpt\n,8M\n' | sfdisk -q $gpt >/dev/null 2>&1"
	expect_refused "gpt device" "$gpt has a gpt partition table" "$gpt" \
		$WRITE --direct=1 --filename="$gpt"
	expect_exit 0 "gpt device written with --destroy-data=$gpt_id" \
		run $WRITE --direct=1 --filename="$gpt" --destroy-data="$gpt_id"
else
	skip "sfdisk unavailable, no partition table check"
fi

# mounted: refused even with the right ID
expect_refused "mounted device" "$mounted is mounted at $WORK/mnt" "$mounted" \
	$WRITE --direct=1 --filename="$mounted"
expect_refused "mounted device with --destroy-data" "mounted at" "$mounted" \
	$WRITE --direct=1 --filename="$mounted" --destroy-data="$mounted_id"
expect_refused "mounted device with allow_mounted_write=1" \
	"allow_mounted_write=1 does not lift this" "$mounted" \
	$WRITE --direct=1 --filename="$mounted" --allow_mounted_write=1

# clean: allowed without consent
before=$(digest "$clean")
expect_exit 0 "clean device written without consent" \
	run $WRITE --direct=1 --filename="$clean"
check "clean device was written" test "$(digest "$clean")" != "$before"

# a partition mounted in another mount namespace: this namespace's
# mountinfo does not show it and an exclusive open of the whole disk
# succeeds, so the disk was written under it with --destroy-data; the
# partition's own exclusive open is what the kernel refuses
truncate -s 16M "$WORK/nsdisk.img"
printf 'label: gpt\n,8M\n' | sfdisk -q "$WORK/nsdisk.img" >/dev/null 2>&1
nsdisk=$(losetup -f --show "$WORK/nsdisk.img") && LOOPS="$LOOPS $nsdisk"
# the partition told to the kernel (BLKPG, as partx does): a kernel may
# lack the table parsers that losetup -P relies on
addpart "$nsdisk" 1 2048 16384
for _ in $(seq 50); do [ -b "${nsdisk}p1" ] && break; sleep 0.1; done
check "a partition ${nsdisk}p1 with ext4" mkfs_ext4 "${nsdisk}p1"
mkdir "$WORK/nsmnt"
unshare -m --propagation private sh -c \
	"mount ${nsdisk}p1 $WORK/nsmnt && touch $WORK/ns.up && sleep 60" &
ns_pid=$!
for _ in $(seq 100); do [ -e "$WORK/ns.up" ] && break; sleep 0.1; done
check "${nsdisk}p1 mounted in another mount namespace" test -e "$WORK/ns.up"
expect_refused "disk whose partition is mounted in another namespace, with --destroy-data" \
	"partition ${nsdisk}p1 is busy: the kernel holds it exclusively" "$nsdisk" \
	$WRITE --direct=1 --filename="$nsdisk" --destroy-data="${nsdisk#/dev/}"
# the namespace (and its mount) ends with its last process
pkill -P "$ns_pid" 2>/dev/null
kill "$ns_pid" 2>/dev/null
wait "$ns_pid" 2>/dev/null || true
