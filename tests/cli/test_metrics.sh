#!/bin/bash
# test_metrics.sh - --metrics-file: live metrics for Prometheus, written
# atomically for node_exporter's textfile collector. A run's file passes
# `promtool check metrics` and its figures agree with the stored results
# (the last interval's IOPS too, a run's and a suite point's final write);
# node_exporter (127.0.0.1 only) scraped during a short suite shows
# drivebench's series, the last scrape agreeing with the stored point.
. "$(dirname "$0")/lib.sh"

EXPORTER=$(command -v prometheus-node-exporter || command -v node_exporter)
PROMTOOL=$(command -v promtool)
[ -n "$EXPORTER" ] && [ -n "$PROMTOOL" ] ||
	skip_all "prometheus-node-exporter and promtool (Debian's prometheus) not installed (make deps)"

# metric FILE NAME LABELS: the value of the sample NAME{...LABELS...}
metric() {
	grep -E "^$2\{[^}]*$3[^}]*\} " "$1" | head -1 | awk '{print $2}'
}

# a run: the file mid-run and at the end
"$DB" run --metrics-file="$TMP/run.prom" --status-interval=500ms --name=a --ioengine=null \
	--size=1g --rw=randread --bs=4k --rate_iops=2000 --runtime=2 --time_based \
	>/dev/null 2>"$TMP/run.err" &
pid=$!
sleep 1.3
cp "$TMP/run.prom" "$TMP/mid.prom" 2>/dev/null
wait $pid
check "run: exit 0" test $? -eq 0
check "run: a metrics file while the run goes on" test -s "$TMP/mid.prom"
check "run: promtool check metrics accepts it (mid-run)" "$PROMTOOL" check metrics < "$TMP/mid.prom"
check "run: promtool check metrics accepts it (final)" "$PROMTOOL" check metrics < "$TMP/run.prom"
iops=$(metric "$TMP/mid.prom" drivebench_iops 'direction="read"')
check "run: IOPS over the last interval is the rate asked for ($iops)" \
	python3 -c "import sys; assert abs(float(sys.argv[1]) - 2000) < 300" "$iops"
iops=$(metric "$TMP/run.prom" drivebench_iops 'direction="read"')
check "run: the final file's IOPS over the last interval is the rate too ($iops)" \
	python3 -c "import sys; assert abs(float(sys.argv[1]) - 2000) < 140" "$iops"
eta=$(grep '^drivebench_eta_seconds ' "$TMP/mid.prom" | awk '{print $2}')
check "run: the ETA mid-run is the time left ($eta s)" \
	python3 -c "import sys; assert 0.2 < float(sys.argv[1]) < 1.2" "$eta"
