#!/bin/bash
# test_workloads.sh - the CDN and object-storage steps of quick.suite
# (docs/workloads.md) on a scratch file: every step stores its results, the
# CDN fill covers the whole target with 4 psync jobs on their quarters, the
# read sweep uses workloads/cdn-read.bssplit, the object tests count
# objects and hold bounded buffer memory (stored and measured), and the
# report draws one chart per jobs count and states the buffer memory.
. "$(dirname "$0")/lib.sh"

suite="$(pwd)/suites/quick.suite"
db="$TMP/workloads.db"
steps=cdn-fill,cdn-saturate,cdn-rand-read,cdn-rand-write
steps=$steps,obj-rand-read-qd40,obj-seq-read-qd40,obj-rand-read-4x10,obj-seq-read-4x10
# every timed part at a quarter of its time (--time-scale): what is checked
# is counted, not timed, and a 0.25 s object test still completes ~100
# objects (the CDN fill is not time-based: the whole target, as at 1)
scale="--time-scale 0.25"

# peak resident memory of the whole process, where GNU time is installed;
# under AddressSanitizer its quarantine of freed memory (256 MiB by
# default) is kept small, so the figure stays the program's
[ "$ASAN_BUILD" = 1 ] && export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4"
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f "%M" -o "$TMP/maxrss" timeout 300 "$DB" suite --suite "$suite" $scale \
		--db "$db" --only "$steps" >"$TMP/out" 2>"$TMP/err"
	RC=$?
else
	timeout 300 "$DB" suite --suite "$suite" $scale --db "$db" --only "$steps" >"$TMP/out" 2>"$TMP/err"
	RC=$?
fi
if [ "$RC" -eq 0 ]; then ok "the CDN and object-storage steps of quick.suite run"; else
	not_ok "quick.suite CDN/object steps (exit $RC)"; tail -20 "$TMP/err"; fi

check "every step done, one result each point, bytes moved" sql "$db" '
steps = c.execute("select name, status from steps order by idx").fetchall()
assert [s[0] for s in steps] == "'"$steps"'".split(","), steps
assert all(s[1] == "done" for s in steps), steps
def results(step):
    return c.execute("select r.job_name, r.rw, r.bs, r.iodepth, r.numjobs, r.max_buffer_bytes,"
                     " d.ios, d.bytes, d.iops, d.bw_bytes, d.lat_mean from results r"
                     " join steps s on s.id = r.step_id join result_dirs d on d.result_id = r.id"
                     " where s.name = ? and d.ios > 0", (step,)).fetchall()
fill = results("cdn-fill")
assert len(fill) == 1 and fill[0][1] == "write" and fill[0][4] == 4, fill
assert fill[0][7] == 1 << 30, fill          # 4 quarters = the whole 1 GiB scratch file
assert fill[0][6] == 1024, fill              # in 1M writes
assert len(results("cdn-saturate")) == 1
for name in ("cdn-rand-read", "cdn-rand-write"):
    pts = results(name)
    assert sorted((p[3], p[4]) for p in pts) == [(1, 1), (1, 4), (8, 1), (8, 4)], pts
    assert all(p[2] == 0 for p in pts), pts  # mixed block sizes
opts = c.execute("select options_json from results where job_name like ?", ("cdn-rand-read%",)).fetchone()[0]
assert "cdn-read.bssplit" in opts, opts
'

check "object tests: objects/s, per-object latency, 40 MiB of buffers" sql "$db" '
for name, qd, jobs in (("obj-rand-read-qd40", 40, 1), ("obj-seq-read-qd40", 40, 1),
                       ("obj-rand-read-4x10", 10, 4), ("obj-seq-read-4x10", 10, 4)):
    r = c.execute("select r.iodepth, r.numjobs, r.max_buffer_bytes, d.ios, d.bytes, d.iops,"
                  " d.bw_bytes, d.lat_mean from results r join steps s on s.id = r.step_id"
                  " join result_dirs d on d.result_id = r.id and d.dir = \"read\""
                  " where s.name = ?", (name,)).fetchall()
    assert len(r) == 1, (name, r)
    depth, nj, buf, ios, nbytes, iops, bw, lat = r[0]
    assert (depth, nj) == (qd, jobs), r
    assert buf == 40 << 20, (name, buf)        # numjobs x iodepth x 1 MiB chunks
    assert ios > 0 and nbytes / ios > 64 * 1024, r  # one I/O per object, mean above 64K
    assert abs(bw / iops - nbytes / ios) < 0.01 * nbytes / ios, r
    assert lat > 0
'

if [ -s "$TMP/maxrss" ]; then
	rss_kib=$(tail -n 1 "$TMP/maxrss")
	echo "# peak resident memory of the run: $((rss_kib / 1024)) MiB (stored buffers: 40 MiB)"
	# 40 objects of up to 64 MiB in flight would need 2.5 GiB without chunks
	check "peak resident memory stays bounded (${rss_kib} KiB < 256 MiB)" test "$rss_kib" -lt 262144
fi

expect_exit 0 "report of the workload run" report --db "$db" --out "$TMP/w.html"
# named as a reader knows it, never by its size split (issue 16)
check "one chart per jobs count for the CDN read sweep" \
	grep -q "CDN random read, 4 jobs: bandwidth by queue depth" "$TMP/w.html"
check "no test named by its split file" bash -c "! grep -q 'mixed (cdn-read.bssplit)' '$TMP/w.html'"
check "the report states the object tests' buffer memory" \
	grep -q "10/4: 40.0 MiB" "$TMP/w.html"
