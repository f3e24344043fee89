#!/bin/bash
# test_files.sh - the job files of tests/data/jobs/files-*.fio, each run on a
# scratch directory and checked for what fio does: nrfiles names and sizes
# and I/O reaching every file, file_service_type's order, filename=a:b
# lists, fallocate modes, unlink, create_on_open, filename_format,
# directory lists, fio's file-ops engines (files and directories created,
# stat'ed and deleted, one I/O each), and the write gate for every file.
. "$(dirname "$0")/lib.sh"

JOBS=$(cd "$(dirname "$0")/../data/jobs" && pwd)

# run_in DIR ARGS...: drivebench run with the job files' scratch directory
run_in() {
	dir=$1
	shift
	rm -rf "$dir" && mkdir -p "$dir"
	run_db run --no-db --output-format=json --set directory="$dir" "$@"
}

# json PYTHON: runs PYTHON with j = the parsed $OUT (asserts fail the check)
json() {
	printf '%s' "$OUT" | python3 -c "
import json, sys
d = json.load(sys.stdin)
jobs = d['jobs']
$1"
}

# sizes DIR: "name=size ..." of the regular files in DIR, sorted
sizes() { (cd "$1" && for f in $(ls); do [ -f "$f" ] && printf '%s=%s ' "$f" "$(stat -c %s "$f")"; done); }

# --- nrfiles: four files of size/4, named as fio names them, each written --
D="$TMP/nr"
run_in "$D" "$JOBS/files-nrfiles.fio"
check "nrfiles=4 runs" test "$RC" -eq 0
check "nrfiles=4 makes four files of size/4 named four.0.N" \
	test "$(sizes "$D")" = "four.0.0=16384 four.0.1=16384 four.0.2=16384 four.0.3=16384 "
check "nrfiles=4: 16 I/Os, 64 KiB" json 'assert jobs[0]["write"]["total_ios"] == 16; assert jobs[0]["write"]["io_bytes"] == 65536'

# every engine that takes I/O per file: io_uring with its files registered
# (registerfiles=1 makes a refusal an error), libaio, the fault engine
for engine in "io_uring --registerfiles=1" libaio "fault:psync" "io_uring --openfiles=2"; do
	run_in "$D" "$JOBS/files-nrfiles.fio" --set ioengine=${engine%% *} --set iodepth=8 \
		$(case "$engine" in *" "*) echo "--set ${engine#* --}" ;; esac)
	check "nrfiles=4 with $engine at iodepth 8: every file written, size/4 each" \
		test "$RC" -eq 0 -a "$(sizes "$D")" = "four.0.0=16384 four.0.1=16384 four.0.2=16384 four.0.3=16384 "
done

# filesize sizes one file too; size then caps the I/O (HOWTO "filesize")
D="$TMP/one"
run_in "$D" --name=one --filename=f --filesize=64k --size=16k --rw=write --fallocate=none --bs=4k
check "filesize=64k size=16k on one file: 16 KiB written" json 'assert jobs[0]["write"]["io_bytes"] == 16384'
run_in "$D" --name=one --filename=f --filesize=64k --rw=read --bs=4k
check "filesize=64k on one file read: laid out to 64 KiB, all of it read" \
	test "$(sizes "$D")" = "f=65536 " -a "$RC" -eq 0
check "the reader read the whole file" json 'assert jobs[0]["read"]["io_bytes"] == 65536'

# --- file_service_type ------------------------------------------------------
D="$TMP/svc"
run_in "$D" "$JOBS/files-service.fio" --section rr
check "roundrobin alternates: each file gets half" test "$(sizes "$D")" = "rr.0.0=32768 rr.0.1=32768 "
run_in "$D" "$JOBS/files-service.fio" --section seq
check "sequential finishes the first file first" test "$(sizes "$D")" = "seq.0.0=65536 seq.0.1=0 "
run_in "$D" "$JOBS/files-service.fio" --section rand
check "random reaches both files, 64 KiB in all" python3 -c "
import os
a, b = (os.path.getsize('$D/rand.0.%d' % i) for i in (0, 1))
assert a > 0 and b > 0 and a + b == 65536, (a, b)"
run_in "$D" "$JOBS/files-service.fio" --section rr3
check "roundrobin:2 serves two I/Os per file" \
	test "$(sizes "$D")" = "rr3.0.0=8192 rr3.0.1=4096 rr3.0.2=0 "

