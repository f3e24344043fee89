// readable.js - the report's readability checks, run in the page by
// tests/cli/test_report_readable.sh (headless Chromium at 1400 px): the
// results go to the body's data-readable as "name=value;..." for the shell.
(function () {
	var D = document, out = [], bad = [];
	function Q(s, r) { return Array.prototype.slice.call((r || D).querySelectorAll(s)); }
	function put(k, v) { out.push(k + '=' + v); }
	// 1. no SVG text rendered under 10 px (its font size times the scale
	// the SVG is drawn at)
	var small = [], texts = Q('svg text').filter(function (t) {
		return t.textContent.trim() && t.getClientRects().length; });
	texts.forEach(function (t) {
		var svg = t.ownerSVGElement, vb = svg.viewBox.baseVal;
		var scale = vb && vb.width ? svg.getBoundingClientRect().width / vb.width : 1;
		var px = parseFloat(getComputedStyle(t).fontSize) * scale;
		if (px < 9.95) small.push(t.textContent.slice(0, 30) + '@' + px.toFixed(1));
	});
	put('texts', texts.length);
	put('small', small.length);
	if (small.length) bad.push('small:' + small.slice(0, 5).join('|'));
	// 2. no two text boxes of one SVG overlap (by more than 1 px each way)
	var overlaps = [];
	Q('svg').forEach(function (svg) {
		var boxes = [];
		Q('text', svg).forEach(function (t) {
			if (!t.textContent.trim() || !t.getClientRects().length) return;
			var parts = t.querySelectorAll('tspan').length ? Q('tspan', t) : [t];
			parts.forEach(function (p) {
				var r = p.getBoundingClientRect();
				if (r.width > 0) boxes.push([r, p.textContent]);
			});
		});
		for (var i = 0; i < boxes.length; i++)
			for (var j = i + 1; j < boxes.length; j++) {
				var a = boxes[i][0], b = boxes[j][0];
				var w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
				var h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
				if (w > 1 && h > 1)
					overlaps.push(boxes[i][1].slice(0, 20) + '/' + boxes[j][1].slice(0, 20));
			}
	});
	put('overlaps', overlaps.length);
	if (overlaps.length) bad.push('overlap:' + overlaps.slice(0, 5).join('|'));
	// 3. one colour per drive on the whole page, every drive mark named
	var colour = {}, clash = [], marks = Q('svg [data-drive]');
	marks.forEach(function (m) {
		var k = m.getAttribute('data-drive');
		var el = m.matches('g') ? m.querySelector('rect,path,circle') : m;
		var c = el.getAttribute('fill') !== 'none' && el.getAttribute('fill') || el.getAttribute('stroke');
		if (colour[k] === undefined) colour[k] = c;
		else if (colour[k] !== c) clash.push(k + ':' + colour[k] + '/' + c);
	});
	var unnamed = Q('svg[data-drives] path.line:not([data-drive]),svg[data-drives] rect.bar')
		.filter(function (e) { return !e.closest('[data-drive]'); }).length;
	var seen = {};
	Object.keys(colour).forEach(function (k) { seen[colour[k]] = (seen[colour[k]] || 0) + 1; });
	var shared = Object.keys(seen).filter(function (c) { return seen[c] > 1; }).length;
	put('marks', marks.length);
	put('drives', Object.keys(colour).length);
	put('clash', clash.length + unnamed + shared);
	if (clash.length || unnamed || shared) bad.push('colour:' + clash.slice(0, 3).join('|') + ' unnamed ' + unnamed + ' shared ' + shared);
	// 4. a legend lists only drives with a mark in its chart
	var ghost = 0;
	Q('svg .legend-item').forEach(function (g) {
		var k = g.getAttribute('data-legend'), svg = g.ownerSVGElement;
		if (!svg.querySelector('[data-series="' + k + '"]:not(.legend-item)')) ghost++;
	});
	put('ghost', ghost);
	if (ghost) bad.push('ghost legend entries ' + ghost);
	// 5. a legend click hides that drive's lines and bars in every chart,
	// a second shows them again
	var item = Q('svg[data-drives] .legend-item').filter(function (g) {
		var k = g.getAttribute('data-legend');
		return D.querySelector('svg g.bar[data-drive="' + k + '"]');
	})[0];
	if (item) {
		var k = item.getAttribute('data-legend');
		var sel = 'svg path.line[data-drive="' + k + '"],svg g.bar[data-drive="' + k + '"]';
		var all = Q(sel).length, bars = Q('svg g.bar[data-drive="' + k + '"]').length;
		item.dispatchEvent(new MouseEvent('click', { bubbles: true }));
		var hidden = Q(sel).filter(function (e) { return !e.getClientRects().length ||
			getComputedStyle(e).display == 'none'; }).length;
		item.dispatchEvent(new MouseEvent('click', { bubbles: true }));
		var back = Q(sel).filter(function (e) { return getComputedStyle(e).display != 'none'; }).length;
		put('click', hidden + '/' + all + '/' + bars + '/' + back);
		if (!(hidden == all && bars > 0 && back == all)) bad.push('click ' + hidden + '/' + all);
	} else {
		put('click', 'none');
	}
	// 6. the default heatmap pair has data: each drawn grid has a coloured cell
	var empty = 0, grids = Q('svg g[data-heat]');
	grids.forEach(function (g) {
		if (!Q('rect.cell', g).some(function (r) { return r.getAttribute('fill') != '#f4f4f4'; }))
			empty++;
	});
	put('heatmaps', grids.length);
	put('emptyheat', empty);
	if (empty) bad.push('empty heatmaps ' + empty);
	put('height', Math.ceil(D.documentElement.scrollHeight));
	// 7. the page's script redraws each grid's own pair as the page drew it:
	// cell colours, labels and hover texts (a ratio past 2x: "(4.0x)")
	var P = window.drivebenchPick, same = 0, ratios = 0;
	function cells(g) {
		return Q('rect.cell', g).map(function (r) {
			return (r.getAttribute('fill') || '') + '|' + r.textContent; }).join(';');
	}
	// (a redraw redraws every grid: each grid's pair and cells are read first)
	var drawn = grids.map(function (g) {
		var h = JSON.parse(D.querySelector('script[data-heat-of="' + g.getAttribute('data-heat') +
						   '"]').textContent);
		var title = g.closest('svg').querySelector('.ctitle').textContent;
		var ab = title.slice(0, title.indexOf(': ' + h.what)).split(' vs ');
		return { a: h.drives.indexOf(ab[0]), b: h.drives.indexOf(ab[1]), cells: cells(g),
			 title: title };
	});
	if (P) grids.forEach(function (g, i) {
		P.heat(drawn[i].a, drawn[i].b);
		if (drawn[i].a >= 0 && drawn[i].b >= 0 && cells(g) == drawn[i].cells) same++;
		else bad.push('redrawn differs: ' + drawn[i].title.slice(0, 60));
		if (/\dx\)$/m.test(Q('rect.cell title', g).map(function (t) {
			return t.textContent; }).join('\n'))) ratios++;
	});
	put('redrawn', same + '/' + grids.length);
	put('heatratio', ratios);
	put('bad', bad.length ? encodeURIComponent(bad.join(' ; ')) : '');
	D.body.setAttribute('data-readable', out.join(';'));
})();
