#!/bin/sh
# faults.sh - injected vs detected, per fault kind: runs drivebench jobs on
# the fault engine (ioengine=fault:ENGINE) over a scratch file and prints,
# for each kind, how many faults the engine injected and how many the run
# detected (errors, verify verdicts, delayed completions, recovered short
# transfers). A script, not a test: tests/cli/test_fault.sh and
# test_verify.sh assert the same equalities on small cases.
# Usage: sh bench/faults.sh [DRIVEBENCH] [ENGINE] [SEEDS]
set -e
DB=${1:-build/drivebench}
ENGINE=${2:-io_uring}
SEEDS=${3:-"1 2 3"}
WORK=$(mktemp -d /tmp/drivebench-faults.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
FILE="$WORK/target.dat"

# job NAME ARGS...: one run, fio JSON+ into $WORK/NAME.json (exit 1 is
# expected whenever faults were detected)
job() {
	name=$1; shift
	"$DB" run --no-db --name="$name" --filename="$FILE" --ioengine="fault:$ENGINE" \
		--output-format=json+ "$@" > "$WORK/$name.json" 2>"$WORK/$name.err" || [ $? -eq 1 ] ||
		{ cat "$WORK/$name.err" >&2; exit 1; }
}

for seed in $SEEDS; do
	# EIO on reads and writes, the job keeps going
	job "eio-$seed" --rw=randrw --bs=4k --size=16m --iodepth=16 --fault_seed="$seed" \
		--fault_eio_rate=1 --continue_on_error=all
	# short transfers: resubmitted until the request is whole
	job "short-$seed" --rw=randread --bs=64k --size=16m --iodepth=16 --fault_seed="$seed" \
		--fault_short_rate=5
	# delay spikes of 5 ms in 1% of the I/Os
	job "delay-$seed" --rw=randread --bs=4k --size=8m --iodepth=4 --fault_seed="$seed" \
		--fault_delay=5ms --fault_delay_rate=1
	# dropped writes in a second pass over the region: verify finds the
	# first pass's data there (lost writes)
	job "drop-$seed" --rw=write --bs=4k --size=8m --io_size=16m --verify=crc32c \
		--fault_seed="$seed" --fault_skip=2048 --fault_drop_rate=1 --continue_on_error=verify
	# flipped bits on the way to the device
	job "flipw-$seed" --rw=write --bs=4k --size=8m --verify=crc32c --fault_seed="$seed" \
		--fault_flip_rate=1 --continue_on_error=verify
	# flipped bits on the way back: a clean write with a known seed, then
	# reads through the fault engine
	"$DB" run --no-db --name=fill --filename="$FILE" --rw=write --bs=4k --size=8m \
		--verify=crc32c --verify_seed=77 >/dev/null
	job "flipr-$seed" --rw=randread --bs=4k --size=8m --verify=crc32c --verify_seed=77 \
		--fault_seed="$seed" --fault_flip_rate=1 --fault_dir=read --continue_on_error=verify
done

python3 - "$WORK" "$SEEDS" <<'PY'
import json, sys
work, seeds = sys.argv[1], sys.argv[2].split()

def load(name):
    return json.load(open("%s/%s.json" % (work, name)))["jobs"][0]

def verdicts(j, names):
    v = j["drivebench"].get("verify", {})
    assert v.get("failed", 0) == len(v.get("failures", [])), "more failures than listed"
    return sum(1 for f in v.get("failures", []) if f["verdict"] in names)

rows = []
def row(kind, how, injected, detected, detail):
    rows.append((kind, how, injected, detected, detail))

tot = {}
for s in seeds:
    j = load("eio-" + s)
    inj = j["drivebench"]["faults_injected"]["eio"]
    det = j["drivebench"]["errors"]["read"] + j["drivebench"]["errors"]["write"]
    tot.setdefault("eio", [0, 0, ""])
    tot["eio"][0] += inj; tot["eio"][1] += det
    j = load("short-" + s)
    inj = j["drivebench"]["faults_injected"]["short"]
    whole = j["read"]["io_bytes"] == 16 << 20 and j["read"]["total_ios"] == 256 and j["error"] == 0
    tot.setdefault("short", [0, 0, ""])
    tot["short"][0] += inj; tot["short"][1] += inj if whole else 0
    j = load("delay-" + s)
    inj = j["drivebench"]["faults_injected"]["delay"]
    det = sum(n for b, n in j["read"]["clat_ns"]["bins"].items() if int(b) >= 5000000)
    tot.setdefault("delay", [0, 0, ""])
    tot["delay"][0] += inj; tot["delay"][1] += det
    j = load("drop-" + s)
    tot.setdefault("drop", [0, 0, ""])
    tot["drop"][0] += j["drivebench"]["faults_injected"]["drop"]
    tot["drop"][1] += verdicts(j, ("lost write",))
    j = load("flipw-" + s)
    tot.setdefault("flipw", [0, 0, ""])
    tot["flipw"][0] += j["drivebench"]["faults_injected"]["flip"]
    tot["flipw"][1] += verdicts(j, ("corrupt",))
    j = load("flipr-" + s)
    tot.setdefault("flipr", [0, 0, ""])
    tot["flipr"][0] += j["drivebench"]["faults_injected"]["flip"]
    tot["flipr"][1] += verdicts(j, ("corrupt",))

how = {
    "eio": ("EIO (randrw 4k, continue_on_error=all)", "I/O errors reported (read + write)"),
    "short": ("short transfer (randread 64k)", "recovered: every request whole, 0 errors"),
    "delay": ("5 ms delay (randread 4k)", "completions with clat >= 5 ms"),
    "drop": ("dropped write (2nd pass of seq write)", "verify: lost write"),
    "flipw": ("flipped bit, write", "verify: corrupt"),
    "flipr": ("flipped bit, read", "verify: corrupt"),
}
print("| fault | injected | detected | detected as | match |")
print("|---|---|---|---|---|")
bad = 0
for k in ("eio", "short", "delay", "drop", "flipw", "flipr"):
    inj, det, _ = tot[k]
    ok = inj == det and inj > 0
    bad += not ok
    print("| %s | %d | %d | %s | %s |" % (how[k][0], inj, det, how[k][1], "yes" if ok else "NO"))
print("seeds: %s" % " ".join(seeds))
sys.exit(1 if bad else 0)
PY
