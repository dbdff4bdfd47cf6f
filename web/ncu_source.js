// ncu_source: the Source tab of the Nsight Compute page, for a kernel
// profiled with the SourceCounters section: one row per SASS instruction
// address with its per-instruction counters (the instances of
// inst_executed and its kin, whose correlation value is the address), the
// hottest first (most warp instructions executed), in the sortable table
// of table.js. From GET /api/file/ID/ncu/body?id=N&metric=SOURCE_METRICS
// (`ncu body --metric RE`: each matching metric's instances, x = the
// address). The report stores no SASS text (ncu disassembles the cubin when
// it shows its Source page), so the rows are by address only.

import { dataTable } from './table.js';
import { el } from './dom.js';

// The per-address counters, in column order: metric -> column key.
export const SOURCE_COUNTERS = [
	['inst_executed', 'inst_executed'],
	['thread_inst_executed', 'thread_inst_executed'],
	['thread_inst_executed_true', 'thread_inst_executed_pred_on'],
];
export const SOURCE_METRICS = `^(${SOURCE_COUNTERS.map(([m]) => m).join('|')})$`;

// Rows by address from the body rows: [{address (hex text), inst_executed,
// thread_inst_executed, thread_inst_executed_pred_on}], most instructions
// executed first, ties by address.
export function sourceRows(body) {
	const key = new Map(SOURCE_COUNTERS);
	const byPc = new Map();
	for (const r of body) {
		if (r.instance === null || !key.has(r.metric) || typeof r.x !== 'number') continue;
		if (!byPc.has(r.x)) byPc.set(r.x, Object.fromEntries([['pc', r.x], ...SOURCE_COUNTERS.map(([, k]) => [k, null])]));
		byPc.get(r.x)[key.get(r.metric)] = r.value;
	}
	return [...byPc.values()].sort((a, b) => (b.inst_executed ?? -1) - (a.inst_executed ?? -1) || a.pc - b.pc)
		.map(({ pc, ...rest }) => ({ address: `0x${pc.toString(16)}`, ...rest }));
}

// The tab's content; body: the body answer's rows for SOURCE_METRICS.
export function sourceTab(body, s, onState) {
	const rows = sourceRows(body);
	if (!rows.length) return el('p', { className: 'empty', dataset: { testid: 'ncu-source-empty' }, textContent: 'This kernel has no per-instruction source counters (profile with --section SourceCounters).' });
	return el('div', { className: 'ncu-source', dataset: { testid: 'ncu-source' } },
		el('p', { className: 'kmeta', textContent: `${rows.length} SASS instructions, most executed first. The report stores no SASS text (Nsight Compute disassembles the cubin): rows are by address.` }),
		dataTable({ name: 'ncu-source', rows, state: { sort: s.ssort || '', dir: s.sdir || 'desc', q: s.sq || '' }, onState,
			titles: { address: 'Address', inst_executed: 'Warp Inst. Executed', thread_inst_executed: 'Thread Inst. Executed', thread_inst_executed_pred_on: 'Predicated-On Thread Inst.' } }));
}
