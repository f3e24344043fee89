#!/bin/bash
# test_pts_suite.sh - suites/snia-pts-e.suite end to end on a small target
# (32 MiB, the null engine, 5 ms points, windows of 2 rounds: every test's
# stimulus as the suite file defines it, scaled with --set), its stimulus
# read back from the store test by test (the mixes, block sizes, rounds,
# thread counts and queue depths, WSAT's bytes, HIR's wait states, XSR's
# stream, the operating points), its report pages (report --format pts:
# every table and plot, the IOPS table against the stored rounds, loaded
# in Chromium), plan and --only/--skip by test, --set and its errors, the
# operating point's errors, and a PTS round cut by kill -9 and resumed.
. "$(dirname "$0")/lib.sh"

SUITE="$(pwd)/suites/snia-pts-e.suite"
target="$TMP/pts.dat"
truncate -s 32M "$target"
CAP=$((32 << 20))

# --- plan: the whole PTS run and its tests -----------------------------------
expect_exit 0 "plan the PTS suite on a 3.84 TB drive" plan --suite "$SUITE" --capacity 3.84TB \
	--rated-write 3000 --rated-read 7000 --rated-random-write 1000
for t in iops tp lat wsat hir xsr cbw dirth; do
	expect_output "^$t +[0-9]+ " "... the plan sums test $t"
done
# the IOPS rounds' bound: 25 rounds x 56 points x 60 s
expect_output " iops +steady .* 23:20:00  upper bound: 25 rounds x 56 points x 60 s" \
	"... the IOPS test's bound is 25 rounds of 56 one-minute points"
check "... the tests add up to the total" python3 -c '
import re, sys
out = sys.argv[1]
hours = sum(float(m) for m in re.findall(r"^[a-z]+ +\d+ +\S+ \S+ +\S+ +([0-9.]+)$", out, re.M))
total = float(re.search(r"^total: .*\(([0-9.]+) hours", out, re.M).group(1))
assert hours > 100 and abs(hours - total) < 0.5, (hours, total)
' "$OUT"
expect_exit 0 "plan --only two tests" plan --suite "$SUITE" --capacity 3.84TB --rated-write 3000 \
	--rated-read 7000 --only iops,lat
expect_output "6 steps on" "... keeps their 6 steps"
check "... and no other test" bash -c "! printf '%s' \"\$1\" | grep -qE '^(tp|wsat|hir|xsr|cbw|dirth) '" _ "$OUT"
expect_exit 0 "plan --skip a test" plan --suite "$SUITE" --capacity 3.84TB --rated-write 3000 \
	--rated-read 7000 --skip xsr
check "... leaves its steps out" bash -c "! printf '%s' \"\$1\" | grep -q xsr-" _ "$OUT"
expect_exit 0 "plan --set a step parameter of one test" plan --suite "$SUITE" --capacity 3.84TB \
	--rated-write 3000 --rated-read 7000 --only iops --set iops.max_rounds=5
expect_output " iops +steady .* 4:40:00  upper bound: 5 rounds" "... the bound follows it"
expect_exit 2 "plan --only an unknown test" plan --suite "$SUITE" --capacity 3.84TB \
	--rated-write 3000 --rated-read 7000 --only nope
expect_output "has no step or test 'nope'" "... is named"

# --- --set errors -----------------------------------------------------------------
pts() { run_db suite --suite "$SUITE" --destroy-data "$target" "$@" "$target"; }
for args in "nope.runtime=1s|suite has no step or test 'nope'" \
	    "tp.repeat=2|no step of tp takes 'repeat'" \
	    "iops.repeat=2|--set iops.repeat=2: key 'repeat' does not apply to a steady step" \
	    "iops.window=1|--set iops.window=1: key 'window': 1 is too small" \
	    "runtime=soon|--set runtime=soon: option 'runtime'" \
	    "test=x|a step's 'test' is the suite file's" \
	    ".runtime=1s|--set .runtime=1s: bad step or test name" \
	    "iops-purge.window=3|--set iops-purge.window=3: key 'window' does not apply to a purge step" \
	    "iops.track_bs=x|--set iops.track_bs=x: key 'track_bs': bad size 'x'" \
	    "iops.block_sizes=8k,16k|track_bs is not one of the block_sizes"; do
	pts --db "$TMP/err.db" --set "${args%%|*}"
	if [ "$RC" -eq 2 ] && printf '%s' "$ERR" | grep -qF -- "${args#*|}"; then
		ok "--set ${args%%|*} is refused: ${args#*|}"
	else
		not_ok "--set ${args%%|*} (exit $RC): $ERR"
	fi
