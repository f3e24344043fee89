#!/bin/bash
# test_steady_model.sh - the two steady-state detectors against a drive
# that really changes: the test TLC model (tests/data/models/test-tlc.ini,
# docs/vssd.md). The suite's steady step (SNIA PTS, src/suite/steady.c)
# after a sequential fill: round 1 is fresh-out-of-box and faster, so the
# steady state comes after more than one window; the stored verdict (step
# detail: rounds, reached, window, mean, range, slope) is what the stored
# rounds' IOPS give, recomputed here; the steady window's WAF and IOPS are
# the model's greedy GC; a window too strict is not reached within
# max_rounds and says so. fio's ss= in a job (src/measure/steadystate.c)
# on a fresh drive: not attained before the SLC-free write cliff, then
# attained (deviation criterion) as fio's criterion says, recomputed from
# the window; a criterion too strict is not attained and the job runs its
# whole runtime.
#
# The model's figures used in the thresholds (test-tlc.ini):
# - 32 dies, 16 KiB pages of 4 x 4 KiB IUs, 64 pages per block, tPROG
#   600 us: the dies program at most 32 x 4 / 600 us = 213,333 IUs per
#   second (873.8 MB/s), the bound of every write rate below.
# - at 2g, 2 GiB x 1.2 / 1 MiB / 32 = 76.8 -> 77 data blocks per die for 64
#   logical ones (plus 4 reserve blocks: the 3 kept free by GC and the open
#   ones, docs/vssd.md): the drive's OP is 77/64 - 1 = 0.203, greedy GC's
#   WAF under uniform random writes about 0.5/0.203 + 0.7 = 3.16.
# Random writes use norandommap=1: uniform random as the GC model assumes
# (fio's random map writes each block once per pass, which lowers the WAF
# of runs longer than a fraction of a pass).
. "$(dirname "$0")/lib.sh"

model="$(pwd)/tests/data/models/test-tlc.ini"
DIE_IUS=213333   # IUs per second the 32 dies can program (above)

# --- the suite's steady step (SNIA PTS) ---------------------------------------
cat >"$TMP/steady.suite" <<'SUITE'
[suite]
name = steady-model
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
bs = 128k
iodepth = 64
[steady]
step = steady
rw = randwrite
norandommap = 1
bs = 4k
iodepth = 32
window = 3
max_rounds = 8
[strict]
step = steady
rw = randwrite
norandommap = 1
bs = 4k
iodepth = 32
window = 3
max_rounds = 3
range_limit = 0.0001
SUITE
db="$TMP/steady.db"
expect_exit 0 "steady steps on the model after a sequential fill" \
	suite --suite "$TMP/steady.suite" --db="$db" "vssd:$model@2g"
expect_output "steady steady: steady state reached after [0-9]+ rounds" "... the first one says it reached steady state"
expect_output "strict steady: steady state not reached after 3 rounds" "... the strict one says it did not, after max_rounds"

# Shared by the checks below: the step's detail and its stored rounds (IOPS
# of each round's result, by point) with their drive deltas' WAF, and the
# PTS window figures recomputed from them.
cat >"$TMP/rounds.py" <<'PY'
import json
def rounds(c, name):
    sid, detail = c.execute("select id, detail from steps where name = ?", (name,)).fetchone()
    rows = c.execute("""select r.point, sum(d.iops), r.drive_delta from results r
        join result_dirs d on d.result_id = r.id where r.step_id = ?
        group by r.id order by r.point""", (sid,)).fetchall()
    assert [r[0] for r in rows] == list(range(len(rows))), rows
    waf = [json.loads(r[2])["write_amplification"] for r in rows]
    return json.loads(detail), [r[1] for r in rows], waf
def window(v):
    n = len(v)
    mean = sum(v) / n
    xm = (n - 1) / 2
    slope = sum((x - xm) * (y - mean) for x, y in enumerate(v)) / \
        sum((x - xm) ** 2 for x in range(n))
    return mean, max(v) - min(v), slope, abs(slope) * (n - 1)
def steady(v, d):
    mean, rng, slope, exc = window(v)
    return rng <= d["range_limit"] * mean and exc <= d["slope_limit"] * mean
def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1)
PY
export PYTHONPATH="$TMP"

check "the stored verdict is the stored rounds' IOPS: rounds, mean, range, slope recomputed" sql "$db" '
from rounds import *
d, iops, waf = rounds(c, "steady")
w = d["window"]
print("rounds", [round(x) for x in iops], "WAF", [round(x, 2) for x in waf])
print("detail: mean %.0f range %.0f slope %.1f excursion %.1f" %
      (d["mean"], d["range"], d["slope"], d["slope_excursion"]))
