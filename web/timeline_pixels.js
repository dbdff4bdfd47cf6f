// timeline_pixels: the Timeline's merged items (spans of short events,
// runs of instants) written as pixels and put on the canvas once a lane,
// instead of one fillRect each. A window of a big trace holds tens of
// thousands of them (one per depth and pixel column); a canvas call each,
// with the alpha set and reset around it, cost a frame 10-20 ms, writing
// their scanlines costs well under one.
//
// A lane's band: its instants row (irow CSS px) and its depth rows (ROW
// each). Each row has one scanline of device pixels; an item fills its
// columns [x0, x1) there; the scanline is then copied over the row's other
// lines (an item covers its row's height less one pixel above and below,
// as the fillRect did), and the band is put at its place with
// putImageData, which writes pixels as they are: the caller puts every
// band right after clearing the canvas, before anything else is drawn.
// Pixels are RGBA, not premultiplied: colour `rgb` at alpha a is what a
// fillRect of that colour at globalAlpha a gives on a cleared canvas.

// [r, g, b] of a CSS colour, as the canvas parses it (#rrggbb or rgba(...))
export function rgbOf(g, css) {
	g.fillStyle = '#000';
	g.fillStyle = css;
	const v = String(g.fillStyle);
	if (v[0] === '#') return [1, 3, 5].map((i) => parseInt(v.slice(i, i + 2), 16));
	const m = v.match(/\d+(\.\d+)?/g) || [0, 0, 0];
	return m.slice(0, 3).map(Number);
}

// a merged span's columns (CSS px, x: ns -> px): from its start (at least
// 0) for at least a pixel
export function spanX(it, x, W) {
	const x0 = Math.max(0, x(it.ts)), x1 = Math.min(W, x(it.end));
	return { x0, w: Math.max(1, x1 - x0) };
}
// a run of merged instants' columns: 2 px at least, from one left of its start
function instantsX(it, x) {
	const x0 = x(it.ts);
	return { x0: x0 - 1, w: Math.max(x0 + 2, x(it.end)) - x0 };
}
// a merged span's alpha: more opaque the busier its columns
const spanAlpha = (it) => 0.35 + 0.65 * Math.min(1, it.busy_ns / Math.max(1, it.end - it.ts));

// The i-th merged span of a lane's "spans" (the answer's columns: depth,
// col, ts, end, count, busy_ns, and matches with a search) as an item
// {type: 'span', ...} (what the hover card and the details take).
function spanAt(sp, i) {
	const it = { type: 'span', depth: sp.depth[i], col: sp.col[i], ts: sp.ts[i], end: sp.end[i], count: sp.count[i], busy_ns: sp.busy_ns[i] };
	if (sp.matches) it.matches = sp.matches[i];
	return it;
}
const noSpans = { depth: [], ts: [] }, noRuns = { ts: [] };
// the i-th run of a lane's "instant_runs" (columns col, ts, end, count)
function runAt(r, i) {
	return { type: 'instants', col: r.col[i], ts: r.ts[i], end: r.end[i], count: r.count[i] };
}

// The merged items of the Timeline's lanes, with its row heights (ROW a
// depth, IROW the instants row). A band: {top (CSS px), irow (0 or IROW),
// y1 (its end), lane (the answer's)}.
export function mergedLayer({ ROW, IROW }) {
	const pixels = pixelLayer();
	return {
		// writes the merged items of every band; rgb: their colour
		draw(g, bands, x, W, dpr, rgb) {
			for (const { top, irow, lane: l } of bands) {
				const nd = Math.max(1, l.depths);
				const rows = irow ? [[1, IROW - 1]] : [];
				for (let d = 0; d < nd; d++) rows.push([irow + d * ROW + 1, irow + (d + 1) * ROW - 1]);
				const band = pixels.band(g, W, dpr, top, rows), k0 = irow ? 1 : 0;
				const runs = irow && l.instant_runs || noRuns;
				for (let i = 0; i < runs.ts.length; i++) {
					const { x0, w } = instantsX({ ts: runs.ts[i], end: runs.end[i] }, x);
					band.row(0, x0, x0 + w, rgb, 1);
				}
				const sp = l.spans || noSpans, it = { ts: 0, end: 0, busy_ns: 0 };
				for (let i = 0; i < sp.ts.length; i++) {
					it.ts = sp.ts[i]; it.end = sp.end[i]; it.busy_ns = sp.busy_ns[i];
					const { x0, w } = spanX(it, x, W);
					band.row(k0 + Math.min(sp.depth[i], nd - 1), x0, x0 + w, rgb, spanAlpha(it));
				}
				band.put();
			}
		},
		// the merged item at (px, py) as {it, lane}, or null
		hitAt(bands, px, py, x, W) {
			const bd = bands.find((b) => py >= b.top && py < b.y1);
			if (!bd) return null;
			const l = bd.lane;
			const inside = ({ x0, w }) => px >= x0 - 1 && px <= x0 + w + 1;
			let it;
			if (py < bd.top + bd.irow) {
				const runs = l.instant_runs || noRuns;
				for (let i = 0; i < runs.ts.length && !it; i++)
					if (inside(instantsX({ ts: runs.ts[i], end: runs.end[i] }, x))) it = runAt(runs, i);
			} else {
				const depth = Math.floor((py - bd.top - bd.irow) / ROW), sp = l.spans || noSpans;
				for (let i = 0; i < sp.ts.length && !it; i++)
					if (sp.depth[i] === depth && inside(spanX({ ts: sp.ts[i], end: sp.end[i] }, x, W))) it = spanAt(sp, i);
			}
			return it ? { it, lane: l } : null;
		},
	};
}

function pixelLayer() {
	let img = null, buf = null;
	return {
		// A band of width W CSS px at y (CSS px), rows as above; dpr the
		// device pixel ratio. Returns {row(k, x0, x1, alpha): fills
		// columns [x0, x1) of row k (0: the instants row when irow > 0,
		// then the depths), put(): writes the band on the canvas}.
		band(g, W, dpr, y, rows) {
			const wd = Math.max(1, Math.round(W * dpr));
			const ys = rows.map(([y0, y1]) => [Math.round((y + y0) * dpr), Math.round((y + y1) * dpr)]);
			const top = ys.length ? ys[0][0] : 0;
			const hd = ys.length ? Math.max(1, ys[ys.length - 1][1] - top) : 1;
			if (!img || img.width !== wd || img.height < hd) {
				img = new ImageData(wd, Math.max(hd, img && img.width === wd ? img.height : 0));
				buf = new Uint32Array(img.data.buffer);
			} else {
				buf.fill(0, 0, wd * hd);
			}
			const used = new Uint8Array(ys.length);
			return {
				row(k, x0, x1, [r, gg, b], alpha) {
					const a = Math.max(0, Math.min(255, Math.round(alpha * 255)));
					const c = ((a << 24) | (b << 16) | (gg << 8) | r) >>> 0;
					const p0 = Math.max(0, Math.round(x0 * dpr)), p1 = Math.min(wd, Math.max(p0 + 1, Math.round(x1 * dpr)));
					const off = (ys[k][0] - top) * wd;
					for (let p = p0; p < p1; p++) buf[off + p] = c;
					used[k] = 1;
				},
				put() {
					for (let k = 0; k < ys.length; k++) {
						if (!used[k]) continue;
						const off = (ys[k][0] - top) * wd;
						for (let line = ys[k][0] + 1; line < ys[k][1]; line++) buf.copyWithin((line - top) * wd, off, off + wd);
					}
					g.putImageData(img, 0, top, 0, 0, wd, hd);
				},
			};
		},
	};
}