# --- filename=a:b, repeated filename=, \: ------------------------------------
D="$TMP/list"
run_in "$D" "$JOBS/files-list.fio"
check "filename=a:b\\:c plus filename=d: three files, size split over them" \
	test "$(sizes "$D")" = "a=16384 b:c=16384 d=16384 "
run_in "$D" "$JOBS/files-list.fio" --set filename=only
check "--set filename= replaces the list" test "$(sizes "$D")" = "only=49152 "

# --- fallocate ---------------------------------------------------------------
# alloc NAME: the bytes allocated to DIR/NAME.dat
alloc() { echo $(( $(stat -c '%b * %B' "$D/$1.dat") )); }
fsize() { stat -c %s "$D/$1.dat"; }
D="$TMP/layout"
run_in "$D" "$JOBS/files-layout.fio"
check "fallocate jobs run" test "$RC" -eq 0
check "fallocate=none: nothing allocated, the file is what was written" \
	test "$(fsize none)" -eq 65536 -a "$(alloc none)" -lt 1048576
check "fallocate=native: allocated to the size" test "$(fsize native)" -eq 1048576 -a "$(alloc native)" -ge 1048576
check "fallocate=posix: allocated to the size" test "$(fsize posix)" -eq 1048576 -a "$(alloc posix)" -ge 1048576
check "fallocate=keep: allocated, the size is what was written" \
	test "$(fsize keep)" -eq 65536 -a "$(alloc keep)" -ge 1048576
check "fallocate=truncate: full size, sparse" test "$(fsize truncate)" -eq 1048576 -a "$(alloc truncate)" -lt 1048576
check "fallocate=0 is none" test "$(fsize old0)" -eq 65536 -a "$(alloc old0)" -lt 1048576
check "fallocate=1 is posix" test "$(fsize old1)" -eq 1048576 -a "$(alloc old1)" -ge 1048576
check "a job that reads gets written data whatever fallocate says" \
	test "$(fsize readers)" -eq 1048576 -a "$(alloc readers)" -ge 1048576
expect_exit 2 "fallocate=sometimes is refused" run --no-db --name=x --fallocate=sometimes --size=4k
expect_output "unknown fallocate mode 'sometimes'" "the fallocate error names the value"

# --- unlink, create_on_open, filename_format, directory lists ----------------
D="$TMP/life"
run_in "$D" "$JOBS/files-lifetime.fio" --section gone
check "unlink=1: the job wrote" json 'assert jobs[0]["write"]["io_bytes"] == 32768'
check "unlink=1: its files are gone" test -z "$(ls -A "$D")"
run_in "$D" "$JOBS/files-lifetime.fio" --section onopen
check "create_on_open=1 with a reader fails the job as fio does (an empty file)" test "$RC" -eq 1
check "create_on_open=1: the files were created by the open, not laid out" \
	test "$(sizes "$D")" = "onopen.0.0=0 onopen.0.1=0 "
run_in "$D" "$JOBS/files-lifetime.fio" --section formatted
check "filename_format names the files (keywords in any case)" \
	test "$(sizes "$D")" = "data-0-of-formatted=16384 data-1-of-formatted=16384 "
rm -rf "$TMP/d1" "$TMP/d2" && mkdir "$TMP/d1" "$TMP/d2"
run_db run --no-db --output-format=json "$JOBS/files-lifetime.fio" --section clones \
	--set directory="$TMP/d1:$TMP/d2"
check "directory=A:B: clone 0 in A, clone 1 in B" \
	test "$(sizes "$TMP/d1")|$(sizes "$TMP/d2")" = "clones.0.0=16384 clones.0.1=16384 |clones.1.0=16384 clones.1.1=16384 "
run_db run --no-db --output-format=json --name=b --directory="$TMP/d1:$TMP/d2" \
	--filename=y --rw=write --size=8k --fallocate=none --numjobs=2
check "filename= names take the first directory of a list" test -f "$TMP/d1/y" -a ! -e "$TMP/d2/y"

# --- the file-ops engines -------------------------------------------------------
D="$TMP/ops"
rm -rf "$D" && mkdir "$D"
ops() { run_db run --no-db --output-format=json "$JOBS/files-ops.fio" --set directory="$D" --section "$1"; }
# counted KIND N: N I/Os of the read direction, N clat samples, no lat
counted() { json "r = jobs[0]['read']; assert r['total_ios'] == $1, r['total_ios']; assert r['clat_ns']['N'] == $1; assert r['lat_ns']['N'] == 0; assert r['slat_ns']['N'] == 0; assert r['clat_ns']['mean'] > 0"; }
ops create
check "filecreate creates nrfiles empty files" \
	test "$(sizes "$D")" = "create.0.0=0 create.0.1=0 create.0.2=0 create.0.3=0 create.0.4=0 "
