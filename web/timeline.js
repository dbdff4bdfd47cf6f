// timeline: the Timeline page of the viewer over /api/file/ID/timeline
// (views/view_timeline.c): one canvas lane per track (process / thread or
// stream), a row per nesting depth; events at least a pixel wide are drawn
// one by one, shorter ones come from the server merged per pixel column
// (count, busy time). Mouse wheel zooms around the pointer, a drag pans,
// + / - zoom and the arrow keys pan; every change asks the server for the
// visible window again. A click shows the event's details. State in the
// hash: start=NS&end=NS (from the trace's start, as the API takes them).

import { fmtDur } from './fmt.js';

const el = (tag, { dataset, ...props } = {}, ...kids) => {
	const e = Object.assign(document.createElement(tag), props);
	Object.assign(e.dataset, dataset || {});
	e.append(...kids);
	return e;
};

const ROW = 16, HEAD = 18, MIN_NS = 10;
let active = null; // the timeline on the page, for the keys

function hue(name) {
	let h = 0;
	for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
	return h % 360;
}

function laneName(l) {
	const p = l.process || `pid ${l.pid}`;
	const t = l.thread || `tid ${l.tid}`;
	return `${p} / ${t}`;
}

export async function renderTimeline(api, id, s, writeHash) {
	const first = await api(`/api/file/${id}/timeline?px=1`); // the trace's span
	// times are relative to the trace's start (its clock may exceed 2^53 ns)
	const T0 = 0, T1 = Math.max(first.timeline.end_ns, 1);
	let start = Number.isFinite(+s.start) && s.start !== undefined && s.start !== '' ? +s.start : T0;
	let end = Number.isFinite(+s.end) && s.end !== undefined && s.end !== '' ? +s.end : T1;
	if (!(end > start)) { start = T0; end = T1; }
	const canvas = el('canvas', { tabIndex: 0, dataset: { testid: 'timeline-canvas' } });
	const info = el('div', { className: 'kmeta', dataset: { testid: 'timeline-window' } });
	const details = el('div', { className: 'tl-details', dataset: { testid: 'timeline-details' }, textContent: 'Click an event for its details.' });
	const wrap = el('div', { className: 'tl-wrap' }, canvas);
	let data = null, hits = [], seq = 0, timer = null;

	const width = () => Math.max(100, Math.floor(wrap.clientWidth || 1000));
	const x = (ns, W) => (ns - start) / (end - start) * W;

	function draw() {
		const W = width();
		const lanes = data ? data.lanes : [];
		const H = Math.max(40, lanes.reduce((h, l) => h + HEAD + Math.max(1, l.depths) * ROW, 0));
		const dpr = window.devicePixelRatio || 1;
		canvas.width = W * dpr; canvas.height = H * dpr;
		canvas.style.width = `${W}px`; canvas.style.height = `${H}px`;
		const g = canvas.getContext('2d');
		g.setTransform(dpr, 0, 0, dpr, 0, 0);
		const cs = getComputedStyle(document.documentElement);
		const fg = cs.getPropertyValue('--fg').trim() || '#222', muted = cs.getPropertyValue('--muted').trim() || '#888';
		g.clearRect(0, 0, W, H);
		g.font = '11px sans-serif';
		g.textBaseline = 'middle';
		hits = [];
		let y = 0;
		for (const l of lanes) {
			g.fillStyle = fg;
			g.fillText(`${laneName(l)} · ${l.events} events · busy ${fmtDur(l.busy_ns)}`, 4, y + HEAD / 2);
			const top = y + HEAD;
			for (const it of l.items) {
				const ry = top + it.depth * ROW;
				if (it.type === 'event') {
					const x0 = Math.max(0, x(it.ts, W)), x1 = Math.min(W, x(it.ts + it.dur, W));
					const w = Math.max(1, x1 - x0);
					g.fillStyle = `hsl(${hue(it.name)} 55% 60%)`;
					g.fillRect(x0, ry + 1, w, ROW - 2);
					if (w > 30) {
						g.save();
						g.beginPath(); g.rect(x0, ry, w, ROW); g.clip();
						g.fillStyle = '#111';
						g.fillText(it.name, x0 + 3, ry + ROW / 2);
						g.restore();
					}
					hits.push({ x0, x1: x0 + w, y0: ry, y1: ry + ROW, it, lane: l });
				} else {
					const x0 = Math.max(0, x(it.ts, W)), x1 = Math.min(W, x(it.end, W));
					const w = Math.max(1, x1 - x0);
					g.globalAlpha = 0.35 + 0.65 * Math.min(1, it.busy_ns / Math.max(1, it.end - it.ts));
					g.fillStyle = muted;
					g.fillRect(x0, ry + 1, w, ROW - 2);
					g.globalAlpha = 1;
					hits.push({ x0, x1: x0 + w, y0: ry, y1: ry + ROW, it, lane: l });
				}
			}
			y = top + Math.max(1, l.depths) * ROW;
		}
		canvas.dataset.lanes = String(lanes.length);
		canvas.dataset.items = String(lanes.reduce((n, l) => n + l.items.length, 0));
		info.textContent = `${fmtDur(start - T0)} – ${fmtDur(end - T0)} (${fmtDur(end - start)} shown)${data?.truncated ? ' · truncated' : ''}`;
	}

	async function load() {
		const my = ++seq;
		const W = width();
		const d = await api(`/api/file/${id}/timeline?start_ns=${Math.round(start)}&end_ns=${Math.round(end)}&px=${W}`);
		if (my !== seq) return;
		data = d;
		canvas.dataset.start = String(d.timeline.start_ns);
		canvas.dataset.end = String(d.timeline.end_ns);
		draw();
	}

	function setWindow(a, b) {
		let span = Math.max(MIN_NS, b - a);
		const full = T1 - T0;
		if (span > full) span = full;
		a = Math.min(Math.max(a, T0), T1 - span);
		start = Math.round(a); end = Math.round(a + span);
		writeHash({ ...s, start: String(start), end: String(end) });
		draw();
		clearTimeout(timer);
		timer = setTimeout(() => load().catch(() => {}), 80);
	}
	const zoom = (f, at) => { const c = start + (end - start) * at; setWindow(c - (c - start) * f, c + (end - c) * f); };
	const pan = (frac) => { const d = (end - start) * frac; setWindow(start + d, end + d); };

	canvas.addEventListener('wheel', (ev) => {
		ev.preventDefault();
		const r = canvas.getBoundingClientRect();
		zoom(ev.deltaY < 0 ? 0.8 : 1.25, (ev.clientX - r.left) / r.width);
	}, { passive: false });
	let drag = null;
	canvas.addEventListener('mousedown', (ev) => { drag = { x: ev.clientX, start, end, moved: false }; });
	addEventListener('mouseup', () => { setTimeout(() => { drag = null; }, 0); });
	canvas.addEventListener('mousemove', (ev) => {
		if (!drag || !(ev.buttons & 1)) return;
		const dx = ev.clientX - drag.x;
		if (Math.abs(dx) > 2) drag.moved = true;
		if (!drag.moved) return;
		const d = -dx / width() * (drag.end - drag.start);
		setWindow(drag.start + d, drag.end + d);
	});
	canvas.addEventListener('click', (ev) => {
		if (drag?.moved) return;
		const r = canvas.getBoundingClientRect();
		const px = ev.clientX - r.left, py = ev.clientY - r.top;
		const h = hits.find((b) => px >= b.x0 - 1 && px <= b.x1 + 1 && py >= b.y0 && py < b.y1);
		if (!h) return;
		const it = h.it;
		details.replaceChildren(it.type === 'event'
			? el('div', { dataset: { testid: 'timeline-event' }, textContent: `${it.name} · ${it.kind} · start ${fmtDur(it.ts - T0)} · duration ${fmtDur(it.dur)} · depth ${it.depth} · row ${it.row} · ${laneName(h.lane)}` })
			: el('div', { dataset: { testid: 'timeline-event' }, textContent: `${it.count} short events merged · ${fmtDur(it.ts - T0)} – ${fmtDur(it.end - T0)} · busy ${fmtDur(it.busy_ns)} · depth ${it.depth} · ${laneName(h.lane)} (zoom in to see them)` }));
	});
	active = {
		canvas, key(k) {
			if (k === '+' || k === '=') zoom(0.5, 0.5);
			else if (k === '-' || k === '_') zoom(2, 0.5);
			else if (k === 'ArrowLeft') pan(-0.2);
			else if (k === 'ArrowRight') pan(0.2);
			else if (k === '0') setWindow(T0, T1);
			else return false;
			return true;
		},
	};
	canvas.redraw = draw;
	// the first answer is asked before the page is laid out: ask again at
	// the real width (and on every resize)
	let lastW = 0;
	new ResizeObserver(() => {
		const W = width();
		if (!wrap.isConnected || W === lastW) return;
		lastW = W;
		draw();
		clearTimeout(timer);
		timer = setTimeout(() => load().catch(() => {}), 80);
	}).observe(wrap);
	await load().catch((e) => { details.textContent = `Could not load the window: ${e.message}`; });
	const reset = el('button', { textContent: 'Whole trace', title: 'Show the whole trace (0)' });
	reset.addEventListener('click', () => setWindow(T0, T1));
	const help = el('span', { className: 'count', textContent: 'wheel / + − zoom · drag / ← → pan' });
	return [el('section', { className: 'timeline' }, el('h2', { textContent: 'Timeline' }),
		el('div', { className: 'tools' }, reset, info, help), wrap, details)];
}

// The page's keys (+ - arrows 0) while a timeline is shown; true when used.
export function timelineKey(k) {
	return !!(active && active.canvas.isConnected && active.key(k));
}
