#!/bin/bash
# test_plan.sh - `drivebench plan`: the default suite is suite's, and it
# takes suite's options (--time-scale ...) and a model file's rated
# figures; the review suite on a 245.76 TB drive at 3 GB/s (two full
# fills ~45.5 h and the sprandom line), a TARGET's size, a suite by file,
# and bad inputs (exit 2). plan never touches the target.
. "$(dirname "$0")/lib.sh"

expect_exit 0 "plan with --capacity and rated figures" \
	plan --suite review --capacity 245.76TB --rated-write 3000 --rated-read 7000
expect_output "^suite review .*[0-9]+ steps on 245.76 TB" "the review suite"
expect_output "seq-fill-128k +precondition +491.52 TB +0 B +45:30:40" "two full fills: 491.52 TB in 45.5 hours"
expect_output "^total: 1.54 PB written, 274.89 TB read, 154:56:00" "the total"
expect_output "^sprandom would write [0-9.]+ TB instead of 491.52 TB \(saving [0-9.]+ hours\)" \
	"the sprandom comparison"
expect_output "rand-read-64k +sweep .* 24 points x 330 s" "read sweeps have 24 points"
expect_output "rand-write-64k +sweep .* 18 points x 330 s" "write sweeps have 18 points"

# one default suite for plan and suite: a plan without --suite is of what
# `suite` without --suite runs
expect_exit 0 "suite --help" suite --help
suite_default=$(printf '%s\n' "$OUT" | sed -n 's/.*(default: \([a-z0-9_-]*\);.*/\1/p' | head -1)
expect_exit 0 "plan without --suite" plan --capacity 1TB --rated-write 1000 --rated-read 2000
expect_output "^suite $suite_default \(" "plans suite's default suite ($suite_default)"
check "the default is a suite that exists" test -n "$suite_default"
expect_exit 0 "plan --help" plan --help
expect_output "default $suite_default," "plan --help names the same default"
expect_output "^usage: drivebench plan" "usage text"
expect_exit 0 "help lists plan" help
expect_output "^  plan " "plan in the command list"

# a TARGET: its size, nothing written
head -c 1048576 /dev/zero > "$TMP/drive.dat"
before=$(md5sum < "$TMP/drive.dat")
expect_exit 0 "plan on a file target" plan --suite quick --rated-write 1000 --rated-read 2000 "$TMP/drive.dat"
expect_output "^suite quick .*on 1.05 MB" "the target's size"
expect_output "^no sprandom comparison: .*smaller than 16 regions" "too small for sprandom: said, not fatal"
check "the target is untouched" test "$(md5sum < "$TMP/drive.dat")" = "$before"
check "no scratch file created" test ! -e "$DRIVEBENCH_SCRATCH"

# a suite by file, with a random rate
printf '[fill]\nstep = precondition\nprecondition = random\n' > "$TMP/own.suite"
expect_exit 0 "plan with a suite file" plan --suite "$TMP/own.suite" --capacity 1TB \
	--rated-write 1000 --rated-read 2000 --rated-random-write=500
expect_output "fill +precondition +1.00 TB +0 B +0:33:20 +1 x 1.00 TB random at 500 MB/s" \
	"a random fill at the random rate"
expect_output "^sprandom would write" "a random fill is compared too"

# bad inputs
expect_exit 2 "no target and no capacity" plan --rated-write 1 --rated-read 1
expect_exit 2 "both target and capacity" plan --capacity 1TB --rated-write 1 --rated-read 1 "$TMP/drive.dat"
expect_exit 2 "missing --rated-read" plan --capacity 1TB --rated-write 3000
expect_output "needs --rated-write and --rated-read" "names the missing figures"
expect_exit 2 "bad capacity" plan --capacity lots --rated-write 1 --rated-read 1
expect_output "--capacity: bad size 'lots'" "names the bad size"
expect_exit 2 "bad unit" plan --capacity 3XB --rated-write 1 --rated-read 1
expect_exit 2 "bad rate" plan --capacity 1TB --rated-write fast --rated-read 1
expect_output "--rated-write: bad throughput 'fast'" "names the bad rate"
expect_exit 2 "zero rate" plan --capacity 1TB --rated-write 0 --rated-read 1
expect_exit 2 "option without value" plan --capacity
expect_exit 2 "unknown option" plan --capacity 1TB --rated-write 1 --rated-read 1 --fast
expect_exit 2 "unknown suite" plan --suite no-such --capacity 1TB --rated-write 1 --rated-read 1
expect_output "no suite named 'no-such'" "names the suite"
printf '[x]\nstep = sweep\n' > "$TMP/bad.suite"
expect_exit 2 "bad suite file" plan --suite "$TMP/bad.suite" --capacity 1TB --rated-write 1 --rated-read 1
expect_output "bad.suite:1: step \[x\]: a sweep step needs points" "file:line of the bad step"
expect_exit 2 "missing target file" plan --rated-write 1 --rated-read 1 "$TMP/none.dat"
expect_exit 2 "two targets" plan --rated-write 1 --rated-read 1 "$TMP/drive.dat" "$TMP/drive.dat"

# --- what suite takes, suite plans (issue 28.11) -----------------------------
# a suite of timed points: plan at --time-scale F gives each point the
# times suite runs it with (the same suite_scale_time)
cat > "$TMP/timed.suite" <<'EOF2'
[suite]
name = timed

