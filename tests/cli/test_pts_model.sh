#!/bin/bash
# test_pts_model.sh - the PTS's WSAT and HIR tests (suites/snia-pts-e.suite)
# on the virtual SSD (tests/data/models/test-pts.ini at 128m: 8 dies of
# 256 KiB blocks, 20% OP, a 256 KiB write buffer, docs/vssd.md): WSAT from
# a purge shows the fresh-out-of-box plateau (the free blocks take writes
# with no GC), the drop when GC starts, and a steady state; HIR's bursts
# after a host idle are faster than the continuous writes of the baseline
# after them (the model collects garbage in its idle time). Figures are
# printed as "# " lines; the report's WSAT and HIR pages are drawn.
#
# Scaled: WSAT's one-minute rounds to 50 ms, HIR's preconditioning rounds
# to 50 ms, its 5 s bursts and 5..50 s wait states to 50 ms and 50..500 ms
# (--time-scale 0.01), 6 bursts a segment.
. "$(dirname "$0")/lib.sh"

SUITE="$(pwd)/suites/snia-pts-e.suite"
model="vssd:$(pwd)/tests/data/models/test-pts.ini@128m"
db="$TMP/model.db"
expect_exit 0 "WSAT and HIR on the model" suite --suite "$SUITE" --db "$db" --only wsat,hir \
	--time-scale 0.01 --set wsat.runtime=5s --set hir-pc.runtime=5s --set hir.repeat=6 "$model"

cat >"$TMP/model.py" <<'PY'
import json, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
asan = sys.argv[3] == "1"
def step(name):
    sid, detail = c.execute("select id, detail from steps where name = ?", (name,)).fetchone()
    rows = c.execute("""select sum(d.iops) from results r join result_dirs d on d.result_id = r.id
        where r.step_id = ? group by r.id order by r.point""", (sid,)).fetchall()
    return [v for (v,) in rows], json.loads(detail)
if sys.argv[2] == "wsat":
    iops, d = step("wsat")
    fob = iops[0]
    plateau = 1
    while plateau < len(iops) and abs(iops[plateau] - fob) <= 0.1 * fob:
        plateau += 1
    low = min(range(len(iops)), key=lambda i: iops[i])
    steady = d["mean"]
    print("# WSAT: %d rounds; fresh out of box %.0f IOPS for %d rounds, lowest %.0f at round %d, "
          "steady %.0f IOPS (window from round %d, first passed at %d); %.2f GB written"
          % (len(iops), fob, plateau, iops[low], low + 1, steady, len(iops) - d["window"] + 1,
             d["steady_round"], d["written_bytes"] / 1e9))
    assert plateau >= (1 if asan else 2), "no fresh-out-of-box plateau: %s" % iops[:6]
    drop = min(iops[:plateau + 4])
    assert drop < 0.5 * fob, "no drop after the plateau: %s" % iops[:plateau + 4]
    assert d["steady_round"] > plateau and steady < 0.5 * fob, d
    assert d["written_bytes"] >= 4 * 128 * 2**20, d
else:
    pc, d = step("hir-pc")
    base = d["mean"]
    wins = 0
    for k in range(1, 6):
        ws, _ = step("hir-ws%d" % k)
        bl, _ = step("hir-base%d" % k)
        # the bursts after an idle (the first follows the previous baseline
        # without one) against the continuous writes after the first
        # baseline burst (which follows the segment's last idle)
        after_idle = sum(ws[1:]) / len(ws[1:])
        continuous = sum(bl[1:]) / len(bl[1:])
        print("# HIR wait state %d: bursts after idle %.0f IOPS, baseline %.0f IOPS (%.2fx); "
              "preconditioning steady %.0f" % (k, after_idle, continuous, after_idle / continuous,
                                              base))
        wins += after_idle > 1.15 * continuous
    assert wins >= (3 if asan else 4), "recovery after idle in only %d of 5 wait states" % wins
PY
# figures WHAT TEST: the check, its "# " lines printed once
figures() {
	out=$(python3 "$TMP/model.py" "$db" "$2" "$ASAN_BUILD" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep '^#'
	if [ $rc -eq 0 ]; then ok "$1"; else not_ok "$1"; printf '%s\n' "$out" | tail -3; fi
}
figures "WSAT: a fresh-out-of-box plateau, a drop and a steady state" wsat
figures "HIR: the bursts after idle recover, the model collecting garbage while idle" hir

page="$TMP/model.html"
expect_exit 0 "report --format pts of the model's run" report --db "$db" --format pts --out "$page"
missing=""
for id in device wsat-setup wsat-iops-time wsat-iops-tgbw wsat-lat-tgbw wsat-table wsat-window \
	  wsat-window-table hir-setup hir-convergence hir-window hir-window-table hir-iops-time \
	  hir-table; do
	grep -q "data-pts=\"$id\"" "$page" || missing="$missing $id"
done
check "the WSAT and HIR pages have every table and plot${missing:+ (missing:$missing)}" test -z "$missing"
check "... the device is the model" grep -q 'test PTS model (model, scale' "$page"
check "... and only the tests that ran" test "$(grep -c '<section data-pts-test=' "$page")" -eq 2
