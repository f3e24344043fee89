#!/bin/bash
# test_bounds.sh - bad input meets a clear error and its exit code, never a
# crash, a hang or unbounded growth (issue 12, items 11 and 12): option
# ranges, readers that cannot run out of memory quietly, stop signals
# honoured within a second whatever the loop is doing, run memory checked
# up front, and the messages themselves (no context named twice, verify
# failures called so, small sizes in units that make sense).
. "$(dirname "$0")/lib.sh"

# limited MB CMD...: runs drivebench CMD under ulimit -v MB (in a subshell);
# output in $TMP/o and $TMP/e, exit code in $rc. AddressSanitizer reserves
# terabytes of address space and cannot start under a limit: under
# `make asan` the command runs unlimited (the same checks still apply).
limited() {
	mb=$1; shift
	if [ "$ASAN_BUILD" = 1 ]; then
		"$DB" "$@" >"$TMP/o" 2>"$TMP/e"
	else
		(ulimit -v $((mb * 1024)); exec "$DB" "$@") >"$TMP/o" 2>"$TMP/e"
	fi
	rc=$?
}

# no_doubled_context: no "X: X: " in the last output (a context named twice)
no_doubled_context() {
	! printf '%s\n%s\n' "$OUT" "$ERR" | grep -q -P "(^|: )([^:\n]+: )\2"
}

# --- messages name each context once ------------------------------------------
: > "$TMP/empty.dat"
expect_exit 2 "size 0 on an empty file is bad input" run --no-db --name=j \
	--filename="$TMP/empty.dat" --rw=read
expect_output "^drivebench run: job 'j': size 0: offset 0 is at or beyond the end" \
	"the size-0 error names the job"
check "the size-0 error names the job once" no_doubled_context
expect_exit 2 "size 0 on a missing file is bad input" run --no-db --name=j \
	--filename="$TMP/missing.dat" --rw=read
check "the missing-file error names the job once" no_doubled_context
expect_exit 2 "verify of an empty file is bad input" verify --no-db --seed 1 --name=j \
	--filename="$TMP/empty.dat"
check "verify's size-0 error names the job once" no_doubled_context
cat > "$TMP/size0.fio" <<'F'
[j]
filename=${EMPTY}
rw=read
F
EMPTY="$TMP/empty.dat" expect_exit 2 "size 0 from a job file is bad input" run --no-db "$TMP/size0.fio"
check "the job file's size-0 error names the job once" no_doubled_context
expect_exit 2 "a read-only verify job without a seed is bad input" run --no-db --name=j \
	--ioengine=null --rw=read --verify=crc32c --size=1m
check "the verify_seed error names the job once" no_doubled_context

# --- a verify failure is called one ------------------------------------------------
A="$TMP/a.dat"
job="--name=w --rw=write --bs=4k --size=64k --verify=crc32c"
expect_exit 0 "a verified write" run --no-db $job --filename="$A" --verify_seed=11
expect_exit 1 "a verify with the wrong seed fails" verify --no-db --seed 12 $job \
	--filename="$A" --iodepth=1
expect_output "err=84 \(verify failed\)" "the summary says verify failed"
check "EILSEQ's text is never shown" test -z "$(printf '%s\n%s' "$OUT" "$ERR" | grep -i multibyte)"
run_db verify --no-db --seed 12 $job --filename="$A" --iodepth=1 --output-format=json
check "the JSON error text says verify failed too" test -z "$(printf '%s\n%s' "$OUT" "$ERR" | grep -i multibyte)"

# --- small sizes in units that make sense -------------------------------------------
expect_exit 2 "--max-buffer-mem=1 refuses the run" run --no-db --name=j \
	--ioengine=null --size=1m --max-buffer-mem=1
expect_output "series and histograms need [0-9]+\.[0-9]{2} KiB, over the limit of 1 byte \(--max-buffer-mem\)" \
	"the refusal gives KiB over 1 byte, not 0.00 MiB over 0.00 MiB"
