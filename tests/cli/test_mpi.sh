#!/bin/bash
# test_mpi.sh - drivebench-mpi under `mpirun --oversubscribe -np 4` on this
# one machine (docs/distributed.md): one output and one stored run; the
# aggregate's I/Os are the ranks' sum and its percentiles those of the
# ranks' histograms added by hand; the ranks start together; a bad option,
# a rank's I/O error, a signal, a kill or a rank that stops answering ends
# every rank within seconds with the rank named and the store whole; a
# suite killed on one rank resumes on all. It runs alone (tests/alone.txt):
# its checks hold against the clock, and it finds ranks by their binary.
# What holds beside other tests (each rank's own target, the safety gate,
# verification, checkpoints, drivebench-mpi without mpirun) is
# test_mpi_targets.sh's.
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

# pid_of_rank R: the process of rank R of the running mpirun
pid_of_rank() {
	for p in $(pgrep -f "$MPI_DB"); do
		if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$1"; then
			echo "$p"; return 0
		fi
	done
	return 1
}

# wait_rank R: waits (up to 20 s) for rank R's process
wait_rank() {
	for _ in $(seq 200); do
		pid_of_rank "$1" >/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# --- one run over four ranks: one output, exact aggregation ---------------------
db1="$TMP/agg.db"
mpi 4 run --name=agg --ioengine=null --rw=randread --bs=4k --size=1g --runtime=1 \
	--time_based --db "$db1"
if [ "$RC" -eq 0 ]; then ok "null run on 4 ranks"; else not_ok "null run on 4 ranks (exit $RC)"; echo "$ERR" | head; fi
expect_output '^drivebench: 4 ranks: rank 0 on [^ ]+ \(local 0, clock \+0\.0 us\); rank 1 on ' \
	"the ranks, their hosts and clock offsets printed once"
# rank 0's summary only: each rank's block (as fio's clients) and the aggregate
check "one summary from rank 0 only" [ "$(echo "$OUT" | grep -c '^Run status group')" -eq 5 ]
check "one aggregate, after the ranks' blocks" [ "$(echo "$OUT" | grep -c '^All clients (4 ranks):$')" -eq 1 ]
expect_output '^  ranks: 4; last done: .* first done: ' "the aggregate names its ranks, last and first done"
check "one stored run with the aggregate and four rank parts" sql "$db1" '
assert c.execute("select count(*) from runs").fetchone()[0] == 1
assert c.execute("select count(*) from results where rank is null").fetchone()[0] == 1
assert [r[0] for r in c.execute("select rank from results where rank is not null order by rank")] == [0, 1, 2, 3]
assert c.execute("select ranks from results where rank is null").fetchone()[0] == 4
'
check "aggregate I/Os and bytes are the ranks' sum exactly" sql "$db1" '
agg = c.execute("select d.ios, d.bytes from result_dirs d join results r on r.id = d.result_id where r.rank is null and d.dir = \"read\"").fetchone()
parts = c.execute("select sum(d.ios), sum(d.bytes) from result_dirs d join results r on r.id = d.result_id where r.rank is not null and d.dir = \"read\"").fetchone()
assert agg == parts, (agg, parts)
assert agg[0] > 0
'
check "aggregate IOPS is the sum of the ranks' within 2%" sql "$db1" '
agg = c.execute("select d.iops from result_dirs d join results r on r.id = d.result_id where r.rank is null and d.dir = \"read\"").fetchone()[0]
parts = c.execute("select sum(d.iops) from result_dirs d join results r on r.id = d.result_id where r.rank is not null and d.dir = \"read\"").fetchone()[0]
assert abs(agg - parts) / parts < 0.02, (agg, parts)
'
check "merged clat percentiles are those of the ranks' histograms added by hand" sql "$db1" '
agg = c.execute("select id from results where rank is null").fetchone()[0]
bins = {}
for v, n in c.execute("select b.value_ns, b.count from bins b join results r on r.id = b.result_id where r.rank is not null and b.dir = \"read\""):
    bins[v] = bins.get(v, 0) + n
total = sum(bins.values())
stored = c.execute("select pct, value_ns from percentiles where result_id = ? and dir = \"read\" and kind = \"clat\" order by pct", (agg,)).fetchall()
assert len(stored) >= 10, stored
for pct, value in stored:
    want, run = None, 0
    for v in sorted(bins):
        run += bins[v]
        if run >= total * pct / 100.0:
            want = v
            break
    assert want == value, (pct, value, want)
# and the merged histogram is the sum, bucket by bucket
mine = dict(c.execute("select value_ns, count from bins where result_id = ? and dir = \"read\"", (agg,)).fetchall())
assert mine == bins
'
check "every rank named with its host; clocks on one host agree within 5 ms" sql "$db1" '
rows = c.execute("select r.rank, h.hostname, r.clock_offset_ns from run_ranks r join hosts h on h.id = r.host_id order by r.rank").fetchall()
assert [r[0] for r in rows] == [0, 1, 2, 3], rows
assert all(r[1] for r in rows)
assert rows[0][2] == 0 and all(abs(r[2]) < 5000000 for r in rows), rows
'

# the ranks start measuring together: each rank's setup (buffers, engine)
# is done before the barrier that starts the phase, so the union of their
# intervals is no longer than the longest by more than the barrier's skew
# (one thread a rank: more threads than cores start as the scheduler lets them)
mpi 4 run --name=sk --ioengine=null --rw=write --bs=4m --iodepth=64 --size=1g \
	--runtime=500ms --time_based --db "$TMP/skew.db"
check "union interval within 30 ms of the longest rank's (setup before the start barrier)" sql "$TMP/skew.db" '
agg = c.execute("select runtime_ns from results where rank is null").fetchall()
parts = c.execute("select max(runtime_ns) from results where rank is not null group by job_name").fetchall()
assert len(agg) == 1, agg
for (a,), (p,) in zip(agg, parts):
    assert a - p < 30000000, (a, p)
'
# first done with group_reporting: every clone's share counted
mpi 2 run --name=g --ioengine=null --rw=randread --bs=4k --size=1g --runtime=1 --time_based \
	--numjobs=4 --group_reporting --db "$TMP/group.db"
check "first-done over a group of clones counts every clone (near the last-done rate)" sql "$TMP/group.db" '
r = c.execute("select first_done_ns, first_done_bytes, runtime_ns, ranks from results where rank is null").fetchone()
total = c.execute("select sum(bytes) from result_dirs where result_id = (select id from results where rank is null)").fetchone()[0]
first_rate, last_rate = r[1] / r[0], total / r[2]
assert r[3] == 2 and 0.8 < first_rate / last_rate < 1.25, (r, total)
'

# bad input on rank 0 ends the other ranks too, with rank 0's exit code
mpi 3 run --name=bad --ioengine=null --rw=read --size=1m --bogus-option=1 --no-db
check "a bad option under mpirun: exit 2, every rank ended" [ "$RC" -eq 2 -a "$(awk -v s="$SECS" "BEGIN { print (s < 20) }")" -eq 1 ]
expect_output "bogus-option" "the bad option named"
for _ in $(seq 50); do left=$(pgrep -ax drivebench-mpi); [ -z "$left" ] && break; sleep 0.1; done
check "no rank left behind (within 5 s)" [ -z "$left" ]
[ -n "$left" ] && echo "$left"

# --- a rank's I/O error ends every rank within seconds -----------------------------
tiny="$TMP/tiny"
mkdir -p "$tiny"
if mount -t tmpfs -o size=1m tmpfs "$tiny" 2>/dev/null; then
	printf '0 %s/io.0\n1 %s/f\n2 %s/io.2\n3 %s/io.3\n' "$TMP" "$tiny" "$TMP" "$TMP" >"$TMP/io.map"
	mpi 4 --rank-map "$TMP/io.map" run --name=io --ioengine=psync --rw=randwrite --bs=64k \
		--size=8m --fallocate=none --runtime=20 --time_based --filename=%t --db "$TMP/io.db"
	check "ENOSPC on rank 1: exit 1" [ "$RC" -eq 1 ]
	expect_output 'rank 1 \(host [^)]+\): job .io.: No space left on device; ending the run on every rank' \
		"the failing rank, host and error named"
	check "every rank ended within seconds of the error, not after the 20 s runtime" \
		[ "$(awk -v s="$SECS" "BEGIN { print (s < 10) }")" -eq 1 ]
	check "nothing of the failed run stored, the store whole" sql "$TMP/io.db" '
assert c.execute("pragma integrity_check").fetchone()[0] == "ok"
assert c.execute("select count(*) from results").fetchone()[0] == 0'
	umount "$tiny"
else
	not_ok "cannot mount a tmpfs for the I/O error test (needs root)"
fi

# --- signals, kills, a rank that stops answering ------------------------------------
db2="$TMP/kill.db"
mpi 2 run --name=before --ioengine=null --rw=read --size=16m --db "$db2"
check "a first run stored" [ "$RC" -eq 0 ]
( wait_rank 2 && sleep 1 && kill -TERM "$(pid_of_rank 2)" ) &
mpi 4 run --name=long --ioengine=null --rw=randread --bs=4k --size=1g --runtime=30 \
	--time_based --db "$db2"
wait
check "SIGTERM to rank 2: every rank ends with exit 1" [ "$RC" -eq 1 ]
expect_output 'rank 2 \(host [^)]+\): stopped by a signal' \
	"the signalled rank named"
check "within seconds, not after the 30 s runtime" [ "$(awk -v s="$SECS" "BEGIN { print (s < 12) }")" -eq 1 ]
( wait_rank 1 && sleep 1 && kill -KILL "$(pid_of_rank 1)" ) &
mpi 4 run --name=long --ioengine=null --rw=randread --bs=4k --size=1g --runtime=30 \
	--time_based --db "$db2"
wait
check "SIGKILL to rank 1: every rank ends, non-zero" [ "$RC" -ne 0 ]
expect_output 'rank 1 .* (exited on signal 9|Killed)' "mpirun names the killed rank"
check "within seconds of the kill" [ "$(awk -v s="$SECS" "BEGIN { print (s < 12) }")" -eq 1 ]
check "the store holds the first run whole and nothing of the killed ones" whole_results "$db2"
check "only the first run's results" sql "$db2" '
assert [r[0] for r in c.execute("select distinct job_name from results")] == ["before"]'
# rank 1 stopped once its first phase writes (its file gains blocks)
( wait_rank 1 && for _ in $(seq 300); do
	[ "$(stat -c %b "$TMP/hang.1" 2>/dev/null || echo 0)" -gt 0 ] && break; sleep 0.05; done
  kill -STOP "$(pid_of_rank 1)" ) &
mpi 2 --rank-timeout 2 run --ioengine=psync --rw=write --fallocate=none --size=64m \
	--filename="$TMP/hang.%r" --name=a --runtime=1 --time_based \
	--name=b --stonewall --runtime=1 --time_based --no-db
wait
check "a rank that stops answering: the others give up after --rank-timeout, exit 1" \
	[ "$RC" -eq 1 -a "$(awk -v s="$SECS" "BEGIN { print (s < 15) }")" -eq 1 ]
expect_output 'did not reach the barrier within 3 s \(--rank-timeout\)' "the timeout explained"
pkill -KILL -f "$MPI_DB" 2>/dev/null

# a signal between two phases is a stopped run (exit 1), not bad input
( wait_rank 1 && sleep 2 && kill -TERM "$(pid_of_rank 1)" ) &
mpi 2 run --ioengine=null --rw=read --size=1g --name=a --runtime=3 --time_based \
	--name=b --stonewall --runtime=3 --time_based --no-db
wait
check "SIGTERM to rank 1 in a two-phase run: exit 1" [ "$RC" -eq 1 ]

# --- a suite over two ranks, killed on one, resumed on both --------------------------
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
for r in 0 1; do truncate -s 8m "$TMP/suite.$r"; done
db3="$TMP/suite.db"
( wait_rank 1 && for _ in $(seq 100); do
	n=$(python3 -c "import sqlite3; print(sqlite3.connect('$db3').execute('select count(*) from results where step_id in (select id from steps where name = \"rand\")').fetchone()[0])" 2>/dev/null)
	[ "${n:-0}" -ge 3 ] && break; sleep 0.1; done
  kill -KILL "$(pid_of_rank 1)" ) &
mpi 2 suite --suite "$TMP/two.suite" --db "$db3" --destroy-data "$TMP/suite.0" \
	--destroy-data "$TMP/suite.1" "$TMP/suite.%r"
wait
check "a suite with rank 1 killed mid-sweep stops" [ "$RC" -ne 0 ]
mpi 2 suite --resume --suite "$TMP/two.suite" --db "$db3" --destroy-data "$TMP/suite.0" \
	--destroy-data "$TMP/suite.1" "$TMP/suite.%r"
check "--resume on both ranks completes" [ "$RC" -eq 0 ]
check "one suite run, every sweep point once, each with both ranks' parts" sql "$db3" '
assert c.execute("select count(*) from runs").fetchone()[0] == 1
pts = c.execute("select point, count(*) from results where rank is null and step_id in (select id from steps where name = \"rand\") group by point").fetchall()
assert [p for p, n in pts] == [0, 1, 2, 3, 4, 5] and all(n == 1 for p, n in pts), pts
parts = c.execute("select count(*) from results where rank is not null and step_id in (select id from steps where name = \"rand\")").fetchone()[0]
assert parts == 12, parts
'
check "the resumed suite's store is whole" whole_results "$db3"
check "both ranks' targets were written" [ "$(du -k "$TMP/suite.1" | cut -f1)" -gt 4000 ]

# a signal to a rank while rank 0 idles ends the run within seconds: sent
# once rank 0 has stored the step before the idle one
printf '[suite]\nname = idle\n\n[global]\nioengine = null\nsize = 8m\nruntime = 200ms\ntime_based = 1\n\n[one]\nstep = measure\nrw = read\nbs = 4k\n\n[rest]\nstep = idle\nidle = 30s\n\n[two]\nstep = measure\nrw = read\nbs = 4k\n' >"$TMP/idle.suite"
( wait_rank 1 && for _ in $(seq 300); do
	n=$(python3 -c "import sqlite3; print(sqlite3.connect('file:$TMP/idle.db?mode=ro', uri=True).execute('select count(*) from results').fetchone()[0])" 2>/dev/null)
	[ "${n:-0}" -ge 1 ] && break; sleep 0.05; done
  sleep 0.2; kill -TERM "$(pid_of_rank 1)" ) &
mpi 2 suite --suite "$TMP/idle.suite" --db "$TMP/idle.db" "$TMP/idle.%r"
wait
check "SIGTERM to rank 1 during rank 0's idle step: exit 1 within seconds" \
	[ "$RC" -eq 1 -a "$(awk -v s="$SECS" "BEGIN { print (s < 15) }")" -eq 1 ]
