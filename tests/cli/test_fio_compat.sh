#!/bin/bash
# test_fio_compat.sh - drivebench's JSON and terse output beside fio 3.33's
# for the same jobs: the JSON's keys and value types recursively (every key
# of fio's present with fio's type, every other key one docs/output.md lists
# as drivebench-only), "global options" apart from "job options",
# disk_util for a file and for a loop device; terse lines with fio's field
# count, order and non-timing fields; fio's output-format lists and order.
. "$(dirname "$0")/lib.sh"
DOCS="$(cd "$(dirname "$0")/../../docs" && pwd)"

if ! command -v fio >/dev/null; then
	not_ok "fio is installed (scripts/deps.sh installs it)"
	exit 0
fi

cd "$TMP" || exit 1
cat > jobs.fio <<'EOF'
[global]
ioengine=null
size=4m
iodepth=4
bs=4k

[mixed]
rw=randrw
description=first job
continue_on_error=all

[writes]
rw=write
numjobs=2
group_reporting
stonewall
EOF

# compare FIO_JSON DB_JSON WHAT: keys and types, recursively
compare() {
	python3 - "$1" "$2" "$DOCS/output.md" <<'EOF'
import fnmatch, json, re, sys
fio, db = (json.load(open(p)) for p in sys.argv[1:3])
doc = open(sys.argv[3]).read()
listed = doc.split("<!-- drivebench-only keys")[1].split("<!-- end of drivebench-only keys")[0]
allowed = re.findall(r"^- `([^`]+)`", listed, re.M)
assert "drivebench version" in allowed, allowed
allowed = [a.replace("[]", "[[][]]") for a in allowed]   # "[]" literally
DATA = ("job options", "global options", "bins")   # keys that are data
problems = []
def kind(v):
    return "float" if isinstance(v, float) else "int" if isinstance(v, int) else type(v).__name__
def walk(f, d, path):
    if kind(f) != kind(d):
        problems.append("%s: fio %s, drivebench %s" % (path, kind(f), kind(d)))
        return
    if isinstance(f, dict):
        last = path.rsplit("/", 1)[-1]
        for k in f:
            if k not in d:
                if last in ("bins",):
                    continue                       # values, not schema
                problems.append("missing %s/%s" % (path, k))
            else:
                walk(f[k], d[k], path + "/" + k)
        for k in d:
            p = (path + "/" + k).lstrip("/")
            if k not in f and last not in ("bins",) and \
               not any(fnmatch.fnmatchcase(p, a) for a in allowed):
                problems.append("not in fio, not listed as drivebench's: " + p)
    elif isinstance(f, list):
        if len(f) != len(d):
            problems.append("%s: %d entries in fio, %d" % (path, len(f), len(d)))
        for x, y in zip(f, d):
            walk(x, y, path + "[]")
walk(fio, db, "")
assert not problems, "\n".join(problems)
EOF
}

for fmt in json json+; do
	fio jobs.fio --output-format=$fmt > fio.json 2>fio.err
	run_db run jobs.fio --no-db --output-format=$fmt
	echo "$OUT" > db.json
	check "$fmt: fio's keys and types, and only listed keys more (job file, globals, numjobs, group_reporting, continue_on_error)" \
		compare fio.json db.json
done
check "global options and job options as fio splits them" python3 - fio.json db.json <<'EOF'
import json, sys
fio, db = (json.load(open(p)) for p in sys.argv[1:])
assert db["global options"] == fio["global options"], (db["global options"], fio["global options"])
for f, d in zip(fio["jobs"], db["jobs"]):
    assert f["job options"] == d["job options"], (f["job options"], d["job options"])
assert db["fio version"].startswith("fio-3.x-compatible (drivebench ")
assert list(db)[0] == "fio version"
EOF

# options on the command line: before the first --name they are global
fio --ioengine=null --size=1m --name=c --rw=read --bs=8k --output-format=json > fio.json 2>fio.err
run_db run --no-db --ioengine=null --size=1m --name=c --rw=read --bs=8k --output-format=json
echo "$OUT" > db.json
check "command line: the same keys and types as fio" compare fio.json db.json
check "command line: options before --name are global options" python3 - fio.json db.json <<'EOF'
import json, sys
fio, db = (json.load(open(p)) for p in sys.argv[1:])
assert db["global options"] == fio["global options"] == {"ioengine": "null", "size": "1m"}
assert db["jobs"][0]["job options"] == fio["jobs"][0]["job options"]
EOF

# a file: disk_util where fio has one (the device of the filesystem)
rm -f f.dat
fio --name=f --filename="$TMP/f.dat" --rw=randread --bs=4k --size=8m --direct=1 \
	--output-format=json > fio.json 2>fio.err
run_db run --no-db --name=f --filename="$TMP/f.dat" --rw=randread --bs=4k --size=8m \
	--direct=1 --output-format=json
echo "$OUT" > db.json
check "a file job: the same keys and types as fio, disk_util included" compare fio.json db.json
check "disk_util names the same devices as fio's" python3 - fio.json db.json <<'EOF'
import json, sys
fio, db = (json.load(open(p)) for p in sys.argv[1:])
names = lambda d: [x["name"] for x in d.get("disk_util", [])]
assert names(fio) == names(db), (names(fio), names(db))
EOF

