#!/bin/bash
# test_report.sh - `drivebench report` and `compare` end to end: a database
# with two imported drives (fio 3.x JSON from Debian's fio, reshaped into two
# distinct sweeps) and one measured run; the report's content, exit codes
# for unknown runs, labels and bad spec sheets; a short run on a modelled
# drive (vssd:FILE): marked as a model with its scale, its sheet from the
# model file (a warning once the file is gone), its write amplification row;
# then the page in headless Chromium: it loads, its charts have drawn
# elements, and a screenshot.
. "$(dirname "$0")/lib.sh"
SPECS=$(cd "$(dirname "$0")/../../specs" && pwd)
DBFILE="$TMP/report.db"

if ! command -v fio >/dev/null 2>&1; then
	not_ok "fio is needed to make the imported drives (Debian package fio; sh scripts/deps.sh)"
	exit 1
fi

# a 4K random-read sweep over QD {1,4,32} x jobs {1,4}, then a 128K write
{
	printf '[global]\nioengine=null\nsize=16m\ngroup_reporting=1\nstonewall\n'
	for j in 1 4; do
		for q in 1 4 32; do
			printf '[rr-%s-%s]\nrw=randread\nbs=4k\niodepth=%s\nnumjobs=%s\n' $q $j $q $j
		done
	done
	printf '[sw-16-1]\nrw=write\nbs=128k\niodepth=16\nnumjobs=1\n'
} > "$TMP/sweep.fio"
fio "$TMP/sweep.fio" --output-format=json > "$TMP/fio.json" 2>"$TMP/fio.err"
check "fio wrote JSON" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$TMP/fio.json"

# Two drives of different shape: IOPS grow with outstanding I/O up to a cap
# (Little's law for the mean latency), percentiles a multiple of the mean.
reshape() { # in out per_io_iops cap write_mbs
	python3 - "$@" <<'PY'
import json, sys
src, dst, per_io, cap, write_mbs = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
d = json.load(open(src))
for j in d["jobs"]:
    o = int(j["job options"]["iodepth"]) * int(j["job options"].get("numjobs", "1"))
    bs = 4096 if j["job options"]["bs"] == "4k" else 131072
    dirname = "read" if j["job options"]["rw"] == "randread" else "write"
    x = j[dirname]
    iops = min(o * per_io, cap) if dirname == "read" else write_mbs * 1e6 / bs
    mean = o / iops * 1e9
    x["iops"] = iops
    x["bw_bytes"] = int(iops * bs)
    x["bw"] = int(iops * bs / 1024)
    for key in ("clat_ns", "lat_ns"):
        x[key]["mean"] = mean
    pct = x["clat_ns"].get("percentile", {})
    for k in list(pct):
        p = float(k)
        pct[k] = int(mean * (1 + p / 40 if p < 99 else 2 if p < 99.9 else 3 if p < 99.99 else 5))
json.dump(d, open(dst, "w"))
PY
}
reshape "$TMP/fio.json" "$TMP/a.json" 60000 900000 3100
reshape "$TMP/fio.json" "$TMP/b.json" 45000 1400000 2900
expect_exit 0 "import drive A" import --db "$DBFILE" --label P5430 \
	--spec "$SPECS/solidigm-d5-p5430-30t.ini" "$TMP/a.json"
expect_exit 0 "import drive B" import --db "$DBFILE" --label J5060 \
	--spec "$SPECS/dapustor-j5060-61t.ini" "$TMP/b.json"
sed -e 's/ioengine=null/ioengine=io_uring\nfilename=measured.dat/' "$TMP/sweep.fio" \
	> "$TMP/measured.fio"
(cd "$TMP" && "$DB" run --db "$DBFILE" --label measured measured.fio > run.out 2>&1)
check "measured run stored" grep -q "results stored in" "$TMP/run.out"

# the report
expect_exit 0 "report of all runs" report --db "$DBFILE" --out "$TMP/r.html"
expect_output "^$TMP/r.html$" "report prints its path"
H="$TMP/r.html"
check "self-contained: one inline script (the rest inert JSON), nothing loaded" bash -c "test \$(grep -o '<script>' '$H' | wc -l) -eq 1 && test \$(grep -o '<script' '$H' | wc -l) -eq \$((1 + \$(grep -o '<script type=\"application/json\"' '$H' | wc -l))) && ! grep -qiE '<script src|<link|src=\"http|url\\(' '$H'"
check "three drives in the table" bash -c "grep -q '>P5430<' '$H' && grep -q '>J5060<' '$H' && grep -q '>measured<' '$H'"
check "spec sheets shown" grep -q "Solidigm D5-P5430 30.72TB" "$H"
OS_NAME=$(sed -n 's/^PRETTY_NAME="\(.*\)"$/\1/p' /etc/os-release)
check "the measured run's host: its name and OS ($OS_NAME) in the Host table" \
	grep -q "<td class=\"l\">$(hostname)</td><td class=\"l\">[^<]*</td><td class=\"l\">[^<]*</td><td>[0-9]*</td><td>[0-9]*</td><td class=\"l\">$OS_NAME</td>" "$H"
