#!/bin/bash
# test_fault.sh - the fault engine (ioengine=fault:<engine>) and
# continue_on_error from the command line: every bad fault option is exit 2
# naming it, and one end-to-end run per fault kind whose JSON figures (and,
# for dropped and flipped writes, the file itself) are checked.
. "$(dirname "$0")/lib.sh"

# --- bad input: exit 2, the message names the option ---------------------
bad() { # OPTION=VALUE [ENGINE]: exit 2 and the option's name in the message
	opt=${1%%=*}
	expect_exit 2 "$1 is refused" run --no-db --name=b --ioengine="${2:-fault:null}" \
		--rw=read --bs=4k --size=64k "--$1"
	expect_output "$opt" "the error for $1 names $opt"
}
bad fault_eio_rate=150
bad fault_eio_rate=abc
bad fault_short_rate=-1
bad fault_drop_offsets=4k::8k
bad fault_flip_offsets=12q
bad fault_delay=0
bad fault_delay=soon
bad fault_dir=sideways
bad fault_skip=-2
bad fault_seed=x
bad continue_on_error=sometimes
bad fault_eio_rate=1 null
expect_output "needs ioengine=fault:<engine>" "fault options without the fault engine are refused"
bad fault_delay_offsets=4k psync

expect_exit 2 "an unknown inner engine is refused" \
	run --no-db --name=b --ioengine=fault:bogus --rw=read --bs=4k --size=64k
expect_output "unknown ioengine 'bogus' in 'fault:bogus'" "the unknown inner engine is named"
expect_exit 2 "fault: without an inner engine is refused" \
	run --no-db --name=b --ioengine=fault: --rw=read --bs=4k --size=64k
expect_output "names no engine" "the missing inner engine is explained"

# json_check WHAT PYTHON: runs PYTHON with the job's JSON object as j
json_check() {
	echo "$OUT" > "$TMP/out.json"
	check "$1" python3 -c "
import json, sys
j = json.load(open('$TMP/out.json'))['jobs'][0]
f = j['drivebench']['faults_injected']
e = j['drivebench']['errors']
$2"
}

# --- EIO with continue_on_error: every injected error reported -----------
expect_exit 1 "EIO with continue_on_error=all runs on and exits 1" \
	run --no-db --name=e --ioengine=fault:null --rw=randrw --bs=4k --size=2m \
	--iodepth=4 --fault_eio_rate=5 --continue_on_error=all --output-format=json
json_check "errors per direction add up to the injected EIOs" "
assert f['eio'] > 0, f
assert e['read'] + e['write'] == f['eio'] == j['total_err'], (e, f)
assert j['first_error'] == 5 and j['error'] == 5
assert j['read']['total_ios'] + j['write']['total_ios'] + f['eio'] == 512
assert j['read']['io_bytes'] == j['read']['total_ios'] * 4096"

expect_exit 1 "summary of a continue_on_error run" \
	run --no-db --name=e --ioengine=fault:null --rw=read --bs=4k --size=256k \
	--fault_eio_offsets=8k:100k --continue_on_error=read
expect_output "errors    : total=2, first_error=5/<Input/output error>" "fio's errors line"
expect_output "errors: 2, first: Input/output error \(errno 5\) at offset 8192" \
	"per-direction errors with the first offset"
expect_output "faults injected: eio=2, short=0, delay=0, drop=0, flip=0" "injected faults line"
expect_exit 1 "the same run stored" \
	run --db "$TMP/f.db" --name=e --ioengine=fault:null --rw=read --bs=4k --size=256k \
	--fault_eio_offsets=8k:100k --continue_on_error=read
expect_exit 0 "its export" export --db "$TMP/f.db" --format json 1
check "stored and exported: errors, first errno and its offset" python3 -c "
import json, sys
r = json.loads(sys.argv[1])[0]['results'][0]['read']
assert (r['errors'], r['first_error'], r['first_error_offset']) == (2, 5, 8192), r
" "$OUT"

# --- EIO without continue_on_error: the job stops --------------------------
expect_exit 1 "EIO without continue_on_error stops the job" \
	run --no-db --name=n --ioengine=fault:null --rw=read --bs=4k --size=1m \
	--fault_eio_offsets=40k --output-format=json
json_check "stopped at the first error, fio's keys absent" "
assert j['read']['total_ios'] == 10, j['read']['total_ios']
assert e['read'] == 1 and j['error'] == 5
assert j['drivebench']['first_error']['read']['offset'] == 40960
assert 'total_err' not in j"

