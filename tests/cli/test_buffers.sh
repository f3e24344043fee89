#!/bin/bash
# test_buffers.sh - what writes carry, the syncs and the page cache, as
# fio does them (docs/options.md: Buffer contents, Syncs, Page cache), with
# the job files of tests/data/jobs/ run on scratch files: every 4 KiB block
# written unique by default at QD1 and QD16, zero_buffers zeros,
# buffer_compress_percentage=50 compressing to about half,
# dedupe_percentage=50 half copies, dedupe_global copies across jobs,
# buffer_pattern repeated; fsync=4 / fdatasync=4 at QD16 issuing writes/4
# syncs (strace and the JSON sync section); invalidate=1 dropping the
# range from the page cache before a buffered read, invalidate=0 not.
. "$(dirname "$0")/lib.sh"

JOBS="$(pwd)/tests/data/jobs"

# blocks FILE PYTHON: runs PYTHON with `blocks` the file's 4 KiB blocks
# (and zlib, hashlib imported); a failed assert makes it exit non-zero
blocks() {
	python3 - "$1" "$2" <<'PY'
import hashlib, sys, zlib
data = open(sys.argv[1], "rb").read()
blocks = [data[i:i + 4096] for i in range(0, len(data), 4096)]
def distinct(bs):
    return len({hashlib.sha1(b).digest() for b in bs})
def ratio(bs):
    return sum(len(zlib.compress(b, 6)) for b in bs) / (4096.0 * len(bs))
exec(sys.argv[2])
PY
}

# job NAME FILE [ARGS...]: runs tests/data/jobs/NAME.fio on FILE, JSON in $OUT
job() {
	name=$1; file=$2; shift 2
	run_db run --no-db "$JOBS/$name.fio" --set filename="$file" --output-format=json "$@"
	if [ "$RC" -ne 0 ]; then not_ok "$name.fio runs (exit $RC)"; echo "$ERR" | head -5; fi
}

# json PYTHON: runs PYTHON with j = the last JSON output
json() {
	printf '%s' "$OUT" | python3 -c 'import json, sys
j = json.load(sys.stdin)
exec(sys.argv[1])' "$1"
}

# ---- buffer contents ---------------------------------------------------

job buffers-unique "$TMP/unique.dat"
check "default buffers: every 4 KiB block written at QD1 and QD16 is unique" \
	blocks "$TMP/unique.dat" '
assert len(blocks) == 1024, len(blocks)
assert distinct(blocks[:512]) == 512 and distinct(blocks[512:]) == 512
assert distinct(blocks) == 1024
assert ratio(blocks) > 0.85, ratio(blocks)   # each block on its own is random'
job buffers-unique "$TMP/same.dat" --set scramble_buffers=0
check "scramble_buffers=0: a slot's blocks repeat (one at QD1, at most 16 at QD16)" \
	blocks "$TMP/same.dat" '
assert distinct(blocks[:512]) == 1, distinct(blocks[:512])
assert distinct(blocks[512:]) <= 16, distinct(blocks[512:])'

job buffers-zero "$TMP/zero.dat"
check "zero_buffers: the file is zeros" blocks "$TMP/zero.dat" '
assert len(data) == 2 << 20 and data.count(0) == len(data)'

job buffers-compress "$TMP/compress.dat"
check "buffer_compress_percentage=50: blocks compress to about half, none repeats" \
	blocks "$TMP/compress.dat" '
r = ratio(blocks)
assert 0.45 < r < 0.6, r
assert distinct(blocks) == len(blocks)'
job buffers-compress "$TMP/compress80.dat" --set buffer_compress_percentage=80
check "buffer_compress_percentage=80: to about a fifth" blocks "$TMP/compress80.dat" '
r = ratio(blocks)
assert 0.15 < r < 0.3, r'

job buffers-dedupe "$TMP/dedupe.dat"
check "dedupe_percentage=50: about half the blocks are copies" blocks "$TMP/dedupe.dat" '
share = distinct(blocks) / len(blocks)
assert 0.42 < share < 0.58, share
assert ratio(blocks) > 0.95     # copies of random data, not compressible'
job buffers-dedupe "$TMP/dedupe0.dat" --set dedupe_percentage=0
check "dedupe_percentage=0: no copies" blocks "$TMP/dedupe0.dat" '
assert distinct(blocks) == len(blocks)'

