#!/bin/sh
# test_status.sh - fio's status conventions for `run`: --status-interval
# prints the full results so far every N seconds in the chosen formats
# (JSON documents one after another), --eta=always|never|auto draws fio's
# ETA line on stderr.
. "$(dirname "$0")/lib.sh"

# a light job: the null engine at a fixed rate, so the figures are known
JOB="--name=a --ioengine=null --size=1g --rw=randread --bs=4k --rate_iops=2000 --runtime=2500ms --time_based"

# docs FILE PYTHON: runs PYTHON with docs = the JSON documents in FILE
docs() {
	python3 - "$1" "$2" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
dec, i, docs = json.JSONDecoder(), 0, []
while True:
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text):
        break
    doc, i = dec.raw_decode(text, i)
    docs.append(doc)
exec(sys.argv[2])
PY
}

run_db run --no-db --status-interval=1 --output-format=json $JOB
printf '%s\n' "$OUT" > "$TMP/status.json"
check "json: every status is a whole fio document, then the final one" docs "$TMP/status.json" '
assert len(docs) == 3, len(docs)
for d in docs:
    assert d["fio version"] and len(d["jobs"]) == 1
rt = [d["jobs"][0]["job_runtime"] for d in docs]
assert all(abs(rt[k] - 1000 * (k + 1)) < 300 for k in range(2)), rt
assert rt[2] >= 2400, rt'
check "json: the counts grow and each status agrees with its rate" docs "$TMP/status.json" '
ios = [d["jobs"][0]["read"]["total_ios"] for d in docs]
assert ios == sorted(ios) and ios[0] > 0, ios
for d in docs[:2]:
    r = d["jobs"][0]["read"]
    assert abs(r["iops"] - 2000) < 300, r["iops"]
    assert r["io_bytes"] == r["total_ios"] * 4096
    assert r["clat_ns"]["N"] == r["total_ios"]'
check "json: the last document is the final result (not marked partial)" docs "$TMP/status.json" '
assert "partial" not in docs[-1]
assert docs[-1]["jobs"][0]["read"]["total_ios"] >= 4700'

run_db run --no-db --status-interval=1 --output-format=json --output="$TMP/out.json" $JOB
check "--output: the status documents go to the output file" docs "$TMP/out.json" '
assert len(docs) == 3, len(docs)'

run_db run --no-db --status-interval=1 $JOB
n=$(printf '%s\n' "$OUT" | grep -c '^a: (groupid=0')
check "normal: a full summary per status and at the end ($n)" test "$n" -eq 3

run_db run --no-db --status-interval=1 --output-format=terse $JOB
n=$(printf '%s\n' "$OUT" | grep -c '^3;')
check "terse: a line per status and at the end ($n)" test "$n" -eq 3

# two phases: a status lists the jobs started so far, a finished one with
# its final figures
run_db run --no-db --status-interval=1 --output-format=json --name=a --ioengine=null \
	--size=1g --rw=read --bs=4k --rate_iops=1000 --runtime=1500ms --time_based \
	--name=b --stonewall --ioengine=null --size=1g --rw=write --bs=4k --rate_iops=1000 \
	--runtime=2 --time_based
printf '%s\n' "$OUT" > "$TMP/phases.json"
check "stonewall: each status has the jobs started so far" docs "$TMP/phases.json" '
assert [len(d["jobs"]) for d in docs] == [1, 2, 2, 2], [len(d["jobs"]) for d in docs]
a = [d["jobs"][0]["read"]["total_ios"] for d in docs[1:]]
assert len(set(a)) == 1, a   # job a finished: its figures no longer change
assert docs[1]["jobs"][1]["write"]["total_ios"] > 0'

run_db run --no-db --eta=always $JOB
check "--eta=always: fio's ETA line every second, counting down" python3 -c '
import re, sys
lines = [l for l in sys.argv[1].splitlines() if l.startswith("Jobs:")]
assert len(lines) >= 2, lines
pat = re.compile(r"^Jobs: 1 \(f=1\): \[([0-9.]+)%\]\[r=[^]]*\]\[r=[^]]* IOPS\]\[eta 00m:0(\d)s\]$")
m = [pat.match(l) for l in lines]
assert all(m), lines
secs = [int(x.group(2)) for x in m]
assert secs == sorted(secs, reverse=True) and secs[0] >= 1, secs
# 2000 IOPS of 4 KiB: 7.81 MiB/s over a second (give or take a tick)
rate = float(re.search(r"\[r=([0-9.]+)MiB/s", lines[1]).group(1))
assert abs(rate - 7.8125) < 1.2, lines[1]' "$ERR"
run_db run --no-db --eta=never $JOB
check "--eta=never: no ETA line" sh -c '! printf "%s\n" "$1" | grep -q "^Jobs:"' sh "$ERR"
run_db run --no-db --eta=auto $JOB
check "--eta=auto: no ETA line when stderr is not a terminal" sh -c '! printf "%s\n" "$1" | grep -q "^Jobs:"' sh "$ERR"

expect_exit 2 "--eta: an unknown word is refused" run --no-db --eta=sometimes $JOB
expect_output "--eta: 'sometimes' is not always, never or auto" "--eta: the error names the option"
expect_exit 2 "--status-interval: not a time is refused" run --no-db --status-interval=soon $JOB
expect_output "--status-interval: 'soon' is not a time" "--status-interval: the error names the option"
expect_exit 2 "--status-interval: zero is refused" run --no-db --status-interval=0 $JOB
expect_output "--status-interval: '0' is under 1ms" "--status-interval=0: the error says why"
