#!/bin/bash
# test_engines.sh - the engines and engine-level options of docs/engines.md
# through job files of our own (tests/data/jobs/engine-*.fio, written as
# fio's documentation uses them), each checked for what it does: sync
# writes what psync writes, exec runs its program, ftruncate sets the size, falloc allocates,
# e4defrag moves blocks, page_fault touches memory, NUMA node 0 runs and a
# missing node is refused, disable_lat / gtod_reduce leave latencies out as
# fio, cmdprio issues the priorities it reports, and an engine option with
# another engine is refused. That cpuio burns about the CPU it is asked
# for is test_cpuio.sh's, which runs alone (tests/alone.txt); this one
# shares the machine.
. "$(dirname "$0")/lib.sh"

JOBS=$(cd "$(dirname "$0")/../data/jobs" && pwd)

# json_check WHAT PYTHON: PYTHON runs with d = the last run's JSON
json_check() {
	echo "$OUT" > "$TMP/out.json"
	check "$1" python3 -c "
import json
d = json.load(open('$TMP/out.json'))
jobs = {j['jobname']: j for j in d['jobs']}
$2"
}

# --- an engine that cannot trim is refused before anything is written ---
rm -f "$TMP/trim.dat"
expect_exit 2 "rw=trim with the sync engine is refused" run --no-db --name=t \
	--ioengine=sync --rw=trim --filename="$TMP/trim.dat" --size=64k
expect_output "option 'rw': ioengine=sync does not trim" "the error names the engine"
# the engines to use instead come from the table's ENGINE_TRIMS (falloc included)
expect_output "use io_uring, io_uring_cmd, libaio, psync, null, vssd or falloc$" "... and lists every engine that trims"
check "nothing was laid out" test ! -e "$TMP/trim.dat"

# --- an engine option in [global] does not bind jobs of another engine ---
# (fio's e4defrag2 example: donorname= in [global], libaio jobs beside)
cat > "$TMP/global-engine-option.fio" <<JOB
[global]
ioengine=cpuio
cpuload=10
runtime=1
time_based
[burner]
[reader]
ioengine=psync
rw=read
size=64k
filename=$TMP/geo.dat
time_based=0
JOB
expect_exit 0 "a cpuio option in [global] leaves a psync job alone" run --no-db \
	"$TMP/global-engine-option.fio" --output-format=json
json_check "both jobs ran" "
assert jobs['reader']['read']['io_bytes'] == 64 << 10
assert jobs['burner']['read']['total_ios'] > 0"
expect_exit 2 "the same option in the psync job's own section is refused" run --no-db \
	--name=r --ioengine=psync --rw=read --size=64k --filename="$TMP/geo.dat" --cpuload=10
expect_output "option 'cpuload' is an option of ioengine=cpuio, not of ioengine=psync" \
	"the error names both engines"

# --- filesize= with one file: any engine (a set of one is the engine's fd) ---
expect_exit 0 "sync with filesize= and one file runs" run --no-db --name=one \
	--ioengine=sync --rw=write --filesize=64k --filename="$TMP/one.dat" --output-format=json
json_check "sync wrote the file's 64 KiB" "
assert jobs['one']['write']['io_bytes'] == 64 << 10"

# --- falloc trims punch holes, as fio's falloc engine ---
rm -f "$TMP/holes.dat"
dd if=/dev/urandom of="$TMP/holes.dat" bs=1M count=1 status=none
expect_exit 0 "falloc with rw=trim runs" run --no-db --name=holes --ioengine=falloc \
	--rw=trim --bs=64k --size=1m --filename="$TMP/holes.dat" --output-format=json \
	--destroy-data="$TMP/holes.dat"
json_check "falloc trimmed 16 ranges" "
assert jobs['holes']['trim']['total_ios'] == 16, jobs['holes']['trim']"
check "the file kept its size but lost its blocks" python3 -c "
import os
st = os.stat('$TMP/holes.dat')
assert st.st_size == 1 << 20 and st.st_blocks * 512 < 64 << 10, (st.st_size, st.st_blocks)"

