#!/bin/bash
# test_plan.sh - `drivebench plan`: the default suite is suite's; the review suite on a 245.76 TB drive at
# 3 GB/s (two full fills ~45.5 h and the sprandom line), a TARGET's size,
# a suite by file, and bad inputs (exit 2). plan never touches the target.
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
