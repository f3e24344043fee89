#!/bin/bash
# The report's "drive's own count" (issue 30.2): for a result on an NVMe
# namespace, the job's I/Os and bytes beside the health log's commands and
# data units over it (the QEMU test checks the real controller's deltas;
# here a stored result is given an NVMe snapshot, as a controller would
# leave it); no such section for a file or a model.
. "$(dirname "$0")/lib.sh"
db="$TMP/c.db"
expect_exit 0 "a 4K write job of 2048 I/Os" run --name=w --filename="$TMP/f.dat" --rw=write \
	--bs=4k --size=8m --db "$db" --label nvme-drive
expect_exit 0 "report of a file target" report --db "$db" --out "$TMP/plain.html"
if grep -q "drive's own count" "$TMP/plain.html"; then not_ok "a counters section for a file"
else ok "no counters section for a file target"; fi
sqlite3 "$db" "UPDATE results SET drive_before = '{\"kind\":\"nvme\"}',
	drive_delta = '{\"host_write_commands\":\"2048\",\"host_read_commands\":\"3\",
	\"host_bytes_written\":\"8704000\",\"host_bytes_read\":\"1536000\"}'"
expect_exit 0 "report of a result on an NVMe namespace" report --db "$db" --out "$TMP/n.html"
row=$(grep -o '<tr><td class="l">w</td><td>.*</tr>' "$TMP/n.html" | grep -o '<td>[0-9.-]*</td>' | tr -d '<>/td' | tr '\n' ' ')
if grep -q "The drive's own count" "$TMP/n.html" && [ "$row" = "0 3 0.00 1.54 2048 2048 8.39 8.70 " ]; then
	ok "the row: reads 0 counted, 3 commands; writes 2048 counted and 2048 commands, 8.39 MB and the drive's 8.70 MB"
else not_ok "counters row: '$row'"; fi
grep -q 'href="#counters"' "$TMP/n.html" && ok "the contents link the section" || not_ok "no contents entry"
