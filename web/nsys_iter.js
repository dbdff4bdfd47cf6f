// nsys_iter: the per-iteration NVTX analysis of Nsight Systems in the
// viewer: the JSON of `gpuprof nsys analyze` (analysis.json schema 1, from
// /api/file/ID/nsys/analysis for an analysis file or a run directory) or of
// `gpuprof nsys FILE steps` (/api/file/ID/nsys/steps?capture_range=&
// iterations= for an SQLite export). Shows the iteration table (host
// inclusive/exclusive/child time, GPU-projected time and operations; CSV),
// the iteration summary exactly as the JSON has it, a histogram of the
// iteration durations (host inclusive and GPU projected side by side, SVG),
// the named ranges (a range selector with its summaries, and the host and
// GPU range tables), the warnings and the provenance. Host and GPU times
// are different clocks: they are shown side by side, never added.
//
// Histogram bins (the browser test recomputes them from the JSON): n =
// number of iterations, bins = min(20, max(1, ceil(sqrt(n)))); lo and hi =
// the smallest and largest of all host inclusive and GPU projected values;
// a value v falls in bin min(bins - 1, floor((v - lo) * bins / (hi - lo)))
// (bin 0 when hi == lo); a bar's height is count / (largest count) * 160.
//
// State in the hash: cr, iters (an export's capture range and iteration
// count), range (the selected range), table with its sort, dir, q.

import { fmtDur } from './fmt.js';
import { dataTable } from './table.js';
import { el } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const HOST_COLOR = '#4e79a7', GPU_COLOR = '#f28e2b';
export const HIST_HEIGHT = 160;

const svgEl = (tag, attrs) => {
	const e = document.createElementNS(SVG, tag);
	for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
	return e;
};
// a number exactly as JSON.parse gave it (the shortest round-trip text)
const exact = (v) => (v === null || v === undefined ? '-' : String(v));

// The iteration table's rows: one per iteration, null where a side is missing.
export function iterationRows(d) {
	return d.iterations.map((it) => ({
		index: it.index,
		host_inclusive_ns: it.host?.inclusive_ns ?? null,
		host_exclusive_ns: it.host?.exclusive_ns ?? null,
		host_child_ns: it.host?.child_total_ns ?? null,
		gpu_projected_ns: it.gpu_projection?.projected_ns ?? null,
		gpu_operations: it.gpu_projection?.gpu_operation_count ?? null,
		gpu_host_range_ns: it.gpu_projection?.host_range_total_ns ?? null,
	}));
}

// {bins: [{lo, hi, host, gpu}], max} by the rule in the header.
export function histogram(d) {
	const host = d.iterations.filter((i) => i.host).map((i) => i.host.inclusive_ns);
	const gpu = d.iterations.filter((i) => i.gpu_projection).map((i) => i.gpu_projection.projected_ns);
	const all = [...host, ...gpu];
	if (!all.length) return { bins: [], max: 0 };
	const n = Math.min(20, Math.max(1, Math.ceil(Math.sqrt(d.iterations.length))));
	const lo = Math.min(...all), hi = Math.max(...all);
	const bins = Array.from({ length: n }, (_, i) => ({ lo: lo + ((hi - lo) * i) / n, hi: lo + ((hi - lo) * (i + 1)) / n, host: 0, gpu: 0 }));
	const at = (v) => (hi === lo ? 0 : Math.min(n - 1, Math.floor(((v - lo) * n) / (hi - lo))));
	host.forEach((v) => bins[at(v)].host++);
	gpu.forEach((v) => bins[at(v)].gpu++);
	return { bins, max: Math.max(1, ...bins.map((b) => Math.max(b.host, b.gpu))) };
}

