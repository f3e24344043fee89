#!/bin/bash
# test_stop_latency.sh - issue 28, item 2. Every file a command names for
# reading (job files and includes, patterns, bssplit files, vssd models and
# state files, suite and spec files, fio JSON, databases, a read job's
# target) is refused before any worker starts when it is a FIFO, a
# directory or a character device: exit 2 within a second, the option and
# the file named; a huge regular file is refused or read only as far as it
# is needed. And SIGTERM / SIGINT end a command within a second wherever it
# waits (docs/interruption.md): exit 1, what completed stored and marked
# partial; a wait for another process's lock on the database at open, or
# for a FIFO's reader at --output, ends at once. Listed in tests/alone.txt: it holds exits against the clock.
. "$(dirname "$0")/lib.sh"

MODEL=models/generic-qlc.ini
LIMIT_MS=1000
mkfifo "$TMP/fifo"
mkdir "$TMP/dir"
truncate -s 20G "$TMP/huge"    # sparse: 20 GiB of NUL bytes, no disk used
printf '{"fio version": "fio-3.36", "jobs": []}\n' >"$TMP/empty.json"
expect_exit 0 "a labelled run to attach a spec sheet to" run --db "$TMP/label.db" \
	--label x --ioengine=null --rw=read --size=64k --name=j

ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

# refused WHAT WORDS KINDS ARGS...: for each kind of file (fifo dir chr
# huge) the command with @F replaced by such a file exits 2 within a
# second, its message naming WORDS (the option, a regex) and the file
kind_path() {
	case $1 in
	fifo) echo "$TMP/fifo" ;; dir) echo "$TMP/dir" ;; chr) echo /dev/zero ;;
	null) echo /dev/null ;; huge) echo "$TMP/huge" ;;
	esac
}
kind_says() {
	case $1 in
	fifo) echo "is a FIFO" ;; dir) echo "[Ii]s a directory" ;;
	chr | null) echo "is a character device" ;;
	huge) echo "NUL byte|binary data|larger than|not a " ;;
	esac
}
refused() {
	what=$1 words=$2 kinds=$3; shift 3
	for kind in $kinds; do
		f=$(kind_path "$kind")
		args=()
		for a in "$@"; do args+=("${a//@F/$f}"); done
		start=$(date +%s%N)
		run_db "${args[@]}"
		ms=$(ms_since "$start")
		if [ "$RC" -eq 2 ] && [ "$ms" -lt "$LIMIT_MS" ]; then
			ok "$what as $kind: refused, exit 2 in ${ms} ms"
		else
			not_ok "$what as $kind: exit $RC after ${ms} ms (wanted 2 within 1 s)"
			echo "$ERR" | head -3
		fi
		if printf '%s\n' "$ERR" | grep -q -E -- "$words" &&
		   printf '%s\n' "$ERR" | grep -q -F -- "$f" &&
		   printf '%s\n' "$ERR" | grep -q -E -- "$(kind_says "$kind")"; then
			ok "$what as $kind: the message names /$words/, the file and what it is"
		else
			not_ok "$what as $kind: no /$words/, '$f' and /$(kind_says "$kind")/ in: $ERR"
		fi
	done
}

NJ="--rw=randread --bs=4k --size=64k --name=j"
ALL="fifo dir chr null huge"
printf '[j]\nioengine=null\nsize=64k\ninclude %s\n' "$TMP/fifo" >"$TMP/inc-fifo.fio"
printf '[j]\nioengine=null\nsize=64k\ninclude %s\n' "$TMP/dir" >"$TMP/inc-dir.fio"
printf '[j]\nioengine=null\nsize=64k\ninclude %s\n' /dev/zero >"$TMP/inc-chr.fio"
printf '[j]\nioengine=null\nsize=64k\ninclude %s\n' /dev/null >"$TMP/inc-null.fio"
printf '[j]\nioengine=null\nsize=64k\ninclude %s\n' "$TMP/huge" >"$TMP/inc-huge.fio"

