// waits: the GPU waits page of a trace, over /api/file/ID/idle?show_intervals=1
// and /api/file/ID/launches (the JSON of `gpuprof idle --show-intervals` and
// `gpuprof launches`): the temporal breakdown (cards and one bar), one
// stacked bar per stream of its idle time by category (host wait, kernel
// wait, other; negative sums, from overlapping work, are left out of the
// bar and stay in the table), the idle and interval tables, then the
// launches: their counts, the CPU/GPU/delay statistics, the largest delays
// and the ATen op -> kernel sequences. State in the hash: sort, dir, q (the
// largest-delays table). Then where the host waits for the device
// (/api/file/ID/sync: `gpuprof sync`): its cards and the call sites.

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

// api(path) -> JSON; s: the hash state; section(title, ...kids).
export async function renderWaits(api, id, s, writeHash, section) {
	const [idle, la, sy] = await Promise.all([ // the page's own three requests
		api(`/api/file/${id}/idle?show_intervals=1`),
		api(`/api/file/${id}/launches`),
		api(`/api/file/${id}/sync`),
	]);
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
	];
	return { kids, search: delays };
}