assert w == 3 and d["window_start"] == 0 and d["metric"] == "iops", d
assert len(d["rounds"]) == len(iops) and all(close(a, b) for a, b in zip(d["rounds"], iops)), d
mean, rng, slope, exc = window(iops[-w:])
assert close(d["mean"], mean) and close(d["range"], rng), (d, mean, rng)
assert close(d["slope"], slope) and close(d["slope_excursion"], exc), (d, slope, exc)
assert d["reached"] is True and steady(iops[-w:], d), d
# the detector stops at the first steady window: every earlier one fails
for n in range(w, len(iops)):
    assert not steady(iops[n - w:n], d), ("steady at round %d already" % n, iops)
'

# Round 1 after the fill: each die has about 81 - 64 - 3 (kept free) - 1
# (open) = 13 free blocks, 13 x 256 x 32 = 106k IUs that take random writes
# with no relocation, at the die rate (213k/s) within half a second; the
# steady rate at WAF ~3 is at most 213k / 3 = 71k IOPS. So round 1 is at
# least (106k + 0.5 s x steady) / steady >= 1.9 x steady IOPS; 1.25 x (above
# 1 + range_limit) is enough to say no window holding round 1 can pass the
# 20% range test: steady state needs more than `window` rounds.
check "round 1 is fresh-out-of-box (> 1.25 x the steady mean): steady only after more than one window" sql "$db" '
from rounds import *
d, iops, waf = rounds(c, "steady")
print("round 1 %.0f IOPS, %.2f x the steady mean %.0f; reached after %d rounds"
      % (iops[0], iops[0] / d["mean"], d["mean"], len(iops)))
assert iops[0] > 1.25 * d["mean"], (iops[0], d["mean"])
assert len(iops) > d["window"] and d["reached"], iops
'

# The steady window is greedy GC: its WAF (media over host bytes of its
# rounds' drive deltas) within 20% of 3.16 (the formula is for many blocks;
# 77 per die and 256-IU blocks put it a few % off, docs/vssd.md), and its
# IUs programmed per second (IOPS x WAF) at most the dies' 213k/s and at
# least 0.7 of it: per block of 256 IUs programmed (64 x 600 us = 38.4 ms)
# a die also erases one block (3 ms) and reads at most the victim's 64
# pages (3.2 ms), so programs are 86% of a busy die's time; the rest of the
# margin is for the dies' idle gaps.
check "the steady window's WAF is greedy GC's (2.5..3.8) and IOPS x WAF is 0.7..1.0 of the dies' program rate" sql "$db" '
from rounds import *
d, iops, waf = rounds(c, "steady")
w = d["window"]
host = media = 0
for r in c.execute("""select drive_delta from results where step_id =
        (select id from steps where name = ?) order by point""", ("steady",)).fetchall()[-w:]:
    delta = json.loads(r[0])
    host += int(delta["host_bytes_written"])
    media += int(delta["media_bytes_written"])
a = media / host
rate = d["mean"] * a / '$DIE_IUS'
print("window: WAF %.3f (rounds %s), %.0f IOPS x WAF = %.2f of %d IUs/s"
      % (a, [round(x, 2) for x in waf[-w:]], d["mean"], rate, '$DIE_IUS'))
assert 0.8 * 3.16 <= a <= 1.2 * 3.16, a
assert 0.7 <= rate <= 1.0, rate
'

# Range limit 0.01% of ~57k IOPS is 6 I/Os in a second. One GC step on one
# die (a victim of 256 IUs at ~2/3 valid frees ~86 IUs for the host) moves a
# round's count by more than that, and each round has ~21 steps on each of
# the 32 dies: three rounds cannot agree so closely.
check "a window too strict (range_limit 0.01%) is not reached within max_rounds, and the detail says why" sql "$db" '
from rounds import *
d, iops, waf = rounds(c, "strict")
print("strict rounds", [round(x) for x in iops], "range %.0f = %.3f%% of the mean"
      % (d["range"], 100 * d["range"] / d["mean"]))
assert d["reached"] is False and len(iops) == d["max_rounds"] == 3, d
mean, rng, slope, exc = window(iops[-3:])
assert close(d["mean"], mean) and close(d["range"], rng) and close(d["slope"], slope), d
assert rng > d["range_limit"] * mean and not steady(iops, d), (rng, mean)
'