check "sweep charts" grep -q "4K random read: mean latency" "$H"
check "bar charts for the single point" grep -q "128K sequential write at 16/1: bandwidth" "$H"
check "peak sentence (first point at the peak)" grep -q "Peak 900K IOPS at 32/1\." "$H"
check "1/1 latency sentence" grep -q "At 1/1: 60K IOPS, mean latency 16.7 µs" "$H"
check "flattening sentence" grep -q "Throughput flattens at 32/1" "$H"
check "rating sentence" grep -q "Below its 934.5K IOPS rating at every point (best 96% of it)" "$H"
check "write against rated" grep -q "3,100.0 MB/s, above its 3,000 MB/s rating" "$H"
check "percentile table" grep -q "<th>p99.99 &micro;s</th>" "$H"
check "heatmap of the first two drives" grep -q "P5430 vs J5060: random read MB/s difference" "$H"
check "heatmap cells: MB/s differences, the % in the hover" bash -c "grep -q '(+33.3%)</title>' '$H' && grep -qE '>[+-][0-9]+</text>' '$H'"
expect_exit 0 "--reviewed picks the drive the summary tells of" report --db "$DBFILE" \
	--reviewed J5060 --out "$TMP/rj.html"
check "the J5060 summary shown, P5430's hidden" bash -c "grep -q '<div class=\"by-review\" data-review=\"1\">' '$TMP/rj.html' && grep -q '<div class=\"by-review\" data-review=\"0\" hidden>' '$TMP/rj.html' && grep -q 'J5060 vs P5430: random read MB/s difference' '$TMP/rj.html'"
expect_exit 2 "--reviewed of a drive not shown" report --db "$DBFILE" --reviewed nosuch --out "$TMP/x.html"
expect_output "--reviewed: no selected drive is labelled 'nosuch'" "the unknown drive named"

# A drive whose latency spans more than 100x (1 ms at 1/1 to 128 ms at
# 32/4) gets a log-scale latency axis; built from imported data alone, so the
# check does not depend on how fast this machine ran the measured sweep.
reshape "$TMP/fio.json" "$TMP/wide.json" 1000 1000 100
expect_exit 0 "import a drive with a wide latency range" import --db "$TMP/wide.db" \
	--label wide "$TMP/wide.json"
expect_exit 0 "report of it" report --db "$TMP/wide.db" --out "$TMP/wide.html"
check "latency axis in log scale" grep -q "(log scale)" "$TMP/wide.html"

expect_exit 0 "report by label with a spec override" report --db "$DBFILE" --label J5060 \
	--spec "J5060=$SPECS/micron-6600-ion-245t.ini" --title "one drive" --out "$TMP/one.html"
check "override used" grep -q "Micron 6600 ION" "$TMP/one.html"
check "only that drive" bash -c "! grep -q '>P5430<' '$TMP/one.html'"
check "a narrow range keeps a linear axis" bash -c "! grep -q '(log scale)' '$TMP/one.html'"
expect_exit 0 "report by run id" report --db "$DBFILE" 1 --out "$TMP/run1.html"
check "run 1 is drive A" grep -q ">P5430<" "$TMP/run1.html"
expect_exit 2 "unknown label" report --db "$DBFILE" --label nosuch --out "$TMP/x.html"
expect_output "no run with label 'nosuch'" "unknown label named"
expect_exit 2 "unknown run" report --db "$DBFILE" 999 --out "$TMP/x.html"
expect_exit 2 "bad --spec form" report --db "$DBFILE" --spec P5430 --out "$TMP/x.html"
printf '[drive]\nmodel = x\n[rated]\nseq_read_mbs = fast\n' > "$TMP/bad.ini"
expect_exit 2 "bad spec sheet" report --db "$DBFILE" --spec "P5430=$TMP/bad.ini" --out "$TMP/x.html"
expect_output "bad.ini:4:seq_read_mbs" "spec error names file:line:key"
expect_exit 2 "missing database" report --db "$TMP/none.db" --out "$TMP/x.html"
check "no database created by report" test ! -e "$TMP/none.db"
expect_exit 2 "unknown option" report --db "$DBFILE" --bogus

