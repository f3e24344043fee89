#!/bin/bash
# test_suite_multi.sh - `drivebench suite` on several targets at once: two
# and three file targets run concurrently (their stored run intervals
# overlap), each stored as its own run and drive with the same steps and
# points as a single-target run, and shown as its own drive by report; a
# target the safety gate refuses stops them all with nothing written on
# any; a stop (SIGTERM, and kill -9 of the parent) then --resume completes
# every target; a finished target is left out of a resume; one target
# failing (the fault engine's EIO) is named while the others finish; a
# target that cannot be started (no file descriptors left) stops those
# started; several targets are refused under mpirun; one drive named twice and a label count that does not fit are
# refused.
. "$(dirname "$0")/lib.sh"

cat > "$TMP/tiny.suite" <<'EOF'
[suite]
name = tiny

[global]
ioengine = psync
bs = 64k
time_based = 1
runtime = 600ms

[purge]
step = purge

[fill]
step = precondition
precondition = sequential
bs = 128k

[sweep-read]
step = sweep
rw = randread
bs = 4k
points = 1/1 4/1 2/2

[measure-read]
step = measure
rw = read
EOF
# the same with the fault engine: an EIO for the write covering 24 MiB,
# which only a target larger than that reaches
sed -e 's/^ioengine = psync/ioengine = fault:psync\nfault_eio_offsets = 24m\nfault_dir = write/' \
	-e 's/^name = tiny/name = tinyfault/' "$TMP/tiny.suite" > "$TMP/fault.suite"

# make NAME SIZE: a target file drivebench created (written, marked), so
# the suite writes it without --destroy-data
make_target() {
	"$DB" run --name=mk --filename="$TMP/$1" --rw=write --bs=1m --size="$2" --no-db \
		>/dev/null 2>&1
}
for t in a b c r; do make_target $t.dat 16m; done
make_target big.dat 32m
A=$TMP/a.dat B=$TMP/b.dat C=$TMP/c.dat R=$TMP/r.dat BIG=$TMP/big.dat
S=(suite --suite "$TMP/tiny.suite" --time-scale 0.5)
# the runs stopped or killed part way: long enough that the signal comes
# before the end on a loaded machine (at 0.5 the suite could end first)
SLOW=(suite --suite "$TMP/tiny.suite" --time-scale 2)

# same_steps DB: every run has the steps of the run on $R (name, kind,
# status done) with as many results per point
same_steps() {
	sql "$1" '
def shape(run):
    return [(n, k, st, c.execute("select point, count(*) from results where step_id = ?"
                                 " group by point order by point", (sid,)).fetchall())
            for sid, n, k, st in c.execute("select id, name, kind, status from steps"
                                           " where run_id = ? order by idx", (run,)).fetchall()]
ref, = c.execute("select id from runs where target = ?", ("'"$R"'",)).fetchone()
want = shape(ref)
assert [s[1] for s in want] == ["purge", "precondition", "sweep", "measure"], want
assert all(s[2] == "done" for s in want), want
assert len(want[2][3]) == 3, want   # three sweep points
others = [r for (r,) in c.execute("select id from runs where id <> ?", (ref,))]
assert others
for r in others:
    assert shape(r) == want, (r, shape(r), want)
'
}
# report_drives HTML "A B ...": the report's drive selector lists exactly
# these drives, in any order ('_' for a blank)
report_drives() {
	python3 - "$1" "$2" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
select = re.search(r'<select id="pick-review">(.*?)</select>', page, re.S)
drives = sorted(re.findall(r"<option[^>]*>([^<]*)</option>", select.group(1)))
want = sorted(w.replace("_", " ") for w in sys.argv[2].split())
assert drives == want, (drives, want)
PY
}
# reference DB: the single-target run on $R in DB, for same_steps
reference() { "$DB" "${S[@]}" --db "$1" "$R" >/dev/null 2>&1; }

# --- help and bad input -------------------------------------------------------------
expect_exit 0 "suite --help" suite --help
expect_output "--target TARGET" "help names --target"
expect_output "Several targets" "help says what several targets do"
expect_exit 2 "one label for two targets is refused" "${S[@]}" --db "$TMP/bad.db" \
	--label x "$A" "$B"
