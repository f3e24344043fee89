#!/bin/bash
# test_target_swap.sh - a job's target is judged by the write gate before
# the run, and opened when its group starts: a path that names something
# else by then (a symbolic link swapped while earlier groups ran) is
# refused, for a job's one target and for a file in a list, and the file
# it names now is untouched. Without the swap the same jobs run.
. "$(dirname "$0")/lib.sh"

W=$TMP
expect_exit 0 "drivebench makes its own file" run --no-db --name=mk --ioengine=psync \
	--filename="$W/own.dat" --rw=write --bs=1m --size=4m
expect_exit 0 "... and a second one" run --no-db --name=mk --ioengine=psync \
	--filename="$W/own2.dat" --rw=write --bs=1m --size=4m
head -c 4194304 /dev/urandom >"$W/precious.dat"
sum=$(sha256sum <"$W/precious.dat")

# job_file TARGET [FIRST]: a first group (FIRST: its target and options,
# by default 3 s on first.dat), then a group writing TARGET
job_file() {
	cat <<JOB
[global]
bs=64k
ioengine=psync
[first]
${2:-filename=$W/first.dat
time_based
runtime=3}
rw=write
size=1m
[second]
stonewall
filename=$1
rw=write
size=1m
JOB
}

# run_swapped LINK TARGET: runs the job file on TARGET and points LINK at
# precious.dat once the first group runs (its file laid out: every job was
# judged by then)
run_swapped() {
	rm -f "$W/first.dat"
	job_file "$2" >"$W/swap.fio"
	timeout 120 "$DB" run --no-db "$W/swap.fio" >"$W/out" 2>"$W/err" &
	pid=$!
	for _ in $(seq 200); do
		[ "$(stat -c %s "$W/first.dat" 2>/dev/null)" = 1048576 ] && break
		sleep 0.05
	done
	sleep 0.5
	ln -sfn precious.dat "$1"
	wait "$pid"
	RC=$?
	OUT=$(cat "$W/out")
	ERR=$(cat "$W/err")
}

ln -sfn own.dat "$W/race.lnk"
job_file "$W/race.lnk" >"$W/plain.fio"
expect_exit 0 "a link to drivebench's file, not swapped: the job runs" run --no-db "$W/plain.fio"

run_swapped "$W/race.lnk" "$W/race.lnk"
check "a target swapped to a user's file after the gate: the run fails (exit $RC)" [ "$RC" -ne 0 ]
expect_output "target '$W/race.lnk': refusing to use it: it is another file now, not the file checked before the run" "... saying the path changed"
check "... and the user's file is untouched" [ "$(sha256sum <"$W/precious.dat")" = "$sum" ]

ln -sfn own.dat "$W/race2.lnk"
run_swapped "$W/race2.lnk" "$W/own2.dat:$W/race2.lnk"
check "a file of a list swapped after the gate: the run fails (exit $RC)" [ "$RC" -ne 0 ]
expect_output "target '$W/race2.lnk': refusing to use it: it is another file now" "... naming it"
check "... and the user's file is untouched" [ "$(sha256sum <"$W/precious.dat")" = "$sum" ]

# a file an earlier group's unlink=1 removed is made again when the next
# group opens it: a new file of drivebench's own, not a swapped path
job_file "$W/u.dat" "filename=$W/u.dat
unlink=1" >"$W/unlink.fio"
expect_exit 0 "a file removed by an earlier group's unlink=1 is made again" run --no-db \
	"$W/unlink.fio"
check "... and holds the second group's 1 MiB" test "$(stat -c %s "$W/u.dat")" = 1048576
