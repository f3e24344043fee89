#!/bin/bash
# test_suite_logs.sh - a suite's fio logs (issue 28.14): `--set
# write_bw_log=NAME` gives every step the name, and each job of the suite
# (a step at one of its points) writes its own files, NAME-STEP-POINT, so
# no point overwrites another; a log name two jobs would still share is
# refused before the run, naming both.
. "$(dirname "$0")/lib.sh"

target="$TMP/target.dat"
dd if=/dev/zero of="$target" bs=1M count=16 status=none
cat > "$TMP/logs.suite" <<'EOF2'
[suite]
name = logs

[global]
ioengine = psync
bs = 4k
time_based = 1
runtime = 200ms
log_avg_msec = 50

[fill]
step = precondition
precondition = sequential
capacities = 1
bs = 128k

[steady]
step = steady
rw = randwrite
metric = iops
window = 2
max_rounds = 2
range_limit = 0.000001

[sweep]
step = sweep
rw = randread
points = 1/1 2/1 4/1

[once]
step = measure
rw = read
EOF2
cd "$TMP" || exit 1

expect_exit 0 "a suite with --set write_bw_log=NAME runs" suite --suite "$TMP/logs.suite" \
	--db "$TMP/a.db" --destroy-data "$target" --set write_bw_log=bw "$target"
want="bw-fill_bw.1.log bw-steady-round1_bw.1.log bw-steady-round2_bw.1.log
bw-sweep-qd1-j1_bw.1.log bw-sweep-qd2-j1_bw.1.log bw-sweep-qd4-j1_bw.1.log bw-once_bw.1.log"
missing=""
for f in $want; do [ -e "$TMP/$f" ] || missing="$missing $f"; done
check "every job wrote its own bandwidth log, named by step and point (missing:$missing)" \
	test -z "$missing"
check "no log under the bare name NAME" test ! -e "$TMP/bw_bw.1.log"
# the sweep's points each hold their own run: QD 1, 2 and 4 are different logs
check "the sweep's three logs are three runs, not one file copied" \
	test "$(md5sum "$TMP"/bw-sweep-qd*_bw.1.log | cut -d' ' -f1 | sort -u | wc -l)" = 3

# a step's own name: the step's jobs only
expect_exit 0 "--set sweep.write_iops_log=io logs only the sweep" suite \
	--suite "$TMP/logs.suite" --db "$TMP/b.db" --destroy-data "$target" \
	--only sweep --set sweep.write_iops_log=io "$target"
check "the sweep's points are io-sweep-qdN-j1" test -s "$TMP/io-sweep-qd1-j1_iops.1.log" -a \
	-s "$TMP/io-sweep-qd2-j1_iops.1.log" -a -s "$TMP/io-sweep-qd4-j1_iops.1.log"

# a point listed twice would write one file twice: refused before any I/O
sed 's#^points = 1/1 2/1 4/1#points = 1/1 2/1 1/1#' "$TMP/logs.suite" > "$TMP/twice.suite"
rm -f "$TMP"/bw-*.log
expect_exit 2 "a log name two points would share is refused" suite --suite "$TMP/twice.suite" \
	--db "$TMP/c.db" --destroy-data "$target" --set write_bw_log=bw "$target"
expect_output "write_bw_log: jobs 'sweep-qd1-j1' and 'sweep-qd1-j1' of the suite would write the same log files [(]'bw-sweep-qd1-j1_...'[)]" \
	"the refusal names the option, both jobs and the file"
check "refused before the run: no log was written" test -z "$(ls "$TMP" | grep '^bw-')"
# also without a name: the job's own name is the file's
expect_exit 2 "a bare write_lat_log two points would share is refused too" suite \
	--suite "$TMP/twice.suite" --db "$TMP/c.db" --destroy-data "$target" \
	--set write_lat_log=1 --only sweep "$target"
# a step whose name is another's point
printf '\n[sweep-qd2-j1]\nstep = measure\nrw = read\n' >> "$TMP/logs.suite"
expect_exit 2 "a step named as another step's point is refused when both log" suite \
	--suite "$TMP/logs.suite" --db "$TMP/d.db" --destroy-data "$target" \
	--set write_bw_log=bw "$target"
expect_output "jobs 'sweep-qd2-j1' and 'sweep-qd2-j1'" "the refusal names the job"
# without logs the same suite runs (nothing shared)
expect_exit 0 "without logs a suite naming a step as a point runs" suite \
	--suite "$TMP/logs.suite" --db "$TMP/d.db" --destroy-data "$target" --only once "$target"
# a name with the job's added that no longer fits is refused before the run
long=$(printf 'l%.0s' $(seq 1015))
expect_exit 2 "a log name too long once the job is added is refused" suite \
	--suite "$TMP/logs.suite" --db "$TMP/e.db" --destroy-data "$target" \
	--set write_bw_log="$long" "$target"
expect_output "step 'steady': the log name of job 'steady-round1' is longer than 1023 characters" \
	"the refusal names the step and the job"