# --- fio's steady state (ss=) in a job, on a fresh drive -------------------------
# At 1g a die has 1.2 GiB / 1 MiB / 32 = 38 data blocks and 4 reserve
# ones. A fresh drive takes writes with no GC into all but the 3 kept free
# and the open one: 38 x 32 blocks = 1216 MiB, at most 873.8 MB/s, so for
# at least 1.4 s. The first second of the series is at the dies' rate (0.8
# of it allows for the runner's own gaps on a loaded machine), and
# a 2 s window that holds a sample of that (213k against ~110k after the
# cliff) deviates by more than 20%: attained no earlier than 1.4 s + ss_dur.
cat >"$TMP/ss.fio" <<JOB
[global]
ioengine=vssd
vssd_model=$model
vssd_scale=1g
size=1g
rw=randwrite
norandommap=1
bs=4k
iodepth=32
time_based
ss_dur=2s
ss_interval=500ms
[fresh]
runtime=10s
ss=iops:20%
[strict]
stonewall
runtime=3s
ss=iops:0.01%
JOB
expect_exit 0 "random writes with fio's ss= on a fresh model" run --no-db --output-format=json "$TMP/ss.fio"
printf '%s' "$OUT" >"$TMP/ss.json"
cat >"$TMP/ss.py" <<'PY'
import json, sys
jobs = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
def judged(j):
    """fio's deviation criterion over the window, recomputed: the largest
    distance from the window's mean, in % of it."""
    ss = j["steadystate"]
    v = ss["data"]["iops"]
    mean = sum(v) / len(v)
    crit = 100 * max(abs(x - mean) for x in v) / mean
    assert abs(crit - float(ss["criterion"].rstrip("%"))) < 1e-3 * max(crit, 1), (crit, ss)
    assert abs(ss["max_deviation"] - max(abs(x - mean) for x in v)) < 1e-6 * mean, ss
    return v, mean, crit
PY
check "fio's ss: the fresh drive runs at the dies' rate first, attains only after the cliff, stops before its runtime" python3 - "$TMP/ss.json" <<PY
exec(open("$TMP/ss.py").read())
j = jobs["fresh"]
ss, series = j["steadystate"], [s["write"]["ios"] for s in j["drivebench"]["series"]]
v, mean, crit = judged(j)
print("per second", series, "; attained", ss["attained"], "at", j["job_runtime"], "ms;",
      "window", v, "criterion %.2f%%" % crit)
assert series[0] >= 0.8 * $DIE_IUS, series          # no GC in the first second
assert ss["attained"] == 1 and crit < 20, ss
assert 1400 + 2000 <= j["job_runtime"] < 10000, j["job_runtime"]
assert max(v) < 0.8 * $DIE_IUS, v                     # the window is past the cliff
PY
# After the cliff the victims' validity climbs from ~0 to greedy's ~2/3
# over about a capacity of writes: the IOPS of the 2 s window (~0.8 of a
# capacity) still fall. fio's deviation criterion accepts a window whose
# least-squares line falls by more than PTS's 10% slope excursion: each of
# its samples is within 20% of the mean.
check "fio's ss: the deviation criterion attains while IOPS still fall (slope excursion > 10% of the mean)" python3 - "$TMP/ss.json" <<PY
exec(open("$TMP/ss.py").read())
v, mean, crit = judged(jobs["fresh"])
n = len(v); xm = (n - 1) / 2
slope = sum((x - xm) * (y - mean) for x, y in enumerate(v)) / sum((x - xm) ** 2 for x in range(n))
print("window", v, "slope %.0f IOPS per interval, excursion %.1f%% of the mean" % (slope, 100 * -slope * (n - 1) / mean))
assert slope < 0 and -slope * (n - 1) > 0.10 * mean, (slope, mean)
PY
# 0.01% of ~75k IOPS in 500 ms intervals is 4 I/Os: a single GC step on
# one die moves an interval's count by ~86 (see the suite's strict case).
check "fio's ss: a criterion too strict (iops:0.01%) is not attained; the job runs its whole runtime" python3 - "$TMP/ss.json" <<PY
exec(open("$TMP/ss.py").read())
j = jobs["strict"]
v, mean, crit = judged(j)
print("window", v, "criterion %.3f%%, attained %d, ran %d ms" % (crit, j["steadystate"]["attained"], j["job_runtime"]))
assert j["steadystate"]["attained"] == 0 and crit >= 0.01, j["steadystate"]
assert j["job_runtime"] >= 3000, j["job_runtime"]
PY
