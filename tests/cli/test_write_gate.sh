#!/bin/bash
# test_write_gate.sh - every path drivebench opens for writing goes through
# the gate (docs/safety.md). Walks every command and every option that names
# a path (--output, --out, --db and SQLite's -wal beside it, filename,
# directory, the scratch variable, the suite target, the checkpoint
# directory, gds -f and -D) against a device with a filesystem, a mounted
# one, a procfs and a sysfs file, and checks that nothing changed: the first
# MiB of each device, the kernel settings. Then the holes found by the
# adversarial test (issue 12): read-only jobs that wrote, the scratch
# variable, partitions the kernel still knows, a drivebench file turned
# into a loop device's backing file, the consent hint of checkpoint, and
# directory= joined with a relative filename=.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ] || ! losetup -f >/dev/null 2>&1; then
	skip_all "the write gate's device checks need root and loop devices"
fi

WORK=$(mktemp -d /var/tmp/drivebench-gate.XXXXXX)
LOOPS=""
MOUNTS=""
cleanup() {
	for m in $MOUNTS; do umount "$m" 2>/dev/null; done
	for l in $LOOPS; do losetup -d "$l" 2>/dev/null; done
	rm -rf "$WORK" "$TMP"
}
trap cleanup EXIT

export DRIVEBENCH_CUFILE_LIB="$TMP/none/libcufile.so.0"   # gds: CPU_ONLY
export DRIVEBENCH_CUDART_LIB="$TMP/none/libcudart.so.12"

