// timeline: the Timeline page of the viewer over /api/file/ID/timeline
// (views/view_timeline.c): one canvas lane per track (process / thread or
// stream) in the server's lane order (sort indexes, GPU after CPU), a row
// per nesting depth and a row of instants; events at least a pixel wide
// are drawn one by one, shorter ones (and instants) come from the server
// merged per pixel column (written as pixels: timeline_pixels.js). Counter
// lanes (a step chart; min/max per column) follow their process's lanes.
// W / S zoom and A / D pan as in Perfetto (Shift: faster), the mouse wheel
// zooms around the pointer, Shift+drag pans, + / - zoom and the arrow keys
// pan; every change asks the server for the visible window again. A time
// ruler (timeline_ruler.js) heads the lanes; hovering an event shows a card
// (timeline_hover.js); a drag selects an area whose slices are summed per
// name (timeline_area.js). A click on a lane's header collapses it ("pin"
// at its right end keeps it on top); a click on an event selects it (its
// flows highlighted), shows its details and its linked events
// (?links=ROW: its kernels, its launch, its flow neighbours), which jump to
// them. "Flows" (key f) asks for the flow arrows (flows=1). "Download
// trace" saves /api/file/ID/trace (the file's own bytes; the window's slice
// when zoomed in) for Perfetto or chrome://tracing offline; "Open in
// Perfetto", offered when a probe reaches ui.perfetto.dev, hands the same
// bytes to it with its postMessage protocol (PING until PONG, then the
// buffer). State in the hash: start=NS&end=NS (from the trace's start, as
// the API takes them), collapsed=t3,c0 (lanes by track, counters by id),
// flows=1, pinned=t3, area=A,B&area_tracks=K,L. Counters (timeline_counters.js, key c): HTA's queue length and
// memcpy bandwidth lanes under their streams, counters=1. Search
// (timeline_search.js): find=TEXT&match=K; the windows are asked with
// find=TEXT, so the server marks the visible matches. Critical path
// (timeline_critical.js): critical=K outlines the K-th step's path.
//
// An Nsight Systems export draws the same way from
// /api/file/ID/nsys/timeline (views/view_nsys_tl.c, the same JSON): its
// lanes carry a "source" (nvtx, cuda_api, kernels, memory) shown in their
// title, and it has neither Download trace nor Open in Perfetto (Perfetto
// cannot read the SQLite) nor search (the search is the trace's).

import { fmtDur } from './fmt.js';
import { withSel } from './stepsel.js';
import { timelineSearch } from './timeline_search.js';
import { criticalPath } from './timeline_critical.js';
import { streamCounters } from './timeline_counters.js';
import { el } from './dom.js';
import { timeRuler } from './timeline_ruler.js';
import { areaSelection } from './timeline_area.js';
import { hoverCard } from './timeline_hover.js';
import { frameMeter } from './timeline_perf.js';
import { mergedLayer, rgbOf, spanX } from './timeline_pixels.js';

const ROW = 16, HEAD = 18, IROW = 10, CROW = 40, MIN_NS = 10;
const MARK = '#f0b000', MARK_CUR = '#e0306a'; // search matches, the current one
const PIN_W = 40; // the pin toggle at a lane header's right end
// keys as Perfetto has them: W / S zoom in / out, A / D pan; Shift: faster
const WASD = { w: [0.8, 0], s: [1.25, 0], a: [1, -0.1], d: [1, 0.1], W: [0.5, 0], S: [2, 0], A: [1, -0.5], D: [1, 0.5] };
export const PERFETTO = 'https://ui.perfetto.dev';
let active = null; // the timeline on the page, for the keys

function hue(name) {
	let h = 0;
	for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
	return h % 360;
}

// an event's fill by its name (kept: a frame paints thousands)
const fills = new Map();
function fillOf(name) {
	let f = fills.get(name);
	if (f === undefined) {
		if (fills.size > 50000) fills.clear();
		f = `hsl(${hue(name)} 55% 60%)`;
		fills.set(name, f);
	}
	return f;
}

const SOURCES = { nvtx: 'NVTX', cuda_api: 'CUDA API', kernels: 'kernels', memory: 'memory' };

function laneName(l) {
	if (l.source && l.gpu) return `${l.process} / ${l.thread} · ${SOURCES[l.source] || l.source}`;
	const p = l.process || `pid ${l.pid}`;
	const t = l.thread || `tid ${l.tid}`;
	return `${p} / ${t}${l.source ? ` · ${SOURCES[l.source] || l.source}` : ''}`;
}

// "12 events · busy 3.2 ms", "4 instants", or both
function laneCounts(l) {
	const parts = [];
	if (l.events > 0 || !(l.instant_events > 0)) parts.push(`${l.events} events · busy ${fmtDur(l.busy_ns)}`);
	if (l.instant_events > 0) parts.push(`${l.instant_events} instant${l.instant_events === 1 ? '' : 's'}`);
	return parts.join(' · ');
}

function laneTitle(l) {
	if (l.source && l.gpu) return laneName(l); // an export's GPU lane: GPU n / stream m (context c) · kernels
	const labels = l.labels ? ` [${l.labels}]` : '';
	return `${l.process || 'pid'} (${l.pid})${labels} / ${l.thread || 'tid'} (${l.tid})${l.source ? ` · ${SOURCES[l.source] || l.source}` : ''}`;
}

