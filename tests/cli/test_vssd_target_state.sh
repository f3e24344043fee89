#!/bin/bash
# test_vssd_target_state.sh - vssd_state=FILE on a vssd: target (issue
# 29.9): `run --filename=vssd:MODEL@SCALE` fills and saves the drive, a
# second process reads mapped IUs and its snapshot before the job is the
# saved drive; `info --vssd-state` shows it; a suite with --set vssd_state=
# runs every step (its checkpoint jobs too) on the saved drive, from the
# run's first snapshot on, and its purge's format is saved; a suite killed
# after its fill resumes on the filled drive (without vssd_state on a fresh
# one, with a warning); refusals by name, exit 2 (a
# file of another scale, a FIFO, a directory, a character device, two
# files for one drive, one file for several targets, --vssd-state on a
# file target or with no file).
. "$(dirname "$0")/lib.sh"

m="$(pwd)/tests/data/models/test-tlc.ini"
t="vssd:$m@512m"
run_on="run --filename=$t --ioengine=vssd --vssd_model=$m --vssd_scale=512m"
rr="--name=r --rw=randread --bs=4k --iodepth=1 --runtime=300ms --time_based"
clat() { printf '%s\n' "$OUT" | awk -F';' '$3 == "r" { print int($16) }'; }
# reads_mapped DB RUN: the suite's step rr in run RUN read mapped IUs (a
# NAND read: mean clat >= 40 us, an unwritten IU's is 5 us); python's
# start is most of a check here, so each check asks all it needs at once
reads_mapped='
run = int(RUN)
v = c.execute("""select max(d.clat_mean) from results r join result_dirs d on d.result_id = r.id
                 where r.run_id = ? and r.job_name = ?""", (run, "rr")).fetchone()[0]
print("# run %d: rr clat %.0f us" % (run, (v or 0) / 1e3))
assert v and v >= 40e3, v
'

# --- run on the target --------------------------------------------------------
expect_exit 0 "ioengine=vssd on $t takes its model and scale from the target" run \
	--db="$TMP/aim.db" --filename="$t" --ioengine=vssd $rr
check "... and stores them as the job's options" sql "$TMP/aim.db" '
import json
o = json.loads(c.execute("select options_json from results").fetchone()[0])
assert o["ioengine"] == "vssd" and o["vssd_model"] == "'"$m"'" and o["vssd_scale"] == "512m", o
'
expect_exit 0 "a job with no ioengine on $t runs on the model (the target's default engine)" \
	run --db="$TMP/aim-default.db" --filename="$t" $rr
check "... stored as ioengine=vssd with the target's model and scale" sql "$TMP/aim-default.db" '
import json
o = json.loads(c.execute("select options_json from results").fetchone()[0])
assert o["ioengine"] == "vssd" and o["vssd_model"] == "'"$m"'" and o["vssd_scale"] == "512m", o
'
printf '[global]\nfilename=%s\n[rr]\nrw=randread\nbs=4k\nsize=1m\n' "$t" >"$TMP/noengine.fio"
expect_exit 0 "... and from a job file whose [global] names the target" run --no-db "$TMP/noengine.fio"
expect_exit 2 "... not when the job names a scale of its own without a model" run --no-db \
	--filename="$t" --ioengine=vssd --vssd_scale=1g $rr
expect_output "ioengine=vssd needs vssd_model=" "... (it says what is missing)"
expect_exit 2 "another engine on a vssd: target stays an error" run --no-db --filename="$t" \
	--ioengine=psync $rr
expect_output "is a modelled drive: it takes ioengine=vssd, not ioengine=psync" "... naming both"
expect_exit 0 "a fill on $t with vssd_state= runs" $run_on --no-db --name=f --rw=write \
	--bs=128k --iodepth=16 --vssd_state="$TMP/run.state"
check "... and saves the drive" [ -s "$TMP/run.state" ]
expect_exit 0 "a second process on the target loads it" $run_on --db="$TMP/run.db" \
	--output-format=terse $rr --vssd_state="$TMP/run.state"
check "... its reads meet mapped IUs (clat $(clat) us: a NAND read)" [ "$(clat)" -ge 40 ]
check "... its snapshot before the job is the saved drive, its delta the job's own" sql "$TMP/run.db" '
import json
before, delta = c.execute("select drive_before, drive_delta from results").fetchone()
h = json.loads(before)["nvme"]["health"]
assert int(h["host_bytes_written"]) >= 512 << 20, h
assert json.loads(delta)["host_bytes_written"] == "0", delta
'
expect_exit 0 "info --vssd-state shows the saved drive" info --json --vssd-state "$TMP/run.state" "$t"
expect_output '"host_bytes_written":[[:space:]]*"53[0-9]{7}"' "... with the fill's host bytes written"
expect_exit 2 "info --vssd-state with no such file is refused" info --vssd-state "$TMP/none.state" "$t"
expect_output "none.state" "... naming it"
expect_exit 2 "info --vssd-state on a target that is no model is refused" \
	info --vssd-state "$TMP/run.state" "$TMP/run.state"
expect_output "is not a modelled drive" "... saying so"

# --- a suite on the target ----------------------------------------------------
cat >"$TMP/state.suite" <<'SUITE'
[suite]
name = state
[global]
ioengine = io_uring
direct = 1
time_based = 1
runtime = 300ms
[purge]
step = purge
[fill]
step = precondition
precondition = sequential
capacities = 1
bs = 128k
iodepth = 16
[ckpt]
step = checkpoint
checkpoint_size = 16MB
ranks = 2
count = 1
passes = 1
[wait]
step = idle
idle = 60s
[rr]
step = measure
rw = randread
bs = 4k
iodepth = 1
SUITE
s="suite --suite $TMP/state.suite"
db="$TMP/suite.db"
expect_exit 0 "a suite on $t with --set vssd_state= runs" $s --skip wait --db="$db" \
	--set vssd_state="$TMP/s.state" "$t"
