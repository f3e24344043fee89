#!/bin/bash
# test_layers.sh - scripts/layers.sh on the tree and on trees made to break
# it: every #include between src/ folders points down the documented layer
# order (README "Architecture"), and an include against it, or a folder
# with no layer, fails the check by name.
. "$(dirname "$0")/lib.sh"

if out=$(sh scripts/layers.sh src 2>&1); then
	ok "every include in src/ points down the layer order"
else
	not_ok "includes against the layer order:"; echo "$out"
fi

# a copy of two layers with an upward include: the job model reaching io/
mkdir -p "$TMP/src/job" "$TMP/src/io" "$TMP/src/util"
printf '#include "util/error.h"\n' >"$TMP/src/io/engine.h"
printf '#include "io/engine.h"\n#include "util/error.h"\n' >"$TMP/src/job/options.c"
if out=$(sh scripts/layers.sh "$TMP/src" 2>&1); then
	not_ok "job/ including io/ passed the layer check"
else
	echo "$out" | grep -q 'job/options.c:1: job (layer 2) includes io/engine.h (io, layer 6): against the order' &&
		ok "an upward include fails, named by file, line and layers" ||
		{ not_ok "upward include: unexpected message"; echo "$out"; }
fi

# store and output sit side by side: neither includes the other
rm -rf "$TMP/src"; mkdir -p "$TMP/src/store" "$TMP/src/output"
printf '#include "output/output.h"\n' >"$TMP/src/store/store.c"
if sh scripts/layers.sh "$TMP/src" >/dev/null 2>&1; then
	not_ok "store/ including output/ passed"
else
	ok "store/ and output/ stay side by side"
fi

# the report room's products: a PTS page including the review page's header
rm -rf "$TMP/src"; mkdir -p "$TMP/src/report/pts" "$TMP/src/report/review" "$TMP/src/report/analysis"
printf '#include "report/analysis/report.h"\n' >"$TMP/src/report/review/html_parts.h"
printf '#include "report/analysis/report.h"\n#include "report/review/html_parts.h"\n' >"$TMP/src/report/pts/pts_html.c"
out=$(sh scripts/layers.sh "$TMP/src" 2>&1)
if [ $? -ne 0 ] && echo "$out" | grep -q 'report/pts/pts_html.c:2: report/pts (layer 15) includes report/review/html_parts.h (report/review, layer 15): against the order'; then
	ok "a PTS page including a review-page header fails, named by file and line"
else
	not_ok "PTS including review: $out"
fi
[ "$(echo "$out" | grep -c 'layers: report/')" = 1 ] && ok "... and only that include (the analysis is below both)" ||
	{ not_ok "more than the one include flagged"; echo "$out"; }

# compare uses the analysis only: not svg/, and no product includes compare
rm -rf "$TMP/src"; mkdir -p "$TMP/src/report/compare" "$TMP/src/report/svg" "$TMP/src/report/review"
printf '#include "report/svg/svg.h"\n' >"$TMP/src/report/compare/compare_print.c"
printf '#include "report/compare/compare_table.h"\n' >"$TMP/src/report/review/html.c"
out=$(sh scripts/layers.sh "$TMP/src" 2>&1)
if [ $? -ne 0 ] && echo "$out" | grep -q 'report/compare/compare_print.c:1: report/compare (layer 14) includes report/svg/svg.h' &&
	echo "$out" | grep -q 'report/review/html.c:1: report/review includes report/compare/compare_table.h: the review and PTS pages use the analysis and svg/, never compare'; then
	ok "compare drawing with svg/ and the review page using compare both fail"
else
	not_ok "compare rules: $out"
fi

# a new folder must be placed in the order before it is used
rm -rf "$TMP/src"; mkdir -p "$TMP/src/ftl"
printf '#include "util/error.h"\n' >"$TMP/src/ftl/nand.c"
out=$(sh scripts/layers.sh "$TMP/src" 2>&1)
if [ $? -ne 0 ] && echo "$out" | grep -q "folder 'ftl' has no layer"; then
	ok "a folder with no layer fails the check"
else
	not_ok "folder without a layer: $out"
fi