# --- sync and psync write the same bytes; sync reads them back ---------
# scramble_buffers=0: fio's default scrambling stamps the time into each
# write, so only unscrambled buffers are the same bytes run after run
expect_exit 0 "engine-sync.fio runs" run --no-db "$JOBS/engine-sync.fio" \
	--set directory="$TMP" --set scramble_buffers=0 --output-format=json
json_check "sync wrote and read 1 MiB" "
assert jobs['sync-writer']['write']['io_bytes'] == 1 << 20
assert jobs['sync-reader']['read']['io_bytes'] == 1 << 20
assert jobs['sync-writer']['job options']['ioengine'] == 'sync'"
mv "$TMP/sync.dat" "$TMP/by-sync.dat"
expect_exit 0 "the same writer with psync runs" run --no-db "$JOBS/engine-sync.fio" \
	--set directory="$TMP" --set scramble_buffers=0 --set ioengine=psync
check "sync and psync wrote the same bytes" cmp -s "$TMP/sync.dat" "$TMP/by-sync.dat"
rm -f "$TMP/sync.dat" "$TMP/by-sync.dat"

expect_exit 0 "engine-pvsync.fio runs" run --no-db "$JOBS/engine-pvsync.fio" \
	--set directory="$TMP" --output-format=json
json_check "pvsync wrote and pvsync2 read 512 KiB" "
assert jobs['pvsync-writer']['write']['io_bytes'] == 512 << 10
assert jobs['pvsync2-reader']['read']['io_bytes'] == 512 << 10"
rm -f "$TMP/pvsync.dat"

expect_exit 0 "engine-posixaio.fio runs" run --no-db "$JOBS/engine-posixaio.fio" \
	--set directory="$TMP" --output-format=json
json_check "posixaio wrote and vsync read 1 MiB" "
assert jobs['posixaio-writer']['write']['io_bytes'] == 1 << 20
assert jobs['vsync-reader']['read']['io_bytes'] == 1 << 20"
rm -f "$TMP/posixaio.dat"

# --- exec: the program runs with its arguments, its output redirected ----
cat > "$TMP/prog.sh" <<'EOF'
#!/bin/sh
echo "$2 $3" > "$1"
echo "hello from the program"
EOF
chmod +x "$TMP/prog.sh"
(cd "$TMP" && PROG="$TMP/prog.sh" MARK="$TMP/ran.txt" timeout 60 "$DB" run --no-db \
	"$JOBS/engine-exec.fio" --output-format=json > "$TMP/exec.json" 2>"$TMP/exec.err")
check "exec ran the program with %n and %r expanded" \
	grep -qx "run-program 2" "$TMP/ran.txt"
check "exec redirected its output to NAME.stdout" \
	grep -q "hello from the program" "$TMP/run-program.stdout"
check "exec's job ran for its runtime with no data" python3 -c "
import json
j = json.load(open('$TMP/exec.json'))['jobs'][0]
assert j['read']['io_bytes'] == 0 and j['read']['total_ios'] >= 10, j['read']
assert 1900 <= j['job_runtime'] <= 4000, j['job_runtime']"
ln -sf /proc/sys/vm/drop_caches "$TMP/run-program.stdout"
(cd "$TMP" && PROG="$TMP/prog.sh" MARK="$TMP/ran2.txt" timeout 60 "$DB" run --no-db \
	"$JOBS/engine-exec.fio" > /dev/null 2>"$TMP/exec.err"; echo $? > "$TMP/exec.rc")
check "exec's std_redirect passes the output gate (a kernel setting: exit 3)" \
	grep -qx 3 "$TMP/exec.rc"
check "the program did not run" test ! -e "$TMP/ran2.txt"
rm -f "$TMP/run-program.stdout"
(cd "$TMP" && PROG=/no/such/program MARK=x timeout 60 "$DB" run --no-db \
	"$JOBS/engine-exec.fio" > /dev/null 2>"$TMP/exec.err"; echo $? > "$TMP/exec.rc")
check "exec with a missing program is exit 2" grep -qx 2 "$TMP/exec.rc"
check "exec names the missing program" grep -q "program '/no/such/program'" "$TMP/exec.err"

# --- ftruncate: the file ends at the last offset ---------------------------
expect_exit 0 "engine-ftruncate.fio runs" run --no-db "$JOBS/engine-ftruncate.fio" \
	--set directory="$TMP" --output-format=json
