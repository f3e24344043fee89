#!/bin/bash
# test_model_target.sh - a modelled drive as a target, vssd:FILE[@SCALE]
# (docs/vssd.md): refusals by name (no file, a missing file, no scale after
# '@', a bad scale, another engine, another drive in vssd_model); `info`
# shows a fresh model; background GC books nothing in gaps shorter than a
# step (the stall that fed itself); a short suite on the model: the purge
# formats it, every step runs on ioengine=vssd with the model recorded in
# its snapshots, steady state is reached after more than one round and
# below fresh-out-of-box, 128K reads are capped at the link, random writes
# show WAF > 1, the checkpoints are regions with a second pass.
. "$(dirname "$0")/lib.sh"

model="$(pwd)/tests/data/models/test-tlc.ini"
target="vssd:$model@2g"

# --- refusals -----------------------------------------------------------------
expect_exit 2 "a model target without a file is refused" info "vssd:"
expect_output "no model file after 'vssd:'" "... saying what is missing"
expect_exit 2 "a model target with a missing file is refused" info "vssd:$TMP/none.ini"
expect_output "none.ini" "... naming the file"
expect_exit 2 "'@' without a scale is refused" info "vssd:$model@"
expect_output "no scale after '@'" "... saying so"
expect_exit 2 "a bad scale is refused" info "vssd:$model@2"
expect_output "option 'vssd_scale': 2 is not a fraction" "... naming the option"
expect_exit 2 "a model target with another engine is refused" run --no-db --name=x \
	--filename="$target" --ioengine=psync --rw=read --bs=4k --size=1m
expect_output "is a modelled drive: it takes ioengine=vssd, not ioengine=psync" "... naming both"
expect_exit 2 "a model target and another vssd_model are refused" run --no-db --name=x \
	--filename="$target" --ioengine=vssd --vssd_model="$(pwd)/models/generic-qlc.ini" \
	--rw=read --bs=4k --size=1m
expect_output "name different drives" "... as two drives"
check "nothing was created for the refused targets" test ! -e "vssd:$model@2g"

# --- info ---------------------------------------------------------------------
expect_exit 0 "info on a model" info "$target"
expect_output "kind: +model" "it is a model"
expect_output "model: +test TLC model \(model, scale 2g\)" "its name says model and scale"
expect_output "fresh" "a drive this process has not used is fresh"
expect_output "write allowed: +yes" "writing needs no consent (no data to lose)"

# --- background GC in short gaps ----------------------------------------------
# Bursts of 64 writes at QD32 with 3 ms pauses on a drive in garbage
# collection: a pause is shorter than a GC step (43 ms), so none is booked
# in it. Booking one in every pause stalled the writes at 9 IOPS.
cat >"$TMP/gaps.fio" <<JOB
[global]
ioengine=vssd
vssd_model=$model
vssd_scale=2g
size=2g
[fill]
rw=write
bs=128k
iodepth=64
[overwrite]
stonewall
rw=randwrite
bs=4k
iodepth=32
runtime=1
time_based
[gaps]
stonewall
rw=randwrite
bs=4k
iodepth=32
thinktime=3ms
thinktime_blocks=64
runtime=1
time_based
JOB
expect_exit 0 "bursts with short pauses on the model" run --no-db --output-format=json "$TMP/gaps.fio"
printf '%s' "$OUT" >"$TMP/gaps.json"
check "short pauses book no GC the writes then wait behind (> 5000 IOPS)" python3 - "$TMP/gaps.json" <<'PY'
import json, sys
jobs = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
iops = jobs["gaps"]["write"]["iops"]
print("bursts with pauses:", iops, "IOPS")
assert iops > 5000, iops
PY

# --- a short suite on the model -----------------------------------------------
cat >"$TMP/short.suite" <<'SUITE'
[suite]
name = model-short
[global]
ioengine = io_uring
direct = 1
time_based = 1
runtime = 1s
[purge]
step = purge
[fill]
step = precondition
precondition = sequential
capacities = 1
bs = 128k
iodepth = 64
[seq-read]
step = measure
rw = read
bs = 128k
iodepth = 64
[steady-4k]
step = steady
rw = randwrite
bs = 4k
iodepth = 32
metric = iops
window = 3
max_rounds = 8
[checkpoint]
step = checkpoint
checkpoint_size = 32MB
ranks = 2
count = 1
passes = 2
SUITE
db="$TMP/model.db"
expect_exit 0 "a short suite on the model" suite --suite "$TMP/short.suite" --db="$db" "$target"
check "the purge formatted the model" sql "$db" '
import json
d = json.loads(c.execute("select detail from steps where name = ?", ("purge",)).fetchone()[0])
assert d["method"] == "format" and d["bytes"] == 2 << 30, d
'
check "every result ran on ioengine=vssd with the model in its snapshot" sql "$db" '
import json
rows = c.execute("select job_name, options_json, drive_before from results").fetchall()
assert rows
for name, opts, before in rows:
    o = json.loads(opts)
    assert o.get("ioengine") == "vssd" and o.get("vssd_scale") == "2g", (name, o)
    if before:
        b = json.loads(before)
        assert b["kind"] == "model" and b["model_scale"] == "2g", (name, b["kind"])
        assert "(model, scale 2g)" in b["model"], b["model"]
'
check "steady state after more than one round, below fresh-out-of-box" sql "$db" '
import json
step = c.execute("select id, detail from steps where name = ?", ("steady-4k",)).fetchone()
d = json.loads(step[1])
rounds = c.execute("select r.id, d.iops from results r join result_dirs d on d.result_id = r.id"
                   " where r.step_id = ? and d.iops > 0 order by r.id", (step[0],)).fetchall()
