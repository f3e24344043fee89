#!/bin/bash
# test_suite_report.sh - `suite --report FILE`: the review page rewritten
# after every step while the suite runs, marked "in progress: step K of N"
# with a growing K and a refresh for the browser, each copy read during the
# run a whole page (written under a temporary name, renamed over FILE);
# the finished page has neither and is byte-identical to `report` run
# afterwards on the run, and so is the page a stopped suite leaves; FILE is
# checked before anything is read or written (a missing folder, a
# directory, /dev/null, a block device, a kernel setting, an existing
# non-HTML file, the database, a name whose temporary name cannot be made);
# several targets share one page of all their runs; a page that cannot be
# written mid-run is said and the suite goes on.
. "$(dirname "$0")/lib.sh"

target="$TMP/target.dat"
dd if=/dev/zero of="$target" bs=1M count=16 status=none
cat > "$TMP/short.suite" <<'EOS'
[suite]
name = short

[global]
ioengine = psync
bs = 4k
time_based = 1
runtime = 700ms
rate_iops = 500

[sweep-read]
step = sweep
rw = randread
points = 1/1 2/1

[measure-write]
step = measure
rw = randwrite

[measure-read]
step = measure
rw = randread
EOS

# suite ARGS...: the short suite on the target, in the background ($suite)
suite() {
	"$DB" suite --suite "$TMP/short.suite" --destroy-data "$target" "$@" "$target" \
		>/dev/null 2>"$TMP/suite.err" &
	suite=$!
}

# poll FILE: copies of FILE while the suite runs, as snap.N
poll() {
	n=0
	while kill -0 $suite 2>/dev/null; do
		cp "$1" "$TMP/snap.$n" 2>/dev/null && n=$((n + 1))
		sleep 0.1
	done
}

suite --db "$TMP/s.db" --report "$TMP/live.html"
poll "$TMP/live.html"
wait $suite
check "exit 0" test $? -eq 0
steps=$(for i in $(seq 0 $((n - 1))); do cat "$TMP/snap.$i"; done | grep -o 'in progress: step [0-9]* of 3' | awk '{print $4}' | uniq | tr '\n' ' ')
check "copies read during the run say 'in progress: step K of 3', K growing ($steps)" \
	python3 -c "import sys; k = [int(x) for x in sys.argv[1].split()]; assert len(k) >= 2 and k == sorted(set(k)), k" "$steps"
check "every copy with the mark asks the browser to reload" sh -c '
for f in "$1"/snap.*; do
	grep -q "in progress: step" "$f" || continue
	grep -q "<meta http-equiv=\"refresh\" content=\"60\">" "$f" || exit 1
done' sh "$TMP"
check "every copy is a whole page (written elsewhere, renamed)" sh -c '
for f in "$1"/snap.*; do tail -1 "$f" | grep -q "</html>" || exit 1; done' sh "$TMP"
check "the ETA is in the mark" grep -q 'in progress: step 2 of 3 done (next: measure-read), ETA [0-9]' "$TMP"/snap.*
check "the finished page has no in-progress mark" sh -c '! grep -q "in progress" "$1"' sh "$TMP/live.html"
check "nor the refresh" sh -c '! grep -q "http-equiv" "$1"' sh "$TMP/live.html"
run=$(sql "$TMP/s.db" 'print(c.execute("select max(id) from runs").fetchone()[0])')
expect_exit 0 "report afterwards" report --db "$TMP/s.db" "$run" --out "$TMP/after.html"
check "the finished page is byte-identical to report's" cmp "$TMP/live.html" "$TMP/after.html"
check "no temporary file left beside it" test -z "$(ls -A "$TMP" | grep '\.tmp$')"
grep -q "report of run $run in $TMP/live.html" "$TMP/suite.err"
check "the suite names the page at its end" test $? -eq 0

# several targets: one page of every target's run, written by the parent
# after a step of any target, ending as report's page of both runs
dd if=/dev/zero of="$TMP/b.dat" bs=1M count=16 status=none
rm -f "$TMP"/snap.*
"$DB" suite --suite "$TMP/short.suite" --db "$TMP/m.db" --destroy-data "$target" \
	--destroy-data "$TMP/b.dat" --report "$TMP/m.html" --target "$target" --target "$TMP/b.dat" \
	>/dev/null 2>"$TMP/m.err" &
suite=$!
poll "$TMP/m.html"
wait $suite
rc=$?
check "several targets: exit 0 ($rc)" test $rc -eq 0
[ $rc -eq 0 ] || tail -20 "$TMP/m.err"
for t in "$target" "$TMP/b.dat"; do
	ks=$(for i in $(seq 0 $((n - 1))); do cat "$TMP/snap.$i"; done |
		grep -o "in progress:[^;]*" | grep -o "$t step [0-9]* of 3" | awk '{print $3}' | uniq | tr '\n' ' ')
	check "several targets: the page tells $(basename "$t")'s steps, K growing ($ks)" \
		python3 -c "import sys; k = [int(x) for x in sys.argv[1].split()]; assert len(k) >= 2 and k == sorted(set(k)), k" "$ks"
