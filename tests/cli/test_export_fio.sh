#!/bin/sh
# test_export_fio.sh - `drivebench export --format fio --dir DIR`: one fio
# JSON document per stored point in fio-plot's layout
# (DIR/<drive>/<test>/<rw>-iodepth-<QD>-numjobs-<JOBS>.json), each equal to
# what `run --output-format=json+` printed for it; imported fio JSON exports
# back equal to the file; and the refusals.
. "$(dirname "$0")/lib.sh"

# --- a sweep of runs on the null engine, each stored in one database ---------
db="$TMP/sweep.db"
for point in 1/1 4/1 2/2; do
	qd=${point%/*}; jobs=${point#*/}
	"$DB" run --db "$db" --label drive-A --ioengine=null --size=4m --name=rr \
		--rw=randread --bs=4k --iodepth="$qd" --numjobs="$jobs" \
		--output-format=json+ > "$TMP/run-$qd-$jobs.json" 2>>"$TMP/run.err" ||
		not_ok "run qd $qd jobs $jobs"
done
"$DB" run --db "$db" --label "drive B/2" --ioengine=null --size=4m --name=seq \
	--rw=write --bs=64k --iodepth=2 --numjobs=1 --output-format=json+ > "$TMP/run-b.json" \
	2>>"$TMP/run.err" || not_ok "run on drive B"

expect_exit 0 "export --format fio writes the sweep" export --db "$db" --format fio \
	--dir "$TMP/out"
expect_output "4 fio JSON files written" "export says how many files it wrote"
check "the layout: one folder per drive and test, one file per point" sh -c '
	cd "$1" && find . -type f | sort > "$2/layout.txt" &&
	printf "%s\n" ./drive-A/rr/randread-iodepth-1-numjobs-1.json \
		./drive-A/rr/randread-iodepth-2-numjobs-2.json \
		./drive-A/rr/randread-iodepth-4-numjobs-1.json \
		./drive_B_2/seq/write-iodepth-2-numjobs-1.json | cmp -s - "$2/layout.txt"' \
	sh "$TMP/out" "$TMP"
[ -s "$TMP/layout.txt" ] || not_ok "no layout listed"

# same FILE RUN_OUTPUT: the exported document is run's own, keys and values
# (timestamps included: the store keeps run's top level)
same() {
	python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
def diff(x, y, path):
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            if k not in x or k not in y:
                sys.exit("%s%s: only in %s" % (path, k, "the export" if k in x else "run's"))
            diff(x[k], y[k], path + k + ".")
    elif isinstance(x, list) and isinstance(y, list):
        if len(x) != len(y):
            sys.exit("%s: %d entries, %d wanted" % (path, len(x), len(y)))
        for i, (u, v) in enumerate(zip(x, y)):
            diff(u, v, "%s[%d]." % (path, i))
    elif type(x) is bool or type(y) is bool or isinstance(x, str) or isinstance(y, str):
        if x != y or type(x) != type(y):
            sys.exit("%s: %r, %r wanted" % (path, x, y))
    elif x != y:
        sys.exit("%s: %r, %r wanted" % (path, x, y))
diff(a, b, "")
PY
}
for point in 1-1 4-1 2-2; do
	qd=${point%-*}; jobs=${point#*-}
	check "qd $qd jobs $jobs: the file is the document run printed" same \
		"$TMP/out/drive-A/rr/randread-iodepth-$qd-numjobs-$jobs.json" "$TMP/run-$qd-$jobs.json"
done
check "drive B: the file is the document run printed" same \
	"$TMP/out/drive_B_2/seq/write-iodepth-2-numjobs-1.json" "$TMP/run-b.json"
check "numjobs=2 without group_reporting: both clones in the point's document" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["jobs"]) == 2, len(d["jobs"])' "$TMP/out/drive-A/rr/randread-iodepth-2-numjobs-2.json"
check "json+: the clat histogram bins are there" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
bins = d["jobs"][0]["read"]["clat_ns"]["bins"]
assert bins and sum(bins.values()) == d["jobs"][0]["read"]["total_ios"], bins' \
	"$TMP/out/drive-A/rr/randread-iodepth-4-numjobs-1.json"
check "no temporary file is left" sh -c '! find "$1" -name "*.tmp" | grep -q .' sh "$TMP/out"