check "after rw=write the file is size - bs long" \
	test "$(stat -c %s "$TMP/truncate.dat")" -eq $((60 * 1024))
json_check "each truncate counted as a block" "
assert jobs['grow-truncate']['write']['io_bytes'] == 64 << 10"
expect_exit 0 "random truncates run" run --no-db "$JOBS/engine-ftruncate.fio" \
	--set directory="$TMP" --set rw=randwrite --set norandommap --set runtime=1 \
	--set time_based
check "random truncates leave the file within the range" \
	test "$(stat -c %s "$TMP/truncate.dat")" -lt $((64 * 1024))
rm -f "$TMP/truncate.dat"

# --- falloc: blocks are allocated on a sparse file -----------------------
truncate -s 4m "$TMP/fragmented_file"
before=$(stat -c %b "$TMP/fragmented_file")
expect_exit 0 "engine-falloc.fio runs on a sparse file" run --no-db \
	"$JOBS/engine-falloc.fio" --set directory="$TMP" \
	--destroy-data="$TMP/fragmented_file" --output-format=json
after=$(stat -c %b "$TMP/fragmented_file")
check "falloc allocated (st_blocks $before -> $after)" test "$after" -ge $((before + 4096))
check "falloc kept the size" test "$(stat -c %s "$TMP/fragmented_file")" -eq $((4 << 20))
truncate -s 0 "$TMP/fragmented_file"; truncate -s 1m "$TMP/fragmented_file"
expect_exit 0 "falloc with rw=read allocates too" run --no-db "$JOBS/engine-falloc.fio" \
	--set directory="$TMP" --set rw=read --set size=1m \
	--destroy-data="$TMP/fragmented_file"
check "a read allocated without growing the file" \
	test "$(stat -c %b "$TMP/fragmented_file")" -ge 1024 -a \
	"$(stat -c %s "$TMP/fragmented_file")" -eq $((1 << 20))
expect_exit 3 "falloc, even reading, passes the write gate" run --no-db \
	"$JOBS/engine-falloc.fio" --set directory="$TMP" --set rw=read
rm -f "$TMP/fragmented_file"

# --- e4defrag on ext4 (/var/tmp), and a clear refusal elsewhere -----------
E4=$(mktemp -d /var/tmp/drivebench-e4.XXXXXX)
# move_ext_offered DIR: whether this kernel lets EXT4_IOC_MOVE_EXT run on
# DIR's filesystem, probed apart from drivebench (a move of no blocks:
# a kernel or sandbox that refuses the ioctl says EPERM, EOPNOTSUPP or
# ENOTTY before it looks at the arguments). CI machines differ here.
move_ext_offered() {
	python3 - "$1" <<'PY'
import errno, fcntl, os, struct, sys
d = sys.argv[1]
o = os.open(os.path.join(d, "probe.o"), os.O_RDWR | os.O_CREAT, 0o600)
n = os.open(os.path.join(d, "probe.d"), os.O_RDWR | os.O_CREAT, 0o600)
os.write(o, b"x" * 4096); os.fsync(o)
req = (3 << 30) | (40 << 16) | (ord("f") << 8) | 15      # _IOWR('f', 15, 40 bytes)
arg = bytearray(struct.pack("=IIQQQQ", 0, n, 0, 0, 0, 0))
try:
    fcntl.ioctl(o, req, arg)
    ok = True
except OSError as e:
    ok = e.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTTY, errno.ENOSYS)
for f in ("probe.o", "probe.d"):
    os.unlink(os.path.join(d, f))
