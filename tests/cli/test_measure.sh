#!/bin/bash
# test_measure.sh - how drivebench measures, checked where it does not
# depend on timing: a synchronous engine's device time is clat (no slat
# samples), fio's batching defaults and what each batching option does to
# the submit pattern (counted by the fault engine), fio's 500 ms rate
# samples and bwavgtime, and group_reporting's sums (job files in
# tests/data/jobs/measure-*.fio).
. "$(dirname "$0")/lib.sh"
JOBS="$(dirname "$0")/../data/jobs"

# json_check WHAT PYTHON: runs PYTHON with the run's JSON as doc and its
# jobs by name in jobs
json_check() {
	echo "$OUT" > "$TMP/out.json"
	check "$1" python3 -c "
import json
doc = json.load(open('$TMP/out.json'))
jobs = {j['jobname']: j for j in doc['jobs']}
$2"
}

# --- a synchronous engine: device time in clat, no slat ---------------------
dd if=/dev/zero of="$TMP/read.dat" bs=64k count=1 status=none
expect_exit 0 "fault:psync with a 2 ms delay per I/O runs" \
	run --no-db "$JOBS/measure-sync.fio" --set filename="$TMP/read.dat" --output-format=json
json_check "every I/O's 2 ms is in clat and lat, none in slat (fio: N 0)" "
r = jobs['sync-delay']['read']
assert r['total_ios'] == 16, r['total_ios']
assert r['slat_ns']['N'] == 0 and r['slat_ns']['max'] == 0, r['slat_ns']
assert r['clat_ns']['min'] >= 2e6, r['clat_ns']
assert r['lat_ns']['min'] >= r['clat_ns']['min']
assert r['slat_ns']['mean'] <= 0.05 * r['lat_ns']['mean']"
json_check "iodepth=4 on a sync engine: one I/O per submit and per reap" "
c = jobs['sync-delay']['drivebench']['engine_calls']
f = jobs['sync-delay']['drivebench']['faults_injected']
assert c == {'submit': 16, 'submitted': 16, 'reap': 16, 'reaped': 16}, c
assert f['delay'] == 16, f"

# --- batching: fio's defaults and options -----------------------------------
expect_exit 0 "the batching job file runs" run --no-db "$JOBS/measure-batch.fio" --output-format=json
json_check "fio's defaults: one I/O per submit call, one completion per reap" "
j = jobs['fio-defaults']
c = j['drivebench']['engine_calls']
assert j['read']['total_ios'] == 1024
assert c == {'submit': 1024, 'submitted': 1024, 'reap': 1024, 'reaped': 1024}, c
assert j['read']['slat_ns']['N'] == 1024   # an async engine has slat"
json_check "iodepth_batch_submit=0: iodepth at once, then one per freed slot" "
c = jobs['batch-iodepth']['drivebench']['engine_calls']
assert c['submitted'] == 1024 and c['submit'] == 1024 - 15, c
assert c['reap'] == 1024, c"
json_check "iodepth_batch_submit=4 with complete_max=4: four per call" "
c = jobs['batch-4']['drivebench']['engine_calls']
assert c == {'submit': 256, 'submitted': 1024, 'reap': 256, 'reaped': 1024}, c"
json_check "iodepth_batch_adaptive=1 batches (its first batch alone is 8 I/Os)" "
c = jobs['batch-adaptive']['drivebench']['engine_calls']
assert c['submitted'] == 1024 and c['submit'] < 1024 - 6, c"
json_check "iodepth_batch_adaptive is in the job options" "
assert jobs['batch-adaptive']['job options']['iodepth_batch_adaptive'] == '1'"

# --- rate samples: fio's 500 ms, and bwavgtime ------------------------------
expect_exit 0 "the sampling job file runs" run --no-db "$JOBS/measure-samples.fio" --output-format=json
json_check "2 s at fio's default 500 ms: 3 samples at most, more than per second" "
r = jobs['default-windows']['read']
for k in ('bw', 'iops'):
    assert 2 <= r[k + '_samples'] <= 3, (k, r[k + '_samples'])
assert r['bw_min'] <= r['bw_mean'] <= r['bw_max'] and r['bw_dev'] >= 0
assert r['iops_min'] <= r['iops_mean'] <= r['iops_max']"
json_check "bwavgtime=250: up to 7 bandwidth samples, IOPS still every 500 ms" "
r = jobs['bw-every-250ms']['read']
assert 4 <= r['bw_samples'] <= 7, r['bw_samples']
assert r['iops_samples'] <= 3 < r['bw_samples'], r"

# --- group_reporting: fio's sums ---------------------------------------------
expect_exit 0 "four clones without group_reporting" \
	run --no-db "$JOBS/measure-group.fio" --set group_reporting=0 --output-format=json
json_check "each clone: its own runtime and at most 3 samples of 250 ms in 1 s" "
assert len(doc['jobs']) == 4
for j in doc['jobs']:
    assert j['job_runtime'] >= 1000 and j['read']['bw_samples'] <= 3, j['job_runtime']"
expect_exit 0 "four clones with group_reporting" \
	run --no-db "$JOBS/measure-group.fio" --output-format=json
json_check "the group: job_runtime and the samples summed over its clones" "
assert len(doc['jobs']) == 1
j = doc['jobs'][0]
assert j['job_runtime'] >= 4000, j['job_runtime']
assert j['read']['runtime'] < 2000, j['read']['runtime']   # the longest clone's
for k in ('bw', 'iops'):
    assert 3 < j['read'][k + '_samples'] <= 12, (k, j['read'][k + '_samples'])"

# --- bad values ---------------------------------------------------------------
expect_exit 2 "bwavgtime=0 is refused" run --no-db --name=b --ioengine=null --size=64k --bwavgtime=0
expect_output "option 'bwavgtime': 0 is too small, the range is 1..86400000" "the error names bwavgtime"
expect_exit 2 "iopsavgtime=2s is refused (milliseconds, a whole number)" \
	run --no-db --name=b --ioengine=null --size=64k --iopsavgtime=2s
expect_output "option 'iopsavgtime': bad number '2s'" "the error names iopsavgtime"
expect_exit 2 "iodepth_batch_adaptive=perhaps is refused" \
	run --no-db --name=b --ioengine=null --size=64k --iodepth_batch_adaptive=perhaps
expect_output "option 'iodepth_batch_adaptive': bad boolean 'perhaps'" "the error names iodepth_batch_adaptive"