expect_exit 2 "--max-buffer-mem=2m refuses 4 MiB of buffers" run --no-db --name=j \
	--ioengine=null --size=16m --bs=1m --iodepth=4 --max-buffer-mem=2m
expect_output "I/O buffers need 1 jobs x iodepth 4 x 1048576 bytes = 4.00 MiB, plus [0-9]+\.[0-9]{2} KiB of the run's series and histograms, over the limit of 2.00 MiB" \
	"the buffer refusal adds the run's results to the arithmetic"
expect_exit 0 "--max-buffer-mem=5m fits both" run --no-db --name=j --ioengine=null \
	--size=16m --bs=1m --iodepth=4 --max-buffer-mem=5m

# --- series and histograms: bounded, and checked up front with the arithmetic ---------------
expect_exit 2 "a 1 h job sampled every 1 ms is refused over a 100 MiB limit" run --no-db \
	--name=j --ioengine=null --size=1m --runtime=1h --time_based --series_interval=1ms \
	--max-buffer-mem=100m
expect_output "job 'j': the run's series and histograms need 274\.[0-9]{2} MiB, over the limit of 100.00 MiB \(--max-buffer-mem\): 1 clone x \(3600002 samples \(runtime 1h / series_interval 1ms \+ 2\) x 80 bytes = 274.66 MiB" \
	"the refusal gives the samples' arithmetic"
t0=$(date +%s%N)
limited 400 run --no-db --name=j --ioengine=null --size=1m --runtime=365d \
	--time_based --series_interval=1ms --numjobs=2
took=$((($(date +%s%N) - t0) / 1000000))
check "a year at 1 ms x 2 clones under a memory limit exits 2 at once (exit $rc, $took ms)" \
	test "$rc" -eq 2 -a "$took" -lt 2000
check "the refusal is the arithmetic, not an allocation failure" \
	grep -q "x (268435456 samples (runtime 365d / series_interval 1ms + 2, at most 2^28) x 80 bytes = 20.00 GiB" "$TMP/e"
rm -f "$TMP/co.dat"
run_db run --no-db --name=c --ioengine=fault:psync --filename="$TMP/co.dat" --rw=write --bs=4k \
	--size=4m --verify=crc32c --runtime=20ms --time_based --series_interval=1ms \
	--fault_dir=read --fault_delay_rate=100 --fault_delay=5ms --output-format=json
echo "$OUT" > "$TMP/co.json"
check "a series that outgrows its room (a verify after the writes) coarsens, losing nothing" \
	python3 - "$TMP/co.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
x = j["drivebench"]
assert x["series_interval_ms"] >= 2, x["series_interval_ms"]
assert len(x["series"]) <= 22, len(x["series"])          # runtime / interval + 2
got = sum(p["read"]["ios"] + p["write"]["ios"] for p in x["series"])
assert got == j["read"]["total_ios"] + j["write"]["total_ios"], got
PY

# --- options have ranges ---------------------------------------------------------------
expect_exit 2 "series_interval=1ns is refused up front" run --no-db --name=j --ioengine=null \
	--size=1m --runtime=1 --time_based --series_interval=1ns
expect_output "option 'series_interval': 1ns is too small, the range is 1ms..1d" \
	"the refusal names the option and its range"
printf '[j]\nioengine=null\nbs=5g\n' > "$TMP/bs.fio"
expect_exit 2 "bs=5g in a job file is refused" run --no-db "$TMP/bs.fio"
expect_output "bs.fio:3: option 'bs': 5g is too large, the range is 1 byte..4 GiB" \
	"the refusal names file, line, option and range"

