#!/bin/bash
# test_mpi_metrics.sh - --metrics-file under mpirun (docs/output.md, "Live
# metrics for Prometheus"): every rank writes its own file, PATH's %r
# expanded, with its own figures while the run goes on and at its end, every
# sample labelled with its rank; each file passes `promtool check metrics`
# and agrees with that rank's client_stats (run) or stored part (suite); a
# PATH without %r (or %h and %l) is refused before the run, and a rank whose
# file cannot be written ends the run naming the rank and the file.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpi_lib.sh"

PROMTOOL=$(command -v promtool)
# mpi ARGS...: drivebench-mpi on 2 ranks; stdout in $TMP/out, stderr in
# $TMP/err, exit code in $RC
mpi() {
	ASAN_OPTIONS="$MPI_ASAN_OPTIONS" timeout 120 mpirun --oversubscribe --bind-to none \
		-x ASAN_OPTIONS -np 2 "$MPI_DB" "$@" >"$TMP/out" 2>"$TMP/err"
	RC=$?
}
JOB="--name=a --ioengine=null --size=1g --rw=randread --bs=4k --rate_iops=1000 --runtime=1500ms --time_based"

# --- a run: each rank's file, during the run and at its end -------------------------
mkdir "$TMP/m"
mpi run --no-db --output-format=json --status-interval=300ms \
	--metrics-file "$TMP/m/db-%r.prom" $JOB &
pid=$!
n=0
while kill -0 $pid 2>/dev/null; do
	for r in 0 1; do cp "$TMP/m/db-$r.prom" "$TMP/mid-$r.$n" 2>/dev/null; done
	n=$((n + 1))
	sleep 0.1
done
wait $pid
RC=$?
check "run on 2 ranks: exit 0 ($RC)" test "$RC" -eq 0
[ "$RC" -eq 0 ] || head -20 "$TMP/err"
check "one file per rank, named by %r, nothing else in the folder" \
	test "$(ls -A "$TMP/m" | tr '\n' ' ')" = "db-0.prom db-1.prom "
check "rank 1 wrote its file while the run went on (progress under 1)" sh -c \
	'grep -h "^drivebench_progress_ratio{rank=\"1\"} 0\." "$1"/mid-1.* | grep -q .' sh "$TMP"
for r in 0 1; do
	f="$TMP/m/db-$r.prom"
	check "rank $r: every sample names rank $r" sh -c '
		n=$(grep -v "^#" "$1" | grep -c .)
		[ "$n" -gt 10 ] && [ "$(grep -v "^#" "$1" | grep -c "rank=\"$2\"")" -eq "$n" ]' sh "$f" "$r"
	if [ -n "$PROMTOOL" ]; then
		check "rank $r: promtool check metrics accepts the file" "$PROMTOOL" check metrics < "$f"
	else
		skip "rank $r: promtool (Debian's prometheus) not installed"
	fi
done
# both ranks' files in one textfile folder: node_exporter reads them as one
EXPORTER=$(command -v prometheus-node-exporter || command -v node_exporter)
if [ -n "$EXPORTER" ]; then
	port=$((20000 + ($$ + 7) % 20000))
	"$EXPORTER" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$TMP/m" >"$TMP/exporter.log" 2>&1 &
	exporter=$!
	for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/metrics" >"$TMP/scrape" && break; sleep 0.1; done
	kill $exporter 2>/dev/null
	check "node_exporter reads both ranks' files in one folder without error" sh -c \
		'grep -q "^node_textfile_scrape_error 0$" "$1" &&
		 grep -q "^drivebench_ios_total{.*rank=\"0\"}" "$1" && grep -q "^drivebench_ios_total{.*rank=\"1\"}" "$1"' \
		sh "$TMP/scrape"
else
	skip "node_exporter (Debian's prometheus-node-exporter) not installed"
fi
# the last JSON document: the final one, with client_stats
check "each rank's I/Os are its own client_stats entry's; its last-interval IOPS the rate" \
	python3 - "$TMP/out" "$TMP/m" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
dec, i, doc = json.JSONDecoder(), 0, None
while i < len(text):
    while i < len(text) and text[i].isspace():
        i += 1
    if i < len(text):
        doc, i = dec.raw_decode(text, i)
ranks = {c["drivebench"]["rank"]: c for c in doc["client_stats"] if c["jobname"] != "All clients"}
for r in (0, 1):
    prom = open("%s/db-%d.prom" % (sys.argv[2], r)).read()
    def val(name):
        m = re.search(r'^%s\{job="a",clone="0",direction="read",rank="%d"\} (\S+)$' % (name, r), prom, re.M)
        return float(m.group(1))
    assert val("drivebench_ios_total") == ranks[r]["read"]["total_ios"] > 0, (r, val("drivebench_ios_total"))
    assert abs(val("drivebench_iops") - 1000) < 100, (r, val("drivebench_iops"))
PY

# --- a suite: each rank's file names the step, its I/Os its stored part ------------
cat > "$TMP/one.suite" <<'EOS'
[suite]
name = one

[global]
ioengine = psync
bs = 4k
time_based = 1
runtime = 1s
rate_iops = 500

[measure-write]
step = measure
rw = randwrite
EOS
for r in 0 1; do truncate -s 8m "$TMP/t.$r"; done
mpi suite --suite "$TMP/one.suite" --db "$TMP/s.db" --destroy-data "$TMP/t.0" \
	--destroy-data "$TMP/t.1" --metrics-file "$TMP/s-%r.prom" --status-interval 300ms "$TMP/t.%r"
check "suite on 2 ranks: exit 0 ($RC)" test "$RC" -eq 0
[ "$RC" -eq 0 ] || head -20 "$TMP/err"
for r in 0 1; do
	check "suite: rank $r's file names the step and rank" \
		grep -q "^drivebench_info{command=\"suite\",step=\"measure-write\",rank=\"$r\"} 1$" "$TMP/s-$r.prom"
	ios=$(grep -E "^drivebench_ios_total\{[^}]*direction=\"write\",rank=\"$r\"\} " "$TMP/s-$r.prom" | awk '{print $2}')
	check "suite: rank $r's writes are its stored part's ($ios)" sql "$TMP/s.db" "
ios = c.execute(\"select d.ios from result_dirs d join results r on r.id = d.result_id where d.dir='write' and r.rank = $r\").fetchone()[0]
assert ios == int(float('${ios:-0}')) and ios > 0, (ios, '$ios')"
done

# --- refusals ----------------------------------------------------------------------
mpi run --no-db --metrics-file "$TMP/one.prom" --name=a --ioengine=null --size=1m --rw=read
check "a PATH without %r is refused (exit 2, got $RC)" test "$RC" -eq 2
check "the error names the file and says how to name each rank's" \
	grep -q -- "--metrics-file $TMP/one.prom: under mpirun every rank writes its own file: name the rank in it" "$TMP/err"
check "nothing was written" test ! -e "$TMP/one.prom"
mkdir "$TMP/r0"
mpi run --no-db --metrics-file "$TMP/r%r/m.prom" --name=a --ioengine=null --size=1m --rw=read
check "rank 1's folder missing: the run ends (exit 2, got $RC)" test "$RC" -eq 2
check "the error names rank 1 and its file" \
	grep -q -- "rank 1 .*--metrics-file: cannot create '$TMP/r1/m.prom'" "$TMP/err"
exit 0