sys.exit(0 if ok else 1)
PY
}
# refused_checks WHY [ENV...]: on a kernel that refuses the ioctl (or under
# a shim that makes it refuse), the engine says what is missing instead of
# failing every I/O with a bare errno
refused_checks() {
	why=$1; shift
	expect_exit 0 "a file to defragment is written ($why)" run --no-db --name=file1 \
		--ioengine=psync --rw=write --bs=64k --size=4m --filename="$E4/file1"
	OUT=$(env "$@" timeout 120 "$DB" run --no-db "$JOBS/engine-e4defrag.fio" \
		--set directory="$E4" 2>"$TMP/stderr")
	RC=$?
	ERR=$(cat "$TMP/stderr")
	check "e4defrag where EXT4_IOC_MOVE_EXT is refused stops, exit 2 ($why; got $RC)" \
		test "$RC" = 2
	expect_output "the kernel refuses EXT4_IOC_MOVE_EXT on '$E4/file1' [(](Operation not permitted|Operation not supported|Inappropriate ioctl)[)].*online defragmentation" \
		"the refusal names the ioctl, the file and the errno ($why)"
	check "a refused move writes no donor blocks ($why)" \
		test "$(stat -c %b "$E4/file.def" 2>/dev/null || echo 0)" = 0
	rm -f "$E4/file1" "$E4/file.def"
}
# A shim (LD_PRELOAD) that makes ioctl refuse EXT4_IOC_MOVE_EXT with EPERM:
# the probe and the engine are checked as a refusing machine sees them,
# wherever this one offers the ioctl.
REFUSE="$TMP/refuse_move_ext.so"
if ! cc -shared -fPIC -o "$REFUSE" "$JOBS/../preload/refuse_move_ext.c" -ldl; then
	not_ok "the refusing shim builds"
fi
if [ "$(stat -f -c %T "$E4")" = ext2/ext3 ]; then
	if (export LD_PRELOAD="$REFUSE"; move_ext_offered "$E4"); then
		not_ok "the probe sees a refusal under the shim"
	else
		ok "the probe sees a refusal under the shim"
	fi
	# an ASan build must find its runtime first; the shim only wraps ioctl
	refused_checks "simulated" LD_PRELOAD="$REFUSE" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
fi
# moved_checks WHERE: on ext4 where the kernel offers the ioctl ($E4),
# e4defrag moves every block, keeps the data, and refuses a foreign donor
moved_checks() {
	where=$1
	expect_exit 0 "a file to defragment is written ($where)" run --no-db --name=file1 \
		--ioengine=psync --rw=write --bs=64k --size=4m --filename="$E4/file1"
	sum_before=$(md5sum < "$E4/file1")
	phys_before=$(filefrag -v "$E4/file1" | awk '$1 == "0:" {print $4}')
	expect_exit 0 "engine-e4defrag.fio runs on ext4 ($where)" run --no-db \
		"$JOBS/engine-e4defrag.fio" --set directory="$E4" --output-format=json
	json_check "e4defrag moved every block it was asked to ($where)" "
assert jobs['isolated-e4defrag']['write']['io_bytes'] == 4 << 20
assert jobs['isolated-e4defrag']['error'] == 0"
	check "the data is unchanged ($where)" test "$(md5sum < "$E4/file1")" = "$sum_before"
	phys_after=$(filefrag -v "$E4/file1" | awk '$1 == "0:" {print $4}')
	check "the first block moved ($where: $phys_before -> $phys_after)" \
		test -n "$phys_after" -a "$phys_before" != "$phys_after"
	# a donor that is not drivebench's passes the gate as a target does
	rm -f "$E4/file.def"
	echo "someone's data" > "$E4/file.def"
	expect_exit 3 "an existing donor drivebench did not create is refused ($where)" run --no-db \
		"$JOBS/engine-e4defrag.fio" --set directory="$E4"
	expect_output "refusing to write to '$E4/file.def'" "the refusal names the donor"
	check "the donor is unchanged ($where)" grep -qx "someone's data" "$E4/file.def"
	rm -f "$E4/file1" "$E4/file.def" "$E4/file2.def"
}
if [ "$(stat -f -c %T "$E4")" = ext2/ext3 ] && ! move_ext_offered "$E4"; then
	refused_checks "this kernel"
	skip "e4defrag: the kernel refuses EXT4_IOC_MOVE_EXT here, blocks cannot move (hardware skip: the move checks run where it is offered)"
elif [ "$(stat -f -c %T "$E4")" = ext2/ext3 ]; then
	moved_checks /var/tmp
else
	expect_exit 2 "e4defrag off ext4 is refused" run --no-db \
		"$JOBS/engine-e4defrag.fio" --set directory="$E4"
	expect_output "is not on ext4" "the refusal says why"
	skip "e4defrag: /var/tmp is not on ext4 here ($(stat -f -c %T "$E4")), blocks cannot move (hardware skip: the move checks run where it is)"
