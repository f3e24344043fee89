#!/bin/bash
# test_checkpoint.sh - `drivebench checkpoint`: a scaled run (4 ranks, tiny
# sizes, 3 passes x 3 checkpoints) on a scratch directory, its stored
# results, the overwrite in place, --plan and --plan --json, the read-back,
# and bad input (exit 2).
. "$(dirname "$0")/lib.sh"

sql() { sqlite3 "$DRIVEBENCH_DB" "$1"; }

# --plan: the per-rank files and the total, nothing written
expect_exit 0 "--plan in explicit mode" checkpoint --checkpoint-size 8MB --ranks 4 --plan
expect_output "^total: 8000000 bytes \(8.0 MB" "the plan's total"
check "--plan lists 2 files per rank" test "$(printf '%s\n' "$OUT" | grep -c '_states.pt')" -eq 8
expect_exit 0 "--plan --json" checkpoint --checkpoint-size 8MB --ranks 4 --plan --json
check "--plan --json has total_bytes" test "$(printf '%s' "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["total_bytes"], len(d["files"]))')" = "8000000 8"
expect_exit 0 "--plan for a built-in model" checkpoint --model llama3-8b --plan
expect_output "^total: [0-9]+ bytes .* over 8 ranks" "llama3-8b over 8 ranks"
expect_exit 0 "checkpoint --help" checkpoint --help
expect_output "^usage: drivebench checkpoint" "usage text"
expect_exit 0 "help lists checkpoint" help
expect_output "^  checkpoint " "checkpoint in the command list"

# the scaled run: 3 passes of 3 checkpoints of 8 MB
mkdir "$TMP/ckpt"
expect_exit 0 "three passes of three checkpoints" \
	checkpoint --checkpoint-size 8MB --ranks 4 --count 3 --passes 3 "$TMP/ckpt"
expect_output "^pass 2 checkpoint 3/3: 8.0 MB in [0-9.]+ s, [0-9.]+ GB/s" "a progress line per checkpoint"
expect_output "^3 +3 +[0-9.]+ +[0-9.]+ +0.024" "the pass means table"
check "9 results stored" test "$(sql "select count(*) from results")" -eq 9
check "named passP-ckptNNN" test "$(sql "select group_concat(job_name, ' ') from (select job_name from results order by id)")" = \
	"pass1-ckpt001 pass1-ckpt002 pass1-ckpt003 pass2-ckpt001 pass2-ckpt002 pass2-ckpt003 pass3-ckpt001 pass3-ckpt002 pass3-ckpt003"
check "each checkpoint moved the plan's total" test "$(sql "select count(*) from (select r.id, sum(d.bytes) b from results r join result_dirs d on d.result_id = r.id group by r.id) where b = 8000000")" -eq 9
check "one step per pass" test "$(sql "select group_concat(name || ':' || status, ',') from steps")" = "pass 1:done,pass 2:done,pass 3:done"
check "the run's source is checkpoint" test "$(sql "select source from runs")" = "checkpoint"
check "three checkpoint directories" test "$(ls "$TMP/ckpt" | tr '\n' ' ')" = "ckpt-001 ckpt-002 ckpt-003 "
check "8 files in each" test "$(find "$TMP/ckpt" -type f | wc -l)" -eq 24
ls -i "$TMP"/ckpt/ckpt-002 > "$TMP/inodes1"

# overwrite in place: the same files (same inodes), no new ones
expect_exit 0 "another run over the same checkpoints" \
	checkpoint --checkpoint-size 8MB --ranks 4 --count 3 --passes 2 "$TMP/ckpt"
ls -i "$TMP"/ckpt/ckpt-002 > "$TMP/inodes2"
check "same inodes after more passes" cmp -s "$TMP/inodes1" "$TMP/inodes2"
check "still 24 files" test "$(find "$TMP/ckpt" -type f | wc -l)" -eq 24
check "file sizes as planned" test "$(stat -c %s "$TMP/ckpt/ckpt-001/zero_pp_rank_0_mp_rank_0_optim_states.pt")" -eq 1714286

# read-back, --no-fsync, --fill
mkdir "$TMP/ckpt2"
expect_exit 0 "read-back pass" checkpoint --checkpoint-size 4MB --ranks 2 --count 2 --passes 1 \
	--readback --no-fsync "$TMP/ckpt2"
expect_output "^read-back checkpoint 2/2: 4.0 MB" "read-back progress"
expect_output "page cache" "says whether the page cache was dropped"
check "read-back results" test "$(sql "select count(*) from results where job_name like 'read-ckpt%'")" -eq 2