refused "a job file" "job file" "$ALL" run --no-db @F
for kind in $ALL; do
	refused "an include" "job file|include" "$kind" run --no-db "$TMP/inc-$kind.fio"
done
refused "buffer_pattern='FILE'" "buffer_pattern.*pattern file" "fifo dir chr null" \
	run --no-db --ioengine=null $NJ "--buffer_pattern='@F'"
refused "verify_pattern='FILE'" "verify_pattern.*pattern file" "fifo dir chr null" \
	run --no-db --ioengine=psync --filename="$TMP/v.dat" --rw=write --bs=4k --size=64k \
	--name=j --verify=pattern "--verify_pattern='@F'"
refused "bssplit_file=" "bssplit_file.*bssplit file" "$ALL" run --no-db --ioengine=null $NJ --bssplit_file=@F
refused "vssd_model=" "vssd model" "$ALL" run --no-db --ioengine=vssd --vssd_model=@F $NJ
refused "vssd_state=" "vssd_state" "fifo dir chr null" run --no-db --ioengine=vssd \
	--vssd_model=$MODEL --vssd_state=@F $NJ
refused "suite --suite" "suite file" "$ALL" suite --db "$TMP/s.db" --suite @F
refused "suite --target vssd:MODEL" "vssd model" "$ALL" suite --db "$TMP/s.db" --target "vssd:@F@1/1000"
refused "plan --suite" "suite file" "$ALL" plan --suite @F --capacity 1g --rated-write 100 --rated-read 100
refused "plan vssd:MODEL" "spec file|spec sheet" "$ALL" plan "vssd:@F@1/1000"
refused "import FILE" "nothing imported" "$ALL" import --label x --db "$TMP/i.db" @F
refused "import --spec" "--spec file|spec sheet" "$ALL" import --label x --db "$TMP/i.db" --spec @F "$TMP/empty.json"
refused "report --spec LABEL=FILE" "spec file|spec sheet" "$ALL" report --db "$TMP/label.db" --spec x=@F --out "$TMP/r.html"
for cmd in run report compare export migrate; do
	case $cmd in
	run) extra="--ioengine=null $NJ" ;; report) extra="--out $TMP/r.html" ;;
	compare) extra="1 2" ;; export) extra="--format json" ;; migrate) extra= ;;
	esac
	# a huge file of NUL bytes is no SQLite database
	refused "$cmd --db" "--db" "fifo dir chr null" $cmd --db @F $extra
done
refused "a read job's filename=" "target" "fifo dir chr null" run --no-db --ioengine=psync \
	--rw=read --bs=4k --size=64k --name=j --filename=@F
# a huge regular file is read only as far as needed: a pattern takes its
# first bytes, a state file is refused by its header, a database by its
# SQLite header
start=$(date +%s%N)
expect_exit 0 "a 20 GiB buffer_pattern file is read only as far as a pattern holds" \
	run --no-db --ioengine=null $NJ "--buffer_pattern='$TMP/huge'"
ms=$(ms_since "$start")
if [ "$ms" -lt "$LIMIT_MS" ]; then ok "the 20 GiB pattern file took ${ms} ms"; else
	not_ok "the 20 GiB pattern file took ${ms} ms"; fi
expect_exit 2 "a 20 GiB vssd_state file is refused by its header" run --no-db --ioengine=vssd \
	--vssd_model=$MODEL --vssd_state="$TMP/huge" $NJ
expect_output "vssd_state=.*huge: not a drivebench vssd state file" "the state file is named"
expect_exit 2 "a 20 GiB file of NUL bytes is no database" export --db "$TMP/huge" --format json
expect_output "not a results database" "the database is named as not one"
# the state file is saved through FILE.tmp: a FIFO there is refused too
mkfifo "$TMP/state.tmp"
expect_exit 2 "vssd_state= whose FILE.tmp is a FIFO" run --no-db --ioengine=vssd \
	--vssd_model=$MODEL --vssd_state="$TMP/state" $NJ
