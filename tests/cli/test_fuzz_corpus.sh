#!/bin/bash
# test_fuzz_corpus.sh - replays every fuzz corpus input (tests/fuzz/corpus/
# NAME, the seeds plus each input that once crashed or hung a parser)
# through the same harness libFuzzer runs, built with the normal compiler
# (BUILD/fuzz/replay_NAME; under `make asan` with the sanitizers). Each
# target must take every input without crashing, and quickly.
. "$(dirname "$0")/lib.sh"

BUILD_DIR=$(dirname "$DB")
CORPUS=$(cd "$(dirname "$0")/../fuzz/corpus" && pwd)

for target in jobfile suite options fio_import; do
	replay="$BUILD_DIR/fuzz/replay_$target"
	if [ ! -x "$replay" ]; then
		not_ok "$target: no $replay (make builds it)"
		continue
	fi
	files=$(find "$CORPUS/$target" -type f ! -name '.*' | wc -l)
	if [ "$files" -eq 0 ]; then
		not_ok "$target: empty corpus $CORPUS/$target"
		continue
	fi
	out=$(cd "$TMP" && timeout 60 "$replay" "$CORPUS/$target" 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ] && [ "$out" = "replayed $files inputs" ]; then
		ok "$target: $files corpus inputs replay cleanly"
	else
		not_ok "$target: replay exit $rc"
		printf '%s\n' "$out" | tail -n 20
	fi
done

# The replay itself: a missing input is an error, not a silent pass.
replay="$BUILD_DIR/fuzz/replay_options"
if [ -x "$replay" ]; then
	"$replay" "$TMP/no-such-input" >/dev/null 2>&1
	check "replay fails on a missing input" [ $? -eq 1 ]
fi
