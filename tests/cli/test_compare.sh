#!/bin/bash
# test_compare.sh - `drivebench compare` end to end over every result kind
# and more than two drives: drives A and B each run a short suite on a
# scratch file (a steady step, a two-point sweep, a checkpoint step of two
# passes) and a CPU_ONLY `drivebench gds` sweep; drives C and E are one
# null-engine point each, drive D a run left unfinished. The text blocks in
# order (points, checkpoints, GDS, steady state), '-' for a drive without a
# row, the count lines, --json with the same content, the not-whole
# warnings, and every error: one drive, 17, an unknown label or run, no
# database, a bad option.
. "$(dirname "$0")/lib.sh"

db="$TMP/compare.db"
export DRIVEBENCH_CUFILE_LIB="$TMP/none/libcufile.so.0"
export DRIVEBENCH_CUDART_LIB="$TMP/none/libcudart.so.12"
cat > "$TMP/kinds.suite" <<'EOF'
[suite]
name = kinds
[global]
ioengine = psync
size = 16m
time_based = 1
runtime = 150ms
[steady-4k]
step = steady
rw = randwrite
bs = 4k
window = 2
max_rounds = 3
[sweep-read]
step = sweep
rw = randread
bs = 4k
points = 1/1 2/1
[checkpoint]
step = checkpoint
checkpoint_size = 4MB
ranks = 2
count = 2
passes = 2
EOF

for d in A B; do
	dd if=/dev/zero of="$TMP/$d.dat" bs=1M count=16 status=none
	expect_exit 0 "drive $d: the suite" suite --suite "$TMP/kinds.suite" --db "$db" --label "$d" \
		--destroy-data "$TMP/$d.dat" "$TMP/$d.dat"
	expect_exit 0 "drive $d: a CPU_ONLY GDS sweep" gds --db "$db" --label "$d" --rw read \
		--bs 16k --threads 1,2 -T 150ms -s 16m "$TMP/$d.gds"
done
expect_exit 0 "drive C: one point" run --db "$db" --label C --name=j --ioengine=null \
	--size=16m --rw=randread --bs=4k --iodepth=2
expect_exit 0 "drive E: the same point" run --db "$db" --label E --name=j --ioengine=null \
	--size=16m --rw=randread --bs=4k --iodepth=2
expect_exit 0 "drive D: a run" run --db "$db" --label D --name=j --ioengine=null \
	--size=16m --rw=randread --bs=4k
sql "$db" 'c.execute("update runs set finished_ms = 0 where label = \"D\""); c.commit()'

# --- text, three drives ---------------------------------------------------------
expect_exit 0 "compare three drives" compare --db "$db" A B C
check "no warning for whole runs" test -z "$ERR"
expect_output "^A = A \(A\), B = B \(B\), C = C \(C\); vs A = \(drive - A\) / A$" "the header names every drive"
check "the blocks in order: points, checkpoints, GDS, steady state" test \
	"$(printf '%s\n' "$OUT" | grep '^== ' | tr '\n' '|')" = \
	"== Points: sweeps and single points ==|== Checkpoints: DLIO checkpoint passes ==|== GDS points: gdsio-style sweeps ==|== Steady state: SNIA PTS steady-state steps ==|"
# three drives' points are wider than 120 columns: a panel per figure
check "no line over 120 columns" test "$(printf '%s\n' "$OUT" | awk '{ if (length > m) m = length } END { print m + 0 }')" -le 120
for fig in "MB/s" IOPS mean p99; do
	expect_output "^test +QD/jobs +A $fig +B $fig +vs A +C $fig +vs A$" "a panel of $fig: A, then each drive with its % against A"
done
expect_output "^4K random read +2/1 +[0-9.]+ +[0-9.]+ +([-+][0-9.]+%|[0-9.]+x) +[0-9.]+ +([-+][0-9.]+%|[0-9.]+x)$" \
	"the point all three have"