check "filecreate: one I/O and one clat sample per file" counted 5
for i in 0 1 2 3 4; do mv "$D/create.0.$i" "$D/stat.0.$i"; done
ops stat
check "filestat: one I/O per file" counted 5
check "filestat lays out its files first (filesize=4k)" \
	test "$(sizes "$D")" = "stat.0.0=4096 stat.0.1=4096 stat.0.2=4096 stat.0.3=4096 stat.0.4=4096 "
for i in 0 1 2 3 4; do mv "$D/stat.0.$i" "$D/delete.0.$i"; done
ops delete
check "filedelete: one I/O per file" counted 5
check "filedelete deleted them" test -z "$(ls -A "$D")"
ops dcreate
check "dircreate: five directories" test "$(find "$D" -mindepth 1 -type d | wc -l)" -eq 5
check "dircreate: one I/O per directory" counted 5
for i in 0 1 2 3 4; do mv "$D/dcreate.0.$i" "$D/dstat.0.$i"; done
ops dstat
check "dirstat: one I/O per directory" counted 5
for i in 0 1 2 3 4; do mv "$D/dstat.0.$i" "$D/ddelete.0.$i"; done
ops ddelete
check "dirdelete: one I/O per directory" counted 5
check "dirdelete removed them" test -z "$(ls -A "$D")"
ops dcreate
ops dcreate
check "dircreate over existing directories fails as fio's mkdir does (exit 1)" test "$RC" -eq 1
expect_output "File exists" "the error is mkdir's"
expect_exit 2 "stat_type=stats is refused" run --no-db --name=x --ioengine=filestat --stat_type=stats
expect_output "unknown stat_type 'stats'" "the stat_type error names the value"
expect_exit 2 "cufile takes one file per job" run --no-db --name=x --ioengine=cufile \
	--directory="$TMP" --nrfiles=2 --size=8k
expect_output "ioengine=cufile works on one file per job" "the error says why"
expect_exit 2 "verify with several files is refused" run --no-db --name=x --directory="$TMP" \
	--nrfiles=2 --size=8k --rw=write --verify=crc32c
expect_output "a job with 2 files is not supported" "the verify error names the count"

mkdir -p "$TMP/mem"
expect_exit 2 "a set that cannot fit in memory is refused before any file is made" \
	run --no-db --name=m --directory="$TMP/mem" --nrfiles=100000 --size=400m --rw=randread \
	--max-buffer-mem=16m
expect_output "100000 files \(file state, paths, random offset generators\)" "the error gives the count"
check "nothing was made" test -z "$(ls -A "$TMP/mem")"

# --- the write gate for every file -------------------------------------------
D="$TMP/gate"
rm -rf "$D" && mkdir "$D"
echo "somebody's data" > "$D/theirs.dat"
run_db run --no-db "$JOBS/files-gate.fio" --set directory="$D"
check "filename=a:b with b a file drivebench did not create: refused (exit 3)" test "$RC" -eq 3
expect_output "existing file $D/theirs.dat was not created by drivebench" "the refusal names the file"
check "nothing was written: the other file was not created" test ! -e "$D/mine.dat"
check "nothing was written: theirs is unchanged" test "$(cat "$D/theirs.dat")" = "somebody's data"
rm -rf "$D" && mkdir "$D"
echo "somebody's data" > "$D/g.0.2"
expect_exit 3 "nrfiles=4 with one file drivebench did not create: refused" \
	run --no-db --name=g --directory="$D" --nrfiles=4 --size=64k --rw=write
check "nrfiles: nothing was written" test "$(ls "$D")" = "g.0.2"
expect_exit 3 "filedelete of a file drivebench did not create: refused" \
	run --no-db --name=g --directory="$D" --nrfiles=4 --ioengine=filedelete
check "filedelete: the file is still there" test -f "$D/g.0.2"
expect_exit 3 "filecreate over a file drivebench did not create: refused" \
	run --no-db --name=g --directory="$D" --nrfiles=4 --ioengine=filecreate
