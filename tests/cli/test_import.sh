#!/bin/bash
# test_import.sh - `drivebench import` end to end: fio 3.33 JSON generated
# here (null engine; normal and json+; a job file with globals; a "note:"
# line and disk_util from a real file), exported again and compared with
# fio's own figures; drivebench's JSON; malformed, truncated and non-fio
# files import nothing and exit 2; --spec; usage errors.
. "$(dirname "$0")/lib.sh"

if ! command -v fio >/dev/null 2>&1; then
	skip_all "fio is not installed (Debian package fio)"
fi
if ! command -v python3 >/dev/null 2>&1; then
	skip_all "python3 is needed to compare the JSON"
fi

DBFILE="$TMP/results.db"

# compare FIO_JSON RUN_ID: every job's iops, bw_bytes, io_bytes, total_ios,
# latency summaries and percentiles in the export equal fio's own
compare() {
	"$DB" export --db "$DBFILE" --format json "$2" > "$TMP/export.json" || return 1
	python3 - "$1" "$TMP/export.json" <<'EOF'
import json, sys
text = open(sys.argv[1]).read()
fio = json.loads(text[text.index("\n{") + 1:] if not text.startswith("{") else text)
runs = json.load(open(sys.argv[2]))
assert len(runs) == 1, "one run"
results = runs[0]["results"]
assert len(results) == len(fio["jobs"]), (len(results), len(fio["jobs"]))
checked = 0
for job, res in zip(fio["jobs"], results):
    assert res["job"] == job["jobname"], (res["job"], job["jobname"])
    for d in ("read", "write"):
        f, r = job[d], res[d]
        if f["total_ios"] == 0:
            continue
        assert r["iops"] == f["iops"], (d, r["iops"], f["iops"])
        assert r["bw_bytes"] == f["bw_bytes"], (d, r["bw_bytes"], f["bw_bytes"])
        assert r["bytes"] == f["io_bytes"] and r["ios"] == f["total_ios"]
        assert r["runtime_ms"] == f["runtime"]
        for kind in ("slat", "clat", "lat"):
            fl, rl = f[kind + "_ns"], r[kind]
            assert (rl["min_ns"], rl["max_ns"], rl["n"]) == (fl["min"], fl["max"], fl["N"]), kind
            assert rl["mean_ns"] == fl["mean"] and rl["stddev_ns"] == fl["stddev"], kind
            fp = fl.get("percentile", {})
            rp = rl.get("percentiles", {})
            assert {float(k): v for k, v in fp.items()} == \
                   {float(k): v for k, v in rp.items()}, (kind, fp, rp)
            checked += len(fp)
assert checked > 0, "no percentiles compared"
EOF
}

# --- fio's normal JSON -------------------------------------------------------
fio --name=randrw --ioengine=null --size=32m --rw=randrw --bs=8k --iodepth=4 \
	--output-format=json > "$TMP/normal.json" 2>"$TMP/fio.err"
check "fio 3.x wrote JSON" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$TMP/normal.json"
expect_exit 0 "import fio JSON" import --db "$DBFILE" --label driveA "$TMP/normal.json"
expect_output "^imported 1 result from $TMP/normal.json as run 1 \(label driveA\)$" "import names the run"
check "export equals fio's iops, bw and percentiles" compare "$TMP/normal.json" 1

# --- json+ with a job file: globals, numjobs, lat percentiles ----------------
cat > "$TMP/jobs.fio" <<'EOF'
[global]
ioengine=null
size=8m
bs=16k
lat_percentiles=1

[seq]
rw=read