expect_output "give one per target" "the label count is explained"
expect_exit 2 "three labels for two targets are refused" "${S[@]}" --db "$TMP/bad.db" \
	--label x --label y --label z --target "$A" --target "$B"
expect_exit 2 "two labels for one target are refused" "${S[@]}" --db "$TMP/bad.db" \
	--label x --label y "$A"
check "bad input created no database" test ! -e "$TMP/bad.db"

# --- one drive named twice ----------------------------------------------------------
ln "$A" "$TMP/hard.dat"
ln -s "$A" "$TMP/soft.dat"
expect_exit 2 "the same path twice is refused" "${S[@]}" --db "$TMP/dup.db" "$A" "$A"
expect_output "targets 1 and 2 are one drive: '$A' and '$A' are the same file" \
	"the duplicate is named"
expect_exit 2 "another spelling of a path is refused" "${S[@]}" --db "$TMP/dup.db" \
	--target "$A" --target "$TMP/./a.dat"
expect_exit 2 "a hard link to a target is refused" "${S[@]}" --db "$TMP/dup.db" "$A" "$TMP/hard.dat"
expect_output "'$A' and '$TMP/hard.dat' are the same file" "the hard link is named"
expect_exit 2 "a symbolic link to a target is refused" "${S[@]}" --db "$TMP/dup.db" \
	"$B" "$TMP/soft.dat" "$A"
expect_output "targets 2 and 3 are one drive" "the link and its file are named by position"
expect_exit 2 "a new file under two names is refused" "${S[@]}" --db "$TMP/dup.db" \
	"$TMP/new.dat" "$A" "$TMP/../$(basename "$TMP")/new.dat"
check "duplicates wrote nothing" test ! -e "$TMP/new.dat" -a ! -e "$TMP/dup.db"

# --- two targets at once, each its own run and drive ---------------------------------
expect_exit 0 "a single-target run for reference" "${S[@]}" --db "$TMP/two.db" --label ref "$R"
expect_exit 0 "two targets at once" "${S[@]}" --db "$TMP/two.db" \
	--target "$A" --label drive-a --target "$B" --label drive-b
expect_output "suite 'tiny' on 2 targets at once" "it says it runs both at once"
expect_output "^\[$A\] \[[0-9:]+\] step 4/4 measure-read measure: done" \
	"progress lines name their target"
expect_output "^  $A: run [23] complete" "the summary names the first target and its run"
expect_output "^  $B: run [23] complete" "the summary names the second target and its run"
check "each target is its own finished run and drive, on its real path" sql "$TMP/two.db" '
rows = c.execute("select id, label, target, drive_id, finished_ms, partial, source from runs"
                 " order by label").fetchall()
