#!/bin/sh
# vssd-fit.sh - the seed drives' four rated figures (docs/vssd-fit.md) in
# real time: each spec's model target runs through `drivebench run` in
# one process (one drive: fill, 128K sequential write and read, 4K random
# read at 256 outstanding, a random overwrite to steady state, then the
# random write at the spec's rand_write_bs), next to the virtual-time
# simulator's figure on the same recipe (bench/vssd_sim.c) and the
# [rated] one. Real time runs the same model code as the simulator, so a
# real-time figure below 0.85 of the simulator's is the runner's (it
# submitted later than the model allowed), not the model's: it is marked
# so. For scale, the runner's own 4K ceiling is measured first on a model
# that is never the limit (1024 dies of a 100 us tR, 1 us tPROG, a wide
# link). A benchmark, not a test: minutes.
# Usage: sh bench/vssd-fit.sh [SPEC.ini...]   (run make first)
# Environment: SCALE (8g), RUNTIME (seconds per figure, 5), RR_JOBS (jobs
# sharing the 256 outstanding random reads, 1: on 2 CPUs 4 x 64 drove
# 0.9M where 1 x 256 drove 1.5M), WARM (capacities of random
# overwrite before the random write, 1.25), BUILD (build).
set -eu
build=${BUILD:-build}
scale=${SCALE:-8g}
runtime=${RUNTIME:-5}
rr_jobs=${RR_JOBS:-1}
warm=${WARM:-1.25}
cc=${CC:-cc}
[ $# -gt 0 ] || set -- specs/*.ini
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
$cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Isrc -o "$build/vssd_sim" \
	bench/vssd_sim.c "$build/libdrivebench.a" -lm

# rated SPEC KEY: [rated] KEY's value
rated() {
	awk -F' *= *' -v k="$2" '/^\[/ { s = $0 } s == "[rated]" && $1 == k { print $2 }' "$1"
}

# ceiling JOB_LINES: real-time 4K IOPS of the fast model (filled, 2g)
cat >"$tmp/fast.ini" <<'INI'
[drive]
model = fast model (the runner's ceiling)
capacity_tb = 2
[model]
cell = tlc
op = 50%
channels = 16
dies_per_channel = 64
page = 16k
pages_per_block = 16
read_us = 100
program_us = 1
pcie_gen = 6
pcie_lanes = 32
controller_kiops = 100000
INI
ceiling() {
	cat >"$tmp/ceil.fio" <<JOB
[global]
ioengine=vssd
vssd_model=$tmp/fast.ini
vssd_scale=2g
filename=vssd:$tmp/fast.ini@2g
size=100%
norandommap=1
[fill]
rw=write
bs=128k
iodepth=16
[c]
stonewall
bs=4k
runtime=$runtime
time_based
$1
JOB
	"$build/drivebench" run --no-db --output-format=json "$tmp/ceil.fio" | python3 -c '
import json, sys
print("%.0f" % sum(j["read"]["iops"] + j["write"]["iops"]
                   for j in json.load(sys.stdin)["jobs"] if j["jobname"] == "c"))'
}
ceil_read=$(ceiling "rw=randread
iodepth=$((256 / rr_jobs))
numjobs=$rr_jobs")
ceil_write=$(ceiling "rw=randwrite
iodepth=256")
echo "runner ceiling on this machine ($(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)):" \
	"4K random read $ceil_read IOPS, 4K random write $ceil_write IOPS (a fast model, filled)"
echo

printf '| drive | figure | rated | simulated | real time | sim/rated | real/rated | real/sim | CPUs |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for spec in "$@"; do
	bs=$(rated "$spec" rand_write_bs)
	# the simulator, the fit's recipe (tests/unit/test_vssd_fit.c) at this scale
	"$build/vssd_sim" "$spec" "$scale" write:128k:16:1x write:128k:16:0.5x \
		read:128k:64:0.25x randread:4k:256:100000 "randwrite:$bs:256:1x:untimed" \
		"randwrite:$bs:256:0.25x" "randwrite:$bs:256:0.25x" >"$tmp/sim"
	cap=$(awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "bytes,") print $(i - 1) }' "$tmp/sim")
	cat >"$tmp/fit.fio" <<JOB
[global]
ioengine=vssd
vssd_model=$spec
vssd_scale=$scale
filename=vssd:$spec@$scale
size=100%
norandommap=1
[fill]
rw=write
bs=128k
iodepth=16
[seq_write]
stonewall
rw=write
bs=128k
iodepth=16
runtime=$runtime
time_based
[seq_read]
stonewall
rw=read
bs=128k
iodepth=64
runtime=$runtime
time_based
[rand_read]
stonewall
rw=randread
bs=4k
iodepth=$((256 / rr_jobs))
numjobs=$rr_jobs
runtime=$runtime
time_based
[overwrite]
stonewall
rw=randwrite
bs=$bs
iodepth=256
number_ios=$(awk -v c="$cap" -v w="$warm" -v bs="$bs" 'BEGIN {
	split("k m g", u); b = bs + 0; for (i = 1; i <= 3; i++) if (index(bs, u[i])) b *= 1024 ^ i
	printf "%d", c * w / b }')
[rand_write]
stonewall
rw=randwrite
bs=$bs
iodepth=256
runtime=$runtime
time_based
JOB
	"$build/drivebench" run --no-db --output-format=json "$tmp/fit.fio" >"$tmp/real.json"
	python3 - "$spec" "$tmp/sim" "$tmp/real.json" "$(nproc)" \
		"$(rated "$spec" seq_read_mbs)" "$(rated "$spec" seq_write_mbs)" \
		"$(rated "$spec" rand_read_iops)" "$(rated "$spec" rand_write_iops)" "$bs" <<'PY'
import json, sys
spec, sim_path, real_path, ncpu = sys.argv[1:5]
rated = [float(x) for x in sys.argv[5:9]]
bs = sys.argv[9]
sim = [l.split() for l in open(sim_path) if l[0] not in "#j"]
# vssd_sim's columns: job IOPS MB/s ...; rows: fill, seq write, seq read, rr, warm x2, rw
sim_fig = {"seq_write": float(sim[1][2]), "seq_read": float(sim[2][2]),
           "rand_read": float(sim[3][1]), "rand_write": float(sim[6][1])}
jobs = {}
for j in json.load(open(real_path))["jobs"]:
    a = jobs.setdefault(j["jobname"], {"iops": 0.0, "bw": 0.0, "cpu": 0.0, "n": 0})
    for d in ("read", "write"):
        a["iops"] += j[d]["iops"]
        a["bw"] += j[d]["bw_bytes"] / 1e6 if "bw_bytes" in j[d] else j[d]["bw"] * 1024 / 1e6
    a["cpu"] += (j["usr_cpu"] + j["sys_cpu"]) / 100
    a["n"] += 1
name = spec.split("/")[-1].replace(".ini", "")
rows = [("seq_write", "128K seq write MB/s", rated[1], "bw"),
        ("seq_read", "128K seq read MB/s", rated[0], "bw"),
        ("rand_read", "4K rand read IOPS (256 out)", rated[2], "iops"),
        ("rand_write", bs.upper() + " rand write IOPS (steady)", rated[3], "iops")]
for key, what, r, unit in rows:
    s, a = sim_fig[key], jobs[key]
    real = a[unit]
    # the same model in virtual time does more: the runner is the limit
    note = " (runner-bound)" if real < 0.85 * s else ""
    print("| %s | %s | %.0f | %.0f | %.0f%s | %.2f | %.2f | %.2f | %.2f |" %
          (name, what, r, s, real, note, s / r, real / r, real / s, a["cpu"]))
PY
done