[rand]
rw=randwrite
bs=4k
numjobs=2
EOF
fio "$TMP/jobs.fio" --output-format=json+ > "$TMP/plus.json" 2>"$TMP/fio.err"
expect_exit 0 "import fio json+" import --db "$DBFILE" --label=driveB "$TMP/plus.json"
expect_output "imported 3 results from .* as run 2 \(label driveB\)" "three job entries"
check "json+ export equals fio's figures" compare "$TMP/plus.json" 2
check "global options merged under the job's own" python3 - "$TMP/export.json" <<'EOF'
import json, sys
res = json.load(open(sys.argv[1]))[0]["results"]
assert res[0]["bs"] == 16384 and res[0]["rw"] == "read", res[0]
assert res[1]["bs"] == 4096 and res[1]["numjobs"] == 2 and res[1]["rw"] == "randwrite"
assert res[0]["options"]["size"] == "8m" and res[1]["options"]["bs"] == "4k"
EOF

# --- a note line before the JSON, disk_util from a real file -----------------
fio --name=du --ioengine=psync --iodepth=4 --filename="$TMP/du.dat" --size=1m \
	--rw=randread --bs=4k --output-format=json > "$TMP/note.json" 2>"$TMP/fio.err"
rm -f "$TMP/du.dat"
if head -1 "$TMP/note.json" | grep -q '^note:'; then ok "fio printed a note before the JSON"; else
	echo "# fio printed no note line this time"; fi
expect_exit 0 "import skips the note line" import --db "$DBFILE" --label driveA "$TMP/note.json"
check "note file export equals fio's figures" compare "$TMP/note.json" 3
check "disk_util kept with the run" python3 - "$DBFILE" "$TMP/note.json" <<'EOF'
import json, sqlite3, sys
text = open(sys.argv[2]).read()
fio = json.loads(text[text.index("{"):] if text.startswith("{") else text[text.index("\n{") + 1:])
row = sqlite3.connect(sys.argv[1]).execute("SELECT drive_json FROM runs WHERE id = 3").fetchone()
if fio.get("disk_util"):
    assert json.loads(row[0])["disk_util"] == fio["disk_util"], row
else:
    assert row[0] is None
EOF

# --- drivebench's own JSON ----------------------------------------------------
"$DB" run --no-db --ioengine=null --size=4m --name=own --rw=randread \
	--output-format=json > "$TMP/own.json" 2>"$TMP/run.err"
expect_exit 0 "import drivebench JSON" import --db "$DBFILE" --label driveC "$TMP/own.json"
check "drivebench JSON export equals its figures" compare "$TMP/own.json" 4

# --- spec sheet ----------------------------------------------------------------
printf '[drive]\nmodel = Example 1TB\nrandom_read_iops = 120000\n' > "$TMP/badspec.ini"
expect_exit 2 "a spec sheet with an unknown key is refused" import --db "$DBFILE" --label driveA --spec "$TMP/badspec.ini" "$TMP/normal.json"
expect_output "badspec.ini:3:random_read_iops" "the bad key is named with file and line"
printf '[drive]\nmodel = Example 1TB\n[rated]\nrand_read_iops = 120000\n' > "$TMP/spec.ini"
expect_exit 0 "import with --spec" import --db "$DBFILE" --label driveA --spec "$TMP/spec.ini" "$TMP/normal.json"
expect_output "as run 5 \(label driveA\)" "a file imported again is a new run"
expect_output "attached spec sheet" "the spec sheet is attached"
check "spec text stored for the label" python3 - "$DBFILE" "$TMP/spec.ini" <<'EOF'
import sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute(
    "SELECT DISTINCT spec_ini FROM drives WHERE label = 'driveA'").fetchall()
assert rows == [(open(sys.argv[2]).read(),)], rows
EOF

# --- bad files import nothing ---------------------------------------------------
"$DB" export --db "$DBFILE" --format json > "$TMP/before.json"
sed '0,/"error" : 0,/s//"error" : 0/' "$TMP/normal.json" > "$TMP/malformed.json"
line=$(grep -n '"error" : 0$' "$TMP/malformed.json" | head -1 | cut -d: -f1)
expect_exit 2 "malformed JSON exits 2" import --db "$DBFILE" --label driveA "$TMP/normal.json" "$TMP/malformed.json"
expect_output "$TMP/malformed.json: malformed JSON at line $((line + 1)), column 7; nothing imported" \
	"the error names the file, line and column"
