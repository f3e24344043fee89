#!/bin/bash
# test_checkpoint.sh - `drivebench checkpoint`: a scaled run (4 ranks, tiny
# sizes, 3 passes x 3 checkpoints) on a scratch directory, its stored
# results, the same files written again, each truncated first as
# torch.save's O_TRUNC does (seen under strace), a foreign file or a link
# put in a file's place before pass 2 refused and left alone, --plan and
# --plan --json, the read-back, and bad input (exit 2).
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

# written again: the same files (same inodes), no new ones
expect_exit 0 "another run over the same checkpoints" \
	checkpoint --checkpoint-size 8MB --ranks 4 --count 3 --passes 2 "$TMP/ckpt"
ls -i "$TMP"/ckpt/ckpt-002 > "$TMP/inodes2"
check "same inodes after more passes" cmp -s "$TMP/inodes1" "$TMP/inodes2"
check "still 24 files" test "$(find "$TMP/ckpt" -type f | wc -l)" -eq 24
check "file sizes as planned" test "$(stat -c %s "$TMP/ckpt/ckpt-001/zero_pp_rank_0_mp_rank_0_optim_states.pt")" -eq 1714286

# every checkpoint's files start empty, as torch.save's open(path, "wb")
# leaves them, and the writes append: under strace, each pass-1
# checkpoint creates its files, each later one truncates each to 0
# (O_TRUNC: the filesystem frees the file's blocks, the writes allocate
# new ones), no file is sized or allocated before its writes, and
# nothing is created, removed or renamed after pass 1
if ! command -v strace >/dev/null; then
	not_ok "strace is missing (scripts/deps.sh installs it): the truncation is not seen"
elif ! strace -qq -o /dev/null true 2>/dev/null; then
	not_ok "strace cannot trace here (ptrace not allowed): the truncation is not seen"
else
	mkdir "$TMP/trunc"
	expect_exit 0 "--plan --json for the traced run" checkpoint --checkpoint-size 8MB --ranks 4 --plan --json
	printf '%s\n' "$OUT" >"$TMP/trunc.plan"
	rm -f "$DRIVEBENCH_DB"
	# shellcheck disable=SC2086
	timeout 120 strace $CKPT_STRACE -o "$TMP/trunc.trace" "$DB" checkpoint --checkpoint-size 8MB --ranks 4 \
		--count 2 --passes 3 "$TMP/trunc" >"$TMP/trunc.out" 2>"$TMP/trunc.err"
	check "a traced run: 3 passes of 2 checkpoints" test $? -eq 0
	check "pass 1 creates each file empty; passes 2 and 3 truncate each to 0 before writing it" \
		ckpt_truncations "$TMP/trunc.trace" 8 same-files
	ls -i "$TMP"/trunc/ckpt-001 >"$TMP/trunc.inodes1"
	check "every file whole after the run: the planned size, every 4 KiB written" python3 - "$TMP/trunc" "$TMP/trunc.plan" <<'PY'
import json, os, sys
plan = json.load(open(sys.argv[2]))
for ckpt in ("ckpt-001", "ckpt-002"):
    for f in plan["files"]:
        path = os.path.join(sys.argv[1], ckpt, f["name"])
        st = os.stat(path)
        assert st.st_size == f["bytes"], (path, st.st_size)
        assert st.st_blocks * 512 >= f["bytes"], (path, "holes")
        with open(path, "rb") as h:
            data = h.read()
        zero = bytes(4096)
        for at in range(0, len(data), 4096):
            block = data[at:at + 4096]
            assert block != zero[:len(block)], (path, at, "zeros")
        assert os.getxattr(path, "user.drivebench.created") == b"1", path