function histogramChart(d) {
	const { bins, max } = histogram(d);
	if (!bins.length) return el('p', { className: 'empty', textContent: 'No iterations.' });
	const W = 760, padL = 40, padB = 34, top = 10, H = HIST_HEIGHT;
	const bw = (W - padL) / bins.length;
	const svg = svgEl('svg', { viewBox: `0 0 ${W} ${H + top + padB}`, width: '100%', role: 'img', 'aria-label': 'Histogram of iteration durations, host and GPU' });
	svg.dataset.testid = 'nsys-iter-hist';
	svg.classList.add('nsys-hist');
	svg.append(svgEl('line', { x1: padL, y1: top + H, x2: W, y2: top + H, stroke: 'currentColor', 'stroke-width': 1 }));
	const yl = svgEl('text', { x: padL - 6, y: top + 10, 'text-anchor': 'end', fill: 'currentColor', 'font-size': 11 });
	yl.textContent = String(max);
	svg.append(yl);
	bins.forEach((b, i) => {
		const x0 = padL + i * bw;
		[['host', HOST_COLOR, b.host], ['gpu', GPU_COLOR, b.gpu]].forEach(([series, color, count], j) => {
			const h = (count / max) * H;
			const r = svgEl('rect', { x: x0 + bw * 0.1 + j * bw * 0.4, y: top + H - h, width: bw * 0.4, height: h, fill: color });
			r.dataset.series = series;
			r.dataset.bin = i;
			r.dataset.count = count;
			const t = svgEl('title', {});
			t.textContent = `${series === 'host' ? 'Host inclusive' : 'GPU projected'}: ${count} iteration${count === 1 ? '' : 's'} in [${fmtDur(Math.round(b.lo))}, ${fmtDur(Math.round(b.hi))}${i === bins.length - 1 ? ']' : ')'}`;
			r.append(t);
			svg.append(r);
		});
	});
	const label = (x, anchor, text) => {
		const t = svgEl('text', { x, y: top + H + 16, 'text-anchor': anchor, fill: 'currentColor', 'font-size': 11 });
		t.textContent = text;
		svg.append(t);
	};
	label(padL, 'start', fmtDur(bins[0].lo));
	label(W, 'end', fmtDur(bins[bins.length - 1].hi));
	// colours through the CSSOM: the page's CSP refuses style attributes
	const legend = el('div', { className: 'legend' },
		el('span', {}, el('i'), 'Host inclusive (CPU clock)'),
		el('span', {}, el('i'), 'GPU projected (GPU clock)'));
	legend.querySelectorAll('i').forEach((i, k) => { i.style.background = k ? GPU_COLOR : HOST_COLOR; });
	return el('div', {}, svg, legend);
}

const STATS = ['total_ns', 'mean_ns', 'median_ns', 'minimum_ns', 'maximum_ns', 'stddev_ns'];
const STAT_TITLES = ['Total', 'Mean', 'Median', 'Min', 'Max', 'Std dev'];

// rows: [label, count, summary object or null]; the cells are the JSON's numbers as they are
function summaryTable(testid, countTitle, rows) {
	const t = el('table', { className: 'data nsys-summary', dataset: { testid } });
	const head = t.createTHead().insertRow();
	for (const h of ['', countTitle, ...STAT_TITLES.map((s) => `${s} (ns)`)]) {
		const th = el('th', { textContent: h });
		if (h) th.className = 'num';
		head.append(th);
	}
	const body = t.createTBody();
	for (const [label, count, sum] of rows) {
		const tr = body.insertRow();
		tr.dataset.measure = label;
		tr.insertCell().textContent = label;
		for (const v of [count, ...STATS.map((k) => (sum ? sum[k] : null))]) {
			const td = tr.insertCell();
			td.className = 'num';
			td.textContent = exact(v);
			if (typeof v === 'number' && v >= 1000) td.title = fmtDur(Math.round(v));
		}
	}
	return el('div', { className: 'table-wrap' }, t);
}

function kvTable(testid, pairs) {
	const t = el('table', { className: 'kv', dataset: { testid } });
	for (const [k, v] of pairs) {
		const text = v === null || v === undefined ? '-' : typeof v === 'object' ? JSON.stringify(v) : String(v);
		t.append(el('tr', {}, el('th', { textContent: k }), el('td', { textContent: text })));
	}
	return t;
}

function rangePanel(d, s, writeHash) {
	const names = [...new Set([...d.host_ranges.map((r) => r.name), ...d.gpu_projected_ranges.map((r) => r.name)])].sort();
	if (!names.length) return el('p', { className: 'empty', textContent: 'No named ranges.' });
	const chosen = names.includes(s.range) ? s.range : names[0];
	const sel = el('select', { dataset: { testid: 'nsys-range-select' }, title: 'Range' },
		...names.map((n) => el('option', { value: n, textContent: n, selected: n === chosen })));
	sel.addEventListener('change', () => writeHash({ ...s, range: sel.value }, false));
	const h = d.host_ranges.find((r) => r.name === chosen);
	const g = d.gpu_projected_ranges.find((r) => r.name === chosen);
	const extra = [];
	if (h) extra.push(`host child total ${exact(h.child_total_ns)} ns`);
	if (g) extra.push(`GPU: ${exact(g.gpu_operation_count)} operations, style ${g.style}, host total ${exact(g.host_total_ns)} ns`);
	return el('div', {},
		el('div', { className: 'tools' }, el('label', {}, 'Range ', sel)),
		summaryTable('nsys-range-summary', 'Instances', [
			['Host inclusive', h ? h.instances : null, h?.inclusive ?? null],
			['Host exclusive', h ? h.instances : null, h?.exclusive ?? null],
			['GPU projected', g ? g.instances : null, g?.projected ?? null],
		]),
		el('p', { className: 'nsys-range-extra', textContent: extra.join('; ') }));
}

const flatHost = (r) => ({ name: r.name, instances: r.instances,
	...Object.fromEntries(STATS.map((k) => [`inclusive_${k}`, r.inclusive[k]])),
	...Object.fromEntries(STATS.map((k) => [`exclusive_${k}`, r.exclusive[k]])), child_total_ns: r.child_total_ns });