# --- readers: no line, file or allocation is taken for the end of the input ------------
printf '[j]\nioengine=null\nsize=1m\ninclude /dev/zero\n' > "$TMP/zero.fio"
run_db run --no-db "$TMP/zero.fio"
check "include /dev/zero is bad input (exit 2, not $RC)" test "$RC" -eq 2
# a device is never read as a file (issue 28.2: only regular files)
expect_output "cannot read included file '/dev/zero': it is a character device, not a regular file" "the error names the included file"
limited 300 run --no-db "$TMP/zero.fio"
check "include /dev/zero under a memory limit exits 2, never 0 (exit $rc)" test "$rc" -eq 2
check "under the limit the error names the file" grep -q "included file '/dev/zero': it is a character device" "$TMP/e"
check "under the limit nothing ran" test ! -s "$TMP/o"
head -c 5000000 /dev/zero | tr '\0' 'a' > "$TMP/long.fio"
limited 300 run --no-db "$TMP/long.fio"
check "a 5 MB line under a memory limit exits 2 (exit $rc)" test "$rc" -eq 2
check "the error names the file, line and limit" grep -q "long.fio:1: line longer than 65536 bytes" "$TMP/e"
yes 'bs=4k' | head -c 1000000 > "$TMP/part.inc"
{ printf '[j]\nioengine=null\nsize=1m\n'; for i in 1 2 3 4 5 6; do echo "include part.inc"; done; } > "$TMP/many.fio"
expect_exit 2 "includes repeated past 4 MiB are refused" run --no-db "$TMP/many.fio"
expect_output "part.inc:[0-9]+: the job file and its includes hold more than 4 MiB" \
	"the error names the include where the budget ran out"
printf '[suite]\nname=z\n' > "$TMP/zero.suite"
cat /dev/zero | head -c 100 >> "$TMP/zero.suite"
expect_exit 2 "a suite file with NUL bytes is bad input" plan --suite "$TMP/zero.suite" \
	--capacity 1g --rated-write 100 --rated-read 100
expect_output "zero.suite:3: binary data in suite file" "the error names the suite file and line"
printf '[j]\nioengine=null\nsize=1m\nbssplit_file=/dev/zero\n' > "$TMP/bz.fio"
expect_exit 2 "bssplit_file=/dev/zero is bad input" run --no-db "$TMP/bz.fio"
expect_output "cannot read bssplit file '/dev/zero': it is a character device, not a regular file" "the error names the bssplit file"

# --- a byte-order mark is not part of a job or suite file --------------------------------
printf '\xef\xbb\xbf[j]\nioengine=null\nsize=1m\n' > "$TMP/bom.fio"
expect_exit 0 "a job file starting with a UTF-8 BOM runs" run --no-db "$TMP/bom.fio"
expect_output "^j: \(groupid=0" "the BOM is not part of the section header"
printf '\xef\xbb\xbf[suite]\nname = bom\n[m]\nstep = measure\nioengine = null\nsize = 1m\n' > "$TMP/bom.suite"
expect_exit 0 "a suite file starting with a UTF-8 BOM is read" plan --suite "$TMP/bom.suite" \
	--capacity 1g --rated-write 100 --rated-read 100
expect_output "suite bom " "the BOM is not part of the first section"

# --- fio JSON import: null where an object belongs, NUL bytes ---------------------------
SRC="$(dirname "$0")/../data/fio-3.33-randrw.json"
python3 - "$SRC" "$TMP" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["jobs"][0]["read"] = None
json.dump(d, open(sys.argv[2] + "/read-null.json", "w"))
t = open(sys.argv[1], "rb").read()
i = t.index(b'"write"')
open(sys.argv[2] + "/nul.json", "wb").write(t[:i] + b"\0" + t[i:])
PY
expect_exit 2 '"read": null is bad input' import --db "$TMP/imp.db" --label x "$TMP/read-null.json"
expect_output "read-null.json: jobs\[0\] \('[^']*'\): read is null, not an object; nothing imported" \
	"the error names the file, the job and the field"
expect_exit 2 "a NUL byte in fio JSON is bad input" import --db "$TMP/imp.db" --label x "$TMP/nul.json"
expect_output "nul.json: a NUL byte at line [0-9]+, column [0-9]+: binary data, not fio JSON" \
	"the error names the file and where the NUL is"
