#!/bin/bash
# test_gds.sh - `drivebench gds`: the CPU_ONLY sweep subset on a scratch
# file (every line in gdsio's format, the stored points, the no-GPU
# message), -x 0 refused without the libraries, and with the fake cuFile
# and CUDA libraries (when built) the GPUD lines and the compat-mode flag.
. "$(dirname "$0")/lib.sh"

LINE='^IoType: (READ|WRITE|RANDREAD|RANDWRITE) XferType: (GPUD|CPUONLY|CPU_GPU|GPUD_ASYNC) Threads: [0-9]+ DataSetSize: [0-9]+/[0-9]+\(KiB\) IOSize: [0-9]+\(KiB\) Throughput: [0-9]+\.[0-9]{6} GiB/sec, Avg_Latency: [0-9]+\.[0-9]{6} usecs ops: [0-9]+ total_time [0-9]+\.[0-9]{6} secs$'
FILE="$TMP/gds.dat"
GDB="$TMP/gds.db"

# no GPU path here: the libraries point nowhere
export DRIVEBENCH_CUFILE_LIB="$TMP/none/libcufile.so.0"
export DRIVEBENCH_CUDART_LIB="$TMP/none/libcudart.so.12"

# the sweeps' points run 250 ms each (-T takes drivebench's time units too);
# gdsio's own options below keep gdsio's whole seconds
expect_exit 0 "CPU_ONLY sweep subset runs" gds --db "$GDB" --label cpu --bs 16k,128k --threads 1,4 -T 250ms -s 16m "$FILE"
expect_output 'no GPU path available: .+; running CPU_ONLY' "says no GPU path was available"
lines=$(printf '%s\n' "$OUT" | grep -c .)
good=$(printf '%s\n' "$OUT" | grep -c -E "$LINE")
if [ "$lines" -eq 8 ] && [ "$good" -eq 8 ]; then ok "8 points, every line in gdsio's format"; else
	not_ok "gdsio format ($good of $lines lines match, wanted 8)"; printf '%s\n' "$OUT"; fi
check "first line: READ CPUONLY 1 thread 16 KiB over the 16 MiB data set" \
	grep -q -E '^IoType: READ XferType: CPUONLY Threads: 1 DataSetSize: [0-9]+/16384\(KiB\) IOSize: 16\(KiB\)' <<<"$(printf '%s\n' "$OUT" | head -1)"
check "last line: WRITE 4 threads 128 KiB" \
	grep -q -E '^IoType: WRITE XferType: CPUONLY Threads: 4 .* IOSize: 128\(KiB\)' <<<"$(printf '%s\n' "$OUT" | tail -1)"
stored=$(sqlite3 "$GDB" "SELECT count(*) FROM results r JOIN runs u ON r.run_id = u.id WHERE u.source = 'gds' AND r.iodepth = 1 AND json_extract(r.options_json, '$.gds_xfer') = 'CPUONLY' AND json_extract(r.options_json, '$.gds_mode') = 'host' AND json_extract(r.options_json, '$.gds_no_gpu') != ''")
[ "$stored" = 8 ] && ok "8 points stored with CPUONLY and the no-GPU reason" || not_ok "stored points: $stored"
points=$(sqlite3 "$GDB" "SELECT group_concat(rw || ':' || bs || ':' || numjobs, ' ') FROM (SELECT rw, bs, numjobs FROM results ORDER BY id)")
[ "$points" = "read:16384:1 read:16384:4 read:131072:1 read:131072:4 write:16384:1 write:16384:4 write:131072:1 write:131072:4" ] \
	&& ok "points in sweep order" || not_ok "points: $points"
steps=$(sqlite3 "$GDB" "SELECT count(*) FROM steps WHERE kind = 'gds' AND status = 'done'")
[ "$steps" = 8 ] && ok "one done step per point" || not_ok "steps: $steps"

# gdsio's own options: -I 1 (write), -i, -w
expect_exit 0 "gdsio options -I -i -w" gds --db "$GDB" -I 1 -i 1m -w 2 -T 1 -s 16m -f "$FILE"
check "-I 1 -i 1m -w 2 gives one WRITE line" \
	grep -q -E '^IoType: WRITE XferType: CPUONLY Threads: 2 DataSetSize: [0-9]+/16384\(KiB\) IOSize: 1024\(KiB\)' <<<"$OUT"
# -D: a file per thread; the data set is threads x -s
expect_exit 0 "-D runs a file per thread" gds --db "$GDB" -D "$TMP" -s 4m -w 3 -i 128k -I 0 -T 1
check "-D data set is 3 x 4 MiB" grep -q 'Threads: 3 DataSetSize: [0-9]*/12288(KiB)' <<<"$OUT"
check "-D made gdsio.N.0 files" test -f "$TMP/gdsio.2.0"

# errors
expect_exit 2 "-x 0 without the libraries is refused" gds --db "$GDB" -x 0 -w 1 -T 1 -s 16m "$FILE"
expect_output '-x 0 \(GPUD\) needs cuFile and a GPU: .+' "says why -x 0 cannot run"
expect_exit 2 "-x 3 is not a gdsio type drivebench supports" gds --db "$GDB" -x 3 "$FILE"
expect_exit 2 "-I 4 is refused" gds --db "$GDB" -I 4 "$FILE"
expect_exit 2 "no target" gds --db "$GDB" -T 1
expect_exit 2 "-D without -s" gds --db "$GDB" -D "$TMP"
expect_exit 2 "a point that does not fit the file" gds --db "$GDB" -s 1m -i 1m -w 4 "$FILE"
expect_output 'no 1048576-byte block per thread for 4 threads' "names the point that does not fit"
expect_exit 2 "unknown option" gds --db "$GDB" --frobnicate "$FILE"

# the fake cuFile + CUDA libraries, when the build has them
FAKE=$(dirname "$DB")/tests/fake
if [ -f "$FAKE/libcufile.so.0" ] && [ -f "$FAKE/libcudart.so.12" ]; then
	export DRIVEBENCH_CUFILE_LIB="$FAKE/libcufile.so.0" DRIVEBENCH_CUDART_LIB="$FAKE/libcudart.so.12"
	expect_exit 0 "-x 0 runs on the fake libraries" gds --db "$GDB" --label fake -x 0 --bs 16k --threads 1,2 --rw read,write -T 250ms -s 16m "$FILE"
	good=$(printf '%s\n' "$OUT" | grep -c -E "$LINE")
	gpud=$(printf '%s\n' "$OUT" | grep -c 'XferType: GPUD Threads')
	[ "$good" -eq 4 ] && [ "$gpud" -eq 4 ] && ok "4 GPUD lines in gdsio's format" || not_ok "GPUD lines: $good / $gpud"
	modes=$(sqlite3 "$GDB" "SELECT group_concat(DISTINCT json_extract(r.options_json, '$.gds_mode')) FROM results r JOIN runs u ON r.run_id = u.id WHERE u.label = 'fake'")
	case "$modes" in gds|compat) ok "stored the cuFile mode ($modes)" ;; *) not_ok "stored mode: '$modes'" ;; esac
fi