expect_output "vssd_state file '$TMP/state.tmp': it is a FIFO" "the .tmp FIFO is named"
# the suite file is read before the default target is laid out
check "no scratch file was laid out for a refused suite file" test ! -e "$DRIVEBENCH_SCRATCH"

# ---- the stop ------------------------------------------------------------
DBS="$TMP/stop.db"
STORED=0   # runs stored in $DBS so far
# stops WHAT SIG DELAY_S EXPECT ARGS...: starts the command, sends SIG after
# DELAY_S, and wants exit 1 within 1 s of the signal; EXPECT: "stored" (one
# more run in $DBS, marked partial), "suite" (the resume line) or "-"
stops() {
	what=$1 sig=$2 delay=$3 expect=$4; shift 4
	"$DB" "$@" >"$TMP/stop.out" 2>"$TMP/stop.err" &
	pid=$!
	sleep "$delay"
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid"
		not_ok "$what: ended (exit $?) before the $sig at ${delay} s"
		tail -3 "$TMP/stop.err"
		return
	fi
	start=$(date +%s%N)
	kill -"$sig" "$pid"
	# a watchdog: the check fails, the test does not hang
	( sleep 20; kill -KILL "$pid" 2>/dev/null ) &
	dog=$!
	wait "$pid"
	rc=$?
	ms=$(ms_since "$start")
	kill "$dog" 2>/dev/null
	wait "$dog" 2>/dev/null
	if [ "$rc" -eq 1 ] && [ "$ms" -lt "$LIMIT_MS" ]; then
		ok "$what: SIG$sig ends it in ${ms} ms, exit 1"
	else
		not_ok "$what: SIG$sig: exit $rc after ${ms} ms (wanted 1 within 1 s)"
		tail -3 "$TMP/stop.err"
	fi
	case $expect in
	stored)
		STORED=$((STORED + 1))
		# one python: it starts slowly on a loaded machine
		if sql "$DBS" "
n, p = c.execute('select count(*), (select partial from runs order by id desc limit 1) from runs').fetchone()
assert n == $STORED and p == 1, (n, p)"; then
			ok "$what: the run so far is stored, marked partial"
		else
			not_ok "$what: not stored as run $STORED, or not partial"
			tail -3 "$TMP/stop.err"
		fi ;;
	suite)
		if grep -q "interrupted: resume with drivebench suite --resume" "$TMP/stop.err"; then
			ok "$what: the suite says how to resume"
		else not_ok "$what: no resume line"; tail -3 "$TMP/stop.err"; fi ;;
	esac
}

T="--db $DBS --name=j --time_based --runtime=60"
stops "workers measuring" TERM 1 stored run $T --ioengine=null --rw=randread --bs=4k --size=1g --numjobs=2
stops "a thinktime of 30 s" INT 1 stored run $T --ioengine=null --rw=randread --bs=4k --size=1g --thinktime=30s
stops "a startdelay of 30 s" TERM 1 stored run $T --ioengine=null --rw=randread --bs=4k --size=1g --startdelay=30s
stops "a rate of 1 IOPS" INT 1 stored run $T --ioengine=null --rw=randread --bs=4k --size=1g --rate_iops=1
stops "a psync I/O that takes a day (fault_delay)" TERM 1 stored run $T --ioengine=fault:psync \
	--filename="$TMP/slow.dat" --rw=write --bs=4k --size=1m --fault_delay=1d
stops "an exec program that sleeps" INT 1 stored run $T --ioengine=exec --program=sleep --arguments=100 --std_redirect=0 --size=1m
stops "the vssd model at a tiny scale, 64 MiB writes" TERM 1 stored run $T --ioengine=vssd \
	--vssd_model=$MODEL --vssd_scale=1/8000 --rw=randwrite --bs=64m --iodepth=4
