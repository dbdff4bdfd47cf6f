// overview: the Overview page of a trace, over /api/file/ID/summary (the
// JSON of `gpuprof summary`), /api/file/ID/info (`gpuprof info`: the span
// and the event and kernel counts) and /api/file/ID/ops (`gpuprof ops`: the
// number of distinct operators). The page is drawn first from
// summary?quick=1 (`summary --quick`: what needs neither the operator tree
// nor the GPU waits analyses, about the time of `gpuprof steps`) and info,
// its Tensor Core values and recommendations marked pending (data-pending,
// no test id yet), then drawn again, whole, from the full summary
// (data-complete="1" on the page's root then). ops is asked for after the
// first two and fills its card: on a big trace its analysis would
// otherwise share the two cores with the summary's and delay the page.
// Summary cards, a GPU-utilization gauge per GPU that ran kernels, the
// step-time breakdown (chart and table), the GPUs with a note for a GPU the
// trace's deviceProperties do not describe, the recommendations and the
// input anomalies. Every number is the server's; the page formats them.

import { fmt, fmtDur } from './fmt.js';
import { dataTable } from './table.js';
import { stackedBar } from './charts.js';
import { el, svgEl } from './dom.js';

export function card(label, value, testid, title) {
	return el('div', { className: 'card', title: title || '' }, el('div', { className: 'label', textContent: label }),
		el('div', { className: 'value', textContent: value, dataset: testid ? { testid } : {} }));
}

// A half-circle gauge of pct (0..100) for GPU gpu.
function gauge(gpu, pct) {
	const R = 40, cx = 50, cy = 50;
	const at = (f) => [cx - R * Math.cos(Math.PI * f), cy - R * Math.sin(Math.PI * f)];
	const f = Math.min(1, Math.max(0, pct / 100));
	const [x1, y1] = at(f);
	const svg = svgEl('svg', { viewBox: '0 0 100 58', width: 160, height: 93, role: 'img', 'aria-label': `GPU ${gpu} utilization ${fmt('pct', pct)}` });
	svg.append(svgEl('path', { d: `M ${cx - R} ${cy} A ${R} ${R} 0 0 1 ${cx + R} ${cy}`, fill: 'none', stroke: 'var(--line)', 'stroke-width': 10 }));
	if (f > 0) svg.append(svgEl('path', { d: `M ${cx - R} ${cy} A ${R} ${R} 0 0 1 ${x1.toFixed(3)} ${y1.toFixed(3)}`, fill: 'none', stroke: '#4e79a7', 'stroke-width': 10 }));
	const t = svgEl('text', { x: cx, y: cy - 2, 'text-anchor': 'middle', 'font-size': 14, fill: 'currentColor' });
	t.textContent = fmt('pct', pct);
	svg.append(t);
	return el('figure', { className: 'gauge', dataset: { testid: `gauge-gpu-${gpu}`, pct: String(pct) } }, svg,
		el('figcaption', { textContent: `GPU ${gpu} utilization` }));
}

// The GPUs table, and a note for each GPU that ran kernels but that the
// trace's deviceProperties do not list (its properties are unknown).
function gpuSection(gpus, section) {
	const listed = gpus.filter((g) => g.name !== null).map((g) => g.gpu);
	const unknown = gpus.filter((g) => g.name === null && g.kernels > 0);
	const notes = unknown.map((g) => el('p', { className: 'note', dataset: { testid: 'gpu-unlisted' },
		textContent: `GPU ${g.gpu} ran ${g.kernels} kernels, but the trace's deviceProperties do not list it (${listed.length ? `they list GPU ${listed.join(', ')}` : 'they list no GPU'}): its name, memory, compute capability and SMs are unknown, and the occupancy estimates use no device limits.` }));
	const table = dataTable({ name: 'gpus', rows: gpus, search: false,
		cells: { name: (v) => (v === null ? el('span', { className: 'empty', textContent: 'not in deviceProperties' }) : null) } });
	return section('GPUs', ...notes, table,
		el('p', { className: 'note', dataset: { testid: 'gpus-tc-note' }, textContent: 'Tensor Cores: the share of Tensor Core kernels in the kernel time the operators launched on that GPU (the Kernels page\'s share is of all kernel time).' }));
}

