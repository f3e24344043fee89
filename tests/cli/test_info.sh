#!/bin/bash
# test_info.sh - `drivebench info` from the command line: a regular file, a
# zram device and a loop device (when present / when root), --json with its
# keys and nulls, and the usage and missing-target errors (exit 2).
. "$(dirname "$0")/lib.sh"

KEYS='timestamp_ms path kind kernel_name disk partition filesystem_device
loop_backing_file size_bytes logical_block_size physical_block_size rotational
scheduler nr_requests write_cache model serial firmware vendor nvme notes safety'

# json_check FILE PYTHON-ASSERTIONS: d is the parsed object
json_check() {
	python3 - "$1" "$KEYS" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for k in sys.argv[2].split():
    assert k in d, "missing key " + k
exec(sys.argv[3])
EOF
}

# --- a regular file ------------------------------------------------------
head -c 12345 /dev/zero > "$TMP/file.dat"
expect_exit 0 "info on a regular file" info "$TMP/file.dat"
expect_output "^kind: +file" "file kind"
expect_output "^size: +12345 bytes" "file size"
expect_output "^model: +not available" "a file has no model"
expect_output "^write allowed: +no" "an existing foreign file is not writable"
expect_output "was not created by drivebench" "the refusal names its reason"

run_db info --json "$TMP/file.dat"
check "info --json on a file exits 0" test "$RC" -eq 0
echo "$OUT" > "$TMP/file.json"
check "file json has every key, nulls for device facts" json_check "$TMP/file.json" '
assert d["kind"] == "file" and d["size_bytes"] == 12345
assert d["nvme"] is None and d["serial"] is None and d["rotational"] is None
assert d["safety"]["write_allowed"] is False and d["safety"]["reasons"]
'

# --- zram ------------------------------------------------------------------
if [ -b /dev/zram0 ]; then
	expect_exit 0 "info on /dev/zram0" info /dev/zram0
	expect_output "^kind: +zram" "zram kind"
	expect_output "^serial: +not available" "zram has no serial"
	run_db info /dev/zram0 --json
	echo "$OUT" > "$TMP/zram.json"
	check "zram json" json_check "$TMP/zram.json" '
assert d["kind"] == "zram" and d["kernel_name"] == "zram0"
assert isinstance(d["size_bytes"], int) and d["logical_block_size"] >= 512
assert d["serial"] is None and d["model"] is None and d["nvme"] is None
'
else
	skip "no /dev/zram0"
fi

# --- a loop device ---------------------------------------------------------
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1; then
	head -c $((8 << 20)) /dev/zero > "$TMP/loop.img"
	LOOP=$(losetup -f --show "$TMP/loop.img" 2>/dev/null)
	if [ -n "$LOOP" ]; then
		trap 'losetup -d "$LOOP"; rm -rf "$TMP"' EXIT
		name=${LOOP#/dev/}
		expect_exit 0 "info on a loop device" info "$LOOP"
		expect_output "^kind: +loop" "loop kind"
		expect_output "^kernel name: +$name" "loop kernel name"
		expect_output "^size: +8388608 bytes" "loop size"
		expect_output "^backing file: +$TMP/loop.img" "loop backing file"
		expect_output "^write allowed: +yes" "a clean loop device is writable"
		run_db info --json "$LOOP"
		echo "$OUT" > "$TMP/loop.json"
		check "loop json" json_check "$TMP/loop.json" "
assert d['kind'] == 'loop' and d['kernel_name'] == '$name'
assert d['size_bytes'] == 8 << 20
assert d['loop_backing_file'] == '$TMP/loop.img'
assert d['safety']['device_id'] == '$name'
"
	else
		skip "losetup could not attach a loop device"
	fi
else
	skip "loop device needs root and losetup"
fi

# --- errors ----------------------------------------------------------------
expect_exit 2 "nonexistent target exits 2" info "$TMP/does-not-exist"
expect_output "does-not-exist.*No such file" "the error names the target"
expect_exit 2 "missing target exits 2" info
expect_output "missing TARGET" "missing target is named"
expect_exit 2 "two targets exit 2" info "$TMP/file.dat" "$TMP/file.dat"
expect_exit 2 "unknown option exits 2" info --bogus "$TMP/file.dat"
expect_output "unknown option '--bogus'" "the unknown option is named"
expect_exit 2 "a directory is not a target" info "$TMP"
expect_exit 0 "info --help" info --help
expect_output "usage: drivebench info" "help shows the usage"