done

# --- the whole suite, scaled -------------------------------------------------
SCALE=(--set ioengine=null --set runtime=5ms --set window=2 --set max_rounds=2
       --set hir.repeat=2 --set xsr.repeat=2 --set hir-ws1.pause=5ms --set hir-ws2.pause=10ms
       --set hir-ws3.pause=15ms --set hir-ws4.pause=25ms --set hir-ws5.pause=50ms)
db="$TMP/pts.db"
expect_exit 0 "the PTS suite runs end to end (null engine, 5 ms points)" suite --suite "$SUITE" \
	--db "$db" --destroy-data "$target" "${SCALE[@]}" "$target"
whole=$(whole_results "$db" && echo yes)
check "... its results are whole" test "$whole" = yes

cat >"$TMP/pts.py" <<'PY'
import json, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
CAP = int(sys.argv[2])
steps = {}
for sid, name, kind, detail, status in c.execute(
        "select id, name, kind, detail, status from steps order by idx"):
    steps[name] = dict(id=sid, kind=kind, detail=json.loads(detail) if detail else {}, status=status)
def results(name):
    out = []
    for rid, point, rw, bs, qd, jobs, opts, runtime in c.execute(
            """select id, point, rw, bs, iodepth, numjobs, options_json, runtime_ns from results
               where step_id = ? order by point""", (steps[name]["id"],)):
        d = {row[0]: row[1:] for row in c.execute(
            "select dir, iops, bw_bytes, bytes, lat_mean, lat_n from result_dirs where result_id = ?",
            (rid,))}
        out.append(dict(id=rid, point=point, rw=rw, bs=bs, qd=qd, jobs=jobs,
                        opts=json.loads(opts), runtime=runtime,
                        iops=sum(v[0] for v in d.values()), bw=sum(v[1] for v in d.values()),
                        written=d.get("write", (0, 0, 0))[2],
                        lat=sum(v[3] * v[4] for v in d.values()) / max(1, sum(v[4] for v in d.values()))))
    return out
def mix(r):
    return int(r["opts"]["rwmixread"]) if "rwmixread" in r["opts"] else None
def rounds(name, per_round):
    rs = results(name)
    d = steps[name]["detail"]
    assert d["points_per_round"] == per_round, (name, d["points_per_round"])
    assert len(rs) == per_round * len(d["rounds"]) and rs, (name, len(rs))
    assert [r["point"] for r in rs] == list(range(len(rs))), name
    return rs, d
def tracked_figure(rs, d, key):
    k = d["tracked_point"]
    for n, v in enumerate(d["rounds"]):
        got = rs[n * d["points_per_round"] + k][key]
        assert abs(got - v) <= 1e-6 * max(1, abs(v)), (n, got, v)
def wipc(test, bs):
    (r,) = results(test + "-wipc")
    assert r["rw"] == "write" and r["bs"] == bs and r["written"] == 2 * CAP, r
    assert steps[test + "-purge"]["detail"]["method"] == "punch-hole"
KB = 1024
check = sys.argv[3]
if check == "iops":
    rs, d = rounds("iops", 56)
    order = [(m, b) for m in (100, 95, 65, 50, 35, 5, 0)
             for b in (1024 * KB, 128 * KB, 64 * KB, 32 * KB, 16 * KB, 8 * KB, 4 * KB, 512)]
    for n in range(len(d["rounds"])):
        got = [(mix(r), r["bs"]) for r in rs[n * 56:(n + 1) * 56]]
        assert got == order, (n, got[:3])
    assert all(r["rw"] == "randrw" and r["qd"] == 32 and r["jobs"] == 4 for r in rs)
    assert all(r["runtime"] < 1e9 for r in rs)
    assert d["tracked"] == {"rwmixread": 0, "bs": 4096} and d["tracked_point"] == 54
    tracked_figure(rs, d, "iops")
    wipc("iops", 128 * KB)
elif check == "tp":
    for bs in (1024, 128):
        rs, d = rounds("tp-%dk" % bs, 2)
        assert [(mix(r), r["bs"]) for r in rs[:2]] == [(100, bs * KB), (0, bs * KB)]
        assert all(r["rw"] == "rw" and r["qd"] == 32 and r["jobs"] == 1 for r in rs)
        assert d["metric"] == "bw_bytes" and d["tracked"] == {"rwmixread": 0}
        tracked_figure(rs, d, "bw")
        wipc("tp-%dk" % bs, bs * KB)