print("rounds", [int(x[1]) for x in rounds])
assert d["reached"] is True and len(rounds) > 1 and len(rounds) == len(d["rounds"]), d
assert rounds[-1][1] < 0.8 * rounds[0][1], rounds
'
# right after the sequential fill: random 4K overwrites scatter a 128K
# range over 32 pages, and reads of it are then page-bound (2.6 GB/s)
check "128K sequential reads are capped at the PCIe 4 x4 link (7.88 GB/s)" sql "$db" '
bw = c.execute("select d.bw_bytes from results r join result_dirs d on d.result_id = r.id"
               " where r.job_name = ?", ("seq-read",)).fetchone()[0]
print("seq read", bw / 1e6, "MB/s")
assert 0.85 * 7.877e9 <= bw <= 7.877e9 * 1.01, bw
'
check "random writes on the filled model amplify (WAF > 1.5 in the drive delta)" sql "$db" '
import json
deltas = [json.loads(x[0]) for x in c.execute(
    "select drive_delta from results where job_name like ? and drive_delta is not null",
    ("steady-4k%",))]
waf = [d["write_amplification"] for d in deltas[1:] if d["write_amplification"]]
print("WAF per round", waf)
assert waf and max(waf) > 1.5, waf
'
check "the checkpoints are regions of the model, two passes" sql "$db" '
import json
d = json.loads(c.execute("select detail from steps where name = ?", ("checkpoint",)).fetchone()[0])
assert d["mode"] == "regions" and d["device"].startswith("vssd:"), d
passes = {x[0] for x in c.execute("select pass from results where job_name like ?", ("pass%",))}
assert passes == {1, 2}, passes
'
check "no file was created for the model target" test ! -e "vssd"

# --- the whole quick suite on a fitted model ----------------------------------
# (every timed part at 0.1 of its time: about 28 s, most of it the fills of
# the 8g model at its modelled speed)
expect_exit 2 "--time-scale 0 is refused" suite --suite quick --time-scale 0 --db="$TMP/ts.db" "$target"
expect_output "--time-scale: 0 is not in \[0.01, 100\]" "... naming the option and its range"
expect_exit 2 "--time-scale abc is refused" suite --suite quick --time-scale abc --db="$TMP/ts.db" "$target"
expect_output "--time-scale: 'abc' is not a number" "... naming the option"
check "nothing stored for the refused runs" test ! -e "$TMP/ts.db"
qdb="$TMP/quick.db"
p5336="vssd:$(pwd)/specs/solidigm-d5-p5336-122t.ini@8g"
expect_exit 0 "the whole quick suite on the modelled D5-P5336 at 8g" \
	suite --suite quick --time-scale 0.1 --db="$qdb" "$p5336"
check "every step done, the checkpoints as regions of the model" sql "$qdb" '
import json
rows = c.execute("select name, status from steps order by id").fetchall()
assert len(rows) == 24 and all(s == "done" for _, s in rows), rows
d = json.loads(c.execute("select detail from steps where name = \"checkpoint\"").fetchone()[0])
assert d["mode"] == "regions" and d["checkpoints"] == 3, d
'

# --- the one-drive report of that suite, as a reader at 1400 px sees it --------
# Before issue 16 the demo's report (quick suite and checkpoint fill on this
# model at 8g) was 26,258 px tall at 1400 px: the review page must be at
# most half of that.
expect_exit 0 "the report of the quick suite on the model" report --db "$qdb" --out "$TMP/q.html"
if command -v chromium >/dev/null 2>&1; then
	sed 's|</body>|<script>document.body.setAttribute("data-height", document.documentElement.scrollHeight)</script></body>|' \
		"$TMP/q.html" > "$TMP/qh.html"
	height=$(timeout 60 chromium --headless --no-sandbox --disable-gpu --window-size=1400,900 \
		--user-data-dir="$(mktemp -d "$TMP/chrome.XXXXXX")" --dump-dom "file://$TMP/qh.html" 2>/dev/null |
		grep -o 'data-height="[0-9]*"' | tr -dc '0-9')
	check "the page is at most half as tall as before (${height:-?} px <= 13129 at 1400 px)" \
		test "${height:-99999}" -le 13129
else
	not_ok "chromium is not installed (sh scripts/deps.sh): cannot measure the page"
fi

# --- the checkpoint fill (make demo's second suite) -----------------------------
cdb="$TMP/fill.db"
expect_exit 0 "suites/checkpoint-fill.suite on the model" \
	suite --suite "$(pwd)/suites/checkpoint-fill.suite" --db="$cdb" "$target"
check "it formats the model, then fills 90% of it with checkpoints in 3 passes" sql "$cdb" '
import json
purge = json.loads(c.execute("select detail from steps where name = \"purge\"").fetchone()[0])
assert purge["method"] == "format", purge
d = json.loads(c.execute("select detail from steps where name = \"checkpoint\"").fetchone()[0])
# 0.9 x 2 GiB / 256 MB = 7 checkpoints
assert d["mode"] == "regions" and d["checkpoints"] == 7, d
per_pass = dict(c.execute("select pass, count(*) from results where pass is not null group by pass"))
assert per_pass == {1: 7, 2: 7, 3: 7}, per_pass
'
# Pass 1 writes the blocks the format erased; pass 2 frees the blocks it
# overwrites and waits for their erases (the model at 2g: about 5%).
check "checkpoint pass 2 is slower than pass 1 (the drive is full)" sql "$cdb" '
mean = dict(c.execute("select pass, avg(runtime_ns) from results where pass is not null group by pass"))
print("pass means (s):", {p: round(v / 1e9, 4) for p, v in mean.items()})
assert mean[2] > mean[1] * 1.01, mean
'