done
check "several targets: the finished page has no mark" sh -c '! grep -q "in progress\|http-equiv" "$1"' sh "$TMP/m.html"
expect_exit 0 "several targets: report of both runs afterwards" report --db "$TMP/m.db" 1 2 --out "$TMP/m-after.html"
check "several targets: the page is report's of both runs, byte for byte" cmp "$TMP/m.html" "$TMP/m-after.html"
check "several targets: the suite names both runs" grep -q "report of runs 1 2 in $TMP/m.html" "$TMP/m.err"

# a stopped suite leaves the page report writes of the incomplete run
rm -f "$TMP"/snap.*
suite --db "$TMP/stop.db" --report "$TMP/stop.html"
for _ in $(seq 100); do grep -q 'step 1 of 3 done' "$TMP/stop.html" 2>/dev/null && break; sleep 0.05; done
kill -TERM $suite
wait $suite
check "stopped: exit 1" test $? -eq 1
expect_exit 0 "stopped: report afterwards" report --db "$TMP/stop.db" 1 --out "$TMP/stop-after.html"
check "stopped: the page left is report's, byte for byte" cmp "$TMP/stop.html" "$TMP/stop-after.html"
check "stopped: it tells the run is incomplete, without the mark" sh -c \
	'grep -q "incomplete" "$1" && ! grep -q "in progress" "$1"' sh "$TMP/stop.html"

# a page that cannot be written mid-run: said, the suite goes on
suite --db "$TMP/fail.db" --report "$TMP/fail.html"
for _ in $(seq 100); do [ -s "$TMP/fail.html" ] && break; sleep 0.05; done
echo "my notes" > "$TMP/fail.html"   # no longer a page: never replaced
wait $suite
rc=$?
check "mid-run failure: said on standard error, naming --report" \
	grep -q 'warning: --report .*fail.html not written after step 1 of 3: .*not an HTML page.*the suite goes on' "$TMP/suite.err"
check "mid-run failure: every step still ran and the run finished" sql "$TMP/fail.db" "
assert c.execute(\"select count(*) from steps where status = 'done'\").fetchone()[0] == 3
assert c.execute('select finished_ms from runs').fetchone()[0]"
check "mid-run failure: the file is left as it was" test "$(cat "$TMP/fail.html")" = "my notes"
check "mid-run failure: the last page failing fails the suite (exit $rc), naming report" sh -c \
	'test "$1" -eq 1 && grep -q "drivebench report --db .*fail.db 1 --out .*fail.html. writes it" "$2"' \
	sh "$rc" "$TMP/suite.err"

# refusals, before anything is read or written
refuse() {   # CODE CASE PATTERN --report FILE [more]
	want=$1; case_=$2; pattern=$3; shift 3
	rm -f "$TMP/scratch.dat" "$TMP/none.db"
	expect_exit "$want" "refused: $case_ (exit $want)" suite --suite "$TMP/short.suite" --db "$TMP/none.db" "$@"
	expect_output "$pattern" "refused: $case_: the error names --report and the file"
	check "refused: $case_: nothing written (no database, no scratch file)" \
		sh -c '! test -e "$1/none.db" && ! test -e "$1/scratch.dat"' sh "$TMP"
}
refuse 2 "a missing folder" "--report: cannot create '$TMP/no/r.html'" --report "$TMP/no/r.html"
mkdir "$TMP/dir"
refuse 2 "a directory" "--report: '$TMP/dir' is a directory" --report "$TMP/dir"
refuse 2 "/dev/null" "--report: '/dev/null' is not a regular file" --report /dev/null
echo "results I keep" > "$TMP/notes.txt"
refuse 2 "an existing file that is not an HTML page" \
	"--report: '$TMP/notes.txt' exists and is not an HTML page" --report "$TMP/notes.txt"
check "refused: the file is untouched" test "$(cat "$TMP/notes.txt")" = "results I keep"
refuse 3 "a results database" "--report: refusing to replace '$TMP/s.db'" --report "$TMP/s.db"
refuse 2 "a name ending in /" "--report '$TMP/dir/': not a file name" --report "$TMP/dir/"
refuse 3 "a kernel setting" "--report: refusing to create '/proc/r.html' on procfs" --report /proc/r.html
long=$TMP/$(printf 'r%.0s' $(seq 245)).html   # a name that fits, its temporary name does not
refuse 2 "no new file can be made beside it" "--report $long: cannot write beside it" --report "$long"
blk=$(find /dev -maxdepth 1 -type b 2>/dev/null | head -1)
if [ -n "$blk" ]; then
	refuse 3 "a block device" "--report: refusing to write '$blk': it is a block device" --report "$blk"
else
	skip "refused: a block device (none in /dev)"
fi
many=$(for i in $(seq 257); do printf -- '--target %s/t%d ' "$TMP" "$i"; done)
# shellcheck disable=SC2086
refuse 2 "more targets than one page takes" "--report: 257 targets, one page takes at most 256" \
	--report "$TMP/m.html" $many
: > "$TMP/empty.html"
expect_exit 0 "an existing empty file is taken" suite --suite "$TMP/short.suite" --only measure-read \
	--db "$TMP/e.db" --destroy-data "$target" --report "$TMP/empty.html" "$target"
check "and holds the page" grep -q '</html>' "$TMP/empty.html"