limited 300 import --db "$TMP/imp.db" --label x /dev/zero
check "importing /dev/zero under a memory limit exits 2 (exit $rc)" test "$rc" -eq 2
check "the error says it is no file" grep -q "/dev/zero.*it is a character device, not a regular file" "$TMP/e"
nothing_imported() {
	[ ! -s "$TMP/imp.db" ] || sql "$TMP/imp.db" 'assert c.execute("select count(*) from runs").fetchone()[0] == 0'
}
check "nothing was imported" nothing_imported
printf '[drive]\nmodel=x\0\n' > "$TMP/nul.ini"
expect_exit 2 "a spec sheet with a NUL byte is bad input" import --db "$TMP/imp.db" --label x \
	--spec "$TMP/nul.ini" "$SRC"
expect_output "nul.ini: .*NUL byte" "the error names the spec sheet"

# --- suite files: step parameters have ranges; a step names its own file: refused --------
plan() { run_db plan --suite "$1" --capacity 1g --rated-write 100 --rated-read 100; }
printf '[suite]\nname=w\n[st]\nstep=steady\ntime_based\nruntime=1\nwindow=4294967296\n' > "$TMP/w.suite"
plan "$TMP/w.suite"
check "window=4294967296 is bad input (exit $RC)" test "$RC" -eq 2
expect_output "w.suite:7: key 'window': 4294967296 is too large, the range is 2..10000" \
	"window=4294967296 is too large, not 'not a whole number'"
printf '[suite]\nname=c\n[cp]\nstep=checkpoint\npasses=1\n' > "$TMP/cp.suite"
expect_exit 2 "a checkpoint step without model or checkpoint_size is refused by suite" \
	suite --suite "$TMP/cp.suite" --db "$TMP/suite.db" "$TMP/cp.dat"
expect_output "cp.suite:3: step \[cp\]: a checkpoint step needs model = NAME or checkpoint_size = SIZE" \
	"the refusal names the file, the step's line and the step"
check "nothing was written for it" test ! -e "$TMP/cp.dat"
plan "$TMP/cp.suite"
check "plan refuses it too (exit $RC)" test "$RC" -eq 2
printf '[suite]\nname=f\n[m]\nstep=measure\nioengine=null\nsize=1m\nfilename=%s\n' "$TMP/other.dat" > "$TMP/f.suite"
expect_exit 2 "a step's own filename= is refused, not replaced" suite --suite "$TMP/f.suite" \
	--db "$TMP/suite.db" "$TMP/target.dat"
expect_output "f.suite:7: key 'filename': a suite runs every step on its target" \
	"the refusal names the key and says where the target comes from"
check "neither file was touched" test ! -e "$TMP/other.dat" -a ! -e "$TMP/target.dat"

# --- plan inputs: absurd rates and capacities are refused with the range ----------------
for rate in 1e-300 0 -1 inf 1e300; do
	expect_exit 2 "plan --rated-write $rate is bad input" plan --capacity 1g \
		--rated-write "$rate" --rated-read 100
	expect_output "^drivebench plan: --rated-write: $rate MB/s is too (small|large), the range is 0.01..1000000 MB/s$" \
		"--rated-write $rate: the error gives the range"
done
expect_exit 2 "plan --rated-read nan is bad input" plan --capacity 1g --rated-write 100 --rated-read nan
expect_output "bad throughput 'nan' \(a number of MB/s, the range is 0.01..1000000\)" "nan: the error gives the range"
expect_exit 2 "plan --capacity 1e30 is bad input" plan --capacity 1e30 --rated-write 100 --rated-read 100
expect_output "--capacity: 1e30 is too large, the range is 1MB..1000PB" "the capacity's range"
expect_exit 0 "the ends of the ranges still plan" plan --capacity 1000PB --rated-write 0.01 --rated-read 0.01
check "with finite durations" test -z "$(printf '%s' "$OUT" | grep -E 'inf|nan|[0-9]{25}')"

