#!/bin/bash
# make-review-fixture.sh - regenerates tests/data/review-fixture.db, the
# stored data tests/cli/test_report_fixture.sh checks the HTML review
# report (`drivebench report`) and `compare` on. Run from anywhere, after
# `make`:
#
#     bash scripts/make-review-fixture.sh [OUT.db]
#
# It writes OUT (default tests/data/review-fixture.db) from the built binary
# (build/drivebench, or $DRIVEBENCH_BIN) and the real fio. Five drives, each
# a label, made in this order (the report's default order, so the first is
# the reviewed drive and the first two are the heatmaps' pair):
#
#   p5430-review    the whole review suite (suites/review.suite) on the
#                   virtual SSD model vssd:specs/solidigm-d5-p5430-30t.ini@4g
#                   at --time-scale 0.01 (the factor's floor: 3 s + 0.3 s a
#                   point, about 13-15 minutes on 2 cores). The one change to
#                   the suite: its checkpoint step's 1,636 GB checkpoint
#                   cannot fit a 4 GiB model (the step refuses it), so it is
#                   scaled as the drive is, 1636 GB x 4 GiB / 30.72 TB = 229
#                   MB (16 checkpoints in 90% of the model, 3 passes).
#   fio-import      real fio JSON (fio on a 256 MiB file here, libaio,
#                   direct) imported without a spec sheet; its jobs are named
#                   by the report's convention (docs/report.md "Sections"):
#                   seq-fill-128k, seq-write/read-128k, rand-read-4k-qdN-jM
#                   up to 128/4 (the 4/1 point throttled to 200 IOPS: a dip
#                   the anomaly finding must flag; a CPU-bound plateau at 4
#                   jobs), rand-read-64k-qdN-j1 up to QD128 (the file's own
#                   ceiling); one of the two must be a plateau where Little's
#                   law holds, and fio runs again (at most 5 times) until it is,
#                   rand-read-16k-qdN-j1 (every point throttled to 500 IOPS:
#                   flat from 1/1, a plateau without Little's law),
#                   precondition-4k-roundN
#                   (steady rounds: not points), cdn-fill, obj-rand-read-qd40
#                   and obj-seq-read-4x10 (quick.suite's object split).
#   ps1030-quick    suites/quick.suite at --time-scale 0.2 on
#                   vssd:specs/solidigm-d7-ps1030-12t.ini@4g
#   6600-ion-quick  the same on vssd:specs/micron-6600-ion-245t.ini@4g
#   j5060-quick     the same on vssd:specs/dapustor-j5060-61t.ini@8g (4g
#                   leaves the model too few blocks per die)
#   p5336-partial   part of two of quick.suite's sweeps (4K random read at
#                   1/1 4/1 32/1, 16K sequential read at 1/1 4/1) at
#                   --time-scale 0.2 on vssd:specs/solidigm-d5-p5336-122t.ini@16g
#                   (smaller leaves too little spare): the drive a rank must
#                   leave out as "ran a different matrix" (issue 27.1)
#
# The last drive can be added to an existing fixture alone (about 2 s):
#
#     bash scripts/make-review-fixture.sh --add-partial [DB.db]
#
# plus the gdsio-style sweep (`drivebench gds`, METHODOLOGY's read and write
# x 16K,128K,1M x threads 1..128, -T 0.5 s a point) CPU_ONLY on a file
# (no GPU here: the cuFile libraries point nowhere) under the labels
# p5430-review and fio-import, so the GDS section compares two drives.
#
# Then: every modelled label gets its model file's sheet stored with it
# (what `import --spec` stores), since a suite stores the model file's
# absolute path and the sheet read from it would be lost on any other
# checkout; the latency histogram rows (table bins) are deleted, as no
# report or compare output reads them and they are two thirds of the file
# (KEEP_BINS=1 keeps them); VACUUM. Structure is deterministic, figures are
# measured and differ run to run.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${DRIVEBENCH_BIN:-$ROOT/build/drivebench}
ADD_PARTIAL=0
if [ "${1:-}" = --add-partial ]; then
	ADD_PARTIAL=1
	shift
