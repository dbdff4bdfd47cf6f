// fleet: the fleet part of the Distributed page (dist.js), from the tables
// `gpuprof dist --fleet` adds to /api/dist?fleet=1: a ranks × steps heat map
// of the step time (Σ of the overlap table's four parts: the step's
// length) or, toggled, of the time waiting for the other ranks (the
// waittime table's synchronizing), drawn on a canvas with its colour
// scale; the stragglers and skew tables; and, where a loaded trace is a
// worker's own (the same worker name as its summary), a click on a
// collective instance of skew opens that call in the trace's timeline (the
// k-th slice named like it, in time order: timeline search's match k + 1;
// a name called in several process groups counts the calls of all).
//
// The heat map: one row per worker (the workers table's order), one column
// per step (numeric order); a cell's colour is its value on a linear scale
// from the smallest to the largest cell (the legend); a cell a worker does
// not have is left blank. Hover shows "WORKER, step N: what V ns (ms)"; the
// canvas takes the focus (Tab) and the arrow keys move a cursor over the
// cells with the same text in a live region. Hash state: heat=wait (absent:
// step time).

import { el } from './dom.js';

const PARTS = ['computation_ns', 'overlap_ns', 'communication_ns', 'other_ns'];
const CELL_W = 56, CELL_H = 22, LEFT = 120, TOP = 22;
// the scale's ends (low, high): a light yellow to a dark red
const LOW = [255, 247, 188], HIGH = [189, 0, 38];

