// ncu_summary: the Summary tab of the Nsight Compute page, the first tab
// of a kernel: the headline numbers of the launch as cards (each value and
// unit as ncu prints them with its default auto units: the text and unit
// of GET /api/file/ID/ncu/raw?id=N&print_units=auto, and the metric's
// description from that answer as the card's title), the throughput and
// occupancy percentages as bars, and every rule message of the kernel
// (GET .../ncu/hints), highest estimated speedup first, each linking to
// its section.
//
// The first half is pure (node imports it in the tests).

import { el } from './dom.js';

// The cards, in order. metrics: the candidates, the first the report has
// wins, unless a section of the report labels one of them with the card's
// label (SM Busy is ..._active in 2022.4 reports, ..._elapsed later; the
// report's own section says which it shows).
export const SUMMARY = [
	{ key: 'duration', label: 'Duration', metrics: ['gpu__time_duration.sum'] },
	{ key: 'sm_throughput', label: 'Compute (SM) Throughput', metrics: ['sm__throughput.avg.pct_of_peak_sustained_elapsed'], bar: true },
	{ key: 'memory_throughput', label: 'Memory Throughput', metrics: ['gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed'], bar: true },
	{ key: 'dram_throughput', label: 'DRAM Throughput', metrics: ['gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed'], bar: true },
	{ key: 'sm_busy', label: 'SM Busy', metrics: ['sm__instruction_throughput.avg.pct_of_peak_sustained_elapsed', 'sm__instruction_throughput.avg.pct_of_peak_sustained_active'], bar: true },
	{ key: 'achieved_occupancy', label: 'Achieved Occupancy', metrics: ['sm__warps_active.avg.pct_of_peak_sustained_active'], bar: true },
	{ key: 'theoretical_occupancy', label: 'Theoretical Occupancy', metrics: ['sm__maximum_warps_per_active_cycle_pct'], bar: true },
	{ key: 'ipc_active', label: 'Executed Ipc Active', metrics: ['sm__inst_executed.avg.per_cycle_active'] },
	{ key: 'ipc_elapsed', label: 'Executed Ipc Elapsed', metrics: ['sm__inst_executed.avg.per_cycle_elapsed'] },
	{ key: 'sm_frequency', label: 'SM Frequency', metrics: ['gpc__cycles_elapsed.avg.per_second'] },
	{ key: 'registers', label: 'Registers Per Thread', metrics: ['launch__registers_per_thread'] },
	{ key: 'block_size', label: 'Block Size', metrics: ['launch__block_size'] },
	{ key: 'grid_size', label: 'Grid Size', metrics: ['launch__grid_size'] },
	{ key: 'threads', label: 'Threads', metrics: ['launch__thread_count'] },
	{ key: 'waves', label: 'Waves Per SM', metrics: ['launch__waves_per_multiprocessor'] },
];

// The metrics of a raw answer (one kernel's) by name: {unit, value, text,
// description}.
export function rawIndex(raw) {
	const desc = new Map((raw.metric_descriptions || []).map((r) => [r.metric, r.description]));
	return new Map(raw.metrics.map((r) => [r.metric, { unit: r.unit ?? '', value: r.value ?? null, text: r.text ?? null, description: desc.get(r.metric) ?? null }]));
}

// The cards: [{key, label, metric (null: the report has none), unit, value,
// text, description}]. byLabel: Map(section label, lower case -> metric
// names the report's sections show under it).
export function summaryCards(metrics, byLabel = new Map()) {
	return SUMMARY.map((c) => {
		const shown = (byLabel.get(c.label.toLowerCase()) || []).find((m) => c.metrics.includes(m) && metrics.has(m));
		const metric = shown || c.metrics.find((m) => metrics.has(m)) || null;
		const m = metric ? metrics.get(metric) : null;
		return { key: c.key, label: c.label, bar: !!c.bar, metric, unit: m ? m.unit : '', value: m ? m.value : null, text: m ? m.text : null, description: m ? m.description : null };
	});
}

// Section labels -> metric names, from indexBody's sections (ncu_charts.js).
export function labelIndex(sections) {
	const out = new Map();
	for (const s of sections.values()) {
		for (const m of [...s.header, ...s.extra]) {
			const k = (m.label || '').toLowerCase();
			if (!out.has(k)) out.set(k, []);
			out.get(k).push(m.metric);
		}
	}
	return out;
}

// --- drawing ---

// The tab's content. cards: summaryCards(); hints: the kernel's hints rows
// (in the order to show); bars(testid, title, bars): the bar chart of
// ncu_charts.js; open(section): opens a section tab.
export function summaryTab(cards, hints, { bars, hintText, open }) {
	const grid = el('div', { className: 'cards ncu-summary-cards', dataset: { testid: 'ncu-summary-cards' } }, ...cards.map((c) => {
		const card = el('div', { className: 'card', title: c.metric ? `${c.metric}${c.description ? `: ${c.description}` : ''}` : 'Not in this report (its section was not collected)', dataset: { testid: 'ncu-summary-card', key: c.key } },
			el('div', { className: 'label', textContent: c.label }),
			el('div', { className: 'value' }, c.text ?? 'n/a', c.unit ? el('span', { className: 'unit', textContent: ` ${c.unit}` }) : ''));
		if (c.metric) Object.assign(card.dataset, { metric: c.metric, unit: c.unit, text: c.text ?? '' });
		if (typeof c.value === 'number') card.dataset.value = String(c.value);
		return card;
	}));
	const pct = cards.filter((c) => c.bar && c.unit === '%' && typeof c.value === 'number');
	const out = [grid];
	if (pct.length) out.push(el('div', { className: 'ncu-charts' }, bars('ncu-summary-bars', 'Throughput and occupancy (% of peak)', pct.map((c) => ({ metric: c.metric, label: c.label, value: c.value })))));
	out.push(el('h3', { textContent: hints.length ? `Rule results (${hints.length})` : 'Rule results' }));
	if (!hints.length) out.push(el('p', { className: 'empty', textContent: 'The report has no rule results for this kernel (ncu ran no rules, or none had a message).' }));
	else {
		out.push(el('ol', { className: 'ncu-rules ncu-summary-hints', dataset: { testid: 'ncu-summary-hints' } }, ...hints.map((r) => {
			const li = el('li', { title: `Open ${r.section}`, dataset: { section: r.section, rule: r.rule, type: r.type ?? '' } },
				el('span', { className: 'badge', textContent: r.type ?? '', dataset: { type: r.type ?? '' } }),
				` ${r.section} · ${r.rule}${r.title ? ` (${r.title})` : ''}: `, el('span', { className: 'speedup', textContent: hintText(r) || 'no estimate' }),
				el('div', { className: 'message', textContent: r.message ?? '' }));
			li.addEventListener('click', () => open(r.section));
			return li;
		})));
	}
	return el('div', { className: 'ncu-summary', dataset: { testid: 'ncu-summary' } }, ...out);
}