check "by default only the point every drive has" bash -c "! printf '%s\n' \"\$0\" | grep -q '^4K random read *1/1'" "$OUT"
expect_output "^1 shared point\(s\) \(in all 3 drives\), 1 more in only some \(A has 1, B has 1, C has 0; --all lists them\)" \
	"the points count line says how many every drive has and how many each has beyond them"
check "the steady rounds are not a point" bash -c "! printf '%s\n' \"\$0\" | grep -q '^4K random write'" "$OUT"
check "no pass is shared by all three: none listed" bash -c "! printf '%s\n' \"\$0\" | grep -q '^pass 1'" "$OUT"
expect_output "^0 shared pass\(es\) \(in all 3 drives\), 2 more in only some \(A has 2, B has 2, C has 0; --all" "the passes count line"
expect_output "^0 shared GDS point\(s\) \(in all 3 drives\), 2 more" "the GDS count line"

expect_exit 0 "compare three drives, --all" compare --db "$db" --all A B C
check "--all: no line over 120 columns" test "$(printf '%s\n' "$OUT" | awk '{ if (length > m) m = length } END { print m + 0 }')" -le 120
expect_output "^4K random read +1/1 +[0-9.]+ +[0-9.]+ +([-+][0-9.]+%|[0-9.]+x) +- +-$" \
	"--all: a point C does not have, '-' for C"
expect_output "^1 shared point\(s\) \(in all 3 drives\), 1 more in only some \(A has 1, B has 1, C has 0; - where a drive has none\)" \
	"--all: the count line"
expect_output "^pass +A s/ckpt +B s/ckpt +vs A +C s/ckpt +vs A$" "--all: the passes' seconds as a panel"
expect_output "^pass 1 +2 +2 +-$" "--all: checkpoint pass 1's count for A and B, none for C"
expect_output "^pass 1 +[0-9.]+ +[0-9.]+ +([-+][0-9.]+%|[0-9.]+x) +- +-$" \
	"--all: checkpoint pass 1's seconds and GB/s for A and B against A, none for C"
expect_output "^pass 2 " "--all: checkpoint pass 2"
expect_output "^16K read \(CPUONLY\) +1 +[0-9.]+ +[0-9.]+ +([-+][0-9.]+%|[0-9.]+x)" "--all: a GDS point per block size and threads"
expect_output "^16K read \(CPUONLY\) +2 " "--all: the GDS point at 2 threads"
expect_output "^steady-4k +IOPS +[23] +[23] +-$" "--all: the steady step's rounds"
expect_output "^steady-4k +IOPS +(yes|no) +(yes|no) +-$" "--all: whether it reached steady state"

# --- two drives with only points: one block ----------------------------------------
expect_exit 0 "compare two drives with only points" compare --db "$db" C E
check "only the points block" test "$(printf '%s\n' "$OUT" | grep -c '^== ')" -eq 1
expect_output "^1 shared point\(s\) \(in both drives\)" "two drives: 'in both drives'"

# --- JSON --------------------------------------------------------------------------
expect_exit 0 "compare --json" compare --db "$db" --json A B C
printf '%s\n' "$OUT" > "$TMP/c.json"
check "--json: the drives, one object per block with the same rows" python3 - "$TMP/c.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert [x["name"] for x in d["drives"]] == ["A", "B", "C"], d["drives"]
assert all(x["state"] is None and x["warnings"] == [] for x in d["drives"])
kinds = [b["kind"] for b in d["blocks"]]
assert kinds == ["points", "checkpoints", "gds", "steady"], kinds
b = {x["kind"]: x for x in d["blocks"]}
pts = b["points"]
assert pts["shared"] == 1 and pts["nr_rows"] == 2, pts
one = [r for r in pts["rows"] if r["iodepth"] == 1][0]
assert one["drives"][2] is None and one["rw"] == "randread" and one["bs"] == 4096
a, bb = one["drives"][0], one["drives"][1]
assert "vs_a_pct" not in a
assert abs(bb["vs_a_pct"]["iops"] - (bb["iops"] - a["iops"]) / a["iops"] * 100) < 1e-6
ck = b["checkpoints"]["rows"]
assert [r["pass"] for r in ck] == [1, 2] and all(r["drives"][0]["checkpoints"] == 2 for r in ck)
assert all(r["drives"][0]["gb_per_s"] > 0 for r in ck)
g = b["gds"]["rows"]
assert sorted((r["bs"], r["threads"], r["xfer"]) for r in g) == [(16384, 1, "CPUONLY"), (16384, 2, "CPUONLY")]
st = b["steady"]["rows"]
assert len(st) == 1 and st[0]["step"] == "steady-4k" and st[0]["unit"] == "IOPS"
assert st[0]["drives"][0]["rounds"] in (2, 3) and isinstance(st[0]["drives"][0]["reached"], bool)
EOF

