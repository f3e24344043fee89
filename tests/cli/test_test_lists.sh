#!/bin/bash
# The lists tests/run.sh reads name tests that exist: tests/alone.txt,
# tests/hardware-only.txt, tests/asan-leave-out.txt (a typo would leave a
# test beside others, a skip unlisted, or a test in make asan for nothing);
# every test make asan leaves out runs alone in make check, and a
# TEST_LEAVE_OUT file that cannot be read stops tests/run.sh.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
names() { grep -v '^#' "$1" | sed 's/ *|.*//' | grep -v '^$' | sort -u; }
exists() { # NAME: a test file or a unit test source of that name
	[ -e "$root/tests/cli/$1" ] || [ -e "$root/tests/nvme/$1" ] || [ -e "$root/tests/unit/$1.c" ]
}
for list in alone hardware-only asan-leave-out; do
	missing=$(names "$root/tests/$list.txt" | while read -r n; do exists "$n" || echo "$n"; done)
	if [ -z "$missing" ]; then ok "tests/$list.txt names only tests that exist"
	else not_ok "tests/$list.txt names missing tests: $missing"; fi
done
not_alone=$(comm -23 <(names "$root/tests/asan-leave-out.txt") <(names "$root/tests/alone.txt"))
if [ -z "$not_alone" ]; then ok "every test make asan leaves out runs alone in make check"
else not_ok "left out of make asan but not in alone.txt: $not_alone"; fi
if (cd "$root" && TEST_LEAVE_OUT="$TMP/none.txt" sh tests/run.sh build nothing-matches) >"$TMP/o" 2>&1; then
	not_ok "an unreadable TEST_LEAVE_OUT file ran the tests"
elif grep -q "TEST_LEAVE_OUT=$TMP/none.txt cannot be read" "$TMP/o"; then
	ok "an unreadable TEST_LEAVE_OUT file stops tests/run.sh, named"
else not_ok "unreadable TEST_LEAVE_OUT: $(cat "$TMP/o")"; fi
