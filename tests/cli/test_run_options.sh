#!/bin/bash
# test_run_options.sh - the option table `run` and `verify` share
# (cmd/run_command.h): every bad value is refused by name with exit 2 and
# nothing run or stored; --help comes from the table; verify takes run's
# options itself (no argv handed on) and its own errors name the problem.
. "$(dirname "$0")/lib.sh"

job="--name=j --ioengine=null --rw=read --bs=4k --size=1m"

expect_exit 2 "run --terse-version=7 is refused" run --terse-version=7 $job
expect_output "--terse-version: '7' is not 2, 3, 4 or 5" "... naming the option and value"
expect_exit 2 "run --output-format=xml is refused" run --output-format=xml $job
expect_output "--output-format: unknown format 'xml'" "... naming the format"
expect_exit 2 "run --output-format=json,, is refused" run --output-format=json,, $job
expect_output "--output-format: bad format list 'json,,'" "... naming the list"
expect_exit 2 "run --max-buffer-mem=0 is refused" run --max-buffer-mem=0 $job
expect_output "--max-buffer-mem: bad size '0'" "... naming the size"
expect_exit 2 "run --max-buffer-mem without a value is refused" run $job --max-buffer-mem
expect_output "--max-buffer-mem needs a value" "... saying it needs one"
expect_exit 2 "run with two job files is refused" run a.fio b.fio
expect_output "unexpected argument 'b.fio' \(one job file at most\)" "... naming the second"
expect_exit 2 "run --section without a job file is refused" run --section=x $job
expect_output "--section x: needs a job file" "... saying why"
expect_exit 2 "run --no-db=1 is refused (a flag takes no value)" run --no-db=1 $job
expect_output "--no-db takes no value" "... naming the flag"
expect_exit 2 "run without jobs is refused" run --no-db
expect_output "no jobs: give a job file or fio options" "... saying what to give"
[ ! -e "$DRIVEBENCH_DB" ] && ok "nothing was stored by the refused runs" ||
	not_ok "a refused run created $DRIVEBENCH_DB"

# the last of --minimal and --output-format wins, as in fio's order of
# arguments
expect_exit 0 "--output-format=json after --minimal prints JSON" \
	run --no-db --minimal --output-format=json $job
expect_output '"fio version"' "... the JSON"
expect_exit 0 "--minimal after --output-format=json prints the terse line" \
	run --no-db --output-format=json --minimal $job
if printf '%s\n' "$OUT" | grep -q '^3;'; then ok "... terse version 3"; else
	not_ok "... no terse line: $OUT"; fi

expect_exit 0 "run --help is the table's" run --help
expect_output "^  --max-buffer-mem SIZE" "... every option with its value's name"
expect_exit 0 "verify --help lists run's options as its own" verify --help
expect_output "^  --seed N" "... verify's"
expect_output "^  --terse-version N" "... and run's"

# verify's own errors
expect_exit 2 "verify --seed and --run together are refused" verify --seed 1 --run 1 $job
expect_output "give --seed or --run, not both" "... saying so"
expect_exit 2 "verify --run with --no-db is refused" verify --run 1 --no-db
expect_output "--run needs the database \(not --no-db\)" "... saying why"
expect_exit 2 "verify without a job or run is refused" verify --seed 5
expect_output "no job: give a job file or fio options, or --run ID" "... saying what to give"
expect_exit 2 "verify --run 1x is refused" verify --run 1x
expect_output "--run: bad number '1x'" "... naming the value"
expect_exit 2 "verify --terse-version=9 is refused like run's" verify --seed 1 --terse-version=9 $job
expect_output "drivebench verify: --terse-version: '9' is not 2, 3, 4 or 5" "... under verify's name"

# a write and its verify through the shared path: the seed from the store
f="$TMP/v.dat"
expect_exit 0 "a verified write is stored" run --db "$TMP/v.db" --name=w --filename="$f" \
	--rw=write --bs=4k --size=256k --verify=crc32c --do_verify=0
expect_exit 0 "verify --run 1 reads it back with the stored jobs and seed" \
	verify --db "$TMP/v.db" --run 1
expect_output "checked 64 of 64 units" "... every unit of the write"
expect_output "results stored in $TMP/v.db as run 2" "... and stores the verify as a run"

# --no-db with --db FILE: conflicting, refused naming both (either order)
expect_exit 2 "run --no-db --db FILE is refused" run --no-db --db "$TMP/nodb.db" $job
expect_output "drivebench run: --no-db and --db $TMP/nodb.db conflict" "... naming both"
expect_exit 2 "run --db=FILE --no-db is refused too" run --db="$TMP/nodb.db" --no-db $job
expect_output "--no-db and --db $TMP/nodb.db conflict" "... in that order as well"
expect_exit 2 "verify --no-db --db FILE is refused" verify --seed 1 --no-db --db "$TMP/nodb.db" $job
expect_output "drivebench verify: --no-db and --db $TMP/nodb.db conflict" "... under verify's name"
check "no database was made" test ! -e "$TMP/nodb.db"
expect_exit 0 "--no-db with \$DRIVEBENCH_DB set runs (only --db conflicts)" run --no-db $job
