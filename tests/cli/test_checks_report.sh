#!/bin/bash
# test_checks_report.sh - fio's steady state, sprandom and the reporting
# switches from job files (tests/data/jobs/): a time-based job on the null
# engine with a constant latency attains steady state and stops long before
# its runtime, with fio's "steadystate" object; a criterion that cannot be
# met runs to the end unattained; a group's steady state stops the group;
# inconsistent steady state within a group is refused, as fio does;
# sprandom (fio's example, ${FIO_BS} set) writes fio's plan (region shares
# recomputed here from fio's model) and every block of the file;
# lat/slat/clat_percentiles decide which latency objects carry
# percentiles; unified_rw_reporting=mixed gives one "mixed" section that
# sums reads and writes (both: beside them).
. "$(dirname "$0")/lib.sh"

J=$(cd "$(dirname "$0")/../data/jobs" && pwd)

# jq_check FILE PYTHON: PYTHON with d = the JSON document, j = its first job
jq_check() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1])); j = d["jobs"][0]
exec(sys.argv[2])
EOF
}

# --- steady state ---------------------------------------------------------------
expect_exit 0 "a steady job runs" run --no-db "$J/steadystate.fio" \
	--output-format=json --output="$TMP/ss.json"
check "it attains steady state and stops long before its 60 s" jq_check "$TMP/ss.json" '
s = j["steadystate"]
assert s["attained"] == 1, s
assert j["job_runtime"] < 30000, j["job_runtime"]
assert "partial" not in d, "a steady-state stop is not an interruption"'
check "the steadystate object has fio's fields" jq_check "$TMP/ss.json" '
s = j["steadystate"]
assert list(s) == ["ss", "duration", "attained", "criterion", "max_deviation", "slope", "data"], list(s)
assert s["ss"] == "iops:50.000000%" and s["duration"] == 2, s
assert s["criterion"].endswith("%") and float(s["criterion"][:-1]) < 50, s
assert s["slope"] == 0 and s["max_deviation"] > 0, s
data = s["data"]
assert list(data) == ["bw_mean", "iops_mean", "iops", "bw"], list(data)
assert len(data["iops"]) == 4 and len(data["bw"]) == 4, data      # 2 s / 500 ms
assert all(b == i * 4096 or abs(b - i * 4096) <= 4096 for b, i in zip(data["bw"], data["iops"])), data
assert data["iops_mean"] == sum(data["iops"]) // 4, data
assert all(abs(i - data["iops_mean"]) <= 0.5 * data["iops_mean"] for i in data["iops"]), data'
run_db run --no-db "$J/steadystate.fio"
expect_output "steadystate  : attained=yes" "the summary says it was attained"
expect_exit 0 "a criterion that cannot be met (0%)" run --no-db "$J/steadystate.fio" \
	--set ss=iops:0% --set runtime=3 --output-format=json --output="$TMP/ss0.json"
# 3 s: the 2 s window is full before the end even when the monitor's last
# check comes after the job's (a loaded machine)
check "the job runs its whole runtime, not attained" jq_check "$TMP/ss0.json" '
s = j["steadystate"]
assert s["attained"] == 0 and j["job_runtime"] >= 2900, (s, j["job_runtime"])
assert len(s["data"]["iops"]) == 4 and all(i > 0 for i in s["data"]["iops"]), s'
expect_exit 0 "a group in steady state" run --no-db "$J/steadystate-group.fio" \
	--output-format=json --output="$TMP/ssg.json"
check "the group attains it together: one entry, both jobs stopped early" jq_check "$TMP/ssg.json" '
assert len(d["jobs"]) == 1, len(d["jobs"])
s = j["steadystate"]
assert s["attained"] == 1 and s["ss"] == "bw_slope:20.000000%", s
assert j["job_runtime"] < 2 * 30000 and j["read"]["runtime"] < 30000, j["read"]["runtime"]
assert s["max_deviation"] == 0, s'
expect_exit 0 "a latency criterion (fio 3.40+)" run --no-db "$J/steadystate.fio" \
	--set ss=lat:50% --output-format=json --output="$TMP/ssl.json"
check "the latency window is reported as lat_mean and lat_ns" jq_check "$TMP/ssl.json" '
s = j["steadystate"]; data = s["data"]
assert s["attained"] == 1 and s["ss"] == "lat:50.000000%", s
assert list(data) == ["bw_mean", "iops_mean", "lat_mean", "lat_ns", "iops", "bw"], list(data)
assert all(900000 < l < 20000000 for l in data["lat_ns"]), data   # ~1 ms each'
cat > "$TMP/mixed-ss.fio" <<'EOF'
[a]
ioengine=null
rw=read
size=1m
ss=iops:5%
ss_dur=2s
[b]
ioengine=null
rw=read
size=1m
EOF
expect_exit 2 "steady state on one job of a group but not the other is refused" \
	run --no-db "$TMP/mixed-ss.fio"
expect_output "steadystate options must be consistent within reporting groups" "fio's reason is given"

