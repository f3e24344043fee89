#!/bin/sh
# make screenshots: the images of docs/report.md, from the demo's report
# (build/demo-report.html, made by `make demo` when missing): the top of
# the page (title, summary, findings, contents) and one sweep section (4K
# random), each at 1400 px width, by headless Chromium. The sweep section
# is cut out of the page with the page's own style, so that the shot shows
# it whatever its place on the page.
# Usage: scripts/screenshots.sh BUILD_DIR
set -e
build=${1:-build}
report="$build/demo-report.html"
out=docs/images
command -v chromium >/dev/null 2>&1 || { echo "screenshots: chromium is needed (sh scripts/deps.sh)" >&2; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "screenshots: python3 is needed" >&2; exit 1; }
[ -s "$report" ] || sh scripts/demo.sh "$build"
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$report" "$tmp/sweep.html" <<'PY'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
head = page[:page.index("<body>") + len("<body>")]
start = page.index('<h2 id="rand4k">')
end = page.find('<h2 id="', start + 10)
open(sys.argv[2], "w", encoding="utf-8").write(head + page[start:end] + "</body></html>\n")
PY
shot() {
	timeout 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$tmp/profile" --window-size=1400,"$3" --screenshot="$2" "file://$1" \
		>/dev/null 2>&1
	[ -s "$2" ] || { echo "screenshots: chromium wrote no $2" >&2; exit 1; }
	echo "$2"
}
shot "$(cd "$(dirname "$report")" && pwd)/$(basename "$report")" "$out/report-top.png" 1300
shot "$tmp/sweep.html" "$out/report-sweep.png" 1200