PY
	expect_exit 0 "another run over the traced checkpoints" \
		checkpoint --checkpoint-size 8MB --ranks 4 --count 2 --passes 2 "$TMP/trunc"
	ls -i "$TMP"/trunc/ckpt-001 >"$TMP/trunc.inodes2"
	check "the same inodes after it" cmp -s "$TMP/trunc.inodes1" "$TMP/trunc.inodes2"

	# stopped_at_pass2 DIR ARGS...: runs `drivebench ARGS DIR` under strace,
	# which stops it (SIGSTOP) as pass 2 begins: at its second mkdir of
	# DIR/ckpt-001, before any file of pass 2 is opened (strace says when
	# the stop has happened); 1 when it never stopped. resume: SIGCONT
	# until strace sees it go on, then its exit code (drivebench's).
	alive() { st=$(ps -o stat= -p "$1"); [ -n "$st" ] && [ "${st#Z}" = "$st" ]; }
	stopped_at_pass2() {
		sdir=$1; shift
		: >"$TMP/stop.trace"
		# shellcheck disable=SC2086
		strace $STRACE_ENV -f -qq -o "$TMP/stop.trace" -P "$sdir/ckpt-001" -e trace=mkdir,mkdirat \
			-e inject=mkdir,mkdirat:signal=SIGSTOP:when=2 \
			"$DB" "$@" "$sdir" >"$TMP/stop.out" 2>"$TMP/stop.err" &
		SPID=$!
		for _ in $(seq 1200); do
			grep -q -- "--- stopped by SIGSTOP ---" "$TMP/stop.trace" && return 0
			alive "$SPID" || return 1
			sleep 0.05
		done
		return 1
	}
	resume() {
		pid=$(pgrep -P "$SPID" | head -1)
		for _ in $(seq 600); do
			if [ -z "$pid" ] || ! alive "$pid"; then break; fi
			kill -CONT "$pid" 2>/dev/null
			sleep 0.1
		done
		wait "$SPID"
	}
	# a foreign file (no mark) in a file's place before pass 2
	mkdir "$TMP/foreign2"
	rm -f "$DRIVEBENCH_DB"
	victim="$TMP/foreign2/ckpt-001/zero_pp_rank_0_mp_rank_1_optim_states.pt"
	if stopped_at_pass2 "$TMP/foreign2" checkpoint --checkpoint-size 8MB --ranks 4 --count 1 --passes 2; then
		ok "stopped between pass 1 and pass 2"
		rm "$victim"
		head -c 5000 /dev/urandom >"$victim"
		before=$(md5sum <"$victim")
		others=$(find "$TMP/foreign2/ckpt-001" -type f ! -path "$victim" -printf '%p %s\n' | sort)
		resume; rc=$?
		check "a foreign file before pass 2: refused, exit 3 ($rc)" test "$rc" -eq 3
		check "with the gate's message" grep -q "existing file $victim was not created by drivebench" "$TMP/stop.err"
		check "and how to consent" grep -q -- "pass --destroy-data=$victim to allow writing over this file" "$TMP/stop.err"
		check "the foreign file keeps its size" test "$(stat -c %s "$victim")" -eq 5000
		check "and its content" test "$(md5sum <"$victim")" = "$before"
		# every file is judged before any is truncated: drivebench's own
		# files of that checkpoint, before the foreign one in plan order
		# too, keep pass 1's data
		check "the checkpoint's own files all keep their sizes ($(echo "$others" | wc -l) files)" \
			test "$(find "$TMP/foreign2/ckpt-001" -type f ! -path "$victim" -printf '%p %s\n' | sort)" = "$others"
		check "pass 2 stored nothing" test "$(sqlite3 "$DRIVEBENCH_DB" "select count(*) from results where pass = 2")" -eq 0
	else
		not_ok "stopped between pass 1 and pass 2 (the run never reached pass 2's start)"
		kill "$SPID" 2>/dev/null; wait "$SPID" 2>/dev/null
	fi
	# a symbolic link in a file's place before pass 2, to a file drivebench
	# made (the write gate alone follows it and allows that file)
	mkdir "$TMP/link2"
	rm -f "$DRIVEBENCH_DB"
	link="$TMP/link2/ckpt-001/zero_pp_rank_0_mp_rank_1_optim_states.pt"
	target="$TMP/trunc/ckpt-002/zero_pp_rank_0_mp_rank_1_optim_states.pt"
	tsize=$(stat -c %s "$target")
	tsum=$(md5sum <"$target")
	if stopped_at_pass2 "$TMP/link2" checkpoint --checkpoint-size 8MB --ranks 4 --count 1 --passes 2; then
		rm "$link"
		ln -s "$target" "$link"
		resume; rc=$?
		check "a symbolic link before pass 2: refused, exit 3 ($rc)" test "$rc" -eq 3
		check "saying it is a link" grep -q "refusing to write to '$link': it is a symbolic link" "$TMP/stop.err"
		check "the link is left" test -L "$link"
		check "its target keeps its size and content" \
			test "$(stat -c %s "$target")" -eq "$tsize" -a "$(md5sum <"$target")" = "$tsum"
	else
		not_ok "stopped between pass 1 and pass 2 (link)"
		kill "$SPID" 2>/dev/null; wait "$SPID" 2>/dev/null
	fi
