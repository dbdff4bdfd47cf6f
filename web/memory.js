// memory: the Memory page of a trace, over /api/file/ID/memory (the JSON of
// `gpuprof memory`): the device's allocated and reserved curve (canvas),
// with its peaks marked, zoom (mouse wheel around the pointer, a drag
// selects a window, Reset shows everything), the peaks of every device, the
// per-operator table and the allocation events (`memory?events=1`). A zoom
// puts the window in the hash (`start=NS&end=NS`, ns since the profiler
// start, as the curve's times) and asks the server for the per-operator
// table and the events of that window (`start_ns`/`end_ns`, the CLI's
// `--start/--end`). The curve comes at a level of detail (`points`, the
// CLI's `--curve-points`: each of ~2000 columns keeps its first, last and
// extreme points, so the peaks stay); when it was reduced, a zoom also asks
// for the window's curve at the same detail.

import { fmtBytes, fmtDur } from './fmt.js';
import { dataTable } from './table.js';
import { el } from './dom.js';
import { tickStep, tickLabel } from './timeline_ruler.js';

const COLORS = { allocated_bytes: '#4e79a7', reserved_bytes: '#f28e2b' };
const ZOOM = 0.8; // a wheel step keeps this share of the window
const MIN_SPAN = 1000; // ns
export const CURVE_POINTS = 12000; // 2000 columns of 6 points: more than the canvas has pixels
export const EVENTS_TOP = 50000; // allocation events listed at most (the whole trace of a big run has millions)

// A byte tick step for an axis up to max: 1, 2 or 5 times a power of ten of
// the largest of B, KiB, MiB, GiB, TiB not over max, at most 6 ticks.
function byteStep(max) {
	const units = [[1, 'B'], [1024, 'KiB'], [1024 ** 2, 'MiB'], [1024 ** 3, 'GiB'], [1024 ** 4, 'TiB']];
	let [div, name] = units[0];
	for (const u of units) if (u[0] <= max) [div, name] = u;
	for (let p = 1; ; p *= 10)
		for (const m of [1, 2, 5])
			if (max / (m * p * div) <= 5) return { step: m * p * div, div, name };
}

// The window of the hash, or null: integers, end after start.
export function hashWindow(s) {
	const a = Number(s.start), b = Number(s.end);
	return s.start !== undefined && s.end !== undefined && Number.isInteger(a) && Number.isInteger(b) && b > a ? [a, b] : null;
}

// The time of the first point where key reaches the peak (null: none).
export function peakTime(points, key, peak) {
	if (!peak) return null;
	const p = points.find((q) => q[key] === peak);
	return p ? p.time_ns : null;
}