# --- a modelled latency is real time; a stop is honoured within a second -----------------
ms_now() { echo $(($(date +%s%N) / 1000000)); }
t0=$(ms_now)
run_db run --no-db --name=j --ioengine=null --size=1m --runtime=1 --time_based \
	--null_latency=1d --output-format=json
took=$(($(ms_now) - t0))
echo "# null_latency=1d in a 1 s job: exit $RC after $took ms"
check "null_latency=1d in a 1 s job exits 0" test "$RC" -eq 0
check "it stops at its runtime ($took ms)" test "$took" -lt 2000
echo "$OUT" > "$TMP/lat.json"
check "an I/O that outlasts the run is not done: 0 IOPS, not millions" python3 - "$TMP/lat.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
assert j["read"]["total_ios"] == 0 and j["read"]["iops"] == 0, j["read"]
assert 900 <= j["job_runtime"] <= 1500, j["job_runtime"]
PY
run_db run --no-db --name=j --ioengine=null --size=1m --runtime=1 --time_based --null_latency=1d
expect_output "read: 0.00 B/s \(0.00 B/s\), IOPS 0.0, 0.00 B in 1\.[0-9]+ s" \
	"the summary shows the truthful zeros, not an empty job"
run_db run --no-db --name=j --ioengine=null --size=64m --iodepth=8 --null_latency=1ms \
	--runtime=1 --time_based --output-format=json
echo "$OUT" > "$TMP/lat1ms.json"
check "null_latency=1ms at QD8 is bounded by Little's law (<= 8000 IOPS)" python3 - "$TMP/lat1ms.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["read"]
assert 4000 < r["iops"] <= 8000 * 1.01, r["iops"]
assert r["clat_ns"]["min"] >= 1000000, r["clat_ns"]
PY

# stop_within_second WHAT ARGS...: SIGTERM after 0.5 s; exit 1 (partial) within 1 s
stop_within_second() {
	what=$1; shift
	"$DB" "$@" >"$TMP/stop.out" 2>"$TMP/stop.err" &
	pid=$!
	sleep 0.5
	t0=$(ms_now)
	kill -TERM $pid
	wait $pid
	rc=$?
	took=$(($(ms_now) - t0))
	echo "# $what: SIGTERM honoured after $took ms, exit $rc"
	check "$what: SIGTERM exits 1 (exit $rc)" test "$rc" -eq 1
	check "$what: within a second ($took ms)" test "$took" -lt 1000
	check "$what: the results so far are marked partial" grep -q "partial" "$TMP/stop.out"
}
stop_within_second "null_latency=1d" run --no-db --name=j --ioengine=null --size=1m --null_latency=1d
stop_within_second "null_latency=1d at QD64 x 4 jobs, in a ramp" run --no-db --name=j \
	--ioengine=null --size=1m --null_latency=1d --iodepth=64 --numjobs=4 \
	--ramp_time=1h --runtime=1h --time_based
stop_within_second "fault_delay=1d" run --no-db --name=j --ioengine=fault:null --size=1m \
	--fault_delay_rate=100 --fault_delay=1d
stop_within_second "fault_delay=1d on writes with verify" run --no-db --name=j \
	--ioengine=fault:psync --filename="$TMP/fd.dat" --rw=write --size=1m --verify=crc32c \
	--fault_delay_rate=100 --fault_delay=1d
stop_within_second "series sampling at 1 ms" run --no-db --name=j --ioengine=null --size=1m \
	--series_interval=1ms --runtime=1h --time_based
stop_within_second "the verify phase, its reads held a day" run --no-db --name=j \
	--ioengine=fault:psync --filename="$TMP/fv.dat" --rw=write --size=4m --verify=crc32c \
	--fault_dir=read --fault_delay_rate=100 --fault_delay=1d
