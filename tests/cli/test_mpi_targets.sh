#!/bin/bash
# test_mpi_targets.sh - drivebench-mpi under `mpirun --oversubscribe` on
# this one machine (docs/distributed.md), what holds whatever else the
# machine runs: each rank its own target (%r, --rank-map and its errors, a
# FIFO map refused), fio's logs one per rank; the safety gate refusing on
# one rank stops every rank before any write; one verify seed on every
# rank, a failed verification stored; a rank's target smaller than rank
# 0's refused; checkpoints written by each rank's own process; without
# mpirun the binary is drivebench. What holds against the clock (start
# skew, exits within seconds of a signal, a kill or an error) is
# test_mpi.sh's, which runs alone (tests/alone.txt); this one shares the
# machine, so it names no process by its binary (pgrep, pkill).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpi_lib.sh"

# mpi N ARGS...: drivebench-mpi on N ranks; $OUT, $ERR, $RC, $SECS
mpi() {
	n=$1; shift
	start=$(date +%s.%N)
	OUT=$(ASAN_OPTIONS="$MPI_ASAN_OPTIONS" timeout 120 mpirun --oversubscribe --bind-to none \
		-x ASAN_OPTIONS -np "$n" "$MPI_DB" "$@" 2>"$TMP/stderr")
	RC=$?
	SECS=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	ERR=$(cat "$TMP/stderr")
}

# --- each rank its own target: %r, and a rank map --------------------------------
mpi 4 run --name=own --ioengine=psync --rw=write --bs=64k --size=4m \
	--filename="$TMP/own.%r" --no-db
check "filename=...%r: each rank wrote its own file" \
	[ "$RC" -eq 0 -a "$(stat -c %s "$TMP/own.0" "$TMP/own.1" "$TMP/own.2" "$TMP/own.3" | sort -u)" = 4194304 ]
printf '# rank target\n0 %s/map-a\n1 %s/map-b\n2 %s/map-c\n%s:1 %s/map-x # host:local rank\n' \
	"$TMP" "$TMP" "$TMP" "$(hostname)" "$TMP" >"$TMP/ranks.map"
mpi 4 --rank-map "$TMP/ranks.map" run --name=map --ioengine=psync --rw=write --bs=64k \
	--size=1m --filename=%t --no-db
check "a rank map naming rank 1 twice (by rank, by host:local rank): exit 2" [ "$RC" -eq 2 ]
expect_output 'ranks.map:5: a second target for rank 1' "the map's duplicate line named"
printf '0 %s/map-a\n1 %s/map-b\n2 %s/map-c\n%s:3 %s/map-d\n' \
	"$TMP" "$TMP" "$TMP" "$(hostname)" "$TMP" >"$TMP/ranks2.map"
mpi 4 --rank-map "$TMP/ranks2.map" run --name=map --ioengine=psync --rw=write --bs=64k \
	--size=1m --filename=%t --no-db
check "--rank-map: each rank wrote the target its line names (by rank or host:local rank)" \
	[ "$RC" -eq 0 -a -s "$TMP/map-a" -a -s "$TMP/map-b" -a -s "$TMP/map-c" -a -s "$TMP/map-d" ]
printf '3 %s/map-e\n' "$TMP" >"$TMP/ranks3.map"
mpi 4 --rank-map "$TMP/ranks3.map" run --name=map --ioengine=psync --rw=write --bs=64k \
	--size=1m --filename=%t --no-db
check "a rank map without a line for a rank: exit 2" [ "$RC" -eq 2 ]
expect_output 'ranks3.map has no target for rank [0-2] \(host ' "a rank without a target named"
printf 'zero %s/x\n' "$TMP" >"$TMP/bad.map"
mpi 2 --rank-map "$TMP/bad.map" run --name=map --ioengine=null --rw=read --size=1m --no-db
check "a malformed rank map: exit 2" [ "$RC" -eq 2 ]
expect_output "bad.map:1: 'zero' is not RANK or HOST:LOCAL_RANK" "the malformed line named"
# a rank map that is a FIFO is refused on every rank, never waited on
# (issue 28.2: every file a job names for reading)
mkfifo "$TMP/map.fifo"
mpi 2 --rank-map "$TMP/map.fifo" run --name=map --ioengine=null --rw=read --size=1m --no-db
check "a rank map that is a FIFO: exit 2, not a wait (${SECS} s)" [ "$RC" -eq 2 ]
expect_output "cannot read --rank-map '$TMP/map.fifo': it is a FIFO, not a regular file" \
	"the FIFO named"