# --- runs that are not whole ---------------------------------------------------------
expect_exit 0 "compare with an unfinished run as C" compare --db "$db" A B D
expect_output "^drivebench compare: warning: C: run [0-9]+ \(run, label 'D'\) is incomplete" \
	"the warning names C's run"
expect_output ", C = D \(D, INCOMPLETE\); " "the header marks C incomplete"
expect_output "^warning: C holds a run that is not whole" "the output ends with the warning"
expect_exit 0 "the same as JSON" compare --db "$db" --json A D
check "--json: D's state and warning" python3 -c '
import json, sys
d = json.loads(sys.argv[1])["drives"][1]
assert d["state"] == "incomplete" and "is incomplete" in d["warnings"][0], d
' "$OUT"

# --- how many drives --------------------------------------------------------------------
expect_exit 0 "16 drives" compare --db "$db" A B C A B C A B C A B C A B C A
expect_output "^  .*, P = A \(A\); vs A" "drives A to P, the header wrapped at 120 columns"
check "16 drives: no line over 120 columns" test "$(printf '%s\n' "$OUT" | awk '{ if (length > m) m = length } END { print m + 0 }')" -le 120
expect_exit 2 "17 drives" compare --db "$db" A B C A B C A B C A B C A B C A B
expect_output "takes at most 16 runs or labels \(a 17th: 'B'\)" "says at most 16"
expect_exit 2 "one drive" compare --db "$db" A
expect_output "wants 2 to 16 runs or labels, got 1" "says it wants 2 to 16"
expect_exit 2 "no drive" compare --db "$db"

# --- other errors ---------------------------------------------------------------------------
expect_exit 2 "an unknown label" compare --db "$db" A nosuch C
expect_output "no run with label 'nosuch'" "names the unknown label"
expect_exit 2 "an unknown run id" compare --db "$db" A 999
expect_exit 2 "no database" compare --db "$TMP/none.db" A B
check "no database created" test ! -e "$TMP/none.db"
expect_exit 2 "an unknown option" compare --db "$db" --bogus A B
expect_exit 0 "--help" compare --help
expect_output "--json" "--help lists --json"

# --- object tests of two size splits are two tests, each named by its split (issue 27.2) ----
fixture="$(dirname "$0")/../data/review-fixture.db"
expect_exit 0 "compare --all on the fixture's two object splits" compare --db "$fixture" --all \
	p5430-review ps1030-quick
objs=$(printf '%s\n' "$OUT" | grep '^Object storage')
if printf '%s\n' "$objs" | grep -q '(split 64k/65:1m/15:8m/15:64m/5)' &&
   printf '%s\n' "$objs" | grep -q '(split 64k/65:8m/15:64m/15:1g/5)'; then
	ok "each object row names its split"
else not_ok "object rows without their split: $(printf '%s\n' "$objs" | head -4)"; fi
# within one panel (between two "test" heads) no name and QD/jobs twice
dups=$(printf '%s\n' "$OUT" | awk '/^test /{panel++} /^Object storage/{ sub(/  +[-0-9.x%+ ]*$/, ""); print panel "|" $0 }' | sort | uniq -d)
if [ -z "$dups" ]; then ok "no object row name twice in a panel"; else not_ok "twice: $dups"; fi
