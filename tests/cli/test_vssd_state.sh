#!/bin/bash
# test_vssd_state.sh - vssd_state=FILE (issue 29.9): a modelled drive's FTL
# saved at the end of each job and loaded by the next process, so a fill
# in one `run` is the drive a second `run` tests; a file of another model
# or scale, a file that is not one, a truncated one and a job that names
# another state file for this process's drive are refused by name.
. "$(dirname "$0")/lib.sh"

m="$(pwd)/tests/data/models/test-tlc.ini"
v="run --no-db --ioengine=vssd --vssd_model=$m --vssd_scale=512m --output-format=terse"
clat() { printf '%s\n' "$OUT" | awk -F';' '$3 == "r" { print int($16) }'; }
rr="--name=r --rw=randread --bs=4k --iodepth=1 --runtime=1 --time_based"

expect_exit 0 "a fill with vssd_state= runs" $v --name=f --rw=write --bs=128k --iodepth=16 \
	--vssd_state="$TMP/d.state"
check "... and saves the drive" [ -s "$TMP/d.state" ]
expect_exit 0 "a second process loads it" $v $rr --vssd_state="$TMP/d.state"
check "... and its reads meet mapped IUs (clat $(clat) us: a NAND read)" [ "$(clat)" -ge 40 ]
expect_exit 0 "without the state file the drive is fresh" $v $rr
check "... and its reads touch no NAND (clat $(clat) us)" [ "$(clat)" -lt 20 ]
expect_exit 2 "a state file of another scale is refused" run --no-db --ioengine=vssd \
	--vssd_model="$m" --vssd_scale=1g $rr --vssd_state="$TMP/d.state"
expect_output "the file is of another drive \(model=test TLC model" "... naming both drives"
expect_output "not of test TLC model at scale 1g" "... and the scale asked"
printf 'junk\n' >"$TMP/junk.state"
expect_exit 2 "a file that is not a state file is refused" $v $rr --vssd_state="$TMP/junk.state"
expect_output "not a drivebench vssd state file" "... saying so"
head -c 100000 "$TMP/d.state" >"$TMP/short.state"
expect_exit 2 "a truncated state file is refused" $v $rr --vssd_state="$TMP/short.state"
expect_output "the file is truncated" "... saying so"
cat >"$TMP/two.fio" <<JOB
[global]
ioengine=vssd
vssd_model=$m
vssd_scale=512m
rw=read
bs=128k
size=1m
[a]
vssd_state=$TMP/a.state
[b]
stonewall
vssd_state=$TMP/b.state
JOB
expect_exit 2 "two state files for one drive in one process are refused" run --no-db "$TMP/two.fio"
expect_output "already has the state file .*a.state" "... naming the one it has"
expect_exit 0 "a state file that cannot be written (no such folder): the run completes" $v \
	--name=f --rw=write --bs=128k --size=1m --vssd_state="$TMP/nodir/x.state"
expect_output "cannot write .*nodir/x.state.tmp" "... and says the drive was not saved"
# the save's temporary file: one an earlier save left (killed before its
# rename) is replaced; anything else there is refused, never truncated (a
# hard link there once cut the disk image it shared to the state's size)
head -c 1048576 /dev/urandom >"$TMP/image.img"
sum_before=$(sha256sum <"$TMP/image.img")
ln "$TMP/image.img" "$TMP/hl.state.tmp"
expect_exit 0 "a hard link at the state's .tmp name: the run completes" $v \
	--name=f --rw=write --bs=128k --size=1m --vssd_state="$TMP/hl.state"
expect_output "hl.state.tmp' is in the way, a file with other links" "... and says the drive was not saved, and why"
check "... the linked image is untouched" [ "$(sha256sum <"$TMP/image.img")" = "$sum_before" ]
check "... and no state file was made" [ ! -e "$TMP/hl.state" ]
printf 'my notes\n' >"$TMP/fo.state.tmp"
expect_exit 0 "a foreign file at the .tmp name: the run completes" $v \
	--name=f --rw=write --bs=128k --size=1m --vssd_state="$TMP/fo.state"
expect_output "fo.state.tmp' is in the way, a file without the state header" "... naming it"
check "... and it is untouched" [ "$(cat "$TMP/fo.state.tmp")" = "my notes" ]
ln -s "$TMP/image.img" "$TMP/sl.state.tmp"
expect_exit 0 "a symbolic link at the .tmp name: the run completes" $v \
	--name=f --rw=write --bs=128k --size=1m --vssd_state="$TMP/sl.state"
expect_output "sl.state.tmp' is in the way, a symbolic link" "... naming it"
check "... the image it names is untouched" [ "$(sha256sum <"$TMP/image.img")" = "$sum_before" ]
cp "$TMP/d.state" "$TMP/lo.state.tmp"
expect_exit 0 "a state file an earlier save left at the .tmp name is replaced" $v \
	--name=f --rw=write --bs=128k --size=1m --vssd_state="$TMP/lo.state"
check "... the state is saved" [ -s "$TMP/lo.state" ]
check "... and the leftover is gone" [ ! -e "$TMP/lo.state.tmp" ]