# --- sprandom ----------------------------------------------------------------------
S="$TMP/spr.dat"
FIO_BS=4096 expect_exit 0 "fio's sprandom example runs with FIO_BS set" run --no-db \
	"$J/sprandom.fio" --set filename="$S" --set size=16m --set verify=crc32c \
	--output-format=json --output="$TMP/spr.json"
check "the plan is fio's: physical size, 100 equal regions, the model's shares" jq_check "$TMP/spr.json" '
import math
p = j["drivebench"]["sprandom"]
logical = 16 << 20
physical = logical + math.ceil(logical * 0.15); physical -= physical % 4096
assert p["logical_bytes"] == logical and p["physical_bytes"] == physical, p
assert p["spr_num_regions"] == 100 and p["region_bytes"] == physical // 100, p
assert p["region_writes"] == physical // 100 // 4096, p
# fio sprandom.c: validity linspace(1, 1 - 1/WAF), space 1/v accumulated,
# resampled at equal space, least valid first
n, waf = 100, 0.5 / 0.15 + 0.7
v = [1 + (1 - 1 / waf - 1) * i / (n - 1) for i in range(n)]
x = []; acc = 0
for a in v:
    acc += 1 / a; x.append(acc)
def at(t):
    for i in range(n - 1):
        if t <= x[i + 1]:
            return v[i] + (v[i + 1] - v[i]) * (t - x[i]) / (x[i + 1] - x[i])
    return v[-1]
grid = [x[0] + (x[-1] - x[0]) * i / (n - 1) for i in range(n)]
want = [round((1 - at(t)) * 10000) / 100 for t in grid][::-1]
assert all(abs(a - b) < 1e-9 for a, b in zip(p["invalid_pct"], want)), (p["invalid_pct"][:4], want[:4])
assert p["invalid_pct"][-1] == 0 and p["invalid_pct"][0] > 20, p["invalid_pct"]'
check "it writes the planned sequence: every block once, a share twice" jq_check "$TMP/spr.json" '
p = j["drivebench"]["sprandom"]; w = j["write"]
assert w["total_ios"] == p["writes"] and w["io_bytes"] == p["writes"] * 4096, (w["total_ios"], p)
assert p["writes"] == 4096 + p["invalidating_writes"] and p["invalidating_writes"] > 400, p
v = j["drivebench"]["verify"]
assert v["checked"] == 4096 and v["failed"] == 0, v   # every block was written'
check "the file holds the job's 16 MiB" test "$(stat -c %s "$S")" -eq $((16 << 20))
rm -f "$S"
FIO_BS=4096 expect_exit 2 "spr_cs above a region is refused, as fio" run --no-db \
	"$J/sprandom.fio" --set filename="$S" --set size=16m --set spr_cs=1m
expect_output "option 'spr_cs': 1048576 is above the region size 192921" "fio's reason, with the sizes"
FIO_BS=4096 expect_exit 2 "sprandom with another generator is refused" run --no-db \
	"$J/sprandom.fio" --set filename="$S" --set size=16m --set random_generator=tausworthe
expect_output "option 'sprandom': requires random_generator=lfsr" "the error names the generator"
expect_exit 2 "sprandom on reads is refused" run --no-db --name=r --filename="$S" \
	--size=1m --rw=randread --sprandom=1
expect_output "option 'sprandom': needs random writes" "the error says what it needs"

# --- percentile switches -------------------------------------------------------------
P="$TMP/pct.dat"
expect_exit 0 "lat_percentiles=1, slat_percentiles=1, clat_percentiles=0" run --no-db \
	"$J/percentiles.fio" --set filename="$P" --output-format=json --output="$TMP/pct.json"
check "percentiles in lat_ns and slat_ns, none in clat_ns" jq_check "$TMP/pct.json" '
for dd in ("read", "write"):
    o = j[dd]
    assert "percentile" in o["lat_ns"] and "percentile" in o["slat_ns"], dd
    assert "percentile" not in o["clat_ns"], dd
    assert o["slat_ns"]["N"] > 0 and "99.990000" in o["lat_ns"]["percentile"], dd'
expect_exit 0 "fio's defaults" run --no-db "$J/percentiles.fio" --set filename="$P" \
	--set lat_percentiles=0 --set slat_percentiles=0 --set clat_percentiles=1 \
	--output-format=json+ --output="$TMP/pct0.json"
check "the defaults: percentiles (and json+ bins) in clat_ns only" jq_check "$TMP/pct0.json" '
for dd in ("read", "write"):
    o = j[dd]
    assert "percentile" in o["clat_ns"] and "bins" in o["clat_ns"], dd
    assert "percentile" not in o["lat_ns"] and "percentile" not in o["slat_ns"], dd'
expect_exit 0 "json+ with lat_percentiles" run --no-db "$J/percentiles.fio" --set filename="$P" \
	--output-format=json+ --output="$TMP/pct1.json"