# fio_plot_reads DIR...: what fio-plot's jsonimport.py and
# jsonparsing_support.py read (fio-plot is not installed here): at least two
# of "fio version", "global options", "client_stats", "jobs"; each job's
# "job options" (merged with "global options") with rw, iodepth, numjobs and
# bs; per direction bw, iops, iops_stddev, lat_ns.mean and lat_ns.stddev;
# latency_ns/_us/_ms, usr_cpu, sys_cpu. And the name says the options' point.
fio_plot_reads() {
	python3 - "$@" <<'PY'
import glob, json, os, sys
files = [f for d in sys.argv[1:] for f in glob.glob(os.path.join(d, "*.json"))]
assert files, sys.argv[1:]
for f in files:
    d = json.load(open(f))
    assert sum(k in d for k in ("fio version", "global options", "client_stats", "jobs")) >= 2, f
    g = d.get("global options", {})
    for job in d["jobs"]:
        o = dict(job["job options"]); o.update(g)
        for k in ("rw", "iodepth", "numjobs", "bs"):
            assert k in o, (f, k, o)
        name = "%s-iodepth-%d-numjobs-%d.json" % (o["rw"], int(o["iodepth"]), int(o["numjobs"]))
        assert os.path.basename(f) == name, (f, name)
        mode = "write" if o["rw"] in ("write", "randwrite") else "read"
        for k in ("bw", "iops", "iops_stddev"):
            assert isinstance(job[mode][k], (int, float)), (f, mode, k)
        for k in ("mean", "stddev"):
            assert isinstance(job[mode]["lat_ns"][k], (int, float)), (f, k)
        for k in ("latency_ns", "latency_us", "latency_ms", "usr_cpu", "sys_cpu"):
            assert k in job, (f, k)
PY
}
check "fio-plot's keys in every file of the run sweep" fio_plot_reads \
	"$TMP/out/drive-A/rr" "$TMP/out/drive_B_2/seq"

# --- a suite's sweep step: one folder for the step, one file per point -------
target="$TMP/target.dat"
dd if=/dev/zero of="$target" bs=1M count=16 status=none
cat > "$TMP/sweep.suite" <<'EOF'
[suite]
name = sweep

[global]
ioengine = psync
bs = 4k
time_based = 1
runtime = 200ms

[sweep-read]
step = sweep
rw = randread
points = 1/1 4/1 2/2
EOF
expect_exit 0 "a suite with a sweep step" suite --suite "$TMP/sweep.suite" \
	--db "$TMP/suite.db" --label drive-S "$target"
expect_exit 0 "export --format fio of the suite" export --db "$TMP/suite.db" \
	--format fio --dir "$TMP/suite-out"
check "the suite's points in the step's folder" sh -c '
	cd "$1/drive-S/sweep-read" && ls | sort | tr "\n" " " |
	grep -qx "randread-iodepth-1-numjobs-1.json randread-iodepth-2-numjobs-2.json randread-iodepth-4-numjobs-1.json "' \
	sh "$TMP/suite-out"
check "fio-plot's keys in every file of the suite (its iodepth and numjobs in the job options)" \
	fio_plot_reads "$TMP/suite-out/drive-S/sweep-read"

# --- imported fio JSON exports back as it was ------------------------------------
imp="$TMP/import.db"
for f in fio-3.33-randrw fio-3.33-global-jsonplus fio-3.33-note-diskutil drivebench-randread; do
	"$DB" import --db "$imp" --label lab "tests/data/$f.json" >/dev/null 2>&1 ||
		not_ok "import $f"
done
expect_exit 0 "export --format fio of imported files" export --db "$imp" --format fio \
	--dir "$TMP/imp-out"
# the fio file without its "note:" lines before the JSON (not part of it)
sed -n '/^{/,$p' tests/data/fio-3.33-note-diskutil.json > "$TMP/note.json"
check "fio 3.33 randrw exports back equal" same \
	"$TMP/imp-out/lab/x/randrw-iodepth-1-numjobs-1.json" tests/data/fio-3.33-randrw.json
check "fio 3.33 json+ with global options and three jobs exports back equal" same \
	"$TMP/imp-out/lab/seqread/read-iodepth-4-numjobs-1.json" \
	tests/data/fio-3.33-global-jsonplus.json
check "fio 3.33 with disk_util exports back equal" same \
	"$TMP/imp-out/lab/du/randread-iodepth-4-numjobs-1.json" "$TMP/note.json"
check "drivebench's own JSON exports back equal" same \
	"$TMP/imp-out/lab/dbjob/randread-iodepth-8-numjobs-1.json" tests/data/drivebench-randread.json

# --- selection: run ids ------------------------------------------------------------
expect_exit 0 "export --format fio of one run" export --db "$db" --format fio \
	--dir "$TMP/one" 2
check "only that run's point" sh -c '[ "$(find "$1" -type f)" = "$1/drive-A/rr/randread-iodepth-4-numjobs-1.json" ]' \
	sh "$TMP/one"

expect_exit 0 "export --format fio --label: that drive's runs" export --db "$db" --format fio \
	--dir "$TMP/label" --label "drive B/2"