// Hands bytes to the Perfetto UI in window w: PING until it answers PONG,
// then the trace (the UI's documented postMessage protocol). Resolves once
// posted; gives up after timeoutMs.
function postToPerfetto(w, buffer, title, timeoutMs = 30000) {
	return new Promise((resolve, reject) => {
		let done = false;
		const onMsg = (ev) => {
			if (done || ev.source !== w || ev.data !== 'PONG') return;
			done = true;
			clearInterval(ping);
			removeEventListener('message', onMsg);
			w.postMessage({ perfetto: { buffer, title, keepApiOpen: false } }, PERFETTO);
			resolve();
		};
		addEventListener('message', onMsg);
		const ping = setInterval(() => {
			if (w.closed) { clearInterval(ping); removeEventListener('message', onMsg); reject(new Error('the Perfetto window was closed')); return; }
			try { w.postMessage('PING', PERFETTO); } catch { /* not loaded yet */ }
		}, 100);
		setTimeout(() => {
			if (done) return;
			clearInterval(ping);
			removeEventListener('message', onMsg);
			reject(new Error('Perfetto did not answer'));
		}, timeoutMs);
	});
}

// opts.endpoint: the API path under /api/file/ID/ ('timeline', or
// 'nsys/timeline' for an export); opts.perfetto: show Open in Perfetto.
export async function renderTimeline(api, id, s, writeHash, { endpoint = 'timeline', perfetto = true } = {}) {
	const TL = `/api/file/${id}/${endpoint}`;
	const first = await api(`${TL}?px=1`); // the trace's span
	const files = await api('/api/files').then((d) => d.files).catch(() => []);
	const fileName = files.find((f) => String(f.id) === String(id))?.name || `file ${id}`;
	// times are relative to the trace's start (its clock may exceed 2^53 ns)
	const T0 = 0, T1 = Math.max(first.timeline.end_ns, 1);
	let start = Number.isFinite(+s.start) && s.start !== undefined && s.start !== '' ? +s.start : T0;
	let end = Number.isFinite(+s.end) && s.end !== undefined && s.end !== '' ? +s.end : T1;
	if (!(end > start)) { start = T0; end = T1; }
	const collapsed = new Set((s.collapsed || '').split(',').filter(Boolean));
	const pinned = new Set((s.pinned || '').split(',').filter(Boolean)); // lanes drawn first, by key
	let flowsOn = s.flows === '1';
	let selected = null; // row of the event picked from a link
	const canvas = el('canvas', { tabIndex: 0, dataset: { testid: 'timeline-canvas' } });
	const info = el('div', { className: 'kmeta', dataset: { testid: 'timeline-window' } });
	const details = el('div', { className: 'tl-details', dataset: { testid: 'timeline-details' }, textContent: 'Click an event for its details, a lane\'s name to collapse it.' });
	const ruler = timeRuler();
	const hover = hoverCard({ api, TL, laneName });
	const wrap = el('div', { className: 'tl-wrap' }, ruler.canvas, canvas, hover.card);
	const meter = frameMeter(canvas);
	let data = null, hits = [], heads = [], bodies = [], seq = 0, timer = null, search = null;
	// the lanes whose merged items were drawn as pixels (no hit box each:
	// hitAt finds them from the answer): {top, irow, y1, lane}
	let pixelBands = [];
	const merged = mergedLayer({ ROW, IROW });
	let theme = null; // {fg, muted, rgb} of the page's theme
	let selLinks = []; // the selected event's linked events (?links=), their flows highlighted

	// the wrap's width, as the ResizeObserver last saw it (reading it in
	// every frame would force a layout)
	let wrapW = 0;
	const width = () => Math.max(100, Math.floor(wrapW || wrap.clientWidth || 1000));
	const x = (ns, W) => (ns - start) / (end - start) * W;
	let onWindow = () => {}; // the download button's label follows the window
	const save = () => {
		s.collapsed = [...collapsed].join(',');
		s.pinned = [...pinned].join(',');
		s.flows = flowsOn ? '1' : '';
		writeHash({ ...s, start: String(start), end: String(end) });
		onWindow();
	};
	const crit = endpoint === 'timeline' ? criticalPath(api, id, s, save, () => { if (data) draw(); }) : null;
	const area = areaSelection({ api, TL, s, save, onChange: () => { if (data) draw(); } });
	const hc = streamCounters({ s, save, canvas, onChange: () => { draw(); reload(); }, enabled: endpoint === 'timeline' });

	// Lanes (each with HTA's counters of its stream), then each process's
	// counters after its last lane; pinned lanes and counters first, in
	// that order among themselves.
	function blocks() {
		const lanes = data ? data.lanes : [], counters = data?.counters || [];
		const groups = [], lastOf = new Map();
		lanes.forEach((l, i) => lastOf.set(l.pid, i));
		const left = [...counters];
		lanes.forEach((l, i) => {
			groups.push([{ kind: 'lane', key: `t${l.track}`, l }, ...hc.blocks(data, l)]);
			if (lastOf.get(l.pid) === i)
				for (let j = 0; j < left.length;) {
					if (left[j].pid === l.pid) groups.push([{ kind: 'counter', key: `c${left[j].counter}`, c: left.splice(j, 1)[0] }]);
					else j++;
				}
		});
		for (const c of left) groups.push([{ kind: 'counter', key: `c${c.counter}`, c }]);
		const pin = (g) => pinned.has(g[0].key);
		return [...groups.filter(pin), ...groups.filter((g) => !pin(g))].flat();
	}

	function drawCounter(g, c, top, W, fg) {
		const pts = c.points;
		let lo = Infinity, hi = -Infinity;
		for (const p of pts) {
			for (const v of p.value !== undefined ? [p.value] : [p.min, p.max]) {
				if (v === null) continue;
				lo = Math.min(lo, v); hi = Math.max(hi, v);
			}
		}
		if (!(hi >= lo)) return;
		if (hi === lo) { hi += 1; lo -= 1; }
		const H = CROW - 6;
		const y = (v) => top + 3 + H - (v - lo) / (hi - lo) * H;
		g.save();
		g.beginPath(); g.rect(0, top, W, CROW); g.clip();
		g.strokeStyle = `hsl(${hue(c.name + c.series)} 60% 45%)`;
		g.fillStyle = `hsl(${hue(c.name + c.series)} 60% 55% / 0.35)`;
		g.beginPath();
		// a step chart: each value holds until the next sample; a merged
		// column is a vertical bar from its min to its max, ending at its last
		let pv = null;
		const path = [];
		for (const p of pts) {
			const xx = Math.max(0, x(p.ts, W));
			if (pv !== null) path.push([xx, pv]);
			if (p.value !== undefined) path.push([xx, p.value]);
			else path.push([xx, p.min], [xx, p.max], [xx, p.last]);
			pv = p.value !== undefined ? p.value : p.last;
		}
		if (pv !== null) path.push([W, pv]);
		if (path.length) {
			g.moveTo(path[0][0], y(path[0][1]));
			for (const [xx, v] of path) g.lineTo(xx, y(v));
			g.stroke();
			g.lineTo(path[path.length - 1][0], top + CROW - 3);
			g.lineTo(path[0][0], top + CROW - 3);
			g.closePath();
			g.fill();
		}
		g.fillStyle = fg;
		g.fillText(`max ${hi}`, W - 80, top + 8);
		g.restore();
		// the line's vertices as values: "ts:value" (a merged column "ts:min-max")
		return pts.map((p) => `${p.ts}:${p.value !== undefined ? p.value : `${p.min}-${p.max}`}`).join(' ');
	}

	// Flow arrows between the ends' lanes (the bound slice's row), drawn
	// only over the lanes' rows (never over their titles); the selected
	// event's flows (its links) on top, thicker. rowY: track -> {y, closed}.
	function drawFlows(g, W, rowY) {
		g.save();
		g.beginPath();
		for (const bd of bodies) if (bd.open) g.rect(0, bd.y0 + HEAD, W, bd.y1 - bd.y0 - HEAD);
		g.clip();
		const endY = (e) => {
			const a = rowY.get(e.track);
			return !a ? null : a.closed ? a.y : a.y + e.depth * ROW + ROW / 2;
		};
		// arrows of one colour: their lines in one path, one stroke; their
		// heads filled HEADS at a time (one fill of thousands of triangles
		// costs chromium's rasterizer several times more than many small
		// fills: 2,000 heads 25 ms in one path, 4.5 ms by 100s)
		const HEADS = 128;
		const arrows = (list, colour, wdt) => {
			const lines = new Path2D(), heads = [];
			let n = 0;
			for (const [fr, to] of list) {
				const ya = endY(fr), yb = endY(to);
				if (ya === null || yb === null) continue;
				const xa = x(fr.ts, W), xb = x(to.ts, W);
				lines.moveTo(xa, ya); lines.lineTo(xb, yb);
				const ang = Math.atan2(yb - ya, xb - xa);
				if (n % HEADS === 0) heads.push(new Path2D());
				const h = heads[heads.length - 1];
				h.moveTo(xb, yb);
				h.lineTo(xb - 7 * Math.cos(ang - 0.4), yb - 7 * Math.sin(ang - 0.4));
				h.lineTo(xb - 7 * Math.cos(ang + 0.4), yb - 7 * Math.sin(ang + 0.4));
				h.closePath();
				n++;
			}
			g.strokeStyle = colour; g.fillStyle = colour; g.lineWidth = wdt;
			g.stroke(lines);
			for (const h of heads) g.fill(h);
			g.lineWidth = 1;
			return n;
		};
		g.globalAlpha = selected !== null && selLinks.length ? 0.35 : 1;
		// the answer's arrows: at most 2,000, picked evenly from the
		// window's by the server
		// (columns: kind, and from and to {track, ts, depth, ...})
		const fl = flowsOn ? data?.flows : null, launches = [], chains = [];
		const end = (e, i) => ({ track: e.track[i], ts: e.ts[i], depth: e.depth[i] });
		for (let i = 0; fl && i < fl.kind.length; i++)
			(fl.kind[i] === 'launch' ? launches : chains).push([end(fl.from, i), end(fl.to, i)]);
		let nArrows = arrows(launches, '#d33', 1);
		nArrows += arrows(chains, '#36c', 1);
		g.globalAlpha = 1;
		const selHit = selected !== null ? hits.find((h) => h.it.type === 'event' && h.it.row === selected) : null;
		const mine = (selHit ? selLinks : []).map((lk) => {
			const me = { track: selHit.lane.track, ts: selHit.it.ts, depth: selHit.it.depth };
			const other = { track: lk.track, ts: lk.ts, depth: lk.depth };
			return lk.rel === 'launched' || lk.rel === 'flow_to' ? [me, other] : [other, me];
		});
		const hiArrows = arrows(mine, MARK_CUR, 2.5);
		g.restore();
		return { nArrows, hiArrows };
	}

	// The open lanes of bl as the merged layer's bands (at the y height()
	// gives them), their merged items written as pixels before anything
	// else is drawn (timeline_pixels.js).
	function drawMerged(g, bl, height, W, dpr) {
		pixelBands = [];
		let y = 0;
		for (const b of bl) {
			const top = y + HEAD;
			y += height(b);
			if (b.kind === 'lane' && !collapsed.has(b.key))
				pixelBands.push({ top, irow: b.l.instant_events > 0 ? IROW : 0, y1: y, lane: b.l });
		}
		merged.draw(g, pixelBands, (ns) => x(ns, W), W, dpr, theme.rgb);
	}

	// The item under (px, py) as {x0, x1, y0, y1, it, lane}: a hit box of
	// the last frame, else a merged item of a lane drawn as pixels ({it, lane}).
	function hitAt(px, py) {
		const h = hits.find((b) => px >= b.x0 - 1 && px <= b.x1 + 1 && py >= b.y0 && py < b.y1);
		if (h) return h;
		const W = width();
		return merged.hitAt(pixelBands, px, py, (ns) => x(ns, W), W);
	}

	function draw() {
		meter.begin();
		const W = width();
		const lanes = data ? data.lanes : [];
		const bl = blocks();
		const height = (b) => HEAD + (collapsed.has(b.key) ? 0 : b.kind === 'counter' ? CROW
			: (b.l.instant_events > 0 ? IROW : 0) + Math.max(1, b.l.depths) * ROW);
		const H = Math.max(40, bl.reduce((h, b) => h + height(b), 0));
		const dpr = window.devicePixelRatio || 1;
		// resized only when the size changes (a resize reallocates the canvas)
		if (canvas.width !== W * dpr || canvas.height !== H * dpr) {
			canvas.width = W * dpr; canvas.height = H * dpr;
			canvas.style.width = `${W}px`; canvas.style.height = `${H}px`;
		}
		const g = canvas.getContext('2d');
		g.setTransform(dpr, 0, 0, dpr, 0, 0);
		if (!theme) { // the theme's colours, read again on a redraw from outside (a theme change)
			const cs = getComputedStyle(document.documentElement);
			theme = { fg: cs.getPropertyValue('--fg').trim() || '#222', muted: cs.getPropertyValue('--muted').trim() || '#888' };
			theme.rgb = rgbOf(g, theme.muted);
		}
		const { fg, muted } = theme;
		g.clearRect(0, 0, W, H);
		drawMerged(g, bl, height, W, dpr);
		g.font = '11px sans-serif';
		g.textBaseline = 'middle';
		hits = []; heads = []; bodies = [];
		const steps = [];
		let marked = 0; // items marked as search matches
		crit?.begin();
		const rowY = new Map(); // track -> y of its depth 0 (or its header when collapsed)
		let y = 0;
		for (const b of bl) {
			const closed = collapsed.has(b.key);
			g.fillStyle = fg;
			const label = b.kind === 'lane'
				? `${closed ? '▸' : '▾'} ${laneTitle(b.l)} · ${laneCounts(b.l)}`
				: `${closed ? '▸' : '▾'} ${b.c.name} · ${b.c.series} (${b.c.process || b.c.pid}) · ${b.c.samples} samples${b.c.samples ? ` · ${b.c.min} – ${b.c.max}` : ''}`;
			g.save();
			g.beginPath(); g.rect(0, y, W - PIN_W - 4, HEAD); g.clip();
			g.fillText(label, 4, y + HEAD / 2);
			g.restore();
			const isPinned = pinned.has(b.key);
			g.fillStyle = isPinned ? fg : muted;
			g.fillText(isPinned ? '● pin' : '○ pin', W - PIN_W, y + HEAD / 2);
			heads.push({ y0: y, y1: y + HEAD, key: b.key });
			const top = y + HEAD;
			if (b.kind === 'counter') {
				if (!closed) steps.push(`${b.key}=${drawCounter(g, b.c, top, W, fg)}`);
				y = top + (closed ? 0 : CROW);
				continue;
			}
			const l = b.l;
			bodies.push({ y0: y, y1: closed ? top : top + (l.instant_events > 0 ? IROW : 0) + Math.max(1, l.depths) * ROW, track: l.track, open: !closed });
			if (closed) { rowY.set(l.track, { y: y + HEAD / 2, closed: true }); y = top; continue; }
			const irow = l.instant_events > 0 ? IROW : 0;
			rowY.set(l.track, { y: top + irow, closed: false });
			for (const it of l.instants || []) {
				const x0 = x(it.ts, W), x1 = x0 + 2; // (the runs: drawMerged)
				g.fillStyle = it.kind === '[memory]' ? '#c60' : muted;
				g.fillRect(x0 - 1, top + 1, x1 - x0, IROW - 2);
				hits.push({ x0: x0 - 2, x1: x1 + 1, y0: top, y1: top + IROW, it, lane: l });
			}
			for (const it of l.items) { // (events only: the merged ones are l.spans)
				const ry = top + irow + it.depth * ROW;
				const x0 = Math.max(0, x(it.ts, W)), x1 = Math.min(W, x(it.ts + it.dur, W));
				const w = Math.max(1, x1 - x0);
				g.fillStyle = fillOf(it.name);
				g.fillRect(x0, ry + 1, w, ROW - 2);
				if (it.match) { g.strokeStyle = MARK; g.lineWidth = 2; g.strokeRect(x0, ry + 1, w, ROW - 2); g.lineWidth = 1; marked++; }
				if (it.row === selected) { g.strokeStyle = fg; g.lineWidth = 2; g.strokeRect(x0, ry + 1, w, ROW - 2); g.lineWidth = 1; }
				crit?.mark(g, it, x0, ry + 1, w, ROW - 2);
				if (w > 30) {
					g.save();
					g.beginPath(); g.rect(x0, ry, w, ROW); g.clip();
					g.fillStyle = '#111';
					g.fillText(it.name, x0 + 3, ry + ROW / 2);
					g.restore();
				}
				hits.push({ x0, x1: x0 + w, y0: ry, y1: ry + ROW, it, lane: l });
			}
			// merged spans (drawn by drawMerged) with search matches: a mark under them
			const sp = l.spans;
			for (let i = 0; sp?.matches && i < sp.matches.length; i++) {
				if (!sp.matches[i]) continue;
				const { x0, w } = spanX({ ts: sp.ts[i], end: sp.end[i] }, (ns) => x(ns, W), W);
				const ry = top + irow + sp.depth[i] * ROW;
				g.fillStyle = MARK; g.fillRect(x0, ry + ROW - 5, Math.max(2, w), 4); marked++;
			}
			y = top + irow + Math.max(1, l.depths) * ROW;
		}
		const { nArrows, hiArrows } = drawFlows(g, W, rowY);
		crit?.draw(g, hits, (ns) => x(ns, W), canvas);
		canvas.dataset.lanes = String(lanes.length);
		canvas.dataset.items = String(lanes.reduce((n, l) => n + (collapsed.has(`t${l.track}`) ? 0 : l.items.length + (l.spans?.ts.length || 0)), 0));
		canvas.dataset.order = bl.filter((b) => b.kind === 'lane').map((b) => `${b.l.pid}/${b.l.tid}`).join(' ');
		canvas.dataset.pinned = [...pinned].join(',');
		canvas.dataset.counterSteps = steps.join('|');
		canvas.dataset.flowsSelected = String(hiArrows);
		canvas.dataset.selected = selected === null ? '' : String(selected);
		canvas.dataset.lanesY = bodies.map((bd) => `t${bd.track}:${bd.y0}-${bd.y1}`).join(' ');
		canvas.dataset.counters = String((data?.counters || []).length);
		hc.mark(data);
		canvas.dataset.flows = String(nArrows);
		canvas.dataset.collapsed = [...collapsed].join(',');
		// the current match: outlined where it is, drawn one by one or merged
		const cur = search?.current(), at = cur && rowY.get(cur.track);
		canvas.dataset.marked = String(marked);
		canvas.dataset.match = cur ? String(cur.row) : '';
		canvas.dataset.matchShown = '';
		if (cur && at && !at.closed && cur.ts < end && cur.ts + cur.dur >= start) {
			const x0 = Math.max(-2, x(cur.ts, W)), x1 = Math.min(W + 2, x(cur.ts + cur.dur, W));
			const ry = at.y + cur.depth * ROW;
			g.strokeStyle = MARK_CUR; g.lineWidth = 3;
			g.strokeRect(x0 - 2, ry, Math.max(4, x1 - x0 + 4), ROW);
			g.lineWidth = 1;
			canvas.dataset.matchShown = String(Math.round((x0 + x1) / 2));
		}
		// the area selection: a band over its lanes
		const sel = area.get();
		if (sel) {
			const xa = Math.max(0, x(sel.a, W)), xb = Math.min(W, x(sel.b, W));
			g.fillStyle = 'rgba(60, 120, 220, 0.18)';
			g.strokeStyle = 'rgba(30, 80, 180, 0.8)';
			for (const bd of bodies) {
				if (sel.tracks.length && !sel.tracks.includes(bd.track)) continue;
				g.fillRect(xa, bd.y0, Math.max(1, xb - xa), bd.y1 - bd.y0);
			}
			g.beginPath(); g.moveTo(xa + 0.5, 0); g.lineTo(xa + 0.5, H); g.moveTo(xb - 0.5, 0); g.lineTo(xb - 0.5, H); g.stroke();
		}
		ruler.draw(start, end, W, sel, area.text());
		info.textContent = `${fmtDur(start - T0)} – ${fmtDur(end - T0)} (${fmtDur(end - start)} shown)${sel ? ` · selection ${area.text()}` : ''}${data?.truncated ? ' · truncated' : ''}${flowsOn && data && data.flows_total > nArrows ? ` · ${nArrows.toLocaleString('en-US')} of ${data.flows_total.toLocaleString('en-US')} flows drawn (picked evenly)` : ''}`;
		meter.end();
	}

	// A window asked for while another is on its way replaces it: the
	// older one is aborted (its answer would be dropped; reading and parsing
	// it would hold up the main thread and the next frames).
	let inflight = null;
	async function load() {
		const my = ++seq;
		const W = width();
		const q = search?.text() ? `&find=${encodeURIComponent(search.text())}` : '';
		const t0 = performance.now();
		inflight?.abort();
		const ctl = inflight = new AbortController();
		const d = await api(`${TL}?start_ns=${Math.round(start)}&end_ns=${Math.round(end)}&px=${W}${flowsOn ? '&flows=1' : ''}${hc.param()}${q}`, { signal: ctl.signal })
			.finally(() => { if (inflight === ctl) inflight = null; });
		meter.request(performance.now() - t0);
		if (my !== seq) return;
		data = d;
		canvas.dataset.start = String(d.timeline.start_ns);
		canvas.dataset.end = String(d.timeline.end_ns);
		draw();
	}
	const reload = () => { clearTimeout(timer); timer = setTimeout(() => load().catch(() => {}), 80); };

	function setWindow(a, b) {
		let span = Math.max(MIN_NS, b - a);
		const full = T1 - T0;
		if (span > full) span = full;
		a = Math.min(Math.max(a, T0), T1 - span);
		start = Math.round(a); end = Math.round(a + span);
		save();
		draw();
		reload();
	}
	const zoom = (f, at) => { const c = start + (end - start) * at; setWindow(c - (c - start) * f, c + (end - c) * f); };
	const pan = (frac) => { const d = (end - start) * frac; setWindow(start + d, end + d); };

	canvas.addEventListener('wheel', (ev) => {
		ev.preventDefault();
		const r = canvas.getBoundingClientRect();
		zoom(ev.deltaY < 0 ? 0.8 : 1.25, (ev.clientX - r.left) / r.width);
	}, { passive: false });
	// A drag over the lanes selects an area (the lanes it crosses, the time
	// it spans; on the ruler: every lane); Shift+drag pans.
	let drag = null;
	const localX = (ev) => ev.clientX - canvas.getBoundingClientRect().left;
	const nsAt = (px) => start + (end - start) * Math.min(Math.max(px, 0), width()) / width();
	const begin = (ev, onRuler) => {
		const py = ev.clientY - canvas.getBoundingClientRect().top;
		// (an export's timeline has no area sums: a drag pans there)
		drag = { x: ev.clientX, y: py, start, end, moved: false, pan: ev.shiftKey || endpoint !== 'timeline', onRuler };
		hover.hide();
	};
	canvas.addEventListener('mousedown', (ev) => begin(ev, false));
	ruler.canvas.addEventListener('mousedown', (ev) => begin(ev, true));
	const areaOf = (ev) => {
		const a = nsAt(drag.x - canvas.getBoundingClientRect().left), b = nsAt(localX(ev));
		const y0 = Math.min(drag.y, ev.clientY - canvas.getBoundingClientRect().top), y1 = Math.max(drag.y, ev.clientY - canvas.getBoundingClientRect().top);
		const tracks = drag.onRuler ? [] : bodies.filter((bd) => bd.y1 > y0 && bd.y0 <= y1).map((bd) => bd.track);
		return { a: Math.min(a, b), b: Math.max(a, b), tracks };
	};
	addEventListener('mouseup', (ev) => {
		if (drag?.moved && !drag.pan) area.set(areaOf(ev));
		setTimeout(() => { drag = null; }, 0);
	});
	addEventListener('mousemove', (ev) => {
		if (!drag || !(ev.buttons & 1)) return;
		const dx = ev.clientX - drag.x;
		if (Math.abs(dx) > 2) drag.moved = true;
		if (!drag.moved) return;
		if (drag.pan) {
			const d = -dx / width() * (drag.end - drag.start);
			setWindow(drag.start + d, drag.end + d);
		} else {
			const v = areaOf(ev);
			ruler.draw(start, end, width(), v, fmtDur(Math.round(v.b) - Math.round(v.a)));
		}
	});
	canvas.addEventListener('mousemove', (ev) => {
		if (drag) return;
		const r = canvas.getBoundingClientRect(), px = ev.clientX - r.left, py = ev.clientY - r.top;
		const h = hitAt(px, py);
		hover.show(h ? h.it : null, h?.lane, px, py + ruler.canvas.offsetHeight);
	});
	canvas.addEventListener('mouseleave', () => hover.hide());
	let pointer = null; // where W / S zoom: the pointer's fraction of the width, when over the lanes
	canvas.addEventListener('mousemove', (ev) => { pointer = localX(ev) / width(); });
	canvas.addEventListener('mouseleave', () => { pointer = null; });

	// a linked event: center the window on it (the span kept, or widened
	// to show it whole) and outline it
	function jump(lk) {
		selected = lk.row;
		const span = Math.max(end - start, lk.dur * 1.5, MIN_NS);
		const c = lk.ts + lk.dur / 2;
		setWindow(c - span / 2, c + span / 2);
	}

	async function showLinks(it, box) {
		let d;
		try { d = await api(`${TL}?links=${it.row}`); } catch (e) { box.textContent = `Could not ask for its links: ${e.message}`; return; }
		if (d.self_ns !== undefined) box.before(el('div', { dataset: { testid: 'timeline-self' }, textContent: `self time ${fmtDur(d.self_ns)} (its duration less its direct children's)` }));
		if (selected === it.row) { selLinks = d.links; draw(); }
		if (!d.links.length) { box.textContent = 'No linked events.'; return; }
		const rel = { launched: 'launched', launcher: 'launched by', flow_to: 'flow to', flow_from: 'flow from' };
		box.replaceChildren(...d.links.map((lk) => {
			const b = el('button', { className: 'tl-link', dataset: { testid: 'timeline-link', row: String(lk.row) }, textContent: `${rel[lk.rel] || lk.rel}: ${lk.name} (${lk.kind}, ${fmtDur(lk.dur)} at ${fmtDur(lk.ts)})` });
			b.addEventListener('click', () => jump(lk));
			return b;
		}));
	}

	canvas.addEventListener('click', (ev) => {
		if (drag?.moved) return;
		const r = canvas.getBoundingClientRect();
		const px = ev.clientX - r.left, py = ev.clientY - r.top;
		const hd = heads.find((b) => py >= b.y0 && py < b.y1);
		if (hd && px >= width() - PIN_W - 4) { // the pin toggle
			pinned.has(hd.key) ? pinned.delete(hd.key) : pinned.add(hd.key);
			save();
			draw();
			return;
		}
		if (hd) {
			collapsed.has(hd.key) ? collapsed.delete(hd.key) : collapsed.add(hd.key);
			save();
			draw();
			return;
		}
		const h = hitAt(px, py);
		if (!h) return;
		if (h.it.type === 'event') { selected = h.it.row; selLinks = []; draw(); }
		showDetails(h.it, h.lane);
	});

	// the details panel of an item (a clicked one, a search match)
	function showDetails(it, lane) {
		let line;
		if (it.type === 'event') line = `${it.name} · ${it.kind} · start ${fmtDur(it.ts - T0)} · duration ${fmtDur(it.dur)} · depth ${it.depth} · row ${it.row} · ${lane ? laneName(lane) : `track ${it.track}`}`;
		else if (it.type === 'instant') line = `${it.name} · ${it.kind} · instant at ${fmtDur(it.ts - T0)} · row ${it.row} · ${laneName(lane)}`;
		else if (it.type === 'instants') line = `${it.count} instants merged · ${fmtDur(it.ts - T0)} – ${fmtDur(it.end - T0)} · ${laneName(lane)} (zoom in to see them)`;
		else line = `${it.count} short events merged · ${fmtDur(it.ts - T0)} – ${fmtDur(it.end - T0)} · busy ${fmtDur(it.busy_ns)} · depth ${it.depth} · ${laneName(lane)} (zoom in to see them)`;
		details.dataset.row = it.type === 'event' ? String(it.row) : '';
		const kids = [el('div', { dataset: { testid: 'timeline-event' }, textContent: line })];
		if (it.type === 'event') {
			const box = el('div', { className: 'tl-links', dataset: { testid: 'timeline-links' }, textContent: 'Linked events…' });
			kids.push(box);
			showLinks(it, box);
		}
		details.replaceChildren(...kids);
	}

	// search: a match is centred (zoomed in until it is drawn one by one,
	// 8 px wide, when it is shorter), outlined and its details shown
	let firstLoad = null;
	// (an export's timeline has no search: the search is the trace's)
	search = endpoint !== 'timeline' ? null : timelineSearch({
		api, id, s, save, onText: reload,
		async onJump(m, fromHash) {
			selected = m.row;
			if (!(fromHash && s.start && s.end)) {
				const W = width();
				let span = Math.max(end - start, m.dur * 1.5, MIN_NS);
				if (m.dur > 0 && m.dur / span * W < 8) span = Math.max(MIN_NS, m.dur * W / 8);
				const c = m.ts + m.dur / 2;
				setWindow(c - span / 2, c + span / 2);
			} else {
				draw();
			}
			await firstLoad;
			showDetails({ type: 'event', ...m }, data?.lanes.find((l) => l.track === m.track));
		},
	});

	const flowsBtn = el('button', { textContent: 'Flows', title: 'Show the flow arrows: launches → kernels, s/t/f flows (f)', dataset: { testid: 'timeline-flows' } });
	const setFlows = (on) => {
		flowsOn = on;
		flowsBtn.setAttribute('aria-pressed', String(on));
		save();
		draw();
		reload();
	};
	flowsBtn.setAttribute('aria-pressed', String(flowsOn));
	flowsBtn.addEventListener('click', () => setFlows(!flowsOn));

	// The trace as /api/file/ID/trace writes it (the file's own bytes: every
	// field of every event, the window's slice when zoomed in, the step or
	// range selection's window), for Download and Open in Perfetto
	const traceUrl = () => {
		const whole = start <= T0 && end >= T1;
		return { whole, url: withSel(`/api/file/${id}/trace${whole ? '' : `?start_ns=${Math.round(start)}&end_ns=${Math.round(end)}`}`) };
	};
	// Download: an offline way into Perfetto (drop the file on
	// ui.perfetto.dev) or chrome://tracing
	const dlBtn = el('button', { dataset: { testid: 'timeline-download' } });
	onWindow = () => {
		const { whole } = traceUrl();
		dlBtn.textContent = whole ? 'Download trace (whole)' : 'Download trace (window)';
		dlBtn.title = whole ? 'Save the whole trace as Kineto JSON (every field as the file has it)'
			: 'Save the window shown as a Kineto trace (what `gpuprof trace slice --from --to` writes)';
	};
	onWindow();
	const saveTrace = () => {
		const { whole, url } = traceUrl();
		const stem = fileName.replace(/\.gz$/, '').replace(/\.json$/, '');
		const a = el('a', { href: url, download: whole ? `${stem}.json` : `${stem}.${Math.round(start)}-${Math.round(end)}ns.json` });
		document.body.append(a);
		a.click();
		a.remove();
	};
	dlBtn.addEventListener('click', saveTrace);
	// Open in Perfetto: when the page can reach ui.perfetto.dev (a no-cors
	// probe; the CSP's connect-src allows that origin). Otherwise the same
	// button downloads the trace at once, with a note to drop it on
	// ui.perfetto.dev, and a Perfetto window that never answers falls back
	// to the download too. The window must be opened in the click itself
	// (popup blockers), the bytes follow once fetched.
	const perfBtn = el('button', { dataset: { testid: 'timeline-perfetto' } });
	const perfNote = el('span', { className: 'count', dataset: { testid: 'timeline-perfetto-note' } });
	let reachable = true;
	const perfState = () => {
		const off = navigator.onLine === false;
		perfBtn.textContent = off ? 'Download for Perfetto (offline)' : reachable ? 'Open in Perfetto' : 'Download for Perfetto (cannot reach ui.perfetto.dev)';
		perfBtn.title = off || !reachable ? 'ui.perfetto.dev is a web page and cannot be reached: save the trace (the window shown, when zoomed in) to open it there later' : 'Open this trace (the window shown, when zoomed in) in ui.perfetto.dev';
		perfNote.textContent = off || !reachable ? 'ui.perfetto.dev cannot be reached from this page: use Download trace and drop the file on ui.perfetto.dev (or chrome://tracing).' : '';
	};
	const probe = () => {
		if (!perfetto) return;
		fetch(`${PERFETTO}/`, { mode: 'no-cors', cache: 'no-store', signal: AbortSignal.timeout(4000) })
			.then(() => { reachable = true; }, () => { reachable = false; })
			.then(perfState);
	};
	perfState();
	probe();
	addEventListener('online', () => { perfState(); probe(); });
	addEventListener('offline', perfState);
	perfBtn.addEventListener('click', async () => {
		if (navigator.onLine === false || !reachable) {
			saveTrace();
			details.textContent = 'ui.perfetto.dev cannot be reached: the trace is downloaded; open it in ui.perfetto.dev ("Open trace file") or chrome://tracing.';
			return;
		}
		const { whole, url } = traceUrl();
		const w = window.open(`${PERFETTO}/#!/`, '_blank');
		if (!w) { details.textContent = 'The browser blocked the Perfetto window: allow pop-ups for this page.'; return; }
		try {
			const r = await fetch(url);
			if (!r.ok) throw new Error(`HTTP ${r.status}`);
			const buffer = await r.arrayBuffer();
			const title = whole ? fileName : `${fileName} ${fmtDur(start)} – ${fmtDur(end)}`;
			await postToPerfetto(w, buffer, title);
			details.textContent = `Sent ${buffer.byteLength} bytes to Perfetto.`;
		} catch (e) {
			saveTrace();
			details.textContent = `Could not open in Perfetto: ${e.message}. The trace is downloaded instead, for ui.perfetto.dev's "Open trace file".`;
		}
	});

	active = {
		canvas, key(k) {
			if (WASD[k]) {
				const [f, p] = WASD[k];
				if (f !== 1) zoom(f, pointer ?? 0.5);
				else pan(p);
			} else if (k === 'Escape') { if (!area.key(k)) return false; }
			else if (k === '+' || k === '=') zoom(0.5, 0.5);
			else if (k === '-' || k === '_') zoom(2, 0.5);
			else if (k === 'ArrowLeft') pan(-0.2);
			else if (k === 'ArrowRight') pan(0.2);
			else if (k === '0') setWindow(T0, T1);
			else if (k === 'f') setFlows(!flowsOn);
			else if (hc.key(k)) { /* c: counters */ }
			else if (search?.key(k)) { /* '/', n, N */ }
			else return false;
			return true;
		},
	};
	canvas.redraw = () => { theme = null; ruler.retheme(); draw(); };
	// The first window is asked once the page holds the timeline and its
	// width is known, then again on every resize: asked before, at a
	// guessed width, it was asked again at once at the real one (two
	// whole-trace answers, the second landing while the page drew the
	// first).
	let lastW = 0, started;
	firstLoad = new Promise((r) => { started = r; });
	new ResizeObserver(() => {
		wrapW = wrap.clientWidth;
		const W = width();
		if (!wrap.isConnected || W === lastW) return;
		const first = !lastW;
		lastW = W;
		draw();
		if (first) started(load().catch((e) => { if (e.name !== 'AbortError') details.textContent = `Could not load the window: ${e.message}`; }));
		else reload();
	}).observe(wrap);
	const reset = el('button', { textContent: 'Whole trace', title: 'Show the whole trace (0)' });
	reset.addEventListener('click', () => setWindow(T0, T1));
	const help = el('span', { className: 'count', textContent: 'W S / wheel zoom · A D / Shift+drag pan (Shift+key: faster) · drag: select an area · f flows · c counters · / search, n N next/previous · click a lane name to collapse it, "pin" to keep it on top' });
	return [el('section', { className: 'timeline' }, el('h2', { textContent: 'Timeline' }),
		el('div', { className: 'tools' }, reset, flowsBtn, ...hc.bar, ...(perfetto ? [dlBtn, perfBtn, perfNote] : []), ...(search ? [search.bar] : []), ...(crit ? crit.tools : []), info, help), ...(search ? [search.panel] : []), wrap, details, area.box)];
}

// The page's keys (+ - arrows 0 f / n N) while a timeline is shown; true when used.
export function timelineKey(k) {
	return !!(active && active.canvas.isConnected && active.key(k));
}
