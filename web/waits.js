// waits: the GPU waits page of a trace, over /api/file/ID/idle?show_intervals=1
// and /api/file/ID/launches (the JSON of `gpuprof idle --show-intervals` and
// `gpuprof launches`): the temporal breakdown (cards and one bar), one
// stacked bar per stream of its idle time by category (host wait, kernel
// wait, other; negative sums, from overlapping work, are left out of the
// bar and stay in the table), the idle and interval tables, then the
// launches: their counts, the CPU/GPU/delay statistics, the largest delays
// and the ATen op -> kernel sequences. State in the hash: sort, dir, q (the
// largest-delays table). Then where the host waits for the device
// (/api/file/ID/sync: `gpuprof sync`): its cards and the call sites; and
// the FLOPs of the matrix and attention calls (/api/file/ID/flops?top=0:
// `gpuprof flops`) as a roofline: log-log, FLOP/B across, TFLOP/s up, a
// point per row, and for a GPU of the peak table its memory slope and its
// compute ceilings. Then HTA's critical path of the first step
// (/api/file/ID/critical-path: `gpuprof critical-path`): its time by bound
// type. Last, the kernel sequences of the steps (/api/file/ID/sequences:
// `gpuprof sequences`), a pattern of more than six names shown as its
// first six and how many more.

import { fmt, fmtDur } from './fmt.js';
import { dataTable } from './table.js';
import { el, svgEl } from './dom.js';

const CAT_COLORS = { host_wait: '#e15759', kernel_wait: '#f28e2b', other: '#bab0ac' };
const TEMPORAL = [['idle_time_ns', 'Idle', '#bab0ac'], ['compute_time_ns', 'Compute', '#4e79a7'],
	['non_compute_time_ns', 'Non-compute', '#59a14f']];

function card(label, value, testid) {
	return el('div', { className: 'card' }, el('div', { className: 'label', textContent: label }),
		el('div', { className: 'value', textContent: value, dataset: { testid } }));
}

// One horizontal bar of parts [{key, label, color, v}] scaled to max.
function bar(parts, max, label, testid) {
	const W = 1000, H = 24, labelW = 110;
	const svg = svgEl('svg', { viewBox: `0 0 ${W + labelW} ${H}`, width: '100%', role: 'img', 'aria-label': label });
	svg.dataset.testid = testid;
	const t = svgEl('text', { x: labelW - 8, y: H * 0.7, 'text-anchor': 'end', fill: 'currentColor', 'font-size': 12 });
	t.textContent = label;
	svg.append(t);
	let x = labelW;
	for (const p of parts) {
		const w = max > 0 ? (W * Math.max(0, p.v)) / max : 0;
		const r = svgEl('rect', { x, y: 2, width: w, height: H - 4, fill: p.color });
		r.dataset.part = p.key;
		const tip = svgEl('title', {});
		tip.textContent = `${p.label}: ${fmtDur(p.v)}`;
		r.append(tip);
		svg.append(r);
		x += w;
	}
	return svg;
}

function legend(items) {
	return el('div', { className: 'legend' }, ...items.map(([text, color]) =>
		el('span', {}, el('i', { style: `background:${color}` }), text)));
}

function temporalPart(t) {
	if (!t) return [el('p', { className: 'empty', textContent: 'No device work with a stream.' })];
	const parts = TEMPORAL.map(([k, label, color]) => ({ key: k, label, color, v: t[k] }));
	return [
		el('div', { className: 'cards' },
			card('GPU time (first start to last end)', fmt('kernel_time_ns', t.kernel_time_ns), 'card-kernel-time'),
			card('Idle', fmt('idle_time_pct', t.idle_time_pct), 'card-idle'),
			card('Compute', fmt('compute_time_pct', t.compute_time_pct), 'card-compute'),
			card('Non-compute', fmt('non_compute_time_pct', t.non_compute_time_pct), 'card-non-compute')),
		bar(parts, t.kernel_time_ns, `Rank ${t.rank}`, 'temporal-chart'),
		legend(TEMPORAL.map(([, label, color]) => [label, color])),
	];
}

function streamBars(rows) {
	const streams = [...new Set(rows.map((r) => r.stream))];
	const sums = streams.map((s) => rows.filter((r) => r.stream === s));
	const max = Math.max(0, ...sums.map((rs) => rs.reduce((a, r) => a + Math.max(0, r.idle_time_ns), 0)));
	const box = el('div', { dataset: { testid: 'idle-chart' } },
		...sums.map((rs, i) => bar(rs.map((r) => ({ key: r.idle_category, label: r.idle_category.replace('_', ' '),
			color: CAT_COLORS[r.idle_category], v: r.idle_time_ns })), max, `Stream ${streams[i]}`, `idle-stream-${streams[i]}`)));
	return [box, legend(Object.entries(CAT_COLORS).map(([k, c]) => [k.replace('_', ' '), c]))];
}

