#!/bin/sh
# ftl-bench.sh - builds bench/ftl_bench.c against build/libdrivebench.a and
# runs it: modelled random 4K writes/s of the vssd FTL at steady state.
# Usage: sh bench/ftl-bench.sh [logical_GiB [op [timed_writes]]]
# (run `make` first; BUILD picks another build folder).
set -eu
build=${BUILD:-build}
cc=${CC:-cc}
[ -f "$build/libdrivebench.a" ] || { echo "ftl-bench: no $build/libdrivebench.a (run make)" >&2; exit 1; }
$cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Isrc -o "$build/ftl_bench" \
	bench/ftl_bench.c "$build/libdrivebench.a"
exec "$build/ftl_bench" "$@"