mpi 2 run --name=t --ioengine=psync --rw=write --size=1m --filename="$TMP/nomap.%t" --no-db
check "%t without a rank map: exit 2 naming the rank" [ "$RC" -eq 2 ]
expect_output "has none \(no --rank-map" "%t without --rank-map explained"

# fio's log files: each rank its own, named so
mpi 2 run --name=lg --ioengine=null --rw=read --size=4m --write_bw_log="$TMP/lg" --no-db
check "a log every rank would write under one name: exit 2" [ "$RC" -eq 2 ]
expect_output "option 'write_bw_log': under mpirun every rank would write" "the shared log name explained"
mpi 2 run --name=lg --ioengine=null --rw=read --size=4m --write_bw_log="$TMP/lg.%r" --no-db
check "write_bw_log=...%r: one log per rank" [ "$RC" -eq 0 -a -s "$TMP/lg.0_bw.1.log" -a -s "$TMP/lg.1_bw.1.log" ]

# --- the safety gate: a refusal on one rank stops every rank before any write ----
dd if=/dev/urandom of="$TMP/gate.2" bs=64k count=16 status=none
sum_before=$(md5sum <"$TMP/gate.2")
mpi 4 run --name=gate --ioengine=psync --rw=write --bs=64k --size=1m \
	--filename="$TMP/gate.%r" --db "$TMP/gate.db"
check "a target holding data on rank 2: exit 3 on every rank" [ "$RC" -eq 3 ]
expect_output 'rank 2 \(host [^)]+\): .*refusing to write' "the refusing rank and host named"
check "no rank wrote: the other ranks' targets were never created" \
	[ ! -e "$TMP/gate.0" -a ! -e "$TMP/gate.1" -a ! -e "$TMP/gate.3" ]
check "rank 2's target is unchanged" [ "$(md5sum <"$TMP/gate.2")" = "$sum_before" ]
check "nothing stored" sql "$TMP/gate.db" '
assert c.execute("select count(*) from results").fetchone()[0] == 0'

# --- verification: one seed on every rank, failures are results ----------------
mkdir -p "$TMP/vf"
mpi 3 run --name=vw --ioengine=psync --rw=write --verify=crc32c --bs=4k --size=2m \
	--filename="$TMP/vf/v.%r" --db "$TMP/vf/v.db"
check "a verified write on 3 ranks" [ "$RC" -eq 0 ]
check "every rank's blocks carry the one stored seed" sql "$TMP/vf/v.db" '
assert c.execute("select count(distinct verify_seed), count(*) from results").fetchone() == (1, 4)'
mpi 3 verify --run 1 --db "$TMP/vf/v.db"
check "drivebench verify --run under mpirun checks every rank's file: exit 0" [ "$RC" -eq 0 ]
printf 'XXXX' | dd of="$TMP/vf/v.1" bs=1 seek=8200 conv=notrunc status=none
mpi 3 verify --run 1 --db "$TMP/vf/v.db"
check "a corrupt block on rank 1: exit 1, the run stored, not aborted" [ "$RC" -eq 1 ]
expect_output "offset 8192" "the bad block's offset reported"
check "the failure is stored with rank 1's part" sql "$TMP/vf/v.db" '
assert c.execute("select count(*) from runs").fetchone()[0] == 3
assert c.execute("select rank, verify_failed from results where run_id = 3 and verify_failed > 0 order by rank is null").fetchall() == [(1, 1), (None, 1)]'

# --- a rank's target smaller than rank 0's is refused ---------------------------
# (the steps are sized from rank 0's; the suite test_mpi.sh kills and resumes)
cat >"$TMP/two.suite" <<'EOF'
[suite]
name = two

