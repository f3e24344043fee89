#!/bin/sh
# layers.sh - checks that every #include between src/ folders points down
# the layer order of the README's architecture (and ../shared/DESIGN.md):
#
#   util < ranks < job < measure < verify < vssd < io < device < run
#        < {store, output} < record < {workload, suite} < report < cmd
#
# report/ is itself layered by what it makes:
#
#   report/analysis < {report/svg, report/compare} < {report/review, report/pts}
#
# the shared analysis at the bottom; compare uses the analysis only; the
# review page and the PTS pages draw with svg/ and never include each
# other (nor compare).
#
# A file may include its own folder and any folder of a lower layer; store
# and output sit side by side (neither includes the other), and so do the
# producers workload/ and suite/ (suite runs workload's producers: suite may
# include workload, not the other way). Prints every include that points
# against the order and exits 1 when there is one; `-v` lists every
# cross-folder include. Usage: sh scripts/layers.sh [-v] [SRC_DIR]
set -u
verbose=0
[ "${1:-}" = "-v" ] && { verbose=1; shift; }
src=${1:-src}

rank() {
	case "$1" in
	util) echo 0 ;; ranks) echo 1 ;; job) echo 2 ;; measure) echo 3 ;; verify) echo 4 ;;
	vssd) echo 5 ;; io) echo 6 ;; device) echo 7 ;; run) echo 8 ;;
	store|output) echo 9 ;; record) echo 10 ;;
	workload) echo 11 ;; suite) echo 12 ;;
	report/analysis) echo 13 ;; report/svg|report/compare) echo 14 ;;
	report/review|report/pts) echo 15 ;;
	cmd) echo 16 ;;
	*) echo "" ;;
	esac
}

# the layer unit of a path below src/: its folder, and for report/ the
# sub-folder ("report/pts")
unit_of() {
	case "$1" in
	report/*/*) printf 'report/%s' "$(printf '%s' "${1#report/}" | cut -d/ -f1)" ;;
	*) printf '%s' "${1%%/*}" ;;
	esac
}

out=$(mktemp)
trap 'rm -f "$out"' EXIT
for file in $(find "$src" -name '*.[ch]' | sort); do
	rel=${file#"$src"/}
	case "$rel" in */*) from=$(unit_of "$rel") ;; *) continue ;; esac   # main.c: the top
	from_rank=$(rank "$from")
	if [ -z "$from_rank" ]; then
		echo "layers: $rel: folder '$from' has no layer (add it to scripts/layers.sh and the README)" >>"$out"
		continue
	fi
	grep -n '^#include "' "$file" | while IFS= read -r line; do
		num=${line%%:*}
		inc=$(printf '%s' "$line" | sed 's/.*#include "\([^"]*\)".*/\1/')
		to=$(unit_of "$inc")
		[ "$to" = "$from" ] && continue
		to_rank=$(rank "$to")
		if [ -z "$to_rank" ]; then
			echo "layers: $rel:$num: includes '$inc' from unknown folder '$to'" >>"$out"
		elif [ "$to" = report/compare ] && [ "$from_rank" = 15 ]; then
			echo "layers: $rel:$num: $from includes $inc: the review and PTS pages use the analysis and svg/, never compare" >>"$out"
		elif [ "$to_rank" -ge "$from_rank" ]; then
			echo "layers: $rel:$num: $from (layer $from_rank) includes $inc ($to, layer $to_rank): against the order" >>"$out"
		elif [ "$verbose" = 1 ]; then
			echo "$rel:$num: $from -> $inc"
		fi
	done
done
if [ -s "$out" ]; then
	cat "$out"
	echo "layers: $(wc -l <"$out") include(s) against the layer order"
	exit 1
fi
echo "layers: every include points down the layer order"
