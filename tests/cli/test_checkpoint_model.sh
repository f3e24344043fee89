#!/bin/bash
# test_checkpoint_model.sh - `drivebench checkpoint vssd:MODEL@SCALE`: the
# checkpoints as regions of a modelled drive, as on a raw device (its jobs
# on ioengine=vssd), every pass on the one drive of the process: as many
# as fit in the model's capacity x --fill, every pass and checkpoint
# stored with the regions in the step detail, pass 2's snapshots showing
# the drive pass 1 wrote; refusals by name: --checkpoint-fs on a
# model (pointing at vssd-serve), a model file that is not there.
. "$(dirname "$0")/lib.sh"

m="$(pwd)/tests/data/models/test-tlc.ini"
t="vssd:$m@512m"
db="$TMP/c.db"

expect_exit 0 "checkpoints on $t" checkpoint --db="$db" --checkpoint-size 32MB --ranks 2 \
	--passes 2 "$t"
expect_output "15 checkpoints of 32.0 MB .* per pass, 2 passes, in $t" \
	"as many as fit in 512 MiB x 0.9 (regions rounded up to 4 KiB)"
check "every pass and checkpoint stored, as regions of the model" sql "$db" '
import json
steps = c.execute("select detail from steps order by id").fetchall()
assert len(steps) == 2, steps
for (detail,) in steps:
    d = json.loads(detail)
    assert d["mode"] == "regions" and d["checkpoints"] == 15, d
    ends = sorted(r["offset"] + r["length"] for r in d["regions"])
    assert d["device"] == "vssd:'"$m"'@512m", d["device"]
    assert ends[-1] <= 512 << 20, ends[-1]
n = c.execute("select count(distinct job_name) from results").fetchone()[0]
assert n >= 4, n
step2 = c.execute("select max(id) from steps").fetchone()[0]
written = max(int(json.loads(b)["nvme"]["health"]["host_bytes_written"])
              for (b,) in c.execute("select drive_before from results where step_id = ?", (step2,)))
assert written >= 15 * 32000000, written
'
expect_exit 2 "--checkpoint-fs on a model target is refused" checkpoint --db="$db" \
	--checkpoint-size 32MB --ranks 2 --checkpoint-fs xfs "$t"
expect_output "'$t' is a model target, which keeps no data: there is no filesystem to make on it \(drivebench vssd-serve" \
	"... pointing at vssd-serve"
expect_exit 2 "a model file that is not there" checkpoint --db="$db" --checkpoint-size 32MB \
	--ranks 2 "vssd:$TMP/none.ini@512m"
expect_output "$TMP/none.ini" "... is named"
check "nothing stored for the refused ones" sql "$db" '
assert c.execute("select count(*) from runs").fetchone()[0] == 1
'