# a file drivebench did not create is refused (exit 3)
mkdir -p "$TMP/foreign/ckpt-001"
head -c 1000 /dev/urandom > "$TMP/foreign/ckpt-001/zero_pp_rank_0_mp_rank_0_model_states.pt"
expect_exit 3 "refuses a file it did not create" checkpoint --checkpoint-size 4MB --ranks 2 --count 1 --passes 1 "$TMP/foreign"

# bad input: exit 2
expect_exit 2 "no size" checkpoint --plan
expect_exit 2 "size without ranks" checkpoint --checkpoint-size 8MB --plan
expect_exit 2 "unknown model" checkpoint --model gpt-9 --plan
expect_exit 2 "bad size" checkpoint --checkpoint-size lots --ranks 2 --plan
expect_exit 2 "bad fill" checkpoint --checkpoint-size 8MB --ranks 2 --fill 2 "$TMP/ckpt"
expect_exit 2 "zero ranks" checkpoint --checkpoint-size 8MB --ranks 0 --plan
expect_exit 2 "bad zero stage" checkpoint --model llama3-8b --zero 5 --plan
expect_exit 2 "unknown option" checkpoint --checkpoint-size 8MB --ranks 2 --bogus --plan
expect_exit 2 "no directory" checkpoint --checkpoint-size 8MB --ranks 2
expect_exit 2 "missing directory" checkpoint --checkpoint-size 8MB --ranks 2 "$TMP/none"
expect_exit 2 "a file, not a directory" checkpoint --checkpoint-size 8MB --ranks 2 "$DRIVEBENCH_DB"
expect_output "not a directory" "says why"
expect_exit 2 "too big to fit" checkpoint --checkpoint-size 1000PB --ranks 2 "$TMP/ckpt"
expect_output "not one checkpoint" "says why"

# SIGINT stops within a second; what completed is stored, the run partial
mkdir "$TMP/ckpt3"
rm -f "$DRIVEBENCH_DB"
"$DB" checkpoint --checkpoint-size 16MB --ranks 2 --count 2 --passes 1000 "$TMP/ckpt3" \
	>"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
sleep 1
start=$(date +%s%N)
kill -INT $pid
wait $pid
rc=$?
took=$(( ($(date +%s%N) - start) / 1000000 ))
check "SIGINT: exit 1 (partial)" test "$rc" -eq 1
check "SIGINT: stopped within a second (${took} ms)" test "$took" -lt 1500
check "SIGINT: the run is stored as partial" test "$(sql "select partial from runs")" -eq 1
check "SIGINT: results so far stored" test "$(sql "select count(*) from results")" -ge 1

# the suite step: quick.suite's checkpoint step next to a file target, and
# its report section
rm -f "$DRIVEBENCH_DB"
expect_exit 0 "quick.suite's checkpoint step" suite --suite quick --only checkpoint "$TMP/target.dat"
check "suite: 3 passes x 3 checkpoints stored" test "$(sql "select count(*) from results where job_name like 'pass_-ckpt00_'")" -eq 9
check "suite: written next to the target" test "$(find "$TMP/target.dat.checkpoints" -type f | wc -l)" -eq 24
expect_exit 0 "report with checkpoints" report --out "$TMP/report.html"
check "report: the checkpoint section" grep -q "<h2>DLIO checkpoints</h2>" "$TMP/report.html"
check "report: pass means for 3 passes" test "$(grep -o '<td class="l">[123]</td><td>3</td>' "$TMP/report.html" | wc -l)" -eq 3
printf '[c]\nstep = checkpoint\nmodel = llama3-8b\ncheckpoint_size = 1GB\nranks = 2\n' > "$TMP/both.suite"
expect_exit 2 "suite: model and checkpoint_size both" suite --suite "$TMP/both.suite" "$TMP/target.dat"
expect_output "not both" "says why"
printf '[c]\nstep = checkpoint\ncheckpoint_size = 1GB\n' > "$TMP/noranks.suite"
expect_exit 2 "suite: checkpoint_size without ranks" suite --suite "$TMP/noranks.suite" "$TMP/target.dat"
printf '[c]\nstep = measure\nranks = 2\n' > "$TMP/wrongkind.suite"
expect_exit 2 "suite: ranks on a measure step" suite --suite "$TMP/wrongkind.suite" "$TMP/target.dat"