# a modelled drive: a 64 MiB fill of vssd:FILE (well under a second), on a
# copy of the model so that the copy can go away
MODELS=$(cd "$(dirname "$0")/../../models" && pwd)
cp "$MODELS/generic-qlc.ini" "$TMP/qlc.ini"
expect_exit 0 "a short run on a modelled drive" run --db "$TMP/model.db" --label qlc \
	--name=fill "--filename=vssd\\:$TMP/qlc.ini" --ioengine=vssd --vssd_model="$TMP/qlc.ini" \
	--rw=write --bs=128k --iodepth=32 --size=64m
expect_exit 0 "report of it" report --db "$TMP/model.db" --out "$TMP/model.html"
M="$TMP/model.html"
check "the label carries the model mark" grep -q '>qlc<span class="model">model, scale 1/1000</span>' "$M"
check "measured on: the model with its scale" \
	grep -q 'generic QLC model (unfitted) &mdash; <b>model, scale 1/1000</b>' "$M"
check "sections name it as a model" grep -q 'qlc (model, scale 1/1000)' "$M"
check "sheet from the model file, said so" grep -q "qlc: spec sheet from the model file $TMP/qlc.ini" "$M"
check "the model file's capacity in the Drives table" grep -q '<td>61.4</td>' "$M"
check "a WAF row for the fill" grep -qE '<tr><td>1</td><td class="l">fill</td><td>0\.07</td><td>0\.07</td><td>[01]\.[0-9]{3}</td></tr>' "$M"
check "where the WAF figures come from" grep -q "the model's counters" "$M"
expect_exit 0 "a --spec sheet instead of the model's" report --db "$TMP/model.db" \
	--spec "qlc=$SPECS/solidigm-d5-p5336-122t.ini" --out "$TMP/model-spec.html"
check "the sheet's drive, still marked as a model" \
	grep -q 'Solidigm D5-P5336 122.88TB &mdash; model, scale 1/1000' "$TMP/model-spec.html"
check "no model file note with --spec" bash -c "! grep -q 'from the model file' '$TMP/model-spec.html'"
rm "$TMP/qlc.ini"
expect_exit 0 "report once the model file is gone" report --db "$TMP/model.db" --out "$M"
expect_output "warning: qlc: no spec sheet: the model file of run 1 can no longer be read" \
	"the missing model file is a warning"
check "one warning line on the page" test "$(grep -c 'can no longer be read' "$M")" -eq 1
check "still marked, without ratings" bash -c "grep -q 'qlc (model, scale 1/1000)' '$M' && grep -q 'no spec sheet</td>' '$M'"

# compare
expect_exit 0 "compare two labels" compare --db "$DBFILE" P5430 J5060
expect_output "^7 shared point\(s\) \(in both drives\)" "every shared point"
# (wider than 120 columns: a panel per figure, A then B with its % against A)
expect_output "^4K random read +1/1 +245\.8 +184\.3 +-25\.0%$" "MB/s and % difference against A"
expect_output "^4K random read +1/1 +60000 +45000 +-25\.0%$" "IOPS and % difference against A"
expect_output "^4K random read +1/1 +16\.7 +22\.2 +\+33\.3%$" "mean latency and % difference against A"
expect_exit 0 "compare run ids" compare --db "$DBFILE" 1 3
expect_exit 2 "compare unknown" compare --db "$DBFILE" P5430 nosuch
expect_exit 2 "compare needs two" compare --db "$DBFILE" P5430

# headless Chromium: loads, draws, screenshot
if ! command -v chromium >/dev/null 2>&1; then
	not_ok "chromium is not installed (Debian package chromium; sh scripts/deps.sh): cannot check the page in a browser"
	exit 1