# new_loop NAME [OPTIONS]: a 32 MiB image under $WORK on a loop device
new_loop() {
	local name=$1
	shift
	truncate -s 32M "$WORK/$name.img" || return 1
	LOOP=$(losetup -f --show "$@" "$WORK/$name.img") || return 1
	LOOPS="$LOOPS $LOOP"
}
mkfs_ext4() { mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$1"; }
head_mib() { dd if="$1" bs=1M count=1 iflag=direct status=none | sha256sum; }

new_loop fs && FS=$LOOP
new_loop mounted && MOUNTED=$LOOP
if [ -z "$FS" ] || [ -z "$MOUNTED" ]; then
	skip_all "could not attach loop devices"
fi
check "ext4 made on $FS" mkfs_ext4 "$FS"
check "ext4 made on $MOUNTED" mkfs_ext4 "$MOUNTED"
mkdir "$WORK/mnt"
check "$MOUNTED mounted" mount "$MOUNTED" "$WORK/mnt"
MOUNTS="$WORK/mnt"
sync

PROC=/proc/sys/vm/dirty_expire_centisecs
SYS=/sys/block/${FS#/dev/}/queue/read_ahead_kb
proc_before=$(cat "$PROC")
sys_before=$(cat "$SYS")
fs_before=$(head_mib "$FS")
mounted_before=$(head_mib "$MOUNTED")

# a database and a report to work from
expect_exit 0 "a run to report on" run --db "$TMP/r.db" --name=x --ioengine=null --size=1m
JOB="--no-db --name=w --rw=write --bs=64k --size=1m --ioengine=psync"

# refused CODE WHAT ARGS...: exit CODE (3 unless a path is just unusable)
refused() {
	local code=$1 what=$2
	shift 2
	expect_exit "$code" "$what" "$@"
}

for target in "$FS" "$MOUNTED" "$PROC" "$SYS"; do
	t=$target
	refused 3 "run --output=$t" run --no-db --name=x --ioengine=null --size=1m --output="$t"
	refused 3 "run --output=$t (json)" run --no-db --name=x --ioengine=null --size=1m \
		--output-format=json --output="$t"
	refused 3 "verify --output=$t" verify --seed 1 --no-db --name=v --rw=write --size=64k \
		--verify=crc32c --filename="$TMP/v.dat" --output="$t"
	refused 3 "run --db=$t" run --db="$t" --name=x --ioengine=null --size=1m
	refused 3 "suite --db=$t" suite --suite quick --db="$t" --only seq-fill-128k "$TMP/s.dat"
	refused 3 "checkpoint --db=$t" checkpoint --db "$t" --checkpoint-size 1MB --ranks 1 \
		--count 1 --passes 1 "$WORK"
	refused 3 "gds --db=$t" gds --db "$t" -w 1 -i 64k -I 0 -T 1 -s 1m -f "$TMP/g.dat"
	refused 3 "import --db=$t" import --db "$t" --label L \
		"$(dirname "$0")/../data/fio-3.33-randrw.json"
	refused 3 "report --db=$t" report --db "$t" --out "$TMP/x.html"
	refused 3 "compare --db=$t" compare --db "$t" 1 1
	refused 3 "export --db=$t" export --db "$t" --format json
	refused 3 "report --out=$t" report --db "$TMP/r.db" --out "$t"
	refused 3 "run filename=$t (write)" run $JOB --filename="$t"
	refused 3 "run directory= + filename= naming $t" run $JOB --directory="$(dirname "$t")" \
		--filename="$(basename "$t")"
	(export DRIVEBENCH_SCRATCH="$t"; refused 3 "DRIVEBENCH_SCRATCH=$t (write)" \
		run --no-db --name=w --rw=write --bs=64k --size=1m --ioengine=psync)
	refused 3 "gds -f $t" gds --db "$TMP/g.db" -w 1 -i 64k -I 1 -T 1 -s 1m -f "$t"
done
# the suite target and the places that must be directories
for target in "$FS" "$MOUNTED"; do
	refused 3 "suite TARGET=$target" suite --suite quick --db "$TMP/s.db" \
		--only seq-fill-128k "$target"
	# a device is a place for checkpoint regions: the write gate refuses it
	refused 3 "checkpoint DEVICE=$target" checkpoint --db "$TMP/c.db" --checkpoint-size 1MB \
		--ranks 1 --count 1 --passes 1 "$target"
	expect_exit 2 "gds -D $target" gds --db "$TMP/g.db" -w 1 -i 64k -I 1 -T 1 -s 1m -D "$target"
	expect_exit 2 "run directory=$target" run $JOB --directory="$target"
done
for target in "$PROC" "$SYS"; do
	refused 3 "suite TARGET=$target" suite --suite quick --db "$TMP/s.db" \
		--only seq-fill-128k "$target"
	refused 3 "run filename=$target (read)" run --no-db --name=r --rw=read --bs=4k --size=4k \
		--ioengine=psync --filename="$target"
done
refused 3 "checkpoint DIR=/proc/sys/vm" checkpoint --db "$TMP/c.db" --checkpoint-size 1MB \
	--ranks 1 --count 1 --passes 1 /proc/sys/vm
refused 3 "gds -D /proc/sys/vm" gds --db "$TMP/g.db" -w 1 -i 64k -I 1 -T 1 -s 1m -D /proc/sys/vm
refused 3 "run directory=/sys/block" run $JOB --directory=/sys/block
refused 3 "report --out= a new name in /proc" report --db "$TMP/r.db" --out /proc/sys/vm/new
# SQLite's journal beside the database must not lead elsewhere
ln -s "$FS" "$TMP/linked.db-wal"
refused 3 "--db whose -wal is a link to a device" run --db "$TMP/linked.db" --name=x \
	--ioengine=null --size=1m
expect_output "linked.db-wal" "names the -wal link"
check "the linked database was not created" test ! -e "$TMP/linked.db"

check "first MiB of $FS unchanged" test "$(head_mib "$FS")" = "$fs_before"
check "first MiB of mounted $MOUNTED unchanged" test "$(head_mib "$MOUNTED")" = "$mounted_before"
check "$PROC unchanged" test "$(cat "$PROC")" = "$proc_before"
check "$SYS unchanged" test "$(cat "$SYS")" = "$sys_before"
check "no file created in /dev" test -z "$(find /dev -maxdepth 1 -newer "$TMP/r.db" -type f)"

# --- outputs that must keep working -------------------------------------------
expect_exit 0 "--output=/dev/stdout" run --no-db --name=x --ioengine=null --size=1m \
	--output-format=json --output=/dev/stdout
expect_output '"jobs"' "--output=/dev/stdout writes to standard output"
echo "kept" >"$TMP/append.txt"
"$DB" run --no-db --name=x --ioengine=null --size=1m --output=/dev/stdout >>"$TMP/append.txt" 2>/dev/null
check "--output=/dev/stdout keeps a shell's >> appending" test "$(head -1 "$TMP/append.txt")" = kept
expect_exit 0 "--output=/dev/null" run --no-db --name=x --ioengine=null --size=1m --output=/dev/null
mkfifo "$TMP/fifo"
cat "$TMP/fifo" >"$TMP/fifo.out" &
expect_exit 0 "--output= a named pipe" run --no-db --name=x --ioengine=null --size=1m --output="$TMP/fifo"
wait
check "the pipe carried the results" grep -q IOPS "$TMP/fifo.out"
echo "old" >"$TMP/out.txt"
expect_exit 0 "--output replaces an existing regular file" run --no-db --name=x \
	--ioengine=null --size=1m --output="$TMP/out.txt"
check "the old content is gone" test "$(grep -c old "$TMP/out.txt")" = 0
refused 3 "--output never replaces a results database" run --no-db --name=x --ioengine=null \
	--size=1m --output="$TMP/r.db"
check "the database is still one" sql "$TMP/r.db" 'assert c.execute("select count(*) from runs").fetchone()[0] >= 1'
echo "notes" >"$TMP/notes.txt"
refused 2 "--db is never a file other than a database" run --db "$TMP/notes.txt" --name=x \
	--ioengine=null --size=1m
check "the file named by --db is unchanged" test "$(cat "$TMP/notes.txt")" = notes
refused 3 "report --out= an image with a filesystem" report --db "$TMP/r.db" --out "$WORK/fs.img"

# --- 2: a job that only reads never writes --------------------------------------
head -c 1048576 /dev/urandom >"$TMP/user.dat"
user_sum=$(sha256sum <"$TMP/user.dat")
expect_exit 2 "reading 4 MiB of a 1 MiB file is refused" run --no-db --name=r --rw=read \
	--size=4m --filename="$TMP/user.dat"
expect_output "never extends" "says a read never extends the file"
check "the 1 MiB file is unchanged" test "$(sha256sum <"$TMP/user.dat")" = "$user_sum"
expect_exit 0 "reading within the file works" run --no-db --name=r --rw=read --size=1m \
	--filename="$TMP/user.dat"
check "still unchanged after the read" test "$(sha256sum <"$TMP/user.dat")" = "$user_sum"
expect_exit 0 "a read job creates a missing file, as fio does" run --no-db --name=r --rw=read \
	--size=1m --filename="$TMP/fresh.dat"
check "the new file is laid out" test "$(stat -c %s "$TMP/fresh.dat")" = 1048576

# --- 3: the scratch variable never grows a file that exists -------------------------
(
	export DRIVEBENCH_SCRATCH="$TMP/user.dat"
	expect_exit 3 "scratch naming a user file: a write is refused" run --no-db --name=w \
		--rw=write --size=64k
	check "no 'creating the default target' about an existing file" \
		sh -c "! printf '%s' \"\$1\" | grep -q 'creating the default target'" _ "$ERR"
	expect_exit 0 "scratch naming a user file: a read within it works" run --no-db --name=r \
		--rw=read --size=64k
)
check "the user file kept its size and bytes" test "$(sha256sum <"$TMP/user.dat")" = "$user_sum"

# --- 4: partitions the kernel still knows --------------------------------------------
if command -v sfdisk >/dev/null && command -v partx >/dev/null; then
	new_loop parted -P && PARTED=$LOOP
	printf 'label: gpt\n,16M\n' | sfdisk -q "$PARTED" >/dev/null 2>&1
	test -b "${PARTED}p1" || partx -a "$PARTED" 2>/dev/null
	if [ -b "${PARTED}p1" ]; then
		check "ext4 made on ${PARTED}p1" mkfs_ext4 "${PARTED}p1"
		# the table's signatures gone, the kernel not told (wipefs would
		# have it re-read the table and forget the partition)
		dd if=/dev/zero of="$PARTED" bs=512 count=34 oflag=direct status=none
		dd if=/dev/zero of="$PARTED" bs=512 seek=$((32 * 2048 - 33)) count=33 \
			oflag=direct status=none
		check "the kernel still lists ${PARTED}p1" test -e "/sys/class/block/${PARTED#/dev/}p1"
		p1_before=$(head_mib "${PARTED}p1")
		refused 3 "writing a disk whose known partition holds ext4" run $JOB --direct=1 \
			--filename="$PARTED"
		expect_output "partition ${PARTED}p1 carries an ext4 filesystem" "names the partition's filesystem"
		check "the partition's filesystem is unchanged" test "$(head_mib "${PARTED}p1")" = "$p1_before"
	else
		not_ok "partition ${PARTED}p1 did not appear"
	fi
else
	not_ok "sfdisk and partx are needed (util-linux, fdisk)"
fi

# --- 5: a file drivebench created, then a loop device's backing file ----------------
expect_exit 0 "drivebench creates a file" run --no-db --name=w --rw=write --size=32m \
	--bs=1m --filename="$WORK/ours.img"
BACKED=$(losetup -f --show "$WORK/ours.img") && LOOPS="$LOOPS $BACKED"
mkfs_ext4 "$BACKED"
mkdir "$WORK/mnt2" && mount "$BACKED" "$WORK/mnt2" && MOUNTS="$WORK/mnt2 $MOUNTS"
refused 3 "its own file, now a mounted loop's backing file" run $JOB --filename="$WORK/ours.img"
expect_output "backing file of $BACKED" "names the loop device it backs"
refused 3 "... even with consent" run $JOB --filename="$WORK/ours.img" \
	--destroy-data="$WORK/ours.img"
umount "$WORK/mnt2"
ours_before=$(head_mib "$WORK/ours.img")
refused 3 "its own file, backing an unmounted loop with ext4" run $JOB --filename="$WORK/ours.img"
check "the backing file is unchanged" test "$(head_mib "$WORK/ours.img")" = "$ours_before"
losetup -d "$BACKED"
refused 3 "its own file, now an ext4 image" run $JOB --filename="$WORK/ours.img"
expect_output "carries an ext4 filesystem" "names the filesystem image"
expect_exit 0 "the image written with consent naming it" run $JOB \
	--filename="$WORK/ours.img" --destroy-data="$WORK/ours.img"

# --- 6: every refusal names an option its command takes --------------------------------
mkdir "$WORK/ckpt"
expect_exit 0 "checkpoint writes" checkpoint --db "$TMP/c.db" --checkpoint-size 1MB --ranks 1 \
	--count 1 --passes 1 "$WORK/ckpt"
python3 -c 'import os, sys
for root, dirs, files in os.walk(sys.argv[1]):
    for f in files: os.removexattr(os.path.join(root, f), "user.drivebench.created")' "$WORK/ckpt"
refused 3 "checkpoint over files it did not create" checkpoint --db "$TMP/c.db" \
	--checkpoint-size 1MB --ranks 1 --count 1 --passes 1 "$WORK/ckpt"
hint=$(printf '%s\n' "$ERR" | grep -o -- '--destroy-data=[^ ]*' | head -1)
check "checkpoint's refusal names --destroy-data" test -n "$hint"
expect_exit 0 "checkpoint accepts the option its hint names" checkpoint --db "$TMP/c.db" \
	--checkpoint-size 1MB --ranks 1 --count 1 --passes 1 $(find "$WORK/ckpt" -type f \
	-printf ' --destroy-data=%p') "$WORK/ckpt"

# a checkpoint's own directory, already there as a link into /dev
mkdir "$WORK/ckpt-link" && ln -s /dev "$WORK/ckpt-link/ckpt-001"
refused 3 "checkpoint whose ckpt-001 is a link to /dev" checkpoint --db "$TMP/c.db" \
	--checkpoint-size 1MB --ranks 1 --count 1 --passes 1 "$WORK/ckpt-link"
check "no checkpoint file was created in /dev" test -z "$(ls /dev/*.pt 2>/dev/null)"

# --- 7: directory= joined with a relative filename=, as fio does -------------------------
mkdir "$WORK/dir" "$WORK/cwd"
(cd "$WORK/cwd" && expect_exit 0 "directory= with a relative filename=" run --no-db --name=w \
	--rw=write --size=64k --directory="$WORK/dir" --filename=loop0)
check "the file is in the directory" test -f "$WORK/dir/loop0"
check "nothing was written in the working directory" test ! -e "$WORK/cwd/loop0"

# --- 8: a dangling link into /dev: the gate judges where the create lands ------------
# (an output through a link to a missing /dev name made that name, as a
# regular file on devtmpfs: the /dev rule judged the link's own name)
dev_new=/dev/drivebench-gate-$$
ln -s "$dev_new" "$WORK/dangling.json"
refused 3 "--output through a dangling link into /dev" run --no-db --name=w --ioengine=null \
	--size=1m --output="$WORK/dangling.json"
expect_output "a missing name in /dev" "... saying why"
ln -s "$dev_new" "$WORK/dangling_bw.1.log"
refused 3 "a log file through a dangling link into /dev" run --no-db --name=w --ioengine=null \
	--size=1m --write_bw_log="$WORK/dangling"
ln -s "$WORK/dangling.json" "$WORK/two-hops.db"
refused 3 "--db through two links ending at a missing /dev name" run --db "$WORK/two-hops.db" \
	--name=w --ioengine=null --size=1m
ln -s "$dev_new" "$WORK/dangling.html"
refused 3 "report --out through a dangling link into /dev" report --db "$TMP/c.db" \
	--out "$WORK/dangling.html"
check "nothing was created in /dev" test ! -e "$dev_new"
rm -f "$dev_new"
