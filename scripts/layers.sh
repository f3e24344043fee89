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

# One awk pass over every file's includes (a loop in sh forked several
# processes per include: minutes on a loaded 2-core machine).
out=$(mktemp)
trap 'rm -f "$out"' EXIT
files=$(mktemp)
trap 'rm -f "$out" "$files"' EXIT
find "$src" -name '*.[ch]' | sort >"$files"
{
	sed "s|^$src/|F |" "$files"
	# every include of every file in one grep: "path:line:#include ..."
	tr '\n' '\0' <"$files" | xargs -0 grep -n -H '^#include "' /dev/null | sed "s|^$src/|I |"
} | awk -v verbose="$verbose" '
function rank(u) {
	if (u == "util") return 0; if (u == "ranks") return 1; if (u == "job") return 2
	if (u == "measure") return 3; if (u == "verify") return 4; if (u == "vssd") return 5
	if (u == "io") return 6; if (u == "device") return 7; if (u == "run") return 8
	if (u == "store" || u == "output") return 9; if (u == "record") return 10
	if (u == "workload") return 11; if (u == "suite") return 12
	if (u == "report/analysis") return 13
	if (u == "report/svg" || u == "report/compare") return 14
	if (u == "report/review" || u == "report/pts") return 15
	if (u == "cmd") return 16
	return ""
}
# the layer unit of a path below src/: its folder, and for report/ the
# sub-folder ("report/pts")
function unit_of(path,   parts, n) {
	n = split(path, parts, "/")
	if (parts[1] == "report" && n >= 3) return "report/" parts[2]
	return parts[1]
}
$1 == "F" {
	rel = $2
	if (rel !~ /\//) next   # main.c: the top
	if (rank(unit_of(rel)) == "")
		print "layers: " rel ": folder '\''" unit_of(rel) "'\'' has no layer (add it to scripts/layers.sh and the README)"
	next
}
$1 == "I" {
	line = substr($0, 3)
	split(line, f, ":"); rel = f[1]; num = f[2]
	if (rel !~ /\//) next
	from = unit_of(rel); from_rank = rank(from)
	if (from_rank == "") next
	inc = line; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
	to = unit_of(inc)
	if (to == from) next
	to_rank = rank(to)
	if (to_rank == "")
		print "layers: " rel ":" num ": includes '\''" inc "'\'' from unknown folder '\''" to "'\''"
	else if (to == "report/compare" && from_rank == 15)
		print "layers: " rel ":" num ": " from " includes " inc ": the review and PTS pages use the analysis and svg/, never compare"
	else if (to_rank + 0 >= from_rank + 0)
		print "layers: " rel ":" num ": " from " (layer " from_rank ") includes " inc " (" to ", layer " to_rank "): against the order"
	else if (verbose == 1)
		print rel ":" num ": " from " -> " inc > "/dev/stderr"
}' >"$out"
if [ -s "$out" ]; then
	cat "$out"
	echo "layers: $(wc -l <"$out") include(s) against the layer order"
	exit 1
fi
echo "layers: every include points down the layer order"