const LOG = (v) => Math.log10(v);

// The roofline of rows (gpuprof flops' ops) with the GPU's summary.
function roofline(rows, summary) {
	const W = 640, H = 360, L = 60, B = 40;
	const pts = rows.filter((r) => r.flops_per_byte > 0 && r.tflops_s_mean > 0);
	const peaks = [...new Set(rows.map((r) => r.peak_tflops_s).filter((p) => p > 0))];
	const xs = pts.map((r) => r.flops_per_byte), ys = pts.map((r) => r.tflops_s_mean).concat(peaks);
	const x0 = Math.floor(LOG(Math.min(...xs, 1))), x1 = Math.ceil(LOG(Math.max(...xs, 1000)));
	const y0 = Math.floor(LOG(Math.min(...ys, 1))), y1 = Math.ceil(LOG(Math.max(...ys, 1)));
	const X = (v) => L + ((LOG(v) - x0) / (x1 - x0)) * (W - L - 10);
	const Y = (v) => H - B - ((LOG(v) - y0) / (y1 - y0)) * (H - B - 10);
	const svg = svgEl('svg', { viewBox: `0 0 ${W} ${H}`, width: '100%', role: 'img', 'aria-label': 'Roofline' });
	svg.dataset.testid = 'roofline';
	for (let e = x0; e <= x1; e++) {
		const t = svgEl('text', { x: X(10 ** e), y: H - B + 16, 'text-anchor': 'middle', fill: 'currentColor', 'font-size': 11 });
		t.textContent = `1e${e}`;
		svg.append(t);
	}
	for (let e = y0; e <= y1; e++) {
		const t = svgEl('text', { x: L - 6, y: Y(10 ** e) + 4, 'text-anchor': 'end', fill: 'currentColor', 'font-size': 11 });
		t.textContent = `1e${e}`;
		svg.append(t);
	}
	const ax = svgEl('text', { x: (L + W) / 2, y: H - 4, 'text-anchor': 'middle', fill: 'currentColor', 'font-size': 12 });
	ax.textContent = 'FLOP per byte moved';
	const ay = svgEl('text', { x: 12, y: (H - B) / 2, 'text-anchor': 'middle', fill: 'currentColor', 'font-size': 12, transform: `rotate(-90 12 ${(H - B) / 2})` });
	ay.textContent = 'TFLOP/s';
	svg.append(ax, ay);
	const tb = summary.peak_tb_s;
	for (const p of tb ? peaks : []) { // the memory slope up to the ridge, then the ceiling
		const ridge = p / tb, lo = 10 ** x0;
		const line = svgEl('polyline', { points: `${X(lo)},${Y(lo * tb)} ${X(ridge)},${Y(p)} ${X(10 ** x1)},${Y(p)}`, fill: 'none', stroke: '#888', 'stroke-dasharray': '4 3' });
		line.dataset.peak = String(p);
		svg.append(line);
	}
	pts.forEach((r) => {
		const c = svgEl('circle', { cx: X(r.flops_per_byte), cy: Y(r.tflops_s_mean), r: 5, fill: r.bound === 'compute' ? '#4e79a7' : '#e15759' });
		c.dataset.op = r.name;
		c.dataset.ai = String(r.flops_per_byte);
		c.dataset.tflops = String(r.tflops_s_mean);
		const tip = svgEl('title', {});
		tip.textContent = `${r.name} ${r.params} ${r.dtype}: ${fmt('x', r.tflops_s_mean)} TFLOP/s at ${fmt('x', r.flops_per_byte)} FLOP/B`;
		c.append(tip);
		svg.append(c);
	});
	return svg;
}

const SEQ_NAMES = 6;

// A pattern's first SEQ_NAMES names, and how many more.
function shortPattern(p) {
	const names = p.split('|');
	return names.length > SEQ_NAMES ? `${names.slice(0, SEQ_NAMES).join('|')}|… (+${names.length - SEQ_NAMES} more)` : p;
}