fi
rm -rf "$E4"
# a fresh ext4 on a loop device: the moves are checked on every machine
# that has root and loop devices, whatever /var/tmp is (this one's / refuses
# the ioctl, EPERM; a fresh ext4 offers it); a kernel that refuses it there
# too is a listed skip
if [ "$(id -u)" -eq 0 ] && command -v mkfs.ext4 >/dev/null && truncate -s 64m "$TMP/e4.img" &&
	mkfs.ext4 -q -F "$TMP/e4.img" && E4LOOP=$(losetup -f --show "$TMP/e4.img" 2>/dev/null); then
	E4="$TMP/e4mnt"; mkdir -p "$E4"
	trap 'umount "$E4" 2>/dev/null; losetup -d "$E4LOOP" 2>/dev/null; rm -rf "$TMP"' EXIT
	if mount "$E4LOOP" "$E4"; then
		if move_ext_offered "$E4"; then
			moved_checks "a fresh ext4 on $E4LOOP"
		else
			refused_checks "a fresh ext4 on $E4LOOP"
			skip "e4defrag: the kernel refuses EXT4_IOC_MOVE_EXT on a fresh ext4 too, blocks cannot move (hardware skip)"
		fi
		umount "$E4"
	else
		not_ok "mounting a fresh ext4 on $E4LOOP"
	fi
	losetup -d "$E4LOOP"
	trap 'rm -rf "$TMP"' EXIT
else
	skip "e4defrag on a fresh ext4: needs root, mkfs.ext4 and a loop device"
fi
if mkdir -p "$TMP/tmpfs" && mount -t tmpfs -o size=16m tmpfs "$TMP/tmpfs" 2>/dev/null; then
	expect_exit 2 "e4defrag on tmpfs is refused" run --no-db \
		"$JOBS/engine-e4defrag.fio" --set directory="$TMP/tmpfs" --set size=1m
	expect_output "'$TMP/tmpfs/file1' is not on ext4 .*EXT4_IOC_MOVE_EXT needs an ext4 file" \
		"the refusal names the file and why"
	umount "$TMP/tmpfs"
else
	skip "e4defrag on tmpfs: cannot mount a tmpfs here (needs root)"
fi

# --- page_fault: the memory is written and read -------------------------
expect_exit 0 "engine-page-fault.fio runs" run --no-db "$JOBS/engine-page-fault.fio" \
	--output-format=json
json_check "page_fault copied the job's size" "
w = jobs['page_fault_write']
assert w['write']['io_bytes'] == 16 << 20, w['write']
m = jobs['page_fault_mixed']
assert m['read']['io_bytes'] + m['write']['io_bytes'] == 16 << 20
assert m['read']['io_bytes'] > 0 and m['write']['io_bytes'] > 0"
# fio's minf: the thread's minor page faults; the first touch of each of
# the 4096 pages of 16 MiB is one (it was always 0)
json_check "page_fault's minor faults: one a page at least (minf)" "
w = jobs['page_fault_write']
assert w['minf'] >= 4096 and w['majf'] == 0, (w['minf'], w['majf'])"

# --- NUMA: node 0 runs, a missing node is refused -----------------------
expect_exit 0 "numa_cpu_nodes=0 with bind:0 and interleave:0 runs" run --no-db \
	"$JOBS/engine-numa.fio" --set filename="$TMP/numa.dat" --output-format=json
json_check "both NUMA jobs read" "
assert all(j['read']['io_bytes'] == 4 << 20 for j in jobs.values()), jobs.keys()"
expect_exit 2 "numa_cpu_nodes=7 is refused" run --no-db "$JOBS/engine-numa-missing.fio"
expect_output "engine-numa-missing.fio:5: .*NUMA node 7 is not on this machine" \
	"the refusal names the file, line and node"

# --- disable_lat / gtod_reduce: latencies left out as fio ---------------
expect_exit 0 "engine-gtod.fio runs" run --no-db "$JOBS/engine-gtod.fio" --output-format=json
json_check "gtod_reduce: no slat, clat or lat; disable_lat: lat only" "
g = jobs['gtod']['read']
for k in ('slat_ns', 'clat_ns', 'lat_ns'):
    assert g[k]['N'] == 0 and g[k]['mean'] == 0 and 'percentile' not in g[k], (k, g[k])