fi

# a filesystem without user xattrs (ramfs): the files this run created
# cannot be marked; they are its to truncate and write in every pass of
# the run (its consent), and the next run is refused them
if [ "$(id -u)" -eq 0 ] && mkdir "$TMP/ramfs" && mount -t ramfs ramfs "$TMP/ramfs" 2>/dev/null; then
	trap 'umount "$TMP/ramfs" 2>/dev/null; rm -rf "$TMP"' EXIT
	rm -f "$DRIVEBENCH_DB"
	expect_exit 0 "no user xattrs: 3 passes under the run's consent" \
		checkpoint --checkpoint-size 4MB --ranks 2 --count 2 --passes 3 "$TMP/ramfs"
	check "every pass stored" test "$(sqlite3 "$DRIVEBENCH_DB" "select count(*) from results")" -eq 6
	expect_exit 3 "the next run is refused the unmarked files" \
		checkpoint --checkpoint-size 4MB --ranks 2 --count 2 --passes 1 "$TMP/ramfs"
	expect_output "was not created by drivebench" "says why"
	check "and leaves them whole" test "$(stat -c %s "$TMP/ramfs/ckpt-001/zero_pp_rank_0_mp_rank_0_model_states.pt")" -eq 285714
	umount "$TMP/ramfs"
else
	skip "no ramfs to test a filesystem without user xattrs (needs root)"
fi

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
expect_output "existing file $TMP/foreign/ckpt-001/zero_pp_rank_0_mp_rank_0_model_states.pt was not created by drivebench" "says why"
check "and leaves it as it was" test "$(stat -c %s "$TMP/foreign/ckpt-001/zero_pp_rank_0_mp_rank_0_model_states.pt")" -eq 1000

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
# a fill (no count) on a file target fills a drive of the target's size,
# as `plan` counts it, never the filesystem beside it: an 8 MB target
# with 64 MB checkpoints once wrote checkpoints until the disk was 90%
# full (plan said 0). The refusal names the bound: checkpoints of 1 PB
# fit neither bound, so a build without it refuses too (naming the free
# space) and writes nothing; only then does the 256 MB fill run
printf '[global]\nioengine=psync\n[c]\nstep=checkpoint\ncheckpoint_size=%s\nranks=1\npasses=1\n' 1PB > "$TMP/huge.suite"
printf '[global]\nioengine=psync\n[c]\nstep=checkpoint\ncheckpoint_size=%s\nranks=1\npasses=1\n' 64MB > "$TMP/fill.suite"
truncate -s 8M "$TMP/small.dat"
expect_exit 2 "suite: a fill on a file target smaller than a checkpoint" \
	suite --suite "$TMP/huge.suite" --destroy-data "$TMP/small.dat" "$TMP/small.dat"
said=$(expect_output "not one checkpoint of 1000000.00 GB fits in the 0.01 GB of the file target \(its size bounds a fill\)" \
	"says the target's size bounds it")
echo "$said"
if [ "${said#ok}" != "$said" ]; then
	truncate -s 256M "$TMP/fill.dat"
	expect_exit 0 "plan: a fill on a 256 MB file target" plan --suite "$TMP/fill.suite" "$TMP/fill.dat" --rated-write 100 --rated-read 100
	expect_output "1 passes x 3 checkpoints of 0.06 GB" "plan: 3 checkpoints"
	expect_exit 0 "suite: a fill on a 256 MB file target" \
		suite --suite "$TMP/fill.suite" --destroy-data "$TMP/fill.dat" "$TMP/fill.dat"
	check "suite: 3 checkpoints written, as planned" test "$(find "$TMP/fill.dat.checkpoints" -mindepth 1 -maxdepth 1 -type d | wc -l)" -eq 3
fi