export function heatColour(t) {
	const c = LOW.map((lo, i) => Math.round(lo + (HIGH[i] - lo) * Math.min(1, Math.max(0, t))));
	return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

// {workers, steps, v: Map "worker\tstep" -> ns} of the dist answer d
export function heatData(d, mode) {
	const workers = d.workers.map((w) => w.worker);
	const v = new Map();
	const steps = new Set();
	const rows = mode === 'wait' ? d.waittime : d.overlap;
	for (const r of rows || []) {
		if (!/^\d+$/.test(String(r.step))) continue; // not in a step
		const x = mode === 'wait' ? r.synchronizing_ns : PARTS.reduce((a, k) => a + (r[k] ?? 0), 0);
		v.set(`${r.worker}\t${r.step}`, x);
		steps.add(Number(r.step));
	}
	return { workers, steps: [...steps].sort((a, b) => a - b), v };
}

const nsText = (ns) => `${ns.toLocaleString('en-US')} ns (${(ns / 1e6).toFixed(3)} ms)`;

function heatMap(d, mode, onMode) {
	const { workers, steps, v } = heatData(d, mode);
	const vals = [...v.values()];
	const lo = vals.length ? Math.min(...vals) : 0, hi = vals.length ? Math.max(...vals) : 0;
	const what = mode === 'wait' ? 'waiting for the others' : 'step time';
	const canvas = el('canvas', { tabIndex: 0, role: 'img', ariaLabel: `Heat map of the ${what} per worker and step: ${workers.length} workers, ${steps.length} steps; arrow keys move over the cells` });
	canvas.dataset.testid = 'fleet-heat';
	const w = LEFT + steps.length * CELL_W + 8, h = TOP + workers.length * CELL_H + 4;
	canvas.width = w;
	canvas.height = h;
	Object.assign(canvas.style, { width: `${w}px`, height: `${h}px` }); // not the page's full-width canvases
	Object.assign(canvas.dataset, { left: LEFT, top: TOP, cellW: CELL_W, cellH: CELL_H, workers: workers.join('\n'), steps: steps.join(','), mode });
	const g = canvas.getContext('2d');
	if (g) {
		g.font = '12px sans-serif';
		g.fillStyle = '#333';
		g.textBaseline = 'middle';
		steps.forEach((s, j) => { g.textAlign = 'center'; g.fillText(String(s), LEFT + j * CELL_W + CELL_W / 2, TOP / 2); });
		workers.forEach((wk, i) => {
			g.textAlign = 'right';
			g.fillStyle = '#333';
			g.fillText(wk.length > 16 ? `${wk.slice(0, 15)}…` : wk, LEFT - 6, TOP + i * CELL_H + CELL_H / 2);
			steps.forEach((s, j) => {
				const x = v.get(`${wk}\t${s}`);
				if (x === undefined) return;
				g.fillStyle = heatColour(hi > lo ? (x - lo) / (hi - lo) : 0);
				g.fillRect(LEFT + j * CELL_W + 1, TOP + i * CELL_H + 1, CELL_W - 2, CELL_H - 2);
			});
		});
	}
	const tip = el('div', { className: 'fleet-tip', hidden: true });
	tip.dataset.testid = 'fleet-heat-tip';
	const live = el('p', { className: 'fleet-cursor', ariaLive: 'polite' });
	live.dataset.testid = 'fleet-heat-cursor';
	const text = (i, j) => {
		const x = v.get(`${workers[i]}\t${steps[j]}`);
		return `${workers[i]}, step ${steps[j]}: ${what} ${x === undefined ? 'none' : nsText(x)}`;
	};
	const cellAt = (ev) => {
		const r = canvas.getBoundingClientRect();
		const x = (ev.clientX - r.left) * (canvas.width / r.width), y = (ev.clientY - r.top) * (canvas.height / r.height);
		const j = Math.floor((x - LEFT) / CELL_W), i = Math.floor((y - TOP) / CELL_H);
		return i >= 0 && i < workers.length && j >= 0 && j < steps.length ? [i, j] : null;
	};
	canvas.addEventListener('mousemove', (ev) => {
		const c = cellAt(ev);
		tip.hidden = !c;
		if (!c) return;
		tip.textContent = text(c[0], c[1]);
		tip.style.left = `${ev.offsetX + 14}px`;
		tip.style.top = `${ev.offsetY + 10}px`;
	});
	canvas.addEventListener('mouseleave', () => { tip.hidden = true; });
	let cur = null;
	canvas.addEventListener('keydown', (ev) => {
		const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
		const m = moves[ev.key];
		if (!m || !workers.length || !steps.length) return;
		ev.preventDefault();
		ev.stopPropagation(); // the page's own keys (views, timeline) stay out
		cur = cur ? [Math.min(workers.length - 1, Math.max(0, cur[0] + m[0])), Math.min(steps.length - 1, Math.max(0, cur[1] + m[1]))] : [0, 0];
		live.textContent = text(cur[0], cur[1]);
		canvas.dataset.cursor = cur.join(',');
	});
	// the legend: the scale from the smallest to the largest cell
	const legend = el('canvas', { width: 200, height: 12, role: 'img', ariaLabel: `colour scale from ${lo} to ${hi} ns` });
	legend.dataset.testid = 'fleet-heat-legend';
	Object.assign(legend.style, { width: '200px', height: '12px' });
	const lg = legend.getContext('2d');
	if (lg) for (let x = 0; x < 200; x++) { lg.fillStyle = heatColour(x / 199); lg.fillRect(x, 0, 1, 12); }
	const lowText = el('span', { textContent: nsText(lo) }), highText = el('span', { textContent: nsText(hi) });
	lowText.dataset.testid = 'fleet-heat-low';
	highText.dataset.testid = 'fleet-heat-high';
	const toggle = el('button', { type: 'button', textContent: mode === 'wait' ? 'Show step time' : 'Show waiting time' });
	toggle.dataset.testid = 'fleet-heat-toggle';
	toggle.addEventListener('click', () => onMode(mode === 'wait' ? undefined : 'wait'));
	return el('div', { className: 'fleet-heat' },
		el('div', { className: 'tools' }, toggle, el('span', { className: 'fleet-legend' }, lowText, legend, highText)),
		el('div', { className: 'fleet-canvas' }, canvas, tip), live);
}

// traces: the loaded traces [{id, name}]; a worker's trace is the one the
// distributed view would name like it (its base name without .json, .gz
// and .pt.trace)
export function traceIds(traces) {
	const m = new Map();
	for (const f of traces) m.set(String(f.name).replace(/\.gz$/, '').replace(/\.json$/, '').replace(/\.pt\.trace$/, ''), f.id);
	return m;
}

// The hash of instance r's call in worker's trace (id), or null.
export function instanceHash(r, worker, ids) {
	const id = ids.get(worker);
	return id === undefined ? null : `file=${id}&view=timeline&find=${encodeURIComponent(r.name)}&match=${r.call + 1}`;
}

// The fleet sections of the page: {kids, tables: {name: dataTable}}.
// table(name, rows, tools, onOpen) makes the page's tables.
export function fleetSections(d, s, traces, { table, section, writeHash, now }) {
	if (!d.stragglers) return { kids: [], tables: {} };
	const mode = s.heat === 'wait' ? 'wait' : 'step';
	const heat = heatMap(d, mode, (m) => writeHash({ ...now(), heat: m }, false));
	const ids = traceIds(traces);
	// a click (or Enter) on an instance opens the call in the trace of the
	// rank that arrived last, else of the first one, when it is loaded
	const open = (r) => {
		const h = instanceHash(r, r.last, ids) || instanceHash(r, r.first, ids);
		if (h) location.hash = h;
	};
	const linked = traces.length ? el('p', { className: 'dist-message', textContent: `A click on an instance opens that call in the trace of the rank that arrived last (${[...ids.keys()].join(', ')} loaded).` }) : null;
	if (linked) linked.dataset.testid = 'fleet-links';
	const tables = {
		'dist-stragglers': table('dist-stragglers', d.stragglers),
		'dist-skew': table('dist-skew', d.skew || [], undefined, open),
	};
	return {
		kids: [
			section(mode === 'wait' ? 'Waiting for the other ranks, per worker and step' : 'Step time per worker and step', heat),
			section('Stragglers: who the others waited for', tables['dist-stragglers']),
			section('Skew of the collective instances, the worst first', ...[linked, tables['dist-skew']].filter(Boolean)),
		],
		tables,
	};
}