// points: the whole curve; peaks: {allocated_bytes: T|null, reserved_bytes: T|null};
// win: [a, b] or null; onWindow([a, b] | null) on a zoom.
function zoomCurve(points, peaks, win, onWindow) {
	const canvas = el('canvas', { dataset: { testid: 'memory-curve' } });
	const t0 = points.length ? points[0].time_ns : 0;
	const t1 = points.length ? Math.max(points[points.length - 1].time_ns, t0 + 1) : 1;
	let view = win ? [Math.max(t0, win[0]), Math.min(t1, win[1])] : [t0, t1];
	if (view[1] <= view[0]) view = [t0, t1];
	let drag = null; // {x0, x1} while selecting
	let detail = null; // {a, b, points}: the curve of window [a, b] at full detail
	const pad = { l: 80, r: 20, t: 24, b: 30 };
	const plotW = () => Math.max(1, (canvas.clientWidth || 800) - pad.l - pad.r);
	const T = (x) => view[0] + ((x - pad.l) / plotW()) * (view[1] - view[0]);
	const setAttrs = () => {
		canvas.dataset.start = String(view[0]);
		canvas.dataset.end = String(view[1]);
	};
	const draw = () => {
		const dpr = window.devicePixelRatio || 1;
		const w = canvas.clientWidth || 800, h = canvas.clientHeight || 320;
		canvas.width = w * dpr;
		canvas.height = h * dpr;
		const g = canvas.getContext('2d');
		g.scale(dpr, dpr);
		const css = getComputedStyle(document.documentElement);
		const fg = css.getPropertyValue('--fg').trim(), line = css.getPropertyValue('--line').trim();
		g.clearRect(0, 0, w, h);
		g.font = '12px system-ui, sans-serif';
		g.fillStyle = fg;
		setAttrs();
		if (!points.length) {
			g.fillText('No memory records with totals for this device.', 20, 30);
			canvas.dataset.points = '0';
			return;
		}
		const [a, b] = view;
		// the points in the window and one on each side, so lines reach the
		// edges; inside a window asked at full detail, that window's points
		const fine = detail && detail.a <= a && detail.b >= b;
		let i0 = points.findIndex((p) => p.time_ns >= a);
		if (i0 < 0) i0 = points.length - 1;
		let i1 = points.length - 1;
		while (i1 > 0 && points[i1 - 1].time_ns > b) i1--;
		const vis = fine
			? [...points.slice(Math.max(0, i0 - 1), i0).filter((p) => p.time_ns < detail.a), ...detail.points,
				...points.slice(i1, i1 + 1).filter((p) => p.time_ns > detail.b)]
			: points.slice(Math.max(0, i0 - 1), i1 + 1);
		canvas.dataset.points = String((fine ? detail.points : points).filter((p) => p.time_ns >= a && p.time_ns <= b).length);
		canvas.dataset.detail = fine ? `${detail.a}-${detail.b}` : '';
		const ymax = Math.max(1, ...vis.map((p) => Math.max(p.allocated_bytes ?? 0, p.reserved_bytes ?? 0)));
		const X = (t) => pad.l + ((t - a) / (b - a)) * (w - pad.l - pad.r);
		const Y = (v) => h - pad.b - (v / ymax) * (h - pad.t - pad.b);
		g.strokeStyle = line;
		g.beginPath();
		g.moveTo(pad.l, pad.t);
		g.lineTo(pad.l, h - pad.b);
		g.lineTo(w - pad.r, h - pad.b);
		g.stroke();
		// ticks along both axes: time as the timeline's ruler has it (1-2-5
		// steps, the step's unit), bytes at 1-2-5 steps of the largest binary
		// unit under the top
		const xt = [], yt = [];
		const { step, unit } = tickStep(b - a, w - pad.l - pad.r);
		g.beginPath();
		for (let t = Math.ceil(a / step) * step; t <= b; t += step) {
			const lab = tickLabel(t, unit);
			const xx = X(t), tw = g.measureText(lab).width;
			g.moveTo(xx, h - pad.b); g.lineTo(xx, h - pad.b + 4);
			g.fillText(lab, Math.min(Math.max(xx - tw / 2, pad.l), w - pad.r - tw), h - 8);
			xt.push(lab);
		}
		const ys = byteStep(ymax);
		for (let v = 0; v <= ymax; v += ys.step) {
			const lab = `${(v / ys.div).toLocaleString('en-US')} ${ys.name}`;
			g.moveTo(pad.l - 4, Y(v)); g.lineTo(pad.l, Y(v));
			g.fillText(lab, Math.max(2, pad.l - 6 - g.measureText(lab).width), Math.max(Y(v), pad.t + 4));
			yt.push(lab);
		}
		g.stroke();
		canvas.dataset.xticks = xt.join('|');
		canvas.dataset.yticks = yt.join('|');
		g.save();
		g.beginPath();
		g.rect(pad.l, 0, w - pad.l - pad.r, h);
		g.clip();
		Object.entries(COLORS).forEach(([k, c], n) => {
			g.strokeStyle = c;
			g.beginPath();
			vis.forEach((p, j) => (j ? g.lineTo : g.moveTo).call(g, X(p.time_ns), Y(p[k] ?? 0)));
			g.stroke();
			g.fillStyle = c;
			g.fillText(k === 'allocated_bytes' ? 'Allocated' : 'Reserved', pad.l + 10 + n * 90, pad.t - 8);
			// the peak: a dashed line at its time
			const pt = peaks[k];
			if (pt !== null && pt >= a && pt <= b) {
				g.setLineDash([4, 3]);
				g.beginPath();
				g.moveTo(X(pt), pad.t);
				g.lineTo(X(pt), h - pad.b);
				g.stroke();
				g.setLineDash([]);
				g.fillText('▼ peak', X(pt) + 3, pad.t + 12 + n * 14);
			}
		});
		if (drag) {
			g.fillStyle = 'rgba(36, 87, 197, .2)';
			g.fillRect(Math.min(drag.x0, drag.x1), pad.t, Math.abs(drag.x1 - drag.x0), h - pad.t - pad.b);
		}
		g.restore();
	};
	const set = (a, b) => {
		a = Math.max(t0, Math.round(a));
		b = Math.min(t1, Math.round(b));
		if (b - a < MIN_SPAN) return;
		const whole = a <= t0 && b >= t1;
		view = whole ? [t0, t1] : [a, b];
		draw();
		onWindow(whole ? null : [a, b]);
	};
	const localX = (ev) => ev.clientX - canvas.getBoundingClientRect().left;
	canvas.addEventListener('wheel', (ev) => {
		if (!points.length) return;
		ev.preventDefault();
		const f = ev.deltaY < 0 ? ZOOM : 1 / ZOOM;
		const t = Math.min(view[1], Math.max(view[0], T(localX(ev))));
		set(t - (t - view[0]) * f, t + (view[1] - t) * f);
	}, { passive: false });
	canvas.addEventListener('mousedown', (ev) => {
		if (!points.length || ev.button !== 0) return;
		drag = { x0: localX(ev), x1: localX(ev) };
	});
	canvas.addEventListener('mousemove', (ev) => {
		if (!drag) return;
		drag.x1 = localX(ev);
		draw();
	});
	const finish = (ev) => {
		if (!drag) return;
		const d = drag;
		drag = null;
		if (ev) d.x1 = localX(ev);
		if (Math.abs(d.x1 - d.x0) < 4) { draw(); return; }
		const ta = T(Math.min(d.x0, d.x1)), tb = T(Math.max(d.x0, d.x1));
		set(ta, tb);
	};
	canvas.addEventListener('mouseup', finish);
	canvas.addEventListener('mouseleave', () => { if (drag) { drag = null; draw(); } });
	setAttrs();
	requestAnimationFrame(draw);
	canvas.redraw = draw;
	canvas.setDetail = (a, b, pts) => { detail = { a, b, points: pts }; draw(); };
	canvas.reset = () => set(t0, t1);
	return canvas;
}