# --- every continue_on_error value against read and write errors ----------
# 64 sequential 4k I/Os with EIO at the 11th and 41st: a covered direction
# counts both and completes the other 62; an uncovered one stops at the first
for setting in none:- 0:- read:read write:write io:read,write verify:- all:read,write 1:read,write; do
	value=${setting%%:*}
	covered=${setting#*:}
	for dir in read write; do
		case ",$covered," in *",$dir,"*) want="2 62" ;; *) want="1 10" ;; esac
		expect_exit 1 "continue_on_error=$value, $dir errors: exit 1" \
			run --no-db --name=c --ioengine=fault:null --rw=$dir --bs=4k --size=256k \
			--fault_eio_offsets=40k:160k --continue_on_error=$value --output-format=json
		json_check "continue_on_error=$value, $dir errors: errors and done I/Os are $want" "
assert (e['$dir'], j['$dir']['total_ios']) == tuple(int(x) for x in '$want'.split()), (e, j['$dir']['total_ios'])
assert f['eio'] == e['$dir'] and j['error'] == 5"
	done
done

# --- short transfers: completed by resubmitting the rest -----------------
expect_exit 0 "short transfers complete" \
	run --no-db --name=s --ioengine=fault:null --rw=write --bs=4k --size=128k \
	--fault_short_rate=100 --output-format=json
json_check "every request done whole, three shorts each" "
assert j['write']['total_ios'] == 32 and j['write']['io_bytes'] == 131072
assert f['short'] == 96 and e['write'] == 0 and j['error'] == 0, f"

# --- delays: show in clat -------------------------------------------------
expect_exit 0 "delays run" \
	run --no-db --name=d --ioengine=fault:null --rw=read --bs=4k --size=256k \
	--fault_delay_offsets=16k:200k --fault_delay=20ms --output-format=json
json_check "two delays, clat max above the delay" "
assert f['delay'] == 2, f
assert j['read']['clat_ns']['max'] >= 20e6, j['read']['clat_ns']['max']
assert j['read']['total_ios'] == 64"

# --- dropped and flipped writes: the file tells ------------------------------
FILE="$TMP/target.dat"
dd if=/dev/zero of="$FILE" bs=4k count=64 status=none
expect_exit 0 "dropped writes report success" \
	run --no-db --destroy-data="$FILE" --filename="$FILE" --name=w \
	--ioengine=fault:psync --rw=write --bs=4k --size=256k \
	--fault_drop_offsets=64k:132k --output-format=json
json_check "two writes dropped, all counted done" "
assert f['drop'] == 2 and j['write']['total_ios'] == 64 and j['error'] == 0, f"
check "dropped blocks never reached the file" python3 -c "
d = open('$FILE', 'rb').read()
blocks = [d[i * 4096:(i + 1) * 4096] for i in range(64)]
assert [b for b in range(64) if not any(blocks[b])] == [16, 33]"

expect_exit 0 "flipped writes report success" \
	run --no-db --destroy-data="$FILE" --filename="$FILE" --name=f \
	--ioengine=fault:psync --rw=write --bs=4k --size=256k --iodepth=1 \
	--scramble_buffers=0 --fault_flip_offsets=8k --output-format=json
json_check "one write flipped" "assert f['flip'] == 1 and j['error'] == 0, f"
# iodepth=1 and scramble_buffers=0: every block is written from the same,
# unchanged buffer, so all but the flipped one are equal
check "the flipped block differs by one bit past its first 64 bytes" python3 -c "
d = open('$FILE', 'rb').read()
blocks = [d[i * 4096:(i + 1) * 4096] for i in range(64)]
assert all(b == blocks[0] for i, b in enumerate(blocks) if i != 2)
diff = [(k, blocks[2][k] ^ blocks[0][k]) for k in range(4096) if blocks[2][k] != blocks[0][k]]
assert len(diff) == 1 and diff[0][0] >= 64 and bin(diff[0][1]).count('1') == 1, diff"

expect_exit 0 "flipped reads" \
	run --no-db --filename="$FILE" --name=r --ioengine=fault:psync --rw=read \
	--bs=4k --size=256k --fault_flip_rate=50 --fault_seed=3 --output-format=json
json_check "about half the reads flipped" "assert 16 <= f['flip'] <= 48, f"
