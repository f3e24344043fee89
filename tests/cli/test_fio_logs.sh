#!/bin/bash
# test_fio_logs.sh - fio's log files as drivebench writes them: read by
# fio's own log parsers (Debian's fio ships fiologparser.py and
# fiologparser_hist.py) with the same averages as drivebench's JSON, the
# same file names, columns and meaning as the logs fio 3.33 writes for the
# same job, every I/O logged with log_avg_msec=0, per_job_logs=0, and log
# paths the output gate refuses (exit 3). Job files: tests/data/jobs/logs-*.
. "$(dirname "$0")/lib.sh"
JOBS="$(cd "$(dirname "$0")/../data/jobs" && pwd)"
# Debian's numpy and pandas belong to the system python
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# fio's parsers, as Debian ships them. fiologparser.py reads only four
# columns: it fails on fio 3.33's own logs (five since fio 3.30 added the
# priority column); fio fixed that upstream (commit 5f2a90b8, "fix
# fiologparser.py to work with new logging format") by taking the first
# two, and the copy here gets that one-line fix.
mkdir -p "$TMP/tools"
zcat /usr/share/doc/fio/fiologparser.py.gz > "$TMP/tools/fiologparser.orig.py"
zcat /usr/share/doc/fio/fiologparser_hist.py.gz > "$TMP/tools/fiologparser_hist.py"
sed "s/(time, value, foo, bar) = line.rstrip('\\\\r\\\\n').rsplit(', ')/(time, value) = line.rstrip('\\\\r\\\\n').rsplit(', ')[:2]/" \
	"$TMP/tools/fiologparser.orig.py" > "$TMP/tools/fiologparser.py"
check "fiologparser.py gets upstream's fix for the priority column" \
	grep -q "rsplit(', ')\[:2\]" "$TMP/tools/fiologparser.py"

# --- every I/O (log_avg_msec=0) ------------------------------------------
mkdir "$TMP/every" && cd "$TMP/every" || exit 1
run_db run "$JOBS/logs-every-io.fio" --no-db --output-format=json
check "logs-every-io.fio runs" test "$RC" -eq 0
echo "$OUT" > every.json
check "fio's file names, an entry per I/O, lat = slat + clat, offsets in range" \
	python3 - every.json <<'EOF'
import json, os, sys
d = json.load(open(sys.argv[1]))["jobs"][0]
names = sorted(f for f in os.listdir(".") if f.endswith(".log"))
assert names == ["every_bw.1.log", "every_clat.1.log", "every_iops.1.log",
                 "every_lat.1.log", "every_slat.1.log"], names
def rows(name):
    return [[int(x) for x in l.split(", ")] for l in open(name)]
n = d["read"]["total_ios"] + d["write"]["total_ios"]
logs = {k: rows("every_%s.1.log" % k) for k in ("bw", "clat", "iops", "lat", "slat")}
for k, r in logs.items():
    assert len(r) == n, (k, len(r), n)
    assert all(len(x) == 6 for x in r), k          # T, V, DIR, BS, OFFSET, PRIO
    assert all(x[2] in (0, 1) and x[3] == 4096 and x[5] == 0 for x in r), k
    assert all(x[4] % 4096 == 0 and x[4] < 4 << 20 for x in r), k
    assert sum(x[2] == 1 for x in r) == d["write"]["total_ios"], k
for s, c, l in zip(logs["slat"], logs["clat"], logs["lat"]):
    assert l[1] == s[1] + c[1] and s[0] == c[0] == l[0] and s[4] == c[4] == l[4]
