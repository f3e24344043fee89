#!/bin/bash
# test_mpi_clients.sh - an MPI run's ranks shown as fio --client shows its
# clients (docs/output.md, "MPI runs as fio's clients"): the JSON's
# client_stats holds each rank's job objects with hostname and port, then an
# "All clients" entry per aggregate entry equal to jobs[]; normal output
# prints one block per rank under a "<host> rank R" line, then the
# aggregate. One short run on 2 ranks (null engine, 1 s); a stored one
# exports (export --format fio) as the document run printed, client_stats
# included; without mpirun nothing of it appears.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpi_lib.sh"

# two jobs at once on each of 2 ranks: 2 x 2 rank entries, 2 "All clients"
ASAN_OPTIONS="$MPI_ASAN_OPTIONS" timeout 120 mpirun --oversubscribe --bind-to none \
	-x ASAN_OPTIONS -np 2 "$MPI_DB" run --output-format=json,normal --no-db \
	--ioengine=null --bs=4k --size=1g --runtime=1 --time_based \
	--name=rd --rw=randread --name=wr --rw=write >"$TMP/out" 2>"$TMP/err"
RC=$?
if [ "$RC" -eq 0 ]; then ok "json,normal run on 2 ranks"; else not_ok "json,normal run on 2 ranks (exit $RC)"; head "$TMP/err"; fi

# checks_py CHECKS: the JSON document in $TMP/out read once, then each
# check of CHECKS ("## NAME" lines, each followed by its Python) with d (the
# document), rest (what follows it: the normal output) and host (this
# machine's name); prints "ok - NAME" or "not ok - NAME" and the assertion
checks_py() {
	python3 - "$TMP/out" "$1" <<'PY'
import json, socket, sys
text = open(sys.argv[1]).read()
try:
    d, end = json.JSONDecoder().raw_decode(text)
except ValueError as e:
    d, end = {}, 0
    print("not ok - the output starts with a JSON document (%s)" % e)
rest = text[end:]
host = socket.gethostname()
for part in sys.argv[2].split("\n## ")[1:]:
    name, _, code = part.partition("\n")
    try:
        exec(code, {"d": d, "rest": rest, "host": host, "json": json})
        print("ok - " + name)
    except Exception as e:
        print("not ok - %s (%s: %s)" % (name, type(e).__name__, str(e)[:300]))
PY
}

checks_py '
## client_stats: each ranks two jobs, then one All clients per job
cs = d["client_stats"]
got = [(c["jobname"], c["drivebench"].get("rank")) for c in cs]
assert got == [("rd", 0), ("wr", 0), ("rd", 1), ("wr", 1), ("All clients", None), ("All clients", None)], got
assert [c["drivebench"]["jobname"] for c in cs[4:]] == ["rd", "wr"]
assert all(c["drivebench"]["ranks"] == 2 for c in cs[4:])
## every entry has the hostname and port fio gives a client
for c in d["client_stats"]:
    assert c["hostname"] == host, (c["hostname"], host)
    assert c["port"] == 0
    assert list(c)[-2:] == ["hostname", "port"], list(c)[-2:]
## the aggregate keys stay: jobs[] holds each job once
assert [j["jobname"] for j in d["jobs"]] == ["rd", "wr"]
assert "fio version" in d and "timestamp" in d
## each job: the ranks io_bytes and total_ios add up to the aggregate
cs = d["client_stats"]
for agg in d["jobs"]:
    name = agg["jobname"]
    dirn = "read" if name == "rd" else "write"
    parts = [c for c in cs if c["jobname"] == name]
    assert len(parts) == 2
    for key in ("io_bytes", "total_ios"):
        s = sum(p[dirn][key] for p in parts)
        assert s == agg[dirn][key] and all(p[dirn][key] > 0 for p in parts), (name, key, s, agg[dirn][key])
## each All clients entry is the aggregate job object (but its name and host)
cs = d["client_stats"]
for agg, allc in zip(d["jobs"], cs[4:]):
    a = json.loads(json.dumps(allc))
    for k in ("jobname", "hostname", "port"):
        del a[k]
    del a["drivebench"]["jobname"], a["drivebench"]["ranks"]
    b = dict(agg)
    del b["jobname"]
    assert a == b, [k for k in b if a.get(k) != b[k]]
## normal: one block per rank under its <host> line, then the aggregate
lines = rest.splitlines()
heads = [l for l in lines if l.startswith("<")]
assert heads == ["<%s> rank 0 (local 0):" % host, "<%s> rank 1 (local 1):" % host], heads
i0, i1 = lines.index(heads[0]), lines.index(heads[1])
ia = lines.index("All clients (2 ranks):")
assert i0 < i1 < ia
for lo, hi in ((i0, i1), (i1, ia), (ia, len(lines))):
    block = lines[lo:hi]
    assert sum(l.startswith("rd: (groupid=0") for l in block) == 1, block
    assert sum(l.startswith("wr: (groupid=0") for l in block) == 1, block
    assert sum(l.startswith("Run status group 0") for l in block) == 1, block
assert sum(l.startswith("  ranks: 2;") for l in lines[ia:]) == 2
assert not any(l.startswith("  ranks:") for l in lines[:ia])
'

# --- stored and exported: export --format fio writes the document run printed,
# client_stats included (issue 31.1: "the document run would have written")
ASAN_OPTIONS="$MPI_ASAN_OPTIONS" timeout 120 mpirun --oversubscribe --bind-to none \
	-x ASAN_OPTIONS -np 2 "$MPI_DB" run --output-format=json+ --db "$TMP/m.db" --label L \
	--ioengine=null --bs=4k --size=16m --name=rd --rw=randread --iodepth=1 --numjobs=1 \
	>"$TMP/stored.json" 2>"$TMP/err"
check "a stored run on 2 ranks" [ $? -eq 0 ]
"$DB" export --db "$TMP/m.db" --format fio --dir "$TMP/exp" >/dev/null 2>&1
check "export of the MPI run: the document run printed, client_stats included" python3 - \
	"$TMP/stored.json" "$TMP/exp/L/rd/randread-iodepth-1-numjobs-1.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert list(a) == list(b), (list(a), list(b))
assert len(b["client_stats"]) == 3, len(b["client_stats"])
assert a == b, [k for k in a if a[k] != b.get(k)]
PY

# --- one process: no client_stats, no rank blocks ------------------------------------
for bin in "$DB" "$MPI_DB"; do
	name=$(basename "$bin")
	timeout 60 "$bin" run --output-format=json,normal --no-db --ioengine=null --rw=read \
		--size=16m --name=alone >"$TMP/out" 2>"$TMP/err"
	check "$name alone: runs" [ $? -eq 0 ]
	checks_py "
## $name alone: no client_stats, no rank or All clients lines
assert 'client_stats' not in d, list(d)
assert [j['jobname'] for j in d['jobs']] == ['alone']
assert not any(l.startswith('<') or l.startswith('All clients') for l in rest.splitlines()), rest
"
done
exit 0