[global]
ioengine = psync
bs = 4k
time_based = 1
runtime = 2s
ramp_time = 1s

[purge]
step = purge

[sweep]
step = sweep
rw = randread
points = 1/1 2/1 4/1

[rest]
step = idle
idle = 4s
EOF2
expect_exit 0 "plan takes --time-scale" plan --suite "$TMP/timed.suite" --time-scale 0.1 \
	--rated-write 1000 --rated-read 2000 "$TMP/drive.dat"
expect_output "sweep +sweep .* 3 points x 0.3 s" "each point 0.1 x (2 s + 1 s ramp)"
expect_output "rest +idle .*0:00:00 +pause" "the idle step scaled too"
expect_output "purge +purge .*0:00:00 +a file's hole punch" "a file's purge is not a device discard"
expect_exit 0 "unscaled" plan --suite "$TMP/timed.suite" --rated-write 1000 --rated-read 2000 "$TMP/drive.dat"
expect_output "sweep +sweep .* 3 points x 3 s" "unscaled: 3 s a point"
expect_output "^total: .* 0:00:13 " "unscaled total: 9 s of points and 4 s idle"
expect_exit 2 "a --time-scale suite refuses, plan refuses" plan --suite "$TMP/timed.suite" \
	--time-scale 1000 --rated-write 1 --rated-read 1 "$TMP/drive.dat"
expect_output "time-scale.*1000" "the refusal names the scale"
expect_exit 2 "a --time-scale that is not a number" plan --suite "$TMP/timed.suite" \
	--time-scale soon --rated-write 1 --rated-read 1 "$TMP/drive.dat"
expect_output "--time-scale: 'soon' is not a number" "the refusal names the value"
# the suite's whole command line plans as it is (nothing stored, nothing written)
expect_exit 0 "plan takes suite's --target, --db, --label, --destroy-data, --max-buffer-mem" \
	plan --suite "$TMP/timed.suite" --time-scale 0.1 --rated-write 1 --rated-read 1 \
	--db "$TMP/plan.db" --label L --destroy-data "$TMP/drive.dat" --max-buffer-mem 64m \
	--target "$TMP/drive.dat"
check "plan stores nothing in --db" test ! -e "$TMP/plan.db"
check "and leaves the target as it was" test "$(md5sum < "$TMP/drive.dat")" = "$before"
# the estimate is what the suite takes: the same command line, run
start=$(date +%s%N)
expect_exit 0 "the suite planned runs" suite --suite "$TMP/timed.suite" --time-scale 0.1 \
	--db "$TMP/timed.db" --destroy-data "$TMP/drive.dat" "$TMP/drive.dat"
took=$(( ($(date +%s%N) - start) / 1000000 ))
# (this test shares the machine and runs under ASan: the bound is the
# unscaled suite's 13 s, which its time-based points cannot run under)
check "it took about the planned 1.3 s, not the unscaled 13 s (took $took ms)" \
	test "$took" -ge 1200 -a "$took" -lt 10000

# a modelled drive: the rated figures are its model file's
spec=specs/micron-6600-ion-245t.ini
w=$(sed -n 's/^seq_write_mbs *= *//p' "$spec")
r=$(sed -n 's/^seq_read_mbs *= *//p' "$spec")
expect_exit 0 "plan on a modelled drive needs no --rated-*" plan "vssd:$spec@8g" --time-scale 0.01
expect_output "^suite quick .* on 8.59 GB, write $w MB/s, read $r MB/s, random write [0-9]+ MB/s" \
	"the model file's [rated] figures ($w, $r MB/s)"
expect_exit 0 "a --rated-* option overrides the model file's" plan "vssd:$spec@8g" --rated-write 100
expect_output "write 100 MB/s, read $r MB/s" "the option's figure, the file's other"
expect_exit 2 "a model file without [rated] needs the figures" plan vssd:models/generic-qlc.ini@8g
expect_output "models/generic-qlc.ini: no \[rated\] seq_write_mbs to plan with: give --rated-write" \
	"the refusal names the file, the key and the option"
expect_exit 0 "with them given it plans" plan vssd:models/generic-qlc.ini@8g --rated-write 100 --rated-read 200

# steady rounds: the upper bound and, when the steps may end sooner, the least
printf '[global]\nioengine=psync\ntime_based=1\nruntime=1s\n[s]\nstep = steady\nrw = randwrite\nbs = 4k\nwindow = 3\nmax_rounds = 10\n' \
	> "$TMP/steady.suite"
expect_exit 0 "plan a steady step" plan --suite "$TMP/steady.suite" --capacity 1TB \
	--rated-write 1000 --rated-read 2000
expect_output "^total: .* 0:00:10 " "the upper bound: 10 rounds of 1 s"
expect_output "^at least 0:00:03 .*steady after its first window" "the least: one window of 3 rounds"
expect_exit 0 "plan without a steady step" plan --suite "$TMP/timed.suite" --capacity 1TB \
	--rated-write 1000 --rated-read 2000
check "no lower bound where there is nothing to bound" \
	sh -c '! printf "%s\n" "$1" | grep -q "^at least"' _ "$OUT"
