#!/bin/bash
# test_interrupt.sh - interruption guarantees of every long command (run,
# suite, checkpoint, gds): SIGINT and SIGTERM stop it within a second, what
# completed is stored and the run marked partial, an interrupted suite
# resumes to a whole run; a signal during a file layout stops it too; and
# kill -9 at 20 random moments (5 per command) leaves a database that passes
# PRAGMA integrity_check and holds whole results only.
. "$(dirname "$0")/lib.sh"

target="$TMP/target.dat"
dd if=/dev/zero of="$target" bs=1M count=64 status=none
mkdir -p "$TMP/ckpt"
cat > "$TMP/small.suite" <<'EOF'
[suite]
name = small

[global]
ioengine = psync
size = 32m
time_based = 1
runtime = 1s

[fill]
step = precondition
precondition = sequential
capacities = 1
bs = 128k

[rand]
step = sweep
rw = randread
bs = 4k
points = 1/1 4/1 8/1 16/1

[seq]
step = sweep
rw = read
bs = 128k
points = 1/1 4/1
EOF

# long_command NAME DB: starts command NAME in the background on the
# scratch targets, recording into DB; sets $pid (drivebench's own: exec, so
# no subshell stands between the signal and it). Each runs far longer than
# the moment it is interrupted at.
long_command() {
	case $1 in
	run) exec "$DB" run --db "$2" --name=long --ioengine=psync --rw=randrw --bs=4k \
		--size=32m --time_based --runtime=30s --filename="$TMP/run.dat" ;;
	suite) exec "$DB" suite --suite "$TMP/small.suite" --db "$2" \
		--destroy-data "$target" "$target" ;;
	checkpoint) exec "$DB" checkpoint --db "$2" --checkpoint-size 16MB --ranks 2 \
		--count 2 --passes 1000 "$TMP/ckpt" ;;
	gds) exec "$DB" gds --db "$2" --bs 16k,64k --threads 1,2 -T 1 -s 16m "$TMP/gds.dat" ;;
	esac >"$TMP/$1.out" 2>"$TMP/$1.err" &
	pid=$!
}

# --- SIGINT and SIGTERM: stop within a second, partial results stored ------------
# run's file laid out beforehand (by drivebench, so its writes need no
# consent), so that its I/O starts at once; a signal during a layout is the
# next section's
"$DB" run --no-db --name=layout --rw=write --bs=1m --size=32m --filename="$TMP/run.dat" \
	>/dev/null 2>&1
for cmd in run suite checkpoint gds; do
	for sig in INT TERM; do
		db="$TMP/$cmd-$sig.db"
		long_command $cmd "$db"
		# interrupted once it has stored something (a loaded machine may take
		# longer than the usual second to finish the first point); run
		# stores its run with its results only at the end (see below), so
		# it is interrupted 1.2 s into its I/O, with no wait on the database
		sleep 1.2
		[ $cmd = run ] || for _ in $(seq 50); do
			[ "$(sqlite3 "$db" 'select count(*) from results' 2>/dev/null || echo 0)" -ge 1 ] && break
			sleep 0.2
		done
		start=$(date +%s%N)
		kill -$sig $pid
		wait $pid
		rc=$?
		took=$((($(date +%s%N) - start) / 1000000))
		echo "# $cmd SIG$sig: exit $rc after $took ms"
		if [ $rc -eq 1 ]; then ok "$cmd SIG$sig: exit 1 (partial)"; else
			not_ok "$cmd SIG$sig: exit $rc, wanted 1"; tail -3 "$TMP/$cmd.err"; fi
		check "$cmd SIG$sig: stopped within a second ($took ms)" test $took -lt 1000
		check "$cmd SIG$sig: results so far stored, the run marked partial, whole results" sql "$db" '
runs = c.execute("select partial from runs").fetchall()
assert runs == [(1,)], runs
assert c.execute("select count(*) from results").fetchone()[0] >= 1
'
		check "$cmd SIG$sig: integrity ok, whole results" whole_results "$db"
	done
done
check "the interrupted suite says how to resume" grep -q "resume with drivebench suite --resume" "$TMP/suite.err"
expect_exit 0 "the interrupted suite resumes to the end" suite --resume --db "$TMP/suite-TERM.db" \
	--destroy-data "$target" "$target"
check "resumed suite: one finished run, no longer partial, every step done once" sql "$TMP/suite-TERM.db" '
runs = c.execute("select finished_ms, partial from runs").fetchall()
assert len(runs) == 1 and runs[0][0] > 0 and runs[0][1] == 0, runs
steps = c.execute("select name, status from steps order by idx").fetchall()
assert [s[0] for s in steps] == ["fill", "rand", "seq"] and all(s[1] == "done" for s in steps), steps
assert c.execute("select count(*) from results r join steps s on s.id = r.step_id where s.name = \"rand\"").fetchone()[0] == 4
'

# --- a signal while a new file is laid out ---------------------------------------
"$DB" run --no-db --name=big --rw=read --bs=1m --size=8g --filename="$TMP/big.dat" \
	>"$TMP/big.out" 2>"$TMP/big.err" &
pid=$!
sleep 0.5
start=$(date +%s%N)
kill -TERM $pid
wait $pid
rc=$?
took=$((($(date +%s%N) - start) / 1000000))
check "SIGTERM during the layout: exit 1" test $rc -eq 1
check "SIGTERM during the layout: stopped within a second ($took ms)" test $took -lt 1000
check "SIGTERM during the layout: says so" grep -q "interrupted while laying out" "$TMP/big.err"
rm -f "$TMP/big.dat"

# --- kill -9 at 20 random moments ------------------------------------------------
# time each command's first half second of work is not enough: kills land
# from 50 ms (before the first store) to 3 s in (many stores done)
# The four commands' kills run side by side, each on its own files and
# database (each command runs far longer than 3 s, so a busier machine only
# moves its kills earlier in its work); their lines print in order after.
kill_five() {
	cmd=$1
	db="$TMP/$cmd-kill.db"
	killed=0
	for i in 1 2 3 4 5; do
		long_command $cmd "$db"
		ms=$((50 + RANDOM % 2950))
		sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
		if kill -9 $pid 2>/dev/null; then killed=$((killed + 1)); fi
		wait $pid 2>/dev/null
		echo "# $cmd kill -9 at $ms ms"
	done
	check "$cmd: 5 of 5 kill -9 landed ($killed)" test $killed -eq 5
	check "$cmd after kill -9 x5: integrity ok, whole results only" whole_results "$db"
	# run stores its run with its results at the end; the others store as
	# they go, so a kill leaves their run unfinished
	[ $cmd = run ] || check "$cmd after kill -9 x5: killed runs left unfinished" sql "$db" '
n = c.execute("select count(*) from runs where finished_ms = 0").fetchone()[0]
assert n >= 1, n
'
}
killers=""
for cmd in run suite checkpoint gds; do
	kill_five $cmd >"$TMP/kill-$cmd.log" 2>&1 &
	killers="$killers $!"
done
for k in $killers; do wait $k; done
for cmd in run suite checkpoint gds; do cat "$TMP/kill-$cmd.log"; done
expect_exit 0 "a suite killed 5 times resumes to the end" suite --resume --db "$TMP/suite-kill.db" \
	--destroy-data "$target" "$target"
check "after the resume: integrity ok, whole results" whole_results "$TMP/suite-kill.db"