// The Unique operators card, filled when the ops answer (asked once
// `after` resolves) comes.
function operatorsCard(api, id, after) {
	const c = card('Unique operators', '…', 'card-operators', 'Distinct operator names (the Operators page\'s rows)');
	const v = c.querySelector('.value');
	v.dataset.pending = '1';
	after.then(() => api(`/api/file/${id}/ops`)).then((ops) => { v.textContent = String(ops.operators.length); },
		(e) => { v.textContent = '–'; v.title = String(e.message || e); }).finally(() => { delete v.dataset.pending; });
	return c;
}

// A value the full summary brings: its card shows '…' (data-pending, and
// no test id until it is there).
const PENDING = '…';

// The page's sections from summary d (quick: tree values pending) and info.
function draw(d, info, quick, opsCard, section) {
	const ov = d.overview, tr = info.trace;
	const parts = d.breakdown.filter((p) => p.part !== 'Total');
	const busy = d.gpus.filter((g) => g.kernels > 0 && g.gpu_utilization_pct !== null);
	const tc = card('Tensor-Core-eligible ops (of operators\' kernel time)', quick ? PENDING : fmt('tc_eligible_pct', ov.tc_eligible_pct), quick ? undefined : 'card-tc',
		'Kernel time of the operators that could use Tensor Cores over the kernel time of all operators');
	if (quick) tc.querySelector('.value').dataset.pending = '1';
	const recs = quick
		? el('p', { className: 'empty', dataset: { pending: '1' }, textContent: 'Computing the operator tree and the GPU waits analyses…' })
		: d.recommendations.length
			? el('ul', { className: 'recs' }, ...d.recommendations.map((r) => el('li', { textContent: r.text.replace(/<[^>]*>/g, '') })))
			: el('p', { className: 'empty', textContent: 'None.' });
	return [
		el('div', { className: 'cards' },
			card('Total duration', fmtDur(tr.span_ns), 'card-duration', 'First event to last end'),
			card('Events', String(tr.events), 'card-events'),
			opsCard,
			card('Kernels', String(tr.kernels), 'card-kernels', 'GPU kernel launches in the trace'),
			card('Steps', String(ov.steps), 'card-steps'),
			card('Average step time', fmt('avg_step_ns', ov.avg_step_ns), 'card-avg-step'),
			card('Steps time', fmt('window_ns', ov.window_ns), 'card-window', 'First step start to last step end'),
			card('Device type', ov.device_type, 'card-device'),
			tc),
		busy.length ? section('GPU utilization', el('div', { className: 'gauges' }, ...busy.map((g) => gauge(g.gpu, g.gpu_utilization_pct)))) : '',
		section('Average step time breakdown', parts.length ? stackedBar(parts) : el('p', { className: 'empty', textContent: 'No steps.' }),
			dataTable({ name: 'breakdown', rows: d.breakdown, search: false })),
		gpuSection(d.gpus, section),
		section('Recommendations', recs),
		section('Input anomalies', d.anomalies.length ? dataTable({ name: 'anomalies', rows: d.anomalies, search: false })
			: el('p', { className: 'empty', textContent: 'None: the input was well-formed.' })),
	];
}

// Resolves once the page has painted what it holds (a frame, then a task),
// or after 200 ms (a hidden tab paints no frame).
const afterPaint = () => new Promise((r) => { requestAnimationFrame(() => setTimeout(r, 0)); setTimeout(r, 200); });

// The quick answer is drawn first; the full summary and the ops answer are
// asked once it is painted: on a big trace they hold both of the server's
// cores for a second or more, and asked beside the quick one they held
// back the page's first paint (1 GB trace: the cards showed 540 ms after
// their answer had come).
export async function renderOverview(api, id, section) {
	const [d, info] = await Promise.all([api(`/api/file/${id}/summary?quick=1`), api(`/api/file/${id}/info`)]);
	const painted = afterPaint();
	const full = painted.then(() => api(`/api/file/${id}/summary`));
	full.catch(() => {}); // handled below
	const opsCard = operatorsCard(api, id, painted);
	const root = el('div', { className: 'overview', dataset: { testid: 'overview', complete: '0' } }, ...draw(d, info, true, opsCard, section));
	full.then((f) => {
		root.replaceChildren(...draw(f, info, false, opsCard, section));
		root.dataset.complete = '1';
	}, (e) => {
		const p = root.querySelector('[data-pending]:not(.value)');
		if (p) p.textContent = `The full summary failed: ${e.message || e}`;
	});
	return [root];
}