assert g['total_ios'] == 16384 and g['iops'] > 0
assert sum(jobs['gtod']['latency_us'].values()) == 0
n = jobs['nolat']['read']
assert n['lat_ns']['N'] == 0 and 'percentile' not in n['lat_ns']
assert n['clat_ns']['N'] == 16384 and 'percentile' in n['clat_ns']
c = jobs['noslat-noclat']['read']
assert c['slat_ns']['N'] == 0 and c['clat_ns']['N'] == 0 and c['lat_ns']['N'] == 16384"

# --- cmdprio: the priorities issued are the ones reported ---------------
expect_exit 0 "engine-cmdprio.fio runs" run --no-db "$JOBS/engine-cmdprio.fio" \
	--set filename=/var/tmp/drivebench-cmdprio.$$.dat --output-format=json
rm -f /var/tmp/drivebench-cmdprio.$$.dat
json_check "cmdprio_percentage=20: a fifth real time, the rest the job's idle class" "
r = jobs['randread']['read']
p = {(x['prioclass'], x['prio']): x['clat_ns']['N'] for x in r['prios']}
assert set(p) == {(3, 0), (1, 0)}, p
assert sum(p.values()) == r['total_ios'] == r['clat_ns']['N']
assert 0.1 <= p[(1, 0)] / r['total_ios'] <= 0.3, p
a = jobs['cmdprio-adv']['read']
q = {(x['prioclass'], x['prio']): x['clat_ns']['N'] for x in a['prios']}
assert set(q) == {(0, 0), (1, 1), (3, 2)}, q
assert q[(3, 2)] > q[(1, 1)], q"

# --- an engine option with another engine -------------------------------
expect_exit 2 "cpuload with ioengine=psync is refused" run --no-db "$JOBS/engine-mismatch.fio"
expect_output "engine-mismatch.fio:6: job 'oops': option 'cpuload' is an option of ioengine=cpuio, not of ioengine=psync" \
	"the refusal names both engines"

# --- threads=1 (fio's examples), atomic=1, allow_mounted_write ----------
expect_exit 0 "threads=1 is accepted" run --no-db "$JOBS/engine-threads.fio" --output-format=json
json_check "four writers ran as one group" "
assert jobs['writers']['write']['io_bytes'] == 4 * (16 << 20)"
expect_exit 2 "threads=4 is refused" run --no-db "$JOBS/engine-threads.fio" --set threads=4
expect_output "use numjobs=4" "the refusal points to numjobs"

dev=$(stat -c '%Hd:%Ld' /var/tmp 2>/dev/null)
unit=$(cat "/sys/dev/block/$dev/queue/atomic_write_unit_max_bytes" 2>/dev/null || echo 0)
if [ "${unit:-0}" -eq 0 ]; then
	expect_exit 2 "atomic=1 is refused where the device has no atomic writes" run --no-db \
		"$JOBS/engine-atomic.fio" --set filename=/var/tmp/drivebench-atomic.$$.dat
	expect_output "atomic=1: '/var/tmp/drivebench-atomic.$$.dat' has no atomic writes" \
		"the refusal names the file"
else
	expect_exit 0 "atomic=1 writes where the device has atomic writes" run --no-db \
		"$JOBS/engine-atomic.fio" --set filename=/var/tmp/drivebench-atomic.$$.dat
fi
rm -f /var/tmp/drivebench-atomic.$$.dat
expect_exit 2 "atomic=1 with psync is refused" run --no-db "$JOBS/engine-atomic.fio" \
	--set ioengine=psync --set filename="$TMP/a.dat"
expect_output "ioengine=psync has no atomic writes" "the refusal names the engine"
expect_output "has no atomic writes \(use io_uring, libaio or pvsync2\)" "... and the engines that have them"
expect_exit 0 "allow_mounted_write=1 is accepted on a file" run --no-db --name=m \
	--ioengine=psync --rw=write --size=64k --filename="$TMP/m.dat" --allow_mounted_write=1
