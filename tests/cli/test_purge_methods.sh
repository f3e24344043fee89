#!/bin/sh
# test_purge_methods.sh - a purge step's `purge = ...` on targets that are
# no NVMe namespace (docs/suite-run.md, "Purge methods"): an unknown method
# refused with its line, the NVMe methods refused before any I/O naming
# what the target offers (a file: discard), `strongest` a file's hole punch
# stored and printed, behind the same consent as a write. The NVMe methods
# themselves run in tests/nvme (QEMU).
. "$(dirname "$0")/lib.sh"

target="$TMP/t.dat"
head -c 1048576 /dev/urandom >"$target"
sum=$(cksum <"$target")
suite() { # NAME METHOD
	printf '[wipe]\nstep = purge\npurge = %s\n[read]\nstep = measure\nrw = read\nbs = 4k\nsize = 64k\nioengine = psync\n' \
		"$2" >"$TMP/$1.suite"
}
for m in shred format sanitize-block sanitize-crypto sanitize strongest; do suite $m $m; done

expect_exit 2 "an unknown purge method is refused" suite --suite "$TMP/shred.suite" \
	--db "$TMP/a.db" --destroy-data "$target" "$target"
expect_output "shred.suite:3: .*key 'purge': 'shred' is not a purge method \(discard, format, sanitize-block, sanitize-crypto, sanitize, strongest\)" \
	"the unknown method is named with the file, line and the methods"
for m in format sanitize-block sanitize-crypto sanitize; do
	expect_exit 2 "purge = $m on a file is refused" suite --suite "$TMP/$m.suite" \
		--db "$TMP/a.db" --destroy-data "$target" "$target"
	expect_output "step 'wipe': purge = $m: '$target' is not an NVMe namespace; it offers: discard" \
		"purge = $m: the refusal names what the file offers"
done
check "the refused purges left the file as it was" [ "$(cksum <"$target")" = "$sum" ]
check "the refused purges stored no run" sh -c "! [ -e '$TMP/a.db' ] || python3 -c \"
import sqlite3; assert not sqlite3.connect('$TMP/a.db').execute('select count(*) from runs').fetchone()[0]\""
expect_exit 3 "purge = strongest needs the same consent as a write" \
	suite --suite "$TMP/strongest.suite" --db "$TMP/a.db" "$target"
expect_output "refusing" "the refusal says so"
check "the refused purge left the file as it was" [ "$(cksum <"$target")" = "$sum" ]
expect_exit 0 "purge = strongest on a file runs" suite --suite "$TMP/strongest.suite" \
	--db "$TMP/a.db" --destroy-data "$target" "$target"
expect_output "purge = strongest: punch-hole" "the method strongest became is printed"
check "the method strongest became is stored (a file's: its hole punch)" sql "$TMP/a.db" '
d = [r[0] for r in c.execute("select detail from steps where kind = \"purge\" and detail is not null")]
assert len(d) == 1 and "\"method\":\"punch-hole\"" in d[0], d
'
check "the file reads back as zeros, its size kept" sh -c \
	"[ \$(stat -c %s '$target') = 1048576 ] && cmp -s -n 1048576 '$target' /dev/zero"
