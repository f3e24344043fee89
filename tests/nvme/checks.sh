# checks.sh - the host's checks of what tests/nvme/guest.sh left in $R
# (sourced by test_nvme_qemu.sh; lib.sh's ok/not_ok). Each compares what
# drivebench said inside the guest with what QEMU was told.

# rc NAME: the exit status the guest recorded for NAME
rc() { cat "$R/$1.rc" 2>/dev/null || echo missing; }
# show NAME: what NAME printed, for a failing check
show() { head -c 3000 "$R/$1.out"; head -c 2000 "$R/$1.err"; }
# pycheck WHAT PYTHON: PYTHON with j(NAME) = the parsed JSON of NAME.out;
# a failed assert fails the check
pycheck() {
	what=$1
	if python3 - "$R" "$2" 2>$TMP/py.err <<'PY'
import json, sys
R, code = sys.argv[1], sys.argv[2]
def j(name):
    return json.load(open(f"{R}/{name}.out"))
exec(code)
PY
	then ok "$what"; else not_ok "$what"; cat $TMP/py.err; fi
}

cat $R/map.txt
for n in A:1 A:2 B:1 B:2 B:3; do
	grep -q "^$n /dev/nvme" $R/map.txt && ok "namespace $n found" \
		|| not_ok "namespace $n found"
done

# item 2: Identify Controller / Namespace against the QEMU command line
pycheck "info: serial, model, LBA formats and sizes as QEMU was told" '
for name, serial, nsid, lba in (("info_a1", "DBNVME0A", 1, 512),
                                ("info_a2", "DBNVME0A", 2, 4096),
                                ("info_b1", "DBNVME0B", 1, 512)):
    n = j(name)["nvme"]
    assert n["identify_controller"]["serial"] == serial, (name, n)
    assert n["identify_controller"]["model"] == "QEMU NVMe Ctrl", (name, n)
    assert n["namespace_id"] == nsid, (name, n)
    ns = n["identify_namespace"]
    assert ns["lba_data_size"] == lba, (name, ns)
    assert ns["size_blocks"] * lba == 64 << 20, (name, ns)
    assert j(name)["size_bytes"] == 64 << 20, name
    assert j(name)["logical_block_size"] == lba, name
    assert n["health"] is not None, name
'
pycheck "info: the zoned namespace (4096-byte blocks) is identified" '
ns = j("gate_zoned")["nvme"]["identify_namespace"]
assert ns["lba_data_size"] == 4096 and ns["size_blocks"] == 16384, ns
'
grep -q "^serial: *DBNVME0A" $R/info_a1_text.out && grep -q "lba format: *0: 512-byte data" $R/info_a1_text.out \
	&& ok "info text shows serial and LBA format" || { not_ok "info text shows serial and LBA format"; show info_a1_text; }
if grep -q "C0h" $R/info_a1.out $R/info_a1_text.out && ! grep -q "0x4002" $R/info_a1.out $R/info_a1_text.out \
	&& grep -q "log page C0h is not offered by this controller" $R/info_a1_text.out; then
	ok "a missing OCP log page is 'not offered by this controller', not a raw status"
else not_ok "a missing OCP log page is 'not offered by this controller'"; grep -h C0h $R/info_a1_text.out; fi

# the drive snapshots a run takes around each job (drive_before, drive_after,
# drive_delta in its JSON) on A:1: 8 MiB written, then 8 MiB read, in 4 KiB
# commands. A data unit is 1000 x 512 bytes and the controller rounds its
# running total up, so a delta is within one unit of the job's bytes.
pycheck "snapshot deltas around a job agree with its bytes and I/O count" '
for name, op in (("job_w", "write"), ("job_r", "read")):
    job = j(name)["jobs"][0]
    io, d = job[op], job["drivebench"]["drive_delta"]
    assert io["io_bytes"] == 8 << 20 and io["total_ios"] == 2048, (name, io)
    assert int(d["host_%s_commands" % op]) == io["total_ios"], (name, d)
    units = int(d["host_bytes_%s" % ("written" if op == "write" else "read")]) // 512000
    exact = io["io_bytes"] / 512000
    assert exact - 1 < units < exact + 1, (name, units, exact)
    other = "read" if op == "write" else "write"
    assert int(d["host_%s_commands" % other]) == 0, (name, d)
'