elif check == "lat":
    rs, d = rounds("lat", 9)
    order = [(m, b) for m in (100, 65, 0) for b in (8 * KB, 4 * KB, 512)]
    assert [(mix(r), r["bs"]) for r in rs[:9]] == order
    assert all(r["qd"] == 1 and r["jobs"] == 1 for r in rs)
    assert d["metric"] == "lat_mean_ns"
    tracked_figure(rs, d, "lat")
    pcts = {p for (p,) in c.execute("select distinct pct from percentiles where result_id = ?",
                                    (rs[0]["id"],))}
    assert {99.99, 99.999} <= pcts, pcts
    wipc("lat", 128 * KB)
elif check == "wsat":
    rs, d = rounds("wsat", 1)
    written = [r["written"] for r in rs]
    assert all(r["rw"] == "randwrite" and r["bs"] == 4096 for r in rs)
    assert d["write_limit_bytes"] == 4 * CAP and d["written_bytes"] == sum(written)
    # it wrote 4 capacities, and stopped at the first round past them
    assert sum(written) >= 4 * CAP > sum(written[:-1]), written
    assert "test" in d and steps["wsat-purge"]["detail"]["test"] == "wsat"
elif check == "hir":
    rs, d = rounds("hir-pc", 1)
    pauses = []
    for k in range(1, 6):
        for part in ("ws", "base"):
            name = "hir-%s%d" % (part, k)
            rs = results(name)
            assert len(rs) == 2 and all(r["rw"] == "randwrite" and r["bs"] == 4096 and
                                        r["qd"] == 32 and r["jobs"] == 4 for r in rs), name
            pauses.append(steps[name]["detail"].get("pause_ns", 0))
    # each wait state, then its baseline without idle
    assert pauses == [5e6, 0, 10e6, 0, 15e6, 0, 25e6, 0, 50e6, 0], pauses
elif check == "xsr":
    for name, rw, bs in (("xsr-seq1", "write", 1024 * KB), ("xsr-rnd", "randwrite", 8 * KB),
                         ("xsr-seq2", "write", 1024 * KB)):
        rs = results(name)
        assert len(rs) == 2 and all(r["rw"] == rw and r["bs"] == bs and r["qd"] == 32 and
                                    r["jobs"] == 1 for r in rs), name
        if rw == "write":   # one stream: the second minute starts where the first ended
            start = int(rs[0]["opts"]["offset"]) + rs[0]["written"]
            assert int(rs[1]["opts"]["offset"]) == (start % CAP if start % CAP else 0), rs
elif check in ("cbw", "dirth"):
    t = check
    (pc,), dpc = rounds(t + "-pc", 1)[0][:1], steps[t + "-pc"]["detail"]
    assert pc["qd"] == 32 and pc["jobs"] == 32 and pc["rw"] == "randwrite"
    rs, d = rounds(t + "-dv", 42)
    grid = [(q, j) for j in (32, 16, 8, 4, 2, 1) for q in (32, 16, 8, 6, 4, 2, 1)]
    for n in range(len(d["rounds"])):
        assert [(r["qd"], r["jobs"]) for r in rs[n * 42:(n + 1) * 42]] == grid, n
    assert d["tracked"] == {"iodepth": 32, "numjobs": 32} and d["tracked_point"] == 0
    tracked_figure(rs, d, "iops")
    if t == "cbw":
        for r in (pc, rs[0]):
            assert r["opts"]["bssplit"].startswith("512/4:1k/1:1536/1") and r["bs"] == 0, r["opts"]
            assert r["opts"]["random_distribution"] == "zoned:50/5:30/15:20/80"
        assert rs[0]["rw"] == "randrw" and rs[0]["opts"]["rwmixread"] == "40"
    else:
        assert all(r["rw"] == "randwrite" and r["bs"] == 4096 for r in rs)
    # the operating points, from the last window of the rounds
    first = (len(d["rounds"]) - d["window"]) * 42
    cand = {}
    for r in rs:
        if r["point"] >= first:
            cand.setdefault((r["qd"], r["jobs"]), []).append((r["iops"], r["lat"]))
    mean = {k: (sum(a for a, _ in v) / len(v), sum(b for _, b in v) / len(v)) for k, v in cand.items()}
    under = {k: v for k, v in mean.items() if v[1] <= 5e6}
    best = max(under, key=lambda k: under[k][0])
    for op in ("max", "mid", "min"):
        (r,) = results("%s-%s" % (t, op))
        od = steps["%s-%s" % (t, op)]["detail"]
        assert od["operating_point"] == op and od["from"] == t + "-dv", od
        assert (r["qd"], r["jobs"]) == (od["iodepth"], od["numjobs"]), (r, od)
        assert len(od["candidates"]) == 42
        if op == "max":
            assert (r["qd"], r["jobs"]) == best and od["lat_ceiling_ns"] == 5e6
        if op == "min":
            assert (r["qd"], r["jobs"]) == (1, 1)