check "json+ bins go with the percentiles, as fio" jq_check "$TMP/pct1.json" '
o = j["read"]
assert "bins" in o["lat_ns"] and "bins" in o["slat_ns"] and "bins" not in o["clat_ns"], o.keys()
assert sum(o["lat_ns"]["bins"].values()) == o["lat_ns"]["N"]'

# --- unified_rw_reporting ---------------------------------------------------------------
expect_exit 0 "unified_rw_reporting=mixed" run --no-db "$J/unified.fio" \
	--output-format=json --output="$TMP/mixed.json"
check "one mixed section, no read, write, trim or sync" jq_check "$TMP/mixed.json" '
keys = list(j)
assert "mixed" in keys and not {"read", "write", "trim", "sync"} & set(keys), keys
assert keys.index("mixed") == keys.index("job options") + 1, keys
m = j["mixed"]
assert m["total_ios"] == 2048 and m["io_bytes"] == 8 << 20, m
assert m["clat_ns"]["N"] == 2048 and "percentile" in m["clat_ns"], m["clat_ns"]["N"]'
expect_exit 0 "unified_rw_reporting=both" run --no-db "$J/unified.fio" --set unified_rw_reporting=both \
	--output-format=json --output="$TMP/both.json"
check "read and write, then mixed summing them" jq_check "$TMP/both.json" '
keys = list(j)
assert keys.index("mixed") == keys.index("sync") + 1, keys
r, w, m = j["read"], j["write"], j["mixed"]
assert r["total_ios"] > 0 and w["total_ios"] > 0
assert m["total_ios"] == r["total_ios"] + w["total_ios"], (m["total_ios"], r["total_ios"], w["total_ios"])
assert m["io_bytes"] == r["io_bytes"] + w["io_bytes"]
assert m["lat_ns"]["N"] == r["lat_ns"]["N"] + w["lat_ns"]["N"]
assert m["lat_ns"]["max"] == max(r["lat_ns"]["max"], w["lat_ns"]["max"])
assert abs(m["iops"] - r["iops"] - w["iops"]) < 1e-6 * m["iops"] + 1e-9'
run_db run --no-db "$J/unified.fio"
expect_output "^  mixed: .* IOPS .* 8.39 MB in" "the summary prints one mixed line"
check "and no read or write line" sh -c '! printf "%s\n" "$1" | grep -q "^  read:\|^  write:"' _ "$OUT"
# the terse line as fio's: "mixed" one section in place of read, write and
# trim, "both" the mixed one after them (fio 3.33 on a file: 89, 171 and
# 130 fields for mixed, both and none in v3; 95, 236 and 189 in v5; a
# section is 41 fields in v3, 47 in v5, trim only in v5). It printed read
# and write apart with mixed. Counted relative to none: the null engine
# has no disk utilization fields.
fields() {
	run_db run --no-db "$J/unified.fio" --set unified_rw_reporting=$1 --output-format=terse \
		--terse-version=$2
	printf '%s\n' "$OUT" | awk -F';' '{ print NF }'
}
for v in 3 5; do
	none=$(fields none $v) mixed=$(fields mixed $v) both=$(fields both $v)
	section=$([ $v = 3 ] && echo 41 || echo 47)
	sections=$([ $v = 3 ] && echo 2 || echo 3)
	check "terse v$v, mixed: one section for the $sections ($none - $mixed fields)" \
		test $((none - mixed)) -eq $((section * (sections - 1)))
	check "terse v$v, both: the mixed section after them ($both - $none fields)" \
		test $((both - none)) -eq $section
done
run_db run --no-db "$J/unified.fio" --output-format=terse
check "terse, mixed: the section holds all 8192 KiB" \
	test "$(printf '%s\n' "$OUT" | cut -d';' -f6)" = 8192
expect_exit 2 "a bad unified_rw_reporting value is refused" run --no-db "$J/unified.fio" \
	--set unified_rw_reporting=split
expect_output "option 'unified_rw_reporting': bad value 'split' \(none, mixed, both, 0, 1 or 2\)" \
	"the error lists the values"

# --- significant_figures ----------------------------------------------------------------
# fio's num2str: a number divided down to at most N digits keeps N or N-1
# of them, decimals included (the job runs 100 ms: a rate needs a whole ms)
digits_of_bw() {
	printf '%s\n' "$OUT" | sed -n 's/^ *READ: bw=\([0-9.]*\)[KMG]iB\/s.*/\1/p' | tr -d . | tr -d '\n' | wc -c
}
run_db run --no-db "$J/unified.fio" --set significant_figures=2 --set time_based=1 --set runtime=100ms
check "group totals with 2 significant figures ($(digits_of_bw) digits)" test "$(digits_of_bw)" -ge 1 -a "$(digits_of_bw)" -le 2
run_db run --no-db "$J/unified.fio" --set significant_figures=6 --set time_based=1 --set runtime=100ms
check "and with 6 ($(digits_of_bw) digits)" test "$(digits_of_bw)" -ge 5 -a "$(digits_of_bw)" -le 6