assert [r[1] for r in rows] == ["drive-a", "drive-b", "ref"], rows
assert [r[2] for r in rows] == ["'"$A"'", "'"$B"'", "'"$R"'"], rows
assert len({r[3] for r in rows}) == 3, rows
assert all(r[4] > 0 and r[5] == 0 and r[6] == "suite" for r in rows), rows
assert all(r[0] for r in c.execute("select drive_json is not null from runs"))
'
check "both runs have the single-target run's steps and points" same_steps "$TMP/two.db"
overlap=$(sql "$TMP/two.db" '
r = c.execute("select id, started_ms, finished_ms from runs where label <> \"ref\"").fetchall()
start = max(x[1] for x in r); end = min(x[2] for x in r)
s = c.execute("""select max(started_ms), min(finished_ms) from steps
                 where run_id in (%d, %d) and kind = "sweep" """ % (r[0][0], r[1][0])).fetchone()
print("runs %s; both running for %d ms; sweeps both running for %d ms"
      % (" ".join("%d [%d, %d]" % x for x in r), end - start, s[1] - s[0]))
assert end > start and s[1] > s[0]
')
if [ $? -eq 0 ]; then ok "the two runs overlap in time: $overlap"; else not_ok "the two runs overlap: $overlap"; fi
check "the store is whole" whole_results "$TMP/two.db"
expect_exit 0 "report on the three runs" report --db "$TMP/two.db" --out "$TMP/two.html"
check "the report shows each target as its own drive" report_drives "$TMP/two.html" \
	"drive-a drive-b ref"

# --- three targets at once, unlabelled ----------------------------------------------
expect_exit 0 "three targets at once" "${S[@]}" --db "$TMP/three.db" "$A" "$B" "$C"
check "three finished runs whose intervals overlap" sql "$TMP/three.db" '
r = c.execute("select started_ms, finished_ms, target from runs order by target").fetchall()
assert len(r) == 3 and all(x[1] > 0 for x in r), r
assert max(x[0] for x in r) < min(x[1] for x in r), r
assert [x[2] for x in r] == ["'"$A"'", "'"$B"'", "'"$C"'"], r
'
check "a reference run on the same database" reference "$TMP/three.db"
check "the three have the reference's steps and points" same_steps "$TMP/three.db"
expect_exit 0 "report on the unlabelled runs" report --db "$TMP/three.db" --out "$TMP/three.html"
check "the report shows each unlabelled run as its own drive" report_drives "$TMP/three.html" \
	"run_1 run_2 run_3 run_4"

# --- the safety gate: one refusal, nothing written anywhere ----------------------------
dd if=/dev/zero of="$TMP/fs.img" bs=1M count=16 status=none
if command -v mkfs.ext4 >/dev/null; then
	mkfs.ext4 -q -F "$TMP/fs.img" && finding="carries an ext4 filesystem"
else
	finding="was not created by drivebench"
fi
before=$(sha256sum "$A" "$B" "$TMP/fs.img")
expect_exit 3 "a target the gate refuses stops every target" "${S[@]}" --db "$TMP/gate.db" \
	"$A" "$TMP/fs.img" "$B"
expect_output "drivebench suite: $TMP/fs.img: refusing to write to '$TMP/fs.img'" \
	"the refused target is named"
expect_output "$finding" "the refusal says why"
expect_output "nothing started" "it says nothing started"
check "no target was written (the others' bytes unchanged)" \
	test "$before" = "$(sha256sum "$A" "$B" "$TMP/fs.img")"
check "no run was stored" sql "$TMP/gate.db" 'assert c.execute("select count(*) from runs").fetchone()[0] == 0'

# --- a stop, then --resume ------------------------------------------------------------
# started NAME DB N: waits (up to 20 s) until N runs stored a result each
started() {
	for _ in $(seq 200); do
		n=$(python3 -c 'import sqlite3,sys
try:
    print(sqlite3.connect(sys.argv[1]).execute("select count(distinct run_id) from results").fetchone()[0])
except Exception:
    print(0)' "$1" 2>/dev/null)
		[ "${n:-0}" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}
"$DB" "${SLOW[@]}" --db "$TMP/stop.db" "$A" "$B" >/dev/null 2>"$TMP/stop.err" &
pid=$!
started "$TMP/stop.db" 2
kill -TERM $pid
wait $pid
rc=$?
if [ $rc -eq 1 ]; then ok "SIGTERM to the command exits 1"; else not_ok "SIGTERM exits 1 (exit $rc)"; cat "$TMP/stop.err"; fi
if grep -q "^interrupted: resume with drivebench suite --resume --db $TMP/stop.db --target $A --target $B\$" "$TMP/stop.err"; then
	ok "the stop says how to resume both"; else not_ok "the stop says how to resume both"; cat "$TMP/stop.err"; fi
check "both runs were stopped, unfinished" sql "$TMP/stop.db" '
r = c.execute("select finished_ms, partial from runs").fetchall()
assert r == [(0, 1), (0, 1)], r
'
expect_exit 0 "--resume continues both" suite --resume --db "$TMP/stop.db" --time-scale 2 \
	--target "$A" --target "$B"
expect_output "\[$A\] drivebench: resuming run [12]" "the first target's run resumes"
expect_output "\[$B\] drivebench: resuming run [12]" "the second target's run resumes"
check "a reference run on the same database" reference "$TMP/stop.db"
check "both resumed runs have the reference's steps and points" same_steps "$TMP/stop.db"
check "... and finished" sql "$TMP/stop.db" '
assert c.execute("select count(*) from runs where finished_ms > 0 and partial = 0").fetchone()[0] == 3
'
check "the resumed store is whole" whole_results "$TMP/stop.db"
expect_exit 2 "a second --resume has nothing to resume" suite --resume --db "$TMP/stop.db" "$A" "$B"
expect_output "nothing to resume on any target" "it says so"

# kill -9 of the command: each target's process stops by itself
"$DB" "${SLOW[@]}" --db "$TMP/kill.db" "$A" "$B" >/dev/null 2>"$TMP/kill.err" &
pid=$!
started "$TMP/kill.db" 2
children=$(pgrep -P $pid | tr '\n' ' ')
{ kill -9 $pid; wait $pid; } 2>/dev/null   # no "Killed" line from bash
gone=0
for _ in $(seq 50); do
	alive=0
	for c in $children; do kill -0 "$c" 2>/dev/null && alive=1; done
	[ $alive -eq 0 ] && { gone=1; break; }
	sleep 0.1
done
if [ -n "$children" ] && [ $gone -eq 1 ]; then ok "the targets' processes stop when the command is killed"
else not_ok "the targets' processes stop when the command is killed ($children)"; fi
check "the killed runs are unfinished and the store whole" sql "$TMP/kill.db" '
# stopped by the SIGTERM each got when its parent died: partial
assert c.execute("select count(*) from runs where finished_ms = 0 and partial = 1").fetchone()[0] == 2
assert c.execute("pragma integrity_check").fetchone()[0] == "ok"
'
# one target resumed alone to the end is left out of the next resume
expect_exit 0 "one target resumed alone" suite --resume --db "$TMP/kill.db" --time-scale 2 "$A"
expect_exit 0 "--resume on both resumes the other" suite --resume --db "$TMP/kill.db" \
	--time-scale 2 "$A" "$B"
expect_output "$A: the last suite run on '$A' \(run [12]\) finished; nothing to resume; leaving it out" \
	"the finished target is left out, named"
expect_output "^  $B: run [12] complete" "the other's run completes"
check "both killed runs finished, with every step once" sql "$TMP/kill.db" '
assert c.execute("select count(*) from runs where finished_ms > 0").fetchone()[0] == 2
assert c.execute("select count(*) from steps where status = \"done\"").fetchone()[0] == 8
'
check "the killed and resumed store is whole" whole_results "$TMP/kill.db"

# --- resume refusals ------------------------------------------------------------------
expect_exit 2 "--resume refuses a target without a run" suite --resume --db "$TMP/kill.db" \
	--suite "$TMP/tiny.suite" "$A" "$C"
expect_output "drivebench suite: $C: no suite run on '$C' to resume" "it names the target"
expect_output "nothing started" "and starts nothing"
expect_exit 2 "--resume without --suite needs a run on each" suite --resume --db "$TMP/kill.db" "$A" "$C"
expect_output "no suite run on '$C'" "it names the target without one"
"$DB" suite --suite "$TMP/fault.suite" --db "$TMP/kill.db" "$C" >/dev/null 2>&1 &
pid=$!
started "$TMP/kill.db" 3   # runs 1 and 2 have results already
kill -TERM $pid; wait $pid
# B's last run ran tiny.suite, C's fault.suite
expect_exit 2 "--resume of runs of different suites is refused" suite --resume \
	--db "$TMP/kill.db" "$B" "$C"
expect_output "ran different suites" "it says the suites differ"

# --- one target failing: named, the others finish ------------------------------------
expect_exit 1 "a target failing makes the command fail" suite --suite "$TMP/fault.suite" \
	--db "$TMP/fail.db" "$A" "$BIG" "$B"
expect_output "^\[$BIG\] drivebench suite: step 2/4 'fill': I/O error: Input/output error \(write at offset 25165824\)" \
	"the failing target's error is under its name"
expect_output "^  $BIG: run [1-3] failed: step 2/4 'fill': I/O error" "the summary names the failing target"
expect_output "^  $A: run [1-3] complete" "the first other target finished"
expect_output "^  $B: run [1-3] complete" "the second other target finished"
check "the others' runs are whole, the failed one is open with its step failed" sql "$TMP/fail.db" '
r = dict((t, (f, [s for (s,) in c.execute("select status from steps where run_id = ? order by idx", (i,))]))
         for i, t, f in c.execute("select id, target, finished_ms from runs"))
assert r["'"$A"'"][0] > 0 and r["'"$A"'"][1] == ["done"] * 4, r
assert r["'"$B"'"][0] > 0 and r["'"$B"'"][1] == ["done"] * 4, r
assert r["'"$BIG"'"][0] == 0 and r["'"$BIG"'"][1] == ["done", "failed"], r
'

# --- a target that cannot be started stops those started ------------------------------
# with few file descriptors the command runs out of them making the pipes
# of a later target: the limit is searched upwards until that happens
found=0
for n in $(seq 6 30); do
	rm -f "$TMP/fd.db"*
	OUT=$(ulimit -n $n; timeout 60 "$DB" "${S[@]}" --db "$TMP/fd.db" "$A" "$B" "$C" 2>&1)
	RC=$?
	# wanted: a later target failing to start while an earlier one runs
	if printf '%s\n' "$OUT" | grep -q "pipe: Too many open files; stopping the targets started" &&
	   printf '%s\n' "$OUT" | grep -q -E "^  [^ ]+: run [0-9]+ interrupted"; then
		found=1; break
	fi
	[ $RC -eq 0 ] && break   # enough descriptors for all: nothing more to find
done
if [ $found -eq 1 ]; then
	ok "a target that cannot be started is named (at ulimit -n $n)"
	ERR=""
	if [ $RC -eq 1 ]; then ok "... and the command exits 1"; else not_ok "... exit $RC, wanted 1"; fi
	expect_output "^  [^ ]+: not started" "the summary names the target not started"
	expect_output "stopping every target" "the targets started are stopped"
	expect_output "^  [^ ]+: run [0-9]+ interrupted" "... and named interrupted"
	check "... and no run on them finished" sql "$TMP/fd.db" '
assert c.execute("select count(*) from runs where finished_ms > 0").fetchone()[0] == 0
'
else
	not_ok "no descriptor limit made starting a target fail (last: $n, exit $RC)"
fi

# --- not under mpirun: a process per target does not cross MPI ------------------------
MPI_DB="${DB%/drivebench}/drivebench-mpi"
if [ -x "$MPI_DB" ] && command -v mpirun >/dev/null; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	OUT=$(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" timeout 120 \
		mpirun --oversubscribe --bind-to none -x ASAN_OPTIONS -np 2 "$MPI_DB" \
		"${S[@]}" --db "$TMP/mpi.db" "$A" "$B" 2>&1)
	RC=$?; ERR=""
	if [ $RC -eq 2 ]; then ok "several targets under mpirun are refused (exit 2)"
	else not_ok "several targets under mpirun are refused (exit $RC, wanted 2)"; fi
	expect_output "several targets at once do not run under mpirun" "the refusal says why"
	check "nothing was stored under mpirun" test ! -e "$TMP/mpi.db"
else
	skip "drivebench-mpi or mpirun missing (make mpi): no check of several targets under mpirun"
fi

# --- block devices: a loop device named twice, or with its backing file ---------------
if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null || ! losetup -f >/dev/null 2>&1; then
	skip "loop devices unavailable: no block-device duplicate check"
	exit 0
fi
truncate -s 16M "$TMP/loop.img"
LOOP=$(losetup -f --show "$TMP/loop.img")
trap 'losetup -d "$LOOP" 2>/dev/null; rm -rf "$TMP"' EXIT
ln -s "$LOOP" "$TMP/loop-link"
expect_exit 2 "a loop device under two names is refused" "${S[@]}" --db "$TMP/dup.db" \
	"$LOOP" "$TMP/loop-link"
expect_output "are the same device \($(basename "$LOOP")\)" "the device is named"
expect_exit 2 "a loop device and its backing file are refused" "${S[@]}" --db "$TMP/dup.db" \
	"$TMP/loop.img" "$LOOP"
expect_output "'$TMP/loop.img' is the file behind loop device $(basename "$LOOP")" \
	"the backing file is named"