const flatGpu = (r) => ({ name: r.name, style: r.style, instances: r.instances,
	...Object.fromEntries(STATS.map((k) => [`projected_${k}`, r.projected[k]])),
	host_total_ns: r.host_total_ns, gpu_operations: r.gpu_operation_count });

// The sections of an analysis d.
function analysisSections(d, s, writeHash, section) {
	const sum = d.iteration_summary;
	const tableOf = (name, rows) => dataTable({ name, rows,
		state: s.table === name ? { sort: s.sort || '', dir: s.dir || 'desc', q: s.q || '' } : {},
		onState: (st) => writeHash({ ...s, table: name, sort: st.sort, dir: st.dir, q: st.q }) });
	const iters = tableOf('nsys-iterations', iterationRows(d));
	const prov = d.provenance || {};
	const run = d.run || {};
	const kids = [
		el('div', { className: 'cards' },
			...[['Iterations', sum.iterations, 'iterations'], ['With host ranges', sum.host_iterations, 'host-iterations'],
				['With GPU projections', sum.gpu_projected_iterations, 'gpu-iterations']].map(([label, v, id]) =>
				el('div', { className: 'card' }, el('div', { className: 'label', textContent: label }),
					el('div', { className: 'value', textContent: String(v), dataset: { testid: `nsys-card-${id}` } })))),
		section('Warnings', d.warnings.length
			? el('ul', { className: 'nsys-warnings', dataset: { testid: 'nsys-warnings' } }, ...d.warnings.map((w) => el('li', { textContent: w })))
			: el('p', { className: 'empty', textContent: 'None.', dataset: { testid: 'nsys-warnings' } })),
		section('Iteration summary (ns; host and GPU clocks differ: compare, never add)', summaryTable('nsys-iter-summary', 'Iterations', [
			['Host inclusive', sum.host_iterations, sum.host_inclusive],
			['Host exclusive', sum.host_iterations, sum.host_exclusive],
			['GPU projected', sum.gpu_projected_iterations, sum.gpu_projected],
		])),
		section('Iteration durations: host inclusive vs GPU projected', histogramChart(d)),
		section('Iterations', iters),
		section('Ranges below the iterations (scoped names)', rangePanel(d, s, writeHash)),
		section('Host ranges', tableOf('nsys-host-ranges', d.host_ranges.map(flatHost))),
		section('GPU-projected ranges', tableOf('nsys-gpu-ranges', d.gpu_projected_ranges.map(flatGpu))),
		section('Provenance', kvTable('nsys-provenance', [
			['Nsight Systems version', prov.nsys_version], ['Manifest', prov.manifest_path], ['Trace', prov.trace_path],
			...Object.entries(prov.reports || {}).map(([k, v]) => [`Report ${k}`, v]),
			...Object.entries(run).map(([k, v]) => [`run.${k}`, v]),
			['Schema version', d.schema_version],
		])),
	];
	return { kids, search: iters };
}

// The page of an analysis file (exportForm false) or the Iterations part
// of an export's page (its capture range and iteration count as inputs).
export async function renderNsysIter(api, id, s, writeHash, section, isExport) {
	if (!isExport) return analysisSections(await api(`/api/file/${id}/nsys/analysis`), s, writeHash, section);
	const q = new URLSearchParams();
	if (s.cr) q.set('capture_range', s.cr);
	if (s.iters) q.set('iterations', s.iters);
	const cr = el('input', { type: 'text', value: s.cr || '', placeholder: 'profile-target', dataset: { testid: 'nsys-capture-range' } });
	const its = el('input', { type: 'number', min: 0, value: s.iters || '', placeholder: 'any', dataset: { testid: 'nsys-iterations-input' } });
	const go = el('button', { type: 'submit', textContent: 'Analyse', dataset: { testid: 'nsys-analyse' } });
	const form = el('form', { className: 'tools nsys-iter-form' },
		el('label', {}, 'Capture range ', cr), el('label', {}, 'Expected iterations ', its), go);
	form.addEventListener('submit', (ev) => {
		ev.preventDefault();
		writeHash({ ...s, cr: cr.value.trim(), iters: its.value.trim() }, false);
	});
	let d;
	try {
		const qs = q.toString();
		d = await api(`/api/file/${id}/nsys/steps${qs ? '?' + qs : ''}`);
	} catch (e) {
		return { kids: [section('Iterations', form, el('p', { className: 'empty', textContent: `No iteration analysis: ${e.message}`, dataset: { testid: 'nsys-iter-error' } }))], search: null };
	}
	const r = analysisSections(d, s, writeHash, section);
	return { kids: [section('Iterations (gpuprof nsys FILE steps)', form), ...r.kids], search: r.search };
}