[global]
ioengine = psync
size = 8m
time_based = 1
runtime = 400ms

[fill]
step = precondition
precondition = sequential
capacities = 1
bs = 128k

[rand]
step = sweep
rw = randread
bs = 4k
points = 1/1 2/1 4/1 8/1 16/1 32/1
EOF
truncate -s 8m "$TMP/small.0"; truncate -s 4m "$TMP/small.1"
mpi 2 suite --suite "$TMP/two.suite" --db "$TMP/small.db" --destroy-data "$TMP/small.0" \
	--destroy-data "$TMP/small.1" "$TMP/small.%r"
check "a smaller target on rank 1: exit 2" [ "$RC" -eq 2 ]
expect_output "rank 1 .*small.1' holds 4194304 bytes, fewer than rank 0's \\(8388608\\)" \
	"the smaller target and both sizes named"
check "rank 1's target did not grow" [ "$(stat -c %s "$TMP/small.1")" -eq 4194304 ]

# --- checkpoints: each rank writes its own shards -------------------------------------
mkdir -p "$TMP/ckpt"
mpi 4 checkpoint --checkpoint-size 64MB --ranks 8 --passes 1 --count 1 --db "$TMP/ck.db" "$TMP/ckpt"
check "checkpoint over 4 ranks" [ "$RC" -eq 0 ]
expect_output '4 ranks: slowest [0-9.]+ s, lowest [0-9.]+ GB/s' "MLPerf's figures: slowest rank, lowest rank throughput"
expect_output 'mean duration \(max, s\)' "the pass means over the ranks"
check "each MPI rank wrote the shards of two DLIO ranks; the parts add up to the checkpoint" sql "$TMP/ck.db" '
agg = c.execute("select d.bytes from result_dirs d join results r on r.id = d.result_id where r.rank is null and d.dir = \"write\"").fetchone()[0]
parts = c.execute("select r.rank, d.bytes from result_dirs d join results r on r.id = d.result_id where r.rank is not null and d.dir = \"write\" order by r.rank").fetchall()
assert [p[0] for p in parts] == [0, 1, 2, 3], parts
assert sum(p[1] for p in parts) == agg and all(p[1] > 0 for p in parts), (agg, parts)
'

mpi 4 checkpoint --checkpoint-size 16MB --ranks 2 --passes 1 --count 1 --db "$TMP/ck2.db" "$TMP/ckpt"
check "more MPI ranks than DLIO ranks: the idle ranks take part in the barriers" [ "$RC" -eq 0 ]
expect_output '; 2 ranks: slowest' "only the ranks that wrote are counted"

# --- without mpirun: drivebench -------------------------------------------------------
OUT=$(timeout 60 "$MPI_DB" run --name=alone --ioengine=null --rw=read --size=16m --db "$TMP/alone.db" 2>&1)
RC=$?
check "drivebench-mpi without mpirun runs as drivebench" [ "$RC" -eq 0 ]
check "no ranks line, no rank rows" [ "$(echo "$OUT" | grep -c 'ranks:')" -eq 0 ]
check "one plain result" sql "$TMP/alone.db" '
assert c.execute("select count(*), sum(rank is null) from results").fetchone() == (1, 1)
assert c.execute("select count(*) from run_ranks").fetchone()[0] == 0'
OUT=$(timeout 60 "$MPI_DB" run --name=alone --ioengine=psync --rw=write --size=1m \
	--filename="$TMP/one.%r" --no-db 2>&1)
check "one process is rank 0 of 1: %r is 0" [ -s "$TMP/one.0" ]
OUT=$(timeout 60 "$MPI_DB" run --name=pct --ioengine=psync --rw=write --size=1m \
	--filename="$TMP/pp%%x" --no-db 2>&1)
check "%% is a percent sign" [ -s "$TMP/pp%x" ]
OUT=$(timeout 60 "$MPI_DB" --rank-timeout nan run --name=t --ioengine=null --size=1m --no-db 2>&1)
RC=$?
check "--rank-timeout nan: exit 2" [ "$RC" -eq 2 ]
