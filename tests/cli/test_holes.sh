#!/bin/sh
# test_holes.sh - the holes an adversarial test found (issue 28, items 1-8):
# SQLite siblings that are another file, files a job reads that are not
# regular files, unbounded job files, an unwritable database, model scales
# spelled differently, duplicate JSON keys, capacity out of range, read-only
# commands on an older database.
. "$(dirname "$0")/lib.sh"

NULLJOB="--ioengine=null --rw=randread --bs=4k --size=64k --name=j"

# 1. a -wal, -shm or -journal that is another file's hard link, or a file
# that is not SQLite's, is never written
for sib in wal shm journal; do
	d="$TMP/sib-$sib"; mkdir -p "$d"
	printf 'my thesis, chapter one.\n' >"$d/thesis.txt"
	ln "$d/thesis.txt" "$d/xt.db-$sib"
	expect_exit 3 "a hard-linked -$sib beside the database is refused" \
		run --db "$d/xt.db" $NULLJOB
	expect_output "xt.db-$sib.*links" "the refusal names the -$sib and its links"
	if [ "$(cat "$d/thesis.txt")" = "my thesis, chapter one." ]; then
		ok "the file linked as -$sib is intact"; else not_ok "the file linked as -$sib was written"; fi
	rm "$d/xt.db-$sib"
	printf 'not a journal at all, just text that is long enough\n' >"$d/xt.db-$sib"
	expect_exit 3 "a -$sib that is not SQLite's is refused" run --db "$d/xt.db" $NULLJOB
	expect_output "not SQLite's" "the refusal says the -$sib is not SQLite's"
	rm "$d/xt.db-$sib"
done
expect_exit 0 "with the siblings gone the database is written" run --db "$TMP/sib-wal/xt.db" $NULLJOB