# a loop device: its own counters, every read of the job in them
if [ "$(id -u)" -eq 0 ] && truncate -s 32m "$TMP/loop.img" &&
	LOOPDEV=$(losetup -f --show "$TMP/loop.img" 2>/dev/null); then
	trap 'losetup -d "$LOOPDEV"; rm -rf "$TMP"' EXIT
	fio --name=l --filename="$LOOPDEV" --rw=randread --bs=4k --size=8m --direct=1 \
		--output-format=json > fio.json 2>fio.err
	run_db run --no-db --name=l --filename="$LOOPDEV" --rw=randread --bs=4k --size=8m \
		--direct=1 --output-format=json
	echo "$OUT" > db.json
	check "a loop device: the same keys and types as fio" compare fio.json db.json
	check "disk_util of the loop device counts the job's reads" python3 - db.json "${LOOPDEV#/dev/}" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
du = [x for x in d["disk_util"] if x["name"] == sys.argv[2]]
assert len(du) == 1, d["disk_util"]
ios = d["jobs"][0]["read"]["total_ios"]
assert ios == 2048 and du[0]["read_ios"] + du[0]["read_merges"] >= ios, (du, ios)
assert du[0]["write_ios"] == 0 and 0.0 <= du[0]["util"] <= 100.0, du
EOF
fi

# --- terse -----------------------------------------------------------------
cat > terse.fio <<'EOF'
[global]
ioengine=null
size=1m
bs=4k

[reads]
rw=read

[writes]
rw=write
description=the second one
EOF
for v in 2 3 4 5; do
	fio terse.fio --output-format=terse --terse-version=$v > fio.terse 2>fio.err
	run_db run terse.fio --no-db --output-format=terse --terse-version=$v
	echo "$OUT" > db.terse
	check "terse v$v: fio's field count and non-timing fields, line by line" \
		python3 - fio.terse db.terse $v <<'EOF'
import sys
fio = [l.split(";") for l in open(sys.argv[1]).read().split("\n") if l]
db = [l.split(";") for l in open(sys.argv[2]).read().split("\n") if l]
v = int(sys.argv[3])
assert len(fio) == len(db), (len(fio), len(db))
for f, d in zip(fio, db):
    assert len(f) == len(d), (len(f), len(d))
    if f[0] == "":                 # version 2: the description on its own line
        assert f == d, (f, d)
        continue
    head = 4 if v == 2 else 5
    if v != 2:
        assert f[0] == d[0] == str(v) and d[1].startswith("fio-3.x-compatible")
    assert f[head - 3:head] == d[head - 3:head], (f[:head], d[:head])   # name;groupid;error
    per_dir = 41 + (6 if v == 5 else 0)
    for i in range(3 if v != 3 else 2):
        s = head + i * per_dir
        assert f[s] == d[s], ("io_kbytes", i, f[s], d[s])
        # the 20 percentile slots: the same labels
        fl = [x.split("=")[0] for x in f[s + 12:s + 32]]
        dl = [x.split("=")[0] for x in d[s + 12:s + 32]]
        assert fl == dl, (fl, dl)
    # every field that fio writes as a percentage is one here too
    assert [x.endswith("%") for x in f] == [x.endswith("%") for x in d]
    if len(f[-1]) and not f[-1][0].isdigit() and "%" not in f[-1]:
        assert f[-1] == d[-1], (f[-1], d[-1])          # the description
EOF
done

# --- output-format lists, fio's order ------------------------------------
run_db run --no-db --name=o --ioengine=null --size=1m --output-format=normal,json,terse
check "normal,json,terse prints in fio's order: terse, JSON, summary" python3 - "$OUT" <<'EOF'
import json, sys
text = sys.argv[1]
first, rest = text.split("\n", 1)
assert first.startswith("3;fio-3.x-compatible"), first
start = rest.index("{")
doc, end = json.JSONDecoder().raw_decode(rest[start:])
assert doc["jobs"][0]["jobname"] == "o"
assert "IOPS" in rest[start + end:], rest[start + end:]
EOF
run_db run --no-db --name=o --ioengine=null --size=1m --output-format=json,json+
check "json,json+ is json+ (bins)" python3 -c '
import json, sys
assert "bins" in json.loads(sys.argv[1])["jobs"][0]["read"]["clat_ns"]' "$OUT"
run_db run --no-db --name=o --ioengine=null --size=1m --minimal
check "--minimal is terse" test "$(echo "$OUT" | tr ';' '\n' | wc -l)" -eq 121
expect_exit 2 "an unknown format is bad input" run --no-db --name=o --ioengine=null \
	--size=1m --output-format=json,xml
expect_output "unknown format 'xml'" "the error names the format"
expect_exit 2 "an empty format in the list is bad input" run --no-db --name=o \
	--ioengine=null --size=1m --output-format=json,
expect_exit 2 "terse version 6 is bad input" run --no-db --name=o --ioengine=null \
	--size=1m --output-format=terse --terse-version=6
expect_output "terse-version: '6'" "the error names the version"