elif check == "tags":
    assert all(s["status"] == "done" for s in steps.values())
    assert all(s["detail"].get("test") for s in steps.values()), \
        [n for n, s in steps.items() if not s["detail"].get("test")]
PY
for t in iops tp lat wsat hir xsr cbw dirth tags; do
	check "stimulus from the store: $t" python3 "$TMP/pts.py" "$db" "$CAP" "$t"
done

# --- report --format pts --------------------------------------------------------
page="$TMP/pts.html"
expect_exit 0 "report --format pts" report --db "$db" --format pts --out "$page"
ids="device iops-setup iops-convergence iops-window iops-window-table iops-table iops-2d
iops-heatmap tp-setup tp-table tp-convergence-1 tp-window-1 tp-window-1-table tp-convergence-2
tp-window-2 lat-setup lat-convergence lat-window lat-window-table lat-mean lat-max lat-p9999
lat-p99999 lat-2d-mean lat-2d-max wsat-setup wsat-iops-time wsat-iops-tgbw wsat-lat-tgbw
wsat-table wsat-window hir-setup hir-convergence hir-window hir-iops-time hir-table xsr-setup
xsr-tp-time xsr-art-time xsr-mrt-time xsr-table xsr-recovery"
for t in cbw dirth; do
	ids="$ids $t-setup $t-pc-convergence $t-pc-window $t-dv-convergence $t-dv-window
$t-demand-variation $t-demand-intensity $t-dv-iops $t-dv-lat $t-op-table $t-histogram-max
$t-histogram-mid $t-histogram-min"
done
missing=""
for id in $ids; do grep -q "data-pts=\"$id\"" "$page" || missing="$missing $id"; done
check "every PTS table and plot is on the page${missing:+ (missing:$missing)}" test -z "$missing"
check "... every test has its section" test "$(grep -c '<section data-pts-test=' "$page")" -eq 8
check "... the purge and preconditioning are in the set-up tables" \
	grep -q 'preconditioning (iops-wipc)</th><td>sequential 128K, TC 1 / QD 32' "$page"
# the IOPS table's 0/100 4K cell is the window mean of the stored rounds
check "the IOPS table is the measurement window of the stored rounds" python3 - "$db" "$page" <<'PY'
import json, re, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
sid, detail = c.execute("select id, detail from steps where name = 'iops'").fetchone()
d = json.loads(detail)
n, w = len(d["rounds"]), d["window"]
vals = [v for (v,) in c.execute("""select sum(x.iops) from results r join result_dirs x
    on x.result_id = r.id where r.step_id = ? and r.point % 56 = 54 and r.point >= ?
    group by r.id""", (sid, (n - w) * 56))]
want = sum(vals) / len(vals)
page = open(sys.argv[2]).read()
table = page[page.index('data-pts="iops-table"'):]
table = table[:table.index("</table>")]
rows = re.findall(r"<tr>(.*?)</tr>", table)
assert len(rows) == 8, len(rows)                  # the head and 7 mixes
cells = re.findall(r"<td>([^<]*)</td>", rows[7])
assert len(cells) == 8 and "0/100" in rows[7], rows[7]
got = float(cells[6].replace(",", ""))
assert abs(got - want) <= 0.1, (got, want)
PY
expect_exit 2 "report --format with an unknown format" report --db "$db" --format bogus --out "$TMP/x.html"
expect_exit 2 "report --format pts takes no --spec" report --db "$db" --format pts --spec a=b.ini --out "$TMP/x.html"
expect_exit 2 "report --format pts of an unknown run" report --db "$db" --format pts 99 --out "$TMP/x.html"
expect_exit 0 "a run that is not a PTS suite" run --db "$TMP/plain.db" --name=j --ioengine=null \
	--rw=read --bs=4k --size=1m --filename="$target"
