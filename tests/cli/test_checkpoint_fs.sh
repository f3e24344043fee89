#!/bin/bash
# test_checkpoint_fs.sh - checkpoints on a filesystem made for them (a
# suite step's checkpoint_fs = xfs, the command's --checkpoint-fs): refused
# by name for an unknown filesystem, a file or vssd: target, without mkfs;
# as root on loop devices the filesystem is made, mounted privately, the
# checkpoints written in it (pass 2 truncates pass 1's files and writes
# them again, seen under strace, also after a resume), the mode recorded,
# and after the step (also an interrupted one) nothing is left mounted, the
# mount point is gone and the signature wiped; a device with a foreign
# filesystem is refused without consent, a mounted one even with it.
. "$(dirname "$0")/lib.sh"

WORK=$(mktemp -d /var/tmp/drivebench-ckptfs.XXXXXX)
LOOPS=""
cleanup() {
	umount "$WORK/mnt" 2>/dev/null
	for l in $LOOPS; do losetup -d "$l" 2>/dev/null; done
	rm -rf "$WORK" "$TMP"
}
trap cleanup EXIT
# the mount points drivebench makes land here, where the test can see them
export TMPDIR="$WORK/tmp"
mkdir -p "$TMPDIR"

# fs_suite NAME FS [SIZE COUNT PASSES [KEY = VALUE]]: a one-step
# checkpoint suite (default 2 x 8 MB over 2 ranks, 2 passes)
fs_suite() {
	name=$1 fs=$2 size=${3:-8MB} count=${4:-2} passes=${5:-2}
	shift 2; shift $(( $# < 3 ? $# : 3 ))
	{
		printf '[suite]\nname = %s\n[checkpoint]\nstep = checkpoint\n' "$name"
		printf 'checkpoint_size = %s\nranks = 2\ncount = %s\npasses = %s\n' \
			"$size" "$count" "$passes"
		printf 'checkpoint_fs = %s\n' "$fs"
		for kv in "$@"; do printf '%s\n' "$kv"; done
	} >"$WORK/$name.suite"
}

# --- refusals that need no device -----------------------------------------
fs_suite zfs zfs
expect_exit 2 "an unknown filesystem is refused when the suite is read" \
	suite --suite "$WORK/zfs.suite" "$WORK/never.dat"
expect_output "checkpoint_fs = zfs: unknown filesystem \(supported: xfs, ext4\)" \
	"the refusal names the value and the supported ones"
fs_suite xfs xfs
rm -f "$DRIVEBENCH_DB"
expect_exit 2 "checkpoint_fs on a file target is refused" \
	suite --suite "$WORK/xfs.suite" "$WORK/never.dat"
expect_output "checkpoint_fs = xfs: '$WORK/never.dat' is not a block device" "says why"
check "nothing created for the file target" test ! -e "$WORK/never.dat"
check "no checkpoint directory next to it" test ! -e "$WORK/never.dat.checkpoints"
check "no database written" test ! -e "$DRIVEBENCH_DB"
model="vssd:$(pwd)/tests/data/models/test-tlc.ini@512m"
expect_exit 2 "checkpoint_fs on a model target is refused" \
	suite --suite "$WORK/xfs.suite" "$model"
expect_output "'$model' is a model target, which keeps no data" "by name"
expect_exit 2 "a model target whose file is missing is refused" \
	suite --suite "$WORK/xfs.suite" "vssd:$WORK/model.vssd"
expect_output "cannot read vssd model '$WORK/model.vssd'" "naming the file"
check "nothing written for the model target" test ! -e "$DRIVEBENCH_DB"
expect_exit 2 "--checkpoint-fs with an unknown filesystem" \
	checkpoint --checkpoint-size 8MB --ranks 2 --checkpoint-fs btrfs "$WORK"
expect_output "--checkpoint-fs btrfs: unknown filesystem \(supported: xfs, ext4\)" "names it"
expect_exit 2 "--checkpoint-fs on a directory" \
	checkpoint --checkpoint-size 8MB --ranks 2 --checkpoint-fs xfs "$WORK"
expect_output "is not a block device" "says why"
check "nothing written in the directory" test -z "$(ls "$WORK/tmp")"
expect_exit 2 "--checkpoint-fs with --plan" \
	checkpoint --checkpoint-size 8MB --ranks 2 --checkpoint-fs xfs --plan
expect_output "--checkpoint-fs goes with a DEVICE" "says so"

# --- loop devices (root only) ----------------------------------------------
if [ "$(id -u)" -ne 0 ]; then
	skip_all "filesystems made for checkpoints need root"
fi
if ! command -v losetup >/dev/null || ! losetup -f >/dev/null 2>&1; then
	skip_all "losetup unavailable"
fi
if ! command -v mkfs.xfs >/dev/null; then
	skip_all "mkfs.xfs unavailable (scripts/deps.sh installs xfsprogs)"
fi

# new_loop NAME MIB: a sparse (blank) image on a fresh loop device; XFS
# needs 300 MB at least
new_loop() {
	truncate -s "${2}M" "$WORK/$1.img" || return 1
	LOOP=$(losetup -f --show "$WORK/$1.img") || return 1
	LOOPS="$LOOPS $LOOP"
}
# digest DEV: its first 32 MiB, where any mkfs writes its superblock (the
# whole device takes seconds to read) and its filesystem type
digest() { { dd if="$1" bs=1M count=32 iflag=direct status=none | md5sum; blkid -p -s TYPE "$1"; } | tr -d '\n'; }
# left_clean DEV: not mounted in any namespace (an exclusive open works),
# no mount point left, no signature left
left_clean() {
	! grep -q " $1 " /proc/self/mountinfo &&
	python3 -c 'import os, sys; os.close(os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL))' "$1" &&
	test -z "$(ls "$TMPDIR")" &&
	! blkid -p "$1" >/dev/null 2>&1
}

new_loop fs 320 && dev=$LOOP
if [ -z "$dev" ]; then
	skip_all "could not attach a loop device"
fi

# (1) the suite step on a blank device: made, written, recorded, undone
rm -f "$DRIVEBENCH_DB"
expect_exit 0 "checkpoint_fs = xfs on a blank loop device" suite --suite "$WORK/xfs.suite" "$dev"
expect_output "2 checkpoints as files on xfs made on $dev \(mkfs.xfs -f -q $dev\), mounted on $TMPDIR/drivebench-xfs\.[A-Za-z0-9]+ \(nosuid,nodev\)" \
	"logs the filesystem mode"
expect_output "xfs on $dev unmounted, its signature wiped" "logs the undoing"
check "the step detail records the xfs mode" sql "$DRIVEBENCH_DB" '
import json
d = json.loads(c.execute("select detail from steps").fetchone()[0])
assert d["mode"] == "xfs" and d["filesystem"] == "xfs" and d["checkpoints"] == 2, d
assert d["device"] == "'"$dev"'" and d["mkfs"] == "mkfs.xfs -f -q '"$dev"'", d
assert d["mount_options"] == "nosuid,nodev", d
assert d["directory"].startswith("'"$TMPDIR"'/drivebench-xfs."), d
assert d["after"] == "unmounted, signature wiped", d
'
check "every checkpoint stored with its pass, pass 2 included" sql "$DRIVEBENCH_DB" '
rows = c.execute("select job_name, pass, pass_index from results order by id").fetchall()
want = [("pass%d-ckpt%03d" % (p, i), p, i) for p in (1, 2) for i in (1, 2)]
assert rows == want, rows
for rid, b in c.execute("select r.id, sum(d.bytes) from results r join result_dirs d on d.result_id = r.id group by r.id"):
    assert b == 8000000, (rid, b)
'
check "the files were written as in the files mode" sql "$DRIVEBENCH_DB" '
import json
for (o,) in c.execute("select options_json from results"):
    o = json.loads(o)
    assert o["rw"] == "write" and o["ioengine"] == "psync", o
    assert o["direct"] == "0" and o["end_fsync"] == "1", o
'
check "nothing mounted, no mount point, no signature after the step" left_clean "$dev"
expect_exit 0 "a second run on the device needs no consent" suite --suite "$WORK/xfs.suite" "$dev"
check "and leaves it clean again" left_clean "$dev"

# (2) the command: --checkpoint-fs with a read-back, under strace where it
# can trace: pass 2 truncates each file on the XFS before writing it again
rm -f "$DRIVEBENCH_DB"
TRACE=""
if command -v strace >/dev/null && strace -qq -o /dev/null true 2>/dev/null; then
	TRACE="strace $CKPT_STRACE -o $WORK/fs.trace"
else
	not_ok "strace is missing or cannot trace (scripts/deps.sh installs it): pass 2's truncation on XFS is not seen"
fi
# shellcheck disable=SC2086
OUT=$(timeout 120 $TRACE "$DB" checkpoint --checkpoint-size 8MB --ranks 2 --count 2 --passes 2 \
	--readback --checkpoint-fs xfs "$dev" 2>"$WORK/fs.err")
RC=$?
ERR=$(cat "$WORK/fs.err")
check "checkpoint --checkpoint-fs xfs on the loop device (exit $RC)" test "$RC" -eq 0
expect_output "2 checkpoints as files on xfs made on $dev" "prints the filesystem mode"
if [ -n "$TRACE" ]; then
	check "on XFS pass 1 creates each file empty, pass 2 truncates each to 0 before writing it" \
		ckpt_truncations "$WORK/fs.trace" 4 same-files
fi
check "every pass records the xfs mode" sql "$DRIVEBENCH_DB" '
import json
steps = c.execute("select name, status, detail from steps order by id").fetchall()
assert [(n, s) for n, s, _ in steps] == [("pass 1", "done"), ("pass 2", "done"), ("read-back", "done")], steps
for _, _, t in steps:
    d = json.loads(t)
    assert d["mode"] == "xfs" and d["mkfs"] == "mkfs.xfs -f -q '"$dev"'", d
n = c.execute("select count(*) from results where pass > 1").fetchone()[0]
assert n == 2, n
'
check "the command leaves the device clean" left_clean "$dev"

# (3) ext4 the same way
fs_suite ext4 ext4
rm -f "$DRIVEBENCH_DB"
expect_exit 0 "checkpoint_fs = ext4" suite --suite "$WORK/ext4.suite" "$dev"
check "the ext4 mode recorded" sql "$DRIVEBENCH_DB" '
import json
d = json.loads(c.execute("select detail from steps").fetchone()[0])
assert d["mode"] == "ext4" and d["mkfs"].startswith("mkfs.ext4 -F -q -E lazy_itable_init=0"), d
'
check "ext4 undone too" left_clean "$dev"

# (4) an interrupted step leaves no mount; a resume writes the rest
fs_suite long xfs 32MB 4 10
rm -f "$DRIVEBENCH_DB"
"$DB" suite --suite "$WORK/long.suite" "$dev" 2>"$WORK/long.log" &
pid=$!
for _ in $(seq 500); do
	grep -q "pass 1 checkpoint 1/" "$WORK/long.log" && break
	sleep 0.01
done
check "the mount is there while the step runs" grep -q " $dev " "/proc/$pid/mountinfo"
check "in the suite's own mount namespace only" sh -c '! grep -q " $1 " /proc/self/mountinfo' sh "$dev"
kill -INT "$pid"
wait "$pid"; RC=$?
check "the interrupted suite exits 1" test "$RC" -eq 1
check "it says it unmounted" grep -q "xfs on $dev unmounted, its signature wiped" "$WORK/long.log"
check "no mount, mount point or signature left by the interruption" left_clean "$dev"
check "the step is partial, some checkpoints kept" sql "$DRIVEBENCH_DB" '
assert c.execute("select status from steps").fetchone()[0] == "partial"
n = c.execute("select count(*) from results").fetchone()[0]
assert 1 <= n < 40, n
'
# shellcheck disable=SC2086
OUT=$(timeout 300 ${TRACE:+strace $CKPT_STRACE -o $WORK/resume.trace} "$DB" suite --resume \
	--suite "$WORK/long.suite" "$dev" 2>"$WORK/resume.err")
RC=$?
ERR=$(cat "$WORK/resume.err")
check "the resume finishes the step (exit $RC)" test "$RC" -eq 0
expect_output "pass 1 kept from before the resume laid out again on the new xfs" \
	"the kept checkpoints are laid out again"
if [ -n "$TRACE" ]; then
	# the laid out checkpoints are truncated by pass 2 as pass 1's files
	# would have been; pass 1's missing ones are made new
	check "the resume truncates every file of a later pass before writing it" \
		ckpt_truncations "$WORK/resume.trace" 4
fi
check "every checkpoint stored once" sql "$DRIVEBENCH_DB" '
n, d = c.execute("select count(*), count(distinct job_name) from results").fetchone()
assert n == 40 and d == 40, (n, d)
'
check "the resume leaves the device clean" left_clean "$dev"

# (5) refusals on the device: nothing written
mkfs.ext4 -q -F "$dev" >/dev/null 2>&1
before=$(digest "$dev")
rm -f "$DRIVEBENCH_DB"
expect_exit 3 "a device with a foreign ext4 is refused without consent" \
	suite --suite "$WORK/xfs.suite" "$dev"
expect_output "refusing to make xfs on '$dev': $dev carries an ext4 filesystem" "says why"
expect_output "destroy-data" "and how to consent"
expect_exit 3 "the command refuses it too" \
	checkpoint --checkpoint-size 8MB --ranks 2 --count 1 --checkpoint-fs xfs "$dev"
check "the ext4 device is untouched" test "$(digest "$dev")" = "$before"
check "no mount point made" test -z "$(ls "$TMPDIR")"
mkdir -p "$WORK/mnt"
# read-only without the journal: the mount itself writes nothing
if mount -o ro,noload "$dev" "$WORK/mnt"; then
	expect_exit 3 "a mounted device is refused even with consent" \
		suite --suite "$WORK/xfs.suite" --destroy-data "$(basename "$dev")" "$dev"
	expect_output "mounted" "says it is mounted"
	umount "$WORK/mnt"
fi
check "the mounted device was untouched" test "$(digest "$dev")" = "$before"
mkdir -p "$WORK/bin"
for tool in timeout cat head; do ln -sf "$(command -v "$tool")" "$WORK/bin/$tool"; done
rm -f "$DRIVEBENCH_DB"
PATH="$WORK/bin" expect_exit 2 "without mkfs.xfs the step is refused" \
	suite --suite "$WORK/xfs.suite" --destroy-data "$(basename "$dev")" "$dev"
expect_output "checkpoint_fs = xfs: mkfs.xfs is not installed \(install the package xfsprogs\)" \
	"names the package"
check "nothing stored" test ! -e "$DRIVEBENCH_DB"
PATH="$WORK/bin" expect_exit 2 "without mkfs.xfs the command is refused" \
	checkpoint --checkpoint-size 8MB --ranks 2 --count 1 --checkpoint-fs xfs "$dev"
fs_suite offset xfs 8MB 2 2 "offset = 1m"
expect_exit 2 "a step range short of the whole device is refused" \
	suite --suite "$WORK/offset.suite" --destroy-data "$(basename "$dev")" "$dev"
expect_output "is made on the whole device: drop the step's offset and size" "says why"
check "the device is still untouched" test "$(digest "$dev")" = "$before"
expect_exit 0 "--destroy-data with the kernel name consents" \
	suite --suite "$WORK/xfs.suite" --destroy-data "$(basename "$dev")" "$dev"
check "and the foreign ext4 is gone with the step's xfs" left_clean "$dev"

# (6) failures after the gate are undone: mkfs failing (a device too small
# for XFS), no mount point possible (TMPDIR missing)
new_loop small 64 && small=$LOOP
expect_exit 1 "mkfs failing fails the step" suite --suite "$WORK/xfs.suite" "$small"
expect_output "mkfs.xfs -f -q $small: exit 1: Filesystem must be larger than 300MB" \
	"with what mkfs said"
check "nothing left by the failed mkfs" left_clean "$small"
TMPDIR="$WORK/missing" expect_exit 1 "no mount point: the step fails" \
	suite --suite "$WORK/xfs.suite" "$dev"
expect_output "cannot create a mount point in $WORK/missing" "says why"
check "the filesystem made is wiped again" left_clean "$dev"