# item 3: the write gate
grep -q "carries an ext4 filesystem" $R/gate_ext4.err && [ "$(rc gate_ext4)" = 3 ] \
	&& ok "a namespace carrying ext4 is refused" || { not_ok "a namespace carrying ext4 is refused"; show gate_ext4; }
grep -q "partition table" $R/gate_part.err && [ "$(rc gate_part)" = 3 ] \
	&& ok "a namespace with a partition table is refused" || { not_ok "a namespace with a partition table is refused"; show gate_part; }
pycheck "a partition the kernel knows is probed (its ext4 found)" '
s = j("gate_part1")
assert s["partition"] and s["disk"].endswith("n2"), s
assert not s["safety"]["write_allowed"], s["safety"]
assert s["safety"]["device_id"] == "DBNVME0B:ns2", s["safety"]
assert any("ext4" in x for x in s["safety"]["reasons"]), s["safety"]
'
grep -q "does not match the ID of" $R/gate_other.err && [ "$(rc gate_other)" = 3 ] \
	&& ok "the other controller's serial is another drive's consent" || { not_ok "the other controller's serial is another drive's consent"; show gate_other; }
grep -q "pass --destroy-data=DBNVME0B:ns1 " $R/gate_ext4.err \
	&& ok "the consent hint names the controller serial and namespace" || not_ok "the consent hint names the controller serial and namespace"
for t in sibling bare; do
	grep -q "does not match the ID of /dev/nvme[0-9]*n1 (DBNVME0B:ns1)" $R/gate_$t.err && [ "$(rc gate_$t)" = 3 ] \
		&& ok "consent for $t (another namespace or the bare serial) is refused" \
		|| { not_ok "consent for $t is refused"; show gate_$t; }
done
[ "$(rc gate_consent)" = 0 ] && ok "consent by the controller's serial plus namespace id writes" \
	|| { not_ok "consent by serial plus namespace id writes"; show gate_consent; }

# item 4: Format NVM as the suite's purge
[ "$(rc format_refused)" = 3 ] && grep -q "refusing to purge" $R/format_refused.err \
	&& ok "nvme_format purge without consent is refused" || { not_ok "nvme_format purge without consent is refused"; show format_refused; }
[ "$(rc format_before)" != 0 ] && [ "$(rc format_b1)" = 0 ] && [ "$(rc format_after)" = 0 ] \
	&& ok "nvme_format purge with consent: the namespace reads back as zeros" \
	|| { not_ok "nvme_format purge reads back as zeros (before $(rc format_before), suite $(rc format_b1), after $(rc format_after))"; show format_b1; }
pycheck "after the format the namespace carries no ext4 and is written without consent" '
s = j("format_info")["safety"]
assert s["write_allowed"] and not s["reasons"], s
'

# ---- item 6: zoned namespace, zonemode=zbd (guest_zbd.sh) ---------------
# zones(NAME): blkzone's report as [(start, wp, cond)] in bytes, wp absolute
ZP='
import re
def zones(name):
    out = []
    for l in open(f"{R}/zbd_rep_{name}.txt"):
        m = re.search(r"start: (0x[0-9a-f]+), len (0x[0-9a-f]+).*wptr (0x[0-9a-f]+).*zcond: *(\d+)", l)
        if m:
            s, n, w, c = (int(x, 0) for x in m.groups())
            out.append((s * 512, s * 512 + w * 512, c))
    assert len(out) == 16, (name, len(out))
    return out
def written(name, lo, hi):
    return sum(w - s for s, w, c in zones(name)[lo:hi])
def wbytes(name):
    return j(name)["jobs"][0]["write"]["io_bytes"]
MiB = 1 << 20
'
pycheck "zbd: info shows the zones QEMU was told (16 zones of 4 MiB, no limits)" '
s = j("zbd_info")
assert s["zoned"] == "host-managed", s.get("zoned")
z = s["zones"]
assert z["count"] == 16 and z["size_bytes"] == 4 * 1024 * 1024, z
assert z["capacity_bytes"] == 4 * 1024 * 1024, z
assert z["max_open"] == 0 and z["max_active"] == 0, z
'
grep -q "^zone capacity: *4194304 bytes" $R/zbd_info_text.out \
	&& ok "zbd: the text info names the zone capacity" || { not_ok "zbd: the text info names the zone capacity"; show zbd_info_text; }