expect_exit 2 "report --format pts of runs without tests" report --db "$TMP/plain.db" --format pts \
	--out "$TMP/x.html"
expect_output "no selected run has PTS tests" "... says why"

if command -v chromium >/dev/null 2>&1; then
	chrome() {
		timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
			--disable-component-update --disable-sync --no-first-run \
			--user-data-dir="$(mktemp -d "$TMP/chrome.XXXXXX")" "$@"
	}
	chrome --enable-logging=stderr --v=0 --dump-dom "file://$page" > "$TMP/dom.html" 2> "$TMP/console.err"
	check "chromium loads the PTS page ($(grep -o '<path class="line"' "$TMP/dom.html" | wc -l) lines)" \
		test "$(grep -o '<path class="line"' "$TMP/dom.html" | wc -l)" -ge 100
	check "... without console errors" bash -c "! grep -E 'CONSOLE' '$TMP/console.err' | grep -qiE 'error|uncaught'"
	check "... every contents link has its section" python3 -c '
import re, sys
dom = open(sys.argv[1]).read()
links = re.findall(r"href=\"#([^\"]+)\"", dom)
assert links and all(("id=\"%s\"" % l) in dom for l in links), links
' "$TMP/dom.html"
else
	not_ok "chromium is not installed (Debian package chromium; sh scripts/deps.sh): cannot check the PTS page in a browser"
fi

# --- operating points: their errors ---------------------------------------------
expect_exit 2 "an operating point without its rounds in the run" suite --suite "$SUITE" \
	--db "$TMP/op.db" --destroy-data "$target" --only dirth-max "${SCALE[@]}" "$target"
expect_output "step 'dirth-dv' has no results in this run" "... is refused, naming the step"
SMALL=(--set dirth-dv.numjobs=2,1 --set dirth-dv.iodepths=2,1 --set dirth-dv.track_point=2/2)
expect_exit 1 "no point under the MaxIOPS latency ceiling" suite --suite "$SUITE" --db "$TMP/op2.db" \
	--destroy-data "$target" --only dirth "${SCALE[@]}" "${SMALL[@]}" \
	--set dirth-max.lat_ceiling=1ns "$target"
expect_output "no point has a mean latency of at most 0.000 ms" "... says so"

# --- a PTS round cut by kill -9, resumed ------------------------------------------
RES=(--only iops --set ioengine=null --set runtime=40ms --set iops.mixes=100,0
     --set iops.block_sizes=8k,4k --set window=5 --set max_rounds=5 --set range_limit=0.0001)
rdb="$TMP/resume.db"
"$DB" suite --suite "$SUITE" --db "$rdb" --destroy-data "$target" "${RES[@]}" "$target" \
	>/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 200); do
	n=$(sqlite3 "$rdb" "select count(*) from results where point is not null
		and step_id = (select id from steps where name = 'iops')" 2>/dev/null || echo 0)
	[ "${n:-0}" -ge 6 ] && break
	sleep 0.05
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
kept=$(sqlite3 "$rdb" "select count(*) from results where step_id = (select id from steps where name = 'iops')")
check "killed inside the IOPS rounds ($kept of 20 points stored)" test "$kept" -ge 6 -a "$kept" -lt 20
expect_exit 0 "... resumed" suite --suite "$SUITE" --db "$rdb" --destroy-data "$target" --resume \
	"${RES[@]}" "$target"
check "... every point of every round stored once, in order, the window restarted" \
	python3 - "$rdb" "$kept" <<'PY'
import json, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
kept = int(sys.argv[2])
sid, detail = c.execute("select id, detail from steps where name = 'iops'").fetchone()
d = json.loads(detail)
points = [p for (p,) in c.execute("select point from results where step_id = ? order by point", (sid,))]
# 4 points a round; rounds touched before the kill are kept, the window
# (5) starts after them, so the step ran past max_rounds
assert d["points_per_round"] == 4 and d["window_start"] == (kept + 3) // 4, d
assert len(d["rounds"]) == d["window_start"] + 5, d
assert points == list(range(4 * len(d["rounds"]))), points
assert c.execute("select count(*) from runs").fetchone()[0] == 1
PY