mkdir "$D/theirs.d"
expect_exit 3 "dirdelete of a directory drivebench did not create: refused" \
	run --no-db --name=x --filename=theirs.d --directory="$D" --ioengine=dirdelete
check "dirdelete: the directory is still there" test -d "$D/theirs.d"
expect_exit 0 "--destroy-data names it: dirdelete removes it" \
	run --no-db --name=x --filename=theirs.d --directory="$D" --ioengine=dirdelete \
	--destroy-data="$D/theirs.d"
check "dirdelete with consent removed it" test ! -e "$D/theirs.d"
echo "data" > "$D/keep.dat"
expect_exit 3 "unlink=1 on a file a read job did not create: refused (it would delete it)" \
	run --no-db --name=r --filename="$D/keep.dat" --rw=read --bs=4 --size=4 --unlink=1
check "unlink=1 refused: the file is still there" test -f "$D/keep.dat"

# --- a shape (bsrange) with a set of one file (filesize=): fio's exitwhat ---
expect_exit 0 "bsrange with filesize= and one file runs" run --no-db --name=b \
	--filename="$D/shaped.dat" --filesize=1m --bsrange=4k-16k --rw=randwrite \
	--output-format=json
check "its writes are 4k..16k and cover the file's megabyte" python3 -c "
import json, sys
j = json.loads(sys.argv[1])['jobs'][0]['write']
assert j['io_bytes'] >= 1 << 20 and 64 <= j['total_ios'] <= 256, j['io_bytes']" "$OUT"
expect_exit 2 "bsrange with two files is refused" run --no-db --name=b2 \
	--filename="$D/s1.dat:$D/s2.dat" --size=1m --bsrange=4k-16k --rw=randwrite
expect_output "not supported with several files" "the error says why"

# --- a layout the filesystem has no room for is refused before it starts ---
# (fio's cross-stripe-verify example with a small size= puts each clone's
# range 124g further on: laying that out filled the disk)
if [ "$(id -u)" -eq 0 ]; then
	SMALL="$TMP/small"
	mkdir "$SMALL" && mount -t tmpfs -o size=8m tmpfs "$SMALL"
	expect_exit 2 "a read job's layout beyond the free space is refused" \
		run --no-db --name=big --filename="$SMALL/big.dat" --rw=read --size=64m
	expect_output "needs 67108864 more and the filesystem has" "the error names the bytes"
	check "nothing was written" test "$(du -k "$SMALL" | cut -f1)" -lt 64
	expect_exit 2 "a write job's fallocate beyond the free space is refused" \
		run --no-db --name=big --filename="$SMALL/alloc.dat" --rw=write --size=64m \
		--fallocate=native
	expect_output "cannot lay out '$SMALL/alloc.dat' to 67108864 bytes" "the error names the file"
	expect_exit 0 "fallocate=truncate (sparse) is not held back" \
		run --no-db --name=sparse --filename="$SMALL/sparse.dat" --rw=write --size=64m \
		--fallocate=truncate --io_size=1m
	rm -f "$SMALL"/*
	# fill_device: the writes end at ENOSPC, which is no error; without
	# size= the range is the free space; the data then verifies
	# (fio's surface-scan example)
	expect_exit 0 "fill_device=1 writes until the filesystem is full" \
		run --no-db --name=fill --filename="$SMALL/fill.dat" --rw=write --bs=64k \
		--fill_device=1 --output-format=json
	check "it wrote nearly all of the 8 MiB, with no error" python3 -c "
import json, sys
j = json.loads(sys.argv[1])['jobs'][0]
assert j['error'] == 0 and 7 << 20 <= j['write']['io_bytes'] <= 8 << 20, j['write']['io_bytes']" "$OUT"
	rm -f "$SMALL"/*
	expect_exit 0 "fill_device with size= writes size= (fio)" \
		run --no-db --name=fill --filename="$SMALL/part.dat" --rw=write --bs=64k \
		--fill_device=1 --size=2m --output-format=json
	check "2 MiB written" python3 -c "
import json, sys
assert json.loads(sys.argv[1])['jobs'][0]['write']['io_bytes'] == 2 << 20" "$OUT"
	expect_exit 1 "without fill_device a full filesystem is the write's error" \
		run --no-db --name=nofill --filename="$SMALL/more.dat" --rw=write --bs=64k \
		--size=16m --fallocate=none
	umount -l "$SMALL"   # lazily: a run's last close may still be settling
else
	skip "tmpfs mounts need root"
fi