# a worker's setup: gigabytes of buffers to fill, a large modelled drive
# to clear (seconds each on a loaded machine; the signal lands in them or
# just before, and either way the exit comes within the second)
stops "a worker filling 1 GiB of random buffers" TERM 0.3 - run $T --ioengine=null \
	--rw=randwrite --bs=8m --iodepth=128 --size=1g
stops "a worker making a 1/20-scale modelled drive" TERM 0.5 - run $T --ioengine=vssd \
	--vssd_model=$MODEL --vssd_scale=1/20 --rw=randwrite --bs=4k
# a new default target being laid out (before any job)
DRIVEBENCH_SCRATCH="$TMP/new-scratch.dat" stops "the default target being laid out" INT 0.3 - \
	run --db "$DBS" --ioengine=psync --rw=read --bs=4k --name=j --time_based --runtime=60

cat >"$TMP/waits.suite" <<'EOF'
[suite]
name = waits
[global]
ioengine = null
time_based = 1
runtime = 1s
[w]
step = measure
rw = randread
bs = 4k
size = 1m
[rest]
step = idle
idle = 60s
[sw]
step = sweep
rw = randread
bs = 4k
size = 1m
points = 1/1 2/1
pause = 60s
EOF
truncate -s 64m "$TMP/target.dat"
stops "a suite's measure step" TERM 0.5 suite suite --db "$TMP/s1.db" --suite "$TMP/waits.suite" "$TMP/target.dat"
stops "a suite's idle step" INT 2.5 suite suite --db "$TMP/s2.db" --suite "$TMP/waits.suite" "$TMP/target.dat"
stops "a suite's sweep pause" TERM 2.5 suite suite --db "$TMP/s3.db" --suite "$TMP/waits.suite" --only sw "$TMP/target.dat"
stops "a suite's purge making a 1/20-scale drive" INT 0.5 suite suite --db "$TMP/s4.db" \
	--suite quick --target "vssd:$MODEL@1/20"

# a wait for another process's lock on the database, at open (nothing run
# yet, nothing to lose): a stop ends it at once, not after SQLite's 10 s
"$DB" run --db "$TMP/locked.db" --ioengine=null --rw=read --size=64k --name=j >/dev/null 2>&1
python3 -c "
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute('begin exclusive'); open(sys.argv[2], 'w').close(); time.sleep(60)" \
	"$TMP/locked.db" "$TMP/lock-held" &
locker=$!
for _ in $(seq 100); do [ -e "$TMP/lock-held" ] && break; sleep 0.1; done
stops "run waiting for the database another process locks" TERM 1.5 - \
	run --db "$TMP/locked.db" --ioengine=null --rw=read --bs=4k --size=64k --name=j
grep -q "locked.db: interrupted while waiting for another process's lock on it; nothing was run" \
	"$TMP/stop.err" && ok "the stop names the database it waited for" ||
	{ not_ok "no message naming the locked database"; cat "$TMP/stop.err"; }
stops "a suite waiting for the database another process locks" INT 1.5 - \
	suite --db "$TMP/locked.db" --suite "$TMP/waits.suite" "$TMP/target.dat"
grep -q "interrupted before the first step: nothing to resume" "$TMP/stop.err" &&
	! grep -q "resume with" "$TMP/stop.err" && ok "... and says there is nothing to resume" ||
	{ not_ok "the suite stopped at its database offers a resume"; cat "$TMP/stop.err"; }
kill "$locker"; wait "$locker" 2>/dev/null
# --output naming a FIFO no one reads: the open waits for a reader
stops "--output waiting for a FIFO's reader" TERM 1 - run --no-db --ioengine=null \
	--rw=read --bs=4k --size=64k --name=j --output="$TMP/fifo"
grep -q "interrupted while waiting to open '$TMP/fifo' for writing" "$TMP/stop.err" &&
	ok "the stop names the FIFO --output waited on" ||
	{ not_ok "no message naming the FIFO"; cat "$TMP/stop.err"; }