fi
OUT=${1:-$ROOT/tests/data/review-fixture.db}
REVIEW_TIME_SCALE=${REVIEW_TIME_SCALE:-0.01}
QUICK_TIME_SCALE=${QUICK_TIME_SCALE:-0.2}
GDS_T=${GDS_T:-500ms}

for tool in fio sqlite3 python3; do
	command -v "$tool" >/dev/null || { echo "make-review-fixture: $tool is needed" >&2; exit 1; }
done
[ -x "$BIN" ] || { echo "make-review-fixture: no $BIN (run make)" >&2; exit 1; }

WORK=$(mktemp -d /tmp/review-fixture.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
DBF="$WORK/fixture.db"
START=$(date +%s)
# no GPU path: gds runs CPU_ONLY (tests/cli/test_gds.sh does the same)
export DRIVEBENCH_CUFILE_LIB="$WORK/none/libcufile.so.0"
export DRIVEBENCH_CUDART_LIB="$WORK/none/libcudart.so.12"
export DRIVEBENCH_CUDA_LIB="$WORK/none/libcuda.so.1"
cd "$ROOT"

say() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# the drive that ran only part of two sweeps, into database $1
add_partial() {
	cat > "$WORK/partial.suite" <<'SUITE'
[suite]
name = partial
description = part of quick.suite's 4K random read and 16K sequential read sweeps

[global]
ioengine = io_uring
direct = 1
time_based = 1
runtime = 1s
ramp_time = 200ms
percentile_list = 50:99:99.9:99.99

[purge]
step = purge

[rand-read-4k]
step = sweep
rw = randread
bs = 4k
points = 1/1 4/1 32/1

[seq-read-16k]
step = sweep
rw = read
bs = 16k
points = 1/1 4/1
SUITE
	say "part of two sweeps on the P5336 model, label p5336-partial"
	"$BIN" suite --suite "$WORK/partial.suite" --db "$1" --label p5336-partial \
		--time-scale "$QUICK_TIME_SCALE" vssd:specs/solidigm-d5-p5336-122t.ini@16g \
		> "$WORK/partial.log" 2>&1 || { tail -20 "$WORK/partial.log" >&2; exit 1; }
	sqlite3 "$1" "UPDATE drives SET spec_ini = readfile('specs/solidigm-d5-p5336-122t.ini') WHERE label = 'p5336-partial'"
}
if [ "$ADD_PARTIAL" = 1 ]; then
	[ -f "$OUT" ] || { echo "make-review-fixture: no $OUT to add to" >&2; exit 1; }
	! sqlite3 "$OUT" "select 1 from runs where label = 'p5336-partial'" | grep -q 1 ||
		{ echo "make-review-fixture: $OUT has p5336-partial already" >&2; exit 1; }
	cp "$OUT" "$DBF"
	add_partial "$DBF"
	sqlite3 "$DBF" "DELETE FROM bins"
	sqlite3 "$DBF" "VACUUM"
	cp "$DBF" "$OUT"
	say "added p5336-partial to $OUT"
	exit 0
fi

# --- 1. fio JSON (imported as run 2, after the review suite) ----------------
FIOT="$WORK/fio-target.dat"
{
	printf '[global]\nioengine=libaio\ndirect=1\nfilename=%s\nsize=256m\n' "$FIOT"
	printf 'group_reporting=1\nstonewall\nrandrepeat=0\n'
	printf 'percentile_list=50:90:99:99.9:99.99\n'
	printf 'time_based=1\nruntime=1\nramp_time=200ms\n'
	# the two 128K sequential fills: size-based
	printf '\n[seq-fill-128k]\nrw=write\nbs=128k\niodepth=32\nloops=2\n'
	printf 'time_based=0\nramp_time=0\n'
	printf '\n[seq-write-128k]\nrw=write\nbs=128k\niodepth=16\n'
	printf '\n[seq-read-128k]\nrw=read\nbs=128k\niodepth=64\n'
	# steady-state rounds: not points of a test
	for r in 1 2 3; do
		printf '\n[precondition-4k-round%s]\nrw=randwrite\nbs=4k\niodepth=32\nruntime=500ms\nramp_time=0\n' "$r"
	done
	# 4/1 throttled far below its neighbours: the anomaly finding's dip;
	# from 16/4 on, four jobs keep their queues full at the CPU's ceiling
	for p in 1/1 4/1 16/1 32/1 1/4 4/4 16/4 32/4 64/4 128/4; do
		printf '\n[rand-read-4k-qd%s-j%s]\nrw=randread\nbs=4k\niodepth=%s\nnumjobs=%s\n' \
			"${p%/*}" "${p#*/}" "${p%/*}" "${p#*/}"
		[ "$p" = 4/1 ] && printf 'rate_iops=200\n'
	done
	# the device's own ceiling: a plateau whose latency grows with the
	# queue as Little's law says
	for q in 1 2 4 8 16 32 64 128; do
		printf '\n[rand-read-64k-qd%s-j1]\nrw=randread\nbs=64k\niodepth=%s\n' "$q" "$q"
	done
	# every point held at 500 IOPS: a plateau from 1/1 whose latency does
	# not grow with the queue (no Little's law)
	for q in 1 2 4 8 16 32; do
		printf '\n[rand-read-16k-qd%s-j1]\nrw=randread\nbs=16k\niodepth=%s\nrate_iops=500\n' \
			"$q" "$q"
	done
	# the CDN fill: 1M synchronous writes by 4 jobs, each its quarter
	printf '\n[cdn-fill]\nrw=write\nbs=1m\nioengine=psync\niodepth=1\nnumjobs=4\n'
	printf 'size=25%%\noffset_increment=25%%\ntime_based=0\nramp_time=0\n'
	# object storage, quick.suite's split (fio takes whole percentages only)
	printf '\n[obj-rand-read-qd40]\nrw=randread\nbssplit=64k/65:1m/15:8m/15:64m/5\niodepth=40\n'
	printf '\n[obj-seq-read-4x10]\nrw=read\nbssplit=64k/65:1m/15:8m/15:64m/5\niodepth=10\nnumjobs=4\n'
} > "$WORK/import.fio"
# The findings the test looks for on this drive need a shape that a 1 s
# point on a shared machine does not always give: a plateau (3 or more
# points within 95% of the peak, not only the last) whose every point's
# mean latency is within 15% of outstanding I/O / IOPS, in the 4K or the
# 64K sweep (findings.h: Little's law), and 4/1 more than 20% below 1/1
# and 16/1 (the anomaly). fio runs again, up to 5 times, until it has it.
shape_ok() {
	python3 - "$1" <<'PY'
import json, sys
jobs = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
def sweep(stem, mbs):
    pts = []
    for name, j in jobs.items():
        if name.startswith(stem + "-qd"):
            q, n = (int(x) for x in name[len(stem) + 3:].split("-j"))
            r = j["read"]
            pts.append((n, q, r["bw_bytes"] / 1e6 if mbs else r["iops"], r["iops"], r["clat_ns"]["mean"] / 1e3))
    return sorted(pts)
def littles(pts):
    peak = max(p[2] for p in pts)
    on = [p for p in pts if p[2] >= 0.95 * peak]
    return (len(on) >= 3 and on[0] != pts[-1] and on[-1][0] * on[-1][1] >= 2 * on[0][0] * on[0][1] and
            all(abs(p[4] / (p[0] * p[1] / p[3] * 1e6) - 1) <= 0.15 for p in on))
k4 = sweep("rand-read-4k", False)
dip = {(n, q): v for n, q, v, _, _ in k4}
ok = (littles(k4) or littles(sweep("rand-read-64k", True))) and \
     dip[(1, 4)] < 0.8 * min(dip[(1, 1)], dip[(1, 16)])
sys.exit(0 if ok else 1)
PY
}
for try in 1 2 3 4 5; do
	say "fio on a 256 MiB file (try $try)"
	timeout 600 fio "$WORK/import.fio" --output-format=json > "$WORK/fio.json" 2> "$WORK/fio.err" ||
		{ cat "$WORK/fio.err" >&2; exit 1; }
	shape_ok "$WORK/fio.json" && break
	[ "$try" = 5 ] && { echo "make-review-fixture: no plateau for Little's law in 5 fio runs" >&2; exit 1; }
done
rm -f "$FIOT"
# --- 2. the whole review suite on the P5430 model (run 1) ----------------
# Only the checkpoint size changes: scaled by the model's capacity against
# the drive's 30.72 TB, as the 4 GiB model scales the drive.
CKPT_MB=$(awk 'BEGIN { printf "%d", 1636e9 * 4 * 2^30 / 30.72e12 / 1e6 + 0.5 }')
sed -e "s/^checkpoint_size = 1636GB\$/checkpoint_size = ${CKPT_MB}MB/" suites/review.suite \
	> "$WORK/review.suite"
grep -q "^checkpoint_size = ${CKPT_MB}MB\$" "$WORK/review.suite" ||
	{ echo "make-review-fixture: review.suite's checkpoint_size line changed" >&2; exit 1; }
say "review suite on the P5430 model (time scale $REVIEW_TIME_SCALE; checkpoints of ${CKPT_MB} MB)"
"$BIN" suite --suite "$WORK/review.suite" --db "$DBF" --label p5430-review \
	--time-scale "$REVIEW_TIME_SCALE" vssd:specs/solidigm-d5-p5430-30t.ini@4g \
	> "$WORK/review.log" 2>&1 || { tail -20 "$WORK/review.log" >&2; exit 1; }

# --- 3. the fio drive ------------------------------------------------------
"$BIN" import --db "$DBF" --label fio-import "$WORK/fio.json" >&2

# --- 4. the quick suite on three other models -------------------------------
for m in ps1030-quick:solidigm-d7-ps1030-12t@4g 6600-ion-quick:micron-6600-ion-245t@4g \
	 j5060-quick:dapustor-j5060-61t@8g; do
	label=${m%%:*} model=${m#*:}
	say "quick suite on ${model%@*} (@${model#*@}), label $label"
	"$BIN" suite --suite suites/quick.suite --db "$DBF" --label "$label" \
		--time-scale "$QUICK_TIME_SCALE" "vssd:specs/${model%@*}.ini@${model#*@}" \
		> "$WORK/$label.log" 2>&1 || { tail -20 "$WORK/$label.log" >&2; exit 1; }
done

add_partial "$DBF"

# --- 5. GDS points for two drives -------------------------------------------
for label in p5430-review fio-import; do
	say "gds sweep (CPU_ONLY, -T $GDS_T) under $label"
	"$BIN" gds --db "$DBF" --label "$label" -T "$GDS_T" -s 256m "$WORK/gds-$label.dat" \
		> "$WORK/gds-$label.log" 2>&1 || { tail -20 "$WORK/gds-$label.log" >&2; exit 1; }
	rm -f "$WORK/gds-$label.dat"
done

# --- 6. checks, sheets, size -------------------------------------------------
python3 - "$DBF" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
runs = c.execute("select id, label, source, finished_ms, partial from runs order by id").fetchall()
for r in runs:
    assert r[3] > 0 and r[4] == 0, "run not whole: %r" % (r,)
bad = c.execute("select r.label, s.name, s.status from steps s join runs r on r.id = s.run_id "
                "where s.status != 'done'").fetchall()
assert not bad, "steps not done: %r" % bad
n = c.execute("select count(*) from steps s join runs r on r.id = s.run_id "
              "where r.label = 'p5430-review' and r.source = 'suite'").fetchone()[0]
assert n == 24, "review suite steps: %d" % n
PY
for m in p5430-review:solidigm-d5-p5430-30t ps1030-quick:solidigm-d7-ps1030-12t \
	 6600-ion-quick:micron-6600-ion-245t j5060-quick:dapustor-j5060-61t; do
	# the row update store_spec_set makes (src/store/store.c)
	sqlite3 "$DBF" "UPDATE drives SET spec_ini = readfile('specs/${m#*:}.ini') WHERE label = '${m%%:*}'"
done
[ "${KEEP_BINS:-0}" = 1 ] || sqlite3 "$DBF" "DELETE FROM bins"
sqlite3 "$DBF" "VACUUM"
sqlite3 "$DBF" "PRAGMA integrity_check" | grep -qx ok
mkdir -p "$(dirname "$OUT")"
cp "$DBF" "$OUT"
say "wrote $OUT: $(stat -c %s "$OUT") bytes, $(sqlite3 "$OUT" 'select count(*) from runs') runs," \
	"$(sqlite3 "$OUT" 'select count(*) from results') results, in $(( $(date +%s) - START )) s"