expect_output "starts fresh and is saved in .*s.state" "... saying the drive starts fresh"
check "... and saves the drive" [ -s "$TMP/s.state" ]
check "... its steps (the checkpoint's jobs too) ran with the state file, rr on the filled drive" \
	sql "$db" "RUN = 1
$reads_mapped"'
import json
names = [r[0] for r in c.execute("select job_name from results")]
assert any(n.startswith("pass") for n in names), names
for (o,) in c.execute("select options_json from results where job_name in (\"fill\", \"rr\")"):
    assert json.loads(o)["vssd_state"].endswith("s.state"), o
'
expect_exit 0 "a second suite process meets the saved drive" $s --only rr --db="$db" \
	--set vssd_state="$TMP/s.state" "$t"
expect_output "is the one saved in .*s.state" "... saying so"
check "... from the run's first snapshot on, its reads on the filled drive" sql "$db" "RUN = 2
$reads_mapped"'
import json
d = json.loads(c.execute("select drive_json from runs where id = 2").fetchone()[0])
assert int(d["nvme"]["health"]["host_bytes_written"]) >= 512 << 20, d["nvme"]["health"]
'
expect_exit 0 "a suite's purge alone" $s --only purge --db="$db" --set vssd_state="$TMP/s.state" "$t"
expect_exit 0 "... saves the formatted drive: the next process reads unmapped IUs" \
	$run_on --no-db --output-format=terse $rr --vssd_state="$TMP/s.state"
check "... (clat $(clat) us: no NAND read)" [ "$(clat)" -lt 20 ]

# --- resume: killed after the fill, the resumed suite meets the filled drive --
rdb="$TMP/resume.db"
$DB $s --skip ckpt --db="$rdb" --set vssd_state="$TMP/r.state" "$t" 2>"$TMP/bg.err" &
pid=$!
for _ in $(seq 1 300); do   # up to 30 s for the fill (under ASan: slower)
	grep -q "wait idle: started" "$TMP/bg.err" && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
{ kill -9 $pid; wait $pid; } 2>/dev/null   # (the shell's "Killed" line too)
check "the suite was killed in its idle step, after the fill" grep -q "wait idle: started" "$TMP/bg.err"
for f in "$rdb"*; do cp "$f" "$TMP/nostate.db${f#"$rdb"}"; done   # the run as killed, twice
expect_exit 0 "resumed without vssd_state, the suite completes" $s --resume --skip ckpt,wait \
	--db="$TMP/nostate.db" "$t"
expect_output "warning: the modelled drive $t was not saved \(no vssd_state\): the resumed steps run on a fresh drive" \
	"... warning that its drive is a fresh one"
check "... whose reads meet unmapped IUs" sql "$TMP/nostate.db" '
v = c.execute("select max(d.clat_mean) from results r join result_dirs d on d.result_id = r.id where r.job_name = ?", ("rr",)).fetchone()[0]
assert v and v < 20e3, v
'
expect_exit 0 "the resumed suite completes" $s --resume --skip ckpt,wait --db="$rdb" \
	--set vssd_state="$TMP/r.state" "$t"
expect_output "is the one saved in .*r.state" "... on the saved drive"
check "... with no warning" sh -c "! printf '%s' \"\$1\" | grep -q 'was not saved'" _ "$OUT$ERR"
check "... one run, the fill kept, rr measured on the filled drive" sql "$rdb" "RUN = 1
$reads_mapped"'
assert c.execute("select count(*) from runs").fetchone()[0] == 1
assert c.execute("select count(*) from results where job_name = ?", ("fill",)).fetchone()[0] == 1
'

# --- refusals -----------------------------------------------------------------
expect_exit 2 "a state file of another scale is refused" $s --only rr --db="$db" \
	--set vssd_state="$TMP/s.state" "vssd:$m@1g"
expect_output "s.state: the file is of another drive \(model=test TLC model, scale=512m\), not of test TLC model at scale 1g" \
	"... naming the file and both drives"
expect_exit 2 "... and on a run's target" run --no-db --filename="vssd:$m@1g" --ioengine=vssd \
	--vssd_model="$m" --vssd_scale=1g $rr --vssd_state="$TMP/s.state"
expect_output "s.state: the file is of another drive" "... naming the file"
mkfifo "$TMP/fifo.state"
mkdir "$TMP/dir.state"
for bad in fifo:"a FIFO" dir:"Is a directory"; do
	expect_exit 2 "a ${bad%%:*} as the state file is refused" $s --db="$db" \
		--set vssd_state="$TMP/${bad%%:*}.state" "$t"
	expect_output "vssd_state file '$TMP/${bad%%:*}.state': (it is )?${bad#*:}" "... naming it"
done
expect_exit 2 "a character device as the state file is refused" $s --db="$db" \
	--set vssd_state=/dev/null "$t"
expect_output "vssd_state file '/dev/null': it is a character device" "... naming it"
expect_exit 2 "two state files for the suite's one drive are refused" $s --db="$db" \
	--set vssd_state="$TMP/a.state" --set rr.vssd_state="$TMP/b.state" "$t"
expect_output "name different vssd_state files \(.*a.state, .*b.state\)" "... naming both"
expect_exit 2 "one state file for several targets is refused" $s --db="$db" \
	--set vssd_state="$TMP/a.state" "$t" "vssd:$m@1g"
expect_output "vssd_state=.*a.state: one state file is one drive's" "... saying why"
check "nothing was written for the refused ones" [ ! -e "$TMP/a.state" -a ! -e "$TMP/b.state" ]