check "only drive B's point" sh -c '[ "$(find "$1" -type f)" = "$1/drive_B_2/seq/write-iodepth-2-numjobs-1.json" ]' \
	sh "$TMP/label"
"$DB" run --db "$TMP/suite.db" --label drive-S --ioengine=null --size=1m --name=extra \
	--rw=read --iodepth=1 --numjobs=1 >/dev/null 2>&1 || not_ok "a run beside the suite"
expect_exit 0 "export --format fio --step: that step's points" export --db "$TMP/suite.db" \
	--format fio --dir "$TMP/step" --step sweep-read
check "only the step's three points" sh -c '[ "$(find "$1" -type f | wc -l)" = 3 ] &&
	[ "$(ls "$1/drive-S")" = sweep-read ]' sh "$TMP/step"
expect_exit 0 "export --format csv --step: that step's rows" export --db "$TMP/suite.db" \
	--format csv --step sweep-read
check "three rows, none of the other run" sh -c '[ "$(printf "%s\n" "$1" | grep -c sweep-read-qd)" = 3 ] &&
	! printf "%s\n" "$1" | grep -q extra' sh "$OUT"
expect_exit 2 "an unknown --step is refused" export --db "$TMP/suite.db" --format fio \
	--dir "$TMP/nostep" --step nosuchstep
expect_output "--step nosuchstep: no result" "it names the step"
check "and DIR is not created" test ! -e "$TMP/nostep"
expect_exit 2 "a --label without runs is refused" export --db "$db" --format json --label nolabel
expect_output "--label nolabel: no stored run has this label" "it names the label"

# --- refusals --------------------------------------------------------------------
mkdir -p "$TMP/full" && : > "$TMP/full/x"
expect_exit 2 "a DIR that is not empty is refused" export --db "$db" --format fio --dir "$TMP/full"
expect_output "full exists and is not empty" "it names the folder"
: > "$TMP/plain"
expect_exit 2 "a DIR that is a file is refused" export --db "$db" --format fio --dir "$TMP/plain"
expect_output "plain.* is not a directory" "it says it is not a directory"
expect_exit 2 "--format fio without --dir is refused" export --db "$db" --format fio
expect_output "needs --dir" "it names --dir"
expect_exit 2 "--dir with --format json is refused" export --db "$db" --format json --dir "$TMP/d"
expect_output "goes with --format fio" "it names --format fio"
expect_exit 3 "a DIR in /dev is refused by the output gate" export --db "$db" --format fio \
	--dir /dev/drivebench-export-test
check "nothing was created in /dev" test ! -e /dev/drivebench-export-test
expect_exit 3 "a DIR in /proc is refused by the output gate" export --db "$db" --format fio \
	--dir /proc/drivebench-export-test
"$DB" import --db "$TMP/empty.db" --label lab tests/data/fio-3.33-randrw.json >/dev/null 2>&1
sql "$TMP/empty.db" 'c.execute("delete from results"); c.commit()'
expect_exit 2 "no stored results: refused" export --db "$TMP/empty.db" --format fio --dir "$TMP/e"
expect_output "no stored results to export" "it says there is nothing to export"
check "and DIR is not created" test ! -e "$TMP/e"
expect_exit 2 "an unknown run is refused" export --db "$db" --format fio --dir "$TMP/u" 99
# results stored before schema v12 have no fio JSON
cp "$db" "$TMP/old.db"
sql "$TMP/old.db" 'c.execute("update results set fio_head = null where run_id = 1"); c.commit()'
expect_exit 0 "a run stored without fio JSON is left out" export --db "$TMP/old.db" \
	--format fio --dir "$TMP/old"
expect_output "run 1: 1 point stored without fio JSON" "with a warning naming the run"
check "the other runs are written" test -f "$TMP/old/drive-A/rr/randread-iodepth-4-numjobs-1.json"
check "the run without is not" test ! -e "$TMP/old/drive-A/rr/randread-iodepth-1-numjobs-1.json"
sql "$TMP/old.db" 'c.execute("update results set fio_head = null"); c.commit()'
expect_exit 2 "no point with fio JSON: refused" export --db "$TMP/old.db" --format fio \
	--dir "$TMP/none"
expect_output "no stored point has fio JSON" "it says why"
cp "$db" "$TMP/bad.db"
sql "$TMP/bad.db" 'c.execute("update results set fio_head = \"{bad\" where run_id = 2"); c.commit()'
expect_exit 1 "stored fio JSON that does not parse stops the export" export --db "$TMP/bad.db" \
	--format fio --dir "$TMP/bad"
expect_output "run 2: the stored fio JSON of 'rr' does not parse" "it names the run and job"
