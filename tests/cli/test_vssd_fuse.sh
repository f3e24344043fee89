#!/bin/bash
# test_vssd_fuse.sh - `drivebench vssd-serve` (docs/vssd.md, "The model as
# a block device"): the model served as a FUSE file, a loop device over it;
# a 4K random write read back with verify= through the loop device, the
# model's counters advancing (the server's stats on exit), XFS made,
# mounted and a file written and read on it, a clean unmount on SIGTERM
# and detach; the backing file's gate (a foreign non-empty file refused,
# this drive's own backing file reused, its FTL saved beside it at a stop and
# loaded at the next start, rebuilt from the data after a kill; a leftover
# state file of a new backing removed, a foreign one refused); errors (no mount point, a bad
# model, a bad argument). Needs root, /dev/fuse and losetup: where they are
# missing the test FAILS (says why), for a build that has vssd-serve must
# be able to serve.
. "$(dirname "$0")/lib.sh"

MODEL=$(pwd)/specs/solidigm-d5-p5430-30t.ini
SCALE=2g
WORK=$(mktemp -d /var/tmp/drivebench-fuse.XXXXXX)
MNT=$WORK/mnt
LOOP=""
PID=""
cleanup() {
	umount "$WORK/xfs" 2>/dev/null
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	[ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
	umount "$MNT" 2>/dev/null
	rm -rf "$WORK" "$TMP"
}
trap cleanup EXIT
mkdir -p "$MNT" "$WORK/xfs"

# --- errors that need no FUSE ------------------------------------------------
expect_exit 2 "vssd-serve without arguments" vssd-serve
expect_output "--model, --backing and MOUNTPOINT are needed" "says what is needed"
expect_exit 2 "a missing mount point" vssd-serve --model "$MODEL" --scale $SCALE \
	--backing "$WORK/b.img" "$WORK/nodir"
expect_output "mountpoint '$WORK/nodir': No such file or directory" "names it"
check "no backing file made for it" test ! -e "$WORK/b.img"
expect_exit 2 "a mount point that is a file" vssd-serve --model "$MODEL" --scale $SCALE \
	--backing "$WORK/b.img" "$MODEL"
expect_output "mountpoint '$MODEL': not a directory" "says so"
expect_exit 2 "an option without its value" vssd-serve --backing "$WORK/b.img" "$MNT" --model
expect_output "--model needs a value" "names the option"
expect_exit 3 "--stats to a device is refused" vssd-serve --model "$MODEL" --scale $SCALE \
	--backing "$WORK/s.img" --stats /dev/loop-control "$MNT"
expect_output "--stats: refusing to write '/dev/loop-control'" "by the output gate"
check "before any backing file is made" test ! -e "$WORK/s.img"
printf '[model]\nbogus = 1\n' >"$WORK/bad.ini"
expect_exit 2 "a bad model" vssd-serve --model "$WORK/bad.ini" --backing "$WORK/b.img" "$MNT"
expect_output "bad.ini" "names the model file"
expect_exit 2 "an unknown argument" vssd-serve --model "$MODEL" --bogus "$MNT"
expect_output "unknown argument '--bogus'" "names it"
head -c 4096 /dev/urandom >"$WORK/foreign.img"
expect_exit 3 "a foreign non-empty backing file is refused" vssd-serve --model "$MODEL" \
	--scale $SCALE --backing "$WORK/foreign.img" "$MNT"
expect_output "refusing to use it: it is a non-empty file that is not a backing file" "says why"
check "the foreign file is untouched" test "$(stat -c %s "$WORK/foreign.img")" = 4096
expect_exit 2 "--destroy-data naming another file" vssd-serve --model "$MODEL" \
	--scale $SCALE --backing "$WORK/foreign.img" --destroy-data "$MODEL" "$MNT"
# the sidecar (BACKING.vssd-backing) is drivebench's own: a link, a user's
# file or a hard link at its name is refused untouched, before the backing
# file is made (it was written through all three, one an ext4 image)
echo precious >"$WORK/precious.txt"
ln -s "$WORK/precious.txt" "$WORK/s1.img.vssd-backing"
expect_exit 3 "a symbolic link at the sidecar's name is refused" vssd-serve --model "$MODEL" \
	--scale $SCALE --backing "$WORK/s1.img" "$MNT"
expect_output "refusing to write its sidecar $WORK/s1.img.vssd-backing: it is a symbolic link" "... naming it"
check "... the file it names is untouched" test "$(cat "$WORK/precious.txt")" = precious
check "... and no backing file is made" test ! -e "$WORK/s1.img"
echo "my notes" >"$WORK/s2.img.vssd-backing"
expect_exit 3 "a user's file at the sidecar's name is refused" vssd-serve --model "$MODEL" \
	--scale $SCALE --backing "$WORK/s2.img" "$MNT"
expect_output "its sidecar $WORK/s2.img.vssd-backing: it is a file that is not a sidecar" "... naming it"
check "... and it is untouched" test "$(cat "$WORK/s2.img.vssd-backing")" = "my notes"
head -c 1048576 /dev/urandom >"$WORK/image.img"
sum=$(sha256sum <"$WORK/image.img")
ln "$WORK/image.img" "$WORK/s3.img.vssd-backing"
expect_exit 3 "a hard link at the sidecar's name is refused" vssd-serve --model "$MODEL" \
	--scale $SCALE --backing "$WORK/s3.img" "$MNT"
expect_output "its sidecar $WORK/s3.img.vssd-backing: it is a file with other links" "... naming it"
check "... and the image is untouched" test "$(sha256sum <"$WORK/image.img")" = "$sum"
# --destroy-data names the backing file, and never lifts a mounted loop
# device it backs (the file was grown under a mounted ext4, and a smaller
# model would have cut it)
truncate -s 64M "$WORK/mounted.img"
mkfs.ext4 -q -F "$WORK/mounted.img"
mloop=$(losetup -f --show "$WORK/mounted.img")
mkdir -p "$WORK/mnt-ext4"
mount "$mloop" "$WORK/mnt-ext4"
expect_exit 3 "the backing file of a mounted loop device is refused, --destroy-data or not" \
	vssd-serve --model "$MODEL" --scale $SCALE --backing "$WORK/mounted.img" \
	--destroy-data "$WORK/mounted.img" "$MNT"
expect_output "backing file of $mloop" "... naming the loop device"
check "... and its size is unchanged" test "$(stat -c %s "$WORK/mounted.img")" = 67108864
umount "$WORK/mnt-ext4"
losetup -d "$mloop"

# --- serving (root, /dev/fuse, loop devices) -----------------------------------
why=""
[ "$(id -u)" -eq 0 ] || why="not root"
[ -c /dev/fuse ] || why="${why:+$why, }no /dev/fuse"
command -v losetup >/dev/null || why="${why:+$why, }no losetup"
if [ -n "$why" ]; then
	not_ok "vssd-serve cannot be tested here: $why"
	exit 0
fi

# serve: starts the server in the background, waits for the file
serve() {
	"$DB" vssd-serve --model "$MODEL" --scale $SCALE --backing "$WORK/drive.img" \
		--stats "$WORK/stats.txt" "$MNT" 2>"$WORK/serve.err" &
	PID=$!
	for _ in $(seq 50); do [ -f "$MNT/drive" ] && return 0; sleep 0.1; done
	cat "$WORK/serve.err"
	return 1
}
# stop [SIG]: SIGTERM (or SIG), the server unmounts and exits 0
stop() {
	kill -"${1:-TERM}" "$PID" && wait "$PID"
	rc=$?
	PID=""
	return $rc
}

if ! serve; then
	not_ok "vssd-serve mounts the FUSE file (FUSE cannot mount here: $(tail -1 "$WORK/serve.err"))"
	exit 0
fi
ok "vssd-serve mounts the FUSE file"
check "the file's size is the model's scaled capacity" \
	test "$(stat -c %s "$MNT/drive")" = "$(stat -c %s "$WORK/drive.img")"
check "the backing file is sparse" test "$(stat -c %b "$WORK/drive.img")" -lt 100
check "its sidecar names the model and scale" grep -q "^scale=c2147483648$" "$WORK/drive.img.vssd-backing"
LOOP=$(losetup --direct-io=on -f --show "$MNT/drive")
check "a loop device over it, direct I/O" test -b "$LOOP" -a "$(cat /sys/block/${LOOP#/dev/}/loop/dio 2>/dev/null)" = 1

job="--name=w --filename=$LOOP --rw=randwrite --bs=4k --size=16m --iodepth=16 --ioengine=libaio --direct=1 --verify=crc32c"
expect_exit 0 "4K randwrite with verify through the loop device" run --no-db $job --verify_seed=7
expect_output "checked 4096 of 4096 units, 0 failed" "every block read back"
expect_exit 0 "a separate verify pass through the loop device" verify --no-db --seed 7 $job
expect_output "checked 4096 of 4096 units, 0 failed" "every block still there"
expect_exit 1 "the wrong seed fails it (the data is real)" verify --no-db --seed 8 $job
check "the written data reached the backing file" test "$(stat -c %b "$WORK/drive.img")" -gt 30000

if command -v fio >/dev/null; then
	check "fio runs on the loop device" sh -c "fio --name=r --filename=$LOOP --rw=randread \
		--bs=4k --size=16m --iodepth=8 --ioengine=libaio --direct=1 --runtime=1 \
		--time_based --output-format=terse >'$WORK/fio.out' && test -s '$WORK/fio.out'"
else
	not_ok "fio runs on the loop device (no fio: scripts/deps.sh installs it)"
fi
check "mkfs.xfs on the loop device" mkfs.xfs -f -q "$LOOP"
check "mount it" mount "$LOOP" "$WORK/xfs"
head -c 8388608 /dev/urandom >"$WORK/file"
check "a file written on it" cp "$WORK/file" "$WORK/xfs/file"
sync "$WORK/xfs/file"
check "unmount it" umount "$WORK/xfs"
check "mount it again" mount "$LOOP" "$WORK/xfs"
check "the file reads back the same" cmp "$WORK/file" "$WORK/xfs/file"
check "unmount" umount "$WORK/xfs"
check "detach the loop device" losetup -d "$LOOP"
LOOP=""
check "SIGTERM unmounts and exits 0" stop
check "nothing left mounted" sh -c "! grep -q ' $MNT ' /proc/self/mounts"
stats=$(cat "$WORK/stats.txt")
echo "# $stats"
w=$(echo "$stats" | sed 's/.* writes=\([0-9]*\).*/\1/')
hw=$(echo "$stats" | sed 's/.*host_written=\([0-9]*\).*/\1/')
nw=$(echo "$stats" | sed 's/.*nand_written=\([0-9]*\).*/\1/')
fl=$(echo "$stats" | sed 's/.*flushes=\([0-9]*\).*/\1/')
check "the model saw the writes (>= 4096 commands)" test "${w:-0}" -ge 4096
check "and counted host bytes (>= 16 MiB + the file)" test "${hw:-0}" -ge 25165824
check "NAND written >= host written (WAF >= 1)" test "${nw:-0}" -ge "${hw:-1}"
check "fsync reached the model as flushes" test "${fl:-0}" -gt 0

STATE="$WORK/drive.img.vssd-state"
check "the FTL is saved beside the backing file at the stop" \
	test "$(head -1 "$STATE" 2>/dev/null)" = "drivebench vssd state 1"

# the drive's own backing file is reused (XFS in it: the output gate alone
# would refuse a filesystem image), and its FTL with it
if serve; then ok "its own backing file is reused"; else not_ok "its own backing file is reused"; fi
check "... with the FTL saved beside it" grep -q "the drive's FTL is the one saved in $STATE" "$WORK/serve.err"
check "... which is removed once loaded (a kill now leaves none)" test ! -e "$STATE"
expect_exit 3 "a second server on the same backing file is refused" vssd-serve --model "$MODEL" \
	--scale $SCALE --backing "$WORK/drive.img" "$WORK/xfs"
expect_output "--backing $WORK/drive.img: another vssd-serve is serving it" "... saying so"
check "... before it mounted anything" sh -c "! grep -q ' $WORK/xfs ' /proc/self/mounts"
LOOP=$(losetup --direct-io=on -f --show "$MNT/drive")
check "the XFS file is still there after a restart" sh -c "mount '$LOOP' '$WORK/xfs' && cmp '$WORK/file' '$WORK/xfs/file'"
umount "$WORK/xfs"
losetup -d "$LOOP"
LOOP=""
check "SIGINT stops it too" stop INT
check "nothing left mounted after SIGINT" sh -c "! grep -q ' $MNT ' /proc/self/mounts"
hw2=$(sed 's/.*host_written=\([0-9]*\).*/\1/' "$WORK/stats.txt")
check "the FTL's counters go on from the first server's ($hw2 >= $hw host bytes)" \
	test "${hw2:-0}" -ge "${hw:-1}"

# a server killed saves nothing: the next one rebuilds the FTL from the data
if serve; then ok "served again"; else not_ok "served again"; fi
{ kill -KILL "$PID"; wait "$PID"; } 2>/dev/null
PID=""
umount "$MNT" 2>/dev/null
check "a server killed leaves no FTL state" test ! -e "$STATE"
if serve; then ok "the next one starts"; else not_ok "the next one starts"; fi
check "... rebuilding the FTL from the backing's data" \
	grep -q "no FTL saved beside $WORK/drive.img (a server that did not stop cleanly): the FTL is rebuilt from its data, [1-9][0-9]* bytes" "$WORK/serve.err"
LOOP=$(losetup --direct-io=on -f --show "$MNT/drive")
check "... the XFS file still there" sh -c "mount '$LOOP' '$WORK/xfs' && cmp '$WORK/file' '$WORK/xfs/file'"
umount "$WORK/xfs"
losetup -d "$LOOP"
LOOP=""
check "... and it stops, saving the FTL" stop
check "... beside the backing file" test -s "$STATE"

# a new backing file starts a fresh drive: a state file beside it is
# removed, anything else there refused and left alone
cp "$STATE" "$WORK/new.img.vssd-state"
"$DB" vssd-serve --model "$MODEL" --scale $SCALE --backing "$WORK/new.img" "$MNT" 2>"$WORK/serve.err" &
PID=$!
for _ in $(seq 50); do [ -f "$MNT/drive" ] && break; sleep 0.1; done
check "a new backing file's leftover state file is removed" test ! -e "$WORK/new.img.vssd-state"
stop
rm -f "$WORK/new.img" "$WORK/new.img.vssd-backing" "$WORK/new.img.vssd-state"
echo "not a state" >"$WORK/new.img.vssd-state"
expect_exit 3 "a file that is not a state file beside a new backing file is refused" \
	vssd-serve --model "$MODEL" --scale $SCALE --backing "$WORK/new.img" "$MNT"
expect_output "its FTL state $WORK/new.img.vssd-state: refusing to replace it" "... naming it"
check "... and left alone" test "$(cat "$WORK/new.img.vssd-state")" = "not a state"
printf 'drivebench vssd state 1\nmodel=x\n' >"$STATE"
expect_exit 2 "a damaged state file beside a reused backing file is refused" \
	vssd-serve --model "$MODEL" --scale $SCALE --backing "$WORK/drive.img" "$MNT"
expect_output "its FTL state $STATE: not a drivebench vssd state file" "... naming it"
check "... and left alone" test "$(wc -l <"$STATE")" = 2
rm -f "$STATE"
expect_exit 3 "the backing file is refused for another scale" vssd-serve --model "$MODEL" \
	--scale 4g --backing "$WORK/drive.img" "$MNT"
expect_output "names another drive" "says the sidecar names another drive"