assert all(x[1] == 1 for x in logs["iops"])
for b, c in zip(logs["bw"], logs["clat"]):    # fio: bytes * 10^6 / clat ns
    assert b[1] == (4096 * 10**6 // c[1] if c[1] else 0), (b, c)
for kind in ("slat", "clat", "lat"):          # the JSON's mean, exactly
    for dirn, name in ((0, "read"), (1, "write")):
        v = [x[1] for x in logs[kind] if x[2] == dirn]
        want = d[name][kind + "_ns"]
        assert len(v) == want["N"], kind
        assert abs(sum(v) / len(v) - want["mean"]) <= 1e-9 * want["mean"], kind
        assert (min(v), max(v)) == (want["min"], want["max"]), kind
EOF

# --- averaged logs and fiologparser.py ------------------------------------
mkdir "$TMP/avg" && cd "$TMP/avg" || exit 1
run_db run "$JOBS/logs-averaged.fio" --no-db --output-format=json
check "logs-averaged.fio runs" test "$RC" -eq 0
echo "$OUT" > avg.json
"$PY" "$TMP/tools/fiologparser.orig.py" avg_bw.1.log > orig.out 2>&1
check "Debian's fiologparser.py fails on five columns, as on fio 3.33's logs" \
	grep -q "too many values to unpack" orig.out
"$PY" "$TMP/tools/fiologparser.py" avg_bw.1.log > bw.out 2>bw.err
"$PY" "$TMP/tools/fiologparser.py" avg_iops.1.log > iops.out 2>>bw.err
check "fiologparser.py reads the bw and iops logs" test -s bw.out -a -s iops.out
# The bw and iops logs' entries are the JSON's samples, as in fio: the
# job writes the logs with log_avg_msec=100, so bwavgtime and iopsavgtime
# are 100 ms (fio's init.c), and each sample, taken at the first look at
# or past each 100 ms grid point over the whole milliseconds since the
# last, is one entry. So the count, min, max and mean agree exactly, and
# fiologparser.py's time-weighted average is the weighted mean of them.
check "the bw and iops logs are the JSON's samples; fiologparser.py's averages" \
	python3 - avg.json bw.out iops.out <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["read"]
parsed_bw, parsed_iops = float(open(sys.argv[2]).read()), float(open(sys.argv[3]).read())
def rows(path):
    return [[int(x) for x in l.split(", ")] for l in open(path)]
bw, iops = rows("avg_bw.1.log"), rows("avg_iops.1.log")
for log, kind in ((bw, "bw"), (iops, "iops")):
    assert len(log) >= 10 and all(len(x) == 5 and x[2:] == [0, 0, 0] for x in log), log[:3]
    t = [x[0] for x in log]
    assert all(b > a for a, b in zip(t, t[1:])), t
    assert all(x >= 100 * (k + 1) for k, x in enumerate(t)), t      # on the grid
    v = [x[1] for x in log]
    assert r[kind + "_samples"] == len(v), (kind, r[kind + "_samples"], len(v))
    assert (r[kind + "_min"], r[kind + "_max"]) == (min(v), max(v)), kind
    assert abs(r[kind + "_mean"] - sum(v) / len(v)) <= 1e-6 * r[kind + "_mean"], kind
def weighted(rows):
    prev, total = 0, 0.0
    for t, v, *_ in rows:
        total += v * (t - prev)
        prev = t
    return total / prev
assert abs(parsed_bw - weighted(bw)) < 0.002, (parsed_bw, weighted(bw))
assert abs(parsed_iops - weighted(iops)) < 0.002, (parsed_iops, weighted(iops))
EOF
check "averaged latency logs: fio's windows, the means weighted back to the JSON's" \
	python3 - avg.json <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["read"]
for kind in ("slat", "clat", "lat"):
    rows = [[int(x) for x in l.split(", ")] for l in open("avg_%s.1.log" % kind)]
    assert all(len(x) == 5 and x[3:] == [0, 0] for x in rows), kind
    t = [x[0] for x in rows]
    assert t == sorted(t) and len(t) >= 10 and t[0] >= 100, kind
    # an entry comes at the first sample 100 ms or more after its window
    # began, at the multiple of 100 below the entry before (the last one:
    # what was left at the end)
    assert all(b >= a - a % 100 + 100 for a, b in zip(t[:-2], t[1:-1])), kind
    lo, hi = min(x[1] for x in rows), max(x[1] for x in rows)
    mean = r[kind + "_ns"]["mean"]
    assert lo <= mean + 1 and hi >= mean - 1, (kind, lo, hi, mean)
EOF

# --- hist log and fiologparser_hist.py ------------------------------------
mkdir "$TMP/hist" && cd "$TMP/hist" || exit 1
run_db run "$JOBS/logs-hist.fio" --no-db --output-format=json
check "logs-hist.fio runs" test "$RC" -eq 0
echo "$OUT" > hist.json
for f in hist_clat_hist.1.log coarse_clat_hist.2.log; do
	"$PY" "$TMP/tools/fiologparser_hist.py" --noweight -i 100000000 \
		--percentiles 50:90:99 "$f" > "$f.out" 2>"$f.err"
done
check "fiologparser_hist.py reads both hist logs" \
	test -s hist_clat_hist.1.log.out -a -s coarse_clat_hist.2.log.out
# Every line holds a window's counts: they add up to at most the JSON's N
# (fio never writes the last, partial window); the parser's percentiles,
# interpolated between bin midpoints, are the JSON's within two bins (1/32).
check "fiologparser_hist.py's percentiles are the JSON's within the histogram's resolution" \
	python3 - hist.json <<'EOF'
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
for job, name, bins in ((jobs[0], "hist_clat_hist.1.log", 1856),
                        (jobs[1], "coarse_clat_hist.2.log", 464)):
    clat = job["read"]["clat_ns"]
    lines = [[int(x) for x in l.split(", ")] for l in open(name)]
    assert all(len(x) == 3 + bins for x in lines), (name, len(lines[0]))
    assert all(x[1] == 0 and x[2] == 4096 for x in lines), name
    # an entry about every 100 ms of the 2 s (fio's window), in time order
    t = [x[0] for x in lines]
    assert t == sorted(t) and 10 <= len(t) <= 21, (name, t)
    logged = sum(sum(x[3:]) for x in lines)
    assert 0.8 * clat["N"] <= logged <= clat["N"], (name, logged, clat["N"])
    head, row = open(name + ".out").read().splitlines()[:2]
    cols = dict(zip([c.strip() for c in head.split(",")], [float(v) for v in row.split(",")]))
    assert cols["samples"] == logged, (cols["samples"], logged)
    for p in ("50", "90", "99"):
        want = clat["percentile"]["%s.000000" % p]
        assert abs(cols[p + "%"] - want) <= want / 32, (name, p, cols[p + "%"], want)
# log_max_value: each window's largest latency: none above the job's max,
# and the windows of 200 ms (thousands of I/Os spread 0.1-2 ms) reach above
# its mean; the last entry is what was left at the end
rows = [[int(x) for x in l.split(", ")] for l in open("coarse_lat.2.log")]
assert max(x[1] for x in rows) == jobs[1]["read"]["lat_ns"]["max"]
assert min(x[1] for x in rows[:-1]) >= jobs[1]["read"]["lat_ns"]["mean"]
EOF

# --- per_job_logs=0: one file for the job's clones -------------------------
mkdir "$TMP/shared" && cd "$TMP/shared" || exit 1
run_db run "$JOBS/logs-shared.fio" --no-db --output-format=json
check "logs-shared.fio runs" test "$RC" -eq 0
echo "$OUT" > shared.json
check "per_job_logs=0: one file NAME_iops.log with both clones' I/Os" python3 - shared.json <<'EOF'
import json, os, sys
d = json.load(open(sys.argv[1]))
names = sorted(f for f in os.listdir(".") if f.endswith(".log"))
assert names == ["shared_iops.log"], names
n = sum(j["read"]["total_ios"] for j in d["jobs"])
assert n == 2 * 2048 and sum(1 for _ in open(names[0])) == n
EOF

# --- the same job as fio: names, columns, meaning ------------------------
if command -v fio >/dev/null; then
	for tool in fio db; do
		mkdir "$TMP/$tool" && cd "$TMP/$tool" || exit 1
		args="--name=cmp --ioengine=null --rw=randrw --bs=4k --iodepth=4 --size=4m
			--write_bw_log=cmp --write_lat_log=cmp --write_iops_log=cmp
			--write_hist_log=cmp --log_hist_msec=1 --log_offset=1 --log_prio=1"
		# shellcheck disable=SC2086
		if [ $tool = fio ]; then fio $args --output-format=json > out.json 2>err
		else "$DB" run --no-db $args --output-format=json > out.json 2>err; fi
	done
	cd "$TMP" || exit 1
	"$PY" "$TMP/tools/fiologparser.orig.py" "$TMP/fio/cmp_bw.1.log" > "$TMP/fio/orig.out" 2>&1
	check "Debian's fiologparser.py fails on fio 3.33's own bw log the same way" \
		grep -q "too many values to unpack" "$TMP/fio/orig.out"
	check "the logs of fio and drivebench for one job: same files, columns and meaning" \
		python3 - "$TMP/fio" "$TMP/db" <<'EOF'
import json, os, sys
fio, db = sys.argv[1], sys.argv[2]
names = lambda d: sorted(f for f in os.listdir(d) if f.endswith(".log"))
assert names(fio) == names(db), (names(fio), names(db))
for name in names(fio):
    f = [l.split(", ") for l in open(os.path.join(fio, name))]
    b = [l.split(", ") for l in open(os.path.join(db, name))]
    if "hist" in name:    # T, DIR, BS and fio's 1856 bins (a run this short may have none)
        assert {len(x) for x in f} <= {1859} and {len(x) for x in b} <= {1859}, name
        continue
    # T, VALUE, DIR, BS, OFFSET, PRIO (0x....): the same width and kinds
    assert {len(x) for x in f} == {len(x) for x in b} == {6}, name
    for rows in (f, b):
        assert all(x[2] in ("0", "1") and x[3] == "4096" for x in rows), name
        assert all(int(x[4]) % 4096 == 0 and x[5].strip() == "0x0000" for x in rows), name
    # an entry per I/O in both (fio's null engine at iodepth 4 logs slat too)
    jf = json.load(open(os.path.join(fio, "out.json")))["jobs"][0]
    jb = json.load(open(os.path.join(db, "out.json")))["jobs"][0]
    nf = jf["read"]["total_ios"] + jf["write"]["total_ios"]
    nb = jb["read"]["total_ios"] + jb["write"]["total_ios"]
    assert (len(f), len(b)) == (nf, nb) == (1024, 1024), (name, len(f), len(b))
EOF
else
	not_ok "fio is not installed (scripts/deps.sh installs it): cannot compare the logs with fio's"
fi

# --- log paths the output gate refuses -----------------------------------
cd "$TMP" || exit 1
mknod "$TMP/dev_bw.1.log" b 7 0 2>/dev/null
if [ -b "$TMP/dev_bw.1.log" ]; then
	expect_exit 3 "a bw log that would be a block device is refused" \
		run --no-db --name=g --ioengine=null --size=1m --write_bw_log="$TMP/dev"
	expect_output "write_bw_log.*dev_bw\.1\.log" "the refusal names the option and the file"
else
	skip "a bw log that would be a block device: mknod needs root"
fi
expect_exit 3 "a lat log under /proc is refused" \
	run --no-db --name=g --ioengine=null --size=1m --write_lat_log=/proc/self/x
check "nothing ran: no I/O reported" test -z "$OUT"
expect_exit 2 "a log in a missing directory is bad input" \
	run --no-db --name=g --ioengine=null --size=1m --write_iops_log="$TMP/none/x"
expect_exit 2 "log_compression is refused by name" \
	run --no-db --name=g --ioengine=null --size=1m --write_bw_log=x --log_compression=1m
expect_output "log_compression.*not supported" "the error names log_compression"

# a synchronous engine has no submission latency: fio's slat log is empty
# (its JSON's slat_ns.N is 0), while the clat and lat logs have an entry
# per I/O; drivebench wrote 256 slat entries here, fio none
mkdir "$TMP/sync" && cd "$TMP/sync" || exit 1
expect_exit 0 "a psync job with write_lat_log" run --no-db --name=g --ioengine=psync \
	--rw=write --bs=4k --size=1m --filename="$TMP/sync/f.dat" --write_lat_log=g
check "psync: the slat log is empty, as fio's" test -e g_slat.1.log -a ! -s g_slat.1.log
check "psync: the clat and lat logs have an entry per I/O" \
	test "$(wc -l <g_clat.1.log)" -eq 256 -a "$(wc -l <g_lat.1.log)" -eq 256
expect_exit 0 "a libaio job with write_lat_log" run --no-db --name=g --ioengine=libaio \
	--rw=write --bs=4k --size=1m --filename="$TMP/sync/f.dat" --write_lat_log=a
check "libaio: the slat log has an entry per I/O" test "$(wc -l <a_slat.1.log)" -eq 256