// api(path) -> JSON; s: the hash state; section(title, ...kids).
export async function renderWaits(api, id, s, writeHash, section) {
	const [idle, la, sy, fl, sq] = await Promise.all([ // the page's own five requests
		api(`/api/file/${id}/idle?show_intervals=1`),
		api(`/api/file/${id}/launches`),
		api(`/api/file/${id}/sync`),
		api(`/api/file/${id}/flops?top=0`),
		api(`/api/file/${id}/sequences`),
	]);
	// the critical path of the first step (none without a ProfilerStep)
	const cp = await api(`/api/file/${id}/critical-path`).catch((e) => ({ error: e.message }));
	const sel = idle.selection;
	const note = `${sel.device_events} device events with a stream, ${sel.streams} streams with kernels`
		+ `${sel.rounded_to_us ? ', times rounded to whole µs as HTA does' : ''}`
		+ `${sel.last_step_filter !== 'none' ? `, ${sel.dropped} launched from the last step left out` : ''}.`;
	const tstate = { sort: s.sort || '', dir: s.dir || 'desc', q: s.q || '' };
	const delays = dataTable({
		name: 'top_delays', rows: la.top_delays, search: true, state: tstate,
		onState: (t) => writeHash({ ...s, sort: t.sort, dir: t.dir, q: t.q }),
	});
	const sm = la.summary;
	const kids = [
		section('Temporal breakdown', el('p', { className: 'note', textContent: note, dataset: { testid: 'waits-note' } }),
			...temporalPart(idle.temporal[0]),
			dataTable({ name: 'temporal', rows: idle.temporal, search: false })),
		section('Idle time per stream', ...(idle.idle.length ? streamBars(idle.idle) : []),
			idle.idle.length ? dataTable({ name: 'idle', rows: idle.idle, search: false })
				: el('p', { className: 'empty', textContent: 'No kernels on a stream.' })),
		section('Idle intervals', dataTable({ name: 'intervals', rows: idle.intervals, search: false })),
		section('Launches',
			el('div', { className: 'cards' },
				card('Launches joined to GPU work', String(sm.pairs), 'card-launches'),
				card('Short kernels', String(sm.short_kernels), 'card-short'),
				card(`Runtime outliers (> ${fmtDur(sm.runtime_cutoff_ns)})`, String(sm.runtime_outliers), 'card-runtime-outliers'),
				card(`Delay outliers (> ${fmtDur(sm.delay_cutoff_ns)})`, String(sm.delay_outliers), 'card-delay-outliers')),
			dataTable({ name: 'stats', rows: la.stats, search: false })),
		section('Largest launch delays', delays),
		section('ATen ops and the kernels they launch', la.aten_ops.length
			? dataTable({ name: 'aten_ops', rows: la.aten_ops, search: la.aten_ops.length > 10 })
			: el('p', { className: 'empty', textContent: 'No launch under an aten:: operator.' })),
		section('Where the host waits for the device',
			el('div', { className: 'cards' },
				card('Calls that block the host', String(sy.summary.blocking_calls), 'card-sync-calls'),
				card('Host time blocked', fmt('blocked_ns', sy.summary.blocked_ns), 'card-sync-blocked'),
				card("Of the trace's span", fmt('blocked_pct', sy.summary.blocked_pct), 'card-sync-pct')),
			sy.sites.length ? dataTable({ name: 'sync_sites', rows: sy.sites, search: sy.sites.length > 10 })
				: el('p', { className: 'empty', textContent: 'No synchronizing call.' })),
		section('FLOPs and the roofline', fl.ops.length
			? el('div', {},
				el('p', { className: 'note', dataset: { testid: 'flops-note' }, textContent: `${fl.summary.calls} calls modelled, `
					+ `${fmt('x', fl.summary.gflop)} GFLOP in ${fmt('gpu_time_ns', fl.summary.gpu_time_ns)}: `
					+ `${fmt('x', fl.summary.tflops_s)} TFLOP/s${fl.summary.gpu ? ` on ${fl.summary.gpu}` : ''}.` }),
				roofline(fl.ops, fl.summary),
				dataTable({ name: 'flops_ops', rows: fl.ops, search: fl.ops.length > 10 }))
			: el('p', { className: 'empty', textContent: 'No matrix multiply or attention call with recorded shapes (record_shapes=True).' })),
		section('Critical path', cp.error
			? el('p', { className: 'empty', dataset: { testid: 'cp-note' }, textContent: `No critical path: ${cp.error}` })
			: el('div', {},
				el('p', { className: 'note', dataset: { testid: 'cp-note' }, textContent: `HTA's critical path of ${cp.critical_path.annotation} `
					+ `${cp.critical_path.instance}: ${cp.critical_path.path_events} events, ${cp.critical_path.path_nodes - 1} edges, `
					+ `${fmt('path_ns', cp.critical_path.path_ns)}; the timeline draws it (critical=${cp.critical_path.instance}).` }),
				dataTable({ name: 'cp_summary', rows: cp.summary, search: false }))),
		section('Kernel sequences', el('p', { className: 'note', dataset: { testid: 'seq-note' },
			textContent: `${sq.summary.instances} steps launching at least ${sq.summary.min_length} kernels, `
				+ `${sq.summary.patterns} kernel sequences (the same sequence in several steps: a CUDA graph candidate).` }),
		sq.sequences.length
			? dataTable({ name: 'sequences', rows: sq.sequences.map((r) => ({ ...r, pattern: shortPattern(r.pattern) })),
				search: sq.sequences.length > 10 })
			: el('p', { className: 'empty', textContent: 'No step launching enough kernels.' })),
	];
	return { kids, search: delays };
}