head -c 2000 "$TMP/normal.json" > "$TMP/truncated.json"
expect_exit 2 "truncated JSON exits 2" import --db "$DBFILE" --label driveA "$TMP/normal.json" "$TMP/truncated.json"
expect_output "$TMP/truncated.json: truncated JSON: the text ends at line [0-9]+, column [0-9]+" \
	"the truncation is named with its position"
printf '{"name": "not fio", "values": [1, 2]}\n' > "$TMP/other.json"
expect_exit 2 "JSON that is not fio output exits 2" import --db "$DBFILE" --label driveA "$TMP/other.json"
expect_output "other.json: not fio JSON output \(no \"jobs\" array\)" "non-fio JSON is named"
expect_exit 2 "a missing file exits 2" import --db "$DBFILE" --label driveA "$TMP/missing.json"
expect_output "missing.json: No such file or directory" "the missing file is named"
# a file too large to be fio JSON is refused after 256 MiB, not read whole
# into memory and parsed (a tree 10-20x the text)
{ printf '{"jobs": [\n'; head -c 300000000 /dev/zero | tr '\0' ' '; } > "$TMP/huge.json"
expect_exit 2 "a 300 MB file is refused" import --db "$DBFILE" --label driveA "$TMP/huge.json"
expect_output "huge.json: 256 MiB or more, larger than fio JSON this import reads" \
	"the refusal names the file and the bound"
rm -f "$TMP/huge.json"
"$DB" export --db "$DBFILE" --format json > "$TMP/after.json"
check "the database is unchanged by the failed imports" cmp -s "$TMP/before.json" "$TMP/after.json"
expect_exit 2 "a malformed file creates no database" import --db "$TMP/new.db" --label x "$TMP/malformed.json"
check "no database file was created" test ! -e "$TMP/new.db"

# --- usage ---------------------------------------------------------------------
expect_exit 2 "missing --label exits 2" import --db "$DBFILE" "$TMP/normal.json"
expect_output "missing --label LABEL" "the missing label is named"
expect_exit 2 "missing FILE exits 2" import --db "$DBFILE" --label driveA
expect_output "missing FILE" "the missing file argument is named"
expect_exit 2 "unknown option exits 2" import --bogus --label driveA "$TMP/normal.json"
expect_output "unknown option '--bogus'" "the unknown option is named"
expect_exit 2 "--label without a value exits 2" import "$TMP/normal.json" --label
expect_output "--label needs a value" "the missing value is named"
expect_exit 2 "a missing spec file exits 2" import --db "$DBFILE" --label driveA --spec "$TMP/none.ini" "$TMP/normal.json"
expect_output "none.ini'?: No such file or directory" "the missing spec file is named"
expect_exit 0 "import --help" import --help
expect_output "usage: drivebench import" "help shows the usage"

# --- a failure while writing stores nothing of that file ------------------------
# a trigger makes the insert of the json+ file's third result fail, after
# its run row and first two results were written in the same transaction
fdb="$TMP/fail.db"
expect_exit 0 "import the first file" import --db "$fdb" --label driveA "$TMP/normal.json"
sql "$fdb" '
c.execute("""create trigger fail_third before insert on results
    when (select count(*) from results where run_id = new.run_id) = 2
    begin select raise(abort, "injected failure"); end""")
c.commit()'
expect_exit 1 "a write failure exits 1" import --db "$fdb" --label driveB "$TMP/plus.json"
expect_output "plus.json: nothing imported from it: .*injected failure \\(job 'rand'\\)" \
	"the failure names the file, the job and the cause"
check "the failed file left no run and no result, the earlier one is whole" sql "$fdb" '
assert c.execute("select id, finished_ms > 0 from runs").fetchall() == [(1, 1)]
assert c.execute("select count(*) from results").fetchone()[0] == 1
assert c.execute("select count(*) from result_dirs").fetchone()[0] == 2
'