fi
chrome() {
	timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run \
		--user-data-dir="$(mktemp -d "$TMP/chrome.XXXXXX")" "$@"
}
chrome --dump-dom "file://$H" > "$TMP/dom.html" 2> "$TMP/chrome.err"
check "chromium loaded the page" test -s "$TMP/dom.html"
count() { grep -o "$1" "$TMP/dom.html" | wc -l; }
check "drawn lines in the DOM ($(count '<path class="line"'))" test "$(count '<path class="line"')" -ge 6
check "drawn bars in the DOM ($(count '<rect class="bar"'))" test "$(count '<rect class="bar"')" -ge 6
check "heatmap cells in the DOM" test "$(count '<rect class="cell"')" -ge 7
check "axis text in the DOM ($(count "<text"))" test "$(count "<text")" -ge 60
check "no page errors" bash -c "! grep -qiE 'Uncaught|parse error|This page contains the following errors' '$TMP/dom.html' '$TMP/chrome.err'"
chrome --enable-logging=stderr --v=0 --dump-dom "file://$H" > /dev/null 2> "$TMP/console.err"
check "no console errors" bash -c "! grep -E 'CONSOLE' '$TMP/console.err' | grep -qiE 'error|uncaught'"
# every contents entry leads to a section that exists in the DOM
check "every contents link has its section" python3 -c '
import re, sys
dom = open(sys.argv[1]).read()
links = re.findall(r"href=\"#([^\"]+)\"", dom)
assert len(links) >= 5, links
missing = [l for l in links if ("id=\"%s\"" % l) not in dom]
assert not missing, missing
' "$TMP/dom.html"
check "hover: a point carries its values" grep -qE '<circle [^>]*><title>[^<]+: 1/1 → [0-9]' "$TMP/dom.html"
# a legend click (as the page's script handles it) hides that drive's
# line or bars in every chart, a second click shows them again
sed 's|</body>|<script>var g=document.querySelector("svg[data-drives]").querySelectorAll(".legend-item")[1];g.dispatchEvent(new MouseEvent("click",{bubbles:true}));var k=g.getAttribute("data-legend"),off=document.querySelectorAll("svg[data-drives] path.off,svg[data-drives] g.bar.off").length,all=Array.prototype.filter.call(document.querySelectorAll("svg[data-drives]"),function(s){return s.querySelector("path.line[data-series=\\""+k+"\\"],g.bar[data-series=\\""+k+"\\"]")}).length;g.dispatchEvent(new MouseEvent("click",{bubbles:true}));document.body.setAttribute("data-test",off+"/"+all+"/"+document.querySelectorAll(".off").length)</script></body>|' "$H" > "$TMP/click.html"
chrome --dump-dom "file://$TMP/click.html" > "$TMP/click.dom" 2>/dev/null
clicked=$(grep -o 'data-test="[0-9/]*"' "$TMP/click.dom" | tr -dc '0-9/')
check "a legend click hides the drive's lines and bars in every chart, a second shows them ($clicked)" \
	python3 -c 'import sys; off, charts, left = map(int, sys.argv[1].split("/")); assert off == charts > 0 and left == 0' "$clicked"
# the drive selector: shown by the script; a reviewed drive moves the summary
# and the emphasis; the heatmaps redrawn for the default pair are as the
# page drew them, for another pair they name it and change
cat > "$TMP/pick.js" <<'JS'
var D=document,out=[],P=window.drivebenchPick,f=D.querySelector('form.pick');
function cells(){return Array.prototype.map.call(D.querySelectorAll('g[data-heat] rect.cell,g[data-heat] text[data-k]'),function(e){return (e.getAttribute('fill')||'')+'|'+e.textContent}).join(';')}
out.push(f&&!f.hidden?'form':'noform');
var before=cells();P.heat(0,1);out.push(cells()==before?'same':'differs');
P.heat(1,2);out.push(cells()!=before&&D.querySelector('g[data-heat]').closest('svg').querySelector('.ctitle').textContent.indexOf('J5060 vs measured')==0?'redrawn':'stale');
P.review('1');var shown=D.querySelectorAll('[data-review="1"]:not([hidden])').length,hid=D.querySelectorAll('[data-review="0"][hidden]').length,all=D.querySelectorAll('[data-review="1"]').length;
out.push(shown==all&&hid==all&&all>0?'review':'noreview');
var heavy=D.querySelectorAll('svg[data-emph] path.line[stroke-width="3.5"]'),ok=heavy.length>0;
Array.prototype.forEach.call(heavy,function(p){ok=ok&&p.getAttribute('data-series')=='1'});out.push(ok?'emph':'noemph');
D.body.setAttribute('data-pick',out.join(','));
JS
python3 - "$H" "$TMP/pick.js" "$TMP/pick.html" <<'PY'
import sys
page, js, dst = sys.argv[1:]
open(dst, "w").write(open(page).read().replace("</body>", "<script>" + open(js).read() + "</script></body>"))
PY
chrome --dump-dom "file://$TMP/pick.html" > "$TMP/pick.dom" 2>/dev/null
picked=$(grep -o 'data-pick="[a-z,]*"' "$TMP/pick.dom")
check "drive selector: shown, heatmaps redrawn as drawn and for another pair, summary and emphasis moved ($picked)" \
	test "$picked" = 'data-pick="form,same,redrawn,review,emph"'
chrome --screenshot="$TMP/shot.png" --window-size=1400,3000 "file://$H" > /dev/null 2>&1
check "screenshot taken" test "$(stat -c %s "$TMP/shot.png" 2>/dev/null || echo 0)" -gt 20000
[ -n "${REPORT_SCREENSHOT:-}" ] && cp "$TMP/shot.png" "$REPORT_SCREENSHOT" && cp "$H" "${REPORT_SCREENSHOT%.png}.html"
exit 0
