#!/bin/bash
# test_report_readable.sh - the report as a reader sees it, in headless
# Chromium at 1400 px (tests/cli/readable.js measures the page): on the
# five-drive fixture (tests/data/review-fixture.db) and on a demo's
# database (tests/data/demo-report.db: `make demo` on the D5-P5336 model,
# quick and checkpoint-fill suites; refreshed by copying build/demo.db,
# its runs' target written vssd:/checkout/specs/..., then VACUUM; the test
# points them at this checkout's specs/): no SVG text under 10 px, no two text
# boxes of a chart overlapping, one colour per drive across every chart (by
# the data-drive on each mark), legends listing only drives with a mark, a
# legend click hiding that drive's lines and bars everywhere and a second
# showing them, the default heatmap pairs with data, the page's script
# redrawing each heatmap's pair as the page drew it (hover ratios past 2x
# included), and the demo's page at most 12,700 px tall.
. "$(dirname "$0")/lib.sh"
DATA=$(cd "$(dirname "$0")/../data" && pwd)
JS="$(cd "$(dirname "$0")" && pwd)/readable.js"

if ! command -v chromium >/dev/null 2>&1; then
	not_ok "chromium is not installed (Debian package chromium; sh scripts/deps.sh)"
	exit 1
fi
measure() { # PAGE -> the checker's "name=value" lines
	python3 - "$1" "$JS" "$1.check.html" <<'PY'
import sys
page, js, dst = sys.argv[1:]
open(dst, "w").write(open(page).read().replace("</body>", "<script>" + open(js).read() + "</script></body>"))
PY
	timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --window-size=1400,3000 \
		--user-data-dir="$(mktemp -d "$TMP/chrome.XXXXXX")" --dump-dom "file://$1.check.html" \
		2>/dev/null | grep -o 'data-readable="[^"]*"' | sed 's/^data-readable="//; s/"$//' |
		python3 -c 'import sys, urllib.parse; print("\n".join(urllib.parse.unquote(sys.stdin.read().strip()).split(";")))'
}
get() { grep "^$1=" "$2" | head -1 | cut -d= -f2-; }

SPECS=$(cd "$(dirname "$0")/../../specs" && pwd)

for db in review-fixture demo-report; do
	cp "$DATA/$db.db" "$TMP/$db.db"
	if [ "$db" = demo-report ]; then
		# the demo's runs name their model file by the absolute path of the
		# checkout that ran them: point them at this checkout's, so that the
		# page has the model's sheet as `make demo`'s page has
		python3 - "$TMP/$db.db" "$SPECS" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("update runs set target = 'vssd:' || ? || substr(target, instr(target, '/specs/') + 6) "
          "where target like 'vssd:%/specs/%'", (sys.argv[2],))
c.commit()
PY
	fi
	expect_exit 0 "report of $db" report --db "$TMP/$db.db" --out "$TMP/$db.html"
	[ "$db" = demo-report ] && check "demo: the model's sheet read, as make demo's page has it" \
		bash -c '! grep -q "no spec sheet" "$0"' "$TMP/stderr"
	measure "$TMP/$db.html" > "$TMP/$db.m"
	check "$db: the checker ran ($(get texts "$TMP/$db.m") texts)" \
		test "$(get texts "$TMP/$db.m")" -gt 100
	check "$db: no SVG text under 10 px at 1400 px ($(get small "$TMP/$db.m"))" \
		test "$(get small "$TMP/$db.m")" = 0
	check "$db: no two SVG text boxes overlap ($(get overlaps "$TMP/$db.m"))" \
		test "$(get overlaps "$TMP/$db.m")" = 0
	check "$db: one colour per drive over $(get marks "$TMP/$db.m") marks, every drive mark named" \
		test "$(get clash "$TMP/$db.m")" = 0
	check "$db: legends list only drives with a mark ($(get ghost "$TMP/$db.m"))" \
		test "$(get ghost "$TMP/$db.m")" = 0
	click=$(get click "$TMP/$db.m")
	check "$db: a legend click hides the drive's lines and bars, a second shows them ($click)" \
		python3 -c 'import sys; h, a, b, back = map(int, sys.argv[1].split("/")); assert h == a == back > 0 and b > 0' "$click"
	check "$db: every default heatmap pair has data ($(get emptyheat "$TMP/$db.m") of $(get heatmaps "$TMP/$db.m") empty)" \
		test "$(get emptyheat "$TMP/$db.m")" = 0
	bad=$(get bad "$TMP/$db.m")
	[ -z "$bad" ] || echo "# $db: $bad"
done
check "fixture: five drives' colours ($(get drives "$TMP/review-fixture.m"))" \
	test "$(get drives "$TMP/review-fixture.m")" -ge 5
check "fixture: its heatmaps drawn ($(get heatmaps "$TMP/review-fixture.m"))" \
	test "$(get heatmaps "$TMP/review-fixture.m")" -ge 2
check "fixture: the script redraws each heatmap's pair as the page drew it ($(get redrawn "$TMP/review-fixture.m"))" \
	test "$(get redrawn "$TMP/review-fixture.m")" = "$(get heatmaps "$TMP/review-fixture.m")/$(get heatmaps "$TMP/review-fixture.m")"
check "fixture: a hover past twice the other drive's figure is a ratio, in the page and redrawn ($(get heatratio "$TMP/review-fixture.m") grids)" \
	test "$(get heatratio "$TMP/review-fixture.m")" -ge 1
height=$(get height "$TMP/demo-report.m")
check "demo: the page is at most 12,700 px tall at 1400 px ($height)" test "$height" -le 12700
exit 0
