#!/bin/bash
# test_bounds.sh - bad input meets a clear error and its exit code, never a
# crash, a hang or unbounded growth (issue 12, items 11 and 12): option
# ranges, readers that cannot run out of memory quietly, stop signals
# honoured within a second whatever the loop is doing, run memory checked
# up front, and the messages themselves (no context named twice, verify
# failures called so, small sizes in units that make sense).
. "$(dirname "$0")/lib.sh"

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
expect_exit 2 "--max-buffer-mem=1 refuses a 4 KiB buffer" run --no-db --name=j \
	--ioengine=null --size=1m --max-buffer-mem=1
expect_output "= 4.00 KiB, over the limit of 1 byte \(--max-buffer-mem\)" \
	"the refusal gives 4.00 KiB over 1 byte, not 0.00 MiB over 0.00 MiB"