// h: the app's { readHash, writeHash, section, tableState, onTableState }.
// Resolves to { kids, search } (search: the table '/' focuses).
// The page of a trace without memory records: what they are and how the
// profiler records them, instead of an empty curve and empty tables.
function noRecords(h) {
	return {
		kids: [h.section('Memory', el('p', { className: 'empty', dataset: { testid: 'memory-empty' },
			textContent: 'This trace has no memory records ([memory] events): the profiler recorded none. torch.profiler.profile(profile_memory=True) records each allocation and release, and this page then shows the memory curve, the peaks and the memory used by each operator.' }))],
		search: null,
	};
}

export async function renderMemoryPage(api, id, s, h) {
	const dev = s.device ? `&device=${encodeURIComponent(s.device)}` : '';
	const winQ = (w) => (w ? `&start_ns=${w[0]}&end_ns=${w[1]}` : '');
	const win = hashWindow(s);
	// the curve and the per-operator table first; the allocation events (a
	// long answer on a big trace) after them, so the page shows sooner
	const [stats, curve] = await Promise.all([
		api(`/api/file/${id}/memory?${dev.slice(1)}${winQ(win)}`.replace('?&', '?')),
		api(`/api/file/${id}/memory?curve=1${dev}&points=${CURVE_POINTS}`),
	]);
	if (!stats.memory.records && !stats.peaks.length) return noRecords(h);
	const points = curve.curve;
	// a zoom refines the curve only when the level of detail left points out
	const reduced = curve.memory.curve_points_all > points.length;
	const device = stats.memory.device;
	const peakRow = stats.peaks.find((p) => p.device === device);
	const peaks = {
		allocated_bytes: peakTime(points, 'allocated_bytes', peakRow?.peak_allocated_bytes),
		reserved_bytes: peakTime(points, 'reserved_bytes', peakRow?.peak_reserved_bytes),
	};

	// the tables of the window, replaced when it changes
	const tables = el('div', { className: 'memory-tables', dataset: { testid: 'memory-tables' } });
	const label = el('span', { className: 'memory-window', dataset: { testid: 'memory-window' } });
	let opsTable = null;
	// ev null: the events are still on their way (data-window says "loading")
	const fill = (w, st, ev) => {
		opsTable = dataTable({ name: 'memory', rows: st.operators, state: h.tableState(s), onState: h.onTableState(s) });
		tables.replaceChildren(
			h.section(`Memory by operator (${device}${w ? ', window' : ''})`, opsTable),
			ev ? h.section(ev.memory.events_all > ev.events.length
				? `Allocation events (the first ${ev.events.length.toLocaleString('en-US')} of ${ev.memory.events_all.toLocaleString('en-US')}; zoom in for a window's)`
				: `Allocation events (${ev.events.length})`, dataTable({ name: 'memory-events', rows: ev.events }))
				: h.section('Allocation events (loading…)'));
		tables.dataset.window = !ev ? 'loading' : w ? `${w[0]}-${w[1]}` : 'all';
		label.textContent = w ? `Window ${fmtDur(w[0])} – ${fmtDur(w[1])} (${fmtDur(w[1] - w[0])})` : 'Whole trace';
	};
	fill(win, stats, null);

	let timer = 0, asked = 0;
	api(`/api/file/${id}/memory?events=1&top=${EVENTS_TOP}${dev}${winQ(win)}`).then((events) => {
		if (!asked && tables.isConnected) fill(win, stats, events); // no zoom since
	}).catch((e) => { if (!asked) label.textContent = `Could not load the allocation events: ${e.message}`; });
	const onWindow = (w) => {
		const cur = h.readHash();
		delete cur.start;
		delete cur.end;
		h.writeHash(w ? { ...cur, start: String(w[0]), end: String(w[1]) } : cur);
		label.textContent = w ? `Window ${fmtDur(w[0])} – ${fmtDur(w[1])} (${fmtDur(w[1] - w[0])})…` : 'Whole trace…';
		tables.dataset.window = 'loading';
		clearTimeout(timer);
		// a burst of wheel steps asks once, for the last window
		timer = setTimeout(async () => {
			const my = ++asked;
			try {
				const [st, ev, cv] = await Promise.all([
					api(`/api/file/${id}/memory?${dev.slice(1)}${winQ(w)}`.replace('?&', '?')),
					api(`/api/file/${id}/memory?events=1&top=${EVENTS_TOP}${dev}${winQ(w)}`),
					reduced && w ? api(`/api/file/${id}/memory?curve=1${dev}&points=${CURVE_POINTS}${winQ(w)}`) : null,
				]);
				if (my === asked && tables.isConnected) {
					fill(w, st, ev);
					if (cv) canvas.setDetail(w[0], w[1], cv.curve);
				}
			} catch (e) {
				if (my === asked) label.textContent = `Could not load the window: ${e.message}`;
			}
		}, 150);
	};
	const canvas = zoomCurve(points, peaks, win, onWindow);
	if (reduced && win) { // a reload of a zoomed page: that window's detail
		api(`/api/file/${id}/memory?curve=1${dev}&points=${CURVE_POINTS}${winQ(win)}`)
			.then((cv) => canvas.setDetail(win[0], win[1], cv.curve)).catch(() => { /* the overview stays */ });
	}

	const devices = stats.peaks.map((p) => p.device);
	const sel = el('select', { dataset: { testid: 'device' } }, ...devices.map((d) => el('option', { value: d, textContent: d, selected: d === device })));
	sel.addEventListener('change', () => h.writeHash({ ...h.readHash(), device: sel.value }, false));
	const reset = el('button', { textContent: 'Reset zoom', title: 'Show the whole curve', dataset: { testid: 'memory-reset' } });
	reset.addEventListener('click', () => canvas.reset());
	const marks = el('div', { className: 'legend memory-peaks' },
		...Object.entries(peaks).filter(([, t]) => t !== null).map(([k, t]) => {
			const what = k === 'allocated_bytes' ? 'allocated' : 'reserved';
			const v = k === 'allocated_bytes' ? peakRow.peak_allocated_bytes : peakRow.peak_reserved_bytes;
			const sw = el('i');
			sw.style.background = COLORS[k];
			return el('span', { dataset: { testid: `memory-peak-${what}`, time: String(t) } }, sw, `Peak ${what} ${fmtBytes(v)} at ${fmtDur(t)}`);
		}));
	return {
		kids: [
			el('div', { className: 'tools' }, el('label', {}, 'Device ', sel), reset, label),
			h.section(`Memory curve (${device})`, canvas, marks,
				el('p', { className: 'hint', textContent: 'Wheel: zoom around the pointer; drag: zoom to a span; Reset: the whole curve.' })),
			h.section('Peaks', dataTable({ name: 'peaks', rows: stats.peaks, search: false })),
			tables,
		],
		search: { focusSearch: () => opsTable?.focusSearch() },
	};
}
