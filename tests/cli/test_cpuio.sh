#!/bin/bash
# test_cpuio.sh - cpuio burns about the CPU it is asked for (docs/engines.md):
# half a CPU at cpuload=50, beside a whole one at cpuload=100, as the JSON
# reports and as the child's own CPU time (getrusage) says. Listed in
# tests/alone.txt: it holds a share of a CPU, which a test beside it takes
# (the rest of the engines are test_engines.sh's).
. "$(dirname "$0")/lib.sh"

JOBS=$(cd "$(dirname "$0")/../data/jobs" && pwd)

# --- cpuio: about half a CPU at cpuload=50 --------------------------------
# The CPU time is the child's own (getrusage). A spin on a busy machine gets
# less than it asks, never more: so the bound above is absolute, and the
# share is compared with a cpuload=100 spin running beside it, which the
# machine's load slows alike.
check "cpuio at cpuload=50 uses about half a CPU" python3 - "$DB" "$JOBS/engine-cpuio.fio" <<'PY'
import json, resource, subprocess, sys
db, job = sys.argv[1:3]
p = subprocess.run([db, "run", "--no-db", job, "--output-format=json"],
                   capture_output=True, text=True)
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
assert p.returncode == 0, p.stderr
j = {x["jobname"]: x for x in json.loads(p.stdout)["jobs"]}
share = {n: (x["usr_cpu"] + x["sys_cpu"]) / 100 for n, x in j.items()}
# the JSON's CPU shares are the child's CPU time
reported = sum(share[n] * j[n]["job_runtime"] / 1000 for n in j)
child = ru.ru_utime + ru.ru_stime
assert 0.7 * child <= reported <= 1.05 * child + 0.05, (reported, child)
assert share["burn_50_noop"] <= 0.65 and share["burn_50_qsort"] <= 0.65, share
ratio = share["burn_50_noop"] / share["burn_100_noop"]
assert 0.25 <= ratio <= 0.8, (ratio, share)
for n, x in j.items():
    r = x["read"]
    assert r["io_bytes"] == 0 and r["total_ios"] >= 1, (n, r)
    # fio: a direction that moved no bytes has no runtime, iops or bw samples
    assert r["iops"] == 0 and r["runtime"] == 0 and r["bw_samples"] == 0, (n, r)
# a noop burst is the latency: at least its 50 ms, no slat
burn = j["burn_50_noop"]["read"]
assert burn["total_ios"] >= 5 and burn["clat_ns"]["min"] >= 50_000_000, burn
assert burn["slat_ns"]["max"] < 1_000_000, burn["slat_ns"]
PY
