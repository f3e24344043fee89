#!/bin/bash
# The report names what each drive was measured on (issue 27.5): a loop
# device, a file and a model, each with its size or scale, in the Drives
# table and the "ran" lines, and the note above the summary when drives ran
# on different kinds of target.
. "$(dirname "$0")/lib.sh"
MODEL=$(cd "$(dirname "$0")/../.." && pwd)/specs/solidigm-d5-p5430-30t.ini
db="$TMP/prov.db"

dd if=/dev/zero of="$TMP/loop.img" bs=1M count=64 status=none
loopdev=$(losetup -f --show "$TMP/loop.img") || { not_ok "losetup (loop devices are part of the test machine)"; exit 1; }
trap 'losetup -d "$loopdev" 2>/dev/null; rm -rf "$TMP"' EXIT
expect_exit 0 "a run on a loop device" run --name=j --filename="$loopdev" --rw=randread \
	--bs=4k --size=8m --runtime=1 --db "$db" --label loopdrive
truncate -s 32m "$TMP/plain.dat"
expect_exit 0 "a run on a file" run --name=j --filename="$TMP/plain.dat" --rw=randread \
	--bs=4k --size=8m --runtime=1 --db "$db" --label filedrive
expect_exit 0 "a run on a model" run --name=j --ioengine=vssd --vssd_model="$MODEL" \
	--vssd_scale=2g --rw=randread --bs=4k --size=8m --runtime=1 --db "$db" --label modeldrive
expect_exit 0 "report" report --db "$db" --out "$TMP/r.html"
html=$(cat "$TMP/r.html")
row() { printf '%s\n' "$html" | grep -o "<tr><td class=\"l\">$1.*</tr>" | head -1; }
if row loopdrive | grep -q -F "$loopdev (loop device over $TMP/loop.img, 64.00 MiB)"; then
	ok "the loop device's row names the device, its backing file and size"
else not_ok "loop device row: $(row loopdrive | head -c 600)"; fi
if row loopdrive | grep -q -F "run on $loopdev (loop device over"; then
	ok "its ran line names the device"
else not_ok "loop ran line: $(row loopdrive | head -c 600)"; fi
if row filedrive | grep -q -F "$TMP/plain.dat (file, 32.00 MiB)"; then
	ok "the file's row names the file and its size"
else not_ok "file row: $(row filedrive | head -c 600)"; fi
if row modeldrive | grep -q -E 'solidigm-d5-p5430-30t.ini.*model, scale'; then
	ok "the model's row names the model file and scale"
else not_ok "model row: $(row modeldrive | head -c 600)"; fi
note=$(printf '%s\n' "$html" | grep -o 'note provenance">.*' | head -1 | awk -F'</p>' '{print $1}')
if printf '%s' "$note" | grep -q 'kind of target' && printf '%s' "$note" | grep -q 'modeldrive' \
	&& printf '%s' "$note" | grep -q "loopdrive</b>: run on $loopdev"; then
	ok "the summary says the drives ran on different kinds of target, each named"
else not_ok "provenance note: $note"; fi

# two devices of the same kind: no note (the sizes belong to the drives)
db2="$TMP/same.db"
for l in a b; do
	run_db run --name=j --filename="$loopdev" --rw=randread --bs=4k --size=8m --runtime=1 \
		--db "$db2" --label "dev$l"
done
expect_exit 0 "report of two drives on devices" report --db "$db2" --out "$TMP/s.html"
if grep -q 'note provenance' "$TMP/s.html"; then
	not_ok "a note for drives that ran the same way"
else ok "no provenance note for drives that ran the same way on devices"; fi