job buffers-dedupe-global "$TMP/global.dat"
check "dedupe_global: job b writes copies of job a's blocks" blocks "$TMP/global.dat" '
a = {hashlib.sha1(b).digest() for b in blocks[:1024]}
shared = sum(1 for b in blocks[1024:] if hashlib.sha1(b).digest() in a)
assert shared > 100, shared
assert 0.4 < ratio(blocks) < 0.65, ratio(blocks)'
job buffers-dedupe-global "$TMP/local.dat" --set dedupe_global=0
check "dedupe_global=0: no job writes the other's blocks" blocks "$TMP/local.dat" '
a = {hashlib.sha1(b).digest() for b in blocks[:1024]}
assert not any(hashlib.sha1(b).digest() in a for b in blocks[1024:])
assert distinct(blocks[:1024]) < 800'

job buffers-pattern "$TMP/pattern.dat"
check "buffer_pattern: the pattern, repeated" blocks "$TMP/pattern.dat" '
pattern = bytes.fromhex("deadface") + b"abcd"
assert data == pattern * (len(data) // 8), data[:16]'

expect_exit 2 "buffer_pattern with a format is an error" run --no-db --name=p \
	--filename="$TMP/p.dat" --rw=write --size=64k --buffer_pattern=%o
expect_output "option 'buffer_pattern': '%o': formats such as %o are not supported" \
	"... naming the option"
expect_exit 2 "dedupe working_set without size= is an error" run --no-db --name=p \
	--filename="$TMP/p.dat" --rw=write --dedupe_percentage=10 --dedupe_mode=working_set
expect_output "option 'dedupe_mode': working_set needs size=" "... saying what it needs"

# verify wins: with verify the blocks carry its headers and check clean
run_db run --no-db --name=v --filename="$TMP/verify.dat" --rw=write --size=1m \
	--verify=crc32c --zero_buffers --output-format=json
check "verify with zero_buffers: verify's data is written and checks clean" \
	json 'd = j["jobs"][0]["drivebench"]["verify"]
assert d["checked"] == d["units"] > 0 and d["failed"] == 0, d'
check "... and it is not zeros" blocks "$TMP/verify.dat" '
assert data.count(0) < len(data) // 2'

# ---- syncs --------------------------------------------------------------

job sync-fsync "$TMP/fsync.dat"
check "fsync=4 at QD16 (libaio): writes/4 - 1 syncs with their latency in JSON sync" json '
job = j["jobs"][0]
w, s = job["write"]["total_ios"], job["sync"]
assert w == 256, w
assert s["total_ios"] == 63, s["total_ios"]
assert s["lat_ns"]["N"] == 63 and s["lat_ns"]["min"] > 0, s["lat_ns"]
assert s["lat_ns"]["max"] >= s["lat_ns"]["mean"] >= s["lat_ns"]["min"]
assert "99.000000" in s["lat_ns"]["percentile"], s["lat_ns"]'
run_db run --no-db "$JOBS/sync-fsync.fio" --set filename="$TMP/fsync.dat" \
	--set ioengine=null --output-format=json
check "the null engine counts the same syncs" json '
assert j["jobs"][0]["sync"]["total_ios"] == 63, j["jobs"][0]["sync"]'
run_db run --no-db "$JOBS/sync-fsync.fio" --set filename="$TMP/fsync.dat" --set fsync=5
expect_output "  sync: 51 \(fsync/fdatasync\), lat \((ns|us|ms)\): mean" \
	"fsync=5: 51 syncs for 256 writes, on the summary's sync line"

# strace counts the syscalls: installed by scripts/deps.sh, and able to
# trace here (ptrace may be refused: Yama's ptrace_scope 3, a seccomp
# profile), probed before each group; where it cannot, a listed skip
strace_here() {
	if ! command -v strace >/dev/null 2>&1; then
		not_ok "strace is not installed (scripts/deps.sh installs it): no $1 checks"
		return 1
	fi
	if ! strace -f -qq -o /dev/null true >/dev/null 2>&1; then
		skip "strace cannot trace here (ptrace refused): no $1 checks"
		return 1
	fi
}

if strace_here "fsync count"; then
	strace -f -qq -e trace=fsync,fdatasync -o "$TMP/strace" "$DB" run --no-db \
		"$JOBS/sync-fsync.fio" --set filename="$TMP/fsync.dat" >/dev/null 2>&1
	check "fsync=4 at QD16: strace counts 63 fsync calls" \
		test "$(grep -c -E '(^|[^a-z])fsync\(' "$TMP/strace")" -eq 63
	# the files exist first: laying one out ends with an fsync of its own
	"$DB" run --no-db --name=mk --filename="$TMP/fdatasync.dat" --rw=write --size=1m >/dev/null
	"$DB" run --no-db --name=mk --filename="$TMP/both.dat" --rw=write --size=1m >/dev/null
	strace -f -qq -e trace=fsync,fdatasync -o "$TMP/strace2" "$DB" run --no-db \
		"$JOBS/sync-fdatasync.fio" --set filename="$TMP/fdatasync.dat" \
		--output-format=json >"$TMP/fdatasync.json" 2>"$TMP/fdatasync.err"
	check "fdatasync=4 + end_fsync (io_uring QD16): 63 fdatasync and one fsync calls" \
		test "$(grep -c 'fdatasync(' "$TMP/strace2")" -eq 63 -a \
		"$(grep -c -E '(^|[^a-z])fsync\(' "$TMP/strace2")" -eq 1
	OUT=$(cat "$TMP/fdatasync.json")
	check "... the JSON counts the 63 fdatasyncs, not the end_fsync" json '
assert j["jobs"][0]["sync"]["total_ios"] == 63, j["jobs"][0]["sync"]'
	strace -f -qq -e trace=fsync,fdatasync -o "$TMP/strace3" "$DB" run --no-db --name=b \
		--filename="$TMP/both.dat" --rw=write --size=1m --fsync=4 --fdatasync=6 \
		--ioengine=psync >/dev/null 2>&1
	check "fsync=4 and fdatasync=6: fsync on multiples of 4, fdatasync on the other multiples of 6" \
		test "$(grep -c -E '(^|[^a-z])fsync\(' "$TMP/strace3")" -eq 63 -a \
		"$(grep -c 'fdatasync(' "$TMP/strace3")" -eq 21
fi
run_db run --no-db --name=m --filename="$TMP/mixed.dat" --rw=randrw --size=1m \
	--fsync=5 --ioengine=psync --output-format=json
check "randrw with fsync=5: one sync per 5 writes, not one per read after them" json '
job = j["jobs"][0]
assert job["sync"]["total_ios"] == (job["write"]["total_ios"] - 1) // 5, job["sync"]'

run_db run --no-db "$JOBS/sync-fsync.fio" --set filename="$TMP/fsync.dat" \
	--set ioengine=null --set numjobs=2 --set group_reporting=1 --output-format=json
check "group_reporting adds the clones' syncs" json '
s = j["jobs"][0]["sync"]
assert s["total_ios"] == 126 and s["lat_ns"]["N"] == 126, s'

if strace_here "fsync_on_close"; then
	strace -f -qq -e trace=fsync,fdatasync -o "$TMP/strace4" "$DB" run --no-db --name=c \
		--filename="$TMP/both.dat" --rw=write --size=1m --fsync_on_close=1 \
		--output-format=json >"$TMP/close.json" 2>"$TMP/close.err"   # LSan speaks under ptrace
	check "fsync_on_close: one fsync when the writes are done" \
		test "$(grep -c -E '(^|[^a-z])fsync\(' "$TMP/strace4")" -eq 1
	OUT=$(cat "$TMP/close.json")
	check "... not counted in sync" json 'assert j["jobs"][0]["sync"]["total_ios"] == 0'
	strace -f -qq -e trace=fsync,fadvise64 -o "$TMP/strace5" "$DB" run --no-db --name=v \
		--filename="$TMP/both.dat" --rw=write --size=1m --verify=crc32c \
		--output-format=json >"$TMP/verify.json" 2>"$TMP/verify.err"
	check "verify: a sync and a drop of the range before the verify phase (fio's do_verify)" \
		python3 - "$TMP/strace5" <<'PY'
import sys
calls = [l.split(None, 1)[1] for l in open(sys.argv[1]) if "1048576" in l or "fsync(" in l]
assert calls[0].startswith("fadvise64(3, 0, 1048576, POSIX_FADV_DONTNEED)"), calls
assert calls[-2].startswith("fsync(3)"), calls
assert calls[-1].startswith("fadvise64(3, 0, 1048576, POSIX_FADV_DONTNEED)"), calls
PY
	OUT=$(cat "$TMP/verify.json")
	check "... that sync is counted (as fio's)" json 'assert j["jobs"][0]["sync"]["total_ios"] == 1'
fi

# ---- page cache ----------------------------------------------------------

if strace_here "fadvise"; then
	# fadvise64 calls on the job's 64 KiB range (libblkid advises on its own)
	advice() {
		strace -f -qq -e trace=fadvise64 -o "$TMP/fadvise" "$DB" run --no-db --name=a \
			--filename="$TMP/small.dat" --size=64k "$@" >/dev/null 2>&1
		grep -o '65536, POSIX_FADV_[A-Z]*' "$TMP/fadvise" | cut -d' ' -f2 | tr '\n' ' '
	}
	"$DB" run --no-db --name=mk --filename="$TMP/small.dat" --rw=write --size=64k >/dev/null
	check "fadvise_hint=1 (default): FADV_SEQUENTIAL after the drop for a sequential job" \
		test "$(advice --rw=read)" = "POSIX_FADV_DONTNEED POSIX_FADV_SEQUENTIAL "
	check "... FADV_RANDOM for a random one" \
		test "$(advice --rw=randread)" = "POSIX_FADV_DONTNEED POSIX_FADV_RANDOM "
	check "fadvise_hint=0 and invalidate=0: no advice at all" \
		test -z "$(advice --rw=read --fadvise_hint=0 --invalidate=0)"
	check "fadvise_hint=noreuse" \
		test "$(advice --rw=read --fadvise_hint=noreuse)" = "POSIX_FADV_DONTNEED POSIX_FADV_NOREUSE "
	check "buffered, 4 passes over the range: dropped at open and at each of 3 wraps" \
		test "$(advice --rw=read --io_size=256k --fadvise_hint=0)" = \
		"POSIX_FADV_DONTNEED POSIX_FADV_DONTNEED POSIX_FADV_DONTNEED POSIX_FADV_DONTNEED "
	check "... also when a random job's pass ends" \
		test "$(advice --rw=randread --io_size=256k --fadvise_hint=0)" = \
		"POSIX_FADV_DONTNEED POSIX_FADV_DONTNEED POSIX_FADV_DONTNEED POSIX_FADV_DONTNEED "
	check "... not with direct=1 (fio drops at open only)" \
		test "$(advice --rw=read --io_size=256k --fadvise_hint=0 --direct=1)" = \
		"POSIX_FADV_DONTNEED "
	check "... and not with invalidate=0" \
		test -z "$(advice --rw=randread --io_size=256k --fadvise_hint=0 --invalidate=0)"
fi

resident() { fincore -n -b -o RES "$1" 2>/dev/null | tr -d ' '; }
cold="$TMP/cold.dat"
run_db run --no-db --name=mk --filename="$cold" --rw=write --bs=1m --size=8m --end_fsync=1
cat "$cold" >/dev/null
before=$(resident "$cold")
job invalidate "$cold"
after=$(resident "$cold")
check "invalidate=1: the file was in the cache ($before bytes), the job left 16 pages ($after)" \
	test "$before" -eq $((8 << 20)) -a "$after" -le $((16 * 4096)) -a "$after" -gt 0
cat "$cold" >/dev/null
job invalidate "$cold" --set invalidate=0
check "invalidate=0: the file stays in the cache" test "$(resident "$cold")" -eq $((8 << 20))
cat "$cold" >/dev/null
run_db run --no-db --name=d --filename="$cold" --rw=read --size=8m --io_size=64k \
	--direct=1 --ioengine=psync
check "invalidate=1 with direct=1 drops the range too (as fio)" \
	test "$(resident "$cold")" -eq 0

if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1 && command -v strace >/dev/null 2>&1; then
	truncate -s 8m "$TMP/loop.img"
	LOOP=$(losetup -f --show "$TMP/loop.img" 2>/dev/null)
	if [ -n "$LOOP" ]; then
		trap 'losetup -d "$LOOP"; rm -rf "$TMP"' EXIT
		strace -f -qq -e trace=ioctl -o "$TMP/ioctl" "$DB" run --no-db \
			"$JOBS/invalidate.fio" --set filename="$LOOP" >/dev/null 2>&1
		check "invalidate=1 on a block device: BLKFLSBUF, as fio" \
			grep -q "BLKFLSBUF" "$TMP/ioctl"
		strace -f -qq -e trace=ioctl -o "$TMP/ioctl0" "$DB" run --no-db \
			"$JOBS/invalidate.fio" --set filename="$LOOP" --set invalidate=0 >/dev/null 2>&1
		check "invalidate=0 on a block device: no BLKFLSBUF" \
			bash -c "! grep -q BLKFLSBUF '$TMP/ioctl0'"
		# only root may flush a device: for anyone else a warning, as fio
		chmod o+r "$LOOP"
		chmod o+rx "$TMP"
		OUT=$(cd "$TMP" && setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$DB" run --no-db --name=u --filename="$LOOP" --rw=randread \
			--io_size=16k 2>&1)
		RC=$?
		check "invalidate as another user: the job runs (exit $RC)" test "$RC" -eq 0
		expect_output "drivebench: job 'u': cache invalidation of '$LOOP' failed: .*only root may flush a block device" \
			"... with a warning naming the device"
	else
		skip "invalidate on a block device: losetup could not attach a loop device"
	fi
else
	skip "invalidate on a block device: needs root, losetup and strace"
fi