ios=$(metric "$TMP/run.prom" drivebench_ios_total 'direction="read"')
bytes=$(metric "$TMP/run.prom" drivebench_bytes_total 'direction="read"')
p99=$(metric "$TMP/run.prom" drivebench_clat_seconds 'direction="read",percentile="99"')
check "run: the final counts and p99 are the stored result's ($ios I/Os)" sql "$DRIVEBENCH_DB" "
ios, b = c.execute(\"select ios, bytes from result_dirs where dir='read'\").fetchone()
p99 = c.execute(\"select value_ns from percentiles where dir='read' and kind='clat' and pct=99\").fetchone()[0]
assert ios == int(float('$ios')) and b == int(float('$bytes')), (ios, b)
assert abs(p99 / 1e9 - float('$p99')) <= 1e-12 + p99 * 1e-9, (p99, '$p99')"
check "run: no temporary file left beside it" test -z "$(ls -A "$TMP" | grep '\.tmp$')"

# without --status-interval: every 5 s (the first write of a 6 s run is
# at 5/6 of it, before the final one)
"$DB" run --no-db --metrics-file="$TMP/default.prom" --name=a --ioengine=null --size=1g \
	--rw=randread --bs=4k --rate_iops=1000 --runtime=6 --time_based >/dev/null 2>&1 &
pid=$!
while kill -0 $pid 2>/dev/null && [ ! -s "$TMP/default.prom" ]; do sleep 0.05; done
cp "$TMP/default.prom" "$TMP/first.prom" 2>/dev/null
wait $pid
progress=$(grep '^drivebench_progress_ratio ' "$TMP/first.prom" 2>/dev/null | awk '{print $2}')
check "default interval: the first write is at 5 s of 6 (progress ${progress:-none})" \
	python3 -c "import sys; assert 0.78 < float(sys.argv[1]) < 0.9" "${progress:-0}"

# a short suite under node_exporter's textfile collector
target="$TMP/target.dat"
dd if=/dev/zero of="$target" bs=1M count=32 status=none
cat > "$TMP/short.suite" <<'EOS'
[suite]
name = short

[global]
ioengine = psync
bs = 4k
time_based = 1
runtime = 1500ms
rate_iops = 1000

[sweep-read]
step = sweep
rw = randread
points = 1/1 2/1

[measure-write]
step = measure
rw = randwrite
EOS
mkdir -p "$TMP/textfile"
# a port free now (the kernel's pick), and the exporter listening on it
# itself: on a shared machine a fixed or guessed port may be another
# process's (another test's exporter would answer the scrapes)
exporter=
trap 'kill $exporter 2>/dev/null; rm -rf "$TMP"' EXIT
for try in 1 2 3 4 5; do
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	"$EXPORTER" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$TMP/textfile" \
		>"$TMP/exporter.log" 2>&1 &
	exporter=$!
	for _ in $(seq 50); do
		kill -0 $exporter 2>/dev/null || break
		curl -sf "http://127.0.0.1:$port/metrics" >/dev/null && break
		sleep 0.1
	done
	kill -0 $exporter 2>/dev/null && break    # up, on its own port
	wait $exporter 2>/dev/null
done
check "node_exporter listens on 127.0.0.1:$port" kill -0 $exporter
"$DB" suite --suite "$TMP/short.suite" --db "$TMP/suite.db" --destroy-data "$target" \
	--metrics-file "$TMP/textfile/drivebench.prom" --status-interval=300ms "$target" \
	>/dev/null 2>"$TMP/suite.err" &
suite=$!
n=0
while kill -0 $suite 2>/dev/null; do
	curl -sf "http://127.0.0.1:$port/metrics" > "$TMP/scrape.$n" && n=$((n + 1))
	sleep 0.4
done
wait $suite
check "suite: exit 0" test $? -eq 0
curl -sf "http://127.0.0.1:$port/metrics" > "$TMP/scrape.last"
check "suite: node_exporter reads the file without error" \
	grep -q '^node_textfile_scrape_error 0$' "$TMP/scrape.last"
seen=$(cat "$TMP"/scrape.* | grep -E '^drivebench_step ' | awk '{print $2}' | sort -u | tr '\n' ' ')
check "suite: scrapes during the suite saw both steps ($seen)" test "$seen" = "1 2 "
check "suite: and the sweep's points" sh -c 'cat "$1"/scrape.* | grep -q "^drivebench_point 2"' sh "$TMP"
etas=$(cat "$TMP"/scrape.* | grep -E '^drivebench_eta_seconds ' | awk '{print $2}' | sort -n | tail -1)
check "suite: every scrape has the suite's ETA, at most its nominal 4.5 s (max ${etas:-none})" sh -c '
	for f in "$1"/scrape.*; do grep -q "^drivebench_step " "$f" || continue
		grep -q "^drivebench_eta_seconds " "$f" || exit 1; done
	python3 -c "import sys; assert 0 < float(sys.argv[1]) <= 5.0" "$2"' sh "$TMP" "${etas:-0}"
check "suite: the step's name is a label" grep -q 'drivebench_info{command="suite",step="measure-write"} 1' "$TMP/scrape.last"
ios=$(metric "$TMP/scrape.last" drivebench_ios_total 'direction="write"')
check "suite: the last scrape's writes are the stored last point's ($ios)" sql "$TMP/suite.db" "
ios = c.execute(\"select d.ios from result_dirs d join results r on r.id = d.result_id where d.dir='write' order by r.id desc limit 1\").fetchone()[0]
assert ios == int(float('$ios')) and ios > 0, (ios, '$ios')"
iops=$(metric "$TMP/textfile/drivebench.prom" drivebench_iops 'direction="write"')
check "suite: the last point's IOPS over its last interval is the rate asked for ($iops)" \
	python3 -c "import sys; assert abs(float(sys.argv[1]) - 1000) < 70" "$iops"
check "suite: promtool check metrics accepts the file" "$PROMTOOL" check metrics < "$TMP/textfile/drivebench.prom"

# the drive snapshot's figures where known: a modelled drive reports media
# errors and (NAND over host bytes) the WAF, not a temperature
cat > "$TMP/model.suite" <<'EOS'
[suite]
name = model

[global]
bs = 4k
time_based = 1
runtime = 500ms

[w]
step = measure
rw = randwrite
iodepth = 8
EOS
expect_exit 0 "suite on a modelled drive with --metrics-file" suite --suite "$TMP/model.suite" \
	--db "$TMP/model.db" --metrics-file "$TMP/model.prom" --status-interval 200ms \
	"vssd:$(pwd)/tests/data/models/test-tlc.ini@2g"
waf=$(grep '^drivebench_drive_waf ' "$TMP/model.prom" | awk '{print $2}')
check "model: the WAF is the stored point's drive delta ($waf)" sql "$TMP/model.db" "
import json
d = json.loads(c.execute('select drive_delta from results order by id desc limit 1').fetchone()[0])
assert d['write_amplification'] > 0 and abs(d['write_amplification'] - float('${waf:-0}')) < 1e-12, (d, '$waf')"
check "model: the media errors (0) are there" grep -q '^drivebench_drive_media_errors 0$' "$TMP/model.prom"
check "model: no temperature series (the model reports none)" sh -c \
	'! grep -q "^drivebench_drive_temperature_celsius" "$1"' sh "$TMP/model.prom"
check "model: promtool check metrics accepts the file" "$PROMTOOL" check metrics < "$TMP/model.prom"

# checkpoint: the file after the last checkpoint names its pass and index
mkdir -p "$TMP/ckpt"
expect_exit 0 "checkpoint --metrics-file" checkpoint --checkpoint-size 8MB --ranks 2 --count 2 \
	--passes 1 --db "$TMP/ckpt.db" --metrics-file "$TMP/ckpt.prom" "$TMP/ckpt"
check "checkpoint: pass and checkpoint in the file" sh -c \
	'grep -q "^drivebench_info{command=\"checkpoint\",step=\"pass 1\"} 1" "$1" && grep -q "^drivebench_point 2$" "$1"' \
	sh "$TMP/ckpt.prom"
bytes=$(metric "$TMP/ckpt.prom" drivebench_bytes_total 'direction="write"')
check "checkpoint: the bytes are the stored last checkpoint's ($bytes)" sql "$TMP/ckpt.db" "
b = c.execute(\"select d.bytes from result_dirs d join results r on r.id = d.result_id where d.dir='write' order by r.id desc limit 1\").fetchone()[0]
assert b == int(float('$bytes')) and b > 0, (b, '$bytes')"
check "checkpoint: promtool check metrics accepts the file" "$PROMTOOL" check metrics < "$TMP/ckpt.prom"
expect_exit 2 "checkpoint: --metrics-file in a missing folder is refused" checkpoint \
	--checkpoint-size 8MB --ranks 2 --count 1 --passes 1 --db "$TMP/ckpt.db" \
	--metrics-file "$TMP/none/m.prom" "$TMP/ckpt"
expect_output "--metrics-file: cannot create '$TMP/none/m.prom'" "checkpoint: the error names the file"

expect_exit 2 "--metrics-file in a missing folder is refused before the run" \
	run --no-db --metrics-file="$TMP/none/m.prom" --name=a --ioengine=null --size=1m
expect_output "--metrics-file: cannot create '$TMP/none/m.prom'" "the error names the file"
expect_exit 2 "suite: --metrics-file in a missing folder is refused" \
	suite --suite "$TMP/short.suite" --db "$TMP/e.db" --metrics-file "$TMP/none/m.prom" "$target"
expect_exit 2 "suite: --metrics-file with several targets is refused" \
	suite --suite "$TMP/short.suite" --db "$TMP/e.db" --metrics-file "$TMP/m.prom" "$target" "$target"
expect_output "--metrics-file: one target at a time" "the error says why"

# PATH is replaced by a rename: what is there is checked before the run
# (and again before each rename), never replaced unless it is a metrics
# file drivebench wrote (or empty) or a new name
JOB1="--name=a --ioengine=null --size=1m --rw=read"
refuse() {   # CODE CASE PATTERN PATH
	expect_exit "$1" "refused: $2 (exit $1)" run --db "$TMP/gate.db" --metrics-file "$4" $JOB1
	expect_output "$3" "refused: $2: the error says why and names the file"
}
"$DB" run --db "$TMP/gate.db" $JOB1 >/dev/null 2>&1 || not_ok "a stored run for the gate"
cp "$TMP/gate.db" "$TMP/gate-before.db"
refuse 3 "the results database" "--metrics-file: refusing to replace '$TMP/gate.db': it is a results database" "$TMP/gate.db"
check "refused: the database is untouched" cmp "$TMP/gate.db" "$TMP/gate-before.db"
echo "my notes" > "$TMP/notes.txt"
refuse 2 "a file that is not a metrics file" "--metrics-file: '$TMP/notes.txt' exists and is not a drivebench metrics file" "$TMP/notes.txt"
check "refused: the file is untouched" test "$(cat "$TMP/notes.txt")" = "my notes"
ln -s notes.txt "$TMP/link.prom"
refuse 2 "a symbolic link" "--metrics-file: '$TMP/link.prom' is a symbolic link" "$TMP/link.prom"
check "refused: the link is still a link" test -L "$TMP/link.prom"
mkfifo "$TMP/fifo.prom"
refuse 2 "a pipe" "--metrics-file: '$TMP/fifo.prom' is not a regular file" "$TMP/fifo.prom"
check "refused: the pipe is still a pipe" test -p "$TMP/fifo.prom"
mkdir "$TMP/dir.prom"
refuse 2 "a directory" "--metrics-file: '$TMP/dir.prom' is a directory" "$TMP/dir.prom"
if mknod "$TMP/null.prom" c 1 3 2>/dev/null; then   # /dev/null's numbers, outside /dev
	refuse 2 "a character device (/dev/null's)" "--metrics-file: '$TMP/null.prom' is not a regular file" "$TMP/null.prom"
	check "refused: the device node is still one" test -c "$TMP/null.prom"
else
	skip "refused: a character device (mknod not allowed)"
fi
blk=$(find /dev -maxdepth 1 -type b 2>/dev/null | head -1)
if [ -n "$blk" ]; then
	refuse 3 "a block device" "--metrics-file: refusing to write '$blk': it is a block device" "$blk"
else
	skip "refused: a block device (none in /dev)"
fi
refuse 3 "a new name in /dev" "--metrics-file: refusing to create '/dev/drivebench-m.prom'" /dev/drivebench-m.prom
check "refused: nothing created in /dev" test ! -e /dev/drivebench-m.prom
refuse 3 "a kernel setting" "--metrics-file: refusing to create '/proc/m.prom' on procfs" /proc/m.prom
: > "$TMP/empty.prom"
expect_exit 0 "an empty file is taken" run --no-db --metrics-file "$TMP/empty.prom" $JOB1
expect_exit 0 "and its metrics file again" run --no-db --metrics-file "$TMP/empty.prom" $JOB1
check "it holds the metrics" grep -q '^# EOF$' "$TMP/empty.prom"
expect_exit 2 "suite: a file that is not a metrics file is refused before anything is written" \
	suite --suite "$TMP/short.suite" --db "$TMP/none.db" --metrics-file "$TMP/notes.txt" "$target"
check "suite: no database made" test ! -e "$TMP/none.db"
expect_exit 3 "checkpoint: the results database is refused" checkpoint --checkpoint-size 8MB \
	--ranks 2 --count 1 --passes 1 --db "$TMP/ckpt.db" --metrics-file "$TMP/gate.db" "$TMP/ckpt"

# another option's file, which the rename would replace under it (none
# exists yet, so the gate alone would not see it)
expect_exit 2 "run: the --output file is refused" run --no-db --output "$TMP/same.out" \
	--metrics-file "$TMP/./same.out" $JOB1
expect_output "--metrics-file $TMP/./same.out: it is the file --output names" "run: the error names both"
check "run: nothing written" test ! -e "$TMP/same.out"
expect_exit 2 "run: the new --db file is refused" run --db "$TMP/new.db" --metrics-file "$TMP/new.db" $JOB1
expect_output "it is the file --db names" "run: the error names --db"
check "run: no database made" test ! -e "$TMP/new.db"
expect_exit 2 "suite: the --report file is refused" suite --suite "$TMP/short.suite" \
	--db "$TMP/none.db" --report "$TMP/same.html" --metrics-file "$TMP/same.html" "$target"
expect_output "it is the file --report names" "suite: the error names --report"
expect_exit 2 "suite: the target is refused" suite --suite "$TMP/short.suite" \
	--db "$TMP/none.db" --destroy-data "$target" --metrics-file "$target" "$target"
expect_output "target.dat' exists and is not a drivebench metrics file" "suite: the error names the target"
check "suite: no database made" test ! -e "$TMP/none.db"

# replaced by something else during the run: said once, never replaced,
# and the run goes on
"$DB" run --no-db --metrics-file="$TMP/mid-run.prom" --status-interval=200ms --name=a \
	--ioengine=null --size=1g --rw=randread --bs=4k --rate_iops=2000 --runtime=1500ms \
	--time_based >/dev/null 2>"$TMP/mid-run.err" &
pid=$!
for _ in $(seq 100); do [ -s "$TMP/mid-run.prom" ] && break; sleep 0.05; done
echo "my notes" > "$TMP/mid-run.prom"
wait $pid
check "replaced mid-run: the run goes on (exit $?)" test $? -eq 0
check "replaced mid-run: said once on stderr" test "$(grep -c 'mid-run.prom. exists and is not a drivebench metrics file' "$TMP/mid-run.err")" -eq 1
check "replaced mid-run: the file is left as it was" test "$(cat "$TMP/mid-run.prom")" = "my notes"
