#!/bin/bash
# test_parser.sh - fio's job-file parser behaviours that change what runs,
# with the job files of tests/data/jobs/parser-*.fio: a ${VAR} set to
# nothing is empty (an unset one is refused), --section runs only the sections named, --set runtime=1 completes
# a time_based job, and $mb_memory / $ncpus / $pagesize arithmetic and
# expressions in parentheses give the sizes fio computes.
. "$(dirname "$0")/lib.sh"

JOBS=$(cd "$(dirname "$0")/../data/jobs" && pwd)

json() {
	printf '%s' "$OUT" | python3 -c "
import json, sys
d = json.load(sys.stdin)
jobs = d['jobs']
$1"
}

# --- ${VAR} -----------------------------------------------------------------
unset DB_FILES_UNSET
run_db run --no-db --output-format=json "$JOBS/parser-env.fio"
check "an unset \${VAR} is refused (fio makes it empty)" test "$RC" -eq 2
expect_output "parser-env.fio:8: environment variable 'DB_FILES_UNSET' is not set" "... naming file, line and variable"
DB_FILES_UNSET= run_db run --no-db --output-format=json "$JOBS/parser-env.fio"
check "a \${VAR} set to nothing is empty: the job runs" test "$RC" -eq 0
check "size=16k\${EMPTY} is 16k" json 'assert jobs[0]["read"]["io_bytes"] == 16384'
check "iodepth=\${EMPTY}2 is 2" json 'assert jobs[0]["job options"]["iodepth"] == "2"'
check "the section name is not expanded (fio keeps it)" json 'assert jobs[0]["jobname"] == "env-${DB_FILES_UNSET}", jobs[0]["jobname"]'
DB_FILES_UNSET=00 run_db run --no-db --output-format=json "$JOBS/parser-env.fio"
check "a set \${VAR} is its value: size=16k00 is a bad size" test "$RC" -eq 2
expect_output "option 'size': bad size '16k00'" "the error shows the expanded value"

# --- --section ----------------------------------------------------------------
run_db run --no-db --output-format=json "$JOBS/parser-sections.fio" --section light
check "--section light runs only light" json 'assert [j["jobname"] for j in jobs] == ["light"]'
check "--section keeps [global]" json 'assert jobs[0]["read"]["io_bytes"] == 65536'
run_db run --no-db --output-format=json "$JOBS/parser-sections.fio" --section=heavy \
	--section light --set runtime=1
check "--section twice runs both, in file order" json 'assert [j["jobname"] for j in jobs] == ["light", "heavy"]'
expect_exit 2 "--section of a missing section is refused" run --no-db "$JOBS/parser-sections.fio" --section nope
expect_output "parser-sections.fio: --section nope: no such section" "the error names the section"
expect_exit 2 "--section needs a job file" run --no-db --name=x --size=4k --ioengine=null --section x
expect_output "--section x: needs a job file" "the error says so"

# --- --set runtime=1 and time_based ------------------------------------------
expect_exit 2 "time_based without a runtime is refused" run --no-db "$JOBS/parser-sections.fio" --section heavy
expect_output "parser-sections.fio:12: job 'heavy': option 'time_based': needs a runtime" \
	"the error names the job file and line"
run_db run --no-db --output-format=json "$JOBS/parser-sections.fio" --section heavy --set runtime=1
check "--set runtime=1 completes the time_based job" test "$RC" -eq 0
check "the time_based job ran for its runtime" json 'assert 900 <= jobs[0]["read"]["runtime"] <= 60000, jobs[0]["read"]["runtime"]'
run_db run --no-db --output-format=json --name=x --ioengine=null --size=4k --time_based --set runtime=1
check "--set runtime=1 completes a command-line time_based job too" test "$RC" -eq 0

# --- $mb_memory, $ncpus, $pagesize, expressions ---------------------------------
MB=$(( $(getconf _PHYS_PAGES) * $(getconf PAGESIZE) / 1048576 ))
PAGE=$(getconf PAGESIZE)
CPUS=$(getconf _NPROCESSORS_CONF)
run_db run --no-db --output-format=json "$JOBS/parser-math.fio"
check "the arithmetic jobs run" test "$RC" -eq 0
check "size=5*1024*1024*\$mb_memory/8 is 5/8 of the memory ($MB MiB)" \
	json "assert jobs[0]['job options']['size'] == str(5 * 1024 * 1024 * $MB // 8), jobs[0]['job options']"
check "bs=\$pagesize is $PAGE" json "assert jobs[0]['job options']['bs'] == '$PAGE'"
check "numjobs=\$ncpus makes $CPUS clones" json "assert sum(j['jobname'] == 'cpus' for j in jobs) == $CPUS"
check "size=8*\$pagesize is eight pages" json "assert [j for j in jobs if j['jobname'] == 'cpus'][0]['read']['io_bytes'] == 8 * $PAGE"
check "size=(4k*3) is 12 KiB, bs=(2*2)k is 4 KiB" \
	json "p = [j for j in jobs if j['jobname'] == 'paren'][0]['read']; assert p['io_bytes'] == 12288 and p['total_ios'] == 3, p"
expect_exit 2 "a bad expression is refused" run --no-db --name=x --ioengine=null --size='(4k*)'
expect_output "bad expression '\(4k\*\)': a number is missing" "the error names the expression"