pycheck "zbd: the write gate judges the zoned namespace like any other (blank: writable, ID SERIAL:ns3)" '
s = j("zbd_info")["safety"]
assert s["write_allowed"] and not s["reasons"] and s["device_id"] == "DBNVME0B:ns3", s
'
[ "$(rc zbd_plain)" = 2 ] && grep -q "is a zoned block device (host-managed, 16 zones of 4194304 bytes).*use zonemode=zbd" $R/zbd_plain.err \
	&& ok "zbd: a write job without zonemode=zbd is refused, naming it" || { not_ok "zbd: a write job without zonemode=zbd is refused"; show zbd_plain; }
[ "$(rc zbd_qd4)" = 2 ] && grep -q "zonemode=zbd with iodepth=4 needs the mq-deadline scheduler on Linux before 6.10" $R/zbd_qd4.err \
	&& ok "zbd: iodepth=4 on a 6.1 kernel with scheduler none is refused (a zone's writes could be reordered)" \
	|| { not_ok "zbd: iodepth=4 with scheduler none on 6.1 is refused"; show zbd_qd4; }
pycheck "zbd: the sequential job wrote at the write pointers (zone 0 full, zone 1 at 2 MiB)" "$ZP"'
assert written("0", 0, 16) == 0, zones("0")
assert wbytes("zbd_seq") == 6 * MiB, wbytes("zbd_seq")
z = zones("seq")
assert z[0][1] - z[0][0] == 4 * MiB and z[0][2] == 14, z[0]
assert z[1][1] - z[1][0] == 2 * MiB and z[1][2] == 2, z[1]
assert written("seq", 2, 16) == 0, z
'
[ "$(rc zbd_full)" = 1 ] && grep -q "zone 1 at offset 4194304 is full and the sequential write would cross it" $R/zbd_full.err \
	&& ok "zbd: a write past a full zone without reset is an error" || { not_ok "zbd: a write past a full zone without reset is an error"; show zbd_full; }
pycheck "zbd: the refused crossing wrote zone 1 up to its end and nothing after" "$ZP"'
z = zones("full")
assert z[1][1] - z[1][0] == 4 * MiB and z[1][2] == 14, z[1]
assert written("full", 2, 16) == 0, z
'
pycheck "zbd: random writes with max_open_zones=2 kept 2 zones open, wrote 3 MiB at their pointers" "$ZP"'
assert wbytes("zbd_rand") == 3 * MiB, wbytes("zbd_rand")
z = zones("rand")[4:8]
assert written("rand", 4, 8) == 3 * MiB, z
assert sum(1 for s, w, c in z if c in (2, 3)) == 2, z
assert sum(1 for s, w, c in zones("rand") if c in (2, 3)) == 2, zones("rand")
'
pycheck "zbd: drivebench wrote 4 MiB after fio at the pointer fio left (zones 8-9)" "$ZP"'
import os
have_fio = os.path.exists(f"{R}/zbd_fio.out")
if have_fio:
    assert written("fio", 8, 12) == 4 * MiB, zones("fio")
assert written("db", 8, 12) == (8 if have_fio else 4) * MiB, zones("db")
assert wbytes("zbd_db") == 4 * MiB
if have_fio:
    f = j("zbd_fio")["jobs"][0]["write"]["bw_bytes"]
    d = j("zbd_db")["jobs"][0]["write"]["bw_bytes"]
    print("# zbd psync 64k sequential write: fio %.1f MB/s, drivebench %.1f MB/s (ratio %.2f)" % (f / 1e6, d / 1e6, d / f), file=sys.stderr)
'
cat $TMP/py.err 2>/dev/null | grep '^# zbd' || true
[ -e $R/zbd_fio.out ] && { [ "$(rc zbd_fio)" = 0 ] && ok "zbd: fio zonemode=zbd ran on the same namespace" || { not_ok "zbd: fio zonemode=zbd ran"; show zbd_fio; }; }
pycheck "zbd: without zone_reset_frequency full zones are passed over (exactly 1 MiB more), with it zones are reset" "$ZP"'
assert written("fill", 12, 16) == 8 * MiB, zones("fill")
assert written("noreset", 12, 16) == 9 * MiB, zones("noreset")
assert wbytes("zbd_reset") == 1 * MiB, wbytes("zbd_reset")
assert written("reset", 12, 16) < 10 * MiB, zones("reset")
'
# ---- end of item 6 --------------------------------------------------------
