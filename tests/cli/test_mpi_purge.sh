#!/bin/bash
# test_mpi_purge.sh - a suite's purge methods under MPI ranks
# (docs/suite-run.md, "Purge methods"): Format NVM or a sanitize is refused
# before any rank writes (each rank's target is its own drive); `purge =
# strongest` is every rank's discard (a file's hole punch).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpi_lib.sh"
mpi() { # N ARGS...: $OUT, $ERR, $RC
	n=$1; shift
	OUT=$(ASAN_OPTIONS="$MPI_ASAN_OPTIONS" timeout 60 mpirun --oversubscribe --bind-to none \
		-x ASAN_OPTIONS -np "$n" "$MPI_DB" "$@" 2>"$TMP/stderr")
	RC=$?
	ERR=$(cat "$TMP/stderr")
}

for r in 0 1; do head -c 262144 /dev/urandom >"$TMP/p.$r"; done
sums=$(cksum "$TMP/p.0" "$TMP/p.1")
for m in format sanitize strongest; do
	printf '[wipe]\nstep = purge\npurge = %s\n' $m >"$TMP/$m.suite"
done
for m in format sanitize; do
	mpi 2 suite --suite "$TMP/$m.suite" --db "$TMP/m.db" --destroy-data "$TMP/p.0" \
		--destroy-data "$TMP/p.1" "$TMP/p.%r"
	check "purge = $m under ranks is refused (exit $RC)" [ "$RC" -eq 2 ]
	expect_output "purge = $m under MPI ranks is not supported" "purge = $m: the refusal says why"
done
check "the refused purges left every rank's target" [ "$(cksum "$TMP/p.0" "$TMP/p.1")" = "$sums" ]
mpi 2 suite --suite "$TMP/strongest.suite" --db "$TMP/m.db" --destroy-data "$TMP/p.0" \
	--destroy-data "$TMP/p.1" "$TMP/p.%r"
check "purge = strongest under ranks runs (exit $RC)" [ "$RC" -eq 0 ]
check "it is every rank's discard: both files read back as zeros" sh -c \
	"cmp -s -n 262144 '$TMP/p.0' /dev/zero && cmp -s -n 262144 '$TMP/p.1' /dev/zero"
